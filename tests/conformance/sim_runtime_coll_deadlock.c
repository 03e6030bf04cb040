/* Ranks stuck in different collectives (issue 33): rank 0 calls MPI_Bcast (root 1) while the
 * others call MPI_Barrier. The job cannot finish; on the sim the deadlock report must say, for
 * each blocked rank, which collective it is in (it said "nothing pending"). Run through
 * tests/mpi/expect_failure.sh. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, value = 7;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Bcast(&value, 1, MPI_INT, 1, MPI_COMM_WORLD);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: FAILED: a mismatched collective returned\n", rank);
  MPI_Finalize();
  return 1;
}
