// Reduce_scatter and reduce_scatter_block: nonoverlapping (reduce to rank 0, then scatterv) and
// ring. The block variant is the same algorithms with equal counts.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

Bytes copy_of(const void* p, std::size_t bytes) {
  Bytes b(bytes);
  if (bytes) std::memcpy(b.data(), p, bytes);
  return b;
}

}  // namespace

int reduce_scatter_nonoverlapping(const void* sbuf, void* rbuf, const std::size_t* counts, const Reducer& red, Comm& c, int) {
  const int size = c.size;
  const std::size_t es = red.elem_size();
  std::size_t total = 0;
  std::vector<std::size_t> bcounts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    displs[static_cast<std::size_t>(i)] = total * es;
    bcounts[static_cast<std::size_t>(i)] = counts[i] * es;
    total += counts[i];
  }
  Bytes all(c.rank == 0 ? total * es : 0);
  if (int rc = reduce_binomial(sbuf, all.data(), total, red, 0, c, 0)) return stage_failed(c, rc);
  return scatterv_linear(all.data(), bcounts.data(), displs.data(), rbuf, counts[c.rank] * es, 0, c, 0);
}

int reduce_scatter_ring(const void* sbuf, void* rbuf, const std::size_t* counts, const Reducer& red, Comm& c, int) {
  const int size = c.size, r = c.rank;
  const std::size_t es = red.elem_size();
  std::vector<std::size_t> off(static_cast<std::size_t>(size) + 1, 0);
  std::size_t maxc = 0;
  for (int i = 0; i < size; ++i) {
    off[static_cast<std::size_t>(i) + 1] = off[static_cast<std::size_t>(i)] + counts[i];
    maxc = std::max(maxc, counts[i]);
  }
  Bytes work = copy_of(sbuf, off.back() * es), tmp(maxc * es);
  const int right = (r + 1) % size, left = (r - 1 + size) % size;
  auto idx = [&](int k) { return static_cast<std::size_t>(((k % size) + size) % size); };
  // Step s sends chunk r-s-1 and combines chunk r-s-2: after size-1 steps chunk r is complete here.
  for (int s = 0; s < size - 1; ++s) {
    const std::size_t sc = idx(r - s - 1), rcv = idx(r - s - 2);
    if (int rc = sendrecv_bytes(work.data() + off[sc] * es, counts[sc] * es, right, tmp.data(), counts[rcv] * es, left,
                                kTagReduceScatter, c))
      return rc;
    red.apply(tmp.data(), work.data() + off[rcv] * es, counts[rcv]);
  }
  std::memcpy(rbuf, work.data() + off[static_cast<std::size_t>(r)] * es, counts[r] * es);
  return MPI_SUCCESS;
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm reduce_scatter_nonoverlapping{
    .kind = Collective::ReduceScatter, .name = "nonoverlapping", .family = Family::Classic,
    .fn = any(&coll::reduce_scatter_nonoverlapping), .help = "reduce to rank 0, then scatterv",
    .default_on = DefaultOn::Always};
extern const Algorithm reduce_scatter_ring{
    .kind = Collective::ReduceScatter, .name = "ring", .family = Family::Classic, .fn = any(&coll::reduce_scatter_ring),
    .help = "N-1 ring steps each combining one block", .restrictions = {.commutative = true},
    .fallback = "nonoverlapping"};
extern const Algorithm reduce_scatter_block_nonoverlapping{
    .kind = Collective::ReduceScatterBlock, .name = "nonoverlapping", .family = Family::Classic,
    .fn = any(&coll::reduce_scatter_nonoverlapping), .help = "reduce to rank 0, then scatterv",
    .default_on = DefaultOn::Always};
extern const Algorithm reduce_scatter_block_ring{
    .kind = Collective::ReduceScatterBlock, .name = "ring", .family = Family::Classic, .fn = any(&coll::reduce_scatter_ring),
    .help = "N-1 ring steps each combining one block", .restrictions = {.commutative = true},
    .fallback = "nonoverlapping"};

}  // namespace entry

}  // namespace tilempi::mpi::coll
