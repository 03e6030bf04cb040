// Rank 1 (or 0 when alone) calls MPI_Abort with the code given as argument; the others wait
// for a message that never comes. The launcher must end the job with that code.
#include <mpi.h>

#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = argc > 1 ? std::atoi(argv[1]) : 7;
  if (rank == (size > 1 ? 1 : 0)) MPI_Abort(MPI_COMM_WORLD, code);
  int v;
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
