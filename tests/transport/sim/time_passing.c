/* time_passing MODE: what a user sees of time on the sim.
 *   wtime        every rank polls MPI_Wtime until 1 ms of virtual time has passed (as OSU's dummy
 *                compute and HPCG's run sizing do): with --compute none no time passes, and the
 *                library must say so once (the job itself spins until --timeout ends it)
 *   busy SECONDS the ranks exchange barriers until SECONDS of wall time have passed: a job long
 *                enough for the progress lines (sim.progress=on) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "busy";
  int rank = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (strcmp(mode, "wtime") == 0) {
    const double t0 = MPI_Wtime();
    long polls = 0;
    while (MPI_Wtime() - t0 < 1e-3) ++polls;
    printf("rank %d: 1 ms passed after %ld polls\n", rank, polls);
  } else {
    const double seconds = argc > 2 ? atof(argv[2]) : 6;
    const double until = wall() + seconds;
    int go = 1;
    long rounds = 0;
    while (go) {
      MPI_Barrier(MPI_COMM_WORLD);
      go = rank == 0 ? wall() < until : 0;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      ++rounds;
    }
    if (rank == 0) printf("busy: %ld rounds\n", rounds);
  }
  MPI_Finalize();
  return 0;
}
