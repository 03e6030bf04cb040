// Task migration ([Wallentowitz 2018] §3.6, TILEMPIX_Migrate and tilempirun --migrate): the
// engine answers a request at once (DoneEvent, its status a MigrateStatus) and moves the task
// while the caller continues; the moved task's core stops for the switch (MigratedEvent).
#pragma once

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// The answer to a rank's migration request (DoneEvent::status).
enum class MigrateStatus : std::uint64_t { Ok = 0, Unsupported = 1, BadTile = 2, Occupied = 3, BadRank = 4 };

/// Move rank `who`'s task to `tile` (any values: the engine answers BadRank or BadTile).
struct MigrateRequest {
  std::uint64_t time = 0;
  std::uint64_t who = 0;
  std::uint64_t tile = 0;
  OpId op = 0;

  Request encode() const {
    Request q = request_of(kReqMigrate, time);
    q.a = who;
    q.b = tile;
    q.op = op;
    return q;
  }
  static MigrateRequest decode(const Request& q, const DecodeContext&) { return {q.time, q.a, q.b, q.op}; }
};

/// The rank's task stopped at `time` for `core_cycles` and runs on `tile` since.
struct MigratedEvent {
  std::uint64_t time = 0;
  std::uint64_t core_cycles = 0;
  std::uint64_t tile = 0;

  Event encode() const {
    Event e = event_of(kEvMigrated, time);
    e.core_cycles = core_cycles;
    e.a = tile;
    return e;
  }
  static MigratedEvent decode(const Event& e) { return {e.time, e.core_cycles, e.a}; }
};

}  // namespace tilempi::transport::sim
