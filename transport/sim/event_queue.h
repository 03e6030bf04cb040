// The events a rank of the sim transport holds, in (cycle, sequence) order (sim_rank.h).
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>

#include "sim/slots.h"
#include "sim/wire.h"

namespace tilempi::transport::sim {

/// The events the rank holds, in (cycle, sequence) order: small keys kept sorted, the events in
/// slots beside them (an EngineEvent is two cache lines). They come from the engine almost in cycle
/// order, so a new key goes in a step or two from the back, and taking the first costs nothing
/// (a heap paid a walk of its depth for both, hundreds of events deep while a rank sleeps
/// through a wait for its alltoall).
class EventQueue {
 public:
  bool empty() const { return keys_.empty(); }
  std::uint64_t top_time() const { return keys_.front().time; }
  void push(std::uint64_t time, std::uint64_t seq, const EngineEvent& e) {
    const Key k{time, seq, events_.put(e), e.kind};
    auto at = keys_.end();
    while (at != keys_.begin() && *std::prev(at) > k) --at;
    keys_.insert(at, k);
  }
  EngineEvent pop() {
    const std::uint32_t slot = keys_.front().slot;
    keys_.pop_front();
    events_.release(slot);  // (its value stays until the slot is put again)
    return events_[slot];
  }
  std::uint32_t top_kind() const { return keys_.front().kind; }
  /// Takes the first event out of the order but leaves it in its slot, where event() reads it
  /// until release(): an arrival waits there for its poll, copied nowhere.
  std::uint32_t pop_slot() {
    const std::uint32_t slot = keys_.front().slot;
    keys_.pop_front();
    return slot;
  }
  const EngineEvent& event(std::uint32_t slot) const { return events_[slot]; }
  void release(std::uint32_t slot) { events_.release(slot); }
  /// The earliest cycle of an event other than a release (of any event with `releases`);
  /// ~0 if none.
  std::uint64_t first_time(bool releases) const {
    for (const Key& k : keys_)
      if (releases || k.kind != kEvRelease) return k.time;
    return ~std::uint64_t{0};
  }

 private:
  struct Key {
    std::uint64_t time, seq;
    std::uint32_t slot, kind;
    bool operator>(const Key& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::deque<Key> keys_;
  Slots<EngineEvent> events_;
};

}  // namespace tilempi::transport::sim
