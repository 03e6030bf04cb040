#include "sim/rank_energy.h"

#include <algorithm>

#include "sim/messages.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

RankEnergy::RankEnergy(const hw::Config& config, std::span<const hw::TileId> tiles, int rank)
    : config_(config),
      tiles_(tiles),
      rank_(rank),
      width_(std::max(1, config.width)),
      height_(std::max(1, config.height)),
      torus_(config.torus),
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
  const hw::EnergyCosts& k = *costs_;
  double network = 0;
  if (config_.network_model != "ideal") {
    // packet_energy's terms (network_energy.cpp), summed over the packets: per flit, its channels
    // (hops, and the local ones), its routers (hops + 1) and crossbar halves (the local ports'
    // far halves, then per hop its output's and the next input's: E and W near both, S near then
    // N far, N far then S near); per packet, a VC allocation per router.
    const double wr = k.wire_per_flit + k.retiming_per_flit;
    const double router = k.buffer_write_per_flit + k.buffer_read_per_flit + k.switch_control_per_flit +
                          k.output_dff_per_flit + k.output_control_per_flit + k.sw_allocation;
    const double base = (config_.energy.local_channels ? 2 : 0) * wr + router + k.switch_input_far + k.switch_output_far;
    const double east_west = wr + router + k.switch_output_near + k.switch_input_near;
    const double south = wr + router + k.switch_output_near + k.switch_input_far;
    const double north = wr + router + k.switch_output_far + k.switch_input_near;
    auto d = [](std::uint64_t v) { return static_cast<double>(v); };
    network = d(flits_) * base + d(flits_x_) * east_west + d(flits_s_) * south + d(flits_n_) * north +
              d(packets_ + packet_hops_) * k.vc_allocation;
  }
  return hw::core_energy(config_.energy, int_ops, fp_ops) + hw::adapter_energy(config_.energy, ends_, words_) + network;
}

}  // namespace tilempi::transport::sim
