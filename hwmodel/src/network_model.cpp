#include "network_model.h"

#include <stdexcept>
#include <string>

#include "registered_network_models.h"

namespace tilempi::hwmodel {

const registry::Registry<NetworkModelEntry>& network_models() {
  static const auto r =
      TILEMPI_REGISTRY_OF("network model", TILEMPI_REGISTERED_NETWORK_MODELS, registered_network_models);
  return r;
}

const NetworkModelEntry& network_model_of(const Config& c) {
  const NetworkModelEntry* e = network_models().find(c.network_model);
  if (!e)
    throw ConfigError("network_model", "config key 'network_model': bad value '" + c.network_model + "': expected one of " +
                                           network_models().joined());
  return *e;
}

ZeroLoadTerms router_pipeline_zero_load(const Config& c) {
  const Cycle stages = static_cast<Cycle>(c.head_stages() + c.router_delay);
  return ZeroLoadTerms{static_cast<Cycle>(c.injection_latency) + stages + static_cast<Cycle>(c.header_flits) - 1 +
                           static_cast<Cycle>(c.ejection_latency),
                       stages + static_cast<Cycle>(c.link_latency)};
}

void one_step_worms_need_one_vc(const Config& c, std::vector<std::string>& out) {
  if (c.fast_worms && c.vcs > 1) out.push_back("fast_worms is ignored with vcs > 1: one-step worms need one VC");
}

void Chip::NetworkModel::check_inject(const Topology& topo, int network, int networks, TileId src, TileId dst, int cls,
                                 int classes, std::uint64_t flits, std::uint32_t max_flits, Cycle at, Cycle now) {
  if (network < 0 || network >= networks)
    throw std::invalid_argument("inject: network " + std::to_string(network) + " out of range [0, " +
                                std::to_string(networks) + ")");
  if (!topo.valid(src) || !topo.valid(dst))
    throw std::invalid_argument("inject: tile " + std::to_string(topo.valid(src) ? dst : src) +
                                " is outside the mesh");
  if (cls < 0 || cls >= classes)
    throw std::invalid_argument("inject: vc_class " + std::to_string(cls) + " out of range [0, " +
                                std::to_string(classes) + ")");
  if (flits > max_flits)
    throw std::invalid_argument("inject: packet of " + std::to_string(flits) + " flits exceeds max_packet_flits " +
                                std::to_string(max_flits));
  if (at < now)
    throw std::invalid_argument("inject: cycle " + std::to_string(at) + " is before now() " + std::to_string(now));
}

void Chip::NetworkModel::count_delivery(NetCounters& nc, const PacketRecord& r) {
  nc.latency.add(r.delivered - r.created);
  nc.queueing.add(r.head_in - r.created);
  nc.network.add(r.delivered - r.head_in);
  nc.hops.add(static_cast<std::uint64_t>(r.hops));
  ++nc.delivered;
  nc.flits_delivered += static_cast<std::uint64_t>(r.flits);
  if (r.link_wait) {
    ++nc.link_wait_packets;
    nc.link_wait_cycles += r.link_wait;
  }
  if (log_packets_) log_.push_back(r);
}

void Chip::NetworkModel::copy_counters(const NetCounters& nc, NetworkStats& ns) {
  ns.latency = nc.latency;
  ns.queueing = nc.queueing;
  ns.network = nc.network;
  ns.hops = nc.hops;
  ns.packets_injected = nc.injected;
  ns.packets_delivered = nc.delivered;
  ns.flits_delivered = nc.flits_delivered;
  ns.flit_hops = nc.flit_hops;
  ns.link_wait_packets = nc.link_wait_packets;
  ns.link_wait_cycles = nc.link_wait_cycles;
}

}  // namespace tilempi::hwmodel
