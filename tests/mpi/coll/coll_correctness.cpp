// Every collective x every registered algorithm x datatypes and ops, against a plain reference
// computed locally (each rank knows what every rank contributes). Runs on MPI_COMM_WORLD and on
// split communicators scattered over the mesh.
//
//   coll_correctness [quick] [only=PREFIX] [nonblocking]
//     quick: fewer datatypes and ops (for large rank counts)
//     only=PREFIX: only the algorithms whose name starts with PREFIX (e.g. only=namp_ on the
//     sim's namp adapter: the offloaded collectives with every datatype and op)
//     nonblocking: every collective as its MPI_Ixxx, tested while pending, then waited for, with
//       an MPI_Ibarrier in flight on the same communicator around it
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "coll/coll.h"

namespace {

int g_world_rank = 0;
bool g_quick = false;
std::string g_only;  // run only algorithms whose name starts with this
std::string g_where;

#define CHECK(cond)                                                                                       \
  do {                                                                                                    \
    if (!(cond)) {                                                                                        \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s [%s]\n", g_world_rank, __FILE__, __LINE__, \
                   #cond, g_where.c_str());                                                               \
      std::fflush(stderr);                                                                                \
      MPI_Abort(MPI_COMM_WORLD, 99);                                                                      \
    }                                                                                                     \
  } while (0)

// The collectives as the test calls them: blocking, or (nonblocking) MPI_Ixxx with an MPI_Ibarrier
// started before it and completed after it on the same communicator, so that two non-blocking
// collectives are in flight at once.
namespace coll {
bool g_nonblocking = false;
template <class Start>
int run(MPI_Comm comm, Start start) {
  MPI_Request bar = MPI_REQUEST_NULL, req = MPI_REQUEST_NULL;
  if (int rc = MPI_Ibarrier(comm, &bar)) return rc;
  if (int rc = start(&req)) {
    MPI_Wait(&bar, MPI_STATUS_IGNORE);
    return rc;
  }
  int flag = 0;
  if (int rc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE)) return rc;
  if (!flag)
    if (int rc = MPI_Wait(&req, MPI_STATUS_IGNORE)) return rc;
  if (req != MPI_REQUEST_NULL) return MPI_ERR_REQUEST;
  return MPI_Wait(&bar, MPI_STATUS_IGNORE);
}
#define TILEMPI_TEST_COLL(Name, IName)                               \
  template <class... A>                                                                \
  int Name(A... a) {                                                                   \
    if (!g_nonblocking) return MPI_##Name(a...);                                       \
    auto args = std::make_tuple(a...);                                                 \
    MPI_Comm comm = std::get<sizeof...(A) - 1>(args);                                  \
    return run(comm, [&](MPI_Request* r) { return MPI_##IName(a..., r); });           \
  }
TILEMPI_TEST_COLL(Barrier, Ibarrier)
TILEMPI_TEST_COLL(Bcast, Ibcast)
TILEMPI_TEST_COLL(Reduce, Ireduce)
TILEMPI_TEST_COLL(Allreduce, Iallreduce)
TILEMPI_TEST_COLL(Alltoall, Ialltoall)
TILEMPI_TEST_COLL(Alltoallv, Ialltoallv)
TILEMPI_TEST_COLL(Alltoallw, Ialltoallw)
TILEMPI_TEST_COLL(Gather, Igather)
TILEMPI_TEST_COLL(Gatherv, Igatherv)
TILEMPI_TEST_COLL(Scatter, Iscatter)
TILEMPI_TEST_COLL(Scatterv, Iscatterv)
TILEMPI_TEST_COLL(Allgather, Iallgather)
TILEMPI_TEST_COLL(Allgatherv, Iallgatherv)
TILEMPI_TEST_COLL(Reduce_scatter, Ireduce_scatter)
TILEMPI_TEST_COLL(Reduce_scatter_block, Ireduce_scatter_block)
TILEMPI_TEST_COLL(Scan, Iscan)
TILEMPI_TEST_COLL(Exscan, Iexscan)
TILEMPI_TEST_COLL(Neighbor_allgather, Ineighbor_allgather)
TILEMPI_TEST_COLL(Neighbor_allgatherv, Ineighbor_allgatherv)
TILEMPI_TEST_COLL(Neighbor_alltoall, Ineighbor_alltoall)
TILEMPI_TEST_COLL(Neighbor_alltoallv, Ineighbor_alltoallv)
TILEMPI_TEST_COLL(Neighbor_alltoallw, Ineighbor_alltoallw)
#undef TILEMPI_TEST_COLL
}  // namespace coll

void select_alg(const std::string& spec) {
  std::string err;
  int rc = tilempi::mpi::coll::set_selection(spec, &err);
  if (rc != MPI_SUCCESS) std::fprintf(stderr, "bad spec %s: %s\n", spec.c_str(), err.c_str());
  CHECK(rc == MPI_SUCCESS);
}

// Contribution of rank r, element i: small integers so that sums and products are exact.
int val(int r, int i) { return (r * 7 + i * 3) % 11 + 1; }

// ---- a non-commutative user op: composition of affine maps x -> m x + c (mod P) ----------------
constexpr long long P = 1000003;
struct Affine {
  long long m, c;
};
Affine compose(Affine lo, Affine hi) { return {lo.m * hi.m % P, (lo.c * hi.m + hi.c) % P}; }  // hi after lo
void affine_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<Affine*>(in);
  auto* b = static_cast<Affine*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = compose(a[i], b[i]);
}
Affine aff(int r, int i) { return {(r * 5 + i) % 17 + 2, (r * 11 + i * 7) % 23}; }
bool operator==(Affine a, Affine b) { return a.m == b.m && a.c == b.c; }

struct Ctx {
  MPI_Comm comm;
  int rank, size;
  std::string name;
  MPI_Datatype affine_t, vec_t;  // vec_t: 2 ints out of every 3 (non-contiguous)
  MPI_Op affine_op;
};

// ---- reductions ---------------------------------------------------------------------------------

struct IntOp {
  MPI_Op op;
  const char* name;
  int (*f)(int, int);
};
const IntOp kIntOps[] = {
    {MPI_SUM, "sum", [](int a, int b) { return a + b; }},
    {MPI_PROD, "prod", [](int a, int b) { return (int)((unsigned)a * (unsigned)b); }},
    {MPI_MAX, "max", [](int a, int b) { return a > b ? a : b; }},
    {MPI_MIN, "min", [](int a, int b) { return a < b ? a : b; }},
    {MPI_BAND, "band", [](int a, int b) { return a & b; }},
    {MPI_BOR, "bor", [](int a, int b) { return a | b; }},
    {MPI_BXOR, "bxor", [](int a, int b) { return a ^ b; }},
    {MPI_LAND, "land", [](int a, int b) { return (int)(a && b); }},
    {MPI_LOR, "lor", [](int a, int b) { return (int)(a || b); }},
    {MPI_LXOR, "lxor", [](int a, int b) { return (int)(!a != !b); }},
};

int ref_int(const IntOp& op, int n, int i, int upto /* exclusive rank bound */, int (*v)(int, int) = val) {
  int acc = v(0, i);
  for (int r = 1; r < upto; ++r) acc = op.f(acc, v(r, i));
  (void)n;
  return acc;
}
int val_logical(int r, int i) { return (r + i) % 4 != 0 ? 1 : 0; }

struct DI {
  double v;
  int i;
};

// Reduce-like collectives share one driver: which = reduce(root) / allreduce / scan / exscan.
enum class Red { Reduce, Allreduce, Scan, Exscan };

void check_reductions(Ctx& c, Red which, int root, bool in_place) {
  const int n = 6;
  auto want_rank = [&](int r) { return which == Red::Reduce ? r == root : (which == Red::Exscan ? r > 0 : true); };
  auto upto = [&](int r) { return which == Red::Scan ? r + 1 : (which == Red::Exscan ? r : c.size); };
  auto run = [&](const void* sb, void* rb, int count, MPI_Datatype t, MPI_Op op) {
    const void* s = in_place && (which != Red::Reduce || c.rank == root) ? MPI_IN_PLACE : sb;
    switch (which) {
      case Red::Reduce: return coll::Reduce(s, rb, count, t, op, root, c.comm);
      case Red::Allreduce: return coll::Allreduce(s, rb, count, t, op, c.comm);
      case Red::Scan: return coll::Scan(s, rb, count, t, op, c.comm);
      case Red::Exscan: return coll::Exscan(s, rb, count, t, op, c.comm);
    }
    return MPI_ERR_OTHER;
  };
  // Integer ops.
  for (const IntOp& op : kIntOps) {
    if (g_quick && op.op != MPI_SUM && op.op != MPI_MAX && op.op != MPI_LXOR) continue;
    const bool logical = op.op == MPI_LAND || op.op == MPI_LOR || op.op == MPI_LXOR;
    auto v = logical ? val_logical : val;
    std::vector<int> s(n), r(n, -777);
    for (int i = 0; i < n; ++i) s[i] = v(c.rank, i);
    if (in_place) r = s;
    g_where = c.name + " int " + op.name;
    CHECK(run(s.data(), r.data(), n, MPI_INT, op.op) == MPI_SUCCESS);
    if (want_rank(c.rank))
      for (int i = 0; i < n; ++i) CHECK(r[i] == ref_int(op, c.size, i, upto(c.rank), v));
  }
  // Doubles (integer-valued: exact in any order).
  {
    std::vector<double> s(n), r(n, -1);
    for (int i = 0; i < n; ++i) s[i] = val(c.rank, i) * 0.5;
    if (in_place) r = s;
    g_where = c.name + " double sum";
    CHECK(run(s.data(), r.data(), n, MPI_DOUBLE, MPI_SUM) == MPI_SUCCESS);
    if (want_rank(c.rank))
      for (int i = 0; i < n; ++i) {
        double acc = 0;
        for (int q = 0; q < upto(c.rank); ++q) acc += val(q, i) * 0.5;
        CHECK(r[i] == acc);
      }
  }
  // Same bits on every rank: an inexact double sum (and a product) compared across ranks.
  if (which == Red::Allreduce) {
    for (MPI_Op op : {MPI_SUM, MPI_PROD}) {
      std::vector<double> s(n), r(n, 0);
      for (int i = 0; i < n; ++i) s[i] = 0.1 * (c.rank + 1) * (i + 1) + 1.0 / 3.0;
      if (in_place) r = s;
      g_where = c.name + " double bits";
      CHECK(run(s.data(), r.data(), n, MPI_DOUBLE, op) == MPI_SUCCESS);
      std::vector<double> all(static_cast<std::size_t>(n) * c.size);
      CHECK(coll::Allgather(r.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, c.comm) == MPI_SUCCESS);
      for (int q = 0; q < c.size; ++q) CHECK(std::memcmp(all.data() + q * n, r.data(), n * sizeof(double)) == 0);
    }
  }
  // MAXLOC / MINLOC with ties (the lowest index wins).
  for (MPI_Op op : {MPI_MAXLOC, MPI_MINLOC}) {
    if (g_quick && op == MPI_MINLOC) continue;
    std::vector<DI> s(n), r(n, DI{-1, -1});
    for (int i = 0; i < n; ++i) s[i] = {double((c.rank * 3 + i) % 4), c.rank};
    if (in_place) r = s;
    g_where = c.name + (op == MPI_MAXLOC ? " maxloc" : " minloc");
    CHECK(run(s.data(), r.data(), n, MPI_DOUBLE_INT, op) == MPI_SUCCESS);
    if (want_rank(c.rank))
      for (int i = 0; i < n; ++i) {
        DI best{double((0 * 3 + i) % 4), 0};
        for (int q = 1; q < upto(c.rank); ++q) {
          double v = double((q * 3 + i) % 4);
          if (op == MPI_MAXLOC ? v > best.v : v < best.v) best = {v, q};
        }
        CHECK(r[i].v == best.v && r[i].i == best.i);
      }
  }
  // The non-commutative user op: rank order matters.
  {
    std::vector<Affine> s(n), r(n, Affine{0, 0});
    for (int i = 0; i < n; ++i) s[i] = aff(c.rank, i);
    if (in_place) r = s;
    g_where = c.name + " user noncommutative";
    CHECK(run(s.data(), r.data(), n, c.affine_t, c.affine_op) == MPI_SUCCESS);
    if (want_rank(c.rank))
      for (int i = 0; i < n; ++i) {
        Affine acc = aff(0, i);
        for (int q = 1; q < upto(c.rank); ++q) acc = compose(acc, aff(q, i));
        CHECK(r[i] == acc);
      }
  }
  // A non-contiguous derived type: SUM over 2 of every 3 ints.
  if (!g_quick) {
    std::vector<int> s(3 * n), r(3 * n, -5);
    for (int i = 0; i < 3 * n; ++i) s[i] = val(c.rank, i);
    if (in_place) r = s;
    g_where = c.name + " vector sum";
    CHECK(run(s.data(), r.data(), n, c.vec_t, MPI_SUM) == MPI_SUCCESS);
    if (want_rank(c.rank))
      for (int i = 0; i < 3 * n; ++i) {
        if (i % 3 == 2) {
          if (!in_place) CHECK(r[i] == -5);  // the gap is left alone
          continue;
        }
        int acc = 0;
        for (int q = 0; q < upto(c.rank); ++q) acc += val(q, i);
        CHECK(r[i] == acc);
      }
  }
}

void check_reduce_scatter(Ctx& c, bool block, bool in_place) {
  std::vector<int> counts(c.size);
  for (int i = 0; i < c.size; ++i) counts[i] = block ? 2 : (i % 3) + (c.size == 1 ? 1 : 0);
  int total = 0;
  std::vector<int> off(c.size + 1, 0);
  for (int i = 0; i < c.size; ++i) off[i + 1] = off[i] + counts[i];
  total = off[c.size];
  // SUM on ints, then the non-commutative op.
  {
    std::vector<int> s(total), r(in_place ? total : counts[c.rank] + 1, -9);
    for (int i = 0; i < total; ++i) s[i] = val(c.rank, i);
    if (in_place) r = s;
    g_where = c.name + (block ? " reduce_scatter_block" : " reduce_scatter") + " sum";
    const void* sb = in_place ? MPI_IN_PLACE : s.data();
    CHECK((block ? coll::Reduce_scatter_block(sb, r.data(), counts[0], MPI_INT, MPI_SUM, c.comm)
                 : coll::Reduce_scatter(sb, r.data(), counts.data(), MPI_INT, MPI_SUM, c.comm)) == MPI_SUCCESS);
    for (int i = 0; i < counts[c.rank]; ++i) {
      int acc = 0;
      for (int q = 0; q < c.size; ++q) acc += val(q, off[c.rank] + i);
      CHECK(r[i] == acc);
    }
  }
  {
    std::vector<Affine> s(total), r(in_place ? total : counts[c.rank] + 1, Affine{0, 0});
    for (int i = 0; i < total; ++i) s[i] = aff(c.rank, i);
    if (in_place) r = s;
    g_where = c.name + (block ? " reduce_scatter_block" : " reduce_scatter") + " user";
    const void* sb = in_place ? MPI_IN_PLACE : s.data();
    CHECK((block ? coll::Reduce_scatter_block(sb, r.data(), counts[0], c.affine_t, c.affine_op, c.comm)
                 : coll::Reduce_scatter(sb, r.data(), counts.data(), c.affine_t, c.affine_op, c.comm)) == MPI_SUCCESS);
    for (int i = 0; i < counts[c.rank]; ++i) {
      Affine acc = aff(0, off[c.rank] + i);
      for (int q = 1; q < c.size; ++q) acc = compose(acc, aff(q, off[c.rank] + i));
      CHECK(r[i] == acc);
    }
  }
}

// ---- data movement ---------------------------------------------------------------------------------

int item(int from, int to, int i) { return from * 1000 + to * 10 + i; }

void check_bcast(Ctx& c) {
  for (int root : {0, c.size - 1}) {
    std::vector<int> b(7);
    for (int i = 0; i < 7; ++i) b[i] = c.rank == root ? item(root, 0, i) : -1;
    g_where = c.name + " bcast root " + std::to_string(root);
    CHECK(coll::Bcast(b.data(), 7, MPI_INT, root, c.comm) == MPI_SUCCESS);
    for (int i = 0; i < 7; ++i) CHECK(b[i] == item(root, 0, i));
    if (g_quick) continue;
    std::vector<int> v(3 * 4, -3);  // 4 vector elements: 2 ints of every 3
    for (int i = 0; i < 12; ++i)
      if (c.rank == root) v[i] = item(root, 1, i);
    CHECK(coll::Bcast(v.data(), 4, c.vec_t, root, c.comm) == MPI_SUCCESS);
    for (int i = 0; i < 12; ++i) CHECK(v[i] == (i % 3 == 2 && c.rank != root ? -3 : item(root, 1, i)));
    // A long message (several pieces per rank for scatter_allgather).
    std::vector<double> big(1000 + c.size);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = c.rank == root ? double(i) * 1.5 : 0;
    CHECK(coll::Bcast(big.data(), (int)big.size(), MPI_DOUBLE, root, c.comm) == MPI_SUCCESS);
    for (std::size_t i = 0; i < big.size(); ++i) CHECK(big[i] == double(i) * 1.5);
  }
}

void check_alltoall(Ctx& c, bool in_place) {
  const int k = 3;
  std::vector<int> s(c.size * k), r(c.size * k, -1);
  for (int d = 0; d < c.size; ++d)
    for (int i = 0; i < k; ++i) s[d * k + i] = item(c.rank, d, i);
  g_where = c.name + " alltoall" + (in_place ? " in place" : "");
  if (in_place) r = s;
  CHECK(coll::Alltoall(in_place ? MPI_IN_PLACE : s.data(), k, MPI_INT, r.data(), k, MPI_INT, c.comm) == MPI_SUCCESS);
  for (int f = 0; f < c.size; ++f)
    for (int i = 0; i < k; ++i) CHECK(r[f * k + i] == item(f, c.rank, i));
  if (g_quick || in_place) return;
  // Send as a vector type, receive as plain ints (same signature).
  std::vector<int> sv(c.size * 3 * 2, -2), rv(c.size * 4, -1);
  for (int d = 0; d < c.size; ++d)
    for (int e = 0; e < 2; ++e)
      for (int i = 0; i < 2; ++i) sv[(d * 2 + e) * 3 + i] = item(c.rank, d, e * 2 + i);
  CHECK(coll::Alltoall(sv.data(), 2, c.vec_t, rv.data(), 4, MPI_INT, c.comm) == MPI_SUCCESS);
  for (int f = 0; f < c.size; ++f)
    for (int i = 0; i < 4; ++i) CHECK(rv[f * 4 + i] == item(f, c.rank, i));
}

void check_alltoallv(Ctx& c, bool in_place) {
  auto cnt = [&](int from, int to) { return (from + 2 * to) % 3 + (in_place ? 0 : 0); };
  std::vector<int> sc(c.size), sd(c.size), rc(c.size), rd(c.size);
  int st = 0, rt = 0;
  for (int p = 0; p < c.size; ++p) {
    sc[p] = cnt(c.rank, p);
    rc[p] = cnt(p, c.rank);
    if (in_place) sc[p] = rc[p] = cnt(std::min(p, c.rank), std::max(p, c.rank));
    sd[p] = st + 1;  // gaps between blocks
    rd[p] = rt + 2;
    st += sc[p] + 1;
    rt += rc[p] + 2;
  }
  std::vector<int> s(st + 1, -4), r(rt + 2, -1);
  for (int p = 0; p < c.size; ++p)
    for (int i = 0; i < sc[p]; ++i) s[sd[p] + i] = item(c.rank, p, i);
  g_where = c.name + " alltoallv" + (in_place ? " in place" : "");
  if (in_place) {
    for (int p = 0; p < c.size; ++p)
      for (int i = 0; i < rc[p]; ++i) r[rd[p] + i] = item(c.rank, p, i);
    CHECK(coll::Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_INT, r.data(), rc.data(), rd.data(), MPI_INT, c.comm) == MPI_SUCCESS);
  } else {
    CHECK(coll::Alltoallv(s.data(), sc.data(), sd.data(), MPI_INT, r.data(), rc.data(), rd.data(), MPI_INT, c.comm) == MPI_SUCCESS);
  }
  for (int p = 0; p < c.size; ++p)
    for (int i = 0; i < rc[p]; ++i) CHECK(r[rd[p] + i] == item(p, c.rank, i));
  for (int p = 0; p < c.size; ++p) CHECK(r[rd[p] - 1] == -1);  // gaps untouched
}

// Alltoallw: blocks of pairs of ints at byte displacements with gaps; to odd ranks as c.vec_t
// (two ints of a stride-3 vector) where the others send and every rank receives plain ints.
void check_alltoallw(Ctx& c, bool in_place) {
  auto pairs = [&](int from, int to) { return in_place ? (std::min(from, to) + 2 * std::max(from, to)) % 3 : (from + 2 * to) % 3; };
  std::vector<int> sc(c.size), sd(c.size), rc(c.size), rd(c.size);
  std::vector<MPI_Datatype> stypes(c.size), rtypes(c.size, MPI_INT);
  int s_ints = 0, r_ints = 0;
  for (int p = 0; p < c.size; ++p) {
    const bool strided = !in_place && p % 2 == 1;
    stypes[p] = strided ? c.vec_t : MPI_INT;
    sc[p] = strided ? pairs(c.rank, p) : 2 * pairs(c.rank, p);
    rc[p] = 2 * pairs(p, c.rank);
    sd[p] = (s_ints + 1) * static_cast<int>(sizeof(int));  // byte displacements, a gap before each block
    rd[p] = (r_ints + 2) * static_cast<int>(sizeof(int));
    s_ints += (strided ? 3 * pairs(c.rank, p) : sc[p]) + 1;
    r_ints += rc[p] + 2;
  }
  std::vector<int> s(s_ints + 1, -4), r(r_ints + 2, -1);
  for (int p = 0; p < c.size; ++p)
    for (int i = 0; i < 2 * pairs(c.rank, p); ++i) {
      const int at = sd[p] / static_cast<int>(sizeof(int)) + (stypes[p] == MPI_INT ? i : (i / 2) * 3 + i % 2);
      s[at] = item(c.rank, p, i);
    }
  g_where = c.name + " alltoallw" + (in_place ? " in place" : "");
  if (in_place) {
    for (int p = 0; p < c.size; ++p)
      for (int i = 0; i < rc[p]; ++i) r[rd[p] / static_cast<int>(sizeof(int)) + i] = item(c.rank, p, i);
    CHECK(coll::Alltoallw(MPI_IN_PLACE, nullptr, nullptr, nullptr, r.data(), rc.data(), rd.data(), rtypes.data(), c.comm) ==
          MPI_SUCCESS);
  } else {
    CHECK(coll::Alltoallw(s.data(), sc.data(), sd.data(), stypes.data(), r.data(), rc.data(), rd.data(), rtypes.data(),
                          c.comm) == MPI_SUCCESS);
  }
  for (int p = 0; p < c.size; ++p)
    for (int i = 0; i < rc[p]; ++i) CHECK(r[rd[p] / static_cast<int>(sizeof(int)) + i] == item(p, c.rank, i));
  for (int p = 0; p < c.size; ++p) CHECK(r[rd[p] / static_cast<int>(sizeof(int)) - 1] == -1);  // gaps untouched
}

void check_gather_scatter(Ctx& c) {
  const int k = 2;
  for (int root : {0, c.size / 2}) {
    for (bool in_place : {false, true}) {
      g_where = c.name + " gather root " + std::to_string(root) + (in_place ? " in place" : "");
      std::vector<int> s(k), r(c.size * k, -1);
      for (int i = 0; i < k; ++i) s[i] = item(c.rank, root, i);
      const bool ip = in_place && c.rank == root;
      if (ip)
        for (int i = 0; i < k; ++i) r[root * k + i] = s[i];
      CHECK(coll::Gather(ip ? MPI_IN_PLACE : s.data(), k, MPI_INT, r.data(), k, MPI_INT, root, c.comm) == MPI_SUCCESS);
      if (c.rank == root)
        for (int f = 0; f < c.size; ++f)
          for (int i = 0; i < k; ++i) CHECK(r[f * k + i] == item(f, root, i));
      // gatherv: rank f contributes f % 3 + 1 ints at displacement 4 f.
      std::vector<int> counts(c.size), displs(c.size);
      for (int f = 0; f < c.size; ++f) {
        counts[f] = f % 3 + 1;
        displs[f] = 4 * f;
      }
      std::vector<int> sv(counts[c.rank]), rv(4 * c.size, -1);
      for (int i = 0; i < counts[c.rank]; ++i) sv[i] = item(c.rank, root, i);
      if (ip)
        for (int i = 0; i < counts[root]; ++i) rv[displs[root] + i] = sv[i];
      g_where = c.name + " gatherv";
      CHECK(coll::Gatherv(ip ? MPI_IN_PLACE : sv.data(), counts[c.rank], MPI_INT, rv.data(), counts.data(), displs.data(),
                        MPI_INT, root, c.comm) == MPI_SUCCESS);
      if (c.rank == root)
        for (int f = 0; f < c.size; ++f)
          for (int i = 0; i < 4; ++i) CHECK(rv[4 * f + i] == (i < counts[f] ? item(f, root, i) : -1));
      // scatter / scatterv
      std::vector<int> ss(c.size * k), sr(k, -1);
      for (int d = 0; d < c.size; ++d)
        for (int i = 0; i < k; ++i) ss[d * k + i] = item(root, d, i);
      g_where = c.name + " scatter";
      CHECK(coll::Scatter(ss.data(), k, MPI_INT, ip ? MPI_IN_PLACE : sr.data(), k, MPI_INT, root, c.comm) == MPI_SUCCESS);
      if (!ip)
        for (int i = 0; i < k; ++i) CHECK(sr[i] == item(root, c.rank, i));
      std::vector<int> svs(4 * c.size), svr(3, -1);
      for (int d = 0; d < c.size; ++d)
        for (int i = 0; i < 4; ++i) svs[4 * d + i] = item(root, d, i);
      g_where = c.name + " scatterv";
      CHECK(coll::Scatterv(svs.data(), counts.data(), displs.data(), MPI_INT, ip ? MPI_IN_PLACE : svr.data(), counts[c.rank],
                         MPI_INT, root, c.comm) == MPI_SUCCESS);
      if (!ip)
        for (int i = 0; i < 3; ++i) CHECK(svr[i] == (i < counts[c.rank] ? item(root, c.rank, i) : -1));
    }
  }
}

void check_allgather(Ctx& c) {
  const int k = 3;
  for (bool in_place : {false, true}) {
    g_where = c.name + " allgather" + (in_place ? " in place" : "");
    std::vector<int> s(k), r(c.size * k, -1);
    for (int i = 0; i < k; ++i) s[i] = item(c.rank, 0, i);
    if (in_place)
      for (int i = 0; i < k; ++i) r[c.rank * k + i] = s[i];
    CHECK(coll::Allgather(in_place ? MPI_IN_PLACE : s.data(), k, MPI_INT, r.data(), k, MPI_INT, c.comm) == MPI_SUCCESS);
    for (int f = 0; f < c.size; ++f)
      for (int i = 0; i < k; ++i) CHECK(r[f * k + i] == item(f, 0, i));
    std::vector<int> counts(c.size), displs(c.size);
    for (int f = 0; f < c.size; ++f) {
      counts[f] = (f * 2) % 3;
      displs[f] = 3 * (c.size - 1 - f);  // reversed order in the buffer
    }
    std::vector<int> sv(counts[c.rank] + 1), rv(3 * c.size, -1);
    for (int i = 0; i < counts[c.rank]; ++i) sv[i] = item(c.rank, 1, i);
    if (in_place)
      for (int i = 0; i < counts[c.rank]; ++i) rv[displs[c.rank] + i] = sv[i];
    g_where = c.name + " allgatherv";
    CHECK(coll::Allgatherv(in_place ? MPI_IN_PLACE : sv.data(), counts[c.rank], MPI_INT, rv.data(), counts.data(),
                         displs.data(), MPI_INT, c.comm) == MPI_SUCCESS);
    for (int f = 0; f < c.size; ++f)
      for (int i = 0; i < 3; ++i) CHECK(rv[displs[f] + i] == (i < counts[f] ? item(f, 1, i) : -1));
    if (g_quick) break;
  }
}

// The neighbourhood collectives on a periodic Cartesian grid of c's ranks (a dimension of one or
// two processes has the same neighbour on both sides: the blocks pair up crosswise, MPI-3.1 §7.6
// with the MPI-4.0 errata) and on a distributed graph with edges r -> r+1 and r -> r+3 (repeated
// edges where those coincide: the k-th send to a process matches its k-th receive from this one).
void check_neighbor(Ctx& c, tilempi::mpi::coll::Collective kind) {
  using tilempi::mpi::coll::Collective;
  const int k = 2;
  for (int topo = 0; topo < 2; ++topo) {
    MPI_Comm t = MPI_COMM_NULL;
    std::vector<int> src, dst;  // neighbours in the collectives' order
    std::vector<int> peer_slot;  // receive i holds the sender's send block peer_slot[i]
    if (topo == 0) {
      int dims[2] = {0, 0}, periods[2] = {1, 1};
      MPI_Dims_create(c.size, 2, dims);
      CHECK(MPI_Cart_create(c.comm, 2, dims, periods, 0, &t) == MPI_SUCCESS);
      for (int d = 0; d < 2; ++d) {
        int lo = -1, hi = -1;
        MPI_Cart_shift(t, d, 1, &lo, &hi);
        src.push_back(lo), src.push_back(hi), dst.push_back(lo), dst.push_back(hi);
        peer_slot.push_back(2 * d + 1), peer_slot.push_back(2 * d);
      }
    } else {
      dst = {(c.rank + 1) % c.size, (c.rank + 3) % c.size};
      src = {((c.rank - 1) % c.size + c.size) % c.size, ((c.rank - 3) % c.size + 3 * c.size) % c.size};
      peer_slot = {0, 1};
      CHECK(MPI_Dist_graph_create_adjacent(c.comm, 2, src.data(), MPI_UNWEIGHTED, 2, dst.data(), MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 0, &t) == MPI_SUCCESS);
    }
    const int n = static_cast<int>(src.size());
    std::vector<int> s(static_cast<std::size_t>(n * k)), r(static_cast<std::size_t>(n * k), -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < k; ++i) s[static_cast<std::size_t>(j * k + i)] = item(c.rank, j, i);
    std::vector<int> counts(static_cast<std::size_t>(n), k), displs(static_cast<std::size_t>(n));
    std::vector<MPI_Aint> bytes(static_cast<std::size_t>(n));
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(n), MPI_INT);
    for (int j = 0; j < n; ++j) displs[static_cast<std::size_t>(j)] = j * k, bytes[static_cast<std::size_t>(j)] = static_cast<MPI_Aint>(j * k * sizeof(int));
    const bool gather = kind == Collective::NeighborAllgather || kind == Collective::NeighborAllgatherv;
    g_where = c.name + (topo == 0 ? " on a periodic grid" : " on a distributed graph");
    int rc = MPI_SUCCESS;
    switch (kind) {
      case Collective::NeighborAllgather: rc = coll::Neighbor_allgather(s.data(), k, MPI_INT, r.data(), k, MPI_INT, t); break;
      case Collective::NeighborAllgatherv:
        rc = coll::Neighbor_allgatherv(s.data(), k, MPI_INT, r.data(), counts.data(), displs.data(), MPI_INT, t);
        break;
      case Collective::NeighborAlltoall: rc = coll::Neighbor_alltoall(s.data(), k, MPI_INT, r.data(), k, MPI_INT, t); break;
      case Collective::NeighborAlltoallv:
        rc = coll::Neighbor_alltoallv(s.data(), counts.data(), displs.data(), MPI_INT, r.data(), counts.data(),
                                      displs.data(), MPI_INT, t);
        break;
      default:
        rc = coll::Neighbor_alltoallw(s.data(), counts.data(), bytes.data(), types.data(), r.data(), counts.data(),
                                      bytes.data(), types.data(), t);
        break;
    }
    CHECK(rc == MPI_SUCCESS);
    for (int q = 0; q < n; ++q)
      for (int i = 0; i < k; ++i)
        CHECK(r[static_cast<std::size_t>(q * k + i)] ==
              item(src[static_cast<std::size_t>(q)], gather ? 0 : peer_slot[static_cast<std::size_t>(q)], i));
    MPI_Comm_free(&t);
  }
}

void run_all(Ctx& c) {
  using tilempi::mpi::coll::algorithms;
  using tilempi::mpi::coll::Collective;
  using tilempi::mpi::coll::kind_name;
  for (int ki = 0; ki < tilempi::mpi::coll::kKinds; ++ki) {
    const Collective k = static_cast<Collective>(ki);
    std::vector<std::string> specs;
    for (const auto& a : algorithms(k)) {
      if (a.intercomm || std::string(a.name).rfind(g_only, 0) != 0) continue;  // (run_intercomm)
      specs.push_back(a.name);
      if (a.takes_param && !g_quick) {
        specs.push_back(std::string(a.name) + ":2");
        specs.push_back(std::string(a.name) + ":4");
      }
    }
    for (const std::string& alg : specs) {
      select_alg(std::string(kind_name(k)) + "=" + alg);
      c.name = std::string("[n=") + std::to_string(c.size) + " " + (c.comm == MPI_COMM_WORLD ? "world" : "split") + " " +
               kind_name(k) + "=" + alg + "]";
      switch (k) {
        case Collective::Barrier:
          for (int i = 0; i < 3; ++i) CHECK(coll::Barrier(c.comm) == MPI_SUCCESS);
          break;
        case Collective::Bcast: check_bcast(c); break;
        case Collective::Reduce:
          for (int root : {0, c.size - 1}) {
            check_reductions(c, Red::Reduce, root, false);
            if (!g_quick) check_reductions(c, Red::Reduce, root, true);
          }
          break;
        case Collective::Allreduce:
          check_reductions(c, Red::Allreduce, 0, false);
          if (!g_quick) check_reductions(c, Red::Allreduce, 0, true);
          break;
        case Collective::Scan: check_reductions(c, Red::Scan, 0, false); check_reductions(c, Red::Scan, 0, true); break;
        case Collective::Exscan: check_reductions(c, Red::Exscan, 0, false); check_reductions(c, Red::Exscan, 0, true); break;
        case Collective::Alltoall: check_alltoall(c, false); check_alltoall(c, true); break;
        case Collective::Alltoallv: check_alltoallv(c, false); check_alltoallv(c, true); break;
        case Collective::Alltoallw: check_alltoallw(c, false); check_alltoallw(c, true); break;
        case Collective::Gather: case Collective::Gatherv: case Collective::Scatter: case Collective::Scatterv: check_gather_scatter(c); break;
        case Collective::Allgather: case Collective::Allgatherv: check_allgather(c); break;
        case Collective::ReduceScatter: check_reduce_scatter(c, false, false); check_reduce_scatter(c, false, true); break;
        case Collective::ReduceScatterBlock: check_reduce_scatter(c, true, false); check_reduce_scatter(c, true, true); break;
        case Collective::NeighborAllgather: case Collective::NeighborAllgatherv: case Collective::NeighborAlltoall:
        case Collective::NeighborAlltoallv: case Collective::NeighborAlltoallw: check_neighbor(c, k); break;
        case Collective::Count: break;
      }
    }
  }
  select_alg("");
}

// ---- intercommunicators ---------------------------------------------------------------------------

// Every registered intercommunicator algorithm, on an intercommunicator of the even world ranks
// (group 0) and the odd ones (group 1): what one group gives arrives in the other, and
// TILEMPIX_Coll_selected names the algorithm that ran (the registry chose it, as for an
// intracommunicator). Rooted collectives have their root at group 0's rank 0.
struct Inter {
  MPI_Comm comm = MPI_COMM_NULL;
  int world = 0, group = 0, rank = 0, size = 0, remote = 0;
  int world_of(int remote_rank) const { return 2 * remote_rank + (1 - group); }  // a remote rank's world rank
  int root() const { return group == 1 ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL); }
  bool is_root() const { return group == 0 && rank == 0; }
};

// Blocks of the v-forms and all-to-all forms: sizes that differ per pair, the same at both ends.
int pair_count(int world_a, int world_b) { return (world_a + world_b) % 3 + 1; }
int inter_item(int from_world, int to_rank, int i) { return 10000 * from_world + 100 * to_rank + i; }

void check_intercomm_call(const Inter& x, tilempi::mpi::coll::Collective k) {
  using tilempi::mpi::coll::Collective;
  constexpr int K = 3;
  const int m = x.remote;
  auto remote_sum = [&](int e) {  // the other group's sum of val(., e)
    int acc = 0;
    for (int j = 0; j < m; ++j) acc += val(x.world_of(j), e);
    return acc;
  };
  std::vector<int> s(static_cast<std::size_t>(K * std::max(m, x.size) * 3 + 8)), r(s.size(), -1);
  for (std::size_t e = 0; e < s.size(); ++e) s[e] = val(x.world, static_cast<int>(e));
  switch (k) {
    case Collective::Barrier:
      CHECK(coll::Barrier(x.comm) == MPI_SUCCESS);
      break;
    case Collective::Bcast:
      if (x.is_root()) r.assign(r.size(), 42);
      CHECK(coll::Bcast(r.data(), K, MPI_INT, x.root(), x.comm) == MPI_SUCCESS);
      for (int i = 0; i < K; ++i) CHECK(r[i] == (x.group == 1 || x.is_root() ? 42 : -1));
      break;
    case Collective::Reduce:
      CHECK(coll::Reduce(s.data(), r.data(), K, MPI_INT, MPI_SUM, x.root(), x.comm) == MPI_SUCCESS);
      for (int i = 0; i < K; ++i) CHECK(r[i] == (x.is_root() ? remote_sum(i) : -1));
      break;
    case Collective::Allreduce:
      CHECK(coll::Allreduce(s.data(), r.data(), K, MPI_INT, MPI_SUM, x.comm) == MPI_SUCCESS);
      for (int i = 0; i < K; ++i) CHECK(r[i] == remote_sum(i));
      break;
    case Collective::ReduceScatter: {
      // Six elements in all, in each group, spread over its ranks.
      std::vector<int> counts(static_cast<std::size_t>(x.size));
      int before = 0;
      for (int q = 0; q < x.size; ++q) {
        counts[static_cast<std::size_t>(q)] = 6 / x.size + (q < 6 % x.size);
        if (q < x.rank) before += counts[static_cast<std::size_t>(q)];
      }
      CHECK(coll::Reduce_scatter(s.data(), r.data(), counts.data(), MPI_INT, MPI_SUM, x.comm) == MPI_SUCCESS);
      for (int i = 0; i < counts[static_cast<std::size_t>(x.rank)]; ++i) CHECK(r[i] == remote_sum(before + i));
      break;
    }
    case Collective::ReduceScatterBlock: {
      const int block = x.size == m ? 2 : 0;  // both groups reduce as many elements: equal groups only
      CHECK(coll::Reduce_scatter_block(s.data(), r.data(), block, MPI_INT, MPI_SUM, x.comm) == MPI_SUCCESS);
      for (int i = 0; i < block; ++i) CHECK(r[i] == remote_sum(x.rank * block + i));
      break;
    }
    case Collective::Gather:
      CHECK(coll::Gather(s.data(), K, MPI_INT, r.data(), K, MPI_INT, x.root(), x.comm) == MPI_SUCCESS);
      if (x.is_root())
        for (int j = 0; j < m; ++j)
          for (int i = 0; i < K; ++i) CHECK(r[j * K + i] == val(x.world_of(j), i));
      break;
    case Collective::Scatter:
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < K; ++i) s[j * K + i] = inter_item(x.world, j, i);
      CHECK(coll::Scatter(s.data(), K, MPI_INT, r.data(), K, MPI_INT, x.root(), x.comm) == MPI_SUCCESS);
      if (x.group == 1)
        for (int i = 0; i < K; ++i) CHECK(r[i] == inter_item(0, x.rank, i));
      break;
    case Collective::Gatherv:
    case Collective::Scatterv:
    case Collective::Allgatherv: {
      // Remote rank j's block has pair_count(its world rank, 0) elements, one apart.
      std::vector<int> counts(static_cast<std::size_t>(m)), displs(static_cast<std::size_t>(m));
      for (int j = 0, at = 0; j < m; ++j, ++at) {
        counts[static_cast<std::size_t>(j)] = pair_count(x.world_of(j), 0);
        displs[static_cast<std::size_t>(j)] = at;
        at += counts[static_cast<std::size_t>(j)];
      }
      const int mine = pair_count(x.world, 0);
      if (k == Collective::Scatterv) {
        for (int j = 0; j < m; ++j)
          for (int i = 0; i < counts[static_cast<std::size_t>(j)]; ++i) s[displs[static_cast<std::size_t>(j)] + i] = inter_item(x.world, j, i);
        CHECK(coll::Scatterv(s.data(), counts.data(), displs.data(), MPI_INT, r.data(), mine, MPI_INT, x.root(), x.comm) == MPI_SUCCESS);
        if (x.group == 1)
          for (int i = 0; i < mine; ++i) CHECK(r[i] == inter_item(0, x.rank, i));
        break;
      }
      const bool all = k == Collective::Allgatherv;
      CHECK((all ? coll::Allgatherv(s.data(), mine, MPI_INT, r.data(), counts.data(), displs.data(), MPI_INT, x.comm)
                 : coll::Gatherv(s.data(), mine, MPI_INT, r.data(), counts.data(), displs.data(), MPI_INT, x.root(), x.comm)) ==
            MPI_SUCCESS);
      if (all || x.is_root())
        for (int j = 0; j < m; ++j)
          for (int i = 0; i < counts[static_cast<std::size_t>(j)]; ++i)
            CHECK(r[displs[static_cast<std::size_t>(j)] + i] == val(x.world_of(j), i));
      break;
    }
    case Collective::Allgather:
      CHECK(coll::Allgather(s.data(), K, MPI_INT, r.data(), K, MPI_INT, x.comm) == MPI_SUCCESS);
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < K; ++i) CHECK(r[j * K + i] == val(x.world_of(j), i));
      break;
    case Collective::Alltoall:
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < K; ++i) s[j * K + i] = inter_item(x.world, j, i);
      CHECK(coll::Alltoall(s.data(), K, MPI_INT, r.data(), K, MPI_INT, x.comm) == MPI_SUCCESS);
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < K; ++i) CHECK(r[j * K + i] == inter_item(x.world_of(j), x.rank, i));
      break;
    case Collective::Alltoallv:
    case Collective::Alltoallw: {
      // To and from remote rank j: pair_count(both world ranks) elements, at K * j.
      std::vector<int> counts(static_cast<std::size_t>(m)), displs(static_cast<std::size_t>(m)), bytes(static_cast<std::size_t>(m));
      std::vector<MPI_Datatype> types(static_cast<std::size_t>(m), MPI_INT);
      for (int j = 0; j < m; ++j) {
        counts[static_cast<std::size_t>(j)] = pair_count(x.world, x.world_of(j));
        displs[static_cast<std::size_t>(j)] = K * j;
        bytes[static_cast<std::size_t>(j)] = K * j * static_cast<int>(sizeof(int));
        for (int i = 0; i < K; ++i) s[j * K + i] = inter_item(x.world, j, i);
      }
      CHECK((k == Collective::Alltoallv
                 ? coll::Alltoallv(s.data(), counts.data(), displs.data(), MPI_INT, r.data(), counts.data(), displs.data(), MPI_INT, x.comm)
                 : coll::Alltoallw(s.data(), counts.data(), bytes.data(), types.data(), r.data(), counts.data(), bytes.data(),
                                   types.data(), x.comm)) == MPI_SUCCESS);
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < K; ++i)
          CHECK(r[j * K + i] == (i < counts[static_cast<std::size_t>(j)] ? inter_item(x.world_of(j), x.rank, i) : -1));
      break;
    }
    default: CHECK(!"a collective MPI does not define on intercommunicators has an intercommunicator algorithm");
  }
}

void run_intercomm(int world_size) {
  using tilempi::mpi::coll::algorithms;
  using tilempi::mpi::coll::Collective;
  using tilempi::mpi::coll::kind_name;
  Inter x;
  x.world = g_world_rank;
  x.group = g_world_rank % 2;
  MPI_Comm local;
  MPI_Comm_split(MPI_COMM_WORLD, x.group, g_world_rank, &local);
  MPI_Comm_rank(local, &x.rank);
  MPI_Comm_size(local, &x.size);
  CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - x.group, 35, &x.comm) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(x.comm, MPI_ERRORS_RETURN);
  MPI_Comm_remote_size(x.comm, &x.remote);
  (void)world_size;
  for (int ki = 0; ki < tilempi::mpi::coll::kKinds; ++ki) {
    const Collective k = static_cast<Collective>(ki);
    for (const auto& a : algorithms(k)) {
      if (!a.intercomm || std::string(a.name).rfind(g_only, 0) != 0) continue;
      const std::string spec = std::string(kind_name(k)) + "=" + a.name;
      select_alg(spec);
      g_where = "[intercommunicator of " + std::to_string(x.size) + " and " + std::to_string(x.remote) + " ranks " + spec + "]";
      check_intercomm_call(x, k);
      char ran[64] = "";
      CHECK(TILEMPIX_Coll_selected(x.comm, kind_name(k), ran, sizeof ran) == MPI_SUCCESS);
      CHECK(std::string(ran) == a.name);
      // The choice is the intercommunicators': the local group's own calls keep theirs.
      CHECK(TILEMPIX_Coll_selected(local, kind_name(k), ran, sizeof ran) == MPI_SUCCESS);
      CHECK(std::string(ran) != a.name);
    }
  }
  select_alg("");
  MPI_Comm_free(&x.comm);
  MPI_Comm_free(&local);
}

Ctx make_ctx(MPI_Comm comm) {
  Ctx c;
  c.comm = comm;
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.size);
  MPI_Type_contiguous(2, MPI_LONG_LONG, &c.affine_t);
  MPI_Type_commit(&c.affine_t);
  MPI_Type_vector(1, 2, 3, MPI_INT, &c.vec_t);
  MPI_Datatype tmp = c.vec_t;
  MPI_Type_create_resized(tmp, 0, 3 * sizeof(int), &c.vec_t);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&c.vec_t);
  MPI_Op_create(affine_op, 0, &c.affine_op);
  return c;
}

void free_ctx(Ctx& c) {
  MPI_Type_free(&c.affine_t);
  MPI_Type_free(&c.vec_t);
  MPI_Op_free(&c.affine_op);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world_rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "quick") g_quick = true;
    else if (a.rfind("only=", 0) == 0) g_only = a.substr(5);
    else if (a == "nonblocking") coll::g_nonblocking = true;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  {
    Ctx w = make_ctx(MPI_COMM_WORLD);
    run_all(w);
    free_ctx(w);
  }
  if (size >= 3) {
    // Split communicators scattered over the mesh: every third rank, with keys reversing the order.
    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, g_world_rank % 3, size - g_world_rank, &split);
    MPI_Comm_set_errhandler(split, MPI_ERRORS_RETURN);
    Ctx s = make_ctx(split);
    run_all(s);
    free_ctx(s);
    MPI_Comm_free(&split);
  }
  if (size >= 2) run_intercomm(size);
  coll::Barrier(MPI_COMM_WORLD);
  if (g_world_rank == 0)
    std::printf("coll_correctness: %d ranks%s%s: all collectives and algorithms passed\n", size, g_quick ? " (quick)" : "",
                coll::g_nonblocking ? " (non-blocking)" : "");
  MPI_Finalize();
  return 0;
}
