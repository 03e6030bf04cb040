// Group range and set operations, MPI_Comm_split_type (MPI_COMM_TYPE_SHARED) and MPI_Comm_idup,
// with their error cases.
#include <mpi.h>

#include <cstdio>
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

/// MPI_Comm_create_group: only the group's members take part. The even ranks create one while
/// the odd ranks exchange messages among themselves; then both halves create one each at the same
/// time with the same tag, the evens a second one with the same members (its traffic must stay
/// apart from the first's); then a Comm_dup of the world by everyone still agrees on its context.
void test_create_group(int n) {
  MPI_Group world, mine, evens;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int parity[1][3] = {{g_rank % 2, n - 1, 2}}, even[1][3] = {{0, n - 1, 2}};
  MPI_Group_range_incl(world, 1, parity, &mine);
  MPI_Group_range_incl(world, 1, even, &evens);
  int gsize = 0, grank = -1, one = 1, sum = 0;
  MPI_Group_size(mine, &gsize);
  MPI_Group_rank(mine, &grank);
  MPI_Comm first = MPI_COMM_NULL, second = MPI_COMM_NULL;
  if (g_rank % 2 == 0) {
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &first) == MPI_SUCCESS && first != MPI_COMM_NULL);
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, first) == MPI_SUCCESS && sum == gsize);
  } else {
    // Other work meanwhile: a ring among the odd ranks, on MPI_COMM_WORLD.
    const int next = g_rank + 2 < n ? g_rank + 2 : 1, prev = g_rank - 2 >= 1 ? g_rank - 2 : (n - 1) - (n - 1 + 1) % 2;
    int got = -1;
    CHECK(MPI_Sendrecv(&g_rank, 1, MPI_INT, next, 3, &got, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    CHECK(got == prev);
    // A non-member's call takes part in nothing and gets MPI_COMM_NULL.
    MPI_Comm none;
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &none) == MPI_SUCCESS && none == MPI_COMM_NULL);
  }
  CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 5, &second) == MPI_SUCCESS);
  int r = -1;
  CHECK(MPI_Comm_rank(second, &r) == MPI_SUCCESS && r == grank);
  CHECK(MPI_Allreduce(&g_rank, &sum, 1, MPI_INT, MPI_SUM, second) == MPI_SUCCESS);
  int want = 0;
  for (int w = g_rank % 2; w < n; w += 2) want += w;
  CHECK(sum == want);
  if (first != MPI_COMM_NULL && gsize > 1) {
    // Same members, same tag: the second's message must not match the first's receive.
    int v = 0;
    if (grank == 1) {
      int two = 2, onev = 1;
      CHECK(MPI_Send(&two, 1, MPI_INT, 0, 0, second) == MPI_SUCCESS);
      CHECK(MPI_Send(&onev, 1, MPI_INT, 0, 0, first) == MPI_SUCCESS);
    } else if (grank == 0) {
      CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 0, first, MPI_STATUS_IGNORE) == MPI_SUCCESS && v == 1);
      CHECK(MPI_Recv(&v, 1, MPI_INT, 1, 0, second, MPI_STATUS_IGNORE) == MPI_SUCCESS && v == 2);
    }
  }
  // The parent's own constructors still agree on every rank.
  MPI_Comm dup;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
  CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup) == MPI_SUCCESS && sum == n);
  // Errors.
  MPI_Comm bad;
  CHECK(error_class(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &bad)) == MPI_ERR_GROUP);
  CHECK(error_class(MPI_Comm_create_group(MPI_COMM_WORLD, mine, -1, &bad)) == MPI_ERR_TAG);
  CHECK(error_class(MPI_Comm_create_group(MPI_COMM_WORLD, mine, 0, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_create_group(MPI_COMM_NULL, mine, 0, &bad)) == MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (n > 1) CHECK(error_class(MPI_Comm_create_group(MPI_COMM_SELF, world, 0, &bad)) == MPI_ERR_GROUP);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&second);
  if (first != MPI_COMM_NULL) MPI_Comm_free(&first);
  MPI_Group_free(&mine);
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
}

/// Object names: the predefined ones, set / get, cut at MPI_MAX_OBJECT_NAME - 1, not inherited
/// by a duplicate, and the error classes.
void test_names() {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS && std::string(name) == "MPI_COMM_WORLD" && len == 14);
  CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len) == MPI_SUCCESS && std::string(name) == "MPI_COMM_SELF");
  MPI_Comm dup, dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && len == 0 && name[0] == 0);
  CHECK(MPI_Comm_set_name(dup, "solver") == MPI_SUCCESS);
  CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && std::string(name) == "solver" && len == 6);
  MPI_Comm_dup(dup, &dup2);
  CHECK(MPI_Comm_get_name(dup2, name, &len) == MPI_SUCCESS && len == 0);
  const std::string longer(300, 'x');
  CHECK(MPI_Comm_set_name(MPI_COMM_WORLD, longer.c_str()) == MPI_SUCCESS);
  CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS && len == MPI_MAX_OBJECT_NAME - 1 &&
        std::string(name) == longer.substr(0, MPI_MAX_OBJECT_NAME - 1));
  MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  CHECK(error_class(MPI_Comm_set_name(MPI_COMM_NULL, "x")) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Comm_set_name(dup, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_get_name(dup, name, nullptr)) == MPI_ERR_ARG);
  MPI_Comm_free(&dup2);
  MPI_Comm_free(&dup);

  CHECK(MPI_Type_get_name(MPI_INT, name, &len) == MPI_SUCCESS && std::string(name) == "MPI_INT");
  MPI_Datatype pair, copy;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  CHECK(MPI_Type_get_name(pair, name, &len) == MPI_SUCCESS && len == 0);
  CHECK(MPI_Type_set_name(pair, "pair") == MPI_SUCCESS);
  CHECK(MPI_Type_get_name(pair, name, &len) == MPI_SUCCESS && std::string(name) == "pair" && len == 4);
  MPI_Type_dup(pair, &copy);
  CHECK(MPI_Type_get_name(copy, name, &len) == MPI_SUCCESS && len == 0);
  CHECK(MPI_Type_set_name(MPI_FLOAT, "single") == MPI_SUCCESS);
  CHECK(MPI_Type_get_name(MPI_FLOAT, name, &len) == MPI_SUCCESS && std::string(name) == "single");
  MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT");
  CHECK(error_class(MPI_Type_set_name(MPI_DATATYPE_NULL, "x")) == MPI_ERR_TYPE);
  CHECK(error_class(MPI_Type_get_name(pair, nullptr, &len)) == MPI_ERR_ARG);
  MPI_Type_free(&copy);
  MPI_Type_free(&pair);
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

  test_create_group(n);
  test_names();

  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("groups_suite: %d ranks: ok\n", n);
  MPI_Finalize();
  return 0;
}
