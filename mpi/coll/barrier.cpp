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

}  // namespace tilempi::mpi::coll
