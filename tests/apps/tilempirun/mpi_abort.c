/* mpi_abort CODE: rank 1 calls MPI_Abort(MPI_COMM_WORLD, CODE) while the other ranks wait in
 * MPI_Recv for a message that never comes; the launcher must end them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int code = argc > 1 ? atoi(argv[1]) : 7;
  int rank = -1, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* job = getenv("TILEMPI_JOB");
  printf("rank %d ready job=%s\n", rank, job ? job : "(none)");
  fflush(stdout);
  if (rank == 1) MPI_Abort(MPI_COMM_WORLD, code);
  MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fprintf(stderr, "rank %d: MPI_Recv returned, which it must not\n", rank);
  MPI_Finalize();
  return 0;
}
