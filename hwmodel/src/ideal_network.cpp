#include "ideal_network.h"

#include <algorithm>
#include <stdexcept>

#include "registered_network_models.h"

namespace tilempi::hwmodel {

Chip::IdealNetwork::IdealNetwork(Chip& chip, const Config& c, const Topology& topo)
    : chip_(chip),
      topo_(topo),
      tiles_(topo.num_tiles()),
      nets_(c.networks),
      classes_(c.vc_classes()),
      header_flits_(c.header_flits),
      max_flits_(static_cast<std::uint32_t>(c.max_packet_flits)),
      inj_(static_cast<std::size_t>(c.networks) * static_cast<std::size_t>(topo.num_tiles())),
      ej_(inj_.size()),
      counters_(static_cast<std::size_t>(c.networks)) {}

PacketId Chip::IdealNetwork::inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                                    std::uint64_t tag, int cls) {
  const std::uint64_t flits = static_cast<std::uint64_t>(header_flits_) + payload_flits;
  check_inject(topo_, network, nets_, src, dst, cls, classes_, flits, max_flits_, at, chip_.now_);
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(pkts_.size());
    pkts_.emplace_back();
  }
  Packet& p = pkts_[slot];
  p = Packet{next_id_++, tag, src, dst, network, static_cast<std::uint32_t>(flits), at, 0, 0};
  ++counters_[static_cast<std::size_t>(network)].injected;
  ++live_;
  schedule(at, slot, kWrite);
  return p.id;
}

Cycle Chip::IdealNetwork::next_event_cycle(Cycle from) const {
  const Cycle t = events_.earliest();
  return t == kNever ? kNever : std::max(from, t);
}

void Chip::IdealNetwork::run_until(Cycle c) {
  for (;;) {
    const Cycle t = events_.earliest();
    if (t == kNever || t > c) break;
    std::vector<std::uint32_t>& bucket = events_.open(t);
    chip_.now_ = t + 1;  // callbacks of cycle t may inject from t + 1 on
    // Events of cycle t scheduled while these run are appended and run too.
    for (std::size_t k = 0; k < bucket.size(); ++k) {
      const std::uint32_t e = bucket[k];
      handle(e >> 2, static_cast<EventKind>(e & 3), t);
    }
    events_.close(t);
  }
  if (c != kNever && chip_.now_ < c + 1) chip_.now_ = c + 1;
}

void Chip::IdealNetwork::handle(std::uint32_t slot, EventKind kind, Cycle t) {
  Packet& p = pkts_[slot];
  switch (kind) {
    case kWrite: {
      // The core writes the packet after its earlier ones, one flit per cycle; the head is at
      // the destination at once.
      Port& in = inj_[node(p.net, p.src)];
      const Cycle start = std::max(t, in.free);
      in.free = start + p.flits;
      in.flits += p.flits;
      p.head_in = start;
      p.tail_out = start + p.flits - 1;
      schedule(p.tail_out, slot, kInjected);
      schedule(start, slot, kArrive);
      break;
    }
    case kInjected:
      if (chip_.on_injected_) chip_.on_injected_(event_of(p, t));
      break;
    case kArrive: {
      Port& out = ej_[node(p.net, p.dst)];
      if (out.held) out.held_q.push_back(slot);
      else eject(slot, t);
      break;
    }
    case kDelivered: {
      count_delivery(counters_[static_cast<std::size_t>(p.net)],
                     PacketRecord{p.id, p.tag, p.src, p.dst, p.net, static_cast<int>(p.flits), 0, p.created,
                                  p.head_in, p.tail_out, t, 0});
      const PacketEvent ev = event_of(p, t);
      free_slots_.push_back(slot);
      --live_;
      if (chip_.on_delivered_) chip_.on_delivered_(ev);
      break;
    }
  }
}

// The destination core reads the packet after the ones whose heads came before, one flit per
// cycle, and no earlier than its source wrote each flit.
void Chip::IdealNetwork::eject(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  Port& out = ej_[node(p.net, p.dst)];
  const Cycle start = std::max({t, out.free, p.head_in});
  out.free = start + p.flits;
  out.flits += p.flits;
  schedule(std::max(start + p.flits - 1, p.tail_out), slot, kDelivered);
}

void Chip::IdealNetwork::hold_ejection(int network, TileId tile, bool hold) {
  if (network < 0 || network >= nets_ || !topo_.valid(tile))
    throw std::invalid_argument("hold_ejection: bad network or tile");
  Port& out = ej_[node(network, tile)];
  out.held = hold;
  if (hold) return;
  const Cycle t = chip_.now_;
  while (!out.held_q.empty()) {
    const std::uint32_t slot = out.held_q.front();
    out.held_q.pop_front();
    eject(slot, t);
  }
}

PacketEvent Chip::IdealNetwork::event_of(const Packet& p, Cycle t) const {
  return PacketEvent{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, 0};
}

void Chip::IdealNetwork::fill_stats(Stats& s) const {
  s.networks.resize(static_cast<std::size_t>(nets_));
  for (int net = 0; net < nets_; ++net) {
    NetworkStats& ns = s.networks[static_cast<std::size_t>(net)];
    ns.links.assign(static_cast<std::size_t>(tiles_) * kMeshDirs, LinkStats{});  // no links are used
    ns.injection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    ns.ejection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    for (TileId t = 0; t < tiles_; ++t) {
      const std::uint64_t in = inj_[node(net, t)].flits, out = ej_[node(net, t)].flits;
      ns.injection[static_cast<std::size_t>(t)] = LinkStats{in, in, 0};
      ns.ejection[static_cast<std::size_t>(t)] = LinkStats{out, out, 0};
    }
    copy_counters(counters_[static_cast<std::size_t>(net)], ns);
  }
  s.packets = log_;
}

void Chip::IdealNetwork::reset_stats() {
  for (Port& p : inj_) p.flits = 0;
  for (Port& p : ej_) p.flits = 0;
  for (NetCounters& nc : counters_) nc = NetCounters{};
  log_.clear();
}

namespace {

void ideal_ignored(const Config& c, std::vector<std::string>& out) {
  one_step_worms_need_one_vc(c, out);
  out.push_back("network_model=ideal has no routers or links: the router, link, buffer and credit keys are "
                "ignored (only header_flits, max_packet_flits, networks and vcs count)");
  if (c.routing != "xy") out.push_back("routing=" + c.routing + " is ignored by network_model=ideal (it has no links)");
}

}  // namespace

TILEMPI_REGISTER_NETWORK_MODEL(
    ideal,
    "zero latency, one flit per cycle written by the source and read by the destination (an adapter's own costs, "
    "as [Lee 1999] §6.3 measures them)",
    .create = [](Chip& chip, const Config& c, const Topology& topo) -> std::unique_ptr<Chip::NetworkModel> {
      return std::make_unique<Chip::IdealNetwork>(chip, c, topo);
    },
    // header + payload - 1 whatever the distance: the flits stream one per cycle.
    .zero_load = [](const Config& c) { return ZeroLoadTerms{static_cast<Cycle>(c.header_flits) - 1, 0}; },
    .ignored = ideal_ignored);

}  // namespace tilempi::hwmodel
