// Gather and gatherv: linear, binomial tree. A contribution of another size than the root's
// block (or its count for that rank) fails the call where it arrives (SizedCall, coll.h): at the
// root of linear, alone; at an inner rank of binomial, which would forward blocks cut by its
// own size, by stopping there and telling the others.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

int gather_linear(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  if (c.rank != root) return send_bytes(sbuf, block, root, kTagGather, c);
  move(at(rbuf, uz(root) * block), sbuf, block);
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = irecv_bytes(at(rbuf, uz(i) * block), block, i, kTagGather, c, &reqs.back())) return rc;
  }
  SizedCall call(c);
  if (int rc = call.waitall(reqs, std::vector<std::size_t>(reqs.size(), block))) return rc;
  return call.result();
}

int gather_binomial(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  const int n = c.size, rel = (c.rank - root + n) % n;
  // tmp holds the blocks of relative ranks [rel, rel + have).
  int span = n - rel;
  for (int m = 1; m < n; m <<= 1)
    if (rel & m) {
      span = std::min(m, n - rel);
      break;
    }
  Bytes tmp(uz(span) * block);
  std::memcpy(tmp.data(), sbuf, block);
  SizedCall call(c, SizedCall::Mode::Stop);
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rel & mask) return send_bytes(tmp.data(), tmp.size(), (rel - mask + root) % n, kTagGather, c);
    if (rel + mask < n) {
      const int cnt = std::min(mask, n - rel - mask);
      if (int rc = call.recv(tmp.data() + uz(mask) * block, uz(cnt) * block, (rel + mask + root) % n, kTagGather)) return rc;
    }
  }
  for (int k = 0; k < n; ++k) std::memcpy(at(rbuf, uz((k + root) % n) * block), tmp.data() + uz(k) * block, block);
  return MPI_SUCCESS;
}

int gatherv_linear(const void* sbuf, std::size_t sbytes, void* rbuf, const std::size_t* counts, const std::size_t* displs,
                   int root, Comm& c, int) {
  if (c.rank != root) return send_bytes(sbuf, sbytes, root, kTagGather, c);
  move(at(rbuf, displs[root]), sbuf, counts[root]);
  std::vector<MPI_Request> reqs;
  std::vector<std::size_t> sizes;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    sizes.push_back(counts[i]);
    if (int rc = irecv_bytes(at(rbuf, displs[i]), counts[i], i, kTagGather, c, &reqs.back())) return rc;
  }
  SizedCall call(c);
  if (int rc = call.waitall(reqs, sizes)) return rc;
  return call.result();
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm gather_linear{
    .kind = Collective::Gather, .name = "linear", .family = Family::Classic, .fn = any(&coll::gather_linear),
    .help = "root receives every block directly"};
extern const Algorithm gather_binomial{
    .kind = Collective::Gather, .name = "binomial", .family = Family::Classic, .fn = any(&coll::gather_binomial),
    .help = "binomial tree over relative ranks, subtrees forward their blocks", .default_on = DefaultOn::Always};
extern const Algorithm gatherv_linear{
    .kind = Collective::Gatherv, .name = "linear", .family = Family::Classic, .fn = any(&coll::gatherv_linear),
    .help = "root receives every block directly", .default_on = DefaultOn::Always};

}  // namespace entry

}  // namespace tilempi::mpi::coll
