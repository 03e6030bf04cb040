// The requests that wait for their cycle (the rank's time plus the lookahead), in the order the
// engine applies them: by cycle, then by rank, then in the order they were posted (private header).
//
// One lane per rank, and a heap of the lanes by their first request. A rank posts its requests in
// the order of its clock, so its lane is a queue: appending and taking the front cost O(1), and
// the heap holds one entry per rank with requests waiting, not one per request. An alltoall on
// 1024 ranks queues a million sends at once; sifting them through one heap, log 2^20 deep and
// missing the cache at each level, was 10 % of the job. A request out of order in its lane (the
// engine's own --migrate orders, given in any order) is put in its place.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/wire.h"

namespace tilempi::transport::sim {

class RequestLanes {
 public:
  /// Lanes for ranks 0 .. ranks-1 and one for the engine's own orders (rank -1), which comes
  /// first among requests of the same cycle, as the lowest rank.
  explicit RequestLanes(int ranks) : lanes_(static_cast<std::size_t>(ranks) + 1) {}

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  /// The most requests that waited at once (TILEMPI_SIM_PROFILE).
  std::size_t peak() const { return peak_; }

  void push(std::uint64_t cycle, int rank, const EngineRequest& q) {
    Lane& l = lanes_[static_cast<std::size_t>(rank + 1)];
    if (l.head == l.cycles.size() || cycle >= l.cycles.back()) {
      l.cycles.push_back(cycle);
      l.items.push_back(q);
    } else {  // after every request of the lane at the same cycle or earlier: they were posted first
      const auto at = std::upper_bound(l.cycles.begin() + static_cast<std::ptrdiff_t>(l.head), l.cycles.end(), cycle);
      l.items.insert(l.items.begin() + (at - l.cycles.begin()), q);
      l.cycles.insert(at, cycle);
    }
    if (++count_ > peak_) peak_ = count_;
    const std::uint64_t first = l.cycles[l.head];
    if (first < l.keyed) key(l, first, rank + 1);
  }

  /// The cycle of the first waiting request; kNone when none waits.
  std::uint64_t first_cycle() {
    drop_stale();
    return heap_.empty() ? kNone : heap_.front().cycle;
  }

  /// Takes the first waiting request (there must be one); returns its rank (-1: an order of the
  /// engine's own).
  int pop(EngineRequest& q) {
    drop_stale();
    const int lane = heap_.front().lane;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    Lane& l = lanes_[static_cast<std::size_t>(lane)];
    q = l.items[l.head];
    ++l.head;
    --count_;
    l.keyed = kNone;
    if (l.head == l.items.size()) {
      l.items.clear();  // (they keep their capacity: the rank's next burst reuses it)
      l.cycles.clear();
      l.head = 0;
    } else {
      if (l.head >= kCompactAfter && 2 * l.head >= l.items.size()) {
        l.items.erase(l.items.begin(), l.items.begin() + static_cast<std::ptrdiff_t>(l.head));
        l.cycles.erase(l.cycles.begin(), l.cycles.begin() + static_cast<std::ptrdiff_t>(l.head));
        l.head = 0;
      }
      key(l, l.cycles[l.head], lane);
    }
    return lane - 1;
  }

  /// Calls f(cycle, rank, request) for every waiting request, each rank's in order.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane)
      for (std::size_t i = lanes_[lane].head; i < lanes_[lane].items.size(); ++i)
        f(lanes_[lane].cycles[i], static_cast<int>(lane) - 1, lanes_[lane].items[i]);
  }

  static constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

 private:
  struct Lane {
    std::vector<EngineRequest> items;  ///< from head on: the waiting requests, in order
    std::vector<std::uint64_t> cycles;  ///< their cycles
    std::size_t head = 0;
    std::uint64_t keyed = kNone;  ///< the cycle of the lane's entry in the heap (kNone: none)
  };
  /// A lane's entry in the heap: valid while the lane is keyed at this cycle (a lane whose first
  /// request changed got a new entry; the old one is dropped when it comes to the top).
  struct Key {
    std::uint64_t cycle;
    int lane;
  };
  static bool later(const Key& a, const Key& b) { return a.cycle != b.cycle ? a.cycle > b.cycle : a.lane > b.lane; }

  void key(Lane& l, std::uint64_t cycle, int lane) {
    l.keyed = cycle;
    heap_.push_back(Key{cycle, lane});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  void drop_stale() {
    while (!heap_.empty() && lanes_[static_cast<std::size_t>(heap_.front().lane)].keyed != heap_.front().cycle) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
  }

  /// Taken requests are erased from a lane's front once they are this many and half of it.
  static constexpr std::size_t kCompactAfter = 256;

  std::vector<Lane> lanes_;
  std::vector<Key> heap_;
  std::size_t count_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace tilempi::transport::sim
