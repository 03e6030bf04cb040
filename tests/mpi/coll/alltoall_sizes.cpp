// MPI_Alltoall with the algorithm the launcher selected, at block sizes given on the command line
// (ints per block), checked element by element; rank 0 prints what ran. coll_correctness runs
// every algorithm with small blocks only: this reaches the size-dependent paths (operampi's
// half-to-half stages above 1 KW).
//   usage: alltoall_sizes INTS...
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = 0;
  for (int a = 1; a < argc; ++a) {
    const int k = std::atoi(argv[a]);
    auto item = [&](int from, int to, int i) { return from * 1000003 + to * 1009 + i; };
    std::vector<int> s(static_cast<std::size_t>(size) * k), r(static_cast<std::size_t>(size) * k, -1);
    for (int d = 0; d < size; ++d)
      for (int i = 0; i < k; ++i) s[static_cast<std::size_t>(d) * k + i] = item(rank, d, i);
    if (MPI_Alltoall(s.data(), k, MPI_INT, r.data(), k, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) ++bad;
    for (int f = 0; f < size; ++f)
      for (int i = 0; i < k; ++i)
        if (r[static_cast<std::size_t>(f) * k + i] != item(f, rank, i)) ++bad;
    char name[64] = {};
    TILEMPIX_Coll_selected(MPI_COMM_WORLD, "alltoall", name, sizeof name);
    if (rank == 0) std::printf("alltoall_sizes: %d ints per block: %s\n", k, name);
  }
  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("alltoall_sizes: %s\n", all == 0 ? "ok" : "WRONG");
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
