// Scan and exscan (the inclusive and exclusive prefix reductions): linear, recursive doubling.
// Both keep rank order, so non-commutative ops are right.
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

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm scan_linear{
    .kind = Collective::Scan, .name = "linear", .family = Family::Classic, .fn = any(&coll::scan_linear),
    .help = "rank r waits for the prefix of r-1, combines, passes it on (N-1 steps)"};
extern const Algorithm scan_recursive_doubling{
    .kind = Collective::Scan, .name = "recursive_doubling", .family = Family::Classic, .fn = any(&coll::scan_recursive_doubling),
    .help = "ceil(log2 N) exchange steps keeping rank order", .default_on = DefaultOn::Always};
extern const Algorithm exscan_linear{
    .kind = Collective::Exscan, .name = "linear", .family = Family::Classic, .fn = any(&coll::exscan_linear),
    .help = "rank r waits for the prefix of r-1, combines, passes it on (N-1 steps)"};
extern const Algorithm exscan_recursive_doubling{
    .kind = Collective::Exscan, .name = "recursive_doubling", .family = Family::Classic, .fn = any(&coll::exscan_recursive_doubling),
    .help = "ceil(log2 N) exchange steps keeping rank order", .default_on = DefaultOn::Always};

}  // namespace entry

}  // namespace tilempi::mpi::coll
