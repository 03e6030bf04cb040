// Many MPI calls with no application work between them: under --compute scale:F the run report
// must show almost no compute time, because the library's own work inside the calls is not the
// application's (tests/transport/sim/sim_check.sh compute).
// usage: call_loop ITERS
#include <mpi.h>

#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iters = argc > 1 ? std::atoi(argv[1]) : 500;
  int x = 1, sum = 0;
  for (int i = 0; i < iters; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return sum > 0 ? 0 : 1;
}
