// Point-to-point on the collective lane, in bytes: what every algorithm sends and receives with.
// Counts are size_t all the way down (p2p.h): a collective moves any size point-to-point moves.
#include "coll/coll.h"
#include "p2p.h"

#include <string>

namespace tilempi::mpi::coll {

int send_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm) {
  return coll_send(buf, n, MPI_BYTE, dest, tag, comm);
}
int isend_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm, MPI_Request* req) {
  return coll_isend(buf, n, MPI_BYTE, dest, tag, comm, req);
}
int irecv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm, MPI_Request* req) {
  return coll_irecv(buf, n, MPI_BYTE, src, tag, comm, req);
}

namespace {

/// The bytes a receive of capacity n took (all n when the message was longer), and the class of
/// its size's mismatch: MPI_ERR_TRUNCATE when the message was longer, MPI_ERR_OTHER when shorter.
std::size_t taken(const MPI_Status& st, std::size_t n, int* mismatch) {
  const std::size_t got = status_bytes(st);
  const int e = st.MPI_ERROR == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : got < n ? MPI_ERR_OTHER : MPI_SUCCESS;
  if (e != MPI_SUCCESS && *mismatch == MPI_SUCCESS) {
    *mismatch = e;
    note_failure(e == MPI_ERR_TRUNCATE
                     ? "a message of this call is longer than this rank's count and datatype say (" + std::to_string(n) +
                           " bytes): the members' counts and datatypes differ"
                     : "a message of this call is " + std::to_string(got) + " bytes where this rank's count and datatype say " +
                           std::to_string(n) + ": the members' counts and datatypes differ");
  }
  return got;
}

}  // namespace

namespace {

/// What a send's entry in a list of sizes holds: nothing to compare.
constexpr std::size_t kSend = ~std::size_t{0};

/// A wait's outcome with the sizes checked: every receive of an algorithm expects exactly what
/// it posted (the members' arguments fix every message's size), so a shorter or longer message
/// ends the algorithm with its class, and the call's failure tells the others (the same as
/// SizedCall's Stop mode, where no SizedCall says more).
int exact(int rc, const MPI_Status* st, const std::size_t* sizes, std::size_t count) {
  if (rc != MPI_SUCCESS && rc != MPI_ERR_TRUNCATE && rc != MPI_ERR_IN_STATUS) return rc;
  int mismatch = MPI_SUCCESS;
  for (std::size_t i = 0; i < count; ++i)
    if (sizes[i] != kSend && st[i].MPI_SOURCE != MPI_PROC_NULL) taken(st[i], sizes[i], &mismatch);
  return mismatch != MPI_SUCCESS ? mismatch : rc;
}

}  // namespace

int recv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm) {
  MPI_Request r;
  MPI_Status st;
  if (int rc = irecv_bytes(buf, n, src, tag, comm, &r)) return rc;
  return exact(coll_waitall(1, &r, &st), &st, &n, 1);
}
int sendrecv_bytes(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag, Comm& comm) {
  MPI_Request r[2];
  MPI_Status st[2];
  if (int rc = irecv_bytes(rbuf, rn, src, tag, comm, &r[0])) return rc;
  if (int rc = isend_bytes(sbuf, sn, dest, tag, comm, &r[1])) return rc;
  const std::size_t sizes[2] = {rn, kSend};
  return exact(coll_waitall(2, r, st), st, sizes, 2);
}
int waitall(std::vector<MPI_Request>& reqs) {
  const std::size_t n = reqs.size();
  if (n == 0) return MPI_SUCCESS;
  // (On the stack for the usual few requests: no allocation on a collective's path.)
  constexpr std::size_t kOnStack = 16;
  std::size_t sizes_here[kOnStack];
  MPI_Status st_here[kOnStack];
  std::vector<std::size_t> sizes_heap;
  std::vector<MPI_Status> st_heap;
  if (n > kOnStack) {
    sizes_heap.resize(n);
    st_heap.resize(n);
  }
  std::size_t* sizes = n > kOnStack ? sizes_heap.data() : sizes_here;
  MPI_Status* st = n > kOnStack ? st_heap.data() : st_here;
  for (std::size_t i = 0; i < n; ++i) {
    const Request* r = request_get(reqs[i]);
    sizes[i] = r && r->kind == Request::Kind::Recv ? r->count * r->type->size : kSend;
  }
  const int rc = coll_waitall(static_cast<int>(n), reqs.data(), st);
  reqs.clear();
  return exact(rc, st, sizes, n);
}

int SizedCall::after(int rc, const MPI_Status& st, std::size_t n, std::size_t* got) {
  if (rc != MPI_SUCCESS && rc != MPI_ERR_TRUNCATE) return rc;
  const std::size_t g = taken(st, n, &mismatch_);
  if (got) *got = g;
  return mode_ == Mode::Stop ? mismatch_ : MPI_SUCCESS;
}

int SizedCall::recv(void* buf, std::size_t n, int src, int tag, std::size_t* got) {
  MPI_Request r;
  MPI_Status st;
  if (int rc = irecv_bytes(buf, n, src, tag, comm_, &r)) return rc;
  return after(coll_waitall(1, &r, &st), st, n, got);
}

int SizedCall::sendrecv(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag) {
  MPI_Request r[2];
  MPI_Status st[2];
  if (int rc = irecv_bytes(rbuf, rn, src, tag, comm_, &r[0])) return rc;
  if (int rc = isend_bytes(sbuf, sn, dest, tag, comm_, &r[1])) return rc;
  return after(coll_waitall(2, r, st), st[0], rn, nullptr);
}

int SizedCall::waitall(std::vector<MPI_Request>& reqs, const std::vector<std::size_t>& sizes) {
  if (reqs.empty()) return MPI_SUCCESS;
  std::vector<MPI_Status> st(reqs.size());
  const int rc = coll_waitall(static_cast<int>(reqs.size()), reqs.data(), st.data());
  reqs.clear();
  if (rc != MPI_SUCCESS && rc != MPI_ERR_TRUNCATE) return rc;
  for (std::size_t i = 0; i < st.size(); ++i) taken(st[i], sizes[i], &mismatch_);
  return mode_ == Mode::Stop ? mismatch_ : MPI_SUCCESS;
}

void SizedCall::mismatch(std::size_t sent, std::size_t n) {
  MPI_Status st{};
  st.MPI_ERROR = sent > n ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  status_set_bytes(st, sent > n ? n : sent);
  taken(st, n, &mismatch_);
}

int SizedCall::result() {
  if (mismatch_ != MPI_SUCCESS) part_done_with_error(comm_);
  return mismatch_;
}
}  // namespace tilempi::mpi::coll
