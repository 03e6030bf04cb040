// Point-to-point messages between rank and engine: a send, the receiver's fetch, and what the
// engine tells about them (arrival, completion of the send or of a rendezvous fetch, the payload's
// arena space free again). The payload itself never passes through the engine: it waits in the
// sender's arena (ArrivalEvent::arena_off) until the receiver copies it out.
#pragma once

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// A rank sends `bytes` to `dst`; its payload waits at `arena_off` of the sender's arena.
struct SendRequest {
  std::uint64_t time = 0;
  std::uint64_t msg = 0;  ///< the sender's id of the message (sim_ids.h RankMessageIds)
  int dst = 0;
  std::uint64_t bytes = 0, arena_off = 0;
  bool sync = false;  ///< completes when the receiver takes it (MPI_Ssend)
  bool rdv = false;   ///< the adapter's rendezvous protocol
  OpId op = 0;        ///< the send operation to complete (0: complete at once)
  Envelope env{};

  Request encode() const {
    Request q = request_of(kReqSend, time);
    q.msg = msg;
    q.a = static_cast<std::uint64_t>(dst);
    q.b = bytes;
    q.c = arena_off;
    q.d = (sync ? 1u : 0u) | (rdv ? 2u : 0u);
    q.op = op;
    q.env = env;
    return q;
  }
  static SendRequest decode(const Request& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "destination rank " + std::to_string(q.a) + " of " + std::to_string(cx.nranks));
    SendRequest s;
    s.time = q.time;
    s.msg = q.msg;
    s.dst = static_cast<int>(q.a);
    s.bytes = q.b;
    s.arena_off = q.c;
    s.sync = (q.d & 1) != 0;
    s.rdv = (q.d & 2) != 0;
    s.op = q.op;
    s.env = q.env;
    return s;
  }
};

/// The receiver takes message `msg` (the engine's handle from its ArrivalEvent): it copied the
/// payload out already; a rendezvous fetch completes operation `op` when the data has come.
struct FetchRequest {
  std::uint64_t time = 0;
  std::uint64_t msg = 0;
  OpId op = 0;

  Request encode() const {
    Request q = request_of(kReqFetch, time);
    q.msg = msg;
    q.op = op;
    return q;
  }
  static FetchRequest decode(const Request& q, const DecodeContext&) { return {q.time, q.msg, q.op}; }
};

/// A message arrived at its destination (the receiver may poll it from `time` on).
struct ArrivalEvent {
  std::uint64_t time = 0;
  std::uint64_t msg = 0;  ///< the engine's handle, named again by the FetchRequest
  int src = 0;
  std::uint64_t bytes = 0, arena_off = 0;  ///< in the sender's arena
  bool rdv = false, sync = false;
  Envelope env{};

  Event encode() const {
    Event e = event_of(kEvArrival, time);
    e.msg = msg;
    e.a = static_cast<std::uint64_t>(src);
    e.b = bytes;
    e.c = arena_off;
    e.d = (rdv ? 1u : 0u) | (sync ? 2u : 0u);
    e.env = env;
    return e;
  }
  static ArrivalEvent decode(const Event& e) {
    ArrivalEvent a;
    a.time = e.time;
    a.msg = e.msg;
    a.src = static_cast<int>(e.a);
    a.bytes = e.b;
    a.arena_off = e.c;
    a.rdv = (e.d & 1) != 0;
    a.sync = (e.d & 2) != 0;
    a.env = e.env;
    return a;
  }
};

/// Operation `op` of the rank completed: a send, a one-sided operation, or a migration request
/// (whose answer is `status`, a MigrateStatus).
struct DoneEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  std::uint64_t status = 0;

  Event encode() const {
    Event e = event_of(kEvSendDone, time);
    e.op = op;
    e.d = status;
    return e;
  }
  static DoneEvent decode(const Event& e) { return {e.time, e.op, e.d}; }
};

/// A rendezvous fetch's data has come (operation `op` of the receiver).
struct DataDoneEvent {
  std::uint64_t time = 0;
  OpId op = 0;

  Event encode() const {
    Event e = event_of(kEvDataDone, time);
    e.op = op;
    return e;
  }
  static DataDoneEvent decode(const Event& e) { return {e.time, e.op}; }
};

/// The payload at `arena_off` of the rank's arena was copied out: the space is free again.
struct ReleaseEvent {
  std::uint64_t time = 0;
  std::uint64_t arena_off = 0;

  Event encode() const {
    Event e = event_of(kEvRelease, time);
    e.a = arena_off;
    return e;
  }
  static ReleaseEvent decode(const Event& e) { return {e.time, e.a}; }
};

}  // namespace tilempi::transport::sim
