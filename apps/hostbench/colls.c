/* Mean time of MPI_Barrier and of an 8-byte MPI_Allreduce (sum of one double) over N calls each
 * (default 2000), after 2 warm-up calls. Rank 0 prints "barrier <us>" and "allreduce <us>".
 *   colls [N] */
#include "hostbench.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? atoi(argv[1]) : 2000;
  if (n < 1) {
    if (rank == 0) fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  for (int i = 0; i < 2; ++i) MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
  const double barrier = (MPI_Wtime() - t0) / n;
  double in = rank, out = 0;
  for (int i = 0; i < 2; ++i) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double allreduce = (MPI_Wtime() - t0) / n;
  if (rank == 0) printf("barrier %.3f\nallreduce %.3f\n", barrier * 1e6, allreduce * 1e6);
  MPI_Finalize();
  return 0;
}
