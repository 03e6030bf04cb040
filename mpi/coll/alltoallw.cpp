// alltoallw linear: every receive posted, then every send, then this rank's own block copied,
// then one wait. An alltoallw's blocks have a datatype each, so it is a typed exchange
// (AlltoallwExchange) rather than packed bytes; the other alltoall algorithms do not apply.
#include "coll/coll.h"
#include "p2p.h"

namespace tilempi::mpi::coll {

namespace {

int post(const std::vector<NeighborTransfer>& transfers, bool receive, Comm& c, std::vector<MPI_Request>& reqs) {
  for (const NeighborTransfer& t : transfers) {
    if (t.peer == MPI_PROC_NULL) continue;
    reqs.emplace_back();
    const int rc = receive ? coll_irecv(t.buf, t.count, t.type, t.peer, kTagAlltoallw, c, &reqs.back())
                           : coll_isend(t.buf, t.count, t.type, t.peer, kTagAlltoallw, c, &reqs.back());
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int alltoallw_linear(const AlltoallwExchange& x, Comm& c, int) {
  std::vector<MPI_Request> reqs;
  int rc = post(x.recvs, true, c, reqs);
  if (rc == MPI_SUCCESS) rc = post(x.sends, false, c, reqs);
  if (rc == MPI_SUCCESS && x.local) x.local();
  const int wrc = waitall(reqs);
  return rc != MPI_SUCCESS ? rc : wrc;
}

}  // namespace

namespace entry {

extern const Algorithm alltoallw_linear{
    .kind = Collective::Alltoallw, .name = "linear", .family = Family::Classic, .fn = any(&coll::alltoallw_linear),
    .help = "every receive posted, then every send, one wait (a datatype per peer)",
    .default_on = DefaultOn::Always};

}  // namespace entry

}  // namespace tilempi::mpi::coll
