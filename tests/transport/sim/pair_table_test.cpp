// The engine's table of the pairs of ranks with a message in flight (transport/sim/pair_table.h):
// it must find, make and remove entries exactly as a std::unordered_map does, whatever the order
// of insertions and removals, across its growth and around the end of its array (deletion by
// shifting back entries is where open addressing goes wrong).
#include "sim/pair_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

namespace {

using tilempi::transport::sim::PairTable;

struct Value {
  std::uint64_t a = 0, b = 0;
};

TEST(PairTable, MakesFindsAndErases) {
  PairTable<Value> t;
  EXPECT_EQ(t.find(7), nullptr);
  t.at(7).a = 3;
  t.at(9).b = 4;
  ASSERT_NE(t.find(7), nullptr);
  EXPECT_EQ(t.find(7)->a, 3u);
  EXPECT_EQ(t.at(9).b, 4u);
  EXPECT_EQ(t.size(), 2u);
  t.erase(7);
  EXPECT_EQ(t.find(7), nullptr);
  EXPECT_EQ(t.find(9)->b, 4u);
  EXPECT_EQ(t.at(7).a, 0u);  // made again, value-initialized
  EXPECT_EQ(t.size(), 2u);
}

// Random operations on keys from a small range (long probe chains, wrap-around) and a large one
// (growth), checked against std::unordered_map after every step.
TEST(PairTable, AgreesWithUnorderedMap) {
  for (const std::uint64_t range : {40ull, 1000ull, 1ull << 40}) {
    std::mt19937_64 rng(range);
    PairTable<Value> t;
    std::unordered_map<std::uint64_t, Value> ref;
    std::vector<std::uint64_t> keys;
    for (int step = 0; step < 20000; ++step) {
      const std::uint64_t key = rng() % range;
      const int op = static_cast<int>(rng() % 3);
      if (op < 2) {  // make or update
        t.at(key).a += 1;
        ref[key].a += 1;
      } else if (auto it = ref.find(key); it != ref.end()) {
        t.erase(key);
        ref.erase(it);
      }
      ASSERT_EQ(t.size(), ref.size());
      if (step % 97 == 0)
        for (const auto& [k, v] : ref) {
          const Value* got = t.find(k);
          ASSERT_NE(got, nullptr) << "key " << k << " at step " << step;
          ASSERT_EQ(got->a, v.a);
        }
      ASSERT_EQ(t.find(key) != nullptr, ref.count(key) == 1);
    }
  }
}

}  // namespace
