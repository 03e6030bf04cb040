// The engine's half of one-sided operations (remote_messages.h): the adapter times them, the
// engine completes the origin's operation and charges the target's core for its handler.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "sim/engine_core.h"
#include "sim/remote_messages.h"
#include "sim/sim_ids.h"

namespace tilempi::transport::sim {

class RemoteOperations {
 public:
  explicit RemoteOperations(EngineCore& core) : core_(core) {}

  void take(int r, const RemoteRequest& q);
  void done(MsgId id, std::uint64_t at, std::uint64_t core_cycles);
  void served(MsgId id, std::uint64_t at, std::uint64_t core_cycles);

  std::uint64_t count() const { return count_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  struct Operation {
    int origin = -1, target = -1;
    OpId op = 0;
  };
  EngineCore& core_;
  std::unordered_map<MsgId, Operation> in_flight_;
  std::uint64_t count_ = 0, bytes_ = 0;
};

}  // namespace tilempi::transport::sim
