// Group range and set operations, MPI_Comm_split_type (MPI_COMM_TYPE_SHARED) and MPI_Comm_idup,
// with their error cases.
#include <mpi.h>

#include <cstdio>
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

/// The world ranks of a group's members, in order.
std::vector<int> members(MPI_Group g) {
  int n = 0;
  MPI_Group_size(g, &n);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = i;
  if (n) MPI_Group_translate_ranks(g, n, in.data(), world, out.data());
  MPI_Group_free(&world);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Group world, a, b, u, x, d;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  // Ranges: even ranks ascending; the same excluded; a descending range.
  int evens[1][3] = {{0, n - 1, 2}};
  CHECK(MPI_Group_range_incl(world, 1, evens, &a) == MPI_SUCCESS);
  CHECK(MPI_Group_range_excl(world, 1, evens, &b) == MPI_SUCCESS);
  std::vector<int> want_a, want_b;
  for (int r = 0; r < n; ++r) (r % 2 ? want_b : want_a).push_back(r);
  CHECK(members(a) == want_a && members(b) == want_b);
  int down[1][3] = {{n - 1, 0, -1}};
  MPI_Group rev;
  CHECK(MPI_Group_range_incl(world, 1, down, &rev) == MPI_SUCCESS);
  std::vector<int> want_rev;
  for (int r = n - 1; r >= 0; --r) want_rev.push_back(r);
  CHECK(members(rev) == want_rev);
  // Set operations keep the first group's order.
  CHECK(MPI_Group_union(b, a, &u) == MPI_SUCCESS);
  std::vector<int> want_u = want_b;
  want_u.insert(want_u.end(), want_a.begin(), want_a.end());
  CHECK(members(u) == want_u);
  CHECK(MPI_Group_intersection(rev, a, &x) == MPI_SUCCESS);
  std::vector<int> want_x;
  for (int r : want_rev)
    if (r % 2 == 0) want_x.push_back(r);
  CHECK(members(x) == want_x);
  CHECK(MPI_Group_difference(world, a, &d) == MPI_SUCCESS && members(d) == want_b);
  int cmp = 0;
  CHECK(MPI_Group_compare(d, b, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT);
  // Errors.
  MPI_Group bad;
  int zero[1][3] = {{0, n - 1, 0}}, outside[1][3] = {{0, n, 1}}, twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
  CHECK(error_class(MPI_Group_range_incl(world, 1, zero, &bad)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Group_range_incl(world, 1, outside, &bad)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Group_range_excl(world, 2, twice, &bad)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Group_union(MPI_GROUP_NULL, a, &bad)) == MPI_ERR_GROUP);
  CHECK(error_class(MPI_Group_difference(a, b, nullptr)) == MPI_ERR_ARG);
  for (MPI_Group* g : {&a, &b, &rev, &u, &x, &d}) MPI_Group_free(g);
  MPI_Group_free(&world);

  // Comm_split_type: every rank shares the node; keys reverse the order; MPI_UNDEFINED opts out.
  MPI_Comm shared;
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, n - g_rank, MPI_INFO_NULL, &shared) == MPI_SUCCESS);
  int sr = -1, ss = 0;
  MPI_Comm_rank(shared, &sr);
  MPI_Comm_size(shared, &ss);
  CHECK(ss == n && sr == n - 1 - g_rank);
  int sum = 0, one = 1;
  CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, shared) == MPI_SUCCESS && sum == n);
  MPI_Comm_free(&shared);
  MPI_Comm none;
  const int type = g_rank == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED;
  CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, MPI_INFO_NULL, &none) == MPI_SUCCESS);
  CHECK((g_rank == 0) == (none == MPI_COMM_NULL));
  if (none != MPI_COMM_NULL) MPI_Comm_free(&none);
  CHECK(error_class(MPI_Comm_split_type(MPI_COMM_WORLD, 77, 0, MPI_INFO_NULL, &none)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &none)) == MPI_ERR_COMM);

  // Comm_idup: a duplicate and a request that completes.
  MPI_Comm dup;
  MPI_Request req;
  CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req) == MPI_SUCCESS);
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
  int result = 0;
  CHECK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result) == MPI_SUCCESS && result == MPI_CONGRUENT);
  CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup) == MPI_SUCCESS && sum == n);
  MPI_Comm_free(&dup);
  CHECK(error_class(MPI_Comm_idup(MPI_COMM_WORLD, &dup, nullptr)) == MPI_ERR_ARG);

  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("groups_suite: %d ranks: ok\n", n);
  MPI_Finalize();
  return 0;
}
