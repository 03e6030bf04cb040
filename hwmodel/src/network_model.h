// What Chip needs from a model of its dynamic networks (private header). Two models exist:
// Chip::FlitNetwork (flit_network.h, network_model=flit: wormhole routers flit by flit, the reference) and
// Chip::PacketNetwork (packet_network.h, network_model=packet: one event per packet and hop).
#pragma once

#include <cstdint>
#include <vector>

#include "tilempi/hwmodel/chip.h"

namespace tilempi::hwmodel {

struct Chip::NetworkModel {
  virtual ~NetworkModel() = default;
  virtual PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                          std::uint64_t tag, int cls) = 0;
  virtual Cycle next_event_cycle(Cycle from) const = 0;
  virtual void run_until(Cycle c) = 0;
  virtual void hold_ejection(int network, TileId tile, bool hold) = 0;
  virtual std::uint64_t in_flight() const = 0;
  virtual void fill_stats(Stats& s) const = 0;
  virtual void reset_stats() = 0;

  Cycle stats_start_ = 0;    ///< cycle of the last reset
  bool log_packets_ = false;  ///< keep a PacketRecord per delivered packet

 protected:
  /// Per dynamic network: what fill_stats reports besides the per-port counters.
  struct NetCounters {
    Summary latency, queueing, network, hops;
    std::uint64_t injected = 0, delivered = 0, flits_delivered = 0, flit_hops = 0;
    std::uint64_t link_wait_packets = 0, link_wait_cycles = 0;
  };

  /// Throws std::invalid_argument, naming the argument, for a packet Chip::inject refuses.
  static void check_inject(const Topology& topo, int network, int networks, TileId src, TileId dst, int cls,
                           int classes, std::uint64_t flits, std::uint32_t max_flits, Cycle at, Cycle now);
  /// Counts a delivered packet in its network's counters and, when the log is on, keeps it.
  void count_delivery(NetCounters& nc, const PacketRecord& r);
  static void copy_counters(const NetCounters& nc, NetworkStats& ns);

  std::vector<PacketRecord> log_;
};

}  // namespace tilempi::hwmodel
