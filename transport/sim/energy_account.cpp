#include "sim/energy_account.h"

#include <algorithm>

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

EnergyAccount::EnergyAccount(const hw::Config& config, const hw::Topology& topo, int nranks, bool keep_samples)
    : config_(config),
      topo_(topo),
      costs_(hw::energy_costs(config)),
      keep_samples_(keep_samples),
      network_j_(static_cast<std::size_t>(nranks), 0.0),
      words_(static_cast<std::size_t>(nranks), 0),
      by_kind_(static_cast<std::size_t>(nranks)) {}

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

KindEnergy& EnergyAccount::kind_of(const Owner& o) {
  std::vector<KindEnergy>& v = by_kind_[static_cast<std::size_t>(o.rank)];
  if (v.size() <= o.kind) v.resize(o.kind + 1);
  return v[o.kind];
}

void EnergyAccount::own_message(MsgId handle, int rank, std::uint32_t kind) {
  const std::size_t slot = MessageHandle::slot(handle);
  if (messages_.size() <= slot) messages_.resize(slot + 1);
  messages_[slot] = MessageOwner{handle, Owner{rank, kind}};
  ++kind_of(Owner{rank, kind}).message_ends;
}

void EnergyAccount::fetched(MsgId handle) {
  const std::size_t slot = MessageHandle::slot(handle);
  if (slot < messages_.size() && messages_[slot].handle == handle) ++kind_of(messages_[slot].owner).message_ends;
}

void EnergyAccount::own_remote(MsgId id, int rank, std::uint32_t kind) { remotes_[id] = Owner{rank, kind}; }
void EnergyAccount::remote_over(MsgId id) { remotes_.erase(id); }

void EnergyAccount::own_offloads(MsgId first, MsgId end, int rank, std::uint32_t kind) {
  if (first < end) offloads_.push_back(OffloadRange{first, end, Owner{rank, kind}});
}

void EnergyAccount::static_words(int rank, std::uint32_t kind, std::uint64_t link_words) {
  // The static network's words cross wires and retiming flip-flops, as network_energy charges them.
  const double j = static_cast<double>(link_words) * (costs_.wire_per_flit + costs_.retiming_per_flit);
  if (config_.network_model != "ideal") kind_of(Owner{rank, kind}).network_joules += j;
}

EnergyAccount::Owner EnergyAccount::owner_of(const PacketOwner& p) const {
  if (!p.known) return {};
  const MsgId id = p.id;
  switch (p.family) {
    case TagFamily::migration: return {};
    case TagFamily::one_sided: {
      const auto it = remotes_.find(id);
      return it == remotes_.end() ? Owner{} : it->second;
    }
    case TagFamily::message: break;
  }
  if (is_offload(id)) {
    const auto it = std::upper_bound(offloads_.begin(), offloads_.end(), id,
                                     [](MsgId v, const OffloadRange& r) { return v < r.first; });
    if (it == offloads_.begin() || id >= std::prev(it)->end) return {};
    return std::prev(it)->owner;
  }
  const std::size_t slot = MessageHandle::slot(id);
  if (slot < messages_.size() && messages_[slot].handle == id) return messages_[slot].owner;
  return {};
}

void EnergyAccount::delivered(const hw::PacketEvent& e, const std::vector<hw::TileId>& tiles, const PacketOwner& owner) {
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
  if (const Owner o = owner_of(owner); o.rank >= 0) {
    KindEnergy& k = kind_of(o);
    k.network_joules += j;
    k.words += payload * ((sender >= 0 ? 1 : 0) + (receiver >= 0 ? 1 : 0));
    ++k.packets;
  }
  if (!keep_samples_) return;
  if (!samples_.empty() && samples_.back().cycle == e.cycle) samples_.back().joules = dynamic_j_;
  else samples_.push_back(Sample{e.cycle, dynamic_j_});
}

}  // namespace tilempi::transport::sim
