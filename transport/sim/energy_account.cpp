#include "sim/energy_account.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

EnergyAccount::EnergyAccount(const hw::Config& config, const hw::Topology& topo, int nranks, bool keep_samples)
    : config_(config),
      topo_(topo),
      costs_(hw::energy_costs(config)),
      keep_samples_(keep_samples),
      network_j_(static_cast<std::size_t>(nranks), 0.0),
      words_(static_cast<std::size_t>(nranks), 0) {}

int EnergyAccount::rank_of(hw::TileId t, const std::vector<hw::TileId>& tiles) {
  if (t < 0 || t >= topo_.num_tiles()) return -1;
  const std::size_t i = static_cast<std::size_t>(t);
  if (!rank_at_.empty()) {
    const int r = rank_at_[i];
    if (r >= 0 && static_cast<std::size_t>(r) < tiles.size() && tiles[static_cast<std::size_t>(r)] == t) return r;
    if (r < 0 && tiles == mapped_) return -1;  // no rank on that tile
  }
  // First use, or a task migration moved a rank: map again.
  mapped_ = tiles;
  rank_at_.assign(static_cast<std::size_t>(topo_.num_tiles()), -1);
  for (std::size_t r = 0; r < tiles.size(); ++r)
    if (tiles[r] >= 0 && tiles[r] < topo_.num_tiles()) rank_at_[static_cast<std::size_t>(tiles[r])] = static_cast<int>(r);
  return rank_at_[i];
}

void EnergyAccount::delivered(const hw::PacketEvent& e, const std::vector<hw::TileId>& tiles) {
  const double j = hw::packet_energy(config_, costs_, topo_, e.src, e.dst, e.flits);
  dynamic_j_ += j;
  const std::uint64_t header = static_cast<std::uint64_t>(config_.header_flits);
  const std::uint64_t payload = e.flits > header ? e.flits - header : 0;
  const int sender = rank_of(e.src, tiles);
  const int receiver = rank_of(e.dst, tiles);
  if (sender >= 0) {
    network_j_[static_cast<std::size_t>(sender)] += j;
    words_[static_cast<std::size_t>(sender)] += payload;
  }
  if (receiver >= 0) words_[static_cast<std::size_t>(receiver)] += payload;
  if (!keep_samples_) return;
  if (!samples_.empty() && samples_.back().cycle == e.cycle) samples_.back().joules = dynamic_j_;
  else samples_.push_back(Sample{e.cycle, dynamic_j_});
}

}  // namespace tilempi::transport::sim
