// The engine's half of the static network's broadcasts (static_messages.h): it collects every
// participant's part, configures the routers along the root's routes, streams the words and
// tells each participant when its data is there.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/engine_core.h"
#include "sim/static_messages.h"

namespace tilempi::transport::sim {

class StaticBroadcasts {
 public:
  explicit StaticBroadcasts(EngineCore& core) : core_(core) {}

  void take(int r, const StaticRequest& s, std::uint64_t now);
  void copied(const StaticCopiedRequest& c);
  /// Broadcasts run so far.
  std::uint64_t count() const { return count_; }

 private:
  struct Broadcast {
    int expected = 0;
    int root = -1;
    std::uint64_t bytes = 0, root_off = 0;
    std::uint64_t root_time = 0;
    std::vector<std::pair<int, StaticRequest>> parts;
  };
  void run(Broadcast& b, std::uint64_t now);
  void release(int root, std::uint64_t root_off, std::uint64_t time);

  EngineCore& core_;
  std::map<std::uint64_t, Broadcast> pending_;
  /// A broadcast's data in the root's arena, by (root, offset): released when every other
  /// participant has copied it out (StaticCopiedRequest), never on a guess of when they will.
  struct Copies {
    int left = 0;
    std::uint64_t time = 0;  ///< the cycle the last participant's data arrived
  };
  std::map<std::pair<int, std::uint64_t>, Copies> copies_;
  std::uint64_t count_ = 0;
};

}  // namespace tilempi::transport::sim
