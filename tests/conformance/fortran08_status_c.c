/* The C side of the status conversions: MPI_Status_c2f / f2c / c2f08 / f082c / f2f08 / f082f
 * carry the source, tag and error and the received count; converting an ignore sentinel
 * (MPI_STATUS_IGNORE, MPI_F08_STATUS_IGNORE) is MPI_ERR_ARG. */
#include <mpi.h>
#include <stdio.h>

static int fails = 0;
static void check(int rank, int ok, const char* what) {
  if (!ok) {
    printf("rank %d: failed: %s\n", rank, what);
    ++fails;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int right = (rank + 1) % n, left = (rank + n - 1) % n;
  double data[5] = {1, 2, 3, 4, 5}, got[5];
  MPI_Status st, back;
  MPI_Sendrecv(data, 5, MPI_DOUBLE, right, 42, got, 5, MPI_DOUBLE, left, 42, MPI_COMM_WORLD, &st);

  MPI_Fint f[TILEMPI_STATUS_INTS]; /* mpif.h's MPI_STATUS_SIZE; MPI_SOURCE is 1 and MPI_TAG 2 there */
  MPI_F08_status f08, f08b;
  int count = -1;
  check(rank, MPI_Status_c2f(&st, f) == MPI_SUCCESS, "c2f");
  check(rank, f[0] == left && f[1] == 42, "c2f fields");
  check(rank, MPI_Status_f2f08(f, &f08) == MPI_SUCCESS && f08.MPI_SOURCE == left && f08.MPI_TAG == 42, "f2f08");
  check(rank, MPI_Status_f082f(&f08, f) == MPI_SUCCESS && MPI_Status_f2c(f, &back) == MPI_SUCCESS, "f082f, f2c");
  MPI_Get_count(&back, MPI_DOUBLE, &count);
  check(rank, count == 5 && back.MPI_SOURCE == left, "the count survives the round trip");
  check(rank, MPI_Status_c2f08(&st, &f08b) == MPI_SUCCESS && MPI_Status_f082c(&f08b, &back) == MPI_SUCCESS, "c2f08, f082c");
  MPI_Get_count(&back, MPI_DOUBLE, &count);
  check(rank, count == 5 && back.MPI_TAG == 42, "c2f08 and back");
  check(rank, MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08) == MPI_ERR_ARG, "c2f08 of MPI_STATUS_IGNORE");
  check(rank, MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back) == MPI_ERR_ARG, "f082c of MPI_F08_STATUS_IGNORE");
  check(rank, MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE) == MPI_ERR_ARG, "c2f08 into MPI_F08_STATUS_IGNORE");

  int total = 0;
  MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && total == 0) printf("fortran08_status_c: PASS on %d ranks\n", n);
  MPI_Finalize();
  return total != 0;
}
