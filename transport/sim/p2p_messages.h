// Point-to-point messages between rank and engine: a send, the receiver's fetch, and what the
// engine tells about them (arrival, completion of the send or of a rendezvous fetch, the payload's
// arena space free again). The payload itself never passes through the engine: it waits in the
// sender's arena (ArrivalEvent::arena_off) until the receiver copies it out.
#pragma once

#include <cstddef>

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// Payloads up to this size travel in the records themselves (SendRequest, ArrivalEvent: two
/// slots each) instead of the sender's arena: no arena space to take and release, and no release
/// event, for the small messages that most jobs send most (an alltoall of 8 bytes: one cold line
/// of the arena written and read, and one event, less per message).
inline constexpr std::size_t kInlineBytes = 16;

/// A rank sends `bytes` to `dst`; its payload waits at `arena_off` of the sender's arena, or, with
/// `inline_data` (at most kInlineBytes, eager), travels in `data`.
struct SendRequest {
  std::uint64_t time = 0;
  int dst = 0;
  std::uint64_t bytes = 0, arena_off = 0;
  bool sync = false;  ///< completes when the receiver takes it (MPI_Ssend)
  bool rdv = false;   ///< the adapter's rendezvous protocol
  OpId op = 0;        ///< the send operation to complete (0: complete at once)
  Envelope env{};
  std::uint32_t kind = 0;  ///< the rank's number of the MPI call's kind it belongs to (energy_account.h; 0: none)
  bool inline_data = false;
  std::uint64_t data0 = 0, data1 = 0;  ///< the payload's bytes, with inline_data

  static constexpr auto kWire = wire<EngineRequest, kReqSend>(slot(&SendRequest::time, &EngineRequest::time),
      slot(&SendRequest::dst, &EngineRequest::a), slot(&SendRequest::bytes, &EngineRequest::b),
      slot(&SendRequest::arena_off, &EngineRequest::c), flag(&SendRequest::sync, &EngineRequest::d, 0),
      flag(&SendRequest::rdv, &EngineRequest::d, 1), flag(&SendRequest::inline_data, &EngineRequest::d, 2),
      slot(&SendRequest::op, &EngineRequest::op), slot(&SendRequest::env, &EngineRequest::env),
      slot(&SendRequest::kind, &EngineRequest::e), slot(&SendRequest::data0, &EngineRequest::f),
      slot(&SendRequest::data1, &EngineRequest::g));
  static void check(const EngineRequest& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "destination rank " + std::to_string(q.a) + " of " + std::to_string(cx.nranks));
    cx.check_call_kind(q, q.e);
    if ((q.d >> 2 & 1) && (q.b > kInlineBytes || (q.d >> 1 & 1)))
      cx.bad(q, "a payload of " + std::to_string(q.b) + " bytes in the request (at most " + std::to_string(kInlineBytes) +
                    ", eager)");
  }
};

/// The receiver takes message `msg` (the engine's handle from its ArrivalEvent): it copied the
/// payload out already; a rendezvous fetch completes operation `op` when the data has come.
struct FetchRequest {
  std::uint64_t time = 0;
  std::uint64_t msg = 0;
  OpId op = 0;

  static constexpr auto kWire = wire<EngineRequest, kReqFetch>(slot(&FetchRequest::time, &EngineRequest::time),
      slot(&FetchRequest::msg, &EngineRequest::msg), slot(&FetchRequest::op, &EngineRequest::op));
};

/// A message arrived at its destination (the receiver may poll it from `time` on).
struct ArrivalEvent {
  std::uint64_t time = 0;
  std::uint64_t msg = 0;  ///< the engine's handle, named again by the FetchRequest
  int src = 0;
  std::uint64_t bytes = 0, arena_off = 0;  ///< in the sender's arena
  bool rdv = false, sync = false;
  Envelope env{};
  bool inline_data = false;            ///< the payload is in data, not in the sender's arena
  std::uint64_t data0 = 0, data1 = 0;

  static constexpr auto kWire = wire<EngineEvent, kEvArrival>(slot(&ArrivalEvent::time, &EngineEvent::time),
      slot(&ArrivalEvent::msg, &EngineEvent::msg), slot(&ArrivalEvent::src, &EngineEvent::a),
      slot(&ArrivalEvent::bytes, &EngineEvent::b), slot(&ArrivalEvent::arena_off, &EngineEvent::c),
      flag(&ArrivalEvent::rdv, &EngineEvent::d, 0), flag(&ArrivalEvent::sync, &EngineEvent::d, 1),
      flag(&ArrivalEvent::inline_data, &EngineEvent::d, 2), slot(&ArrivalEvent::env, &EngineEvent::env),
      slot(&ArrivalEvent::data0, &EngineEvent::e), slot(&ArrivalEvent::data1, &EngineEvent::f));
};

/// Operation `op` of the rank completed: a send, a one-sided operation, or a migration request
/// (whose answer is `status`, a MigrateStatus).
struct DoneEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  std::uint64_t status = 0;

  static constexpr auto kWire = wire<EngineEvent, kEvSendDone>(slot(&DoneEvent::time, &EngineEvent::time),
      slot(&DoneEvent::op, &EngineEvent::op), slot(&DoneEvent::status, &EngineEvent::d));
};

/// A rendezvous fetch's data has come (operation `op` of the receiver).
struct DataDoneEvent {
  std::uint64_t time = 0;
  OpId op = 0;

  static constexpr auto kWire = wire<EngineEvent, kEvDataDone>(slot(&DataDoneEvent::time, &EngineEvent::time),
      slot(&DataDoneEvent::op, &EngineEvent::op));
};

/// The payload at `arena_off` of the rank's arena was copied out: the space is free again.
struct ReleaseEvent {
  std::uint64_t time = 0;
  std::uint64_t arena_off = 0;

  static constexpr auto kWire = wire<EngineEvent, kEvRelease>(slot(&ReleaseEvent::time, &EngineEvent::time),
      slot(&ReleaseEvent::arena_off, &EngineEvent::a));
};

}  // namespace tilempi::transport::sim
