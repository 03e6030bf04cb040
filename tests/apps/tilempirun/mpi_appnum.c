/* mpi_appnum WORD: prints "<basename of argv[0]> rank R of N app A word WORD sum S", where A is
 * MPI_APPNUM and S the sum of the ranks over MPI_COMM_WORLD (every program of an MPMD job shares
 * it). For the launcher's MPMD test. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, size, sum = 0, flag = 0, app = -1, *appnum = NULL;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  if (flag) app = *appnum;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const char* slash = strrchr(argv[0], '/');
  printf("%s rank %d of %d app %d word %s sum %d\n", slash ? slash + 1 : argv[0], rank, size, app, argc > 1 ? argv[1] : "-",
         sum);
  MPI_Finalize();
  return 0;
}
