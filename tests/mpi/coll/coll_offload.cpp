// The collectives offloaded to the network adapter (mpi/coll/offload.cpp, [Wallentowitz 2018]
// §3.3) on the sim's namp adapter: results on the world and on a split communicator, every root
// kind, element types the adapter reduces, messages of one and of many packets; what ran
// (TILEMPIX_Coll_selected) is the offload where the adapter can, the fallback where it cannot.
//
//   coll_offload run      (--adapter namp) correctness and what ran
//   coll_offload refuse   (TILEMPI_COLL_FALLBACK=error) without the capability the call fails
//                         with MPI_ERR_OTHER; with it, an op the adapter lacks fails with MPI_ERR_OP
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int g_rank = 0;

#define CHECK(cond)                                                                               \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 99);                                                              \
    }                                                                                             \
  } while (0)

std::string ran(MPI_Comm c, const char* coll) {
  char name[64] = {};
  TILEMPIX_Coll_selected(c, coll, name, sizeof name);
  return name;
}

int item(int r, int i) { return r * 1000 + i * 7 + 3; }

void check_comm(MPI_Comm c, bool offloaded) {
  int rank, size;
  MPI_Comm_rank(c, &rank);
  MPI_Comm_size(c, &size);
  for (int n : {1, 7, 3000}) {  // 3000 ints: many packets per part
    for (int root : {0, size - 1}) {
      // bcast
      std::vector<int> b(n);
      for (int i = 0; i < n; ++i) b[i] = rank == root ? item(root, i) : -1;
      CHECK(MPI_Bcast(b.data(), n, MPI_INT, root, c) == MPI_SUCCESS);
      for (int i = 0; i < n; ++i) CHECK(b[i] == item(root, i));
      CHECK(ran(c, "bcast") == (offloaded ? "namp_multicast" : "binomial"));
      // scatter
      std::vector<int> s(static_cast<std::size_t>(n) * size), r(n, -1);
      if (rank == root)
        for (int d = 0; d < size; ++d)
          for (int i = 0; i < n; ++i) s[d * n + i] = item(d, i);
      CHECK(MPI_Scatter(s.data(), n, MPI_INT, r.data(), n, MPI_INT, root, c) == MPI_SUCCESS);
      for (int i = 0; i < n; ++i) CHECK(r[i] == item(rank, i));
      CHECK(ran(c, "scatter") == (offloaded ? "namp_scatter" : "binomial"));
      // gather (and in place at the root)
      for (bool in_place : {false, true}) {
        std::vector<int> g(static_cast<std::size_t>(n) * size, -1), mine(n);
        for (int i = 0; i < n; ++i) mine[i] = item(rank, i);
        const bool ip = in_place && rank == root;
        if (ip) std::memcpy(g.data() + root * n, mine.data(), n * sizeof(int));
        CHECK(MPI_Gather(ip ? MPI_IN_PLACE : mine.data(), n, MPI_INT, g.data(), n, MPI_INT, root, c) == MPI_SUCCESS);
        if (rank == root)
          for (int f = 0; f < size; ++f)
            for (int i = 0; i < n; ++i) CHECK(g[f * n + i] == item(f, i));
      }
      CHECK(ran(c, "gather") == (offloaded ? "namp_gather" : "binomial"));
      // reduce: int SUM, signed char MIN, unsigned short BXOR, int LAND
      {
        std::vector<int> in(n), out(n, -1);
        for (int i = 0; i < n; ++i) in[i] = item(rank, i) - 5000;
        CHECK(MPI_Reduce(in.data(), out.data(), n, MPI_INT, MPI_SUM, root, c) == MPI_SUCCESS);
        if (rank == root)
          for (int i = 0; i < n; ++i) {
            int want = 0;
            for (int q = 0; q < size; ++q) want += item(q, i) - 5000;
            CHECK(out[i] == want);
          }
        CHECK(ran(c, "reduce") == (offloaded ? "namp_reduce" : "binomial"));
        std::vector<signed char> ci(n), co(n, 0);
        for (int i = 0; i < n; ++i) ci[i] = static_cast<signed char>((rank * 37 + i * 11) % 251 - 125);
        CHECK(MPI_Reduce(ci.data(), co.data(), n, MPI_SIGNED_CHAR, MPI_MIN, root, c) == MPI_SUCCESS);
        if (rank == root)
          for (int i = 0; i < n; ++i) {
            int want = 127;
            for (int q = 0; q < size; ++q) want = std::min(want, (q * 37 + i * 11) % 251 - 125);
            CHECK(co[i] == want);
          }
        std::vector<unsigned short> ui(n), uo(n, 0);
        for (int i = 0; i < n; ++i) ui[i] = static_cast<unsigned short>(rank * 4099 + i * 31);
        CHECK(MPI_Reduce(ui.data(), uo.data(), n, MPI_UNSIGNED_SHORT, MPI_BXOR, root, c) == MPI_SUCCESS);
        if (rank == root)
          for (int i = 0; i < n; ++i) {
            unsigned short want = 0;
            for (int q = 0; q < size; ++q) want = static_cast<unsigned short>(want ^ (q * 4099 + i * 31));
            CHECK(uo[i] == want);
          }
      }
      // allreduce: int MAX
      {
        std::vector<int> in(n), out(n, -1);
        for (int i = 0; i < n; ++i) in[i] = (rank * 13 + i) % 17;
        CHECK(MPI_Allreduce(in.data(), out.data(), n, MPI_INT, MPI_MAX, c) == MPI_SUCCESS);
        for (int i = 0; i < n; ++i) {
          int want = 0;
          for (int q = 0; q < size; ++q) want = std::max(want, (q * 13 + i) % 17);
          CHECK(out[i] == want);
        }
        CHECK(ran(c, "allreduce") == (offloaded ? "namp_reduce_multicast" : "recursive_doubling"));
      }
    }
  }
  // Doubles and PROD are not in the adapter's data path: the fallback runs (the policy decides).
  double d = rank + 0.5, dsum = 0;
  CHECK(MPI_Reduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, 0, c) == MPI_SUCCESS);
  if (rank == 0) CHECK(dsum == size * (size - 1) / 2.0 + 0.5 * size);
  if (size > 1) CHECK(ran(c, "reduce") == "binomial");  // one rank: nothing runs
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const std::string mode = argc > 1 ? argv[1] : "run";
  if (mode == "run") {
    check_comm(MPI_COMM_WORLD, true);
    // Inside a non-blocking collective the offload is not used (its transfers block the rank):
    // MPI_Ibcast runs the fallback and completes through MPI_Wait.
    std::vector<int> b(5, g_rank == 0 ? 42 : -1);
    MPI_Request req;
    CHECK(MPI_Ibcast(b.data(), 5, MPI_INT, 0, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    for (int v : b) CHECK(v == 42);
    CHECK(ran(MPI_COMM_WORLD, "bcast") == "binomial");
    MPI_Comm split;  // every other rank, in reverse order: members scattered over the mesh
    MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, size - g_rank, &split);
    check_comm(split, true);
    MPI_Comm_free(&split);
  } else if (mode == "run-without") {
    check_comm(MPI_COMM_WORLD, false);
  } else if (mode == "refuse") {
    int x = 1, y = 0;
    const int want = argc > 2 && std::string(argv[2]) == "capable" ? MPI_ERR_OP : MPI_ERR_OTHER;
    int rc = want == MPI_ERR_OP ? MPI_Reduce(&x, &y, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD)
                                : MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == want);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("coll_offload %s: %d ranks: ok\n", mode.c_str(), size);
  MPI_Finalize();
  return 0;
}
