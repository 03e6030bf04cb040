/* The smallest MPI program: compiled by the tests with the tilempicc / tilempicxx wrappers. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank = -1, size = -1;
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("hello from rank %d of %d\n", rank, size);
  return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}
