/* Rank 1 recurses without end after a few MPI calls; the others wait in a barrier. With ranks as
 * contexts the simulator reports a stack overflow of rank 1 (its stack is --set sim.stack_kib);
 * the job ends with 128 + SIGSEGV and leaves no shared memory behind. */
#include <mpi.h>
#include <stdio.h>

/* Ends only when the stack does (the limit is a global the compiler cannot see through). */
volatile int limit = 1 << 30;

static int depth(volatile char* prev, int n) {
  volatile char frame[4096];
  frame[0] = (char)n;
  frame[4095] = prev ? prev[0] : 0;
  if (n >= limit) return 0;
  return depth(frame, n + 1) + frame[4095];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int x = rank, sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 1) printf("stack_overflow: %d\n", depth(NULL, 0));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
