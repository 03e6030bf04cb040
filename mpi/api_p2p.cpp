// MPI point-to-point entry points: argument checks, then the engine in p2p.cpp.
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "p2p.h"
#include "p2p_fast.h"
#include "request.h"

using namespace tilempi::mpi;

namespace {

// The entry points' helpers inline into each MPI_ function: a call's prologue and epilogue
// (saving and restoring the registers of seven arguments) cost as much as a check here.
#define TILEMPI_ENTRY_HELPER [[gnu::always_inline]] inline

TILEMPI_ENTRY_HELPER int start_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, bool sync,
               MPI_Request* request, const char* fn) {
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* t = check::message_type(*c, buf, count, type, fn, &rc);
  if (!t || !check::dest(*c, dest, fn, &rc) || !check::send_tag(*c, tag, fn, &rc)) return rc;
  if (!request) [[unlikely]]
    return raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
  return isend(buf, static_cast<std::size_t>(count), *t, dest, tag, *c, Lane::User, sync, request);
}

// The checks of a send's arguments; the communicator, or nullptr with *rc set.
TILEMPI_ENTRY_HELPER Comm* check_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request,
                 const char* fn, int* rc, const Datatype** type_out = nullptr) {
  Comm* c = check::comm(comm, fn, rc);
  if (!c) return nullptr;
  const Datatype* t = check::message_type(*c, buf, count, type, fn, rc);
  if (!t || !check::dest(*c, dest, fn, rc) || !check::send_tag(*c, tag, fn, rc)) return nullptr;
  if (type_out) *type_out = t;
  if (!request) {
    *rc = raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    return nullptr;
  }
  return c;
}

TILEMPI_ENTRY_HELPER Comm* check_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request,
                 const char* fn, int* rc, const Datatype** type_out = nullptr) {
  Comm* c = check::comm(comm, fn, rc);
  if (!c) return nullptr;
  const Datatype* t = check::message_type(*c, buf, count, type, fn, rc);
  if (!t || !check::source(*c, source, fn, rc) || !check::recv_tag(*c, tag, fn, rc)) return nullptr;
  if (type_out) *type_out = t;
  if (!request) {
    *rc = raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    return nullptr;
  }
  return c;
}

int send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, SendMode mode,
              MPI_Request* request, const char* fn) {
  int rc;
  Comm* c = check_send(buf, count, type, dest, tag, comm, request, fn, &rc);
  if (!c) return rc;
  return persistent_init(Request::Kind::Send, mode, buf, static_cast<std::size_t>(count), type, dest, tag, *c, request);
}

// A buffered send's copy into the attached buffer; raises MPI_ERR_BUFFER when it does not fit.
int buffered_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, const char* fn) {
  int rc;
  MPI_Request unused;
  Comm* c = check_send(buf, count, type, dest, tag, comm, &unused, fn, &rc);
  if (!c) return rc;
  std::string detail;
  rc = bsend(buf, static_cast<std::size_t>(count), type, dest, tag, *c, &detail);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, fn, detail);
}

TILEMPI_ENTRY_HELPER int start_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request,
               const char* fn) {
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* t = check::message_type(*c, buf, count, type, fn, &rc);
  if (!t || !check::source(*c, source, fn, &rc) || !check::recv_tag(*c, tag, fn, &rc)) return rc;
  if (!request) [[unlikely]]
    return raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
  return irecv(buf, static_cast<std::size_t>(count), *t, source, tag, *c, Lane::User, request);
}

TILEMPI_ENTRY_HELPER int blocking_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, bool sync,
                  const char* fn) {
  MPI_Request r;
  int rc;
  if (sync) {
    rc = start_send(buf, count, type, dest, tag, comm, sync, &r, fn);
  } else {
    // A send the transport takes at once needs no request (send_direct in p2p.h).
    const Datatype* t = nullptr;
    Comm* c = check_send(buf, count, type, dest, tag, comm, &r, fn, &rc, &t);
    if (!c) return rc;
    if (send_direct(buf, static_cast<std::size_t>(count), *t, dest, tag, *c, &r))
      rc = MPI_SUCCESS;
    else
      rc = isend(buf, static_cast<std::size_t>(count), *t, dest, tag, *c, Lane::User, false, &r);
  }
  if (rc != MPI_SUCCESS) return rc;
  if (r == MPI_REQUEST_NULL) return MPI_SUCCESS;
  rc = wait(&r, MPI_STATUS_IGNORE);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, fn, "");
}

// Checks a request array argument; null handles are allowed.
bool check_requests(int count, MPI_Request* requests, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return false;
  if (count < 0) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn, "count " + std::to_string(count) + " is negative");
    return false;
  }
  if (count > 0 && !requests) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "request array is NULL");  // (a null pointer: as MPICH)
    return false;
  }
  const int i = first_invalid_request(count, requests);
  if (i >= 0) [[unlikely]] {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                "request " + std::to_string(i) + " (handle " + std::to_string(requests[i]) + ") is not valid");
    return false;
  }
  return true;
}

MPI_Status empty_status() {
  MPI_Status s{};
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  return s;
}

// Completes request i (which is done): copies its status, frees it. Returns its error class.
int harvest(MPI_Request* requests, int i, MPI_Status* status, MPI_Comm* comm) {
  Request* r = request_get(requests[i]);
  if (r->grequest.active) grequest_conclude(*r);
  status_set(status, r->status);
  int err = r->error;
  *comm = r->comm;
  request_finish(&requests[i]);
  return err;
}

MPI_Status* nth(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

}  // namespace

extern "C" {

// The general paths of the calls with a fast path (p2p_fast.h), out of line: the fast path's
// function then saves no registers and builds no frame for them.
[[gnu::noinline]] static int send_general(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                          MPI_Comm comm) {
  ApiScope api_scope("MPI_Send");
  return blocking_send(buf, count, type, dest, tag, comm, false, "MPI_Send");
}

[[gnu::noinline]] static int isend_general(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                           MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope("MPI_Isend");
  return start_send(buf, count, type, dest, tag, comm, false, req, "MPI_Isend");
}

[[gnu::noinline]] static int recv_general(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                                          MPI_Status* status) {
  ApiScope api_scope("MPI_Recv");
  int rc;
  MPI_Request r;
  const Datatype* t = nullptr;
  Comm* c = check_recv(buf, count, type, source, tag, comm, &r, "MPI_Recv", &rc, &t);
  if (!c) return rc;
  // Nothing posted or queued that could take the message first: no request (recv_direct, p2p.h).
  if (!recv_direct(buf, static_cast<std::size_t>(count), *t, source, tag, *c, status, &rc)) {
    rc = irecv(buf, static_cast<std::size_t>(count), *t, source, tag, *c, Lane::User, &r);
    if (rc != MPI_SUCCESS) return rc;
    rc = wait(&r, status);
  }
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Recv", rc == MPI_ERR_TRUNCATE ? "the message is longer than the receive buffer" : "");
}

[[gnu::noinline, gnu::cold]] static int recv_truncated(MPI_Comm comm) {
  ApiScope api_scope("MPI_Recv");
  return raise(comm, MPI_ERR_TRUNCATE, "MPI_Recv", "the message is longer than the receive buffer");
}

// A fast send the transport keeps pending: waited for as the general path waits.
[[gnu::noinline]] static int send_wait(tilempi::transport::OpId op, MPI_Comm comm, int dest) {
  ApiScope api_scope("MPI_Send");
  MPI_Request r = send_pending(op, comm, dest);
  const int rc = wait(&r, MPI_STATUS_IGNORE);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Send", "");
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  tilempi::transport::OpId op;
  if (send_fast(buf, count, type, dest, tag, comm, &op)) [[likely]]  // (p2p_fast.h)
    return op == tilempi::transport::kDone ? MPI_SUCCESS : send_wait(op, comm, dest);
  return send_general(buf, count, type, dest, tag, comm);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return blocking_send(buf, count, type, dest, tag, comm, true, "MPI_Ssend");
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return blocking_send(buf, count, type, dest, tag, comm, false, "MPI_Rsend");
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  // Complete at once: the shared completed request, as isend() gives such a send; else a request.
  tilempi::transport::OpId op;
  if (req && send_fast(buf, count, type, dest, tag, comm, &op)) [[likely]] {
    *req = op == tilempi::transport::kDone ? kSendCompleteRequest : send_pending(op, comm, dest);
    return MPI_SUCCESS;
  }
  return isend_general(buf, count, type, dest, tag, comm, req);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return start_send(buf, count, type, dest, tag, comm, true, req, "MPI_Issend");
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return start_send(buf, count, type, dest, tag, comm, false, req, "MPI_Irsend");
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return start_recv(buf, count, type, source, tag, comm, req, "MPI_Irecv");
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  int rc;
  if (recv_at_once(buf, count, type, source, tag, comm, status, &rc)) [[likely]]  // (p2p_fast.h)
    return rc == MPI_SUCCESS ? rc : recv_truncated(comm);
  return recv_general(buf, count, type, source, tag, comm, status);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  ApiScope api_scope(__func__);
  MPI_Request r[2];
  int rc = start_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0], "MPI_Sendrecv");
  if (rc != MPI_SUCCESS) return rc;
  rc = start_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, false, &r[1], "MPI_Sendrecv");
  if (rc != MPI_SUCCESS) {
    request_cancel(r[0]);
    wait(&r[0], MPI_STATUS_IGNORE);
    return rc;
  }
  int rs = wait(&r[1], MPI_STATUS_IGNORE);
  int rr = wait(&r[0], status);
  rc = rr != MPI_SUCCESS ? rr : rs;
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Sendrecv", "");
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Sendrecv_replace", &rc);
  if (!c) return rc;
  if (!check::message(*c, buf, count, type, "MPI_Sendrecv_replace", &rc)) return rc;
  const Datatype* t = datatype_get(type);
  std::vector<char> copy(static_cast<std::size_t>(count) * t->size);
  pack(buf, static_cast<std::size_t>(count), *t, copy.data());
  return MPI_Sendrecv(copy.data(), static_cast<int>(copy.size()), MPI_BYTE, dest, sendtag, buf, count, type, source,
                      recvtag, comm, status);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Wait", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Wait", &rc)) return rc;
  if (request_inactive(*request)) {
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  MPI_Comm comm = request_get(*request)->comm;
  rc = wait(request, status);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Wait", "");
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_requests(count, requests, "MPI_Waitall", &rc)) return rc;
  MPI_Comm comm = MPI_COMM_WORLD;
  rc = waitall_requests(count, requests, statuses, &comm);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Waitall", "");
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_requests(count, requests, "MPI_Testall", &rc)) return rc;
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
  progress();
  for (int i = 0; i < count; ++i) {
    Request* r = request_get(requests[i]);
    if (r && !r->done) {
      *flag = 0;
      transport_of_job().polled_in_vain();
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return MPI_Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_requests(count, requests, "MPI_Waitany", &rc)) return rc;
  if (!index) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitany", "index is NULL");
  int found = MPI_UNDEFINED;
  bool any = false;
  for (int i = 0; i < count; ++i) any = any || !request_inactive(requests[i]);
  if (!any) {
    *index = MPI_UNDEFINED;
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  progress_until([&] {
    for (int i = 0; i < count; ++i) {
      Request* r = request_get(requests[i]);
      if (!request_inactive(requests[i]) && r->done) {
        found = i;
        return true;
      }
    }
    return false;
  });
  *index = found;
  MPI_Comm comm;
  int err = harvest(requests, found, status, &comm);
  return err == MPI_SUCCESS ? err : raise(comm, err, "MPI_Waitany", "");
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_requests(count, requests, "MPI_Testany", &rc)) return rc;
  if (!index || !flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testany", "index or flag is NULL");
  progress();
  bool any = false;
  for (int i = 0; i < count; ++i) {
    Request* r = request_get(requests[i]);
    if (request_inactive(requests[i])) continue;
    any = true;
    if (r->done) {
      *index = i;
      *flag = 1;
      MPI_Comm comm;
      int err = harvest(requests, i, status, &comm);
      return err == MPI_SUCCESS ? err : raise(comm, err, "MPI_Testany", "");
    }
  }
  *index = MPI_UNDEFINED;
  *flag = any ? 0 : 1;
  if (!any) status_set(status, empty_status());
  else transport_of_job().polled_in_vain();
  return MPI_SUCCESS;
}

static int some(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[],
                bool block, const char* fn) {
  int rc;
  if (!check_requests(incount, requests, fn, &rc)) return rc;
  if (!outcount || (incount > 0 && !indices)) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "outcount or indices is NULL");
  bool any = false;
  for (int i = 0; i < incount; ++i) any = any || !request_inactive(requests[i]);
  if (!any) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  auto ready = [&] {
    for (int i = 0; i < incount; ++i) {
      Request* r = request_get(requests[i]);
      if (!request_inactive(requests[i]) && r->done) return true;
    }
    return false;
  };
  if (block)
    progress_until(ready);
  else
    progress();
  int n = 0;
  rc = MPI_SUCCESS;
  MPI_Comm comm = MPI_COMM_WORLD;
  std::vector<int> errors;  // each status's, written in all if one failed (MPI_ERR_IN_STATUS)
  for (int i = 0; i < incount; ++i) {
    Request* r = request_get(requests[i]);
    if (request_inactive(requests[i]) || !r->done) continue;
    MPI_Comm c;
    int err = harvest(requests, i, nth(statuses, n), &c);
    if (err != MPI_SUCCESS) {
      comm = c;
      rc = statuses == MPI_STATUSES_IGNORE ? err : MPI_ERR_IN_STATUS;
    }
    if (statuses != MPI_STATUSES_IGNORE) errors.push_back(err);
    indices[n++] = i;
  }
  if (rc == MPI_ERR_IN_STATUS)
    for (int k = 0; k < n; ++k) nth(statuses, k)->MPI_ERROR = errors[static_cast<std::size_t>(k)];
  *outcount = n;
  if (n == 0) transport_of_job().polled_in_vain();
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, fn, "");
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  ApiScope api_scope(__func__);
  return some(incount, requests, outcount, indices, statuses, true, "MPI_Waitsome");
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  ApiScope api_scope(__func__);
  return some(incount, requests, outcount, indices, statuses, false, "MPI_Testsome");
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Test", &rc)) return rc;
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test", "flag is NULL");
  if (request_inactive(*request)) {
    *flag = 1;
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  progress();
  Request* r = request_get(*request);
  *flag = r->done;
  if (!r->done) {
    transport_of_job().polled_in_vain();
    return MPI_SUCCESS;
  }
  MPI_Comm comm;
  int err = harvest(request, 0, status, &comm);
  return err == MPI_SUCCESS ? err : raise(comm, err, "MPI_Test", "");
}

int MPI_Request_free(MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Request_free", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Request_free", &rc)) return rc;
  if (*request == MPI_REQUEST_NULL)
    return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "request is MPI_REQUEST_NULL");
  Request* r = request_get(*request);
  const MPI_Comm comm = r->comm;
  const int err = r->grequest.active ? grequest_free(*r) : MPI_SUCCESS;
  if (r->done)
    request_release(*request);
  else
    r->freed = true;
  *request = MPI_REQUEST_NULL;
  return err == MPI_SUCCESS ? err : raise(comm, err, "MPI_Request_free", "the generalized request's free_fn failed");
}

int MPI_Cancel(MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Cancel", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Cancel", &rc)) return rc;
  if (*request == MPI_REQUEST_NULL) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "request is MPI_REQUEST_NULL");
  if (request_inactive(*request))
    return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "the persistent request is not active (MPI_Start it first)");
  if (Request* r = request_get(*request); r->grequest.active) {
    // A generalized request: its cancel_fn, told whether MPI_Grequest_complete has run (MPI-3.1 §12.2).
    const int err = grequest_cancel(*r);
    return err == MPI_SUCCESS ? err : raise(r->comm, err, "MPI_Cancel", "the generalized request's cancel_fn failed");
  }
  if (request_get(*request)->kind == Request::Kind::Generic)
    return raise(request_get(*request)->comm, MPI_ERR_REQUEST, "MPI_Cancel",
                 "a non-blocking collective cannot be cancelled (MPI-3.1 §5.12)");
  // A receive that has not matched is cancelled, and so is a synchronous send to this rank that
  // has not; a send to another rank that its receiver has not matched yet is asked back, and
  // completes cancelled or not when the receiver answers; a send that completed inside MPI_Isend
  // (the transport took it at once) is done, and cancelling it does nothing (the standard lets a
  // cancel fail: MPI_Test_cancelled says which happened).
  if (!request_get(*request)->done) request_cancel(*request);
  return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  ApiScope api_scope(__func__);
  if (!status || !flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test_cancelled", "NULL argument");
  *flag = status->tilempi_cancelled;
  return MPI_SUCCESS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Iprobe", &rc);
  if (!c) return rc;
  if (!check::source(*c, source, "MPI_Iprobe", &rc) || !check::recv_tag(*c, tag, "MPI_Iprobe", &rc)) return rc;
  if (!flag) return raise(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
  *flag = iprobe(source, tag, *c, Lane::User, status);
  if (!*flag) transport_of_job().polled_in_vain();
  return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Probe", &rc);
  if (!c) return rc;
  if (!check::source(*c, source, "MPI_Probe", &rc) || !check::recv_tag(*c, tag, "MPI_Probe", &rc)) return rc;
  while (!iprobe(source, tag, *c, Lane::User, status)) progress_wait();
  return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
  ApiScope api_scope(__func__);
  if (!status || status == MPI_STATUS_IGNORE || !count)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count", "status or count is NULL");
  const Datatype* t = datatype_get(type);
  if (!t) return raise(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Get_count", "datatype handle " + std::to_string(type) + " is not valid");
  std::size_t bytes = status_bytes(*status);
  if (t->size == 0)
    *count = 0;
  else
    *count = bytes % t->size ? MPI_UNDEFINED : static_cast<int>(bytes / t->size);
  return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype type, int* count) {
  ApiScope api_scope(__func__);
  if (!status || status == MPI_STATUS_IGNORE || !count)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_elements", "status or count is NULL");
  const Datatype* t = datatype_get(type);
  if (!t) return raise(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Get_elements", "datatype handle " + std::to_string(type) + " is not valid");
  const long long n = elements_in(*t, status_bytes(*status));
  *count = n < 0 || n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return send_init(buf, count, type, dest, tag, comm, SendMode::Standard, req, "MPI_Send_init");
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return send_init(buf, count, type, dest, tag, comm, SendMode::Synchronous, req, "MPI_Ssend_init");
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return send_init(buf, count, type, dest, tag, comm, SendMode::Ready, req, "MPI_Rsend_init");
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  return send_init(buf, count, type, dest, tag, comm, SendMode::Buffered, req, "MPI_Bsend_init");
}
int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check_recv(buf, count, type, source, tag, comm, req, "MPI_Recv_init", &rc);
  if (!c) return rc;
  return persistent_init(Request::Kind::Recv, SendMode::Standard, buf, static_cast<std::size_t>(count), type, source,
                         tag, *c, req);
}

// Checks that every request is an inactive persistent one, then starts them in order.
static int start_all(int count, MPI_Request requests[], const char* fn) {
  int rc;
  if (!check_requests(count, requests, fn, &rc)) return rc;
  for (int i = 0; i < count; ++i) {
    Request* r = request_get(requests[i]);
    std::string which = count == 1 ? std::string("the request") : "request " + std::to_string(i);
    if (!r) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn, which + " is MPI_REQUEST_NULL");
    if (!r->persistent)
      return raise(r->comm, MPI_ERR_REQUEST, fn, which + " is not persistent (made by MPI_Send_init, MPI_Recv_init, ...)");
    if (r->active) return raise(r->comm, MPI_ERR_REQUEST, fn, which + " is active already");
  }
  for (int i = 0; i < count; ++i) {
    rc = start(requests[i]);
    if (rc != MPI_SUCCESS) {
      MPI_Comm comm = request_get(requests[i])->comm;
      return raise(comm, rc, fn, rc == MPI_ERR_BUFFER ? "the buffered send does not fit in the attached buffer" : "");
    }
  }
  return MPI_SUCCESS;
}

int MPI_Start(MPI_Request* request) {
  ApiScope api_scope(__func__);
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Start", "request pointer is NULL");
  return start_all(1, request, "MPI_Start");
}

int MPI_Startall(int count, MPI_Request requests[]) {
  ApiScope api_scope(__func__);
  return start_all(count, requests, "MPI_Startall");
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return buffered_send(buf, count, type, dest, tag, comm, "MPI_Bsend");
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
  ApiScope api_scope(__func__);
  if (!req) return raise(comm, MPI_ERR_ARG, "MPI_Ibsend", "request pointer is NULL");
  int rc = buffered_send(buf, count, type, dest, tag, comm, "MPI_Ibsend");
  if (rc != MPI_SUCCESS) return rc;
  // The data is in the attached buffer: the user's request is complete at once.
  return isend(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, 0, *comm_get(comm), Lane::User, false, req);
}

int MPI_Buffer_attach(void* buffer, int size) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Buffer_attach", &rc)) return rc;
  if (size < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_attach", "size " + std::to_string(size) + " is negative");
  if (!buffer && size > 0) return raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach", "buffer is NULL");
  if (buffer_attached())
    return raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach", "a buffer is attached already (MPI_Buffer_detach it first)");
  return buffer_attach(buffer, static_cast<std::size_t>(size));
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Buffer_detach", &rc)) return rc;
  if (!buffer_addr || !size) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_detach", "buffer_addr or size is NULL");
  if (!buffer_attached()) return raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_detach", "no buffer is attached");
  void* base;
  std::size_t n;
  buffer_detach(&base, &n);
  std::memcpy(buffer_addr, &base, sizeof base);  // buffer_addr is a void** passed as void*
  *size = static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Improbe", &rc);
  if (!c) return rc;
  if (!check::source(*c, source, "MPI_Improbe", &rc) || !check::recv_tag(*c, tag, "MPI_Improbe", &rc)) return rc;
  if (!flag || !message) return raise(comm, MPI_ERR_ARG, "MPI_Improbe", "flag or message is NULL");
  *flag = improbe(source, tag, *c, message, status);
  if (!*flag) transport_of_job().polled_in_vain();
  return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Mprobe", &rc);
  if (!c) return rc;
  if (!check::source(*c, source, "MPI_Mprobe", &rc) || !check::recv_tag(*c, tag, "MPI_Mprobe", &rc)) return rc;
  if (!message) return raise(comm, MPI_ERR_ARG, "MPI_Mprobe", "message is NULL");
  progress_until([&] { return improbe(source, tag, *c, message, status); });
  return MPI_SUCCESS;
}

// The checks of MPI_Mrecv and MPI_Imrecv; the message's errors go to MPI_COMM_WORLD's handler
// (a message handle names no communicator the caller can see).
static bool check_mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return false;
  Comm* world = comm_get(MPI_COMM_WORLD);
  if (!message) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "message pointer is NULL");  // (a null pointer: as MPICH)
    return false;
  }
  if (!message_valid(*message)) {
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                "message handle " + std::to_string(*message) +
                    " is not one that MPI_Mprobe or MPI_Improbe returned and no receive has taken");
    return false;
  }
  return check::message(*world, buf, count, type, fn, rc);
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_mrecv(buf, count, type, message, "MPI_Imrecv", &rc)) return rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Imrecv", "request pointer is NULL");
  return imrecv(buf, static_cast<std::size_t>(count), type, message, request);
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check_mrecv(buf, count, type, message, "MPI_Mrecv", &rc)) return rc;
  MPI_Request r;
  imrecv(buf, static_cast<std::size_t>(count), type, message, &r);
  MPI_Comm comm = request_get(r)->comm;
  rc = wait(&r, status);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Mrecv", rc == MPI_ERR_TRUNCATE ? "the message is longer than the receive buffer" : "");
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Send)
TILEMPI_PMPI_ALIAS(Ssend)
TILEMPI_PMPI_ALIAS(Rsend)
TILEMPI_PMPI_ALIAS(Isend)
TILEMPI_PMPI_ALIAS(Issend)
TILEMPI_PMPI_ALIAS(Irsend)
TILEMPI_PMPI_ALIAS(Irecv)
TILEMPI_PMPI_ALIAS(Recv)
TILEMPI_PMPI_ALIAS(Sendrecv)
TILEMPI_PMPI_ALIAS(Sendrecv_replace)
TILEMPI_PMPI_ALIAS(Wait)
TILEMPI_PMPI_ALIAS(Waitall)
TILEMPI_PMPI_ALIAS(Testall)
TILEMPI_PMPI_ALIAS(Waitany)
TILEMPI_PMPI_ALIAS(Testany)
TILEMPI_PMPI_ALIAS(Waitsome)
TILEMPI_PMPI_ALIAS(Testsome)
TILEMPI_PMPI_ALIAS(Test)
TILEMPI_PMPI_ALIAS(Request_free)
TILEMPI_PMPI_ALIAS(Cancel)
TILEMPI_PMPI_ALIAS(Test_cancelled)
TILEMPI_PMPI_ALIAS(Iprobe)
TILEMPI_PMPI_ALIAS(Probe)
TILEMPI_PMPI_ALIAS(Get_count)
TILEMPI_PMPI_ALIAS(Get_elements)
TILEMPI_PMPI_ALIAS(Send_init)
TILEMPI_PMPI_ALIAS(Ssend_init)
TILEMPI_PMPI_ALIAS(Rsend_init)
TILEMPI_PMPI_ALIAS(Bsend_init)
TILEMPI_PMPI_ALIAS(Recv_init)
TILEMPI_PMPI_ALIAS(Start)
TILEMPI_PMPI_ALIAS(Startall)
TILEMPI_PMPI_ALIAS(Bsend)
TILEMPI_PMPI_ALIAS(Ibsend)
TILEMPI_PMPI_ALIAS(Buffer_attach)
TILEMPI_PMPI_ALIAS(Buffer_detach)
TILEMPI_PMPI_ALIAS(Improbe)
TILEMPI_PMPI_ALIAS(Mprobe)
TILEMPI_PMPI_ALIAS(Imrecv)
TILEMPI_PMPI_ALIAS(Mrecv)
