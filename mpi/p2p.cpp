// The progress engine's matching: sends and receives begin, arrivals match posted receives in
// MPI's order or queue as unexpected, and the progress pass completes transport operations
// (p2p_state.h lists the other files of the engine).
#include <cstring>
#include <string>
#include <vector>

#include "hooks.h"
#include "p2p_state.h"

namespace tilempi::mpi {

namespace pt2pt {

constinit transport::RankLocal<ProgressEngine> g_engine;

[[gnu::noinline]] void let_go(Request& r) {
  datatype_unhold(r.held_type);
  comm_unhold(r.held_comm);
  r.held_type = nullptr;
  r.held_comm = nullptr;
}

void complete_slow(MPI_Request h, Request& r) {
  if (r.cancel_ask != Request::CancelAsk::None) [[unlikely]] {
    // A send whose receiver was asked to drop it: the transport is done with it, but whether it
    // was cancelled is the receiver's answer, which completes it (p2p_cancel.cpp).
    r.done = false;
    r.cancel_ask = Request::CancelAsk::AskedAndSent;
    return;
  }
  if (r.bsend_size) {
    engine().bsend.used.erase(r.bsend_offset);
    r.bsend_size = 0;
  }
  if (r.freed) request_release(h);
}

namespace {

// The pending operation at i is done: out of in_flight (keeping the order), its request completed.
void finish_in_flight(ProgressEngine& e, std::size_t i) {
  const ProgressEngine::InFlight f = e.in_flight[i];
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
void finish_listed(ProgressEngine& e) {
  for (const transport::OpId id : e.finished) {
    const auto at = find_in_flight(e, id);
    if (at != e.in_flight.end() && at->op == id) finish_in_flight(e, static_cast<std::size_t>(at - e.in_flight.begin()));
  }
  e.finished.clear();
}

void on_arrival_slow(ProgressEngine& e, transport::Transport& tp, const Arrival& a);

// An arrival: to the first posted receive that matches it, else on_arrival_slow().
TILEMPI_HOT void on_arrival(ProgressEngine& e, transport::Transport& tp, const Arrival& a) {
  if (!e.posted.empty()) [[likely]] {
    const envelope::Fields f = envelope::decode(a.envelope);
    if (const MPI_Request h = e.posted.take(f.context, f.source, f.tag, e.requests); h != MPI_REQUEST_NULL) [[likely]] {
      Request* r = e.requests[h].get();
      set_recv_status(*r, f.source, f.tag, a.size);
      start_fetch(e, tp, h, *r, a);
      return;
    }
  }
  on_arrival_slow(e, tp, a);
}

// The rest of matching: no posted receive takes it: an error notice, or the unexpected queue.
[[gnu::noinline]] void on_arrival_slow(ProgressEngine& e, transport::Transport& tp, const Arrival& a) {
  const envelope::Fields f = envelope::decode(a.envelope);
  if (f.context == envelope::kControlContext) [[unlikely]] {
    on_control(e, tp, a, f);
    return;
  }
  // (No receive is ever posted for a notice's tag.)
  if (take_notice(e, tp, a, f)) [[unlikely]]
    return;
  Unexpected u;
  u.context = f.context;
  u.source = f.source;
  u.tag = f.tag;
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

void deliver_unexpected(MPI_Request h, Unexpected& u) {
  ProgressEngine& e = engine();
  Request* r = e.requests[h].get();
  set_recv_status(*r, u.source, u.tag, u.size);
  if (u.sync_sender != MPI_REQUEST_NULL) complete(u.sync_sender);
  if (!u.have_data && u.fetch == kDone) {
    start_fetch(e, transport_of_job(), h, *r, u.arrival);
    return;
  }
  if (u.fetch != kDone) {
    transport::OpId op = u.fetch;
    progress_until([&] { return transport_of_job().fetch_done(op); });
  }
  unpack(u.data.data(), r->received, r->count, *r->type, r->buf);
  complete(h);
}

void progress_messages(ProgressEngine& e, transport::Transport& tp) {
  tp.progress();
  Arrival a;
  while (tp.poll(a)) {
    DirectRecv* d = e.direct;
    if (d && !d->matched) {
      const envelope::Fields f = envelope::decode(a.envelope);
      if (f.context == d->context && envelope::accepts(d->source, d->tag, f.source, f.tag)) {
        d->matched = true;
        d->got_source = f.source;
        d->got_tag = f.tag;
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
        const ProgressEngine::InFlight f = e.in_flight.front();
        if (f.send ? tp.send_done(f.op) : tp.fetch_done(f.op)) finish_in_flight(e, 0);
        tp.take_finished(e.finished);
        finish_listed(e);
      }
    } else {
      for (std::size_t i = 0; i < e.in_flight.size();) {
        const ProgressEngine::InFlight f = e.in_flight[i];
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
  if (!e.control_ops.empty()) [[unlikely]]
    settle_control_ops(e, tp);
}

void progress_others() {
  nbc_progress();
  onesided_progress();
  isendrecv_progress();
}

// Begin a send on request h (new, or a persistent one being started).
void send_on(MPI_Request h, const void* buf, std::size_t count, const Datatype& t, int dest, int tag, Comm& comm,
             Lane lane, bool synchronous) {
  ProgressEngine& e = engine();
  Request* r = e.requests[h].get();
  if (dest == MPI_PROC_NULL) {
    complete(h);
    return;
  }
  std::size_t bytes = count * t.size;
  const std::uint64_t context = lane_context(comm, lane);
  transport::Transport& tp = transport_of_job();
  int dst = comm.peers()[dest];

  if (dest == comm.rank && !comm.inter) {  // (an intercommunicator's dest is in the other group)
    // Loopback: match a posted receive directly, else queue as unexpected.
    if (const MPI_Request rh = e.posted.take(context, comm.rank, tag, e.requests); rh != MPI_REQUEST_NULL) {
      Request* rr = e.requests[rh].get();
      set_recv_status(*rr, comm.rank, tag, bytes);
      std::vector<char> tmp(bytes);
      pack(buf, count, t, tmp.data());
      unpack(tmp.data(), rr->received, rr->count, *rr->type, rr->buf);
      complete(rh);
      complete(h);
      return;
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

  const void* data = buf;
  if (!t.contiguous) {
    r->staging.resize(bytes);
    pack(buf, count, t, r->staging.data());
    data = r->staging.data();
  }
  r->op = tp.send(dst, envelope::encode(context, comm.rank, tag), data, bytes,
                  synchronous ? transport::SendMode::Synchronous : transport::SendMode::Standard);
  r->send_number = envelope::g_last_send_number;
  r->peer = dest;
  if (r->op == kDone) {
    if (!t.contiguous) r->staging = {};
    complete(h, *r);
  } else {
    track(e, h, r->op, r->kind == Request::Kind::Send, r->awaited);
  }
}

}  // namespace pt2pt

using namespace pt2pt;

void progress() {
  progress_messages(engine(), transport_of_job());
  progress_others();
}

void progress_wait() {
  if (threads::pause_for_others()) return;  // MPI_THREAD_MULTIPLE: the others may make the progress
  transport_of_job().wait(1'000'000);
}

void progress_blocking(bool on) {
  transport::Transport& tp = transport_of_job();
  if (on && threads::g_multiple) [[unlikely]]
    threads::wait_begins();
  if (on) tp.begin_blocking_wait();
  else tp.end_blocking_wait();
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
  ProgressEngine& e = engine();
  Request* r;
  const MPI_Request h = new_request(e, Request::Kind::Recv, comm.handle, &r);
  *request = h;
  recv_on(e, h, r, buf, count, &type, source, tag, comm, lane);
  return MPI_SUCCESS;
}

bool iprobe(int source, int tag, Comm& comm, Lane lane, MPI_Status* status) {
  progress();
  const std::uint64_t context = lane_context(comm, lane);
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

std::string describe_pending() {
  ProgressEngine& e = engine();
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
  for (MPI_Request h : e.posted.in_order()) {
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
  for (const ProgressEngine::InFlight& f : e.in_flight) {
    const Request& r = *e.requests[f.h];
    if (r.kind == Request::Kind::Send)
      out += "send on " + comm_of(r.comm) + " not yet taken by its receiver; ";
  }
  if (!out.empty()) out.resize(out.size() - 2);
  return out.empty() ? "nothing pending" : out;
}

}  // namespace tilempi::mpi
