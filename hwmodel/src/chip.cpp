#include "tilempi/hwmodel/chip.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "network_model.h"

namespace tilempi::hwmodel {

namespace {
const Config& validated(const Config& c) {
  c.validate();
  return c;
}

ZeroLoadTerms zero_load_terms(const Config& c) {
  const NetworkModelEntry& m = network_model_of(c);
  return m.zero_load ? m.zero_load(c) : router_pipeline_zero_load(c);
}
}  // namespace

std::unique_ptr<Chip::NetworkModel> Chip::make_network(Chip& chip, const Config& c, const Topology& topo) {
  return network_model_of(c).create(chip, c, topo);
}

Chip::Chip(const Config& config)
    : config_(validated(config)),
      topo_(config.width, config.height, config.torus),
      zero_load_fixed_(zero_load_terms(config_).fixed),
      zero_load_per_hop_(zero_load_terms(config_).per_hop),
      network_(make_network(*this, config_, topo_)),
      static_(this) {}

Chip::~Chip() = default;

PacketId Chip::inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                      std::uint64_t user_tag, int vc_class) {
  return network_->inject(network, src, dst, payload_flits, at, user_tag, vc_class);
}

Cycle Chip::next_event_cycle() const { return network_->next_event_cycle(now_); }

void Chip::run_until(Cycle cycle) { network_->run_until(cycle); }

Cycle Chip::run_to_idle() {
  Cycle last = now_ == 0 ? 0 : now_ - 1;
  for (;;) {
    Cycle next = network_->next_event_cycle(now_);
    if (next == kNever) return last;
    network_->run_until(next);
    last = next;
  }
}

std::uint64_t Chip::packets_in_flight() const { return network_->in_flight(); }

void Chip::hold_ejection(int network, TileId tile, bool hold) { network_->hold_ejection(network, tile, hold); }

// The model's terms (the router pipeline's: inj + (h + 1) x (head stages + router) + h x link +
// (flits - 1) + ejection, for h hops).
Cycle Chip::zero_load_latency(TileId src, TileId dst, std::uint32_t payload_flits) const {
  return zero_load_fixed_ + static_cast<Cycle>(topo_.hops(src, dst)) * zero_load_per_hop_ + payload_flits;
}

Stats Chip::stats() const {
  Stats s;
  s.start_cycle = network_->stats_start_;
  s.end_cycle = now_;
  network_->fill_stats(s);
  s.static_links = static_.link_stats_;
  return s;
}

void Chip::reset_stats() {
  network_->reset_stats();
  network_->stats_start_ = now_;
  static_.link_stats_.assign(static_.link_stats_.size(), LinkStats{});
}

void Chip::set_packet_log(bool on) { network_->log_packets_ = on; }

RankMap make_rank_map(const Config& config, int nranks) {
  Topology topo(config.width, config.height, config.torus);
  return RankMap(topo, nranks, config.mapping);
}

}  // namespace tilempi::hwmodel
