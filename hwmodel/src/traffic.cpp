#include "tilempi/hwmodel/traffic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "tilempi/hwmodel/chip.h"

namespace tilempi::hwmodel {

namespace {
std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// Uniform in (0, 1].
double unit(std::uint64_t& s) { return (static_cast<double>(splitmix64(s) >> 11) + 1.0) * 0x1.0p-53; }
}  // namespace

Pattern parse_pattern(const std::string& name) {
  if (name == "uniform") return Pattern::Uniform;
  if (name == "transpose") return Pattern::Transpose;
  if (name == "bitcomp" || name == "bit-complement" || name == "bitcomplement") return Pattern::BitComplement;
  if (name == "tornado") return Pattern::Tornado;
  if (name == "hotspot") return Pattern::Hotspot;
  if (name == "neighbor" || name == "neighbour") return Pattern::Neighbor;
  throw std::invalid_argument("unknown traffic pattern '" + name +
                              "' (uniform, transpose, bitcomp, tornado, hotspot, neighbor)");
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Uniform: return "uniform";
    case Pattern::Transpose: return "transpose";
    case Pattern::BitComplement: return "bitcomp";
    case Pattern::Tornado: return "tornado";
    case Pattern::Hotspot: return "hotspot";
    case Pattern::Neighbor: return "neighbor";
  }
  return "?";
}

TileId pattern_destination(Pattern p, const Topology& topo, TileId src, std::uint64_t& rng, TileId hotspot,
                           double hotspot_fraction) {
  const int w = topo.width(), h = topo.height(), n = topo.num_tiles();
  const Coord c = topo.coord(src);
  switch (p) {
    case Pattern::Uniform:
      return static_cast<TileId>(splitmix64(rng) % static_cast<std::uint64_t>(n));
    case Pattern::Transpose:
      return topo.tile(c.y % w, c.x % h);
    case Pattern::BitComplement:
      return topo.tile(w - 1 - c.x, h - 1 - c.y);
    case Pattern::Tornado:
      return topo.tile((c.x + (w + 1) / 2 - 1) % w, (c.y + (h + 1) / 2 - 1) % h);
    case Pattern::Hotspot:
      if (unit(rng) <= hotspot_fraction) return hotspot;
      return static_cast<TileId>(splitmix64(rng) % static_cast<std::uint64_t>(n));
    case Pattern::Neighbor:
      return topo.tile((c.x + 1) % w, (c.y + 1) % h);
  }
  return src;
}

std::vector<Cycle> lone_packet_latency(const Config& config, int payload_flits) {
  Chip chip(config);
  const Topology& topo = chip.topology();
  int max_hops = 0;
  for (TileId d = 0; d < topo.num_tiles(); ++d) max_hops = std::max(max_hops, topo.hops(0, d));
  std::vector<Cycle> out(static_cast<std::size_t>(max_hops) + 1, 0);
  Cycle delivered = 0;
  chip.on_delivered([&](const PacketEvent& e) { delivered = e.cycle; });
  // Tile 0 is a corner: every hop count up to the largest has a destination.
  for (TileId d = 0; d < topo.num_tiles(); ++d) {
    Cycle& slot = out[static_cast<std::size_t>(topo.hops(0, d))];
    if (slot) continue;
    const Cycle at = chip.now();
    chip.inject(0, 0, d, static_cast<std::uint32_t>(payload_flits), at, 1);
    chip.run_to_idle();
    slot = delivered - at;
  }
  return out;
}

double bisection_bound(const Topology& topo) {
  const double k = std::max(topo.width(), topo.height());
  const double b = (topo.torus() ? 8.0 : 4.0) / k;
  return std::min(1.0, b);
}

TrafficResult run_traffic(const Config& config, const TrafficSpec& spec) {
  Chip chip(config);
  const Topology& topo = chip.topology();
  const int n = topo.num_tiles();
  if (spec.network < 0 || spec.network >= config.networks)
    throw std::invalid_argument("traffic: network " + std::to_string(spec.network) + " out of range");
  if (spec.payload_flits < 0 || spec.payload_flits > config.max_payload_flits())
    throw std::invalid_argument("traffic: payload of " + std::to_string(spec.payload_flits) +
                                " flits does not fit max_packet_flits " + std::to_string(config.max_packet_flits));
  const double flits = static_cast<double>(config.header_flits + spec.payload_flits);
  const double p = spec.rate_in_flits ? spec.rate / flits : spec.rate;
  if (!(spec.rate > 0) || p > 1.0)
    throw std::invalid_argument("traffic: rate " + std::to_string(spec.rate) +
                                " must be > 0 and at most one packet per node per cycle");
  if (spec.measure == 0) throw std::invalid_argument("traffic: measurement window must be > 0 cycles");
  const TileId hotspot = spec.hotspot == kNoTile ? topo.tile(topo.width() / 2, topo.height() / 2) : spec.hotspot;
  if (spec.pattern == Pattern::Hotspot && !topo.valid(hotspot))
    throw std::invalid_argument("traffic: hotspot tile " + std::to_string(hotspot) + " outside the mesh");
  if (spec.pattern == Pattern::Transpose && topo.width() != topo.height())
    throw std::invalid_argument("traffic: transpose needs a square mesh");
  const int classes = config.vc_classes();

  TrafficResult r;
  r.bisection_bound = bisection_bound(topo);
  {
    // Mean zero-load latency of the pattern: analytic, and measured per hop count.
    const std::vector<Cycle> lone = lone_packet_latency(config, spec.payload_flits);
    auto measured = [&](TileId a, TileId b) {
      return static_cast<double>(lone[static_cast<std::size_t>(topo.hops(a, b))]);
    };
    // Uniform: over all pairs, from the distributions of the X and Y distances.
    std::vector<double> cx(static_cast<std::size_t>(topo.width()), 0), cy(static_cast<std::size_t>(topo.height()), 0);
    for (int a = 0; a < topo.width(); ++a)
      for (int b = 0; b < topo.width(); ++b) cx[static_cast<std::size_t>(topo.hops(topo.tile(a, 0), topo.tile(b, 0)))] += 1;
    for (int a = 0; a < topo.height(); ++a)
      for (int b = 0; b < topo.height(); ++b) cy[static_cast<std::size_t>(topo.hops(topo.tile(0, a), topo.tile(0, b)))] += 1;
    double muni = 0;
    for (std::size_t dx = 0; dx < cx.size(); ++dx)
      for (std::size_t dy = 0; dy < cy.size(); ++dy)
        if (cx[dx] > 0 && cy[dy] > 0) muni += cx[dx] * cy[dy] * static_cast<double>(lone[dx + dy]);
    muni /= static_cast<double>(n) * static_cast<double>(n);
    double msum = 0;
    std::uint64_t draw = 0;
    for (TileId s = 0; s < n; ++s) {
      if (spec.pattern == Pattern::Uniform) msum += muni;
      else if (spec.pattern == Pattern::Hotspot)
        msum += spec.hotspot_fraction * measured(s, hotspot) + (1 - spec.hotspot_fraction) * muni;
      else msum += measured(s, pattern_destination(spec.pattern, topo, s, draw, hotspot, 0));
    }
    r.zero_load_latency = msum / n;
    const auto pay = static_cast<std::uint32_t>(spec.payload_flits);
    // Uniform: the mean of T0 over all pairs, from the mean X and Y distances.
    double mx = 0, my = 0;
    for (int a = 0; a < topo.width(); ++a)
      for (int b = 0; b < topo.width(); ++b) mx += topo.hops(topo.tile(a, 0), topo.tile(b, 0));
    for (int a = 0; a < topo.height(); ++a)
      for (int b = 0; b < topo.height(); ++b) my += topo.hops(topo.tile(0, a), topo.tile(0, b));
    const double mean_hops = mx / (static_cast<double>(topo.width()) * topo.width()) +
                             my / (static_cast<double>(topo.height()) * topo.height());
    const double t0 = static_cast<double>(chip.zero_load_latency(0, 0, pay));  // 0 hops
    const double per_hop = static_cast<double>(config.head_stages() + config.router_delay + config.link_latency);
    const double uni = t0 + per_hop * mean_hops;
    double sum = 0;
    std::uint64_t dummy = 0;
    for (TileId s = 0; s < n; ++s) {
      if (spec.pattern == Pattern::Uniform) sum += uni;
      else if (spec.pattern == Pattern::Hotspot)
        sum += spec.hotspot_fraction * static_cast<double>(chip.zero_load_latency(s, hotspot, pay)) +
               (1 - spec.hotspot_fraction) * uni;
      else sum += static_cast<double>(chip.zero_load_latency(
               s, pattern_destination(spec.pattern, topo, s, dummy, hotspot, 0), pay));
    }
    r.zero_load_analytic = sum / n;
  }

  const Cycle w0 = spec.warmup, w1 = spec.warmup + spec.measure;
  const Cycle drain_end = w1 + (spec.drain_limit == kDrainAuto ? 4 * spec.measure : spec.drain_limit);
  std::uint64_t measured_done = 0;
  std::unordered_map<PacketId, Cycle> tail_out;  // keep_packets: measured packets in flight
  if (spec.keep_packets)
    chip.on_injected([&](const PacketEvent& e) {
      if (e.tag) tail_out[e.id] = e.cycle;
    });
  chip.on_delivered([&](const PacketEvent& e) {
    if (!e.tag) return;
    if (spec.keep_packets) {
      const auto it = tail_out.find(e.id);
      r.packets.push_back(PacketRecord{e.id, e.tag, e.src, e.dst, e.network, static_cast<int>(e.flits),
                                       topo.hops(e.src, e.dst), e.created, e.head_in,
                                       it != tail_out.end() ? it->second : 0, e.cycle, e.link_wait});
      if (it != tail_out.end()) tail_out.erase(it);
    }
    r.latency.add(e.cycle - e.created);
    r.network_latency.add(e.cycle - e.head_in);
    r.queueing_latency.add(e.head_in - e.created);
    r.hops.add(static_cast<std::uint64_t>(topo.hops(e.src, e.dst)));
    ++measured_done;
  });

  std::uint64_t rng = spec.seed * 0x2545F4914F6CDD1Dull + 1;
  const double log1mp = p < 1.0 ? std::log1p(-p) : 0.0;
  auto gap = [&]() -> Cycle {
    if (p >= 1.0) return 1;
    return 1 + static_cast<Cycle>(std::floor(std::log(unit(rng)) / log1mp));
  };
  std::vector<Cycle> next(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> cls(static_cast<std::size_t>(n), 0);
  for (auto& t : next) t = gap() - 1;
  std::uint64_t generated_flits = 0;
  const Cycle chunk = 64;
  Cycle t0 = 0;
  bool window_taken = false;
  std::uint64_t warmup_hops = 0;
  for (;;) {
    if (t0 == w0) {
      r.run = chip.stats();
      warmup_hops = r.run.networks[static_cast<std::size_t>(spec.network)].flit_hops;
      chip.reset_stats();
    }
    if (t0 == w1) {
      r.window = chip.stats();
      window_taken = true;
    }
    if (t0 >= w1 && (measured_done == r.measured_packets || t0 >= drain_end)) break;
    Cycle end = t0 + chunk;
    if (t0 < w0) end = std::min(end, w0);
    if (t0 < w1) end = std::min(end, w1);
    for (TileId s = 0; s < n; ++s) {
      Cycle& nx = next[static_cast<std::size_t>(s)];
      while (nx < end) {
        TileId d = pattern_destination(spec.pattern, topo, s, rng, hotspot, spec.hotspot_fraction);
        const bool measured = nx >= w0 && nx < w1;
        int c = 0;
        if (spec.spread_vcs && classes > 1) {
          c = cls[static_cast<std::size_t>(s)];
          cls[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>((c + 1) % classes);
        }
        chip.inject(spec.network, s, d, static_cast<std::uint32_t>(spec.payload_flits), nx, measured ? 1 : 0, c);
        if (measured) {
          ++r.measured_packets;
          generated_flits += static_cast<std::uint64_t>(flits);
        }
        nx += gap();
      }
    }
    chip.run_until(end - 1);
    t0 = end;
  }
  if (!window_taken) r.window = chip.stats();
  r.drained = measured_done == r.measured_packets;
  r.cycles = chip.now();
  r.router_cycles = static_cast<double>(r.cycles) * n;
  const Stats after_warmup = chip.stats();
  r.run.append(after_warmup);
  r.flit_hops = warmup_hops + after_warmup.networks[static_cast<std::size_t>(spec.network)].flit_hops;
  const double denom = static_cast<double>(spec.measure) * n;
  const NetworkStats& ns = r.window.networks[static_cast<std::size_t>(spec.network)];
  r.offered_flits = static_cast<double>(generated_flits) / denom;
  r.accepted_flits = static_cast<double>(ns.flits_delivered) / denom;
  r.accepted_packets = static_cast<double>(ns.packets_delivered) / denom;
  return r;
}

}  // namespace tilempi::hwmodel
