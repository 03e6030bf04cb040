#include "sim/migration_engine.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "sim/p2p_messages.h"
#include "sim/rank_messages.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;
namespace ad = tilempi::hwmodel::adapter;

void Migrations::take(int r, const MigrateRequest& q, bool order) {
  const std::uint64_t now = core_.processing();
  const int n = core_.nranks();
  const hw::Config& config = core_.config();
  const int who = static_cast<int>(q.who);
  const std::uint64_t tile = q.tile;
  MigrateStatus st = MigrateStatus::Ok;
  std::string why;
  if (!core_.adapter().migration()) {
    st = MigrateStatus::Unsupported;
    why = "the " + core_.adapter_name() + " adapter cannot move a task (task migration is modeled for namp)";
  } else if (q.who >= static_cast<std::uint64_t>(n)) {
    st = MigrateStatus::BadRank;
    why = "rank " + std::to_string(q.who) + " does not exist (" + std::to_string(n) + " ranks)";
  } else if (tile >= static_cast<std::uint64_t>(config.width) * static_cast<std::uint64_t>(config.height)) {
    st = MigrateStatus::BadTile;
    why = "tile " + std::to_string(tile) + " is not on the " + std::to_string(config.width) + "x" +
          std::to_string(config.height) + " chip";
  } else {
    for (int o = 0; o < n && st == MigrateStatus::Ok; ++o)
      if (core_.tile(o) == static_cast<hw::TileId>(tile)) {
        st = MigrateStatus::Occupied;
        why = "tile " + std::to_string(tile) + " holds rank " + std::to_string(o);
      }
    for (const auto& [id, mv] : moves_) {
      if (st != MigrateStatus::Ok || mv.switched) continue;
      if (mv.rank == who || mv.to == static_cast<hw::TileId>(tile)) {
        st = MigrateStatus::Occupied;
        why = "rank " + std::to_string(mv.rank) + " is moving to tile " + std::to_string(mv.to);
      }
    }
  }
  if (order && st != MigrateStatus::Ok)
    throw std::runtime_error("--migrate " + std::to_string(q.who) + ":" + std::to_string(tile) + "@" +
                             std::to_string(q.time) + " at cycle " + std::to_string(now) + ": " + why);
  if (!order) core_.publish(r, DoneEvent{now, q.op, static_cast<std::uint64_t>(st)});
  if (st != MigrateStatus::Ok) return;
  const MsgId id = moves_.size() + 1;
  Move& mv = moves_[id];
  mv.rank = who;
  mv.from = core_.tile(who);
  mv.to = static_cast<hw::TileId>(tile);
  mv.requested = now;
  ++pending_switches_;
  core_.adapter().migrate(ad::Migration{id, mv.from, mv.to}, now);
}

void Migrations::work(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  auto it = moves_.find(id);
  if (it == moves_.end() || core_cycles == 0) return;
  core_.publish(it->second.rank, CoreTakenEvent{at, core_cycles});  // the OS's work on the task's core
}

void Migrations::switched(MsgId id, std::uint64_t stop, std::uint64_t resume) {
  auto it = moves_.find(id);
  if (it == moves_.end()) return;
  Move& mv = it->second;
  mv.stop = stop;
  mv.resume = resume;
  // The task's core does nothing from `stop` to `resume`: its clock loses those cycles there.
  core_.publish(mv.rank, MigratedEvent{stop, resume - stop, static_cast<std::uint64_t>(mv.to)});
}

void Migrations::apply_switches(std::uint64_t now) {
  for (auto& [id, mv] : moves_) {
    if (mv.switched || mv.resume == 0 || now < mv.resume) continue;
    mv.switched = true;
    --pending_switches_;
    core_.tiles()[static_cast<std::size_t>(mv.rank)] = mv.to;
  }
}

}  // namespace tilempi::transport::sim
