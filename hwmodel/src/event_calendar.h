// A network model's pending events, in cycle order (private header).
//
// The events of the next Wheel cycles sit in a calendar, one bucket per cycle, in the order
// they were scheduled; later ones wait in a heap and move into the calendar when its window
// reaches them, before anything else can be scheduled for their cycle. Either way the events
// of one cycle come out in the order they were scheduled, which is what keeps a model's
// results independent of how its future is stored. An entry is the model's own 4-byte code
// (say a packet slot and an event kind): its bucket is its cycle and its place in the bucket
// its order, so neither is stored. Scheduling and taking an event cost a few instructions
// where a heap of all pending events costs a walk of its depth for each. (The packet network
// keeps the same scheme inline in packet_network.h: built on this class, its hot loop took 2 %
// more instructions, so it stays as it is.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <vector>

#include "calendar_bits.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

template <std::size_t Wheel = 1024>
class EventCalendar {
  static_assert(Wheel % 64 == 0 && (Wheel & (Wheel - 1)) == 0, "a power of two, whole words");

 public:
  // `at` is not before the cycle last opened.
  void schedule(Cycle at, std::uint32_t entry) {
    if (at < base_ + Wheel) [[likely]] push_near(at, entry);
    else far_.push(Far{at, seq_++, entry});
  }

  // The first cycle with an event, kNever if none.
  Cycle earliest() const {
    const std::size_t d = first_set_from<Wheel>(bits_, static_cast<std::size_t>(base_ & (Wheel - 1)));
    if (d < Wheel) return base_ + static_cast<Cycle>(d);
    return far_.empty() ? kNever : far_.top().at;
  }

  // Opens cycle t, which must be earliest(): returns its bucket, to which the entries scheduled
  // for t while it is worked through are appended. close(t) empties it afterwards.
  std::vector<std::uint32_t>& open(Cycle t) {
    base_ = t;
    while (!far_.empty() && far_.top().at < base_ + Wheel) {
      push_near(far_.top().at, far_.top().entry);
      far_.pop();
    }
    return wheel_[static_cast<std::size_t>(t & (Wheel - 1))];
  }
  void close(Cycle t) {
    const std::size_t b = static_cast<std::size_t>(t & (Wheel - 1));
    wheel_[b].clear();
    bits_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
  }

 private:
  struct Far {
    Cycle at;
    std::uint64_t seq;  // keeps one cycle's far events in the order they were scheduled
    std::uint32_t entry;
    bool operator>(const Far& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void push_near(Cycle at, std::uint32_t entry) {
    const std::size_t b = static_cast<std::size_t>(at & (Wheel - 1));
    wheel_[b].push_back(entry);
    bits_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }

  std::vector<std::vector<std::uint32_t>> wheel_ = std::vector<std::vector<std::uint32_t>>(Wheel);
  std::uint64_t bits_[Wheel / 64] = {};
  Cycle base_ = 0;  // the calendar holds the events of cycles [base_, base_ + Wheel)
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  std::uint64_t seq_ = 0;
};

}  // namespace tilempi::hwmodel
