// MPI point-to-point entry points: argument checks, then the engine in p2p.cpp.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "p2p.h"
#include "request.h"

using namespace tilempi::mpi;

namespace {

int start_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, bool sync,
               MPI_Request* request, const char* fn) {
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (!check::message(*c, buf, count, type, fn, &rc) || !check::dest(*c, dest, fn, &rc) ||
      !check::send_tag(*c, tag, fn, &rc))
    return rc;
  if (!request) return raise(comm, MPI_ERR_REQUEST, fn, "request pointer is NULL");
  return isend(buf, count, type, dest, tag, *c, Lane::User, sync, request);
}

int start_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request,
               const char* fn) {
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (!check::message(*c, buf, count, type, fn, &rc) || !check::source(*c, source, fn, &rc) ||
      !check::recv_tag(*c, tag, fn, &rc))
    return rc;
  if (!request) return raise(comm, MPI_ERR_REQUEST, fn, "request pointer is NULL");
  return irecv(buf, count, type, source, tag, *c, Lane::User, request);
}

int blocking_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, bool sync,
                  const char* fn) {
  MPI_Request r;
  int rc = start_send(buf, count, type, dest, tag, comm, sync, &r, fn);
  if (rc != MPI_SUCCESS) return rc;
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
    *rc = raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn, "request array is NULL");
    return false;
  }
  for (int i = 0; i < count; ++i) {
    if (requests[i] != MPI_REQUEST_NULL && !request_get(requests[i])) {
      *rc = raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                  "request " + std::to_string(i) + " (handle " + std::to_string(requests[i]) + ") is not valid");
      return false;
    }
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
  status_set(status, r->status);
  int err = r->error;
  *comm = r->comm;
  request_release(requests[i]);
  requests[i] = MPI_REQUEST_NULL;
  return err;
}

MPI_Status* nth(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return blocking_send(buf, count, type, dest, tag, comm, false, "MPI_Send");
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
  ApiScope api_scope(__func__);
  return start_send(buf, count, type, dest, tag, comm, false, req, "MPI_Isend");
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
  ApiScope api_scope(__func__);
  MPI_Request r;
  int rc = start_recv(buf, count, type, source, tag, comm, &r, "MPI_Recv");
  if (rc != MPI_SUCCESS) return rc;
  rc = wait(&r, status);
  return rc == MPI_SUCCESS ? rc : raise(comm, rc, "MPI_Recv", rc == MPI_ERR_TRUNCATE ? "the message is longer than the receive buffer" : "");
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
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Wait", &rc)) return rc;
  if (*request == MPI_REQUEST_NULL) {
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
  progress_until([&] {
    for (int i = 0; i < count; ++i) {
      Request* r = request_get(requests[i]);
      if (r && !r->done) return false;
    }
    return true;
  });
  rc = MPI_SUCCESS;
  MPI_Comm comm = MPI_COMM_WORLD;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) {
      status_set(nth(statuses, i), empty_status());
      continue;
    }
    MPI_Comm c;
    int err = harvest(requests, i, nth(statuses, i), &c);
    if (err != MPI_SUCCESS) {
      comm = c;
      rc = statuses == MPI_STATUSES_IGNORE ? err : MPI_ERR_IN_STATUS;
    }
  }
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
  for (int i = 0; i < count; ++i) any = any || requests[i] != MPI_REQUEST_NULL;
  if (!any) {
    *index = MPI_UNDEFINED;
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  progress_until([&] {
    for (int i = 0; i < count; ++i) {
      Request* r = request_get(requests[i]);
      if (r && r->done) {
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
    if (!r) continue;
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
  return MPI_SUCCESS;
}

static int some(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[],
                bool block, const char* fn) {
  int rc;
  if (!check_requests(incount, requests, fn, &rc)) return rc;
  if (!outcount || (incount > 0 && !indices)) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "outcount or indices is NULL");
  bool any = false;
  for (int i = 0; i < incount; ++i) any = any || requests[i] != MPI_REQUEST_NULL;
  if (!any) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  auto ready = [&] {
    for (int i = 0; i < incount; ++i) {
      Request* r = request_get(requests[i]);
      if (r && r->done) return true;
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
  for (int i = 0; i < incount; ++i) {
    Request* r = request_get(requests[i]);
    if (!r || !r->done) continue;
    MPI_Comm c;
    int err = harvest(requests, i, nth(statuses, n), &c);
    if (err != MPI_SUCCESS) {
      comm = c;
      rc = statuses == MPI_STATUSES_IGNORE ? err : MPI_ERR_IN_STATUS;
    }
    indices[n++] = i;
  }
  *outcount = n;
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
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Test", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Test", &rc)) return rc;
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test", "flag is NULL");
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    status_set(status, empty_status());
    return MPI_SUCCESS;
  }
  progress();
  Request* r = request_get(*request);
  *flag = r->done;
  if (!r->done) return MPI_SUCCESS;
  MPI_Comm comm;
  int err = harvest(request, 0, status, &comm);
  return err == MPI_SUCCESS ? err : raise(comm, err, "MPI_Test", "");
}

int MPI_Request_free(MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Request_free", &rc)) return rc;
  if (*request == MPI_REQUEST_NULL)
    return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "request is MPI_REQUEST_NULL");
  Request* r = request_get(*request);
  if (r->done)
    request_release(*request);
  else
    r->freed = true;
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  if (!request) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "request pointer is NULL");
  if (!check_requests(1, request, "MPI_Cancel", &rc)) return rc;
  if (*request == MPI_REQUEST_NULL) return raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "request is MPI_REQUEST_NULL");
  request_cancel(*request);  // sends cannot be cancelled once started: the request completes normally
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
  std::size_t bytes = status_bytes(*status);
  std::size_t basic = basic_size(t->basic);
  if (basic == 0)
    *count = static_cast<int>(bytes);
  else
    *count = bytes % basic ? MPI_UNDEFINED : static_cast<int>(bytes / basic);
  return MPI_SUCCESS;
}

}  // extern "C"
