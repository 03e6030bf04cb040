// Classic broadcasts: linear, binomial, scatter + ring allgather (van de Geijn).
// A rank whose count and datatype give another size than the root's (an erroneous program)
// receives what the root sent and fails the call with the class of the difference (SizedCall,
// coll.h). In linear and binomial what it forwards is what it received, so that its subtree
// gets the root's message; scatter_allgather stops there and tells the others.
#include <algorithm>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

int bcast_linear(void* buf, std::size_t bytes, int root, Comm& c, int) {
  if (c.rank != root) {
    SizedCall call(c);
    if (int rc = call.recv(buf, bytes, root, kTagBcast)) return rc;
    return call.result();
  }
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < c.size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = isend_bytes(buf, bytes, i, kTagBcast, c, &reqs.back())) return rc;
  }
  return waitall(reqs);
}

int bcast_binomial(void* buf, std::size_t bytes, int root, Comm& c, int) {
  const int n = c.size, rel = (c.rank - root + n) % n;
  SizedCall call(c);
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      if (int rc = call.recv(buf, bytes, (rel - mask + root) % n, kTagBcast, &bytes)) return rc;
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      if (int rc = send_bytes(buf, bytes, (rel + mask + root) % n, kTagBcast, c)) return rc;
  return call.result();
}

int bcast_scatter_allgather(void* buf, std::size_t bytes, int root, Comm& c, int) {
  const int n = c.size, rel = (c.rank - root + n) % n;
  const std::size_t piece = (bytes + static_cast<std::size_t>(n) - 1) / static_cast<std::size_t>(n);
  // Bytes of pieces [a, b) (relative ranks): clipped to the message.
  auto off = [&](int k) { return std::min(bytes, static_cast<std::size_t>(k) * piece); };
  auto abs = [&](int k) { return (k + root) % n; };
  // The pieces follow this rank's size: with another size than the root's, the pieces it would
  // forward are cut and placed otherwise, and one of the root's size can be wrong (a last piece
  // of the same length from another place): the first mismatch stops it and the others are told.
  SizedCall call(c, SizedCall::Mode::Stop);
  // Binomial scatter: relative rank k ends up holding piece k.
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      const int hi = std::min(rel + mask, n);
      if (int rc = call.recv(at(buf, off(rel)), off(hi) - off(rel), abs(rel - mask), kTagBcast)) return rc;
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n) {
      const int hi = std::min(rel + 2 * mask, n);
      if (int rc = send_bytes(at(buf, off(rel + mask)), off(hi) - off(rel + mask), abs(rel + mask), kTagBcast, c)) return rc;
    }
  // Ring allgather of the pieces.
  const int right = abs((rel + 1) % n), left = abs((rel - 1 + n) % n);
  for (int s = 0; s < n - 1; ++s) {
    const int sp = (rel - s + n) % n, rp = (rel - s - 1 + n) % n;
    if (int rc = call.sendrecv(at(buf, off(sp)), off(sp + 1) - off(sp), right, at(buf, off(rp)), off(rp + 1) - off(rp),
                               left, kTagBcast))
      return rc;
  }
  return call.result();
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm bcast_linear{
    .kind = Collective::Bcast, .name = "linear", .family = Family::Classic, .fn = any(&coll::bcast_linear),
    .help = "root sends to every other rank in turn",
    .schedule = [](const schedule::Mesh&, const Members& m, int root, int) { return schedule::linear_bcast(count_of(m), root); }};
extern const Algorithm bcast_binomial{
    .kind = Collective::Bcast, .name = "binomial", .family = Family::Classic, .fn = any(&coll::bcast_binomial),
    .help = "binomial tree over ranks relative to the root, ceil(log2 N) steps (OperaMPI, MPICH)",
    .default_on = DefaultOn::SingleRow,
    .schedule = [](const schedule::Mesh&, const Members& m, int root, int) { return schedule::binomial_bcast(count_of(m), root); },
    .baseline = true};
extern const Algorithm bcast_scatter_allgather{
    .kind = Collective::Bcast, .name = "scatter_allgather", .family = Family::Classic, .fn = any(&coll::bcast_scatter_allgather),
    .help = "scatter of the message in N pieces, then a ring allgather (van de Geijn)"};

}  // namespace entry

}  // namespace tilempi::mpi::coll
