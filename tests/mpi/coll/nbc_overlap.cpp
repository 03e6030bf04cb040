// Non-blocking collectives progress while a rank computes: on the sim transport (virtual time,
// --compute none, so the only work is TILEMPIX_Compute's modeled cycles), each collective is
// timed three ways on every rank, in cycles of the modeled clock:
//   T_coll   the blocking collective alone;
//   T_work   the work alone: W cycles in S slices, with an MPI_Iprobe after each (the cost of
//            an MPI call that finds nothing to do);
//   T_both   MPI_Ixxx, then the same W cycles in S slices with an MPI_Test after each (a round of
//            the algorithm starts only inside an MPI call), then
//            MPI_Wait.
// Without overlap T_both would be T_coll + T_work. The test asserts, on every rank, that the
// collective was complete by the end of the work (the last MPI_Test said so) and that T_both
// hides most of the collective: T_both <= T_work + (1 - h) T_coll, h = 75 % for the allreduce,
// 50 % for the alltoall (whose per-message work on the core is a larger share). The results are
// checked too.
//
//   nbc_overlap [ALLTOALL_INTS]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

int g_rank = 0;

#define CHECK(cond)                                                                                 \
  do {                                                                                              \
    if (!(cond)) {                                                                                  \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, #cond); \
      std::fflush(stderr);                                                                          \
      MPI_Abort(MPI_COMM_WORLD, 99);                                                                \
    }                                                                                               \
  } while (0)

long long cycles_since(double t0) { return static_cast<long long>((MPI_Wtime() - t0) / MPI_Wtick() + 0.5); }

/// The slowest rank's value.
long long slowest(long long v) {
  long long m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

struct Timing {
  long long coll, work, both;
  bool done_by_end_of_work;
};

/// Times one collective: start(req) begins it (blocking when req is null), check() verifies the
/// result; work is the modeled cycles of computation, in slices.
template <class Start, class Check>
Timing measure(const char* name, long long work, int slices, int hidden_percent, Start start, Check check) {
  Timing t{};
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  start(nullptr);
  t.coll = slowest(cycles_since(t0));
  check();

  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int s = 0; s < slices; ++s) {
    TILEMPIX_Compute(work / slices);
    int none = 0;  // the same number of MPI calls as below, which the modeled library charges for
    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &none, MPI_STATUS_IGNORE) == MPI_SUCCESS && !none);
  }
  t.work = slowest(cycles_since(t0));

  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  MPI_Request req = MPI_REQUEST_NULL;
  start(&req);
  int flag = 0;
  for (int s = 0; s < slices; ++s) {
    TILEMPIX_Compute(work / slices);
    CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  }
  t.done_by_end_of_work = flag != 0;
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  const long long mine = cycles_since(t0);
  t.both = slowest(mine);
  check();
  int all_done = 0, done = t.done_by_end_of_work;
  MPI_Allreduce(&done, &all_done, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  t.done_by_end_of_work = all_done != 0;
  if (g_rank == 0)
    std::printf("%-10s collective %8lld cycles, work %8lld, both %8lld (sequential would be %lld); "
                "complete by the end of the work on every rank: %s\n",
                name, t.coll, t.work, t.both, t.coll + t.work, t.done_by_end_of_work ? "yes" : "no");
  CHECK(t.done_by_end_of_work);
  CHECK(t.both <= t.work + t.coll * (100 - hidden_percent) / 100);
  CHECK(t.both >= t.work);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int block = argc > 1 ? std::atoi(argv[1]) : 256;  // ints per alltoall block
  const int slices = 64;

  // Allreduce of 4096 doubles (the default algorithm: mesh_reduce_bcast on several mesh rows).
  std::vector<double> x(4096), y(4096);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = g_rank + static_cast<double>(i);
  auto allreduce = [&](MPI_Request* r) {
    std::fill(y.begin(), y.end(), -1.0);
    if (r) CHECK(MPI_Iallreduce(x.data(), y.data(), 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, r) == MPI_SUCCESS);
    else CHECK(MPI_Allreduce(x.data(), y.data(), 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
  };
  auto allreduce_ok = [&] {
    for (std::size_t i = 0; i < y.size(); ++i)
      CHECK(y[i] == n * (n - 1) / 2.0 + n * static_cast<double>(i));
  };
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  allreduce(nullptr);
  const long long t_allreduce = slowest(cycles_since(t0));
  measure("allreduce", 4 * t_allreduce, slices, 75, allreduce, allreduce_ok);

  // Alltoall (the default algorithm: mesh_rounds, a barrier between rounds).
  std::vector<int> s(static_cast<std::size_t>(n * block)), r(s.size());
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < block; ++i) s[static_cast<std::size_t>(p * block + i)] = g_rank * 1000000 + p * 1000 + i % 1000;
  auto alltoall = [&](MPI_Request* q) {
    std::fill(r.begin(), r.end(), -1);
    if (q) CHECK(MPI_Ialltoall(s.data(), block, MPI_INT, r.data(), block, MPI_INT, MPI_COMM_WORLD, q) == MPI_SUCCESS);
    else CHECK(MPI_Alltoall(s.data(), block, MPI_INT, r.data(), block, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
  };
  auto alltoall_ok = [&] {
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < block; ++i) CHECK(r[static_cast<std::size_t>(p * block + i)] == p * 1000000 + g_rank * 1000 + i % 1000);
  };
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  alltoall(nullptr);
  const long long t_alltoall = slowest(cycles_since(t0));
  // mesh_rounds has many rounds (and a barrier between rounds), each of which starts at an MPI
  // call: finer slices give the rounds the calls they need.
  // Half of it hidden: the rest is the core's own work per message (the adapter's send and
  // receive costs), which computing on the same core cannot hide.
  measure("alltoall", 4 * t_alltoall, 8 * slices, 50, alltoall, alltoall_ok);

  // Bad arguments get their class from MPI_Ixxx itself, and leave no request behind.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request bad = 12345;
  int ec = 0;
  MPI_Error_class(MPI_Ibcast(x.data(), 1, MPI_DOUBLE, n, MPI_COMM_WORLD, &bad), &ec);
  CHECK(ec == MPI_ERR_ROOT && bad == MPI_REQUEST_NULL);
  MPI_Error_class(MPI_Iallreduce(x.data(), y.data(), -1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &bad), &ec);
  CHECK(ec == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Ibarrier(MPI_COMM_NULL, &bad), &ec);
  CHECK(ec == MPI_ERR_COMM);
  MPI_Error_class(MPI_Ibarrier(MPI_COMM_WORLD, nullptr), &ec);
  CHECK(ec == MPI_ERR_ARG);
  MPI_Error_class(MPI_Ireduce(x.data(), y.data(), 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD, &bad), &ec);
  CHECK(ec == MPI_ERR_OP);
  MPI_Request ok = MPI_REQUEST_NULL;
  CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &ok) == MPI_SUCCESS);
  MPI_Error_class(MPI_Cancel(&ok), &ec);
  CHECK(ec == MPI_ERR_REQUEST);
  CHECK(MPI_Wait(&ok, MPI_STATUS_IGNORE) == MPI_SUCCESS && ok == MPI_REQUEST_NULL);
  MPI_Error_class(TILEMPIX_Compute(-1), &ec);
  CHECK(ec == MPI_ERR_ARG);

  if (g_rank == 0) std::printf("nbc_overlap: %d ranks: ok\n", n);
  MPI_Finalize();
  return 0;
}
