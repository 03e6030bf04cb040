/* Mean time of MPI_Barrier over N calls (after 2 warm-up barriers); rank 0 prints it.
 * Plain MPI, so it also builds with another MPI's mpicc:  barrier_loop [N]  (default 2000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? atoi(argv[1]) : 2000;
  for (int i = 0; i < 2; ++i) MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
  const double mean = (MPI_Wtime() - t0) / (n > 0 ? n : 1);
  if (rank == 0) printf("barrier %.2f us (mean of %d)\n", mean * 1e6, n);
  MPI_Finalize();
  return 0;
}
