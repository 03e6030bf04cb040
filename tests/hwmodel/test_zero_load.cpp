// Zero-load latency equals the analytic value for every source-destination pair.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {

struct Case {
  int width, height;
  bool torus;
  std::vector<std::string> overrides;
};

// Analytic: injection + (hops + 1) router traversals + hops wire delays +
// serialization of the remaining flits + ejection.
Cycle analytic(const Config& c, int hops, int payload) {
  const int flits = c.header_flits + payload;
  return static_cast<Cycle>(c.injection_latency + (hops + 1) * (c.head_stages() + c.router_delay) + hops * c.link_latency +
                            (flits - 1) + c.ejection_latency);
}

void check_all_pairs(const Case& k, const std::vector<int>& payloads, bool fast = false);

void check_all_pairs_both(const Case& k, const std::vector<int>& payloads) {
  check_all_pairs(k, payloads, false);
  check_all_pairs(k, payloads, true);  // fast_worms: the same cycles
}

void check_all_pairs(const Case& k, const std::vector<int>& payloads, bool fast) {
  Config c;
  c.fast_worms = fast;
  c.width = k.width;
  c.height = k.height;
  c.torus = k.torus;
  if (k.torus) c.vcs = 2;
  c.apply_all(k.overrides);
  c.fast_worms = fast;
  Chip chip(c);
  const Topology& topo = chip.topology();
  Cycle delivered = kNever, sent = kNever;
  chip.on_delivered([&](const PacketEvent& e) { delivered = e.cycle; });
  chip.on_injected([&](const PacketEvent& e) { sent = e.cycle; });
  for (int payload : payloads) {
    for (TileId s = 0; s < topo.num_tiles(); ++s) {
      for (TileId d = 0; d < topo.num_tiles(); ++d) {
        const Cycle at = chip.now() + 3;
        chip.inject(0, s, d, static_cast<std::uint32_t>(payload), at, 7);
        chip.run_to_idle();
        const int flits = c.header_flits + payload;
        const Cycle want = analytic(c, topo.hops(s, d), payload);
        ASSERT_EQ(delivered - at, want) << k.width << "x" << k.height << (k.torus ? " torus" : "") << " " << s
                                        << "->" << d << " payload " << payload;
        ASSERT_EQ(chip.zero_load_latency(s, d, static_cast<std::uint32_t>(payload)), want);
        // The tail leaves the injection buffer once it is visible at the router.
        ASSERT_EQ(sent - at, static_cast<Cycle>(c.injection_latency + c.head_stages() + flits - 1));
      }
    }
  }
}

}  // namespace

TEST(ZeroLoad, Mesh1x1) { check_all_pairs_both({1, 1, false, {}}, {0, 1, 7}); }
TEST(ZeroLoad, Mesh4x4Defaults) { check_all_pairs_both({4, 4, false, {}}, {0, 1, 3, 16}); }
TEST(ZeroLoad, Mesh3x5SlowRouters) {
  check_all_pairs_both({3, 5, false,
                   {"router_delay=3", "link_latency=2", "injection_latency=2", "ejection_latency=4",
                    "credit_delay=2", "input_buffer_flits=8", "ejection_buffer_flits=9",
                    "injection_buffer_flits=2"}},
                  {0, 2, 9});
}
TEST(ZeroLoad, Mesh8x8TilePro) {
  Config c = Config::preset_named("tilepro64");
  std::vector<std::string> o;
  for (const std::string& k : Config::keys()) o.push_back(k + "=" + c.get(k));
  check_all_pairs_both({8, 8, false, o}, {0, 5, 128});
}
TEST(ZeroLoad, Mesh8x8MMachine) {
  Config c = Config::preset_named("mmachine");
  std::vector<std::string> o;
  for (const std::string& k : Config::keys()) o.push_back(k + "=" + c.get(k));
  check_all_pairs({8, 8, false, o}, {0, 9});
}
TEST(ZeroLoad, Torus5x4) { check_all_pairs({5, 4, true, {"header_flits=2"}}, {0, 6}); }
TEST(ZeroLoad, Mesh16x2TwoHeaderFlits) { check_all_pairs_both({16, 2, false, {"header_flits=2", "router_delay=2"}}, {1, 4}); }

// Router pipelines with route computation and VC allocation stages (the head's extra cycles at
// every router), and with speculative switch allocation. Buffers cover the credit loop of a
// head that waits in them: head stages + router_delay + link_latency + credit_delay.
TEST(ZeroLoad, Mesh4x5RouteAndVcAllocationStages) {
  check_all_pairs_both({4, 5, false,
                        {"routing_delay=1", "vc_alloc_delay=1", "router_delay=2", "link_latency=1", "credit_delay=2",
                         "input_buffer_flits=7", "injection_buffer_flits=6", "ejection_buffer_flits=6",
                         "injection_latency=2"}},
                       {0, 1, 4, 20});
}
TEST(ZeroLoad, Mesh5x3SpeculativeVcAllocation) {
  check_all_pairs_both({5, 3, false,
                        {"routing_delay=2", "vc_alloc_delay=3", "sw_alloc_delay=2", "st_delay=1", "speculative=true",
                         "credit_delay=1", "input_buffer_flits=7", "injection_buffer_flits=6",
                         "ejection_buffer_flits=6", "injection_credit_delay=1"}},
                       {0, 3, 12});
}
