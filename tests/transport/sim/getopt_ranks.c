/* getopt in every rank, with MPI calls between the options so that the ranks' parsing
 * interleaves. A -fPIE program holds copies of optind and optarg (copy relocations); with ranks as
 * contexts each rank must still parse its own arguments. Prints "getopt_ranks: N ranks agree". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = 0, c; const char* name = "none";
  while ((c = getopt(argc, argv, "n:s:")) != -1) {
    MPI_Barrier(MPI_COMM_WORLD);   /* other ranks run getopt in between */
    if (c == 'n') n = atoi(optarg); else if (c == 's') name = optarg;
  }
  const int ok = n == 5 && name[0] == 'a' && argc - optind == 2;
  int all = 0, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!ok) printf("rank %d: n=%d s=%s rest=%d\n", rank, n, name, argc - optind);
  if (rank == 0 && all == size) printf("getopt_ranks: %d ranks agree\n", size);
  MPI_Finalize();
  return all == size ? 0 : 1;
}
