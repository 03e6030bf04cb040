// The rank's half of task migration (migration_messages.h).
#include "sim/migration_messages.h"
#include "sim/sim_rank.h"

namespace tilempi::transport::sim {

// The engine answers at once (in virtual time: the request's cycle + lookahead); the migration
// itself goes on while the caller continues.
MigrateResult SimTransport::migrate(int rank, int tile) {
  Call call(*this);
  const OpId op = next_op_++;
  Op& mine = ops_.insert(op);
  post(MigrateRequest{clock_, static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(tile), op});
  wait_for(mine);
  const std::uint64_t status = mine.status;
  ops_.erase(op);
  switch (static_cast<MigrateStatus>(status)) {
    case MigrateStatus::Ok: return MigrateResult::Ok;
    case MigrateStatus::BadTile: return MigrateResult::BadTile;
    case MigrateStatus::Occupied: return MigrateResult::Occupied;
    default: return MigrateResult::Unsupported;
  }
}

}  // namespace tilempi::transport::sim
