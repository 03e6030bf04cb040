// The progress engine's requests: their life (release, cancel, persistent requests), waits, and
// statuses (p2p_state.h).
#include <string>

#include "hooks.h"
#include "p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

void status_set_bytes(MPI_Status& s, std::size_t bytes) {
  s.tilempi_count_lo = static_cast<int>(static_cast<std::uint32_t>(bytes));
  s.tilempi_count_hi = static_cast<int>(static_cast<std::uint64_t>(bytes) >> 32);
}

std::size_t status_bytes(const MPI_Status& s) {
  return static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_lo)) |
         (static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_hi)) << 32);
}

void status_set(MPI_Status* out, const MPI_Status& in) {
  if (!out || out == MPI_STATUS_IGNORE) return;
  const int error = out->MPI_ERROR;
  *out = in;
  out->MPI_ERROR = error;
}

Request* request_get(MPI_Request h) {
  ProgressEngine& e = engine();
  if (h <= 0 || static_cast<std::size_t>(h) >= e.requests.size()) return nullptr;
  Request* r = e.requests[h].get();
  return r && r->live ? r : nullptr;
}

void request_release(MPI_Request h) {
  ProgressEngine& e = engine();
  if (h <= kSendComplete || static_cast<std::size_t>(h) >= e.requests.size()) return;
  Request* r = e.requests[h].get();
  if (!r || !r->live) return;
  release(e, h, *r);
}

bool request_cancel(MPI_Request h) {
  ProgressEngine& e = engine();
  Request* r = e.requests[h].get();
  if (r->kind == Request::Kind::Send) {
    // A synchronous send to this rank waits, unmatched, in this rank's own unexpected queue; a
    // send to another rank is asked back from its receiver (p2p_cancel.cpp).
    auto u = std::find_if(e.unexpected.begin(), e.unexpected.end(),
                          [h](const Unexpected& x) { return x.sync_sender == h; });
    if (u == e.unexpected.end()) return ask_cancel(h);  // a send to another rank
    e.unexpected.erase(u);
    r->status.tilempi_cancelled = 1;
    complete(h);
    return true;
  }
  if (!e.posted.remove(h, *r)) return false;
  r->status.tilempi_cancelled = 1;
  r->status.MPI_SOURCE = MPI_ANY_SOURCE;
  r->status.MPI_TAG = MPI_ANY_TAG;
  complete(h);
  return true;
}

bool request_inactive(MPI_Request h) {
  const Request* r = request_get(h);
  return !r || (r->persistent && !r->active);
}

void request_finish(MPI_Request* h) {
  Request* r = request_get(*h);
  if (r && r->persistent) {
    r->active = false;
    return;
  }
  request_release(*h);
  *h = MPI_REQUEST_NULL;
}

int persistent_init(Request::Kind kind, SendMode mode, const void* buf, std::size_t count, MPI_Datatype type,
                    int peer, int tag, Comm& comm, MPI_Request* request) {
  MPI_Request h = new_request(kind, comm.handle);
  Request* r = engine().requests[h].get();
  r->persistent = true;
  r->done = true;  // inactive
  r->mode = mode;
  r->send_buf = buf;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = datatype_get(type);
  r->peer = peer;
  r->tag = tag;
  r->source = peer;
  hold_type(*r, r->type);
  r->held_comm = comm_hold(comm.handle);
  *request = h;
  return MPI_SUCCESS;
}

int start(MPI_Request h) {
  Request* r = request_get(h);
  Comm* c = comm_find(r->comm);  // (held by the request: the user may have freed the handle)
  if (!c) return MPI_ERR_COMM;
  if (r->kind == Request::Kind::Send && r->mode == SendMode::Buffered) {
    std::string detail;
    int rc = bsend_typed(r->send_buf, r->count, *r->type, r->peer, r->tag, *c, &detail);
    if (rc != MPI_SUCCESS) return rc;
    r->status = MPI_Status{};
    r->error = MPI_SUCCESS;
    r->done = true;
    r->active = true;
    return MPI_SUCCESS;
  }
  r->done = false;
  r->error = MPI_SUCCESS;
  r->status = MPI_Status{};
  r->op = kDone;
  r->staging = {};
  r->received = 0;
  r->active = true;
  if (r->kind == Request::Kind::Send)
    send_on(h, r->send_buf, r->count, *r->type, r->peer, r->tag, *c, Lane::User, r->mode == SendMode::Synchronous);
  else
    recv_on(engine(), h, r, r->buf, r->count, r->type, r->peer, r->tag, *c, Lane::User);
  return MPI_SUCCESS;
}

MPI_Request new_generic_request(MPI_Comm comm) { return new_request(Request::Kind::Generic, comm); }

void complete_generic_request(MPI_Request h, int error) {
  complete_generic_request(h, error, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, error, 0, 0, 0});
}

void complete_generic_request(MPI_Request h, int error, const MPI_Status& status) {
  Request* r = engine().requests[h].get();
  r->error = error;
  r->status = status;
  complete(h);
}

// The one answer to "is time real here?" is the runtime's (set by MPI_Init from the transport's
// capabilities): the shortcuts and the waits read the same flag.
bool wait_may_skip_progress() { return runtime().real_time; }

int wait(MPI_Request* request, MPI_Status* status) {
  MPI_Request h = *request;
  Request* r = request_get(h);
  if (!r) {
    status_set(status, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
    return MPI_SUCCESS;
  }
  progress_until([&] {
    if (r->done) return true;
    expect_completion_of(*r);
    return false;
  });
  if (r->grequest.active) [[unlikely]]
    grequest_conclude(*r);
  status_set(status, r->status);
  int rc = r->error;
  request_finish(request);
  return rc;
}

int waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    int e = wait(&requests[i], st);
    if (e != MPI_SUCCESS) rc = statuses == MPI_STATUSES_IGNORE ? e : MPI_ERR_IN_STATUS;
  }
  return rc;
}

int first_invalid_request(int count, const MPI_Request* requests) {
  ProgressEngine& e = engine();
  const std::size_t n = e.requests.size();
  for (int i = 0; i < count; ++i) {
    const MPI_Request h = requests[i];
    if (h == MPI_REQUEST_NULL) continue;
    if (h < 0 || static_cast<std::size_t>(h) >= n || !e.requests[h] || !e.requests[h]->live) return i;
  }
  return -1;
}

namespace pt2pt {

// A send or receive in flight ends with its own operation's completion; a receive not matched
// yet only with an arrival; nothing else acts on a completion meanwhile (as mark_awaited).
void expect_completion_of(const Request& r) {
  if (r.kind == Request::Kind::Generic || !nbc_idle() || !onesided_idle()) return;
  if (r.op != kDone)
    transport_of_job().expect_completions(1, r.op);
  else if (r.kind == Request::Kind::Recv)
    transport_of_job().expect_completions(SIZE_MAX);
}

namespace {

// MPI_Waitall's requests: whether the transport may be told how many of their operations must
// still complete before the wait can end (see Transport::expect_completions). Only where nothing
// acts on a completion before then: every request a send or receive, no non-blocking collective
// or drain and no window, which progress() would advance at every wake-up. If so, marks them
// awaited, and their operations in flight (those that start later are marked by track()).
bool mark_awaited(ProgressEngine& e, const MPI_Request* requests, int count) {
  if (!nbc_idle() || !onesided_idle()) return false;
  for (int i = 0; i < count; ++i) {
    const MPI_Request h = requests[i];
    if (h != MPI_REQUEST_NULL && e.requests[h]->kind == Request::Kind::Generic) return false;
  }
  for (int i = 0; i < count; ++i) {
    const MPI_Request h = requests[i];
    if (h == MPI_REQUEST_NULL) continue;
    Request& r = *e.requests[h];
    if (r.awaited || r.done) continue;  // (the same handle twice)
    r.awaited = true;
    if (r.op == kDone) continue;
    const auto at = find_in_flight(e, r.op);
    if (at != e.in_flight.end() && at->op == r.op && !at->awaited) {
      at->awaited = true;
      ++e.awaited_in_flight;
    }
  }
  return true;
}

void unmark_awaited(ProgressEngine& e, const MPI_Request* requests, int count) {
  for (int i = 0; i < count; ++i)
    if (const MPI_Request h = requests[i]; h != MPI_REQUEST_NULL) e.requests[h]->awaited = false;
  if (e.awaited_in_flight == 0) return;
  for (ProgressEngine::InFlight& f : e.in_flight) f.awaited = false;  // (not expected: the wait ended)
  e.awaited_in_flight = 0;
}

}  // namespace
}  // namespace pt2pt

int waitall_requests(int count, MPI_Request* requests, MPI_Status* statuses, MPI_Comm* err_comm) {
  ProgressEngine& e = engine();
  // The requests' slots stay put while they are live (and the handles are checked), so one
  // lookup each; and a request that is done stays done until it is harvested below, so the
  // wait resumes its scan where it stopped instead of starting over on every pass.
  int first = 0;
  const bool awaited = mark_awaited(e, requests, count);
  progress_until([&] {
    for (; first < count; ++first) {
      const MPI_Request h = requests[first];
      if (h != MPI_REQUEST_NULL && !e.requests[h]->done) {
        if (awaited) transport_of_job().expect_completions(e.awaited_in_flight);
        return false;
      }
    }
    return true;
  });
  if (awaited) unmark_awaited(e, requests, count);
  // MPI_ERROR is written in every status if one request failed (MPI_ERR_IN_STATUS), else in none.
  // (A generalized request's error is its callbacks': they run first.)
  bool in_status = false;
  for (int i = 0; i < count; ++i) {
    const MPI_Request h = requests[i];
    Request* r = h == MPI_REQUEST_NULL ? nullptr : e.requests[h].get();
    if (!r || !r->live || (r->persistent && !r->active)) continue;
    if (r->grequest.active) [[unlikely]]
      grequest_conclude(*r);
    in_status = in_status || (statuses != MPI_STATUSES_IGNORE && r->error != MPI_SUCCESS);
  }
  int rc = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    const MPI_Request h = requests[i];
    Request* r = h == MPI_REQUEST_NULL ? nullptr : e.requests[h].get();
    if (!r || !r->live || (r->persistent && !r->active)) {  // (not live: the same handle twice)
      status_set(st, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
      if (in_status) st->MPI_ERROR = MPI_SUCCESS;
      continue;
    }
    if (st != MPI_STATUS_IGNORE) {  // status_set(), inline
      const int error = st->MPI_ERROR;
      *st = r->status;
      st->MPI_ERROR = in_status ? r->error : error;
    }
    if (r->error != MPI_SUCCESS) {
      *err_comm = r->comm;
      rc = statuses == MPI_STATUSES_IGNORE ? r->error : MPI_ERR_IN_STATUS;
    }
    if (r->persistent) {
      r->active = false;
    } else {
      if (h != kSendComplete) release(e, h, *r);
      requests[i] = MPI_REQUEST_NULL;
    }
  }
  return rc;
}

}  // namespace tilempi::mpi
