// Allgather and allgatherv: linear, ring, recursive doubling, Bruck.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

int allgatherv_linear(void* rbuf, const std::size_t* counts, const std::size_t* displs, Comm& c, int) {
  const int n = c.size, me = c.rank;
  std::vector<MPI_Request> reqs;
  for (int k = 1; k < n; ++k) {
    const int from = (me - k + n) % n;
    reqs.emplace_back();
    if (int rc = irecv_bytes(at(rbuf, displs[from]), counts[from], from, kTagAllgather, c, &reqs.back())) return rc;
  }
  for (int k = 1; k < n; ++k) {
    reqs.emplace_back();
    if (int rc = isend_bytes(at(rbuf, displs[me]), counts[me], (me + k) % n, kTagAllgather, c, &reqs.back())) return rc;
  }
  return waitall(reqs);
}

int allgatherv_ring(void* rbuf, const std::size_t* counts, const std::size_t* displs, Comm& c, int) {
  const int n = c.size, me = c.rank, right = (me + 1) % n, left = (me - 1 + n) % n;
  for (int s = 0; s < n - 1; ++s) {
    const int sb = (me - s + n) % n, rb = (me - s - 1 + n) % n;
    if (int rc = sendrecv_bytes(at(rbuf, displs[sb]), counts[sb], right, at(rbuf, displs[rb]), counts[rb], left, kTagAllgather, c))
      return rc;
  }
  return MPI_SUCCESS;
}

namespace {
struct Uniform {
  std::vector<std::size_t> counts, displs;
  Uniform(int n, std::size_t block) : counts(uz(n), block), displs(uz(n)) {
    for (int i = 0; i < n; ++i) displs[uz(i)] = uz(i) * block;
  }
};
}  // namespace

int allgather_linear(void* rbuf, std::size_t block, Comm& c, int) {
  Uniform u(c.size, block);
  return allgatherv_linear(rbuf, u.counts.data(), u.displs.data(), c, 0);
}

int allgather_ring(void* rbuf, std::size_t block, Comm& c, int) {
  Uniform u(c.size, block);
  return allgatherv_ring(rbuf, u.counts.data(), u.displs.data(), c, 0);
}

int allgather_bruck(void* rbuf, std::size_t block, Comm& c, int) {
  const int n = c.size, me = c.rank;
  // tmp slot i ends up with the block of rank me + i.
  Bytes tmp(uz(n) * block);
  std::memcpy(tmp.data(), at(rbuf, uz(me) * block), block);
  for (int d = 1; d < n; d <<= 1) {
    const int cnt = std::min(d, n - d);
    if (int rc = sendrecv_bytes(tmp.data(), uz(cnt) * block, (me - d + n) % n, tmp.data() + uz(d) * block, uz(cnt) * block,
                                (me + d) % n, kTagAllgather, c))
      return rc;
  }
  for (int i = 0; i < n; ++i) std::memcpy(at(rbuf, uz((me + i) % n) * block), tmp.data() + uz(i) * block, block);
  return MPI_SUCCESS;
}

int allgather_recursive_doubling(void* rbuf, std::size_t block, Comm& c, int) {
  const int n = c.size, me = c.rank;
  for (int mask = 1; mask < n; mask <<= 1) {
    const int partner = me ^ mask;
    const int mine = me & ~(mask - 1), theirs = partner & ~(mask - 1);
    if (int rc = sendrecv_bytes(at(rbuf, uz(mine) * block), uz(mask) * block, partner, at(rbuf, uz(theirs) * block),
                                uz(mask) * block, partner, kTagAllgather, c))
      return rc;
  }
  return MPI_SUCCESS;
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm allgather_linear{
    .kind = Collective::Allgather, .name = "linear", .family = Family::Classic, .fn = any(&coll::allgather_linear),
    .help = "every rank sends its block to every other"};
extern const Algorithm allgather_ring{
    .kind = Collective::Allgather, .name = "ring", .family = Family::Classic, .fn = any(&coll::allgather_ring),
    .help = "N-1 steps passing blocks to the right neighbour",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::ring(count_of(m), count_of(m) - 1); }};
extern const Algorithm allgather_recursive_doubling{
    .kind = Collective::Allgather, .name = "recursive_doubling", .family = Family::Classic,
    .fn = any(&coll::allgather_recursive_doubling), .help = "log2 N exchanges of doubling size",
    .restrictions = {.power_of_two = true}, .fallback = "bruck",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::recursive_doubling(count_of(m)); }};
extern const Algorithm allgather_bruck{
    .kind = Collective::Allgather, .name = "bruck", .family = Family::Classic, .fn = any(&coll::allgather_bruck),
    .help = "ceil(log2 N) steps, any N (Bruck et al.)", .default_on = DefaultOn::Always,
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::bruck(count_of(m)); }};
extern const Algorithm allgatherv_linear{
    .kind = Collective::Allgatherv, .name = "linear", .family = Family::Classic, .fn = any(&coll::allgatherv_linear),
    .help = "every rank sends its block to every other"};
extern const Algorithm allgatherv_ring{
    .kind = Collective::Allgatherv, .name = "ring", .family = Family::Classic, .fn = any(&coll::allgatherv_ring),
    .help = "N-1 steps passing blocks to the right neighbour", .default_on = DefaultOn::Always};

}  // namespace entry

}  // namespace tilempi::mpi::coll
