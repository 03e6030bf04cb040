// The progress engine's state and the small steps every point-to-point path shares (internal to
// the p2p_*.cpp files and the collective lane, coll/lane.cpp). The files, by job:
//   p2p.cpp            matching: sends and receives begin, arrivals match posted receives or
//                      queue as unexpected, the progress pass
//   p2p_requests.cpp   requests: their life, waits, persistent requests, statuses
//   p2p_bsend.cpp      buffered sends and the attached buffer
//   p2p_mprobe.cpp     matched probe (MPI_Improbe, MPI_Imrecv)
//   p2p_shortcuts.cpp  the real-time shortcuts of blocking sends and receives (and p2p_fast.h)
//   coll/lane.cpp      the collective lane's waits and the error notices of failed calls
// Envelopes: envelope.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "envelope.h"
#include "holds.h"
#include "p2p.h"
#include "payload_buffer.h"
#include "posted_receives.h"
#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi::pt2pt {

using transport::Arrival;
using transport::kDone;

/// A message that arrived before its receive was posted.
struct Unexpected {
  std::uint64_t context = 0;
  int source = 0;  // rank in the communicator
  int tag = 0;
  std::size_t size = 0;
  bool have_data = false;           // payload copied into data (buffered or loopback)
  transport::OpId fetch = kDone;    // payload still being copied into data
  PayloadBuffer data;
  Arrival arrival;                  // rendezvous: fetch from the transport once matched
  MPI_Request sync_sender = MPI_REQUEST_NULL;  // loopback synchronous send waiting for the match
};

/// A message taken off the unexpected queue by a matched probe, until MPI_Mrecv takes it.
struct Message {
  Unexpected u;
  MPI_Comm comm = MPI_COMM_NULL;
};

/// The attached buffer of MPI_Buffer_attach: segments in use, by offset.
struct BsendBuffer {
  char* base = nullptr;
  std::size_t size = 0;
  std::map<std::size_t, std::size_t> used;  // offset -> size
};

/// A blocking receive waiting without a request (recv_direct): it matches like a posted receive
/// at the end of the (then empty) posted queue.
struct DirectRecv {
  std::uint64_t context = 0;
  MPI_Comm comm = MPI_COMM_NULL;  // (for describe_pending)
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
  void* buf = nullptr;
  std::size_t capacity = 0;
  bool matched = false;
  transport::OpId fetch = kDone;
  int got_source = 0;
  int got_tag = 0;
  std::size_t size = 0;
};

/// The handle every send that completed inside MPI_Isend (the transport took it at once) gets:
/// one permanent request, done, with a send's empty status, shared by all of them, so that such a
/// send costs no request of its own. A wait or test on it sets the caller's handle to
/// MPI_REQUEST_NULL as for any other; releasing it does nothing; it is never pending, so nothing
/// else (cancel, free, completion) ever changes it.
constexpr MPI_Request kSendComplete = kSendCompleteRequest;

struct ProgressEngine {
  ProgressEngine() {
    requests.push_back(std::make_unique<Request>());
    requests[kSendComplete]->reset(Request::Kind::Send, MPI_COMM_WORLD);
    requests[kSendComplete]->done = true;
  }
  // Handle h names requests[h] while it is live; handle 0 is MPI_REQUEST_NULL. A released
  // request stays in its slot for the next one (no malloc per message), except in slots above
  // kKeptSlots, so that a burst of many outstanding requests does not hold memory for ever.
  std::vector<std::unique_ptr<Request>> requests{1};
  std::vector<MPI_Request> free_handles;
  PostedReceives posted;                               // receives posted, not matched yet
  std::list<Unexpected> unexpected;                    // arrivals in arrival order
  // Transport sends and fetches: the request and what its completion check needs, so that the
  // check of every pending request on every progress pass reads this array only, not each
  // request's own object (the sim's 64-rank alltoall: 126 pending per rank, ~170 passes each).
  // Kept in ascending order of op (the transports number operations in the order they start,
  // so a push is almost always an append), so that an operation the transport lists as finished
  // is found by a binary search rather than a walk over every pending one.
  struct InFlight {
    transport::OpId op;
    MPI_Request h;
    bool send;
    bool awaited;  // its request's awaited
  };
  std::vector<InFlight> in_flight;
  std::size_t awaited_in_flight = 0;  // entries of in_flight with awaited set
  std::vector<transport::OpId> finished;  // progress_messages: what the transport handed over
  std::vector<std::unique_ptr<Message>> messages{2};   // MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC
  std::vector<MPI_Message> free_messages;
  BsendBuffer bsend;
  DirectRecv* direct = nullptr;                        // the blocking receive in progress, if direct
  // Error notices of failed collective calls (coll/lane.cpp): the collective lane's context and
  // the notice's tag, which names the call. Kept apart from the unexpected queue, whose every
  // receive would otherwise scan them.
  struct Notice {
    std::uint64_t context;
    int tag;
  };
  std::vector<Notice> notices;
  std::vector<transport::OpId> notice_fetches;  // a notice taken out of the transport, if not at once
  // Control messages between ranks (p2p_cancel.cpp): the transport's sends and fetches of them that
  // did not complete at once (send: true), asked about until they have.
  std::vector<std::pair<transport::OpId, bool>> control_ops;
};

// Per rank (see rank_local.h). At namespace scope and constant-initialised, so that engine(),
// called several times on every message's path, needs no guard of a function-local static.
extern constinit transport::RankLocal<ProgressEngine> g_engine;
inline ProgressEngine& engine() { return g_engine.get(); }

constexpr MPI_Request kKeptSlots = 1024;

// Inline on the message paths (a call's prologue and epilogue cost as much as its work here).
#define TILEMPI_HOT [[gnu::always_inline]] inline

/// The context of comm's lane.
inline std::uint64_t lane_context(const Comm& comm, Lane lane) { return comm.context + (lane == Lane::Coll ? 1 : 0); }

// A fresh request; *out is its slot (one lookup: the caller's stores then go through the same
// pointer as reset()'s, and the compiler drops the ones they repeat).
TILEMPI_HOT MPI_Request new_request(ProgressEngine& e, Request::Kind kind, MPI_Comm comm, Request** out) {
  MPI_Request h;
  if (!e.free_handles.empty()) [[likely]] {
    h = e.free_handles.back();
    e.free_handles.pop_back();
    if (!e.requests[h]) e.requests[h] = std::make_unique<Request>();
  } else {
    e.requests.push_back(std::make_unique<Request>());
    h = static_cast<MPI_Request>(e.requests.size() - 1);
  }
  Request* r = e.requests[h].get();
  r->reset(kind, comm);
  *out = r;
  return h;
}

TILEMPI_HOT MPI_Request new_request(ProgressEngine& e, Request::Kind kind, MPI_Comm comm) {
  Request* r;
  return new_request(e, kind, comm, &r);
}

inline MPI_Request new_request(Request::Kind kind, MPI_Comm comm) { return new_request(engine(), kind, comm); }

TILEMPI_HOT bool matches(const Request& r, std::uint64_t context, int source, int tag) {
  return r.context == context && envelope::accepts(r.source, r.tag, source, tag);
}

inline bool matches(const Unexpected& u, std::uint64_t context, int source, int tag) {
  return u.context == context && envelope::accepts(source, tag, u.source, u.tag);
}

void let_go(Request& r);

// A receive into a derived type holds it until the request is released (holds.h).
TILEMPI_HOT void hold_type(Request& r, const Datatype* t) {
  if (!t->predefined && !r.held_type) [[unlikely]] {
    datatype_hold(t);
    r.held_type = t;
  }
}

// Release live request h (r), not kSendComplete.
inline void release(ProgressEngine& e, MPI_Request h, Request& r) {
  if (r.held_type || r.held_comm) [[unlikely]]
    let_go(r);
  r.live = false;
  if (h > kKeptSlots) [[unlikely]]
    e.requests[h].reset();
  else if (r.staging.capacity() > 0) [[unlikely]]
    r.staging = {};
  e.free_handles.push_back(h);
}

void complete_slow(MPI_Request h, Request& r);

// r is request h.
inline void complete(MPI_Request h, Request& r) {
  r.done = true;
  r.op = kDone;
  if (r.bsend_size || r.freed || r.cancel_ask != Request::CancelAsk::None) [[unlikely]]
    complete_slow(h, r);
}

inline void complete(MPI_Request h) { complete(h, *engine().requests[h]); }

TILEMPI_HOT void set_recv_status(Request& r, int source, int tag, std::size_t size) {
  std::size_t capacity = r.count * r.type->size;
  r.received = std::min(size, capacity);
  r.status.MPI_SOURCE = source;
  r.status.MPI_TAG = tag;
  r.status.MPI_ERROR = size > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  r.error = r.status.MPI_ERROR;
  status_set_bytes(r.status, r.received);
}

TILEMPI_HOT void finish_recv(MPI_Request h, Request& r) {
  if (!r.type->contiguous) {
    unpack(r.staging.data(), r.received, r.count, *r.type, r.buf);
    r.staging = {};
  }
  complete(h, r);
}

// Where op is, or would be, in in_flight.
inline std::vector<ProgressEngine::InFlight>::iterator find_in_flight(ProgressEngine& e, transport::OpId op) {
  return std::lower_bound(e.in_flight.begin(), e.in_flight.end(), op,
                          [](const ProgressEngine::InFlight& f, transport::OpId id) { return f.op < id; });
}

// A transport operation of request h, pending: into in_flight at its place in op order.
inline void track(ProgressEngine& e, MPI_Request h, transport::OpId op, bool send, bool awaited) {
  e.awaited_in_flight += awaited;
  if (e.in_flight.empty() || e.in_flight.back().op < op) [[likely]] {
    e.in_flight.push_back({op, h, send, awaited});
    return;
  }
  e.in_flight.insert(find_in_flight(e, op), {op, h, send, awaited});
}

// Start moving a matched message from the transport into the receive (r is request h).
TILEMPI_HOT void start_fetch(ProgressEngine& e, transport::Transport& tp, MPI_Request h, Request& r, const Arrival& a) {
  void* dst = r.buf;
  if (!r.type->contiguous) {
    r.staging.resize(r.received);
    dst = r.staging.data();
  }
  r.op = tp.fetch(a, dst, r.received);
  if (r.op == kDone)
    finish_recv(h, r);
  else
    track(e, h, r.op, r.kind == Request::Kind::Send, r.awaited);
}

// A standard-mode send of a contiguous type to another rank on a transport in real time,
// straight to the transport: false (nothing sent) when it must take the general path; else
// *pending is `done` if the transport took it at once, or a request to wait for.
inline bool send_now(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                     Lane lane, MPI_Request done, MPI_Request* pending) {
  Runtime& rt = runtime();  // (the engine only if a request is needed)
  if (dest == MPI_PROC_NULL || (dest == comm.rank && !comm.inter) || !t.contiguous || !rt.real_time) return false;
  const transport::OpId op = rt.transport->send(comm.peers()[dest], envelope::encode(lane_context(comm, lane), comm.rank, tag),
                                                buf, count * t.size, transport::SendMode::Standard);
  if (op == kDone) [[likely]] {
    *pending = done;
    return true;
  }
  ProgressEngine& e = engine();
  Request* r;
  *pending = new_request(e, Request::Kind::Send, comm.handle, &r);
  r->op = op;
  r->peer = dest;
  r->send_number = envelope::g_last_send_number;
  track(e, *pending, op, true, false);
  return true;
}

void deliver_unexpected(MPI_Request h, Unexpected& u);

// Begin a receive on request h (r): the oldest matching unexpected message, else posted.
TILEMPI_HOT void recv_on(ProgressEngine& e, MPI_Request h, Request* r, void* buf, std::size_t count, const Datatype* type,
                         int source, int tag, Comm& comm, Lane lane) {
  r->buf = buf;
  r->count = count;
  r->type = type;
  hold_type(*r, type);
  r->source = source;
  r->tag = tag;
  r->context = lane_context(comm, lane);
  if (source == MPI_PROC_NULL) {
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    complete(h);
    return;
  }
  for (auto it = e.unexpected.begin(); it != e.unexpected.end(); ++it) {
    if (matches(*it, r->context, source, tag)) {
      Unexpected u = std::move(*it);
      e.unexpected.erase(it);
      deliver_unexpected(h, u);
      return;
    }
  }
  e.posted.push(h, *r);
}

// Defined by job (see the list above).
void send_on(MPI_Request h, const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
             Lane lane, bool synchronous);
int bsend_typed(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                std::string* detail);
/// The half of progress() that moves point-to-point messages, and the other half (what runs on
/// top of point-to-point).
void progress_messages(ProgressEngine& e, transport::Transport& tp);
void progress_others();
/// Before a wait for request r alone sleeps: what can end it (Transport::expect_completions).
void expect_completion_of(const Request& r);
/// The collective lane's hook into matching (coll/lane.cpp): an arrival that is a failed call's
/// error notice is kept there and never matched; false for any other arrival.
bool take_notice(ProgressEngine& e, transport::Transport& tp, const Arrival& a, const envelope::Fields& f);
/// A control message between ranks (kControlContext, p2p_cancel.cpp): a question about a send
/// to cancel, or its answer.
void on_control(ProgressEngine& e, transport::Transport& tp, const Arrival& a, const envelope::Fields& f);
/// Ask again about the control messages' transport operations that were pending.
void settle_control_ops(ProgressEngine& e, transport::Transport& tp);
/// MPI_Cancel of send h to another rank, pending: ask its receiver to drop it (false: nothing to
/// ask, the send completes as it would have).
bool ask_cancel(MPI_Request h);

}  // namespace tilempi::mpi::pt2pt
