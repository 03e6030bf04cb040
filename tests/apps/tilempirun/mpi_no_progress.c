/* Jobs for the launcher's watch of a job that makes no progress (--deadlock-after, --timeout):
 *
 *   mpi_no_progress deadlock    every rank receives from its right neighbour first: nobody sends
 *   mpi_no_progress slow S      rank 0 computes for S seconds (no MPI call) while the others wait
 *                               in MPI_Recv for it; then, for S seconds more, it sends each of them
 *                               a message every 0.3 s, which they wait for one by one; then all
 *                               meet in MPI_Barrier: slow, but never stuck
 *   mpi_no_progress stuck       rank 0 computes until it is ended, rank 1 waits in MPI_Recv from
 *                               rank 0 (tag 5), the others in MPI_Barrier (for --timeout)
 *   mpi_no_progress finalized   rank 0 calls MPI_Finalize and exits, the others wait in MPI_Recv
 *                               for a message from it (tag 9) that never comes
 *
 * Every rank first prints "rank R ready job=NAME" (for the test's check that nothing is left). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Work outside MPI for `seconds` (a busy loop: the rank runs, it does not sleep). */
static volatile double sink;
static void compute(double seconds) {
  const double end = now() + seconds;
  double x = 1.0;
  while (now() < end)
    for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "deadlock";
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* job = getenv("TILEMPI_JOB");
  printf("rank %d ready job=%s\n", rank, job ? job : "(none)");
  fflush(stdout);

  if (strcmp(mode, "deadlock") == 0) {
    MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD);
  } else if (strcmp(mode, "slow") == 0) {
    const double s = argc > 2 ? atof(argv[2]) : 3.0;
    const int rounds = (int)(s / 0.3) + 1;
    if (rank == 0) {
      compute(s);
      for (int k = 0; k < rounds; ++k) {
        for (int r = 1; r < size; ++r) MPI_Send(&k, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
        compute(0.3);
      }
    } else {
      for (int k = 0; k < rounds; ++k) {
        MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (v != k) {
          fprintf(stderr, "rank %d: message %d carries %d\n", rank, k, v);
          MPI_Abort(MPI_COMM_WORLD, 3);
        }
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
  } else if (strcmp(mode, "stuck") == 0) {
    if (rank == 0)
      compute(600);
    else if (rank == 1)
      MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(mode, "finalized") == 0) {
    if (rank != 0) MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    fprintf(stderr, "mpi_no_progress: unknown mode %s\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return 0;
}
