// A rank's own life as the engine sees it: it blocks (and is woken), it annotates the run, it
// finishes. (Its core taken by a handler: CoreTakenEvent, migration_messages.h.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// BlockRequest::sleep_through: sleep through every completion but that of wake_op.
inline constexpr std::uint64_t kSleepAll = ~std::uint64_t{0};

/// The rank waits: wake it at its next event.
struct BlockRequest {
  std::uint64_t time = 0;
  std::uint64_t events_seen = 0;  ///< events taken so far: one published since means "do not sleep"
  std::uint64_t earliest_held = 0;  ///< the earliest event held but not final yet (~0: none): wake then
  bool wants_space = false;         ///< waits for arena space: releases wake it
  std::uint64_t sleep_through = 0;  ///< completions not to be woken for (kSleepAll: all but wake_op's)
  OpId wake_op = 0;

  static constexpr auto kWire = wire<EngineRequest, kReqBlock>(slot(&BlockRequest::time, &EngineRequest::time),
      slot(&BlockRequest::events_seen, &EngineRequest::a), slot(&BlockRequest::earliest_held, &EngineRequest::b),
      slot(&BlockRequest::wants_space, &EngineRequest::c), slot(&BlockRequest::sleep_through, &EngineRequest::d),
      slot(&BlockRequest::wake_op, &EngineRequest::op));
};

/// The rank said goodbye (MPI_Finalize) with its clock at `time`: its totals.
struct FinishRequest {
  std::uint64_t time = 0;
  bool counted = false;  ///< its compute was charged as counted operations (--compute model)
  std::uint64_t comm = 0, compute = 0, waited = 0;  ///< cycles
  std::uint64_t horizon_waits = 0, horizon_sleeps = 0, blocks = 0;  ///< hand-offs (TILEMPI_SIM_PROFILE)

  static constexpr auto kWire = wire<EngineRequest, kReqFinish>(slot(&FinishRequest::time, &EngineRequest::time),
      slot(&FinishRequest::counted, &EngineRequest::a), slot(&FinishRequest::comm, &EngineRequest::b),
      slot(&FinishRequest::compute, &EngineRequest::c), slot(&FinishRequest::waited, &EngineRequest::d),
      slot(&FinishRequest::horizon_waits, &EngineRequest::e), slot(&FinishRequest::horizon_sleeps, &EngineRequest::f),
      slot(&FinishRequest::blocks, &EngineRequest::g));
};

/// One annotation ("key=value", e.g. the algorithm a collective ran) made `count` times. Its text
/// fills the record's envelope and last slots, NUL-padded: the one message that is not a list of
/// fields.
struct NoteRequest {
  /// The longest text a note carries.
  static constexpr std::size_t kChars = sizeof(Envelope) + 3 * sizeof(std::uint64_t);
  std::uint64_t time = 0;
  std::uint64_t count = 0;
  std::string text;

  EngineRequest encode() const {
    EngineRequest q{};
    q.kind = kReqNote;
    q.time = time;
    q.a = count;
    char buf[kChars] = {};
    std::memcpy(buf, text.data(), std::min(text.size(), kChars));
    std::memcpy(reinterpret_cast<char*>(&q) + offsetof(EngineRequest, env), buf, kChars);
    return q;
  }
  static NoteRequest decode(const EngineRequest& q) {
    char buf[kChars + 1] = {};
    std::memcpy(buf, reinterpret_cast<const char*>(&q) + offsetof(EngineRequest, env), kChars);
    return {q.time, q.a, std::string(buf)};
  }
};
inline EngineRequest encode(const NoteRequest& n) { return n.encode(); }
template <>
inline NoteRequest decode<NoteRequest>(const EngineRequest& q, const DecodeContext&) {
  return NoteRequest::decode(q);
}
// The text runs from env over e, f and g: they must follow env with no gap.
static_assert(offsetof(EngineRequest, g) + sizeof(EngineRequest::g) - offsetof(EngineRequest, env) == NoteRequest::kChars);

}  // namespace tilempi::transport::sim
