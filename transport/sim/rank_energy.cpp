#include "sim/rank_energy.h"

#include <algorithm>
#include <tuple>

#include "sim/messages.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

namespace {

// The chip's topology for pricing routes, one per shape in the process (ranks as contexts share
// it; its route table is 64 KiB, too much to keep per rank).
const hw::Topology& shared_topology(const hw::Config& c) {
  static std::map<std::tuple<int, int, bool>, std::unique_ptr<hw::Topology>> topologies;
  auto& t = topologies[{c.width, c.height, c.torus}];
  if (!t) t = std::make_unique<hw::Topology>(c.width, c.height, c.torus);
  return *t;
}

}  // namespace

RankEnergy::RankEnergy(const hw::Config& config, std::vector<hw::TileId> tiles, int rank)
    : config_(config),
      tiles_(std::move(tiles)),
      rank_(rank),
      flit_bytes_(static_cast<std::uint64_t>(std::max(1, config.flit_bytes))),
      max_payload_(static_cast<std::uint64_t>(std::max(1, config.max_payload_flits()))),
      header_(static_cast<std::uint64_t>(std::max(0, config.header_flits))) {}

void RankEnergy::name_kind(const char* name) { named_ = name && *name ? number(name) : 0; }

std::uint32_t RankEnergy::number(const std::string& name) {
  const auto [it, fresh] = numbers_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (fresh) {
    if (names_.size() >= kCallKinds) {
      numbers_.erase(it);
      return 0;
    }
    names_.push_back(name);
  }
  return it->second;
}

std::uint32_t RankEnergy::kind_of_call(const char* call) {
  std::uint32_t k = 0;
  if (call) {
    const auto [it, fresh] = calls_.try_emplace(call, 0);
    if (fresh) it->second = number(call);
    k = it->second;
  }
  last_call_ = call;
  last_kind_ = k;
  return k;
}

void RankEnergy::add_notes(std::map<std::string, std::uint64_t>& notes) const {
  for (std::size_t i = 1; i < names_.size(); ++i) notes["energy_kind=" + std::to_string(i) + " " + names_[i]] = 1;
}

double RankEnergy::joules(double int_ops, double fp_ops) {
  if (!costs_) costs_ = hw::energy_costs(config_);
  double network = 0;
  if (!per_dst_.empty()) {
    const hw::Topology& topo = shared_topology(config_);
    const hw::TileId src = tiles_[static_cast<std::size_t>(rank_)];
    for (std::size_t d = 0; d < per_dst_.size(); ++d) {
      const Route& r = per_dst_[d];
      if (r.packets == 0) continue;
      // packet_energy is linear in the flits, plus a per-packet part (its VC allocations): the
      // packets to one destination together cost one packet of all their flits plus the
      // per-packet part of the others.
      const hw::TileId dst = tiles_[d];
      network += hw::packet_energy(config_, *costs_, topo, src, dst, r.flits) +
                 static_cast<double>(r.packets - 1) * hw::packet_energy(config_, *costs_, topo, src, dst, 0);
    }
  }
  return hw::core_energy(config_.energy, int_ops, fp_ops) + hw::adapter_energy(config_.energy, ends_, words_) + network;
}

}  // namespace tilempi::transport::sim
