// The modeled chip: dynamic wormhole networks and a static network on a mesh,
// advanced by an event-driven cycle engine that the caller drives.
//
// Time. now() is the first cycle not yet simulated. Packets may be injected
// at any cycle >= now(); run_until(c) simulates every cycle up to and
// including c, firing callbacks in cycle order, and leaves now() == c + 1.
// While a callback for cycle t runs, now() == t + 1, so a callback may inject
// at t + 1 or later. Same inputs, same cycles: the engine is deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

using PacketId = std::uint64_t;

struct PacketEvent {
  PacketId id = 0;
  std::uint64_t tag = 0;  // the caller's user_tag
  int network = 0;
  TileId src = kNoTile;
  TileId dst = kNoTile;
  Cycle cycle = 0;  // when the event happened
  Cycle created = 0;       // the inject() cycle
  Cycle head_in = 0;       // head written into the source injection buffer
  std::uint32_t flits = 0;  // header included
  // Cycles the head waited, summed over the routers on its path, for an
  // inter-router link held by another packet: another worm owned the output,
  // another packet won it in arbitration, a one-step worm had reserved it, or
  // the buffer behind it still held another source's worm. Waiting for the
  // ejection port or the core, for credits of a link the packet already owns,
  // and behind the source's own earlier packets does not count.
  Cycle link_wait = 0;
};

using PacketCallback = std::function<void(const PacketEvent&)>;

// Static network output set: bit (1 << Dir) for each output, Local included.
using PortMask = std::uint8_t;
inline constexpr PortMask port_bit(Dir d) { return static_cast<PortMask>(1u << static_cast<unsigned>(d)); }
inline constexpr PortMask kAllMeshPorts = 0x0F;

struct StaticArrival {
  TileId tile = kNoTile;
  Cycle first_word = 0;  // first word available to the tile's core
  Cycle last_word = 0;   // last word available to the tile's core
};

class Chip;

// The static network's switches on the mesh: software sets each tile's crossbar, then words
// flow one per hop per cycle with no headers.
class StaticMesh {
 public:
  // Routes words entering `tile` from `input` (Local = from the tile's core)
  // to every output in `outputs` (Local = to the tile's core). Replaces the
  // previous route of those outputs; each output has one source at a time.
  // The configuration costs static_setup_cycles and is effective from the
  // returned cycle = max(at, previous ready of this tile) + setup.
  Cycle configure(TileId tile, Dir input, PortMask outputs, Cycle at);
  void clear(TileId tile);     // no routes (free, immediate)
  void clear_all();
  Cycle ready_at(TileId tile) const;
  // Source of `output` at `tile`; false if the output has no route.
  bool source_of(TileId tile, Dir output, Dir* input) const;

  // Streams `nwords` words from `root`'s core at cycle `at` along the
  // configured routes. A word waits at a tile whose configuration is not yet
  // ready, and a link carries one word per cycle (streams on a shared link
  // queue behind each other). Returns, for every tile that delivers to its
  // core, when the first and last word arrive. Counts words per link in
  // Stats::static_links. Throws std::invalid_argument if at < chip.now() or
  // the static network is disabled.
  std::vector<StaticArrival> send_words(TileId root, std::uint32_t nwords, Cycle at);
  // Words times links they crossed, over every send_words since the chip was made (no reset
  // of the statistics clears it): what a caller charges one stream's energy by.
  std::uint64_t link_words() const { return link_words_; }

  // Sets the routes of the broadcast tree of [Yagna 2013] §3.2.3 rooted at
  // `root` on every tile at cycle `at`; returns the cycle all are ready.
  Cycle configure_broadcast(TileId root, Cycle at);

 private:
  friend class Chip;
  explicit StaticMesh(Chip* chip);
  Chip* chip_;
  std::vector<std::int8_t> source_;  // [tile * kPorts + output] = input or -1
  std::vector<Cycle> ready_;         // per tile
  std::vector<Cycle> link_free_;     // per link slot: first cycle it is free
  std::vector<LinkStats> link_stats_;
  std::uint64_t link_words_ = 0;
};

class Chip {
 public:
  explicit Chip(const Config& config);  // validates; throws ConfigError
  ~Chip();
  Chip(const Chip&) = delete;
  Chip& operator=(const Chip&) = delete;

  const Config& config() const { return config_; }
  const Topology& topology() const { return topo_; }

  // Queues a packet of header_flits + payload_flits at `src`'s core at cycle
  // `at` on dynamic network `network`, in virtual-channel class `vc_class`
  // (0 .. Config::vc_classes() - 1: vcs / vcs_per_class, vcs / 2 on a torus). Packets of one
  // source and class leave in order of `at`, then of inject() calls (and arrive in that order
  // unless vcs_per_class > 1). Throws std::invalid_argument for a bad network,
  // tile, class, a packet longer than max_packet_flits or at < now().
  PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                  std::uint64_t user_tag, int vc_class = 0);

  // Fired when the packet's tail leaves the source injection buffer into the
  // router (the source's port is free for the next packet).
  void on_injected(PacketCallback cb) { on_injected_ = std::move(cb); }
  // Fired when the tail has been consumed by the destination core.
  void on_delivered(PacketCallback cb) { on_delivered_ = std::move(cb); }

  // Earliest cycle with pending work, or kNever when the chip is idle.
  Cycle next_event_cycle() const;
  void run_until(Cycle cycle);
  // Runs until nothing is pending; returns the cycle of the last event.
  Cycle run_to_idle();
  Cycle now() const { return now_; }
  bool idle() const { return next_event_cycle() == kNever; }
  std::uint64_t packets_in_flight() const;

  // Stop / resume the core at `tile` reading network `network`'s ejection
  // buffer (a core that does not receive): flits back up into the network.
  void hold_ejection(int network, TileId tile, bool hold);

  // Analytic zero-load latency (see Config) for a packet of payload_flits (network_model=ideal:
  // header + payload - 1, the flits streaming one per cycle).
  Cycle zero_load_latency(TileId src, TileId dst, std::uint32_t payload_flits) const;

  StaticMesh& static_mesh() { return static_; }

  // Statistics since construction or the last reset_stats().
  Stats stats() const;
  void reset_stats();
  void set_packet_log(bool on);

  // Models of the dynamic networks (private; hwmodel/src): the interface, and one class per
  // value of network_model (registered in hwmodel/src/registered_network_models.h).
  struct NetworkModel;
  struct FlitNetwork;    // network_model=flit: routers flit by flit
  struct PacketNetwork;  // network_model=packet: one event per packet and hop
  struct IdealNetwork;   // network_model=ideal: no latency, one flit per cycle at each end

 private:
  friend class StaticMesh;
  static std::unique_ptr<NetworkModel> make_network(Chip& chip, const Config& c, const Topology& topo);
  Config config_;
  Topology topo_;
  // zero_load_latency's terms, from the network model once (it is asked for every delivered
  // packet): a fixed part and a part per hop.
  Cycle zero_load_fixed_, zero_load_per_hop_;
  Cycle now_ = 0;
  PacketCallback on_injected_;
  PacketCallback on_delivered_;
  std::unique_ptr<NetworkModel> network_;
  StaticMesh static_;
};

// A Config's topology and rank map in one call.
RankMap make_rank_map(const Config& config, int nranks);

}  // namespace tilempi::hwmodel
