// Synthetic traffic on one dynamic network: the standalone mode of the chip
// model (tilempi-noc), also used by the tests and the benchmark.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

enum class Pattern { Uniform, Transpose, BitComplement, Tornado, Hotspot, Neighbor };

// "uniform", "transpose", "bitcomp", "tornado", "hotspot", "neighbor";
// throws std::invalid_argument naming the pattern otherwise.
Pattern parse_pattern(const std::string& name);
const char* pattern_name(Pattern p);

// TrafficSpec::drain_limit: 4 * measure.
inline constexpr Cycle kDrainAuto = kNever;

struct TrafficSpec {
  Pattern pattern = Pattern::Uniform;
  double rate = 0.1;           // offered load per node per cycle
  bool rate_in_flits = true;   // rate counts flits (else packets)
  int payload_flits = 4;       // per packet; header_flits come on top
  Cycle warmup = 1000;
  Cycle measure = 10000;
  Cycle drain_limit = kDrainAuto;  // extra cycles to deliver measured packets (0: none)
  std::uint64_t seed = 1;
  TileId hotspot = kNoTile;    // hotspot pattern: target (default: centre tile)
  double hotspot_fraction = 0.2;
  int network = 0;
  bool spread_vcs = true;      // packets take the VC classes in turn (else class 0)
  bool keep_packets = false;   // TrafficResult::packets: one record per measured packet delivered
};

// Destination of a packet from `src` (uniform and hotspot draw from `rng_state`).
TileId pattern_destination(Pattern p, const Topology& topo, TileId src, std::uint64_t& rng_state,
                           TileId hotspot, double hotspot_fraction);

struct TrafficResult {
  double offered_flits = 0;     // per node per cycle, as generated in the window
  double accepted_flits = 0;    // flits delivered per node per cycle in the window
  double accepted_packets = 0;
  Summary latency;              // packets created in the measurement window
  Summary network_latency;
  Summary queueing_latency;
  Summary hops;
  std::uint64_t measured_packets = 0;
  bool drained = true;          // every measured packet delivered within drain_limit
  Cycle cycles = 0;             // simulated cycles in total
  double router_cycles = 0;     // cycles x routers simulated in total
  std::uint64_t flit_hops = 0;  // in total
  Stats window;                 // chip statistics of the measurement window
  Stats run;                    // chip statistics of the whole run: warm-up, window and drain
  double bisection_bound = 0;   // uniform-traffic bound 4/k (flits/node/cycle) for the mesh
  // Mean zero-load latency of the pattern, measured: one packet alone on the chip per hop
  // count (at zero load a packet's latency depends only on its hops). The analytic T0 below
  // equals it when the buffers let a lone worm stream one flit per cycle (HWMODEL.md).
  double zero_load_latency = 0;
  double zero_load_analytic = 0;  // mean of Chip::zero_load_latency over the pattern
  std::vector<PacketRecord> packets;  // keep_packets: measured packets, in delivery order
};

// Latency of one packet alone on the chip (created to delivered), per hop count 0 .. the
// mesh's largest.
std::vector<Cycle> lone_packet_latency(const Config& config, int payload_flits);

// Throws ConfigError for a bad config and std::invalid_argument for a bad spec.
TrafficResult run_traffic(const Config& config, const TrafficSpec& spec);

// Uniform-traffic bisection bound in flits/node/cycle: 4/k for a k x k mesh
// (2x that on a torus); for W x H uses the narrower bisection.
double bisection_bound(const Topology& topo);

}  // namespace tilempi::hwmodel
