// Ping-pong between two ranks on the modeled mesh; prints the virtual cycles of one round trip.
// usage: pingpong A B BYTES ITERS   (ranks other than A and B just finalize)
// Output (rank A): "pingpong A B BYTES cycles_per_roundtrip=C"
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int a = argc > 1 ? std::atoi(argv[1]) : 0;
  int b = argc > 2 ? std::atoi(argv[2]) : 1;
  int bytes = argc > 3 ? std::atoi(argv[3]) : 8;
  int iters = argc > 4 ? std::atoi(argv[4]) : 10;
  std::vector<char> buf(static_cast<std::size_t>(bytes > 0 ? bytes : 1), 1);
  const double tick = MPI_Wtick();
  if (rank == a) {
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      MPI_Send(buf.data(), bytes, MPI_CHAR, b, 1, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_CHAR, b, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    double t1 = MPI_Wtime();
    long long cycles = static_cast<long long>((t1 - t0) / tick + 0.5);
    std::printf("pingpong %d %d %d cycles_per_roundtrip=%lld total=%lld\n", a, b, bytes, cycles / iters, cycles);
  } else if (rank == b) {
    for (int i = 0; i < iters; ++i) {
      MPI_Recv(buf.data(), bytes, MPI_CHAR, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_CHAR, a, 2, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
