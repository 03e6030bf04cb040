// The progress engine: matching of arrivals against posted receives (MPI's rules), the
// unexpected-message queue, and completion of transport operations.
#include "p2p.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <string>

#include "holds.h"
#include "hooks.h"
#include "p2p_fast.h"
#include "payload_buffer.h"
#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

using transport::Arrival;
using transport::Envelope;
using transport::kDone;

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

// A message taken off the unexpected queue by a matched probe, until MPI_Mrecv takes it.
struct Message {
  Unexpected u;
  MPI_Comm comm = MPI_COMM_NULL;
};

// The attached buffer of MPI_Buffer_attach: segments in use, by offset.
struct BsendBuffer {
  char* base = nullptr;
  std::size_t size = 0;
  std::map<std::size_t, std::size_t> used;  // offset -> size
};

// A blocking receive waiting without a request (recv_direct): it matches like a posted receive
// at the end of the (then empty) posted queue.
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

// The handle every send that completed inside MPI_Isend (the transport took it at once) gets:
// one permanent request, done, with a send's empty status, shared by all of them, so that such a
// send costs no request of its own. A wait or test on it sets the caller's handle to
// MPI_REQUEST_NULL as for any other; releasing it does nothing; it is never pending, so nothing
// else (cancel, free, completion) ever changes it.
constexpr MPI_Request kSendComplete = kSendCompleteRequest;

struct Engine {
  Engine() {
    requests.push_back(std::make_unique<Request>());
    requests[kSendComplete]->reset(Request::Kind::Send, MPI_COMM_WORLD);
    requests[kSendComplete]->done = true;
  }
  // Handle h names requests[h] while it is live; handle 0 is MPI_REQUEST_NULL. A released
  // request stays in its slot for the next one (no malloc per message), except in slots above
  // kKeptSlots, so that a burst of many outstanding requests does not hold memory for ever.
  std::vector<std::unique_ptr<Request>> requests{1};
  std::vector<MPI_Request> free_handles;
  std::deque<MPI_Request> posted;                      // receives in posting order
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
  int real_time = -1;                                  // wait_may_skip_progress(), once known
  DirectRecv* direct = nullptr;                        // the blocking receive in progress, if direct
  // Error notices of failed collective calls (coll/call_sequence.cpp): the collective lane's
  // context and the notice's tag, which names the call. Kept apart from the unexpected queue,
  // whose every receive would otherwise scan them; the oldest go when there are kKeptNotices (a
  // notice that arrives after its call has ended here stays until then).
  struct Notice {
    std::uint64_t context;
    int tag;
  };
  std::vector<Notice> notices;
  std::vector<transport::OpId> notice_fetches;  // a notice taken out of the transport, if not at once
};

constexpr std::size_t kKeptNotices = 64;

// Per rank (see rank_local.h). At namespace scope and constant-initialised, so that engine(),
// called several times on every message's path, needs no guard of a function-local static.
constinit transport::RankLocal<Engine> g_engine;

Engine& engine() { return g_engine.get(); }

[[gnu::noinline]] bool learn_real_time(Engine& e) {
  e.real_time = transport_of_job().capabilities().virtual_time ? 0 : 1;
  return e.real_time == 1;
}

// wait_may_skip_progress() (request.h) with the engine at hand.
inline bool real_time(Engine& e) {
  if (e.real_time < 0) [[unlikely]]
    return learn_real_time(e);
  return e.real_time == 1;
}

constexpr MPI_Request kKeptSlots = 1024;

// Inline on the message paths (a call's prologue and epilogue cost as much as its work here).
#define TILEMPI_HOT [[gnu::always_inline]] inline

// A fresh request; *out is its slot (one lookup: the caller's stores then go through the same
// pointer as reset()'s, and the compiler drops the ones they repeat).
TILEMPI_HOT MPI_Request new_request(Engine& e, Request::Kind kind, MPI_Comm comm, Request** out) {
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

TILEMPI_HOT MPI_Request new_request(Engine& e, Request::Kind kind, MPI_Comm comm) {
  Request* r;
  return new_request(e, kind, comm, &r);
}

MPI_Request new_request(Request::Kind kind, MPI_Comm comm) { return new_request(engine(), kind, comm); }

TILEMPI_HOT bool matches(const Request& r, std::uint64_t context, int source, int tag) {
  return r.context == context && (r.source == MPI_ANY_SOURCE || r.source == source) &&
         (r.tag == MPI_ANY_TAG ? tag >= 0 : r.tag == tag);
}

bool matches(const Unexpected& u, std::uint64_t context, int source, int tag) {
  return u.context == context && (source == MPI_ANY_SOURCE || source == u.source) &&
         (tag == MPI_ANY_TAG ? u.tag >= 0 : tag == u.tag);
}

[[gnu::noinline]] void let_go(Request& r) {
  datatype_unhold(r.held_type);
  comm_unhold(r.held_comm);
  r.held_type = nullptr;
  r.held_comm = nullptr;
}

// A receive into a derived type holds it until the request is released (holds.h).
TILEMPI_HOT void hold_type(Request& r, const Datatype* t) {
  if (!t->predefined && !r.held_type) [[unlikely]] {
    datatype_hold(t);
    r.held_type = t;
  }
}

// Release live request h (r), not kSendComplete.
inline void release(Engine& e, MPI_Request h, Request& r) {
  if (r.held_type || r.held_comm) [[unlikely]]
    let_go(r);
  r.live = false;
  if (h > kKeptSlots) [[unlikely]]
    e.requests[h].reset();
  else if (r.staging.capacity() > 0) [[unlikely]]
    r.staging = {};
  e.free_handles.push_back(h);
}

void complete_slow(MPI_Request h, Request& r) {
  if (r.bsend_size) {
    engine().bsend.used.erase(r.bsend_offset);
    r.bsend_size = 0;
  }
  if (r.freed) request_release(h);
}

// r is request h.
inline void complete(MPI_Request h, Request& r) {
  r.done = true;
  r.op = kDone;
  if (r.bsend_size || r.freed) [[unlikely]]
    complete_slow(h, r);
}

void complete(MPI_Request h) { complete(h, *engine().requests[h]); }

// Send and receive on request h. They take the type's description, not its handle: a persistent
// request keeps it across MPI_Type_free of the handle (descriptions outlive handles).
void send_on(MPI_Request h, const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
             Lane lane, bool synchronous);
TILEMPI_HOT void recv_on(Engine& e, MPI_Request h, Request* r, void* buf, std::size_t count, const Datatype* type,
                         int source, int tag, Comm& comm, Lane lane);
int bsend_typed(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                std::string* detail);

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
inline std::vector<Engine::InFlight>::iterator find_in_flight(Engine& e, transport::OpId op) {
  return std::lower_bound(e.in_flight.begin(), e.in_flight.end(), op,
                          [](const Engine::InFlight& f, transport::OpId id) { return f.op < id; });
}

// A transport operation of request h, pending: into in_flight at its place in op order.
inline void track(Engine& e, MPI_Request h, transport::OpId op, bool send, bool awaited) {
  e.awaited_in_flight += awaited;
  if (e.in_flight.empty() || e.in_flight.back().op < op) [[likely]] {
    e.in_flight.push_back({op, h, send, awaited});
    return;
  }
  e.in_flight.insert(find_in_flight(e, op), {op, h, send, awaited});
}

// The pending operation at i is done: out of in_flight (keeping the order), its request completed.
void finish_in_flight(Engine& e, std::size_t i) {
  const Engine::InFlight f = e.in_flight[i];
  e.in_flight.erase(e.in_flight.begin() + static_cast<std::ptrdiff_t>(i));
  e.awaited_in_flight -= f.awaited;
  Request* r = e.requests[f.h].get();
  if (f.send) {
    r->staging = {};
    complete(f.h, *r);
  } else {
    finish_recv(f.h, *r);
  }
}

// Completes the pending operations among those the transport listed as finished in e.finished
// (it may list others too: the fetches of unexpected messages, which nobody tracks here).
void finish_listed(Engine& e) {
  for (const transport::OpId id : e.finished) {
    const auto at = find_in_flight(e, id);
    if (at != e.in_flight.end() && at->op == id) finish_in_flight(e, static_cast<std::size_t>(at - e.in_flight.begin()));
  }
  e.finished.clear();
}


// Start moving a matched message from the transport into the receive (r is request h).
TILEMPI_HOT void start_fetch(Engine& e, transport::Transport& tp, MPI_Request h, Request& r, const Arrival& a) {
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

void start_fetch(MPI_Request h, const Arrival& a) {
  Engine& e = engine();
  start_fetch(e, transport_of_job(), h, *e.requests[h], a);
}

void deliver_unexpected(MPI_Request h, Unexpected& u) {
  Request* r = engine().requests[h].get();
  set_recv_status(*r, u.source, u.tag, u.size);
  if (u.sync_sender != MPI_REQUEST_NULL) complete(u.sync_sender);
  if (!u.have_data && u.fetch == kDone) {
    start_fetch(h, u.arrival);
    return;
  }
  if (u.fetch != kDone) {
    transport::OpId op = u.fetch;
    progress_until([&] { return transport_of_job().fetch_done(op); });
  }
  unpack(u.data.data(), r->received, r->count, *r->type, r->buf);
  complete(h);
}

void on_arrival_slow(Engine& e, transport::Transport& tp, const Arrival& a);

// An arrival: to the oldest posted receive if it matches (the usual match, and far cheaper than
// a deque's erase), else on_arrival_slow().
TILEMPI_HOT void on_arrival(Engine& e, transport::Transport& tp, const Arrival& a) {
  if (!e.posted.empty()) [[likely]] {
    const std::uint64_t context = a.envelope.word[0];
    const int source = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1]));
    const int tag = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1] >> 32));
    const MPI_Request h = e.posted.front();
    Request* r = e.requests[h].get();
    if (matches(*r, context, source, tag)) [[likely]] {
      e.posted.pop_front();
      set_recv_status(*r, source, tag, a.size);
      start_fetch(e, tp, h, *r, a);
      return;
    }
  }
  on_arrival_slow(e, tp, a);
}

// A collective call's error notice: kept by the call it names, the transport's copy released.
[[gnu::noinline]] void keep_notice(Engine& e, transport::Transport& tp, const Arrival& a, std::uint64_t context,
                                   int tag) {
  static char sink;
  const transport::OpId op = tp.fetch(a, &sink, 0);
  if (op != kDone) e.notice_fetches.push_back(op);
  if (e.notices.size() >= kKeptNotices) e.notices.erase(e.notices.begin());
  e.notices.push_back({context, tag});
}

// The rest of matching: a later posted receive, or the unexpected queue.
[[gnu::noinline]] void on_arrival_slow(Engine& e, transport::Transport& tp, const Arrival& a) {
  std::uint64_t context = a.envelope.word[0];
  int source = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1]));
  int tag = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1] >> 32));
  // (No receive is ever posted for a notice's tag, so it never matched the first posted one.)
  if ((context & 1) && (tag & (kCollTagsPerCall - 1)) == kCollNoticeTag) [[unlikely]] {
    keep_notice(e, tp, a, context, tag);
    return;
  }
  if (!e.posted.empty()) {
    for (auto it = e.posted.begin() + 1; it != e.posted.end(); ++it) {
      Request* r = e.requests[*it].get();
      if (matches(*r, context, source, tag)) {
        const MPI_Request hit = *it;
        e.posted.erase(it);
        set_recv_status(*r, source, tag, a.size);
        start_fetch(e, tp, hit, *r, a);
        return;
      }
    }
  }
  Unexpected u;
  u.context = context;
  u.source = source;
  u.tag = tag;
  u.size = a.size;
  if (a.buffered) {
    // Free the transport's buffer at once: unmatched messages must never stall later ones.
    u.data = PayloadBuffer(a.size);
    u.fetch = transport_of_job().fetch(a, u.data.data(), a.size);
    u.have_data = true;
  } else {
    u.arrival = a;
  }
  e.unexpected.push_back(std::move(u));
}

}  // namespace

void status_set_bytes(MPI_Status& s, std::size_t bytes) {
  s.tilempi_count_lo = static_cast<int>(static_cast<std::uint32_t>(bytes));
  s.tilempi_count_hi = static_cast<int>(static_cast<std::uint64_t>(bytes) >> 32);
}

std::size_t status_bytes(const MPI_Status& s) {
  return static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_lo)) |
         (static_cast<std::size_t>(static_cast<std::uint32_t>(s.tilempi_count_hi)) << 32);
}

void status_set(MPI_Status* out, const MPI_Status& in) {
  if (out && out != MPI_STATUS_IGNORE) *out = in;
}

Request* request_get(MPI_Request h) {
  Engine& e = engine();
  if (h <= 0 || static_cast<std::size_t>(h) >= e.requests.size()) return nullptr;
  Request* r = e.requests[h].get();
  return r && r->live ? r : nullptr;
}

void request_release(MPI_Request h) {
  Engine& e = engine();
  if (h <= kSendComplete || static_cast<std::size_t>(h) >= e.requests.size()) return;
  Request* r = e.requests[h].get();
  if (!r || !r->live) return;
  release(e, h, *r);
}

bool request_cancel(MPI_Request h) {
  Engine& e = engine();
  Request* r = e.requests[h].get();
  if (r->kind == Request::Kind::Send) {
    // Only a synchronous send to this rank is still ours to take back: it waits, unmatched, in
    // this rank's own unexpected queue. Any other send is in the transport's hands.
    auto u = std::find_if(e.unexpected.begin(), e.unexpected.end(),
                          [h](const Unexpected& x) { return x.sync_sender == h; });
    if (u == e.unexpected.end()) return false;
    e.unexpected.erase(u);
    r->status.tilempi_cancelled = 1;
    complete(h);
    return true;
  }
  auto it = std::find(e.posted.begin(), e.posted.end(), h);
  if (it == e.posted.end()) return false;
  e.posted.erase(it);
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

int bsend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, std::string* detail) {
  return bsend_typed(buf, count, *datatype_get(type), dest, tag, comm, detail);
}

namespace {

int bsend_typed(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                std::string* detail) {
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  Engine& e = engine();
  BsendBuffer& b = e.bsend;
  std::size_t bytes = count * t.size;
  std::size_t need = bytes + MPI_BSEND_OVERHEAD;
  // First fit among the gaps between the segments in use.
  std::size_t at = 0;
  bool found = false;
  for (const auto& [off, len] : b.used) {
    if (off - at >= need) {
      found = true;
      break;
    }
    at = off + len;
  }
  if (!found && b.base && b.size >= at && b.size - at >= need) found = true;
  if (!found) {
    std::size_t in_use = 0;
    for (const auto& [off, len] : b.used) in_use += len;
    *detail = "the message needs " + std::to_string(need) + " bytes (with MPI_BSEND_OVERHEAD) of the attached buffer; " +
              (b.base ? std::to_string(b.size) + " attached, " + std::to_string(in_use) + " in use by pending buffered sends"
                      : std::string("no buffer is attached (MPI_Buffer_attach)"));
    return MPI_ERR_BUFFER;
  }
  char* data = b.base + at;
  pack(buf, count, t, data);
  b.used[at] = need;
  MPI_Request h = new_request(Request::Kind::Send, comm.handle);
  Request* r = e.requests[h].get();
  r->bsend_offset = at;
  r->bsend_size = need;
  r->freed = true;  // nobody waits for it: it releases itself (and its segment) when sent
  send_on(h, data, bytes, *datatype_get(MPI_BYTE), dest, tag, comm, Lane::User, false);
  return MPI_SUCCESS;
}

}  // namespace

int buffer_attach(void* buf, std::size_t size) {
  BsendBuffer& b = engine().bsend;
  if (b.base) return MPI_ERR_BUFFER;
  b.base = static_cast<char*>(buf);
  b.size = size;
  return MPI_SUCCESS;
}

void bsend_drain() {
  if (engine().bsend.used.empty()) return;
  progress_until([] { return engine().bsend.used.empty(); });
}

int buffer_detach(void** buf, std::size_t* size) {
  BsendBuffer& b = engine().bsend;
  bsend_drain();
  *buf = b.base;
  *size = b.size;
  b.base = nullptr;
  b.size = 0;
  return MPI_SUCCESS;
}

bool buffer_attached() { return engine().bsend.base != nullptr; }

bool message_valid(MPI_Message m) {
  Engine& e = engine();
  return m == MPI_MESSAGE_NO_PROC ||
         (m > MPI_MESSAGE_NO_PROC && static_cast<std::size_t>(m) < e.messages.size() && e.messages[m]);
}

bool improbe(int source, int tag, Comm& comm, MPI_Message* message, MPI_Status* status) {
  progress();
  Engine& e = engine();
  if (source == MPI_PROC_NULL) {
    status_set(status, MPI_Status{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
    *message = MPI_MESSAGE_NO_PROC;
    return true;
  }
  for (auto it = e.unexpected.begin(); it != e.unexpected.end(); ++it) {
    if (!matches(*it, comm.context, source, tag)) continue;
    MPI_Status s{it->source, it->tag, MPI_SUCCESS, 0, 0, 0};
    status_set_bytes(s, it->size);
    status_set(status, s);
    auto m = std::make_unique<Message>();
    m->u = std::move(*it);
    m->comm = comm.handle;
    e.unexpected.erase(it);
    MPI_Message h;
    if (!e.free_messages.empty()) {
      h = e.free_messages.back();
      e.free_messages.pop_back();
      e.messages[h] = std::move(m);
    } else {
      e.messages.push_back(std::move(m));
      h = static_cast<MPI_Message>(e.messages.size() - 1);
    }
    *message = h;
    return true;
  }
  return false;
}

int imrecv(void* buf, std::size_t count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  Engine& e = engine();
  if (*message == MPI_MESSAGE_NO_PROC) {
    Comm* self = comm_get(MPI_COMM_SELF);
    *message = MPI_MESSAGE_NULL;
    return irecv(buf, count, type, MPI_PROC_NULL, MPI_ANY_TAG, *self, Lane::User, request);
  }
  std::unique_ptr<Message> m = std::move(e.messages[*message]);
  e.free_messages.push_back(*message);
  *message = MPI_MESSAGE_NULL;
  MPI_Request h = new_request(Request::Kind::Recv, m->comm);
  Request* r = e.requests[h].get();
  r->buf = buf;
  r->count = count;
  r->type = datatype_get(type);
  hold_type(*r, r->type);
  r->source = m->u.source;
  r->tag = m->u.tag;
  r->context = m->u.context;
  *request = h;
  deliver_unexpected(h, m->u);
  return MPI_SUCCESS;
}

namespace {

// The half of progress() that moves point-to-point messages: arrivals matched or queued,
// transport operations completed.
void progress_messages(Engine& e, transport::Transport& tp) {
  tp.progress();
  Arrival a;
  while (tp.poll(a)) {
    DirectRecv* d = e.direct;
    if (d && !d->matched) {
      const std::uint64_t context = a.envelope.word[0];
      const int source = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1]));
      const int tag = static_cast<int>(static_cast<std::uint32_t>(a.envelope.word[1] >> 32));
      if (context == d->context && (d->source == MPI_ANY_SOURCE || d->source == source) &&
          (d->tag == MPI_ANY_TAG ? tag >= 0 : d->tag == tag)) {
        d->matched = true;
        d->got_source = source;
        d->got_tag = tag;
        d->size = a.size;
        d->fetch = tp.fetch(a, d->buf, std::min(a.size, d->capacity));
        // Received: what else has arrived waits for the next call (one scan of every ring less
        // between this message and the caller's next one).
        if (d->fetch == kDone) break;
        continue;
      }
    }
    on_arrival(e, tp, a);
  }
  // When the transport knows that no check can succeed (the sim between two events), the
  // look-ups below are skipped: each would answer false and change nothing.
  if (!e.in_flight.empty() && !tp.nothing_completes()) {
    // When the transport hands over what finished, the pass is the same (the same completions)
    // with one question instead of one per pending operation: the listed ones are completed,
    // then the first one left is asked about (its check is the transport's progress step, which
    // finds whatever else is done), and the list is taken again.
    e.finished.clear();
    if (tp.take_finished(e.finished)) {
      finish_listed(e);
      if (!e.in_flight.empty()) {
        const Engine::InFlight f = e.in_flight.front();
        if (f.send ? tp.send_done(f.op) : tp.fetch_done(f.op)) finish_in_flight(e, 0);
        tp.take_finished(e.finished);
        finish_listed(e);
      }
    } else {
      for (std::size_t i = 0; i < e.in_flight.size();) {
        const Engine::InFlight f = e.in_flight[i];
        if (f.send ? tp.send_done(f.op) : tp.fetch_done(f.op))
          finish_in_flight(e, i);
        else
          ++i;
      }
    }
  }
  if (!e.unexpected.empty() && !tp.nothing_completes())
    for (Unexpected& u : e.unexpected)
      if (u.fetch != kDone && tp.fetch_done(u.fetch)) u.fetch = kDone;
}

// The other half: what runs on top of point-to-point.
void progress_others() {
  nbc_progress();
  onesided_progress();
  isendrecv_progress();
}

}  // namespace

void progress() {
  progress_messages(engine(), transport_of_job());
  progress_others();
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

void progress_wait() {
  if (threads::pause_for_others()) return;  // MPI_THREAD_MULTIPLE: the others may make the progress
  transport_of_job().wait(1'000'000);
}

bool wait_may_skip_progress() { return real_time(engine()); }

void progress_blocking(bool on) {
  transport::Transport& tp = transport_of_job();
  if (on && threads::g_multiple) [[unlikely]]
    threads::wait_begins();
  if (on) tp.begin_blocking_wait();
  else tp.end_blocking_wait();
}

std::string describe_pending() {
  Engine& e = engine();
  std::string out;
  auto who = [](int r) { return r == MPI_ANY_SOURCE ? std::string("MPI_ANY_SOURCE") : std::to_string(r); };
  auto tag_of = [](int t) { return t == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(t); };
  auto comm_of = [](MPI_Comm c) {
    if (c == MPI_COMM_WORLD) return std::string("MPI_COMM_WORLD");
    if (c == MPI_COMM_SELF) return std::string("MPI_COMM_SELF");
    return "communicator " + std::to_string(c);
  };
  // The drains of failed collective calls (coll/call_sequence.cpp: zero-byte receives from any
  // source, 14 per call) wait by design: counted, not listed, so that what a rank really waits
  // for stays readable.
  std::size_t drains = 0;
  if (const DirectRecv* d = e.direct; d && !d->matched)  // a blocking receive without a request
    out += "receive from " + who(d->source) + " tag " + tag_of(d->tag) + " on " + comm_of(d->comm) + "; ";
  for (MPI_Request h : e.posted) {
    const Request& r = *e.requests[h];
    bool coll = r.context & 1;
    if (coll && r.count == 0 && r.source == MPI_ANY_SOURCE) {
      ++drains;
      continue;
    }
    out += std::string(coll ? "collective " : "") + "receive from " + who(r.source) + " tag " + tag_of(r.tag) +
           " on " + comm_of(r.comm) + "; ";
  }
  if (drains) out += std::to_string(drains) + " receives draining failed collective calls; ";
  for (const Engine::InFlight& f : e.in_flight) {
    const Request& r = *e.requests[f.h];
    if (r.kind == Request::Kind::Send)
      out += "send on " + comm_of(r.comm) + " not yet taken by its receiver; ";
  }
  if (!out.empty()) out.resize(out.size() - 2);
  return out.empty() ? "nothing pending" : out;
}

namespace {

// Begin a send on request h (new, or a persistent one being started).
void send_on(MPI_Request h, const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
             Lane lane, bool synchronous) {
  Engine& e = engine();
  Request* r = e.requests[h].get();
  if (dest == MPI_PROC_NULL) {
    complete(h);
    return;
  }
  std::size_t bytes = count * t.size;
  std::uint64_t context = comm.context + (lane == Lane::Coll ? 1 : 0);
  transport::Transport& tp = transport_of_job();
  int dst = comm.peers()[dest];

  if (dest == comm.rank && !comm.inter) {  // (an intercommunicator's dest is in the other group)
    // Loopback: match a posted receive directly, else queue as unexpected.
    for (auto it = e.posted.begin(); it != e.posted.end(); ++it) {
      Request* rr = e.requests[*it].get();
      if (matches(*rr, context, comm.rank, tag)) {
        MPI_Request rh = *it;
        e.posted.erase(it);
        set_recv_status(*rr, comm.rank, tag, bytes);
        std::vector<char> tmp(bytes);
        pack(buf, count, t, tmp.data());
        unpack(tmp.data(), rr->received, rr->count, *rr->type, rr->buf);
        complete(rh);
        complete(h);
        return;
      }
    }
    Unexpected u;
    u.context = context;
    u.source = comm.rank;
    u.tag = tag;
    u.size = bytes;
    u.have_data = true;
    u.data = PayloadBuffer(bytes);
    pack(buf, count, t, u.data.data());
    if (synchronous)
      u.sync_sender = h;
    else
      complete(h);
    e.unexpected.push_back(std::move(u));
    return;
  }

  Envelope env{};
  env.word[0] = context;
  env.word[1] = static_cast<std::uint32_t>(comm.rank) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  const void* data = buf;
  if (!t.contiguous) {
    r->staging.resize(bytes);
    pack(buf, count, t, r->staging.data());
    data = r->staging.data();
  }
  r->op = tp.send(dst, env, data, bytes,
                  synchronous ? transport::SendMode::Synchronous : transport::SendMode::Standard);
  if (r->op == kDone) {
    if (!t.contiguous) r->staging = {};
    complete(h, *r);
  } else {
    track(e, h, r->op, r->kind == Request::Kind::Send, r->awaited);
  }
}

// Begin a receive on request h (r).
TILEMPI_HOT void recv_on(Engine& e, MPI_Request h, Request* r, void* buf, std::size_t count, const Datatype* type,
                         int source, int tag, Comm& comm, Lane lane) {
  r->buf = buf;
  r->count = count;
  r->type = type;
  hold_type(*r, type);
  r->source = source;
  r->tag = tag;
  r->context = comm.context + (lane == Lane::Coll ? 1 : 0);
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
  e.posted.push_back(h);
}

}  // namespace

namespace {

// A standard-mode send of a contiguous type to another rank on a transport in real time,
// straight to the transport: false (nothing sent) when it must take the general path; else
// *pending is `done` if the transport took it at once, or a request to wait for.
inline bool send_now(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
                     Lane lane, MPI_Request done, MPI_Request* pending) {
  Runtime& rt = runtime();  // (the engine only if a request is needed)
  if (dest == MPI_PROC_NULL || (dest == comm.rank && !comm.inter) || !t.contiguous || !rt.real_time) return false;
  Envelope env{};  // as send_on() writes it
  env.word[0] = comm.context + (lane == Lane::Coll ? 1 : 0);
  env.word[1] = static_cast<std::uint32_t>(comm.rank) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  const transport::OpId op =
      rt.transport->send(comm.peers()[dest], env, buf, count * t.size, transport::SendMode::Standard);
  if (op == kDone) [[likely]] {
    *pending = done;
    return true;
  }
  Engine& e = engine();
  *pending = new_request(Request::Kind::Send, comm.handle);
  e.requests[*pending]->op = op;
  track(e, *pending, op, true, false);
  return true;
}

}  // namespace

bool send_direct(const void* buf, std::size_t count, const Datatype& type, int dest, int tag, Comm& comm,
                 MPI_Request* pending) {
  return send_now(buf, count, type, dest, tag, comm, Lane::User, MPI_REQUEST_NULL, pending);
}

bool recv_direct(void* buf, std::size_t count, const Datatype& t, int source, int tag, Comm& comm,
                 MPI_Status* status, int* rc) {
  Engine& e = engine();
  // Under MPI_THREAD_MULTIPLE another thread's receives may be posted while this one waits: they
  // all take the general path, whose matching sees every posted receive.
  if (source == MPI_PROC_NULL || !e.posted.empty() || e.direct || !t.contiguous || !real_time(e) || threads::g_multiple)
    return false;
  for (const Unexpected& u : e.unexpected)
    if (matches(u, comm.context, source, tag)) return false;  // the general path delivers it
  DirectRecv d;
  d.context = comm.context;
  d.comm = comm.handle;
  d.source = source;
  d.tag = tag;
  d.buf = buf;
  d.capacity = count * t.size;
  transport::Transport& tp = transport_of_job();
  // From one source, the transport may hand over the next message from it at once when it is
  // this one (Transport::take_next): the match in the envelope's words as send_on() writes them,
  // context, then source in the low half and tag in the high half (MPI_ANY_TAG takes tags >= 0
  // only: the sign bit must be clear). Nothing queued matches, so it is the oldest that could.
  const int first = source == MPI_ANY_SOURCE ? -1 : comm.peers()[source];
  transport::EnvelopeMatch match;
  match.want[0] = comm.context;
  match.mask[0] = ~std::uint64_t{0};
  match.want[1] = static_cast<std::uint32_t>(source) |
                  (tag == MPI_ANY_TAG ? 0 : static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  match.mask[1] = 0xffffffffull | (tag == MPI_ANY_TAG ? 1ull << 63 : 0xffffffffull << 32);
  e.direct = &d;
  // progress() in two halves: once the message is here, the rest (non-blocking collectives,
  // one-sided) waits for the next call instead of delaying this one's return; while it waits,
  // every pass runs it all.
  for (;;) {
    if (first >= 0) {
      transport::Envelope env;
      if (tp.take_next(first, match, buf, d.capacity, &env, &d.size) > 0) {
        d.matched = true;
        d.got_source = source;
        d.got_tag = static_cast<int>(static_cast<std::uint32_t>(env.word[1] >> 32));
        break;
      }
    }
    progress_messages(e, tp);
    if (d.matched && (d.fetch == kDone || tp.fetch_done(d.fetch))) break;
    progress_others();
    progress_wait();
  }
  e.direct = nullptr;
  MPI_Status s{d.got_source, d.got_tag, d.size > d.capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS, 0, 0, 0};
  status_set_bytes(s, std::min(d.size, d.capacity));
  status_set(status, s);
  *rc = s.MPI_ERROR;
  return true;
}

MPI_Request send_pending(transport::OpId op, MPI_Comm comm) {
  Engine& e = engine();
  Request* r;
  const MPI_Request h = new_request(e, Request::Kind::Send, comm, &r);
  r->op = op;
  track(e, h, op, true, false);
  return h;
}

bool recv_at_once(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status,
                  int* rc) {
  const Runtime* rt;
  const Comm* c;
  const Datatype* t;
  if (!fast_lookup(comm, type, &rt, &c, &t)) [[unlikely]]
    return false;
  // (MPI_ANY_SOURCE and MPI_PROC_NULL are negative: the general path takes them.)
  if (c->inter || !t->committed || !t->contiguous || count < 0 ||
      static_cast<unsigned>(source) >= static_cast<unsigned>(c->size) || (tag < 0 && tag != MPI_ANY_TAG) ||
      (!buf && count != 0 && t->size != 0)) [[unlikely]]
    return false;
  Engine* first = g_engine.first();  // (fast_lookup() has seen slot 0)
  Engine& e = first ? *first : engine();
  if (!e.posted.empty() || e.direct) [[unlikely]]
    return false;
  bool fetching = false;  // an unexpected message still being copied in (progress passes finish it)
  for (const Unexpected& u : e.unexpected) {
    if (matches(u, c->context, source, tag)) return false;  // the general path delivers it
    fetching |= u.fetch != kDone;
  }
  // The receive's rule as masks over the envelope's words (user_envelope(); MPI_ANY_TAG takes
  // tags >= 0 only: the sign bit must be clear), as recv_direct() writes it.
  transport::EnvelopeMatch match;
  match.want[0] = c->context;
  match.mask[0] = ~std::uint64_t{0};
  match.want[1] = static_cast<std::uint32_t>(source) |
                  (tag == MPI_ANY_TAG ? 0 : static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  match.mask[1] = 0xffffffffull | (tag == MPI_ANY_TAG ? 1ull << 63 : 0xffffffffull << 32);
  const std::size_t capacity = static_cast<std::size_t>(count) * t->size;
  const int from = c->world[static_cast<std::size_t>(source)];
  transport::Transport& tp = *rt->transport;
  transport::Envelope env;
  std::size_t size;
  int got = tp.take_next(from, match, buf, capacity, &env, &size);
  // Not there yet: wait on that source alone while nothing else at this rank needs progress.
  if (got == 0 && e.in_flight.empty() && !fetching && nbc_idle() && onesided_idle())
    got = tp.wait_take_next(from, match, buf, capacity, &env, &size);
  if (got <= 0) return false;
  if (status && status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = source;
    status->MPI_TAG = static_cast<int>(static_cast<std::uint32_t>(env.word[1] >> 32));
    status->MPI_ERROR = size > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    status->tilempi_cancelled = 0;
    status_set_bytes(*status, size < capacity ? size : capacity);
  }
  *rc = size > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  return true;
}

int isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request) {
  return isend(buf, count, *datatype_get(type), dest, tag, comm, lane, synchronous, request);
}

int isend(const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request) {
  if (lane == Lane::Coll && tag >= 0) tag += coll_tag_offset(comm);
  // A send the transport takes at once completes here, on the shared completed request.
  if (!synchronous && send_now(buf, count, t, dest, tag, comm, lane, kSendComplete, request)) return MPI_SUCCESS;
  *request = new_request(Request::Kind::Send, comm.handle);
  send_on(*request, buf, count, t, dest, tag, comm, lane, synchronous);
  return MPI_SUCCESS;
}

int irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request) {
  return irecv(buf, count, *datatype_get(type), source, tag, comm, lane, request);
}

int irecv(void* buf, std::size_t count, const Datatype& type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request) {
  if (lane == Lane::Coll && tag >= 0) tag += coll_tag_offset(comm);
  Engine& e = engine();
  Request* r;
  const MPI_Request h = new_request(e, Request::Kind::Recv, comm.handle, &r);
  *request = h;
  recv_on(e, h, r, buf, count, &type, source, tag, comm, lane);
  return MPI_SUCCESS;
}


namespace {
void expect_completion_of(const Request& r);
}  // namespace

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
  Engine& e = engine();
  const std::size_t n = e.requests.size();
  for (int i = 0; i < count; ++i) {
    const MPI_Request h = requests[i];
    if (h == MPI_REQUEST_NULL) continue;
    if (h < 0 || static_cast<std::size_t>(h) >= n || !e.requests[h] || !e.requests[h]->live) return i;
  }
  return -1;
}

namespace {

// Before a wait for request r alone sleeps: what can end it (Transport::expect_completions), where
// nothing else acts on a completion meanwhile (as mark_awaited). A send or receive in flight ends
// with its own operation's completion; a receive not matched yet only with an arrival.
void expect_completion_of(const Request& r) {
  if (r.kind == Request::Kind::Generic || !nbc_idle() || !onesided_idle()) return;
  if (r.op != kDone)
    transport_of_job().expect_completions(1, r.op);
  else if (r.kind == Request::Kind::Recv)
    transport_of_job().expect_completions(SIZE_MAX);
}

// MPI_Waitall's requests: whether the transport may be told how many of their operations must
// still complete before the wait can end (see Transport::expect_completions). Only where nothing
// acts on a completion before then: every request a send or receive, no non-blocking collective
// or drain and no window, which progress() would advance at every wake-up. If so, marks them
// awaited, and their operations in flight (those that start later are marked by track()).
bool mark_awaited(Engine& e, const MPI_Request* requests, int count) {
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

void unmark_awaited(Engine& e, const MPI_Request* requests, int count) {
  for (int i = 0; i < count; ++i)
    if (const MPI_Request h = requests[i]; h != MPI_REQUEST_NULL) e.requests[h]->awaited = false;
  if (e.awaited_in_flight == 0) return;
  for (Engine::InFlight& f : e.in_flight) f.awaited = false;  // (not expected: the wait ended)
  e.awaited_in_flight = 0;
}

}  // namespace

int waitall_requests(int count, MPI_Request* requests, MPI_Status* statuses, MPI_Comm* err_comm) {
  Engine& e = engine();
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
  int rc = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    const MPI_Request h = requests[i];
    Request* r = h == MPI_REQUEST_NULL ? nullptr : e.requests[h].get();
    if (!r || !r->live || (r->persistent && !r->active)) {  // (not live: the same handle twice)
      status_set(st, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
      continue;
    }
    if (r->grequest.active) [[unlikely]]
      grequest_conclude(*r);
    if (st && st != MPI_STATUS_IGNORE) *st = r->status;  // status_set(), inline
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

bool iprobe(int source, int tag, Comm& comm, Lane lane, MPI_Status* status) {
  progress();
  std::uint64_t context = comm.context + (lane == Lane::Coll ? 1 : 0);
  if (source == MPI_PROC_NULL) {
    MPI_Status s{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0};
    status_set(status, s);
    return true;
  }
  for (const Unexpected& u : engine().unexpected) {
    if (matches(u, context, source, tag)) {
      MPI_Status s{u.source, u.tag, MPI_SUCCESS, 0, 0, 0};
      status_set_bytes(s, u.size);
      status_set(status, s);
      return true;
    }
  }
  return false;
}

namespace {

// Whether the notice of the call running on request r's communicator has arrived.
bool notice_for(Engine& e, const Request& r) {
  if (!e.notice_fetches.empty()) {
    transport::Transport& tp = transport_of_job();
    std::erase_if(e.notice_fetches, [&](transport::OpId op) { return tp.fetch_done(op); });
  }
  const Comm* c = comm_find(r.comm);  // (a pending collective's, which may have been freed)
  if (!c) return false;
  const std::uint64_t context = c->context + 1;
  const int tag = coll_tag_offset(*c) + kCollNoticeTag;
  for (const Engine::Notice& n : e.notices)
    if (n.context == context && n.tag == tag) return true;
  return false;
}

}  // namespace

bool coll_notice_take(const Comm& comm) {
  Engine& e = engine();
  if (e.notices.empty()) [[likely]]
    return false;
  const std::uint64_t context = comm.context + 1;
  const int tag = coll_tag_offset(comm) + kCollNoticeTag;
  return std::erase_if(e.notices, [&](const Engine::Notice& n) { return n.context == context && n.tag == tag; }) > 0;
}

int coll_waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  Engine& e = engine();
  int rc = MPI_SUCCESS;
  bool told = false;
  // One wait per request in turn, as waitall's: the same progress passes as before there were
  // notices, so that no modeled cycle moves. Only a wait that has to wait looks at notices.
  int i = 0;
  for (; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    Request* r = request_get(requests[i]);
    if (!r) {
      status_set(st, MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0});
      continue;
    }
    // Only a receive heeds a notice: a send is taken by its receiver or by the drain of a member
    // that failed the call (so a rank that only sends to a failed one completes, as before).
    progress_until([&] {
      if (r->done) return true;
      if (e.notices.empty()) [[likely]] {
        expect_completion_of(*r);
        return false;
      }
      return told = r->kind == Request::Kind::Recv && notice_for(e, *r);
    });
    if (told) break;
    status_set(st, r->status);
    if (rc == MPI_SUCCESS) rc = r->error;
    request_finish(&requests[i]);
  }
  if (!told) return rc;
  // Another member failed the call: what was to come from it (directly or not) will not. The
  // receives not yet matched are taken back, and what the others still send this rank for the
  // call is drained from now on; a matched receive is under way, and a send is taken by its
  // receiver or, when that member fails the call too, by its drain: both finish.
  const MPI_Comm handle = request_get(requests[i])->comm;
  for (int k = i; k < count; ++k) {
    const Request* r = request_get(requests[k]);
    if (r && !r->done && r->kind == Request::Kind::Recv) request_cancel(requests[k]);
  }
  if (Comm* c = comm_find(handle)) coll_drain_call(*c);
  int first = i;
  progress_until([&] {
    for (; first < count; ++first) {
      const Request* r = request_get(requests[first]);
      if (r && !r->done) return false;
    }
    return true;
  });
  for (int k = i; k < count; ++k) {
    if (statuses != MPI_STATUSES_IGNORE) {
      const Request* r = request_get(requests[k]);
      statuses[k] = r ? r->status : MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0};
      statuses[k].MPI_ERROR = MPI_ERR_OTHER;
    }
    request_finish(&requests[k]);
  }
  return MPI_ERR_OTHER;
}

int coll_send(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm) {
  MPI_Request r;
  int rc = isend(buf, count, type, dest, tag, comm, Lane::Coll, false, &r);
  return rc == MPI_SUCCESS ? coll_waitall(1, &r, MPI_STATUSES_IGNORE) : rc;
}

int coll_recv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm) {
  MPI_Request r;
  int rc = irecv(buf, count, type, source, tag, comm, Lane::Coll, &r);
  return rc == MPI_SUCCESS ? coll_waitall(1, &r, MPI_STATUSES_IGNORE) : rc;
}

}  // namespace tilempi::mpi
