// A stream of multicasts from rank 0 to every other rank, for [Wallentowitz 2018] §3.3.1.1's
// comparison of a multicast in software (one send per destination) with the adapter's multicast:
//   multicast_stream sw BYTES COUNT   rank 0 posts one MPI_Isend per destination, then waits for all
//   multicast_stream hw BYTES COUNT   MPI_Bcast (run it with --coll bcast=namp_multicast)
// Rank 0 prints the virtual cycles from the first call to the end of the last (MPI_Wtime on the
// sim), and every rank checks what it received; the run report (--report) gives rank 0's busy
// cycles (comm_cycles - blocked_cycles): its sender overhead.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mode = argc > 1 ? argv[1] : "hw";
  const int bytes = argc > 2 ? std::atoi(argv[2]) : 4;
  const int count = argc > 3 ? std::atoi(argv[3]) : 1;
  if ((mode != "sw" && mode != "hw") || bytes < 0 || count < 1) {
    if (rank == 0) std::fprintf(stderr, "usage: multicast_stream sw|hw BYTES COUNT\n");
    MPI_Finalize();
    return 2;
  }
  std::vector<unsigned char> buf(static_cast<std::size_t>(bytes));
  std::vector<MPI_Request> reqs(static_cast<std::size_t>(size));
  int bad = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int m = 0; m < count; ++m) {
    if (rank == 0)
      for (int i = 0; i < bytes; ++i) buf[static_cast<std::size_t>(i)] = static_cast<unsigned char>(m + i);
    if (mode == "hw") {
      MPI_Bcast(buf.data(), bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
      for (int d = 1; d < size; ++d) MPI_Isend(buf.data(), bytes, MPI_BYTE, d, m, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(d - 1)]);
      MPI_Waitall(size - 1, reqs.data(), MPI_STATUSES_IGNORE);
    } else {
      MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < bytes; ++i) bad += buf[static_cast<std::size_t>(i)] != static_cast<unsigned char>(m + i);
  }
  const double t1 = MPI_Wtime();
  double span = t1 - t0, longest = 0;
  MPI_Reduce(&span, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int bad_all = 0;
  MPI_Reduce(&bad, &bad_all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double tick = MPI_Wtick();
    std::printf("multicast_stream %s: %d x %d bytes to %d destinations: %.0f cycles%s\n", mode.c_str(), count, bytes,
                size - 1, longest / tick, bad_all ? " (WRONG DATA)" : "");
  }
  MPI_Finalize();
  return bad_all ? 1 : 0;
}
