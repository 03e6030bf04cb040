// Scatter and scatterv: linear, binomial tree.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {
/// A non-root's block: a size other than the root's block fails the call here (SizedCall, coll.h).
int recv_block(void* rbuf, std::size_t block, int root, Comm& c) {
  SizedCall call(c);
  if (int rc = call.recv(rbuf, block, root, kTagScatter)) return rc;
  return call.result();
}
}  // namespace

int scatter_linear(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  if (c.rank != root) return recv_block(rbuf, block, root, c);
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = isend_bytes(at(sbuf, uz(i) * block), block, i, kTagScatter, c, &reqs.back())) return rc;
  }
  move(rbuf, at(sbuf, uz(root) * block), block);
  return waitall(reqs);
}

int scatter_binomial(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  const int n = c.size, rel = (c.rank - root + n) % n;
  // Blocks of this rank's size: with another size than the root's, the blocks it would forward
  // are cut otherwise: the first mismatch stops it and the others are told.
  SizedCall call(c, SizedCall::Mode::Stop);
  Bytes tmp;
  int mask = 1;
  if (rel == 0) {
    tmp.resize(uz(n) * block);
    for (int k = 0; k < n; ++k) std::memcpy(tmp.data() + uz(k) * block, at(sbuf, uz((k + root) % n) * block), block);
    while (mask < n) mask <<= 1;
  } else {
    while (!(rel & mask)) mask <<= 1;
    const int cnt = std::min(mask, n - rel);
    tmp.resize(uz(cnt) * block);
    if (int rc = call.recv(tmp.data(), tmp.size(), (rel - mask + root) % n, kTagScatter)) return rc;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n) {
      const int cnt = std::min(mask, n - rel - mask);
      if (int rc = send_bytes(tmp.data() + uz(mask) * block, uz(cnt) * block, (rel + mask + root) % n, kTagScatter, c)) return rc;
    }
  // At the root the block comes from sbuf itself (with MPI_IN_PLACE rbuf is that very slot).
  move(rbuf, rel == 0 ? at(sbuf, uz(root) * block) : tmp.data(), block);
  return call.result();
}

int scatterv_linear(const void* sbuf, const std::size_t* counts, const std::size_t* displs, void* rbuf, std::size_t rbytes,
                    int root, Comm& c, int) {
  if (c.rank != root) return recv_block(rbuf, rbytes, root, c);
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = isend_bytes(at(sbuf, displs[i]), counts[i], i, kTagScatter, c, &reqs.back())) return rc;
  }
  move(rbuf, at(sbuf, displs[root]), counts[root]);
  return waitall(reqs);
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm scatter_linear{
    .kind = Collective::Scatter, .name = "linear", .family = Family::Classic, .fn = any(&coll::scatter_linear),
    .help = "root sends every block directly"};
extern const Algorithm scatter_binomial{
    .kind = Collective::Scatter, .name = "binomial", .family = Family::Classic, .fn = any(&coll::scatter_binomial),
    .help = "binomial tree over relative ranks, subtrees forward their blocks", .default_on = DefaultOn::Always};
extern const Algorithm scatterv_linear{
    .kind = Collective::Scatterv, .name = "linear", .family = Family::Classic, .fn = any(&coll::scatterv_linear),
    .help = "root sends every block directly", .default_on = DefaultOn::Always};

}  // namespace entry

}  // namespace tilempi::mpi::coll
