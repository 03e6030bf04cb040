// Two simultaneous streams on the modeled mesh: rank A sends COUNT messages of BYTES to rank B
// while rank C sends as many to rank D; each receiver answers with one word at the end.
// Prints the virtual cycles each sender took. usage: contention A B C D BYTES COUNT
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 7) {
    if (rank == 0) std::fprintf(stderr, "usage: contention A B C D BYTES COUNT\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int a = std::atoi(argv[1]), b = std::atoi(argv[2]), c = std::atoi(argv[3]), d = std::atoi(argv[4]);
  const int bytes = std::atoi(argv[5]), count = std::atoi(argv[6]);
  std::vector<char> buf(static_cast<std::size_t>(bytes), 3);
  int ack = 0;
  const double tick = MPI_Wtick();
  if (rank == a || rank == c) {
    const int to = rank == a ? b : d;
    double t0 = MPI_Wtime();
    for (int i = 0; i < count; ++i) MPI_Send(buf.data(), bytes, MPI_CHAR, to, 1, MPI_COMM_WORLD);
    MPI_Recv(&ack, 1, MPI_INT, to, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t1 = MPI_Wtime();
    std::printf("stream %d->%d cycles=%lld\n", rank, to, static_cast<long long>((t1 - t0) / tick + 0.5));
  } else if (rank == b || rank == d) {
    const int from = rank == b ? a : c;
    for (int i = 0; i < count; ++i)
      MPI_Recv(buf.data(), bytes, MPI_CHAR, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&ack, 1, MPI_INT, from, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
