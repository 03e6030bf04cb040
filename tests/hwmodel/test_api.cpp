// The engine API the simulation transport drives.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "tilempi/hwmodel/hwmodel.h"

using namespace tilempi::hwmodel;

TEST(Api, TimeAndEventsFollowTheCaller) {
  Config c;
  Chip chip(c);
  EXPECT_EQ(chip.now(), 0u);
  EXPECT_EQ(chip.next_event_cycle(), kNever);
  EXPECT_TRUE(chip.idle());
  chip.run_until(10);
  EXPECT_EQ(chip.now(), 11u);
  EXPECT_THROW(chip.inject(0, 0, 1, 1, 10, 0), std::invalid_argument);
  PacketId id = chip.inject(0, 0, 5, 2, 50, 99);
  EXPECT_EQ(chip.next_event_cycle(), 50u);
  EXPECT_EQ(chip.packets_in_flight(), 1u);
  std::vector<PacketEvent> delivered;
  chip.on_delivered([&](const PacketEvent& e) {
    delivered.push_back(e);
    EXPECT_EQ(chip.now(), e.cycle + 1);
    // A reply may be injected from the next cycle on.
    if (e.tag == 99) chip.inject(0, e.dst, e.src, 0, chip.now(), 100);
  });
  chip.run_until(49);
  EXPECT_TRUE(delivered.empty());
  chip.run_to_idle();
  ASSERT_EQ(delivered.size(), 2u);
  EXPECT_EQ(delivered[0].id, id);
  EXPECT_EQ(delivered[0].cycle, 50 + chip.zero_load_latency(0, 5, 2));
  EXPECT_EQ(delivered[0].created, 50u);
  EXPECT_EQ(delivered[0].head_in, 50u);
  EXPECT_EQ(delivered[0].flits, 3u);
  EXPECT_EQ(delivered[1].tag, 100u);
  EXPECT_EQ(delivered[1].cycle, delivered[0].cycle + 1 + chip.zero_load_latency(5, 0, 0));
  EXPECT_EQ(chip.packets_in_flight(), 0u);
  EXPECT_EQ(chip.next_event_cycle(), kNever);
}

TEST(Api, BadArgumentsThrow) {
  Config c;
  c.networks = 2;
  Chip chip(c);
  EXPECT_THROW(chip.inject(2, 0, 1, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(chip.inject(0, 0, 16, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(chip.inject(0, -1, 1, 1, 0, 0), std::invalid_argument);
  EXPECT_THROW(chip.inject(0, 0, 1, 1, 0, 0, 1), std::invalid_argument);
  EXPECT_THROW(chip.inject(0, 0, 1, static_cast<std::uint32_t>(c.max_payload_flits() + 1), 0, 0),
               std::invalid_argument);
  EXPECT_NO_THROW(chip.inject(1, 0, 1, static_cast<std::uint32_t>(c.max_payload_flits()), 0, 0));
  Config bad;
  bad.max_packet_flits = 1;
  EXPECT_THROW(Chip{bad}, ConfigError);
}

TEST(Api, NetworksAreIndependent) {
  Config c;
  c.width = 6;
  c.height = 1;
  c.networks = 2;
  Chip chip(c);
  std::vector<PacketEvent> d;
  chip.on_delivered([&](const PacketEvent& e) { d.push_back(e); });
  // The same route on both networks at once: no interference.
  chip.inject(0, 0, 5, 10, 0, 0);
  chip.inject(1, 0, 5, 10, 0, 1);
  chip.run_to_idle();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].cycle, d[1].cycle);
  EXPECT_EQ(d[0].cycle, chip.zero_load_latency(0, 5, 10));
}

TEST(Api, FullEjectionBufferBacksUpIntoTheNetwork) {
  Config c;
  c.width = 3;
  c.height = 1;
  c.ejection_buffer_flits = 8;
  Chip chip(c);
  chip.hold_ejection(0, 2, true);
  Cycle sent = kNever;
  chip.on_injected([&](const PacketEvent& e) { sent = e.cycle; });
  chip.inject(0, 0, 2, 29, 0, 0);  // 30 flits: more than the buffers on the way
  chip.run_until(500);
  EXPECT_EQ(sent, kNever);  // the tail never left the source
  Stats s = chip.stats();
  // Ejection buffer 8, router 2 and router 1 input buffers 4 each, injection 4.
  EXPECT_EQ(s.networks[0].ejection[2].flits, 8u);
  EXPECT_EQ(s.networks[0].links[static_cast<std::size_t>(Topology::link_index({1, Dir::East}))].flits, 12u);
  EXPECT_EQ(s.networks[0].links[static_cast<std::size_t>(Topology::link_index({0, Dir::East}))].flits, 16u);
  EXPECT_GT(s.networks[0].ejection[2].blocked_cycles, 400u);
  chip.hold_ejection(0, 2, false);
  chip.run_to_idle();
  EXPECT_NE(sent, kNever);
}

TEST(Api, StatsJsonCsvAndPacketLog) {
  Config c;
  Chip chip(c);
  chip.set_packet_log(true);
  chip.inject(0, 0, 15, 4, 0, 11);  // (0,0) -> (3,3): 6 hops
  chip.run_to_idle();
  Stats s = chip.stats();
  const NetworkStats& n = s.networks[0];
  EXPECT_EQ(n.packets_delivered, 1u);
  EXPECT_EQ(n.flit_hops, 5u * 6u);
  std::uint64_t total = 0;
  for (const Link& l : chip.topology().xy_path(0, 15))
    EXPECT_EQ(n.links[static_cast<std::size_t>(Topology::link_index(l))].flits, 5u);
  for (const LinkStats& l : n.links) total += l.flits;
  EXPECT_EQ(total, 30u);
  EXPECT_EQ(n.latency.min, chip.zero_load_latency(0, 15, 4));
  EXPECT_EQ(n.queueing.max, 0u);
  ASSERT_EQ(s.packets.size(), 1u);
  EXPECT_EQ(s.packets[0].tag, 11u);
  EXPECT_EQ(s.packets[0].hops, 6);
  nlohmann::json j = s.to_json(chip.topology());
  EXPECT_EQ(j["networks"][0]["packets_delivered"], 1);
  EXPECT_EQ(j["networks"][0]["links"].size(), 48u);  // 2 * 4 * 3 * 2 directed links
  EXPECT_EQ(j["packets"][0]["tag"], 11);
  std::ostringstream links, packets;
  s.write_links_csv(links, chip.topology());
  s.write_packets_csv(packets);
  const std::string lcsv = links.str(), pcsv = packets.str();
  EXPECT_EQ(lcsv.rfind("network,tile,x,y,dir,flits,busy,blocked,utilization\n", 0), 0u);
  EXPECT_EQ(std::count(lcsv.begin(), lcsv.end(), '\n'), 49);
  EXPECT_EQ(std::count(pcsv.begin(), pcsv.end(), '\n'), 2);
  chip.reset_stats();
  EXPECT_EQ(chip.stats().networks[0].packets_delivered, 0u);
}

TEST(Api, HeatmapPngAndSvg) {
  if (gnuplot_executable().empty()) GTEST_SKIP() << "no gnuplot";
  Config c;
  Chip chip(c);
  for (TileId s = 0; s < 16; ++s) chip.inject(0, s, 15 - s, 8, 0, 0);
  chip.run_to_idle();
  Stats st = chip.stats();
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "hwmodel_heatmap";
  fs::create_directories(dir);
  for (const char* name : {"map.png", "map.svg"}) {
    fs::path p = dir / name;
    fs::remove(p);
    write_heatmap(st, chip.topology(), 0, p.string());
    ASSERT_TRUE(fs::exists(p));
    EXPECT_GT(fs::file_size(p), 500u);
  }
  std::ifstream png(dir / "map.png", std::ios::binary);
  char sig[4] = {};
  png.read(sig, 4);
  EXPECT_EQ(std::string(sig + 1, 3), "PNG");
  EXPECT_THROW(write_heatmap(st, chip.topology(), 0, (dir / "map.gif").string()), std::runtime_error);
  fs::remove_all(dir);
}
