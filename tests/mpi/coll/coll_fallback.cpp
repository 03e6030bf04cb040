// Restrictions and the fallback policy (TILEMPI_COLL_FALLBACK), run through tilempirun:
//
//   coll_fallback noncommutative   allreduce=ring (set by the test) with a non-commutative user op
//                                  on MPI_COMM_WORLD (twice) and on a duplicate of it (once), then
//                                  with MPI_SUM
//   coll_fallback rounds           alltoall on MPI_COMM_WORLD (more than mesh_rounds' 256 ranks)
//
// What each call must do follows from the policy in the environment: error: the restricted call
// returns the restriction's error class (MPI_ERRORS_RETURN) and TILEMPIX_Coll_selected still names
// the requested algorithm's last run, if any; warn and silent: the fallback runs, the result is
// right and TILEMPIX_Coll_selected names the fallback. The number of warning lines is counted by
// check_fallback.sh. Prints "coll_fallback: ok" at rank 0 when every check passed.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int g_rank = 0, g_failures = 0;

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "coll_fallback: rank %d: %s:%d: %s\n", g_rank, __FILE__, __LINE__, #cond); \
      ++g_failures;                                                                      \
    }                                                                                    \
  } while (0)

std::string selected(MPI_Comm comm, const char* coll) {
  char name[64] = "";
  if (TILEMPIX_Coll_selected(comm, coll, name, sizeof name) != MPI_SUCCESS) return "(error)";
  return name;
}

int error_class(int rc) {
  int cls = rc;
  MPI_Error_class(rc, &cls);
  return cls;
}

/// An affine map x -> a x + b as (a, b); composing f then g is not commutative.
struct Affine {
  long long a, b;
};
void compose(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Affine*>(in);
  auto* y = static_cast<Affine*>(inout);
  for (int i = 0; i < *len; ++i) {
    // y := y o x (apply x first, then y): rank order, lower rank's map first.
    y[i] = Affine{y[i].a * x[i].a, y[i].a * x[i].b + y[i].b};
  }
}

/// Rank r's map: x -> 2x + r (small numbers, so the product of maps stays exact).
Affine map_of(int r) { return Affine{2, r}; }

Affine expected_composition(int n) {
  Affine acc = map_of(0);
  for (int r = 1; r < n; ++r) {
    Affine m = map_of(r);
    acc = Affine{m.a * acc.a, m.a * acc.b + m.b};
  }
  return acc;
}

void noncommutative(const std::string& policy) {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Datatype affine_t;
  MPI_Type_contiguous(2, MPI_LONG_LONG, &affine_t);
  MPI_Type_commit(&affine_t);
  MPI_Op op;
  MPI_Op_create(compose, 0, &op);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  // count >= ranks: only the op breaks ring's restrictions.
  const int count = n;
  const Affine want = expected_composition(n);
  for (MPI_Comm comm : {MPI_COMM_WORLD, MPI_COMM_WORLD, dup}) {
    std::vector<Affine> in(static_cast<std::size_t>(count), map_of(g_rank)), out(in.size(), Affine{0, 0});
    const int rc = MPI_Allreduce(in.data(), out.data(), count, affine_t, op, comm);
    if (policy == "error") {
      CHECK(error_class(rc) == MPI_ERR_OP);
      CHECK(selected(comm, "allreduce") == "ring");  // nothing ran yet: what a call would run
    } else {
      CHECK(rc == MPI_SUCCESS);
      for (const Affine& v : out) CHECK(v.a == want.a && v.b == want.b);
      CHECK(selected(comm, "allreduce") == "recursive_doubling");
    }
  }
  // A commutative op: ring itself runs, and is what is reported.
  std::vector<long long> in(static_cast<std::size_t>(count), g_rank + 1), out(in.size(), 0);
  CHECK(MPI_Allreduce(in.data(), out.data(), count, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
  for (long long v : out) CHECK(v == static_cast<long long>(n) * (n + 1) / 2);
  CHECK(selected(MPI_COMM_WORLD, "allreduce") == "ring");
  MPI_Comm_free(&dup);
  MPI_Op_free(&op);
  MPI_Type_free(&affine_t);
}

void rounds(const std::string& policy, bool user_choice) {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int block = 4;
  std::vector<int> s(static_cast<std::size_t>(n * block)), r(s.size(), -1);
  for (int d = 0; d < n; ++d)
    for (int i = 0; i < block; ++i) s[static_cast<std::size_t>(d * block + i)] = g_rank * 100000 + d * 10 + i;
  const int rc = MPI_Alltoall(s.data(), block, MPI_INT, r.data(), block, MPI_INT, MPI_COMM_WORLD);
  if (user_choice && policy == "error") {
    CHECK(error_class(rc) == MPI_ERR_COMM);
    return;
  }
  CHECK(rc == MPI_SUCCESS);
  for (int f = 0; f < n; ++f)
    for (int i = 0; i < block; ++i) CHECK(r[static_cast<std::size_t>(f * block + i)] == f * 100000 + g_rank * 10 + i);
  // The default selector's mesh_rounds and a user's choice of it both run pairwise here.
  CHECK(selected(MPI_COMM_WORLD, "alltoall") == "pairwise");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const std::string what = argc > 1 ? argv[1] : "noncommutative";
  const char* p = std::getenv("TILEMPI_COLL_FALLBACK");
  const std::string policy = p && *p ? p : "warn";
  const char* spec = std::getenv("TILEMPI_COLL");
  const bool user_choice = spec && std::strstr(spec, "alltoall=") != nullptr;
  if (what == "noncommutative") noncommutative(policy);
  else if (what == "rounds") rounds(policy, user_choice);
  else {
    if (g_rank == 0) std::fprintf(stderr, "coll_fallback: unknown test '%s'\n", what.c_str());
    ++g_failures;
  }
  // Reduce + bcast: under the policy "error" the allreduce selected by the test refuses one element.
  int failures = 0;
  MPI_Reduce(&g_failures, &failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (g_rank == 0 && failures == 0) std::printf("coll_fallback: ok\n");
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
