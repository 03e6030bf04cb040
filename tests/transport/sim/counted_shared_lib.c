/* Work counted in a shared library of the program (built with the opcount plugin) is charged to
 * the rank that runs it: each rank does the same work in the library, so each is charged the same
 * cycles, with ranks as contexts (one copy of the library for every rank) as with processes. */
#include <mpi.h>
#include <stdio.h>

double counted_library_work(const double* x, int n);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static double x[20000];
  const double t0 = MPI_Wtime();
  const double s = counted_library_work(x, 20000);
  const double dt = MPI_Wtime() - t0;
  double lo = 0, hi = 0;
  MPI_Allreduce(&dt, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&dt, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = 0;
  if (rank == 0) {
    printf("library work: %.9f .. %.9f s per rank (sum %g)\n", lo, hi, s);
    /* 20000 iterations of two floating-point operations take well over 1 us on any preset. */
    if (lo != hi || lo < 1e-6) {
      fprintf(stderr, "FAIL: the library's counted work is not charged to each rank alike\n");
      bad = 1;
    }
  }
  MPI_Finalize();
  return bad;
}
