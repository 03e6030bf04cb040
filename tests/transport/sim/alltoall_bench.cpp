// The sim transport's throughput benchmark: ROUNDS alltoalls of BYTES per pair among all ranks.
// With "coll" it calls MPI_Alltoall (algorithm per --coll); otherwise a hand-written pairwise exchange (Isend/Irecv to
// every peer, then Waitall). Rank 0 prints the virtual time; the launcher prints the wall time.
// usage: alltoall_bench [BYTES=1024] [ROUNDS=20] [coll]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
  const bool coll = argc > 3 && std::strcmp(argv[3], "coll") == 0;
  const std::size_t n = static_cast<std::size_t>(bytes) * static_cast<std::size_t>(size);
  std::vector<char> out(n), in(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>(rank + i);
  // What every peer sends this rank, once: each round's check is then a memcmp (vectorized)
  // rather than a byte loop that costs more than the messages it checks.
  std::vector<char> expect(n);
  for (int from = 0; from < size; ++from)
    for (int i = 0; i < bytes; ++i)
      expect[static_cast<std::size_t>(from) * bytes + i] =
          static_cast<char>(from + static_cast<std::size_t>(rank) * bytes + i);
  std::vector<MPI_Request> req(2 * static_cast<std::size_t>(size));
  double t0 = MPI_Wtime();
  for (int r = 0; r < rounds; ++r) {
    if (coll) {
      MPI_Alltoall(out.data(), bytes, MPI_CHAR, in.data(), bytes, MPI_CHAR, MPI_COMM_WORLD);
    } else {
      int k = 0;
      for (int i = 1; i < size; ++i) {
        const int from = (rank - i + size) % size;
        MPI_Irecv(in.data() + static_cast<std::size_t>(from) * bytes, bytes, MPI_CHAR, from, r, MPI_COMM_WORLD,
                  &req[k++]);
      }
      for (int i = 1; i < size; ++i) {
        const int to = (rank + i) % size;
        MPI_Isend(out.data() + static_cast<std::size_t>(to) * bytes, bytes, MPI_CHAR, to, r, MPI_COMM_WORLD,
                  &req[k++]);
      }
      MPI_Waitall(k, req.data(), MPI_STATUSES_IGNORE);
    }
    for (int from = 0; from < size; ++from) {
      if (from == rank) continue;
      const std::size_t at = static_cast<std::size_t>(from) * bytes;
      if (std::memcmp(in.data() + at, expect.data() + at, static_cast<std::size_t>(bytes)) != 0) {
        std::fprintf(stderr, "rank %d: bad data from %d\n", rank, from);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
    }
  }
  double t1 = MPI_Wtime();
  if (rank == 0)
    std::printf("alltoall ranks=%d bytes=%d rounds=%d virtual_us=%.3f\n", size, bytes, rounds, (t1 - t0) * 1e6);
  MPI_Finalize();
  return 0;
}
