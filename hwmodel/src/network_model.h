// What Chip needs from a model of its dynamic networks (private header), and a model's registry
// entry. The models are registered in registered_network_models.h: Chip::FlitNetwork
// (flit_network.h, network_model=flit: wormhole routers flit by flit, the reference),
// Chip::PacketNetwork (packet_network.h, network_model=packet: one event per packet and hop) and
// Chip::IdealNetwork (ideal_network.h, network_model=ideal: no latency).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/registry.h"

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
  // What a model changes of its chip. The models nested in Chip reach its members directly; a
  // model in a file of its own (a class derived from Chip::NetworkModel) goes through these.
  static Cycle& chip_now(Chip& chip) { return chip.now_; }
  static void report_injected(const Chip& chip, const PacketEvent& e) {
    if (chip.on_injected_) chip.on_injected_(e);
  }
  static void report_delivered(const Chip& chip, const PacketEvent& e) {
    if (chip.on_delivered_) chip.on_delivered_(e);
  }

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

/// A packet's zero-load latency on a model, from the cycle it is injected to the cycle its tail is
/// consumed: fixed + hops x per_hop + payload flits (Chip::zero_load_latency).
struct ZeroLoadTerms {
  Cycle fixed = 0;
  Cycle per_hop = 0;
};

/// A registered model of the dynamic networks (registered_network_models.h lists them; each
/// model's file defines its entry with TILEMPI_REGISTER_NETWORK_MODEL).
struct NetworkModelEntry {
  const char* name;
  const char* help;  ///< one line: how the model moves packets (the key network_model's description)
  std::unique_ptr<Chip::NetworkModel> (*create)(Chip& chip, const Config& c, const Topology& topo);
  /// The model's zero-load latency terms for c (nullptr: the router pipeline's, config.h).
  ZeroLoadTerms (*zero_load)(const Config& c) = nullptr;
  /// Throws ConfigError, naming the key, for a valid config the model cannot run (nullptr: it runs
  /// every valid config). Called by Config::validate().
  void (*check)(const Config& c) = nullptr;
  /// Appends to `out` a sentence per setting of c that the model does not honour
  /// (Config::ignored_settings()).
  void (*ignored)(const Config& c, std::vector<std::string>& out) = nullptr;
};

/// The registered network models, in registration order.
const registry::Registry<NetworkModelEntry>& network_models();
/// The registered model called c.network_model; throws ConfigError naming the key network_model
/// if there is none.
const NetworkModelEntry& network_model_of(const Config& c);

/// The router pipeline's zero-load latency terms (the model of config.h's formula): injection,
/// the source router's stages, the header and body behind the head and ejection; per hop, a
/// router's stages and the link.
ZeroLoadTerms router_pipeline_zero_load(const Config& c);

/// fast_worms only works with one VC (flit and ideal models' ignored settings).
void one_step_worms_need_one_vc(const Config& c, std::vector<std::string>& out);

}  // namespace tilempi::hwmodel
