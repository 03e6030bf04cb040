// The engine's queue of requests waiting for their cycle (transport/sim/request_lanes.h): it must
// hand them out exactly in the order one heap of every request did, by cycle, then rank, then the
// order they were posted in, including requests posted out of cycle order into a lane.
#include "sim/request_lanes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

namespace {

using tilempi::transport::sim::EngineRequest;
using tilempi::transport::sim::RequestLanes;

// A request tagged with its place in the posting order (the reference order's last key).
EngineRequest tagged(std::uint64_t posted) {
  EngineRequest q{};
  q.a = posted;
  return q;
}

TEST(RequestLanes, OrderIsCycleThenRankThenPosting) {
  RequestLanes lanes(3);
  lanes.push(10, 2, tagged(0));
  lanes.push(10, 0, tagged(1));
  lanes.push(5, 1, tagged(2));
  lanes.push(10, 0, tagged(3));
  lanes.push(7, -1, tagged(4));
  lanes.push(10, -1, tagged(5));
  const std::vector<std::pair<int, std::uint64_t>> want = {{1, 2}, {-1, 4}, {-1, 5}, {0, 1}, {0, 3}, {2, 0}};
  for (const auto& [rank, posted] : want) {
    ASSERT_FALSE(lanes.empty());
    EngineRequest q;
    EXPECT_EQ(lanes.pop(q), rank);
    EXPECT_EQ(q.a, posted);
  }
  EXPECT_TRUE(lanes.empty());
  EXPECT_EQ(lanes.first_cycle(), RequestLanes::kNone);
}

TEST(RequestLanes, OutOfOrderRequestTakesItsPlaceInItsLane) {
  RequestLanes lanes(1);
  lanes.push(30, -1, tagged(0));
  lanes.push(10, -1, tagged(1));
  lanes.push(20, -1, tagged(2));
  lanes.push(10, -1, tagged(3));  // same cycle as an earlier one: after it
  std::vector<std::uint64_t> got;
  while (!lanes.empty()) {
    const std::uint64_t cycle = lanes.first_cycle();
    EngineRequest q;
    lanes.pop(q);
    got.push_back(cycle * 100 + q.a);
  }
  EXPECT_EQ(got, (std::vector<std::uint64_t>{1001, 1003, 2002, 3000}));
}

// Random bursts from many ranks, mostly in each rank's cycle order, some not, popped while more
// arrive: the same sequence as a single heap keyed (cycle, rank, posting order).
TEST(RequestLanes, SameSequenceAsOneHeapOfEveryRequest) {
  using Key = std::tuple<std::uint64_t, int, std::uint64_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> reference;
  const int ranks = 50;
  RequestLanes lanes(ranks);
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> clock(ranks + 1, 0);
  std::uint64_t posted = 0, now = 0;
  for (int step = 0; step < 20000; ++step) {
    if (rng() % 3 != 0) {
      const int rank = static_cast<int>(rng() % (ranks + 1)) - 1;
      std::uint64_t& c = clock[static_cast<std::size_t>(rank + 1)];
      // A rank's clock moves forward; now and then a request comes with an earlier cycle.
      const std::uint64_t cycle = rng() % 10 == 0 ? now + rng() % 5 : (c = std::max(c, now) + rng() % 4);
      lanes.push(cycle, rank, tagged(posted));
      reference.emplace(cycle, rank, posted);
      ++posted;
    } else if (!reference.empty()) {
      const auto [cycle, rank, id] = reference.top();
      reference.pop();
      ASSERT_EQ(lanes.first_cycle(), cycle);
      EngineRequest q;
      ASSERT_EQ(lanes.pop(q), rank);
      ASSERT_EQ(q.a, id);
      now = cycle;
    }
    ASSERT_EQ(lanes.size(), reference.size());
  }
}

}  // namespace
