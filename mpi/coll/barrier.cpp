// Classic barriers: linear (through rank 0), dissemination, recursive doubling.
#include "coll/coll.h"

namespace tilempi::mpi::coll {

int barrier_linear(Comm& c, int) {
  const int n = c.size;
  if (c.rank == 0) {
    std::vector<MPI_Request> reqs(static_cast<std::size_t>(n - 1));
    for (int i = 1; i < n; ++i)
      if (int rc = irecv_bytes(nullptr, 0, i, kTagBarrier, c, &reqs[static_cast<std::size_t>(i - 1)])) return rc;
    if (int rc = waitall(reqs)) return rc;
    for (int i = 1; i < n; ++i)
      if (int rc = send_bytes(nullptr, 0, i, kTagBarrier, c)) return rc;
    return MPI_SUCCESS;
  }
  if (int rc = send_bytes(nullptr, 0, 0, kTagBarrier, c)) return rc;
  return recv_bytes(nullptr, 0, 0, kTagBarrier, c);
}

int barrier_dissemination(Comm& c, int) {
  const int n = c.size, r = c.rank;
  for (int d = 1; d < n; d <<= 1)
    if (int rc = sendrecv_bytes(nullptr, 0, (r + d) % n, nullptr, 0, (r - d + n) % n, kTagBarrier, c)) return rc;
  return MPI_SUCCESS;
}

int barrier_recursive_doubling(Comm& c, int) {
  const int n = c.size, r = c.rank;
  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int rem = n - p;
  int v = -1;  // rank among the p participants
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      if (int rc = send_bytes(nullptr, 0, r + 1, kTagBarrier, c)) return rc;
      return recv_bytes(nullptr, 0, r + 1, kTagBarrier, c);
    }
    if (int rc = recv_bytes(nullptr, 0, r - 1, kTagBarrier, c)) return rc;
    v = r / 2;
  } else {
    v = r - rem;
  }
  auto real = [&](int u) { return u < rem ? 2 * u + 1 : u + rem; };
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = real(v ^ mask);
    if (int rc = sendrecv_bytes(nullptr, 0, partner, nullptr, 0, partner, kTagBarrier, c)) return rc;
  }
  if (r < 2 * rem) return send_bytes(nullptr, 0, r - 1, kTagBarrier, c);
  return MPI_SUCCESS;
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm barrier_linear{
    .kind = Collective::Barrier, .name = "linear", .family = Family::Classic, .fn = any(&coll::barrier_linear),
    .help = "every rank notifies rank 0, which releases them all (2(N-1) messages at rank 0)",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) {
      schedule::Schedule s = schedule::linear_reduce(count_of(m), 0);
      for (const auto& r : schedule::linear_bcast(count_of(m), 0).rounds) s.rounds.push_back(r);
      return s;
    },
    .baseline = true};
extern const Algorithm barrier_dissemination{
    .kind = Collective::Barrier, .name = "dissemination", .family = Family::Classic, .fn = any(&coll::barrier_dissemination),
    .help = "ceil(log2 N) rounds, rank r signals r+2^i (Hensgen, Finkel, Manber)",
    .default_on = DefaultOn::SingleRow,
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::dissemination(count_of(m)); }};
extern const Algorithm barrier_recursive_doubling{
    .kind = Collective::Barrier, .name = "recursive_doubling", .family = Family::Classic,
    .fn = any(&coll::barrier_recursive_doubling),
    .help = "pairwise exchanges r xor 2^i; extra ranks fold in before and out after",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::recursive_doubling(count_of(m)); }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
