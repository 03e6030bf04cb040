/* --compute model: a rank's own work is charged as the tile core would take it. Each rank runs
 * a loop of mixed integer and floating-point work between two MPI_Wtime calls and prints the
 * virtual time that passed beside the host time the loop took (thread CPU time and wall time),
 * for sim_check.sh to compare with the ratio the launcher reports.
 *   compute_work MILLISECONDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double want = (argc > 1 ? atof(argv[1]) : 50.0) * 1e-3;
  enum { kN = 4096 };
  static double x[kN], y[kN];
  static unsigned buckets[kN];
  for (int i = 0; i < kN; ++i) x[i] = (double)(i % 17) * 0.25;
  MPI_Barrier(MPI_COMM_WORLD);
  const double v0 = MPI_Wtime();
  const double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
  double sum = 0;
  unsigned key = 12345u + (unsigned)rank;
  while (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0 < want)
    for (int i = 0; i < kN; ++i) {
      y[i] = y[i] * 0.5 + x[(i * 7) % kN];
      sum += y[i];
      key = key * 1664525u + 1013904223u;
      ++buckets[key >> 20];
    }
  const double c1 = clock_s(CLOCK_THREAD_CPUTIME_ID), w1 = clock_s(CLOCK_MONOTONIC);
  const double v1 = MPI_Wtime();
  printf("rank %d: host_cpu=%.6f host_wall=%.6f virtual=%.6f (checksum %g %u)\n", rank, c1 - c0, w1 - w0, v1 - v0,
         sum, buckets[0]);
  MPI_Finalize();
  return 0;
}
