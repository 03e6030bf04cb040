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

  static constexpr auto kWire = wire<EngineRequest, kReqMigrate>(slot(&MigrateRequest::time, &EngineRequest::time),
      slot(&MigrateRequest::who, &EngineRequest::a), slot(&MigrateRequest::tile, &EngineRequest::b),
      slot(&MigrateRequest::op, &EngineRequest::op));
};

/// The rank's core was taken from `time` on for `core_cycles`: by a one-sided operation's
/// handler or the OS's work for a migration (CoreTakenEvent), or by the task's switch of tiles,
/// after which it runs on `tile` (MigratedEvent).
template <std::uint32_t Kind>
struct CoreStopEvent {
  std::uint64_t time = 0;
  std::uint64_t core_cycles = 0;
  std::uint64_t tile = 0;

  static constexpr auto kWire = wire<EngineEvent, Kind>(slot(&CoreStopEvent::time, &EngineEvent::time),
      slot(&CoreStopEvent::core_cycles, &EngineEvent::core_cycles), slot(&CoreStopEvent::tile, &EngineEvent::a));
};
using CoreTakenEvent = CoreStopEvent<kEvServed>;
using MigratedEvent = CoreStopEvent<kEvMigrated>;

}  // namespace tilempi::transport::sim
