// A rank's own life as the engine sees it: it blocks (and is woken), its core is taken for a
// while by a handler, it annotates the run, it finishes.
#pragma once

#include <algorithm>
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
  std::uint64_t earliest_held = 0;  ///< the earliest event held but not final yet (kNever: none): wake then
  bool wants_space = false;         ///< waits for arena space: releases wake it
  std::uint64_t sleep_through = 0;  ///< completions not to be woken for (kSleepAll: all but wake_op's)
  OpId wake_op = 0;

  Request encode() const {
    Request q = request_of(kReqBlock, time);
    q.a = events_seen;
    q.b = earliest_held;
    q.c = wants_space ? 1 : 0;
    q.d = sleep_through;
    q.op = wake_op;
    return q;
  }
  static BlockRequest decode(const Request& q, const DecodeContext&) {
    return {q.time, q.a, q.b, q.c != 0, q.d, q.op};
  }
};

/// One annotation ("key=value", e.g. the algorithm a collective ran) made `count` times.
struct NoteRequest {
  /// The longest text a note carries (it fills the record's env and spare).
  static constexpr std::size_t kChars = sizeof(Envelope) + 3 * sizeof(std::uint64_t);
  std::uint64_t time = 0;
  std::uint64_t count = 0;
  std::string text;

  Request encode() const {
    Request q = request_of(kReqNote, time);
    q.a = count;
    char buf[kChars] = {};
    std::memcpy(buf, text.data(), std::min(text.size(), kChars));
    std::memcpy(&q.env, buf, sizeof q.env);
    std::memcpy(q.spare, buf + sizeof q.env, sizeof q.spare);
    return q;
  }
  static NoteRequest decode(const Request& q, const DecodeContext&) {
    char buf[kChars + 1] = {};
    std::memcpy(buf, &q.env, sizeof q.env);
    std::memcpy(buf + sizeof q.env, q.spare, sizeof q.spare);
    return {q.time, q.a, std::string(buf)};
  }
};
static_assert(NoteRequest::kChars == sizeof(Envelope) + sizeof(Request::spare));

/// The rank said goodbye (MPI_Finalize) with its clock at `time`: its totals.
struct FinishRequest {
  std::uint64_t time = 0;
  bool counted = false;  ///< its compute was charged as counted operations (--compute model)
  std::uint64_t comm = 0, compute = 0, waited = 0;  ///< cycles
  std::uint64_t horizon_waits = 0, horizon_sleeps = 0, blocks = 0;  ///< hand-offs (TILEMPI_SIM_PROFILE)

  Request encode() const {
    Request q = request_of(kReqFinish, time);
    q.a = counted ? 1 : 0;
    q.b = comm;
    q.c = compute;
    q.d = waited;
    q.spare[0] = horizon_waits;
    q.spare[1] = horizon_sleeps;
    q.spare[2] = blocks;
    return q;
  }
  static FinishRequest decode(const Request& q, const DecodeContext&) {
    return {q.time, q.a != 0, q.b, q.c, q.d, q.spare[0], q.spare[1], q.spare[2]};
  }
};

/// The rank's core was taken from `time` on for `core_cycles` (a one-sided operation's handler,
/// the OS moving a task).
struct CoreTakenEvent {
  std::uint64_t time = 0;
  std::uint64_t core_cycles = 0;

  Event encode() const {
    Event e = event_of(kEvServed, time);
    e.core_cycles = core_cycles;
    return e;
  }
  static CoreTakenEvent decode(const Event& e) { return {e.time, e.core_cycles}; }
};

}  // namespace tilempi::transport::sim
