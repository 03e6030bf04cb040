// Classic allreduce: linear (reduce + broadcast), recursive doubling, ring, Rabenseifner. Every
// combination keeps rank order where the algorithm accepts non-commutative ops, and every element
// of a result is computed on one rank only and copied from there: all ranks get the same bits.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

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

int allreduce_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  if (int rc = reduce_linear(sbuf, rbuf, n, red, 0, c, 0)) return stage_failed(c, rc);
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
  // The registry runs it for commutative ops and count >= size only (restrictions below).
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
  // The registry runs it for commutative ops and count >= size >= p only (restrictions below).
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

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm allreduce_linear{
    .kind = Collective::Allreduce, .name = "linear", .family = Family::Classic, .fn = any(&coll::allreduce_linear),
    .help = "linear reduce to rank 0, then linear broadcast", .baseline = true};
extern const Algorithm allreduce_recursive_doubling{
    .kind = Collective::Allreduce, .name = "recursive_doubling", .family = Family::Classic,
    .fn = any(&coll::allreduce_recursive_doubling),
    .help = "log2 N exchange-and-combine steps; non-power-of-two ranks fold in and out", .default_on = DefaultOn::SingleRow,
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::recursive_doubling(count_of(m)); }};
extern const Algorithm allreduce_ring{
    .kind = Collective::Allreduce, .name = "ring", .family = Family::Classic, .fn = any(&coll::allreduce_ring),
    .help = "ring reduce-scatter then ring allgather, 2(N-1) steps",
    .restrictions = {.commutative = true, .count_ge_ranks = true}, .fallback = "recursive_doubling",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::ring(count_of(m), 2 * (count_of(m) - 1)); }};
extern const Algorithm allreduce_rabenseifner{
    .kind = Collective::Allreduce, .name = "rabenseifner", .family = Family::Classic, .fn = any(&coll::allreduce_rabenseifner),
    .help = "recursive-halving reduce-scatter then recursive-doubling allgather",
    .restrictions = {.commutative = true, .count_ge_ranks = true}, .fallback = "recursive_doubling"};

}  // namespace entry

}  // namespace tilempi::mpi::coll
