// The zero-latency model of the dynamic networks (network_model=ideal; private header).
//
// No routers, no links, no hops: a packet's head reaches its destination in the cycle the
// source core writes it, and the rest follows at one flit per cycle. What remains is the
// bandwidth of the two ends: a core writes one flit per cycle (its packets one after another,
// in order of their cycle, then of inject() calls) and reads one flit per cycle from its
// ejection port (packets in the order their heads reached it). A packet of L flits alone thus
// takes L - 1 cycles from its write to its tail's delivery, whatever the distance.
//
// This is the "zero-latency network model" [Lee 1999] §6.3 measures message interfaces on
// ("to isolate the effects of the network fabric", with a matched bandwidth of one word per
// cycle): an adapter's own costs, seen without the mesh.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "event_calendar.h"
#include "network_model.h"

namespace tilempi::hwmodel {

struct Chip::IdealNetwork final : Chip::NetworkModel {
  IdealNetwork(Chip& chip, const Config& c, const Topology& topo);

  PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at, std::uint64_t tag,
                  int cls) override;
  Cycle next_event_cycle(Cycle from) const override;
  void run_until(Cycle c) override;
  void hold_ejection(int network, TileId tile, bool hold) override;
  std::uint64_t in_flight() const override { return live_; }
  void fill_stats(Stats& s) const override;
  void reset_stats() override;

 private:
  struct Packet {
    PacketId id = 0;
    std::uint64_t tag = 0;
    TileId src = kNoTile, dst = kNoTile;
    int net = 0;
    std::uint32_t flits = 0;
    Cycle created = 0, head_in = 0, tail_out = 0;
  };
  enum EventKind : std::uint8_t { kWrite, kInjected, kArrive, kDelivered };  // an event is slot << 2 | kind
  struct Port {
    Cycle free = 0;                   // first cycle the port can take another flit
    bool held = false;                // ejection of a core that does not read
    std::deque<std::uint32_t> held_q; // heads waiting at a held ejection port
    std::uint64_t flits = 0;
  };
  std::size_t node(int net, TileId t) const { return static_cast<std::size_t>(net * tiles_ + t); }
  void schedule(Cycle at, std::uint32_t slot, EventKind k) { events_.schedule(at, slot << 2 | k); }
  void handle(std::uint32_t slot, EventKind k, Cycle t);
  void eject(std::uint32_t slot, Cycle t);
  PacketEvent event_of(const Packet& p, Cycle t) const;

  Chip& chip_;
  const Topology& topo_;
  int tiles_, nets_, classes_, header_flits_;
  std::uint32_t max_flits_;
  std::vector<Port> inj_, ej_;  // per node
  std::vector<Packet> pkts_;
  std::vector<std::uint32_t> free_slots_;
  // A core's queued writes schedule their arrivals thousands of cycles ahead (a rank's alltoall
  // queues dozens of packets of tens of flits at once): a wide calendar keeps them off its heap.
  EventCalendar<8192> events_;
  std::vector<NetCounters> counters_;
  PacketId next_id_ = 1;
  std::uint64_t live_ = 0;
};

}  // namespace tilempi::hwmodel
