// Reduction ops on every type they are defined on (MPI_Reduce_local), MAXLOC/MINLOC ties, op
// errors, and the parsing of algorithm selections.
#include <gtest/gtest.h>
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "coll/coll.h"
#include "coll/op.h"

namespace {

class Env : public ::testing::Environment {
 public:
  void SetUp() override {
    int argc = 0;
    char** argv = nullptr;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  void TearDown() override { MPI_Finalize(); }
};
const auto* const g_env = ::testing::AddGlobalTestEnvironment(new Env);

template <class T>
void expect_op(MPI_Datatype t, MPI_Op op, T a, T b, T want) {
  T in = a, io = b;
  ASSERT_EQ(MPI_Reduce_local(&in, &io, 1, t, op), MPI_SUCCESS);
  EXPECT_TRUE(io == want);  // by value: long double has padding bytes
}

}  // namespace

TEST(Ops, IntegerTypes) {
  expect_op<int>(MPI_INT, MPI_SUM, 3, 4, 7);
  expect_op<int>(MPI_INT, MPI_PROD, 3, 4, 12);
  expect_op<int>(MPI_INT, MPI_MAX, 3, -4, 3);
  expect_op<int>(MPI_INT, MPI_MIN, 3, -4, -4);
  expect_op<int>(MPI_INT, MPI_BAND, 6, 3, 2);
  expect_op<int>(MPI_INT, MPI_BOR, 6, 3, 7);
  expect_op<int>(MPI_INT, MPI_BXOR, 6, 3, 5);
  expect_op<int>(MPI_INT, MPI_LAND, 6, 0, 0);
  expect_op<int>(MPI_INT, MPI_LOR, 6, 0, 1);
  expect_op<int>(MPI_INT, MPI_LXOR, 6, 2, 0);
  expect_op<int>(MPI_INT, MPI_SUM, INT32_MAX, 1, INT32_MIN);  // wraps, no UB
  expect_op<signed char>(MPI_SIGNED_CHAR, MPI_SUM, 100, 100, static_cast<signed char>(-56));
  expect_op<unsigned char>(MPI_UNSIGNED_CHAR, MPI_MAX, 200, 100, 200);
  expect_op<short>(MPI_SHORT, MPI_MIN, -3, 2, -3);
  expect_op<unsigned short>(MPI_UNSIGNED_SHORT, MPI_PROD, 65535, 65535, 1);
  expect_op<unsigned>(MPI_UNSIGNED, MPI_SUM, 1u, 2u, 3u);
  expect_op<long>(MPI_LONG, MPI_PROD, 1L << 20, 1L << 20, 1L << 40);
  expect_op<unsigned long>(MPI_UNSIGNED_LONG, MPI_BXOR, 5ul, 1ul, 4ul);
  expect_op<long long>(MPI_LONG_LONG, MPI_SUM, -5, 2, -3);
  expect_op<unsigned long long>(MPI_UNSIGNED_LONG_LONG, MPI_BOR, 8ull, 1ull, 9ull);
  expect_op<std::int8_t>(MPI_INT8_T, MPI_MAX, -1, -2, -1);
  expect_op<std::int16_t>(MPI_INT16_T, MPI_SUM, 300, 300, 600);
  expect_op<std::int32_t>(MPI_INT32_T, MPI_LXOR, 1, 0, 1);
  expect_op<std::int64_t>(MPI_INT64_T, MPI_MIN, 5, 4, 4);
  expect_op<std::uint8_t>(MPI_UINT8_T, MPI_SUM, 255, 2, 1);
  expect_op<std::uint16_t>(MPI_UINT16_T, MPI_BAND, 0xff0, 0x0ff, 0x0f0);
  expect_op<std::uint32_t>(MPI_UINT32_T, MPI_MAX, 7, 9, 9);
  expect_op<std::uint64_t>(MPI_UINT64_T, MPI_PROD, 3, 5, 15);
  expect_op<MPI_Aint>(MPI_AINT, MPI_SUM, 40, 2, 42);
  expect_op<int>(MPI_INTEGER, MPI_SUM, 40, 2, 42);
  expect_op<std::int8_t>(MPI_INTEGER1, MPI_MAX, 1, 2, 2);
  expect_op<std::int16_t>(MPI_INTEGER2, MPI_BAND, 3, 1, 1);
  expect_op<std::int32_t>(MPI_INTEGER4, MPI_MIN, 3, 1, 1);
  expect_op<std::int64_t>(MPI_INTEGER8, MPI_PROD, 3, 7, 21);
  expect_op<unsigned char>(MPI_BYTE, MPI_BXOR, 0xf0, 0xff, 0x0f);
}

TEST(Ops, FloatingComplexLogical) {
  expect_op<float>(MPI_FLOAT, MPI_SUM, 1.5f, 2.25f, 3.75f);
  expect_op<double>(MPI_DOUBLE, MPI_PROD, 1.5, -2.0, -3.0);
  expect_op<long double>(MPI_LONG_DOUBLE, MPI_MAX, 1.5L, 2.5L, 2.5L);
  expect_op<float>(MPI_REAL, MPI_MIN, 1.5f, 2.5f, 1.5f);
  expect_op<double>(MPI_DOUBLE_PRECISION, MPI_SUM, 0.5, 0.25, 0.75);
  expect_op<float>(MPI_REAL4, MPI_PROD, 2.f, 3.f, 6.f);
  expect_op<double>(MPI_REAL8, MPI_MAX, 2., 3., 3.);
  using cf = std::complex<float>;
  using cd = std::complex<double>;
  expect_op<cf>(MPI_C_FLOAT_COMPLEX, MPI_SUM, cf(1, 2), cf(3, 4), cf(4, 6));
  expect_op<cd>(MPI_C_DOUBLE_COMPLEX, MPI_PROD, cd(1, 2), cd(3, 4), cd(-5, 10));
  expect_op<cf>(MPI_COMPLEX, MPI_PROD, cf(0, 1), cf(0, 1), cf(-1, 0));
  expect_op<cd>(MPI_DOUBLE_COMPLEX, MPI_SUM, cd(1, 1), cd(1, -1), cd(2, 0));
  expect_op<bool>(MPI_C_BOOL, MPI_LAND, true, false, false);
  expect_op<bool>(MPI_C_BOOL, MPI_LOR, true, false, true);
  expect_op<int>(MPI_LOGICAL, MPI_LXOR, 1, 1, 0);
  expect_op<int>(MPI_LOGICAL, MPI_LOR, 0, 5, 1);
}

TEST(Ops, LocPairsAndTies) {
  struct DI { double v; int i; };
  DI a[3] = {{1.0, 4}, {2.0, 9}, {5.0, 1}}, b[3] = {{1.0, 2}, {3.0, 0}, {5.0, 3}};
  ASSERT_EQ(MPI_Reduce_local(a, b, 3, MPI_DOUBLE_INT, MPI_MAXLOC), MPI_SUCCESS);
  EXPECT_EQ(b[0].i, 2);  // tie: lowest index
  EXPECT_EQ(b[1].v, 3.0);
  EXPECT_EQ(b[1].i, 0);
  EXPECT_EQ(b[2].i, 1);
  struct II { int v, i; };
  II c{7, 5}, d{7, 3};
  ASSERT_EQ(MPI_Reduce_local(&c, &d, 1, MPI_2INT, MPI_MINLOC), MPI_SUCCESS);
  EXPECT_EQ(d.i, 3);
  struct SI { short v; int i; };
  SI e{-2, 8}, f{4, 1};
  ASSERT_EQ(MPI_Reduce_local(&e, &f, 1, MPI_SHORT_INT, MPI_MINLOC), MPI_SUCCESS);
  EXPECT_EQ(f.v, -2);
  EXPECT_EQ(f.i, 8);
  struct FI { float v; int i; };
  FI g{1.f, 2}, h{1.f, 1};
  ASSERT_EQ(MPI_Reduce_local(&g, &h, 1, MPI_FLOAT_INT, MPI_MAXLOC), MPI_SUCCESS);
  EXPECT_EQ(h.i, 1);
  struct LI { long v; int i; };
  LI j{9, 0}, k{8, 5};
  ASSERT_EQ(MPI_Reduce_local(&j, &k, 1, MPI_LONG_INT, MPI_MAXLOC), MPI_SUCCESS);
  EXPECT_EQ(k.i, 0);
  struct LDI { long double v; int i; };
  LDI l{1.0L, 3}, m{1.0L, 2};
  ASSERT_EQ(MPI_Reduce_local(&l, &m, 1, MPI_LONG_DOUBLE_INT, MPI_MINLOC), MPI_SUCCESS);
  EXPECT_EQ(m.i, 2);
  int fi[2] = {5, 7}, fo[2] = {5, 6};
  ASSERT_EQ(MPI_Reduce_local(fi, fo, 1, MPI_2INTEGER, MPI_MAXLOC), MPI_SUCCESS);
  EXPECT_EQ(fo[1], 6);
  float ri[2] = {2.f, 1.f}, ro[2] = {1.f, 0.f};
  ASSERT_EQ(MPI_Reduce_local(ri, ro, 1, MPI_2REAL, MPI_MAXLOC), MPI_SUCCESS);
  EXPECT_EQ(ro[0], 2.f);
  EXPECT_EQ(ro[1], 1.f);
  double di[2] = {2., 4.}, dout[2] = {2., 3.};
  ASSERT_EQ(MPI_Reduce_local(di, dout, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC), MPI_SUCCESS);
  EXPECT_EQ(dout[1], 3.);
}

TEST(Ops, ForbiddenCombinations) {
  double x = 1, y = 2;
  EXPECT_EQ(MPI_Reduce_local(&x, &y, 1, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP);
  EXPECT_EQ(MPI_Reduce_local(&x, &y, 1, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP);
  int i = 1, j = 2;
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_MAXLOC), MPI_ERR_OP);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_INT, 9999), MPI_ERR_OP);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_WCHAR, MPI_SUM), MPI_ERR_OP);  // (MPI_CHAR is a C integer, as in MPICH)
  std::complex<double> c1, c2;
  EXPECT_EQ(MPI_Reduce_local(&c1, &c2, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX), MPI_ERR_OP);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
  // REPLACE and NO_OP are harmless on any type.
  EXPECT_EQ(MPI_Reduce_local(&x, &y, 1, MPI_DOUBLE, MPI_REPLACE), MPI_SUCCESS);
  EXPECT_EQ(y, 1.0);
  EXPECT_EQ(MPI_Reduce_local(&i, &j, 1, MPI_INT, MPI_NO_OP), MPI_SUCCESS);
  EXPECT_EQ(j, 2);
}

namespace {
// inout = in * 10 + inout per int; on the vector type (2 ints at stride 2, extent 3 ints) it
// walks the type's layout.
void concat_op(void* in, void* inout, int* len, MPI_Datatype* dt) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  if (*dt == MPI_INT) {
    for (int k = 0; k < *len; ++k) b[k] = a[k] * 10 + b[k];
    return;
  }
  for (int k = 0; k < *len; ++k)
    for (int j : {0, 2}) b[3 * k + j] = a[3 * k + j] * 10 + b[3 * k + j];
}
}  // namespace

TEST(Ops, UserOps) {
  MPI_Op op;
  ASSERT_EQ(MPI_Op_create(concat_op, 0, &op), MPI_SUCCESS);
  int commute = -1;
  ASSERT_EQ(MPI_Op_commutative(op, &commute), MPI_SUCCESS);
  EXPECT_EQ(commute, 0);
  ASSERT_EQ(MPI_Op_commutative(MPI_SUM, &commute), MPI_SUCCESS);
  EXPECT_EQ(commute, 1);
  int a[2] = {1, 2}, b[2] = {3, 4};
  ASSERT_EQ(MPI_Reduce_local(a, b, 2, MPI_INT, op), MPI_SUCCESS);
  EXPECT_EQ(b[0], 13);
  EXPECT_EQ(b[1], 24);
  // The Reducer keeps rank order: lo op hi into lo.
  tilempi::mpi::coll::Reducer red(op, MPI_INT);
  int lo = 1, hi = 2;
  red.apply_into_lo(&lo, &hi, 1);
  EXPECT_EQ(lo, 12);
  // A user op on a non-contiguous type sees the type's own layout.
  MPI_Datatype vec;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int x[3] = {1, -1, 2}, y[3] = {3, -7, 4};
  ASSERT_EQ(MPI_Reduce_local(x, y, 1, vec, op), MPI_SUCCESS);
  EXPECT_EQ(y[0], 13);
  EXPECT_EQ(y[1], -7);
  EXPECT_EQ(y[2], 24);
  tilempi::mpi::coll::Reducer rv(op, vec);
  int px[2] = {5, 6}, py[2] = {7, 8};  // packed elements
  rv.apply(px, py, 1);
  EXPECT_EQ(py[0], 57);
  EXPECT_EQ(py[1], 68);
  MPI_Type_free(&vec);
  ASSERT_EQ(MPI_Op_free(&op), MPI_SUCCESS);
  EXPECT_EQ(op, MPI_OP_NULL);
  MPI_Op sum = MPI_SUM;
  EXPECT_EQ(MPI_Op_free(&sum), MPI_ERR_OP);
}

TEST(Selection, ValidateAndHelp) {
  char msg[1024];
  EXPECT_EQ(TILEMPIX_Coll_validate("alltoall=mesh_rounds,barrier=ktree:4", msg, sizeof msg), MPI_SUCCESS);
  EXPECT_EQ(TILEMPIX_Coll_validate("", msg, sizeof msg), MPI_SUCCESS);
  EXPECT_EQ(TILEMPIX_Coll_validate("alltoall=nope", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_NE(std::string(msg).find("mesh_rounds"), std::string::npos);
  EXPECT_NE(std::string(msg).find("xor_direct"), std::string::npos);
  EXPECT_EQ(TILEMPIX_Coll_validate("alltoal=pairwise", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_NE(std::string(msg).find("unknown collective"), std::string::npos);
  EXPECT_EQ(TILEMPIX_Coll_validate("barrier=ktree:0", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_EQ(TILEMPIX_Coll_validate("barrier=ktree:x", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_EQ(TILEMPIX_Coll_validate("bcast=binomial:3", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_NE(std::string(msg).find("takes no parameter"), std::string::npos);
  EXPECT_EQ(TILEMPIX_Coll_validate("bcast", msg, sizeof msg), MPI_ERR_ARG);
  EXPECT_EQ(TILEMPIX_Coll_validate(nullptr, msg, sizeof msg), MPI_ERR_ARG);
  std::string help(16384, '\0');
  ASSERT_EQ(TILEMPIX_Coll_help(help.data(), static_cast<int>(help.size())), MPI_SUCCESS);
  for (const char* name : {"mesh_rounds", "ktree[:K]", "ktree_static[:K]", "static_route", "mesh_tree", "mesh_reduce_bcast", "rabenseifner",
                           "scatter_allgather", "dissemination", "bruck", "xor_direct", "scattered", "reduce_scatter_block"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
  char small[8];
  ASSERT_EQ(TILEMPIX_Coll_help(small, sizeof small), MPI_SUCCESS);
  EXPECT_EQ(std::strlen(small), 7u);
}

TEST(Selection, SelectedFollowsSetSelection) {
  char name[64];
  std::string err;
  ASSERT_EQ(tilempi::mpi::coll::set_selection("alltoall=bruck,barrier=ktree:5", &err), MPI_SUCCESS);
  ASSERT_EQ(TILEMPIX_Coll_selected(MPI_COMM_WORLD, "alltoall", name, sizeof name), MPI_SUCCESS);
  EXPECT_STREQ(name, "bruck");
  ASSERT_EQ(TILEMPIX_Coll_selected(MPI_COMM_WORLD, "barrier", name, sizeof name), MPI_SUCCESS);
  EXPECT_STREQ(name, "ktree:5");
  EXPECT_EQ(tilempi::mpi::coll::set_selection("alltoall=nope", &err), MPI_ERR_ARG);
  ASSERT_EQ(tilempi::mpi::coll::set_selection("", &err), MPI_SUCCESS);
  // One rank on a 1x1 mesh: a single row, so the classic defaults.
  ASSERT_EQ(TILEMPIX_Coll_selected(MPI_COMM_WORLD, "alltoall", name, sizeof name), MPI_SUCCESS);
  EXPECT_STREQ(name, "pairwise");
  EXPECT_EQ(TILEMPIX_Coll_selected(MPI_COMM_WORLD, "nope", name, sizeof name), MPI_ERR_ARG);
}

TEST(Collectives, ArgumentErrors) {
  int x = 0, y = 0;
  EXPECT_EQ(MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
  EXPECT_EQ(MPI_Bcast(&x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  EXPECT_EQ(MPI_Bcast(&x, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_EQ(MPI_Bcast(&x, 1, MPI_INT, 0, 12345), MPI_ERR_COMM);
  EXPECT_EQ(MPI_Bcast(nullptr, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  EXPECT_EQ(MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD), MPI_ERR_OP);
  EXPECT_EQ(MPI_Allreduce(&x, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  EXPECT_EQ(MPI_Alltoall(&x, 1, MPI_INT, &y, 2, MPI_SHORT, MPI_COMM_WORLD), MPI_SUCCESS);  // same size
  EXPECT_EQ(MPI_Alltoall(&x, 1, MPI_INT, &y, 1, MPI_SHORT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
  EXPECT_EQ(MPI_Gather(&x, 1, MPI_INT, &y, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
  int counts[1] = {-1}, displs[1] = {0};
  EXPECT_EQ(MPI_Alltoallv(&x, counts, displs, MPI_INT, &y, counts, displs, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
  EXPECT_EQ(MPI_Reduce_scatter(&x, &y, nullptr, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_ARG);
  // One rank: results are the inputs.
  x = 5;
  EXPECT_EQ(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(y, 5);
  EXPECT_EQ(MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_EQ(y, 5);  // rank 0's recvbuf is left alone
}

namespace {

namespace mc = tilempi::mpi::coll;

/// A communicator the default selector sees as spanning `rows` mesh rows (its geometry filled in
/// by hand): select() runs on it without any traffic.
tilempi::mpi::Comm fake_comm(int size, int rows) {
  tilempi::mpi::Comm c;
  c.size = size;
  c.rank = 0;
  c.coll = std::make_shared<tilempi::mpi::CollState>();
  c.coll->geometry_ready = true;
  c.coll->rows = rows;
  return c;
}

/// The algorithm --coll help marks with `mark` for collective k ("" if none).
std::string marked(const std::string& help, mc::Collective k, char mark) {
  const std::string head = std::string("\n") + mc::kind_name(k) + ":\n";
  std::size_t at = help.find(head);
  if (at == std::string::npos) return "(no section)";
  at += head.size();
  while (at < help.size() && help.compare(at, 2, "  ") == 0) {
    const std::size_t eol = help.find('\n', at);
    const std::string line = help.substr(at, eol - at);
    if (line.size() > 4 && line[2] == mark) {
      std::string name = line.substr(4, line.find(' ', 4) - 4);
      return name.substr(0, name.find('['));
    }
    at = eol + 1;
  }
  return "";
}

}  // namespace

// The help's markers are read from the same entries as the default selector: select() on a
// communicator spanning several rows runs the '*' algorithm, on one row the '+' one (or the '*'
// one where a collective has the same default everywhere).
TEST(Registry, HelpMarkersAreTheSelectorsDefaults) {
  ASSERT_EQ(mc::set_selection("", nullptr), MPI_SUCCESS);
  std::string help(1 << 16, '\0');
  ASSERT_EQ(TILEMPIX_Coll_help(help.data(), static_cast<int>(help.size())), MPI_SUCCESS);
  help.resize(std::strlen(help.c_str()));
  auto multi = fake_comm(16, 4), single = fake_comm(4, 1);
  for (int i = 0; i < mc::kKinds; ++i) {
    const auto k = static_cast<mc::Collective>(i);
    const std::string star = marked(help, k, '*'), plus = marked(help, k, '+');
    EXPECT_EQ(mc::select(k, multi).algorithm->name, star) << mc::kind_name(k);
    EXPECT_EQ(mc::select(k, single).algorithm->name, plus.empty() ? star : plus) << mc::kind_name(k);
    EXPECT_STREQ(mc::default_algorithm(k, multi), star.c_str()) << mc::kind_name(k);
  }
}

// An intercommunicator runs the registry's intercommunicator algorithm of a collective (the '>'
// of the help), an intracommunicator never does; a user's choice applies to its algorithm's kind
// of communicator only. Every collective MPI defines on intercommunicators (all but the scans
// and the neighbourhood collectives, MPI-3.1 §5.2.2, §7.6) has one.
TEST(Registry, IntercommunicatorsRunTheirOwnEntries) {
  ASSERT_EQ(mc::set_selection("", nullptr), MPI_SUCCESS);
  std::string help(1 << 16, '\0');
  ASSERT_EQ(TILEMPIX_Coll_help(help.data(), static_cast<int>(help.size())), MPI_SUCCESS);
  help.resize(std::strlen(help.c_str()));
  auto inter = fake_comm(4, 1), intra = fake_comm(4, 1);
  inter.inter = true;
  for (int i = 0; i < mc::kKinds; ++i) {
    const auto k = static_cast<mc::Collective>(i);
    const std::string name = mc::kind_name(k);
    const bool defined = k != mc::Collective::Scan && k != mc::Collective::Exscan && name.rfind("neighbor_", 0) != 0;
    const mc::Algorithm* a = mc::select(k, inter).algorithm;
    EXPECT_FALSE(mc::select(k, intra).algorithm->intercomm) << name;
    if (!defined) {
      EXPECT_EQ(a, nullptr) << name;
      EXPECT_EQ(mc::intercomm_default(k), nullptr) << name;
      continue;
    }
    ASSERT_NE(a, nullptr) << name;
    EXPECT_TRUE(a->intercomm) << name;
    EXPECT_EQ(a->name, marked(help, k, '>')) << name;
    EXPECT_STREQ(mc::default_algorithm(k, inter), a->name) << name;
  }
  ASSERT_EQ(mc::set_selection("bcast=binomial", nullptr), MPI_SUCCESS);
  EXPECT_TRUE(mc::select(mc::Collective::Bcast, inter).algorithm->intercomm);
  EXPECT_STREQ(mc::select(mc::Collective::Bcast, intra).algorithm->name, "binomial");
  const std::string inter_bcast = mc::intercomm_default(mc::Collective::Bcast)->name;
  ASSERT_EQ(mc::set_selection("bcast=" + inter_bcast, nullptr), MPI_SUCCESS);
  EXPECT_EQ(mc::select(mc::Collective::Bcast, inter).algorithm->name, inter_bcast);
  EXPECT_FALSE(mc::select(mc::Collective::Bcast, intra).algorithm->intercomm);
  ASSERT_EQ(mc::set_selection("", nullptr), MPI_SUCCESS);
}

// Every restricted algorithm names a fallback of its own collective that runs where it cannot,
// and the help shows both; TILEMPIX_Coll_algorithms reports the same entries.
TEST(Registry, RestrictionsHaveFallbacksAndAreListed) {
  std::string help(1 << 16, '\0');
  ASSERT_EQ(TILEMPIX_Coll_help(help.data(), static_cast<int>(help.size())), MPI_SUCCESS);
  int restricted = 0;
  for (int i = 0; i < mc::kKinds; ++i) {
    const auto k = static_cast<mc::Collective>(i);
    const auto& algs = mc::algorithms(k);
    int count = -1;
    std::vector<TILEMPIX_Coll_algorithm_info> info(algs.size() + 2);
    ASSERT_EQ(TILEMPIX_Coll_algorithms(mc::kind_name(k), info.data(), static_cast<int>(info.size()), &count), MPI_SUCCESS);
    ASSERT_EQ(count, static_cast<int>(algs.size()));
    char cname[64];
    ASSERT_EQ(TILEMPIX_Coll_collective(i, cname, sizeof cname), MPI_SUCCESS);
    EXPECT_STREQ(cname, mc::kind_name(k));
    for (std::size_t j = 0; j < algs.size(); ++j) {
      const mc::Algorithm& a = algs[j];
      EXPECT_EQ(a.kind, k);
      EXPECT_STREQ(info[j].name, a.name);
      EXPECT_EQ(info[j].mesh != 0, a.family == mc::Family::Mesh);
      EXPECT_EQ(info[j].has_schedule != 0, a.schedule != nullptr);
      if (!a.restrictions.any()) {
        EXPECT_EQ(info[j].needs, 0) << a.name;
        continue;
      }
      ++restricted;
      ASSERT_NE(a.fallback, nullptr) << a.name;
      EXPECT_NE(mc::find_algorithm(k, a.fallback), nullptr) << a.name;
      EXPECT_STREQ(info[j].fallback, a.fallback);
      EXPECT_NE(info[j].needs, 0) << a.name;
      EXPECT_NE(help.find(std::string("; else ") + a.fallback + "]"), std::string::npos) << a.name;
    }
  }
  char cname[64];
  EXPECT_EQ(TILEMPIX_Coll_collective(mc::kKinds, cname, sizeof cname), MPI_ERR_ARG);
  int count = 0;
  EXPECT_EQ(TILEMPIX_Coll_algorithms("nope", nullptr, 0, &count), MPI_ERR_ARG);
  // The restrictions the issue names are data: mesh_rounds' rank limit, ring's and rabenseifner's
  // commutative ops, allgather recursive_doubling's powers of two, ktree_static's static network.
  EXPECT_EQ(mc::find_algorithm(mc::Collective::Alltoall, "mesh_rounds")->restrictions.max_ranks, 256);
  EXPECT_TRUE(mc::find_algorithm(mc::Collective::Allreduce, "ring")->restrictions.commutative);
  EXPECT_TRUE(mc::find_algorithm(mc::Collective::Allreduce, "rabenseifner")->restrictions.commutative);
  EXPECT_TRUE(mc::find_algorithm(mc::Collective::Allgather, "recursive_doubling")->restrictions.power_of_two);
  EXPECT_TRUE(mc::find_algorithm(mc::Collective::Barrier, "ktree_static")->restrictions.static_network);
  EXPECT_GE(restricted, 8);
}

// OperaMPI's switch at 1 KW is the registry's size switch, not an `if` in the algorithm: at or
// below it the registry runs (and reports) linear, above it operampi; the switch is listed.
TEST(Registry, OperampiSwitchesToLinearUpToOneKiloword) {
  const mc::Algorithm* op = mc::find_algorithm(mc::Collective::Alltoall, "operampi");
  ASSERT_NE(op, nullptr);
  EXPECT_STREQ(mc::at_block_size(mc::Collective::Alltoall, *op, 4).name, "linear");
  EXPECT_STREQ(mc::at_block_size(mc::Collective::Alltoall, *op, 4096).name, "linear");
  EXPECT_STREQ(mc::at_block_size(mc::Collective::Alltoall, *op, 4097).name, "operampi");
  const mc::Algorithm* pairwise = mc::find_algorithm(mc::Collective::Alltoall, "pairwise");
  EXPECT_EQ(&mc::at_block_size(mc::Collective::Alltoall, *pairwise, 4), pairwise);
  std::vector<TILEMPIX_Coll_algorithm_info> info(64);
  int count = 0;
  ASSERT_EQ(TILEMPIX_Coll_algorithms("alltoall", info.data(), static_cast<int>(info.size()), &count), MPI_SUCCESS);
  bool listed = false;
  for (int i = 0; i < count; ++i)
    if (std::string(info[static_cast<std::size_t>(i)].name) == "operampi") {
      listed = true;
      EXPECT_NE(info[static_cast<std::size_t>(i)].needs & TILEMPIX_COLL_NEEDS_BLOCK_ABOVE, 0);
      EXPECT_EQ(info[static_cast<std::size_t>(i)].block_above, 4096);
      EXPECT_STREQ(info[static_cast<std::size_t>(i)].fallback, "linear");
    }
  EXPECT_TRUE(listed);
}

// Call-independent restrictions are applied by select() and so reported before any call: a
// communicator over mesh_rounds' limit runs (and reports) pairwise, by default and by choice.
TEST(Registry, SelectAppliesRestrictions) {
  auto big = fake_comm(257, 17), small = fake_comm(256, 16), odd = fake_comm(6, 2);
  ASSERT_EQ(mc::set_selection("", nullptr), MPI_SUCCESS);
  EXPECT_STREQ(mc::select(mc::Collective::Alltoall, small).algorithm->name, "mesh_rounds");
  EXPECT_STREQ(mc::select(mc::Collective::Alltoall, big).algorithm->name, "pairwise");
  EXPECT_STREQ(mc::select(mc::Collective::Alltoallv, big).algorithm->name, "pairwise");
  ASSERT_EQ(mc::set_selection("alltoall=mesh_rounds,allgather=recursive_doubling", nullptr), MPI_SUCCESS);
  mc::Selected s = mc::select(mc::Collective::Alltoall, big);
  EXPECT_STREQ(s.algorithm->name, "pairwise");
  EXPECT_STREQ(s.requested->name, "mesh_rounds");
  EXPECT_TRUE(s.user);
  EXPECT_STREQ(mc::select(mc::Collective::Allgather, odd).algorithm->name, "bruck");
  EXPECT_STREQ(mc::select(mc::Collective::Allgather, small).algorithm->name, "recursive_doubling");
  // The host transport has no static network: ktree_static:4 runs as ktree:4.
  ASSERT_EQ(mc::set_selection("barrier=ktree_static:4", nullptr), MPI_SUCCESS);
  s = mc::select(mc::Collective::Barrier, odd);
  EXPECT_STREQ(s.algorithm->name, "ktree");
  EXPECT_EQ(s.param, 4);
  ASSERT_EQ(mc::set_selection("", nullptr), MPI_SUCCESS);
}

#ifdef TILEMPI_BENCH_PATH
// tilempi-bench's lists are the registry's: --list prints, per collective it measures, every
// registered algorithm (the default sweep) and --quick's: the two defaults and the baseline.
TEST(Registry, BenchListsAreTheRegistrys) {
  std::string want;
  for (const char* coll : {"alltoall", "barrier", "bcast", "reduce", "allreduce", "allgather", "gather", "scatter"}) {
    const auto k = *mc::kind_of(coll);
    std::string all, quick;
    for (const mc::Algorithm& a : mc::algorithms(k))
      if (!a.intercomm) all += (all.empty() ? "" : " ") + std::string(a.name);
    // The mesh default, Yagna's baseline, the single-row default (each once).
    std::vector<const mc::Algorithm*> picks{mc::default_for(k, true)};
    for (const mc::Algorithm& a : mc::algorithms(k))
      if (a.baseline) picks.push_back(&a);
    picks.push_back(mc::default_for(k, false));
    std::vector<const mc::Algorithm*> seen;
    for (const mc::Algorithm* a : picks)
      if (std::find(seen.begin(), seen.end(), a) == seen.end()) {
        seen.push_back(a);
        quick += (quick.empty() ? "" : " ") + std::string(a->name);
      }
    want += std::string(coll) + ": " + all + " (quick: " + quick + ")\n";
  }
  FILE* p = popen(TILEMPI_BENCH_PATH " --list", "r");
  ASSERT_NE(p, nullptr);
  std::string got;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) got += buf;
  EXPECT_EQ(pclose(p), 0);
  EXPECT_EQ(got, want);
}
#endif
