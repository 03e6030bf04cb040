// Datatypes: array layouts (subarray, darray), MPI_Pack/Unpack/Pack_size, extents (resized, true
// extent, _x), Type_dup, indexed_block, Get_elements(_x), the MPI-1 names (Type_struct with
// MPI_LB/MPI_UB, Type_extent/lb/ub, Type_hvector, Type_hindexed, Address), each with its error
// cases; and the layouts on the wire: every rank sends a subarray and a darray piece of its
// matrix to the next rank, which receives them as plain ints.
#include <mpi.h>

#include <cstdio>
#include <cstring>
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

int error_class(int rc) {
  int c = 0;
  MPI_Error_class(rc, &c);
  return c;
}

/// The ints a type selects from a buffer of ints, in type-map order (through MPI_Pack).
std::vector<int> selected(MPI_Datatype t, const int* buf) {
  int bytes = 0;
  CHECK(MPI_Pack_size(1, t, MPI_COMM_WORLD, &bytes) == MPI_SUCCESS);
  std::vector<int> out(static_cast<std::size_t>(bytes) / sizeof(int));
  int pos = 0;
  CHECK(MPI_Pack(buf, 1, t, out.data(), bytes, &pos, MPI_COMM_WORLD) == MPI_SUCCESS && pos == bytes);
  return out;
}

void test_pack() {
  int v[10];
  for (int i = 0; i < 10; ++i) v[i] = 100 + i;
  MPI_Datatype vec;
  CHECK(MPI_Type_vector(3, 1, 3, MPI_INT, &vec) == MPI_SUCCESS && MPI_Type_commit(&vec) == MPI_SUCCESS);
  int size = 0;
  CHECK(MPI_Pack_size(2, MPI_DOUBLE, MPI_COMM_WORLD, &size) == MPI_SUCCESS && size == 16);
  // Two items in one buffer: the vector (100, 103, 106), then a double.
  char buf[64];
  int pos = 0;
  const double d = 2.5;
  CHECK(MPI_Pack(v, 1, vec, buf, sizeof buf, &pos, MPI_COMM_WORLD) == MPI_SUCCESS && pos == 12);
  CHECK(MPI_Pack(&d, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD) == MPI_SUCCESS && pos == 20);
  int out[10] = {0};
  double e = 0;
  int in = 0;
  CHECK(MPI_Unpack(buf, pos, &in, out, 1, vec, MPI_COMM_WORLD) == MPI_SUCCESS && in == 12);
  CHECK(MPI_Unpack(buf, pos, &in, &e, 1, MPI_DOUBLE, MPI_COMM_WORLD) == MPI_SUCCESS && in == 20 && e == 2.5);
  CHECK(out[0] == 100 && out[3] == 103 && out[6] == 106 && out[1] == 0);
  // Errors: no room, unpacking past the end, bad arguments.
  pos = 10;
  CHECK(error_class(MPI_Pack(v, 1, vec, buf, 16, &pos, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE && pos == 10);
  in = 16;
  CHECK(error_class(MPI_Unpack(buf, 20, &in, out, 1, vec, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE);
  CHECK(error_class(MPI_Pack(v, -1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD)) == MPI_ERR_COUNT);
  CHECK(error_class(MPI_Pack(v, 1, MPI_DATATYPE_NULL, buf, 64, &pos, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
  CHECK(error_class(MPI_Pack(v, 1, MPI_INT, buf, 64, nullptr, MPI_COMM_WORLD)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Pack(v, 1, MPI_INT, buf, 64, &pos, MPI_COMM_NULL)) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, nullptr)) == MPI_ERR_ARG);
  MPI_Datatype uncommitted;
  CHECK(MPI_Type_contiguous(2, MPI_INT, &uncommitted) == MPI_SUCCESS);
  CHECK(error_class(MPI_Pack(v, 1, uncommitted, buf, 64, &pos, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
  MPI_Type_free(&uncommitted);
  MPI_Type_free(&vec);
}

void test_subarray() {
  // A 4x5 array of ints, value 10*row + col; the 2x3 block at (1, 2).
  int a[20];
  for (int i = 0; i < 20; ++i) a[i] = 10 * (i / 5) + i % 5;
  const int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Datatype c, f;
  CHECK(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &c) == MPI_SUCCESS);
  CHECK(MPI_Type_commit(&c) == MPI_SUCCESS);
  CHECK(selected(c, a) == (std::vector<int>{12, 13, 14, 22, 23, 24}));
  MPI_Aint lb, ext, tlb, text;
  CHECK(MPI_Type_get_extent(c, &lb, &ext) == MPI_SUCCESS && lb == 0 && ext == 80);
  CHECK(MPI_Type_get_true_extent(c, &tlb, &text) == MPI_SUCCESS && tlb == 28 && text == 32);
  // Fortran order: the first dimension is the fastest. sizes (4,5) column-major: a[i + 4 j].
  CHECK(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &f) == MPI_SUCCESS);
  CHECK(MPI_Type_commit(&f) == MPI_SUCCESS);
  std::vector<int> expect;
  for (int j = 2; j < 5; ++j)
    for (int i = 1; i < 3; ++i) expect.push_back(a[i + 4 * j]);
  CHECK(selected(f, a) == expect);
  MPI_Count sz = 0, xlb = 0, xext = 0;
  CHECK(MPI_Type_size_x(f, &sz) == MPI_SUCCESS && sz == 24);
  CHECK(MPI_Type_get_extent_x(f, &xlb, &xext) == MPI_SUCCESS && xlb == 0 && xext == 80);
  CHECK(MPI_Type_get_true_extent_x(c, &xlb, &xext) == MPI_SUCCESS && xlb == 28 && xext == 32);
  // Errors.
  MPI_Datatype t;
  const int big[2] = {3, 3}, far[2] = {3, 0};
  CHECK(error_class(MPI_Type_create_subarray(2, sizes, big, far, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_subarray(0, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_DIMS);
  CHECK(error_class(MPI_Type_create_subarray(2, sizes, sub, starts, 12345, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE);
  MPI_Type_free(&c);
  MPI_Type_free(&f);
}

void test_darray() {
  // An 8x6 array over a 2x3 process grid: rows block-distributed, columns cyclic(1); every
  // element belongs to exactly one of the 6 processes.
  int a[48];
  for (int i = 0; i < 48; ++i) a[i] = i;
  const int gsizes[2] = {8, 6}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 3};
  std::vector<int> owner(48, -1);
  for (int p = 0; p < 6; ++p) {
    MPI_Datatype t;
    CHECK(MPI_Type_create_darray(6, p, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &t) == MPI_SUCCESS);
    CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
    MPI_Aint lb, ext;
    CHECK(MPI_Type_get_extent(t, &lb, &ext) == MPI_SUCCESS && lb == 0 && ext == 48 * 4);
    const std::vector<int> mine = selected(t, a);
    CHECK(mine.size() == 8);  // 4 rows x 2 columns
    const int prow = p / 3, pcol = p % 3;
    for (int v : mine) {
      CHECK(owner[static_cast<std::size_t>(v)] == -1);
      owner[static_cast<std::size_t>(v)] = p;
      CHECK(v / 6 / 4 == prow && v % 6 % 3 == pcol);
    }
    MPI_Type_free(&t);
  }
  for (int o : owner) CHECK(o >= 0);
  // Cyclic(2) on one dimension in Fortran order, and the errors.
  const int g1[1] = {10}, d1[1] = {MPI_DISTRIBUTE_CYCLIC}, a1[1] = {2}, p1[1] = {2};
  MPI_Datatype t;
  CHECK(MPI_Type_create_darray(2, 1, 1, g1, d1, a1, p1, MPI_ORDER_FORTRAN, MPI_INT, &t) == MPI_SUCCESS);
  CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
  CHECK(selected(t, a) == (std::vector<int>{2, 3, 6, 7}));
  MPI_Type_free(&t);
  const int none[1] = {MPI_DISTRIBUTE_NONE}, bad[1] = {77}, small[1] = {3};
  const int blk[1] = {MPI_DISTRIBUTE_BLOCK};
  CHECK(error_class(MPI_Type_create_darray(2, 0, 1, g1, none, a1, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(2, 0, 1, g1, bad, a1, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(2, 0, 1, g1, blk, small, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g1, d1, a1, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(2, 2, 1, g1, d1, a1, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
}

void test_extents_and_mpi1() {
  // Resized, dup, indexed_block.
  MPI_Datatype r, dup, ib;
  CHECK(MPI_Type_create_resized(MPI_INT, -4, 16, &r) == MPI_SUCCESS);
  MPI_Aint lb, ext;
  CHECK(MPI_Type_get_extent(r, &lb, &ext) == MPI_SUCCESS && lb == -4 && ext == 16);
  CHECK(MPI_Type_dup(r, &dup) == MPI_SUCCESS);
  CHECK(MPI_Type_get_extent(dup, &lb, &ext) == MPI_SUCCESS && lb == -4 && ext == 16);
  const int displs[3] = {4, 0, 7};
  CHECK(MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &ib) == MPI_SUCCESS && MPI_Type_commit(&ib) == MPI_SUCCESS);
  int a[10];
  for (int i = 0; i < 10; ++i) a[i] = i;
  CHECK(selected(ib, a) == (std::vector<int>{4, 5, 0, 1, 7, 8}));
  // MPI-1: a struct with bound markers: {MPI_LB at -8, 2 ints at 0, MPI_UB at 24}.
  const int lens[3] = {1, 2, 1};
  const MPI_Aint d[3] = {-8, 0, 24};
  const MPI_Datatype types[3] = {MPI_LB, MPI_INT, MPI_UB};
  MPI_Datatype s;
  CHECK(MPI_Type_struct(3, lens, d, types, &s) == MPI_SUCCESS && MPI_Type_commit(&s) == MPI_SUCCESS);
  MPI_Aint e = 0, l = 0, u = 0;
  CHECK(MPI_Type_extent(s, &e) == MPI_SUCCESS && e == 32);
  CHECK(MPI_Type_lb(s, &l) == MPI_SUCCESS && l == -8);
  CHECK(MPI_Type_ub(s, &u) == MPI_SUCCESS && u == 24);
  int size = 0;
  CHECK(MPI_Type_size(s, &size) == MPI_SUCCESS && size == 8);
  // Markers are sticky: a contiguous pair of s has lb -8 and extent 64.
  MPI_Datatype s2;
  CHECK(MPI_Type_contiguous(2, s, &s2) == MPI_SUCCESS);
  CHECK(MPI_Type_lb(s2, &l) == MPI_SUCCESS && l == -8 && MPI_Type_extent(s2, &e) == MPI_SUCCESS && e == 64);
  MPI_Type_free(&s2);
  // hvector / hindexed / Address.
  MPI_Datatype hv, hi;
  CHECK(MPI_Type_hvector(2, 1, 12, MPI_INT, &hv) == MPI_SUCCESS && MPI_Type_commit(&hv) == MPI_SUCCESS);
  CHECK(selected(hv, a) == (std::vector<int>{0, 3}));
  const int hl[2] = {1, 2};
  const MPI_Aint hd[2] = {20, 4};
  CHECK(MPI_Type_hindexed(2, hl, hd, MPI_INT, &hi) == MPI_SUCCESS && MPI_Type_commit(&hi) == MPI_SUCCESS);
  CHECK(selected(hi, a) == (std::vector<int>{5, 1, 2}));
  MPI_Aint a0 = 0, a1 = 0;
  CHECK(MPI_Address(&a[0], &a0) == MPI_SUCCESS && MPI_Address(&a[3], &a1) == MPI_SUCCESS && a1 - a0 == 12);
  CHECK(error_class(MPI_Type_extent(MPI_DATATYPE_NULL, &e)) == MPI_ERR_TYPE);
  CHECK(error_class(MPI_Type_lb(MPI_INT, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_hvector(-1, 1, 4, MPI_INT, &hv)) == MPI_ERR_COUNT);
  CHECK(error_class(MPI_Address(a, nullptr)) == MPI_ERR_ARG);
  for (MPI_Datatype* t : {&r, &dup, &ib, &s, &hv, &hi}) MPI_Type_free(t);
}

/// Every rank sends the 2x3 subarray at (1, 2) of its 4x5 matrix and its darray piece (1 x n grid,
/// columns cyclic) to the next rank, which receives plain ints; Get_elements(_x) count them.
void test_on_the_wire(int n) {
  const int next = (g_rank + 1) % n, prev = (g_rank + n - 1) % n;
  std::vector<int> m(20);
  for (int i = 0; i < 20; ++i) m[static_cast<std::size_t>(i)] = 1000 * g_rank + i;
  const int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Datatype t;
  CHECK(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t) == MPI_SUCCESS);
  CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
  int got[6];
  MPI_Status st;
  CHECK(MPI_Sendrecv(m.data(), 1, t, next, 7, got, 6, MPI_INT, prev, 7, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
  const int want[6] = {7, 8, 9, 12, 13, 14};
  for (int i = 0; i < 6; ++i) CHECK(got[i] == 1000 * prev + want[i]);
  int elements = 0;
  MPI_Count elements_x = 0;
  CHECK(MPI_Get_elements(&st, MPI_INT, &elements) == MPI_SUCCESS && elements == 6);
  CHECK(MPI_Get_elements_x(&st, MPI_INT, &elements_x) == MPI_SUCCESS && elements_x == 6);
  CHECK(error_class(MPI_Get_elements_x(&st, MPI_INT, nullptr)) == MPI_ERR_ARG);
  MPI_Type_free(&t);
  // The whole 4x5 matrix, columns cyclic over n processes: this rank's columns c = rank (mod n).
  const int gs[2] = {4, 5}, dist[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {1, n};
  CHECK(MPI_Type_create_darray(n, g_rank, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_SUCCESS);
  CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
  int mine_cols = 0, theirs_cols = 0;
  for (int c = 0; c < 5; ++c) {
    mine_cols += c % n == g_rank;
    theirs_cols += c % n == prev;
  }
  std::vector<int> in(static_cast<std::size_t>(4 * theirs_cols) + 1, -1);
  CHECK(MPI_Sendrecv(m.data(), 1, t, next, 8, in.data(), static_cast<int>(in.size()), MPI_INT, prev, 8, MPI_COMM_WORLD,
                     &st) == MPI_SUCCESS);
  CHECK(MPI_Get_elements(&st, MPI_INT, &elements) == MPI_SUCCESS && elements == 4 * theirs_cols);
  std::size_t k = 0;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 5; ++c)
      if (c % n == prev) CHECK(in[k++] == 1000 * prev + 5 * r + c);
  (void)mine_cols;
  MPI_Type_free(&t);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  test_pack();
  test_subarray();
  test_darray();
  test_extents_and_mpi1();
  test_on_the_wire(n);
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("datatype_suite: %d ranks: ok\n", n);
  MPI_Finalize();
  return 0;
}
