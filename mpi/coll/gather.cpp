// Gather, scatter, allgather and their v-variants.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {
std::size_t uz(int v) { return static_cast<std::size_t>(v); }
void move(void* dst, const void* src, std::size_t bytes) {
  if (bytes && dst != src) std::memmove(dst, src, bytes);
}
}  // namespace

int gather_linear(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  if (c.rank != root) return send_bytes(sbuf, block, root, kTagGather, c);
  move(at(rbuf, uz(root) * block), sbuf, block);
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = irecv_bytes(at(rbuf, uz(i) * block), block, i, kTagGather, c, &reqs.back())) return rc;
  }
  return waitall(reqs);
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
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rel & mask) return send_bytes(tmp.data(), tmp.size(), (rel - mask + root) % n, kTagGather, c);
    if (rel + mask < n) {
      const int cnt = std::min(mask, n - rel - mask);
      if (int rc = recv_bytes(tmp.data() + uz(mask) * block, uz(cnt) * block, (rel + mask + root) % n, kTagGather, c)) return rc;
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
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = irecv_bytes(at(rbuf, displs[i]), counts[i], i, kTagGather, c, &reqs.back())) return rc;
  }
  return waitall(reqs);
}

int scatter_linear(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  if (c.rank != root) return recv_bytes(rbuf, block, root, kTagScatter, c);
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
    if (int rc = recv_bytes(tmp.data(), tmp.size(), (rel - mask + root) % n, kTagScatter, c)) return rc;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n) {
      const int cnt = std::min(mask, n - rel - mask);
      if (int rc = send_bytes(tmp.data() + uz(mask) * block, uz(cnt) * block, (rel + mask + root) % n, kTagScatter, c)) return rc;
    }
  // At the root the block comes from sbuf itself (with MPI_IN_PLACE rbuf is that very slot).
  move(rbuf, rel == 0 ? at(sbuf, uz(root) * block) : tmp.data(), block);
  return MPI_SUCCESS;
}

int scatterv_linear(const void* sbuf, const std::size_t* counts, const std::size_t* displs, void* rbuf, std::size_t rbytes,
                    int root, Comm& c, int) {
  if (c.rank != root) return recv_bytes(rbuf, rbytes, root, kTagScatter, c);
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = isend_bytes(at(sbuf, displs[i]), counts[i], i, kTagScatter, c, &reqs.back())) return rc;
  }
  move(rbuf, at(sbuf, displs[root]), counts[root]);
  return waitall(reqs);
}

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
  if (n & (n - 1)) return allgather_bruck(rbuf, block, c, 0);  // needs a power of two
  for (int mask = 1; mask < n; mask <<= 1) {
    const int partner = me ^ mask;
    const int mine = me & ~(mask - 1), theirs = partner & ~(mask - 1);
    if (int rc = sendrecv_bytes(at(rbuf, uz(mine) * block), uz(mask) * block, partner, at(rbuf, uz(theirs) * block),
                                uz(mask) * block, partner, kTagAllgather, c))
      return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi::coll
