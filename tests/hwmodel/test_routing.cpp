// Routing functions (the chip key `routing`) and BookSim's separable allocators in the flit model:
// every registered function delivers every packet under overload (no deadlock) with the VCs it
// asks for, on the paths it may take; its paths, checked against the turn rules of the turn
// models; its refusal of a chip it cannot run deadlock-free; its determinism given the seed; and
// that the separable allocators change nothing with one VC per port.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/routing.h"
#include "tilempi/hwmodel/traffic.h"

using namespace tilempi::hwmodel;

namespace {

Config chip_for(const std::string& routing, int vcs_per_class, int width = 6, int height = 6) {
  Config c = Config::preset_named("default");
  c.width = width;
  c.height = height;
  c.vcs = vcs_per_class;
  c.vcs_per_class = vcs_per_class;
  c.routing = routing;
  c.validate();
  return c;
}

int vcs_needed(const RoutingEntry& e) { return e.min_class_vcs; }

bool same_set(const std::vector<Link>& a, const std::vector<Link>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!(a[k] == b[k])) return false;
  return true;
}

// Every path the routing function allows from src to dst (a depth-first walk over its options,
// following each option's port and keeping the packet's state per branch), called with `visit`.
void every_path(const RoutingEntry& e, const Topology& topo, TileId src, TileId dst, const PacketRoute& start,
                const std::function<void(const std::vector<Link>&)>& visit) {
  std::vector<Link> path;
  std::function<void(TileId, int, int, PacketRoute)> walk = [&](TileId at, int in_port, int in_vc, PacketRoute st) {
    ASSERT_LT(path.size(), static_cast<std::size_t>(4 * topo.num_tiles())) << e.name << " loops";
    RouteOption o[kMaxRouteOptions];
    const int n = e.route(topo, RouteAt{at, src, dst, in_port, in_vc, 2}, st, o);
    ASSERT_GE(n, 1);
    for (int k = 0; k < n; ++k) {
      const Dir d = static_cast<Dir>(o[k].port);
      if (d == Dir::Local) {
        ASSERT_EQ(at, dst) << e.name << " ejects before the destination";
        visit(path);
        continue;
      }
      ASSERT_NE(topo.neighbor(at, d), kNoTile) << e.name << " leaves the mesh at tile " << at;
      path.push_back(Link{at, d});
      walk(topo.neighbor(at, d), static_cast<int>(opposite(d)), o[k].vc_first, st);
      path.pop_back();
    }
  };
  walk(src, static_cast<int>(Dir::Local), 0, start);
}

bool is_x(Dir d) { return d == Dir::East || d == Dir::West; }

}  // namespace

// Under overload every packet arrives (each function is deadlock-free with the VCs it states),
// on 6x6 with uniform and transpose traffic.
TEST(Routing, EveryFunctionDeliversEverythingAtOverload) {
  for (const RoutingEntry* e : routings().entries()) {
    for (const bool separable : {false, true}) {
      for (const Pattern pattern : {Pattern::Uniform, Pattern::Transpose}) {
        SCOPED_TRACE(std::string(e->name) + (separable ? " separable" : " first_free") +
                     (pattern == Pattern::Uniform ? " uniform" : " transpose"));
        Config c = chip_for(e->name, std::max(2, vcs_needed(*e)));
        c.routing_delay = 1;
        c.vc_alloc_delay = separable ? 1 : 0;  // (both ways of taking a VC: a VA stage, and with the switch)
        if (separable) c.vc_allocator = c.sw_allocator = "separable_input_first";
        TrafficSpec s;
        s.pattern = pattern;
        s.rate = 0.6;
        s.warmup = 300;
        s.measure = 700;
        s.drain_limit = 200000;
        const TrafficResult r = run_traffic(c, s);
        EXPECT_TRUE(r.drained);
        EXPECT_GT(r.measured_packets, 100u);
        EXPECT_GT(r.accepted_flits, 0.05);
      }
    }
  }
}

// Valiant's packets go through a random tile: at low load (every packet delivered) their mean hop
// count is about twice the minimal one; every other function's is the minimal one.
TEST(Routing, HopsAsTaken) {
  for (const RoutingEntry* e : routings().entries()) {
    SCOPED_TRACE(e->name);
    TrafficSpec s;
    s.rate = 0.05;
    s.warmup = 200;
    s.measure = 3000;
    const TrafficResult r = run_traffic(chip_for(e->name, 2), s);
    const double minimal = r.hops.mean();  // (the pattern's, from the distances)
    if (std::string(e->name) == "valiant") {
      EXPECT_GT(r.window.networks[0].hops.mean(), 1.5 * minimal);
    } else {
      EXPECT_NEAR(r.window.networks[0].hops.mean(), minimal, 0.02);  // (delivered in the window, not created)
    }
  }
}

// One VC per class is enough for the dimension-order and turn-model functions.
TEST(Routing, OneVcFunctionsDeliverEverything) {
  for (const char* name : {"yx", "west_first", "odd_even"}) {
    SCOPED_TRACE(name);
    Config c = chip_for(name, 1, 5, 7);
    TrafficSpec s;
    s.rate = 0.7;
    s.warmup = 300;
    s.measure = 1500;
    s.drain_limit = 200000;
    const TrafficResult r = run_traffic(c, s);
    EXPECT_TRUE(r.drained);
    EXPECT_GT(r.measured_packets, 100u);
  }
}

// The paths each function allows, for every pair of a 5x4 mesh: xy and yx as their definitions;
// o1turn the XY or the YX path; romm through its intermediate tile and minimal; valiant through
// its intermediate tile; the adaptive functions minimal, and west-first and odd-even within their
// turn rules.
TEST(Routing, PathsFollowTheirRules) {
  const Topology topo(5, 4);
  for (TileId s = 0; s < topo.num_tiles(); ++s)
    for (TileId d = 0; d < topo.num_tiles(); ++d) {
      SCOPED_TRACE(std::to_string(s) + " -> " + std::to_string(d));
      const std::vector<Link> xy = topo.xy_path(s, d);
      const std::vector<Link> yx = routed_path(routing_named("yx"), topo, s, d, PacketRoute{});
      ASSERT_EQ(yx.size(), xy.size());
      if (!yx.empty() && topo.coord(s).y != topo.coord(d).y) {
        EXPECT_FALSE(is_x(yx.front().dir));
      }
      EXPECT_TRUE(same_set(routed_path(routing_named("xy"), topo, s, d, PacketRoute{}), xy));
      PacketRoute o;
      o.yx = 1;
      EXPECT_TRUE(same_set(routed_path(routing_named("o1turn"), topo, s, d, o), yx));
      o.yx = 0;
      EXPECT_TRUE(same_set(routed_path(routing_named("o1turn"), topo, s, d, o), xy));
      // romm and valiant: drawn intermediate tiles, through them
      std::uint64_t rng = 7 + static_cast<std::uint64_t>(s * 100 + d);
      for (const char* two : {"romm", "valiant"}) {
        const RoutingEntry& e = routing_named(two);
        PacketRoute r;
        e.choose(r, topo, s, d, rng);
        ASSERT_TRUE(topo.valid(r.mid));
        const std::vector<Link> p = routed_path(e, topo, s, d, r);
        EXPECT_EQ(static_cast<int>(p.size()), topo.hops(s, r.mid) + topo.hops(r.mid, d));
        if (std::string(two) == "romm") {
          EXPECT_EQ(static_cast<int>(p.size()), topo.hops(s, d));
        }
        bool through = s == r.mid;
        for (const Link& l : p) through |= topo.neighbor(l.tile, l.dir) == r.mid;
        EXPECT_TRUE(through);
      }
      for (const char* adaptive : {"min_adaptive", "west_first", "odd_even"}) {
        const RoutingEntry& e = routing_named(adaptive);
        EXPECT_THROW(routed_path(e, topo, s, d, PacketRoute{}), std::invalid_argument);
        int paths = 0;
        every_path(e, topo, s, d, PacketRoute{}, [&](const std::vector<Link>& p) {
          ++paths;
          EXPECT_EQ(static_cast<int>(p.size()), topo.hops(s, d)) << adaptive << " takes a detour";
          for (std::size_t k = 1; k < p.size(); ++k) {
            const Dir a = p[k - 1].dir, b = p[k].dir;
            const int column = topo.coord(p[k].tile).x;
            if (std::string(adaptive) == "west_first") {
              EXPECT_FALSE(b == Dir::West && a != Dir::West);
            }
            if (std::string(adaptive) == "odd_even") {
              // even column: no turn from East into Y; odd column: no turn from Y into West
              if (column % 2 == 0) {
                EXPECT_FALSE(a == Dir::East && !is_x(b));
              } else {
                EXPECT_FALSE(!is_x(a) && b == Dir::West);
              }
            }
          }
        });
        EXPECT_GE(paths, 1);
        const Coord cs = topo.coord(s), cd = topo.coord(d);
        if (std::string(adaptive) == "min_adaptive" && cs.x != cd.x && cs.y != cd.y) {
          EXPECT_GT(paths, 1) << "min_adaptive offers one path only";
        }
      }
    }
}

// A chip that cannot run a function deadlock-free is refused, and the message says what it needs.
TEST(Routing, RefusesChipsWithoutTheVcsItNeeds) {
  for (const char* name : {"o1turn", "romm", "valiant", "min_adaptive"}) {
    Config c = Config::preset_named("default");
    c.routing = name;
    try {
      c.validate();
      ADD_FAILURE() << name << " accepted one VC per class";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.key(), "routing");
      EXPECT_NE(std::string(e.what()).find("VCs per packet class"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("vcs_per_class=2"), std::string::npos) << e.what();
    }
  }
  Config odd = Config::preset_named("default");
  odd.vcs = odd.vcs_per_class = 3;
  odd.routing = "o1turn";
  EXPECT_THROW(odd.validate(), ConfigError);  // two halves
  Config torus = Config::preset_named("default");
  torus.torus = true;
  torus.vcs = 2;
  torus.routing = "yx";
  EXPECT_THROW(torus.validate(), ConfigError);
  Config packet = Config::preset_named("default");
  packet.routing = "yx";
  packet.network_model = "packet";
  try {
    packet.validate();
    ADD_FAILURE() << "the packet model accepted routing=yx";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "routing");
  }
  EXPECT_THROW(Config::preset_named("default").set("routing", "zigzag"), ConfigError);
  Config ok = Config::preset_named("default");
  ok.set("routing", "west_first");
  EXPECT_NO_THROW(ok.validate());
}

// A lone packet takes the routing function's path: under yx the links of the YX route carry it.
TEST(Routing, LonePacketTakesTheRoutedPath) {
  for (const char* name : {"xy", "yx"}) {
    Config c = chip_for(name, 1, 4, 4);
    Chip chip(c);
    const Topology topo(4, 4);
    chip.inject(0, topo.tile(0, 0), topo.tile(3, 2), 3, 0, 1);
    while (!chip.idle()) chip.run_until(chip.next_event_cycle());
    const Stats st = chip.stats();
    const RoutingEntry& e = routing_named(name);
    const std::vector<Link> path = routed_path(e, topo, topo.tile(0, 0), topo.tile(3, 2), PacketRoute{});
    std::set<int> on_path;
    for (const Link& l : path) on_path.insert(Topology::link_index(l));
    for (int k = 0; k < topo.num_link_slots(); ++k)
      EXPECT_EQ(st.networks[0].links[static_cast<std::size_t>(k)].flits, on_path.count(k) ? 4u : 0u) << name << k;
    // the zero-load latency holds for any minimal route
    EXPECT_EQ(st.networks[0].latency.max, chip.zero_load_latency(topo.tile(0, 0), topo.tile(3, 2), 3));
  }
}

// The same seed gives the same cycles; another seed draws other paths for an oblivious function.
TEST(Routing, DeterministicGivenTheSeed) {
  for (const char* name : {"o1turn", "romm", "valiant", "min_adaptive", "odd_even"}) {
    SCOPED_TRACE(name);
    Config c = chip_for(name, 2);
    TrafficSpec s;
    s.rate = 0.25;
    s.warmup = 200;
    s.measure = 2000;
    const TrafficResult a = run_traffic(c, s), b = run_traffic(c, s);
    EXPECT_EQ(a.latency.sum, b.latency.sum);
    EXPECT_EQ(a.cycles, b.cycles);
    if (std::string(name) == "o1turn" || std::string(name) == "romm" || std::string(name) == "valiant") {
      c.routing_seed = 99;
      const TrafficResult other = run_traffic(c, s);
      EXPECT_NE(other.latency.sum, a.latency.sum);
    }
  }
}

// With one VC per port BookSim's separable allocators are the original ones: the same cycles.
TEST(Routing, SeparableAllocatorsChangeNothingWithOneVc) {
  for (const char* preset : {"booksim", "booksim_speculative", "default"}) {
    SCOPED_TRACE(preset);
    Config a = Config::preset_named(preset);
    Config b = a;
    b.vc_allocator = b.sw_allocator = "separable_input_first";
    TrafficSpec s;
    s.rate = 0.3;
    s.warmup = 500;
    s.measure = 3000;
    const TrafficResult ra = run_traffic(a, s), rb = run_traffic(b, s);
    EXPECT_EQ(ra.latency.sum, rb.latency.sum);
    EXPECT_EQ(ra.cycles, rb.cycles);
    EXPECT_EQ(ra.flit_hops, rb.flit_hops);
  }
}

// Random chips (mesh sizes, VCs and classes, pipelines, delays, buffers down to one flit), every
// routing function with the VCs it needs and both pairs of allocators, random traffic injected
// ahead of time and driven in uneven run_until steps: every packet arrives, never faster than its
// zero-load latency on a minimal path, and the links carry each flit once per hop of a minimal path.
TEST(Routing, RandomChipsDeliverEveryPacket) {
  std::uint64_t rng = 0x5eed;
  auto draw = [&rng](int n) { return routing_draw(rng, n); };
  const std::vector<const RoutingEntry*>& all = routings().entries();
  for (int trial = 0; trial < 96; ++trial) {
    const RoutingEntry& e = *all[static_cast<std::size_t>(trial) % all.size()];
    Config c;
    c.routing = e.name;
    c.width = 1 + draw(5);
    c.height = 1 + draw(5);
    const int per_class = std::max(e.min_class_vcs, 1 + draw(3));
    c.vcs_per_class = e.even_class_vcs && per_class % 2 ? per_class + 1 : per_class;
    c.vcs = c.vcs_per_class * (1 + draw(2));
    if (std::string(e.name) == "xy" && draw(2) == 0) {  // the torus's dateline VCs
      c.torus = true;
      c.vcs_per_class = 1;
      c.vcs = 2 * (1 + draw(2));
    }
    c.router_delay = 1 + draw(2);
    c.link_latency = draw(2);
    c.credit_delay = 1 + draw(3);
    c.injection_latency = 1 + draw(2);
    c.input_buffer_flits = 1 + draw(5);
    c.injection_buffer_flits = 1 + draw(4);
    c.ejection_buffer_flits = 1 + draw(5);
    c.max_packet_flits = 2 + draw(10);
    c.routing_delay = draw(2);
    c.vc_alloc_delay = draw(2);
    c.speculative = draw(2) == 0;
    c.routing_seed = static_cast<std::uint64_t>(trial);
    if (draw(2)) c.vc_allocator = "separable_input_first";
    if (draw(2)) c.sw_allocator = "separable_input_first";
    SCOPED_TRACE(c.to_text());
    Chip chip(c);
    const Topology& topo = chip.topology();
    const int classes = c.vc_classes();
    std::uint64_t delivered = 0, flits = 0, sent = 0, flit_hops = 0;
    bool too_fast = false;
    const bool minimal = std::string(e.name) != "valiant" && !c.torus;  // (a torus's hops wrap)
    chip.on_delivered([&](const PacketEvent& ev) {
      ++delivered;
      flits += ev.flits;
      flit_hops += static_cast<std::uint64_t>(ev.flits) * static_cast<std::uint64_t>(topo.hops(ev.src, ev.dst));
      if (minimal && ev.cycle - ev.created < chip.zero_load_latency(ev.src, ev.dst, ev.flits - 1)) too_fast = true;
    });
    Cycle t = 0;
    for (int k = 0; k < 400; ++k) {
      const TileId s = draw(topo.num_tiles()), d = draw(topo.num_tiles());
      const std::uint32_t payload = static_cast<std::uint32_t>(draw(c.max_packet_flits - 1));
      chip.inject(0, s, d, payload, t + static_cast<Cycle>(draw(8)), static_cast<std::uint64_t>(k), draw(classes));
      ++sent;
      if (draw(3) == 0) {
        t += static_cast<Cycle>(draw(12));
        chip.run_until(t);
        t = chip.now();
      }
    }
    for (int guard = 0; !chip.idle() && guard < 2000000; ++guard) chip.run_until(chip.next_event_cycle());
    EXPECT_TRUE(chip.idle()) << e.name << " did not deliver every packet";
    EXPECT_EQ(delivered, sent);
    EXPECT_FALSE(too_fast);
    const Stats st = chip.stats();
    std::uint64_t hop_flits = 0;
    for (const LinkStats& l : st.networks[0].links) hop_flits += l.flits;
    if (minimal) {
      EXPECT_EQ(hop_flits, flit_hops);  // every flit crossed as many links as its minimal path has
    } else {
      EXPECT_GE(hop_flits, flit_hops);
    }
    EXPECT_EQ(st.networks[0].flits_delivered, flits);
  }
}
