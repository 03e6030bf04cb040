// The engine's half of collective transfers offloaded to the adapter (offload_messages.h): it
// gathers the members' parts by the transfer's id, starts the adapter's spread or collect, and
// publishes each member's completion (and, at a gather or reduce root, every sender's block).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "sim/engine_core.h"
#include "sim/offload_messages.h"
#include "sim/sim_ids.h"

namespace tilempi::transport::sim {

class Offloads {
 public:
  explicit Offloads(EngineCore& core) : core_(core) {}

  void take(int r, const OffloadRequest& q);
  /// The adapter's report on an offloaded transfer (a part's or the whole group's id, with
  /// kOffloadBit): its data arrived (`arrival`) or left.
  void progress(MsgId id, std::uint64_t at, bool arrival);

 private:
  /// A collective transfer, by the id its members agree on.
  struct Offload {
    hwmodel::adapter::CollKind kind = hwmodel::adapter::CollKind::Multicast;
    int expected = 0;
    int root = -1;
    std::uint64_t bytes = 0, root_off = 0;
    MsgId group = 0;                  ///< the adapter's id of the whole transfer
    std::uint64_t root_done = ~0ull;  ///< when the root's part is complete (known once the adapter says)
    int published = 0;                ///< completions published (all `expected`: the offload ends)
    std::uint64_t last = 0;           ///< the latest completion published to a destination
    struct Part {
      bool posted = false, published = false;
      OffloadRequest q{};
      std::uint64_t done = ~0ull;
      MsgId id = 0;
    };
    std::map<int, Part> parts;  ///< by rank
    bool spread() const {
      return kind == hwmodel::adapter::CollKind::Multicast || kind == hwmodel::adapter::CollKind::Scatter;
    }
  };
  void publish(Offload& o, int r, std::uint64_t at);
  MsgId next_id() { return kOffloadBit | ++seq_; }

 public:
  /// The id the next part or group will get (ids grow one by one): the energy account learns
  /// which ids a request started from this before and after take().
  MsgId peek_next_id() const { return kOffloadBit | (seq_ + 1); }

 private:

  EngineCore& core_;
  std::map<std::uint64_t, Offload> offloads_;
  /// Adapter id of an offload's part (rank) or group (-1) -> (offload key, rank).
  std::unordered_map<MsgId, std::pair<std::uint64_t, int>> ids_;
  std::uint64_t seq_ = 0;
};

}  // namespace tilempi::transport::sim
