// Classic reductions: reduce (linear, binomial), allreduce (linear, recursive doubling, ring,
// Rabenseifner), reduce_scatter (reduce + scatterv, ring), scan and exscan (linear, recursive
// doubling). Every combination keeps rank order (the lower ranks' operand first), so
// non-commutative ops are right wherever an algorithm accepts them, and every element of a
// result is computed on one rank only and copied from there: all ranks get the same bits.
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

/// Element counts and offsets of p nearly equal chunks of n elements.
struct Chunks {
  std::vector<std::size_t> count, off;
  Chunks(std::size_t n, int p) : count(static_cast<std::size_t>(p)), off(static_cast<std::size_t>(p) + 1, 0) {
    for (int i = 0; i < p; ++i) {
      count[static_cast<std::size_t>(i)] = n / static_cast<std::size_t>(p) + (static_cast<std::size_t>(i) < n % static_cast<std::size_t>(p) ? 1 : 0);
      off[static_cast<std::size_t>(i) + 1] = off[static_cast<std::size_t>(i)] + count[static_cast<std::size_t>(i)];
    }
  }
};

}  // namespace

int reduce_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  if (c.rank != root) return send_bytes(sbuf, bytes, root, kTagReduce, c);
  const int size = c.size;
  Bytes all(bytes * static_cast<std::size_t>(size));
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = irecv_bytes(all.data() + bytes * static_cast<std::size_t>(i), bytes, i, kTagReduce, c, &reqs.back())) return rc;
  }
  std::memcpy(all.data() + bytes * static_cast<std::size_t>(root), sbuf, bytes);
  if (int rc = waitall(reqs)) return rc;
  // a_0 op (a_1 op (... op a_{n-1})): fold from the highest rank down.
  std::memcpy(rbuf, all.data() + bytes * static_cast<std::size_t>(size - 1), bytes);
  for (int i = size - 2; i >= 0; --i) red.apply(all.data() + bytes * static_cast<std::size_t>(i), rbuf, n);
  return MPI_SUCCESS;
}

int reduce_binomial(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  const int size = c.size;
  // Commutative: a tree over ranks relative to the root. Otherwise over ranks, into rank 0,
  // so that every partial result covers a contiguous range of ranks, lowest first.
  const int top = red.commutative() ? root : 0;
  const int rel = (c.rank - top + size) % size;
  Bytes acc = copy_of(sbuf, bytes), tmp(bytes);
  for (int mask = 1; mask < size; mask <<= 1) {
    if (rel & mask) {
      if (int rc = send_bytes(acc.data(), bytes, (rel - mask + top) % size, kTagReduce, c)) return rc;
      break;
    }
    if (rel + mask < size) {
      if (int rc = recv_bytes(tmp.data(), bytes, (rel + mask + top) % size, kTagReduce, c)) return rc;
      red.apply_into_lo(acc.data(), tmp.data(), n);
    }
  }
  if (c.rank == top) {
    if (top == root) {
      std::memcpy(rbuf, acc.data(), bytes);
      return MPI_SUCCESS;
    }
    return send_bytes(acc.data(), bytes, root, kTagReduce, c);
  }
  if (c.rank == root) return recv_bytes(rbuf, bytes, top, kTagReduce, c);
  return MPI_SUCCESS;
}

int allreduce_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  if (int rc = reduce_linear(sbuf, rbuf, n, red, 0, c, 0)) return rc;
  return bcast_linear(rbuf, n * red.elem_size(), 0, c, 0);
}

int allreduce_recursive_doubling(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  const int size = c.size, r = c.rank;
  std::memcpy(rbuf, sbuf, bytes);
  Bytes tmp(bytes);
  int p = 1;
  while (p * 2 <= size) p *= 2;
  const int rem = size - p;
  int v;
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      if (int rc = send_bytes(rbuf, bytes, r + 1, kTagAllreduce, c)) return rc;
      return recv_bytes(rbuf, bytes, r + 1, kTagAllreduce, c);
    }
    if (int rc = recv_bytes(tmp.data(), bytes, r - 1, kTagAllreduce, c)) return rc;
    red.apply(tmp.data(), rbuf, n);  // rank r-1 is lower
    v = r / 2;
  } else {
    v = r - rem;
  }
  auto real = [&](int u) { return u < rem ? 2 * u + 1 : u + rem; };
  for (int mask = 1; mask < p; mask <<= 1) {
    const int pv = v ^ mask, partner = real(pv);
    if (int rc = sendrecv_bytes(rbuf, bytes, partner, tmp.data(), bytes, partner, kTagAllreduce, c)) return rc;
    if (pv < v) red.apply(tmp.data(), rbuf, n);
    else red.apply_into_lo(rbuf, tmp.data(), n);
  }
  if (r < 2 * rem) return send_bytes(rbuf, bytes, r - 1, kTagAllreduce, c);
  return MPI_SUCCESS;
}

int allreduce_ring(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  const int size = c.size, r = c.rank;
  if (!red.commutative() || n < static_cast<std::size_t>(size)) return allreduce_recursive_doubling(sbuf, rbuf, n, red, c, 0);
  const std::size_t es = red.elem_size();
  std::memcpy(rbuf, sbuf, n * es);
  Chunks ch(n, size);
  Bytes tmp((ch.count[0]) * es);
  const int right = (r + 1) % size, left = (r - 1 + size) % size;
  auto idx = [&](int k) { return static_cast<std::size_t>(((k % size) + size) % size); };
  for (int s = 0; s < size - 1; ++s) {
    const std::size_t sc = idx(r - s), rcv = idx(r - s - 1);
    if (int rc = sendrecv_bytes(at(rbuf, ch.off[sc] * es), ch.count[sc] * es, right, tmp.data(), ch.count[rcv] * es, left,
                                kTagAllreduce, c))
      return rc;
    red.apply(tmp.data(), at(rbuf, ch.off[rcv] * es), ch.count[rcv]);
  }
  for (int s = 0; s < size - 1; ++s) {
    const std::size_t sc = idx(r + 1 - s), rcv = idx(r - s);
    if (int rc = sendrecv_bytes(at(rbuf, ch.off[sc] * es), ch.count[sc] * es, right, at(rbuf, ch.off[rcv] * es),
                                ch.count[rcv] * es, left, kTagAllreduce, c))
      return rc;
  }
  return MPI_SUCCESS;
}

int allreduce_rabenseifner(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  const int size = c.size, r = c.rank;
  int p = 1;
  while (p * 2 <= size) p *= 2;
  if (!red.commutative() || n < static_cast<std::size_t>(p)) return allreduce_recursive_doubling(sbuf, rbuf, n, red, c, 0);
  const std::size_t es = red.elem_size(), bytes = n * es;
  const int rem = size - p;
  std::memcpy(rbuf, sbuf, bytes);
  Bytes tmp(bytes);
  int v;
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      if (int rc = send_bytes(rbuf, bytes, r + 1, kTagAllreduce, c)) return rc;
      return recv_bytes(rbuf, bytes, r + 1, kTagAllreduce, c);
    }
    if (int rc = recv_bytes(tmp.data(), bytes, r - 1, kTagAllreduce, c)) return rc;
    red.apply(tmp.data(), rbuf, n);
    v = r / 2;
  } else {
    v = r - rem;
  }
  auto real = [&](int u) { return u < rem ? 2 * u + 1 : u + rem; };
  Chunks ch(n, p);
  auto span = [&](int a, int b) { return std::make_pair(ch.off[static_cast<std::size_t>(a)] * es, (ch.off[static_cast<std::size_t>(b)] - ch.off[static_cast<std::size_t>(a)]) * es); };
  // Recursive halving: the range of chunks [lo, hi) this rank is responsible for halves each step.
  int lo = 0, hi = p;
  for (int mask = p / 2; mask > 0; mask >>= 1) {
    const int partner = real(v ^ mask), mid = lo + mask;
    const bool lower = (v & mask) == 0;
    auto [keep_off, keep_len] = lower ? span(lo, mid) : span(mid, hi);
    auto [give_off, give_len] = lower ? span(mid, hi) : span(lo, mid);
    if (int rc = sendrecv_bytes(at(rbuf, give_off), give_len, partner, tmp.data(), keep_len, partner, kTagAllreduce, c)) return rc;
    red.apply(tmp.data(), at(rbuf, keep_off), keep_len / es);
    if (lower) hi = mid;
    else lo = mid;
  }
  // Recursive doubling allgather of the reduced chunks.
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = real(v ^ mask);
    const int size_range = hi - lo;
    const bool lower = (v & mask) == 0;
    const int plo = lower ? hi : lo - size_range, phi = lower ? hi + size_range : lo;
    auto [my_off, my_len] = span(lo, hi);
    auto [p_off, p_len] = span(plo, phi);
    if (int rc = sendrecv_bytes(at(rbuf, my_off), my_len, partner, at(rbuf, p_off), p_len, partner, kTagAllreduce, c)) return rc;
    lo = std::min(lo, plo);
    hi = std::max(hi, phi);
  }
  if (r < 2 * rem) return send_bytes(rbuf, bytes, r - 1, kTagAllreduce, c);
  return MPI_SUCCESS;
}

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
  if (int rc = reduce_binomial(sbuf, all.data(), total, red, 0, c, 0)) return rc;
  return scatterv_linear(all.data(), bcounts.data(), displs.data(), rbuf, counts[c.rank] * es, 0, c, 0);
}

int reduce_scatter_ring(const void* sbuf, void* rbuf, const std::size_t* counts, const Reducer& red, Comm& c, int) {
  if (!red.commutative()) return reduce_scatter_nonoverlapping(sbuf, rbuf, counts, red, c, 0);
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

int scan_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  std::memcpy(rbuf, sbuf, bytes);
  if (c.rank > 0) {
    Bytes prefix(bytes);
    if (int rc = recv_bytes(prefix.data(), bytes, c.rank - 1, kTagScan, c)) return rc;
    red.apply(prefix.data(), rbuf, n);
  }
  if (c.rank + 1 < c.size) return send_bytes(rbuf, bytes, c.rank + 1, kTagScan, c);
  return MPI_SUCCESS;
}

int exscan_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  if (c.rank == 0) return c.size > 1 ? send_bytes(sbuf, bytes, 1, kTagScan, c) : MPI_SUCCESS;
  if (int rc = recv_bytes(rbuf, bytes, c.rank - 1, kTagScan, c)) return rc;
  if (c.rank + 1 == c.size) return MPI_SUCCESS;
  Bytes next = copy_of(sbuf, bytes);
  red.apply(rbuf, next.data(), n);
  return send_bytes(next.data(), bytes, c.rank + 1, kTagScan, c);
}

namespace {
int scan_rd(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, bool inclusive) {
  const std::size_t bytes = n * red.elem_size();
  const int size = c.size, r = c.rank;
  Bytes partial = copy_of(sbuf, bytes), tmp(bytes);
  bool have = inclusive;
  if (inclusive) std::memcpy(rbuf, sbuf, bytes);
  for (int mask = 1; mask < size; mask <<= 1) {
    const int partner = r ^ mask;
    if (partner >= size) continue;
    if (int rc = sendrecv_bytes(partial.data(), bytes, partner, tmp.data(), bytes, partner, kTagScan, c)) return rc;
    if (partner < r) {
      red.apply(tmp.data(), partial.data(), n);
      if (have) {
        red.apply(tmp.data(), rbuf, n);
      } else {
        std::memcpy(rbuf, tmp.data(), bytes);
        have = true;
      }
    } else {
      red.apply_into_lo(partial.data(), tmp.data(), n);
    }
  }
  return MPI_SUCCESS;
}
}  // namespace

int scan_recursive_doubling(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  return scan_rd(sbuf, rbuf, n, red, c, true);
}

int exscan_recursive_doubling(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  return scan_rd(sbuf, rbuf, n, red, c, false);
}

}  // namespace tilempi::mpi::coll
