// A deliberately deadlocked program: every rank receives from its right neighbour first, so
// nobody ever sends. The sim engine must report it, naming each blocked rank and its receive.
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int v = rank;
  MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&v, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
