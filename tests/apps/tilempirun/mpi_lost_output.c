/* mpi_lost_output MODE: every rank prints three lines without flushing them (stdout is a pipe
 * or a file, so stdio holds them in its buffer), then:
 *   abort          rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait in MPI_Recv
 *   fatal          rank 1 makes a fatal MPI error (a send to a rank that does not exist)
 *   no-finalize    rank 1 returns from main without MPI_Finalize; the others wait for it
 *   crash          rank 1 writes through a null pointer (SIGSEGV); the others wait for it
 *   spin           rank 1 loops in its own code forever; the others wait for it (--timeout ends it)
 *   mpi-loop       every rank calls MPI_Allreduce forever (--timeout ends it)
 *   none-finalize  every rank returns from main without MPI_Finalize
 *   fail-after-finalize  every rank calls MPI_Finalize; rank 1 then returns 3 at once, the
 *                  others take a moment (a real 0.3 s where ranks are processes) and print one
 *                  more line: the job fails with status 3 but is not ended early
 * Every line must reach the launcher's output whatever ends the job. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "abort";
  int rank = -1, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int k = 0; k < 3; ++k) printf("rank %d line %d\n", rank, k);
  MPI_Barrier(MPI_COMM_WORLD);
  if (strcmp(mode, "none-finalize") == 0) return 0;
  if (strcmp(mode, "fail-after-finalize") == 0) {
    MPI_Finalize();
    if (rank == 1) return 3;
    usleep(300000);
    printf("rank %d after finalize\n", rank);
    return 0;
  }
  if (strcmp(mode, "mpi-loop") == 0)
    for (;;) MPI_Allreduce(&rank, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 1) {
    if (strcmp(mode, "spin") == 0)
      for (volatile unsigned long spins = 0;; spins = spins + 1) {
      }
    if (strcmp(mode, "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
    if (strcmp(mode, "fatal") == 0) MPI_Send(&value, 1, MPI_INT, 1000, 0, MPI_COMM_WORLD);
    if (strcmp(mode, "no-finalize") == 0) return 0;
    if (strcmp(mode, "crash") == 0) *(volatile int*)((uintptr_t)value + 16) = 1; /* not null: UBSan checks only null */
  }
  MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fprintf(stderr, "rank %d: MPI_Recv returned, which it must not\n", rank);
  MPI_Finalize();
  return 0;
}
