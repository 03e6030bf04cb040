/* More ranks than the sim transport once allowed (4096): every rank takes part in a barrier and
 * in small allreduces, and each checks the results it gets. Argument: the expected rank count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int expected = argc > 1 ? atoi(argv[1]) : size;
  if (size != expected) {
    printf("rank %d: %d ranks, expected %d\n", rank, size, expected);
    bad = 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  long sum = 0, mine = rank;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (sum != (long)size * (size - 1) / 2) {
    printf("rank %d: sum of the ranks %ld, expected %ld\n", rank, sum, (long)size * (size - 1) / 2);
    bad = 1;
  }
  int top = 0;
  MPI_Allreduce(&rank, &top, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (top != size - 1) {
    printf("rank %d: largest rank %d, expected %d\n", rank, top, size - 1);
    bad = 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && !bad) printf("many_ranks: %d ranks ok\n", size);
  MPI_Finalize();
  return bad;
}
