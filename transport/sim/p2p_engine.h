// The engine's half of point-to-point messages (p2p_messages.h): the table of messages in
// flight, the adapter's reports on them, and the order of arrivals between two ranks.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/engine_core.h"
#include "sim/p2p_messages.h"
#include "sim/pair_table.h"
#include "sim/sim_ids.h"

namespace tilempi::transport::sim {

class P2pMessages {
 public:
  explicit P2pMessages(EngineCore& core);

  /// Returns the message's handle.
  MsgId send(int r, const SendRequest& s);
  void fetch(int r, const FetchRequest& f, std::uint64_t now);

  // The adapter's reports on a message, by its handle.
  void arrived(MsgId id, std::uint64_t at, std::uint64_t core_cycles);
  void sent(MsgId id, std::uint64_t at, std::uint64_t core_cycles);
  void data_done(MsgId id, std::uint64_t at, std::uint64_t core_cycles);

  /// Each message's latency, from the send call to its arrival.
  const hwmodel::Summary& latency() const { return latency_; }
  /// The most messages in flight at once (sent, and not yet both fetched and completed): the
  /// table's slots, which are reused (TILEMPI_SIM_PROFILE).
  std::size_t peak_in_flight() const { return msgs_.size(); }

 private:
  // A message in flight, in a slot of msgs_, named by its MessageHandle (sim_ids.h).
  struct Msg {
    MsgId handle = 0;  // 0: free slot
    int src = -1;
    SendRequest send{};  // as the sender posted it (its time: the send call's cycle, for the latency)
    OpId fetch_op = 0;
    bool sent = false, fetched = false, data = false, arrived = false;
    bool published = false;      // its arrival was published to dst
    std::uint64_t pair_seq = 0;  // its place among the messages from src to dst
  };
  Msg& new_msg();
  Msg* find(MsgId handle);
  void free_msg(Msg& m);
  /// Publishes an arrival in the order its messages were sent between the two ranks.
  void publish_arrival(Msg& m, ArrivalEvent e);

  /// Per pair of ranks (src * n + dst) with a message in flight: messages sent, arrivals
  /// published, and arrivals held back until the ones sent before them are published (an
  /// adapter that moves an endpoint may finish a later message first; MPI's non-overtaking rule
  /// rests on this order). A pair's entry goes when its last message is published (and its last
  /// arrival time lies behind the engine's cycle, so a later message's cannot be below it): the
  /// table holds the pairs in flight, not every pair that ever spoke. One entry per pair
  /// (N^2) had been 32 MB at 1024 ranks, two cache misses per message, and at 4096 a hash map
  /// of 16.7 M entries, most of the job's 916 MiB.
  struct PairOrder {
    std::uint64_t sent = 0, published = 0, last_time = 0;
    std::uint64_t held = 0;  ///< arrivals in held_ for this pair
  };
  std::uint64_t pair_key(int src, int dst) const {
    return static_cast<std::uint64_t>(src) * static_cast<std::uint64_t>(core_.nranks()) + static_cast<std::uint64_t>(dst);
  }

  EngineCore& core_;
  std::vector<Msg> msgs_;
  std::vector<std::uint32_t> free_msgs_;
  std::uint64_t msg_count_ = 0;
  PairTable<PairOrder> pairs_;
  /// Arrivals held back, by (src * n + dst, the pair's message number).
  std::map<std::pair<std::uint64_t, std::uint64_t>, ArrivalEvent> held_;
  hwmodel::Summary latency_;
};

}  // namespace tilempi::transport::sim
