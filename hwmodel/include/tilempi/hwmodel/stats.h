// Counters collected by the chip model, and their JSON / CSV export.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

struct LinkStats {
  std::uint64_t flits = 0;           // flits (or static words) sent over the link
  std::uint64_t busy_cycles = 0;     // cycles the link carried a flit
  std::uint64_t blocked_cycles = 0;  // cycles a flit waited for it and none crossed
};

struct Summary {
  std::uint64_t count = 0;
  double sum = 0;
  std::uint64_t min = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max = 0;
  void add(std::uint64_t v) {
    ++count;
    sum += static_cast<double>(v);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
  void add(const Summary& o);  // as if o's values had been added here
  nlohmann::json to_json() const;
};

// One delivered packet, kept only when Chip::set_packet_log(true).
struct PacketRecord {
  std::uint64_t id = 0;
  std::uint64_t tag = 0;
  TileId src = kNoTile;
  TileId dst = kNoTile;
  int network = 0;
  int flits = 0;  // header included
  int hops = 0;
  Cycle created = 0;    // inject() cycle
  Cycle head_in = 0;    // head written into the source injection buffer
  Cycle tail_out = 0;   // tail left the source injection buffer into the router
  Cycle delivered = 0;  // tail consumed by the destination core
  Cycle link_wait = 0;  // head waited for links held by other packets (PacketEvent::link_wait)
};

struct NetworkStats {
  std::vector<LinkStats> links;      // by Topology::link_index
  std::vector<LinkStats> injection;  // per tile: core -> router
  std::vector<LinkStats> ejection;   // per tile: router -> core
  Summary latency;   // delivered - created
  Summary queueing;  // head_in - created (waiting at the source)
  Summary network;   // delivered - head_in
  Summary hops;
  std::uint64_t packets_injected = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t flits_delivered = 0;
  std::uint64_t flit_hops = 0;  // flits times inter-router links crossed
  // Link conflicts (PacketEvent::link_wait): delivered packets whose head
  // waited for a link held by another packet, and their summed wait.
  std::uint64_t link_wait_packets = 0;
  std::uint64_t link_wait_cycles = 0;
};

struct Stats {
  Cycle start_cycle = 0;  // cycle of the last reset
  Cycle end_cycle = 0;    // now() when taken
  std::uint64_t router_cycles = 0;  // tile-cycles in which a router was processed
  std::vector<NetworkStats> networks;
  std::vector<LinkStats> static_links;  // by Topology::link_index
  std::vector<PacketRecord> packets;    // when the packet log is on

  Cycle cycles() const { return end_cycle - start_cycle; }
  // Appends the statistics of the stretch that followed this one (taken after a reset_stats() at
  // this one's end): counters add up, the stretch ends where `later` ends.
  void append(const Stats& later);
  // Flits per cycle on a link over the measured interval.
  double utilization(int network, int link_index) const;

  nlohmann::json to_json(const Topology& topo) const;
  // One row per existing link and network: network,tile,x,y,dir,flits,busy,blocked,utilization
  void write_links_csv(std::ostream& out, const Topology& topo) const;
  // One row per logged packet.
  void write_packets_csv(std::ostream& out) const;
};

}  // namespace tilempi::hwmodel
