/* size_c N: passes (exit 0) only in a job of N ranks; every rank says what it sees. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int want = argc > 1 ? atoi(argv[1]) : 1, rank = -1, size = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("size_c: rank %d of %d, sum of ranks %d\n", rank, size, sum);
  MPI_Finalize();
  return size == want && sum == want * (want - 1) / 2 ? 0 : 1;
}
