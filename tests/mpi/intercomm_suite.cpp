// Intercommunicators: creation from two halves of MPI_COMM_WORLD (even and odd ranks, so the
// groups differ in size on an odd rank count), point-to-point to the remote group, every
// collective with the intercommunicator semantics (data of one group arrives in the other; roots
// named by MPI_ROOT / MPI_PROC_NULL / the remote rank), merge, dup, split, create, and the error
// classes of the calls that need an intracommunicator or an intercommunicator. Needs 2+ ranks.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <vector>

#include "check.h"

namespace {

int error_class(int rc) {
  int c = 0;
  MPI_Error_class(rc, &c);
  return c;
}

/// World rank of each member of a group.
std::vector<int> members(MPI_Group g) {
  int n = 0;
  MPI_Group_size(g, &n);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  std::iota(in.begin(), in.end(), 0);
  if (n) MPI_Group_translate_ranks(g, n, in.data(), world, out.data());
  MPI_Group_free(&world);
  return out;
}

struct Sides {
  int color = 0;            // 0: even world ranks (group A), 1: odd (group B)
  int rank = 0, size = 0;   // in the local group
  std::vector<int> local;   // world ranks of the local group
  std::vector<int> remote;  // world ranks of the remote group
  int rsize() const { return static_cast<int>(remote.size()); }
};

/// Point-to-point: local rank r sends to remote rank r % rsize; each process receives from every
/// remote rank q with q % size == rank, by MPI_ANY_SOURCE; the status names q in the remote group.
void test_p2p(MPI_Comm ic, const Sides& s, int world_rank) {
  const int dest = s.rank % s.rsize();
  MPI_Request req;
  CHECK(MPI_Isend(&world_rank, 1, MPI_INT, dest, 5, ic, &req) == MPI_SUCCESS);
  std::vector<int> seen(static_cast<std::size_t>(s.rsize()), 0);
  int expect = 0;
  for (int q = 0; q < s.rsize(); ++q) expect += q % s.size == s.rank;
  for (int i = 0; i < expect; ++i) {
    int v = -1;
    MPI_Status st;
    CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &st) == MPI_SUCCESS);
    CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < s.rsize() && st.MPI_SOURCE % s.size == s.rank);
    CHECK(v == s.remote[static_cast<std::size_t>(st.MPI_SOURCE)]);
    CHECK(!seen[static_cast<std::size_t>(st.MPI_SOURCE)]++);
  }
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  // Sendrecv with the remote process of the same rank (when it exists on both sides).
  if (s.rank < s.rsize()) {
    int got = -1;
    CHECK(MPI_Sendrecv(&world_rank, 1, MPI_INT, s.rank, 6, &got, 1, MPI_INT, s.rank, 6, ic, MPI_STATUS_IGNORE) ==
          MPI_SUCCESS);
    CHECK(got == s.remote[static_cast<std::size_t>(s.rank)]);
  }
}

void test_collectives(MPI_Comm ic, const Sides& s, int world_rank) {
  CHECK(MPI_Barrier(ic) == MPI_SUCCESS);
  const long remote_sum = std::accumulate(s.remote.begin(), s.remote.end(), 0L);
  // Bcast from group A's rank 0 to group B, then from B's last rank to A.
  for (int from = 0; from < 2; ++from) {
    const int root_local = from == 0 ? 0 : (s.color == 1 ? s.size - 1 : s.rsize() - 1);
    int buf[4] = {0, 0, 0, 0};
    int root;
    if (s.color == from) {
      root = s.rank == root_local ? MPI_ROOT : MPI_PROC_NULL;
      if (root == MPI_ROOT)
        for (int i = 0; i < 4; ++i) buf[i] = 100 * world_rank + i;
    } else {
      root = root_local;
    }
    CHECK(MPI_Bcast(buf, 4, MPI_INT, root, ic) == MPI_SUCCESS);
    const int root_world = s.color == from ? s.local[static_cast<std::size_t>(root_local)] : s.remote[static_cast<std::size_t>(root_local)];
    for (int i = 0; i < 4; ++i) CHECK(buf[i] == (root == MPI_PROC_NULL ? 0 : 100 * root_world + i));
  }
  // Allreduce: each group gets the sum of the other group's values.
  long mine[2] = {world_rank, 1}, got[2] = {0, 0};
  CHECK(MPI_Allreduce(mine, got, 2, MPI_LONG, MPI_SUM, ic) == MPI_SUCCESS);
  CHECK(got[0] == remote_sum && got[1] == s.rsize());
  // Reduce to group B's rank 0.
  {
    long r = -1;
    const int root = s.color == 1 ? (s.rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK(MPI_Reduce(mine, &r, 1, MPI_LONG, MPI_MAX, root, ic) == MPI_SUCCESS);
    if (root == MPI_ROOT) CHECK(r == s.remote.back());
  }
  // Allgather: the remote group's world ranks, in its rank order.
  std::vector<int> all(static_cast<std::size_t>(s.rsize()), -1);
  CHECK(MPI_Allgather(&world_rank, 1, MPI_INT, all.data(), 1, MPI_INT, ic) == MPI_SUCCESS);
  CHECK(all == s.remote);
  // Allgatherv into reversed slots.
  {
    std::vector<int> counts(static_cast<std::size_t>(s.rsize()), 1), displs(static_cast<std::size_t>(s.rsize()));
    for (int i = 0; i < s.rsize(); ++i) displs[static_cast<std::size_t>(i)] = s.rsize() - 1 - i;
    std::vector<int> v(static_cast<std::size_t>(s.rsize()), -1);
    CHECK(MPI_Allgatherv(&world_rank, 1, MPI_INT, v.data(), counts.data(), displs.data(), MPI_INT, ic) == MPI_SUCCESS);
    for (int i = 0; i < s.rsize(); ++i) CHECK(v[static_cast<std::size_t>(s.rsize() - 1 - i)] == s.remote[static_cast<std::size_t>(i)]);
  }
  // Gather to and scatter from group A's rank 0.
  {
    const int root = s.color == 0 ? (s.rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    std::vector<int> g(static_cast<std::size_t>(s.rsize()), -1);
    CHECK(MPI_Gather(&world_rank, 1, MPI_INT, g.data(), 1, MPI_INT, root, ic) == MPI_SUCCESS);
    if (root == MPI_ROOT) CHECK(g == s.remote);
    std::vector<int> out(static_cast<std::size_t>(s.rsize()));
    for (int i = 0; i < s.rsize(); ++i) out[static_cast<std::size_t>(i)] = 7 * i + 1;
    int one = -1;
    CHECK(MPI_Scatter(out.data(), 1, MPI_INT, &one, 1, MPI_INT, root, ic) == MPI_SUCCESS);
    if (s.color == 1) CHECK(one == 7 * s.rank + 1);
    // The v forms: remote rank i gets / sends i + 1 ints.
    std::vector<int> counts(static_cast<std::size_t>(s.rsize())), displs(static_cast<std::size_t>(s.rsize()));
    int total = 0;
    for (int i = 0; i < s.rsize(); ++i) {
      counts[static_cast<std::size_t>(i)] = i + 1;
      displs[static_cast<std::size_t>(i)] = total;
      total += i + 1;
    }
    std::vector<int> big(static_cast<std::size_t>(total), -1), mine_v(static_cast<std::size_t>(s.rank + 1), world_rank);
    CHECK(MPI_Gatherv(mine_v.data(), s.rank + 1, MPI_INT, big.data(), counts.data(), displs.data(), MPI_INT, root, ic) ==
          MPI_SUCCESS);
    if (root == MPI_ROOT)
      for (int i = 0; i < s.rsize(); ++i)
        for (int k = 0; k <= i; ++k) CHECK(big[static_cast<std::size_t>(displs[static_cast<std::size_t>(i)] + k)] == s.remote[static_cast<std::size_t>(i)]);
    std::vector<int> back(static_cast<std::size_t>(s.rank + 1), -1);
    for (int i = 0; i < total; ++i) big[static_cast<std::size_t>(i)] = i;
    CHECK(MPI_Scatterv(big.data(), counts.data(), displs.data(), MPI_INT, back.data(), s.rank + 1, MPI_INT, root, ic) ==
          MPI_SUCCESS);
    if (s.color == 1)
      for (int k = 0; k <= s.rank; ++k) CHECK(back[static_cast<std::size_t>(k)] == s.rank * (s.rank + 1) / 2 + k);
  }
  // Alltoall: to remote j goes 1000 * me + j; from remote j comes 1000 * world(j) + my rank.
  {
    std::vector<int> out(static_cast<std::size_t>(s.rsize())), in(static_cast<std::size_t>(s.rsize()), -1);
    for (int j = 0; j < s.rsize(); ++j) out[static_cast<std::size_t>(j)] = 1000 * world_rank + j;
    CHECK(MPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, ic) == MPI_SUCCESS);
    for (int j = 0; j < s.rsize(); ++j) CHECK(in[static_cast<std::size_t>(j)] == 1000 * s.remote[static_cast<std::size_t>(j)] + s.rank);
    std::vector<int> ones(static_cast<std::size_t>(s.rsize()), 1), displs(static_cast<std::size_t>(s.rsize()));
    std::iota(displs.begin(), displs.end(), 0);
    std::fill(in.begin(), in.end(), -1);
    CHECK(MPI_Alltoallv(out.data(), ones.data(), displs.data(), MPI_INT, in.data(), ones.data(), displs.data(), MPI_INT,
                        ic) == MPI_SUCCESS);
    for (int j = 0; j < s.rsize(); ++j) CHECK(in[static_cast<std::size_t>(j)] == 1000 * s.remote[static_cast<std::size_t>(j)] + s.rank);
  }
  // Reduce_scatter: every local rank gets rsize elements, so both groups reduce size * rsize.
  {
    const int total = s.size * s.rsize();
    std::vector<int> counts(static_cast<std::size_t>(s.size), s.rsize());
    std::vector<long> in(static_cast<std::size_t>(total)), out(static_cast<std::size_t>(s.rsize()), -1);
    for (int k = 0; k < total; ++k) in[static_cast<std::size_t>(k)] = world_rank + k;
    CHECK(MPI_Reduce_scatter(in.data(), out.data(), counts.data(), MPI_LONG, MPI_SUM, ic) == MPI_SUCCESS);
    for (int k = 0; k < s.rsize(); ++k)
      CHECK(out[static_cast<std::size_t>(k)] == remote_sum + static_cast<long>(s.rsize()) * (s.rank * s.rsize() + k));
  }
  // Non-blocking forms run the same code: an Ibcast beside an Iallreduce.
  {
    int v = s.color == 0 && s.rank == 0 ? 42 : 0;
    const int root = s.color == 0 ? (s.rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    long sum = 0;
    MPI_Request r[2];
    CHECK(MPI_Ibcast(&v, 1, MPI_INT, root, ic, &r[0]) == MPI_SUCCESS);
    CHECK(MPI_Iallreduce(mine, &sum, 1, MPI_LONG, MPI_SUM, ic, &r[1]) == MPI_SUCCESS);
    CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    if (s.color == 1) CHECK(v == 42);
    CHECK(sum == remote_sum);
  }
}

void test_errors(MPI_Comm ic, const Sides& s, MPI_Comm local) {
  int v = 0, flag = 0;
  MPI_Comm bad = MPI_COMM_NULL;
  MPI_Group g;
  // Intercommunicator-only calls on an intracommunicator.
  CHECK(error_class(MPI_Comm_remote_size(MPI_COMM_WORLD, &v)) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Comm_remote_group(MPI_COMM_WORLD, &g)) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &bad)) == MPI_ERR_COMM);
  // Intracommunicator-only calls on an intercommunicator.
  CHECK(error_class(MPI_Scan(&v, &flag, 1, MPI_INT, MPI_SUM, ic)) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Exscan(&v, &flag, 1, MPI_INT, MPI_SUM, ic)) == MPI_ERR_COMM);
  int dims[1] = {s.size}, periods[1] = {0};
  CHECK(error_class(MPI_Cart_create(ic, 1, dims, periods, 0, &bad)) == MPI_ERR_COMM);
  CHECK(error_class(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 1, &bad)) == MPI_ERR_COMM);
  // Bad arguments.
  CHECK(error_class(MPI_Comm_remote_size(ic, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Send(&v, 1, MPI_INT, s.rsize(), 0, ic)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Recv(&v, 1, MPI_INT, -7, 0, ic, MPI_STATUS_IGNORE)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Bcast(&v, 1, MPI_INT, s.rsize(), ic)) == MPI_ERR_ROOT);
  CHECK(error_class(MPI_Reduce(&v, &flag, 1, MPI_INT, MPI_SUM, -9, ic)) == MPI_ERR_ROOT);
  CHECK(error_class(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, ic)) == MPI_ERR_BUFFER);
  CHECK(error_class(MPI_Allgather(&v, -1, MPI_INT, &flag, 1, MPI_INT, ic)) == MPI_ERR_COUNT);
  CHECK(error_class(MPI_Intercomm_create(local, s.size, MPI_COMM_WORLD, 0, 1, &bad)) == MPI_ERR_RANK);
  CHECK(error_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 0, 1, nullptr)) == MPI_ERR_ARG);
  // A bad remote leader is the leader's to see; the whole local group gets its error class.
  CHECK(error_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 << 20, 1, &bad)) == MPI_ERR_RANK);
  CHECK(bad == MPI_COMM_NULL);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n < 2) {
    if (world_rank == 0) std::fprintf(stderr, "intercomm_suite needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  Sides s;
  s.color = world_rank % 2;
  MPI_Comm local;
  CHECK(MPI_Comm_split(MPI_COMM_WORLD, s.color, world_rank, &local) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
  MPI_Comm_rank(local, &s.rank);
  MPI_Comm_size(local, &s.size);
  for (int r = 0; r < n; ++r) (r % 2 == s.color ? s.local : s.remote).push_back(r);

  // Create: the leaders are local rank 0 of each half (world ranks 0 and 1).
  MPI_Comm ic;
  CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, s.color == 0 ? 1 : 0, 77, &ic) == MPI_SUCCESS);
  int flag = 0, v = 0;
  CHECK(MPI_Comm_test_inter(ic, &flag) == MPI_SUCCESS && flag == 1);
  CHECK(MPI_Comm_test_inter(local, &flag) == MPI_SUCCESS && flag == 0);
  CHECK(MPI_Comm_size(ic, &v) == MPI_SUCCESS && v == s.size);
  CHECK(MPI_Comm_rank(ic, &v) == MPI_SUCCESS && v == s.rank);
  CHECK(MPI_Comm_remote_size(ic, &v) == MPI_SUCCESS && v == s.rsize());
  MPI_Group rg, lg;
  CHECK(MPI_Comm_remote_group(ic, &rg) == MPI_SUCCESS && members(rg) == s.remote);
  CHECK(MPI_Comm_group(ic, &lg) == MPI_SUCCESS && members(lg) == s.local);
  MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);

  test_p2p(ic, s, world_rank);
  test_collectives(ic, s, world_rank);
  test_errors(ic, s, local);

  // Dup: congruent, and its traffic is its own.
  MPI_Comm dup;
  CHECK(MPI_Comm_dup(ic, &dup) == MPI_SUCCESS);
  int cmp = -1;
  CHECK(MPI_Comm_compare(ic, dup, &cmp) == MPI_SUCCESS && cmp == MPI_CONGRUENT);
  CHECK(MPI_Comm_compare(ic, local, &cmp) == MPI_SUCCESS && cmp == MPI_UNEQUAL);
  CHECK(MPI_Comm_test_inter(dup, &flag) == MPI_SUCCESS && flag == 1);
  test_p2p(dup, s, world_rank);
  test_collectives(dup, s, world_rank);

  // Merge: group B says high, so group A's members come first.
  MPI_Comm merged;
  CHECK(MPI_Intercomm_merge(ic, s.color == 1, &merged) == MPI_SUCCESS);
  CHECK(MPI_Comm_test_inter(merged, &flag) == MPI_SUCCESS && flag == 0);
  MPI_Group mg;
  MPI_Comm_group(merged, &mg);
  std::vector<int> want;
  for (int r = 0; r < n; r += 2) want.push_back(r);
  for (int r = 1; r < n; r += 2) want.push_back(r);
  CHECK(members(mg) == want);
  long one = 1, count = 0;
  CHECK(MPI_Allreduce(&one, &count, 1, MPI_LONG, MPI_SUM, merged) == MPI_SUCCESS && count == n);
  // Both low: the group of the lower leader (A) first as well.
  MPI_Comm merged2;
  CHECK(MPI_Intercomm_merge(ic, 0, &merged2) == MPI_SUCCESS);
  MPI_Group mg2;
  MPI_Comm_group(merged2, &mg2);
  CHECK(members(mg2) == want);

  // Split: by local rank parity; a color the other side lacks gives MPI_COMM_NULL.
  MPI_Comm part;
  CHECK(MPI_Comm_split(ic, s.rank % 2, s.rank, &part) == MPI_SUCCESS);
  const int my_color_local = (s.size + 1 - s.rank % 2) / 2;
  const int my_color_remote = (s.rsize() + 1 - s.rank % 2) / 2;
  if (my_color_remote == 0) {
    CHECK(part == MPI_COMM_NULL);
  } else {
    CHECK(part != MPI_COMM_NULL);
    CHECK(MPI_Comm_size(part, &v) == MPI_SUCCESS && v == my_color_local);
    CHECK(MPI_Comm_remote_size(part, &v) == MPI_SUCCESS && v == my_color_remote);
    long sum = 0;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, part) == MPI_SUCCESS && sum == my_color_remote);
    MPI_Comm_free(&part);
  }
  // Create: each group's rank 0 alone.
  MPI_Group first;
  int zero = 0;
  MPI_Group_incl(lg, 1, &zero, &first);
  MPI_Comm pair;
  CHECK(MPI_Comm_create(ic, first, &pair) == MPI_SUCCESS);
  if (s.rank == 0) {
    CHECK(pair != MPI_COMM_NULL);
    CHECK(MPI_Comm_remote_size(pair, &v) == MPI_SUCCESS && v == 1);
    int got = -1;
    CHECK(MPI_Sendrecv(&world_rank, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, pair, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(got == s.remote[0]);
    MPI_Comm_free(&pair);
  } else {
    CHECK(pair == MPI_COMM_NULL);
  }

  MPI_Group_free(&first);
  MPI_Group_free(&mg);
  MPI_Group_free(&mg2);
  MPI_Group_free(&rg);
  MPI_Group_free(&lg);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&merged2);
  MPI_Comm_free(&dup);
  CHECK(MPI_Comm_free(&ic) == MPI_SUCCESS && ic == MPI_COMM_NULL);
  MPI_Comm_free(&local);
  MPI_Finalize();
  if (world_rank == 0) std::printf("intercomm_suite: all checks passed on %d ranks\n", n);
  return 0;
}
