// Generalized requests (MPI-3.1 §12.2: MPI_Grequest_start, MPI_Grequest_complete), what their
// callbacks use to fill a status (MPI_Status_set_cancelled, MPI_Status_set_elements(_x), §12.3),
// MPI_Request_get_status (§3.7.3), and MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace.
//
// A generalized request is a Generic request (request.h) that MPI_Grequest_complete completes.
// Its callbacks run where the standard puts them: query_fn and then free_fn in the wait or test
// that completes it (grequest_conclude, called where a completed request's status is read),
// query_fn alone in MPI_Request_get_status, free_fn in MPI_Request_free or, when the request was
// freed before it completed, in MPI_Grequest_complete; cancel_fn in MPI_Cancel.
//
// MPI_Isendrecv is a Generic request over a send and a receive; progress() completes it when
// both have completed (isendrecv_progress), with the receive's status.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "p2p.h"
#include "request.h"
#include "tilempi/transport/rank_local.h"

using namespace tilempi::mpi;

namespace {

int bad(MPI_Comm comm, int cls, const char* fn, const std::string& what) { return raise(comm, cls, fn, what); }

// The callbacks' two signatures: C takes values, Fortran takes everything by reference and
// returns its code in a last argument.
using FQuery = void(MPI_Aint* extra_state, MPI_Fint* status, MPI_Fint* ierr);
using FFree = void(MPI_Aint* extra_state, MPI_Fint* ierr);
using FCancel = void(MPI_Aint* extra_state, MPI_Fint* complete, MPI_Fint* ierr);

int call_query(const GrequestCalls& g, MPI_Status* status) {
  if (!g.query) return MPI_SUCCESS;
  if (!g.fortran) return reinterpret_cast<MPI_Grequest_query_function*>(g.query)(g.extra_state, status);
  MPI_Aint extra = reinterpret_cast<MPI_Aint>(g.extra_state);
  MPI_Fint ierr = MPI_SUCCESS;
  reinterpret_cast<FQuery*>(g.query)(&extra, reinterpret_cast<MPI_Fint*>(status), &ierr);
  return ierr;
}

int call_free(const GrequestCalls& g) {
  if (!g.free) return MPI_SUCCESS;
  if (!g.fortran) return reinterpret_cast<MPI_Grequest_free_function*>(g.free)(g.extra_state);
  MPI_Aint extra = reinterpret_cast<MPI_Aint>(g.extra_state);
  MPI_Fint ierr = MPI_SUCCESS;
  reinterpret_cast<FFree*>(g.free)(&extra, &ierr);
  return ierr;
}

int call_cancel(const GrequestCalls& g, bool complete) {
  if (!g.cancel) return MPI_SUCCESS;
  if (!g.fortran) return reinterpret_cast<MPI_Grequest_cancel_function*>(g.cancel)(g.extra_state, complete ? 1 : 0);
  MPI_Aint extra = reinterpret_cast<MPI_Aint>(g.extra_state);
  MPI_Fint flag = complete ? 1 : 0, ierr = MPI_SUCCESS;  // gfortran's .TRUE. and .FALSE.
  reinterpret_cast<FCancel*>(g.cancel)(&extra, &flag, &ierr);
  return ierr;
}

MPI_Status empty_status() {
  MPI_Status s{};
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  return s;
}

// ---- MPI_Isendrecv -----------------------------------------------------------------------------

struct Sendrecv {
  MPI_Request request = MPI_REQUEST_NULL;  ///< the user's (Generic)
  MPI_Request send = MPI_REQUEST_NULL;
  MPI_Request recv = MPI_REQUEST_NULL;
  std::vector<char> packed;                ///< MPI_Isendrecv_replace: the data sent, packed
};

struct SendrecvState {
  std::vector<std::unique_ptr<Sendrecv>> pending;
};

SendrecvState& sendrecv_state() {
  static tilempi::transport::RankLocal<SendrecvState> s;  // per rank (see rank_local.h)
  return s.get();
}

/// Starts the send and the receive; both arguments' checks come first, so that a bad one starts
/// neither. `packed` (for _replace) holds the data to send instead of sendbuf.
int isendrecv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
              MPI_Request* request, bool replace) {
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* st = nullptr;
  const Datatype* rt = nullptr;
  if (!(st = check::message_type(*c, sendbuf, sendcount, sendtype, fn, &rc)) || !check::dest(*c, dest, fn, &rc) ||
      !check::send_tag(*c, sendtag, fn, &rc) || !(rt = check::message_type(*c, recvbuf, recvcount, recvtype, fn, &rc)) ||
      !check::source(*c, source, fn, &rc) || !check::recv_tag(*c, recvtag, fn, &rc))
    return rc;
  if (!request) return bad(comm, MPI_ERR_ARG, fn, "request is NULL");
  auto op = std::make_unique<Sendrecv>();
  if (replace) {
    // The buffer is received into while the send may still be reading it: send a packed copy.
    op->packed.resize(static_cast<std::size_t>(sendcount) * st->size);
    if (!op->packed.empty()) pack(sendbuf, static_cast<std::size_t>(sendcount), *st, op->packed.data());
    rc = isend(op->packed.data(), op->packed.size(), MPI_BYTE, dest, sendtag, *c, Lane::User, false, &op->send);
  } else {
    rc = isend(sendbuf, static_cast<std::size_t>(sendcount), *st, dest, sendtag, *c, Lane::User, false, &op->send);
  }
  if (rc != MPI_SUCCESS) return bad(comm, rc, fn, "starting the send failed");
  rc = irecv(recvbuf, static_cast<std::size_t>(recvcount), *rt, source, recvtag, *c, Lane::User, &op->recv);
  if (rc != MPI_SUCCESS) {
    MPI_Request_free(&op->send);  // it completes on its own
    return bad(comm, rc, fn, "starting the receive failed");
  }
  op->request = *request = new_generic_request(comm);
  sendrecv_state().pending.push_back(std::move(op));
  isendrecv_progress();  // both may be complete already (MPI_PROC_NULL, a message waiting)
  return MPI_SUCCESS;
}

/// MPI_Status_set_elements(_x): the bytes that many basic elements of the type take, so that
/// MPI_Get_elements(_x) gives count back and MPI_Get_count the whole elements among them.
int set_elements(const char* fn, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!status || status == MPI_STATUS_IGNORE) return bad(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "status is NULL or MPI_STATUS_IGNORE");
  const Datatype* t = datatype_get(datatype);
  if (!t) return bad(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(datatype) + " is not valid");
  if (count < 0) return bad(MPI_COMM_WORLD, MPI_ERR_COUNT, fn, "count " + std::to_string(count) + " is negative");
  status_set_bytes(*status, bytes_of_elements(*t, static_cast<std::size_t>(count)));
  return MPI_SUCCESS;
}

}  // namespace

namespace tilempi::mpi {

void grequest_conclude(Request& r) {
  r.status.MPI_ERROR = MPI_SUCCESS;
  const int queried = call_query(r.grequest, &r.status);
  const int freed = call_free(r.grequest);
  r.grequest.active = false;
  // The call returns the last callback's failure, free_fn's (MPI-3.1 §12.2), else query_fn's.
  r.error = freed != MPI_SUCCESS ? freed : queried;
  r.status.MPI_ERROR = r.error;
}

int grequest_free(Request& r) {
  if (!r.done) return MPI_SUCCESS;  // MPI_Grequest_complete runs free_fn (r.freed is set)
  r.grequest.active = false;
  return call_free(r.grequest);
}

int grequest_cancel(Request& r) { return call_cancel(r.grequest, r.done); }

void isendrecv_progress() {
  auto& pending = sendrecv_state().pending;
  for (std::size_t i = 0; i < pending.size();) {
    Sendrecv& op = *pending[i];
    const Request* s = request_get(op.send);
    const Request* r = request_get(op.recv);
    if ((s && !s->done) || (r && !r->done)) {
      ++i;
      continue;
    }
    // Both complete: harvested here without a wait (which would run progress, and this again).
    MPI_Status status = r ? r->status : empty_status();
    const int err = r && r->error != MPI_SUCCESS ? r->error : (s ? s->error : MPI_SUCCESS);
    status.MPI_ERROR = err;
    request_finish(&op.recv);
    request_finish(&op.send);
    const MPI_Request h = op.request;
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
    complete_generic_request(h, err, status);
  }
}

/// MPI_Grequest_start with the callbacks in either language (the Fortran binding's too).
int grequest_start(bool fortran, void (*query)(), void (*free)(), void (*cancel)(), void* extra_state,
                   MPI_Request* request) {
  const char* fn = "MPI_Grequest_start";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!request) return bad(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "request is NULL");
  *request = new_generic_request(MPI_COMM_WORLD);  // its errors go where MPICH sends them
  Request* r = request_get(*request);
  r->grequest = GrequestCalls{true, fortran, query, free, cancel, extra_state};
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi

extern "C" {

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return grequest_start(false, reinterpret_cast<void (*)()>(query_fn), reinterpret_cast<void (*)()>(free_fn),
                        reinterpret_cast<void (*)()>(cancel_fn), extra_state, request);
}

int MPI_Grequest_complete(MPI_Request request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Grequest_complete";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  Request* r = request_get(request);
  if (!r || !r->grequest.active || r->done)
    return bad(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
               "request " + std::to_string(request) + " is not a generalized request that is still pending");
  int err = MPI_SUCCESS;
  if (r->freed) {  // MPI_Request_free came first: the request goes now, and free_fn with it
    r->grequest.active = false;
    err = call_free(r->grequest);
  }
  complete_generic_request(request, MPI_SUCCESS);
  return err == MPI_SUCCESS ? err : bad(MPI_COMM_WORLD, err, fn, "the generalized request's free_fn failed");
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  ApiScope api_scope(__func__);
  if (!status || status == MPI_STATUS_IGNORE)
    return bad(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_cancelled", "status is NULL or MPI_STATUS_IGNORE");
  status->tilempi_cancelled = flag ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  ApiScope api_scope(__func__);
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  ApiScope api_scope(__func__);
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Request_get_status";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!flag) return bad(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "flag is NULL");
  if (request != MPI_REQUEST_NULL && !request_get(request))
    return bad(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn, "request " + std::to_string(request) + " is not valid");
  if (request_inactive(request)) {
    *flag = 1;
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  Request* r = request_get(request);
  if (!r->done) progress();
  *flag = r->done ? 1 : 0;
  if (!r->done) return MPI_SUCCESS;
  // The request stays as it is (a later wait or test frees it); a generalized one is asked for
  // its status, which query_fn writes into the user's status (or a scratch one).
  if (r->grequest.active) {
    MPI_Status s = r->status;
    const int err = call_query(r->grequest, &s);
    status_set(status, s);
    return err == MPI_SUCCESS ? err : bad(r->comm, err, fn, "the generalized request's query_fn failed");
  }
  status_set(status, r->status);
  return r->error == MPI_SUCCESS ? MPI_SUCCESS : bad(r->comm, r->error, fn, "the request failed");
}

int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return isendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                   recvtag, comm, request, false);
}

int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  return isendrecv("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, buf, count, datatype, source, recvtag,
                   comm, request, true);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Grequest_start)
TILEMPI_PMPI_ALIAS(Grequest_complete)
TILEMPI_PMPI_ALIAS(Status_set_cancelled)
TILEMPI_PMPI_ALIAS(Status_set_elements)
TILEMPI_PMPI_ALIAS(Status_set_elements_x)
TILEMPI_PMPI_ALIAS(Request_get_status)
TILEMPI_PMPI_ALIAS(Isendrecv)
TILEMPI_PMPI_ALIAS(Isendrecv_replace)
