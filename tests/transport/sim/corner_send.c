/* Rank 0 sends one message to the last rank and nothing else moves: on 4 ranks (2x2 tiles) the
   packet crosses the mesh diagonally, so its links say which routing function ran (the trace's
   link tracks, sim_check.sh trace_routing). */
#include <mpi.h>

int main(int argc, char** argv) {
  int rank, size;
  char buf[64] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) MPI_Send(buf, sizeof buf, MPI_CHAR, size - 1, 0, MPI_COMM_WORLD);
  if (rank == size - 1) MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
