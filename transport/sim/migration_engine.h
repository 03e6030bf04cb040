// The engine's half of task migration ([Wallentowitz 2018] §3.6; migration_messages.h): the
// engine owns the placement (which tile a rank's messages leave from and go to), the adapter
// moves the communication. A tile may hold one task: a migration needs a tile that no rank
// occupies and that no migration in progress involves.
#pragma once

#include <cstdint>
#include <map>

#include "sim/engine_core.h"
#include "sim/sim_ids.h"
#include "sim/migration_messages.h"

namespace tilempi::transport::sim {

class Migrations {
 public:
  explicit Migrations(EngineCore& core) : core_(core) {}

  /// A rank's migration request, or with `order` (rank -1) a --migrate order: starts it or says
  /// why not (an order that cannot run ends the job).
  void take(int r, const MigrateRequest& q, bool order);
  /// The adapter's reports: the OS's work on the task's core, the switch of tiles.
  void work(MsgId id, std::uint64_t at, std::uint64_t core_cycles);
  void switched(MsgId id, std::uint64_t stop, std::uint64_t resume);
  /// Moves the ranks whose switch is due at `now` to their new tiles.
  void apply_switches(std::uint64_t now);
  bool switches_pending() const { return pending_switches_ != 0; }

  struct Move {
    int rank = -1;
    hwmodel::TileId from = 0, to = 0;
    std::uint64_t requested = 0, stop = 0, resume = 0;
    bool switched = false;  ///< the placement names the new tile (from `resume` on)
  };
  /// Every migration, by the adapter's id (the run report).
  const std::map<MsgId, Move>& moves() const { return moves_; }

 private:
  EngineCore& core_;
  std::map<MsgId, Move> moves_;
  std::uint64_t pending_switches_ = 0;  ///< moves whose tile switch is still to come
};

}  // namespace tilempi::transport::sim
