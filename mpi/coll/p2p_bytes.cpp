// Point-to-point on the collective lane, in bytes: what every algorithm sends and receives with.
// Counts are size_t all the way down (p2p.h): a collective moves any size point-to-point moves.
#include "coll/coll.h"
#include "p2p.h"

namespace tilempi::mpi::coll {

int send_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm) {
  return coll_send(buf, n, MPI_BYTE, dest, tag, comm);
}
int recv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm) {
  return coll_recv(buf, n, MPI_BYTE, src, tag, comm);
}
int sendrecv_bytes(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag, Comm& comm) {
  return coll_sendrecv(sbuf, sn, MPI_BYTE, dest, rbuf, rn, MPI_BYTE, src, tag, comm);
}
int isend_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm, MPI_Request* req) {
  return coll_isend(buf, n, MPI_BYTE, dest, tag, comm, req);
}
int irecv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm, MPI_Request* req) {
  return coll_irecv(buf, n, MPI_BYTE, src, tag, comm, req);
}
int waitall(std::vector<MPI_Request>& reqs) {
  if (reqs.empty()) return MPI_SUCCESS;
  int rc = mpi::waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  reqs.clear();
  return rc;
}

}  // namespace tilempi::mpi::coll
