// Parameters of the modeled chip: presets, key=value overrides, config files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tilempi/hwmodel/energy_parameters.h"
#include "tilempi/hwmodel/registry.h"
#include "tilempi/settings.h"

namespace tilempi::hwmodel {

struct Config;

/// A registered preset (hwmodel/src/presets/registered_presets.h lists them; each preset's file
/// defines its entry with TILEMPI_REGISTER_PRESET).
struct PresetEntry {
  const char* name;
  const char* help;  ///< one line: the chip, after which source
  /// Sets the preset's values on a default Config (whose `preset` already names it).
  void (*apply)(Config& c);
};

// Raised for an unknown key, a malformed or out-of-range value, an unknown
// preset or an unreadable file. what() names the offending key (or preset/file)
// and, for a bad value, the valid values.
class ConfigError : public settings::Error {
 public:
  ConfigError(std::string key, const std::string& message) : settings::Error(std::move(key), message) {}
  const std::string& key() const { return name(); }
};

// All cycle counts are in chip clock cycles. Flit counts are per flit of
// `flit_bytes` bytes; one flit crosses a link per cycle.
//
// Zero-load timing of one packet of L = header_flits + payload flits over h
// hops, from the cycle it is injected to the cycle its tail is consumed at
// the destination core:
//   injection_latency + (h + 1) * (head_stages() + router_delay) + h * link_latency
//     + (L - 1) + ejection_latency
// where head_stages() is 0 unless the router pipeline has route computation or VC
// allocation stages (routing_delay, vc_alloc_delay; HWMODEL.md "Router pipeline").
struct Config {
  std::string preset = "default";

  // Clock and mesh.
  double clock_hz = 1.0e9;
  int width = 4;
  int height = 4;
  bool torus = false;
  std::string mapping = "row_major";  // see RankMap

  // Dynamic networks (all identical; e.g. request and response networks).
  int networks = 1;
  int vcs = 1;                 // virtual channels per port (torus: even, dateline pairs)
  // VCs per packet class (mesh only). 1: a packet keeps the VC of its class end to end. k > 1:
  // classes of k VCs each, and a head takes any free VC of its class at every hop (per-hop VC
  // allocation, as BookSim and Garnet do); packets of one class may then overtake each other.
  int vcs_per_class = 1;
  int flit_bytes = 4;
  int header_flits = 1;
  int max_packet_flits = 129;  // header included
  int input_buffer_flits = 4;  // per input port and VC
  int output_buffer_flits = 0; // per output port and VC (adds to link credit)
  int injection_buffer_flits = 4;
  int ejection_buffer_flits = 4;
  // The router pipeline, in the field's words (BookSim 2, Garnet). A flit in an input VC is
  // switch-allocated (SA) and then traverses the switch (ST) and the link; router_delay is
  // SA + ST, the cycles from the flit's switch allocation to the flit at the router's output
  // (the key st_delay sets and reads router_delay - sw_alloc_delay). A head first spends
  // routing_delay cycles in route computation (RC; 0 = lookahead routing, the route was
  // computed upstream) and vc_alloc_delay cycles in VC allocation (VA), counted from the cycle
  // it reaches the front of its input VC; with speculative, VA runs in parallel with SA and
  // costs only max(0, vc_alloc_delay - sw_alloc_delay). Defaults: no RC or VA stage, which is
  // the original single-stage router. HWMODEL.md maps these onto BookSim's parameters.
  int routing_delay = 0;       // RC cycles of a head (0: lookahead routing)
  int vc_alloc_delay = 0;      // VA cycles of a head (0: the output VC is taken with the switch)
  int sw_alloc_delay = 1;      // SA cycles, part of router_delay (>= 1, <= router_delay)
  bool speculative = false;    // speculative switch allocation: VA in parallel with SA
  int router_delay = 1;        // SA + ST: a flit's switch allocation to the router's output (>= 1)
  int link_latency = 0;        // extra wire cycles per hop
  int credit_delay = 1;        // cycles for a freed slot's credit to reach upstream (>= 1)
  int injection_latency = 1;   // core write to visible at local router input (>= 1)
  int injection_credit_delay = 0;  // cycles for a freed injection-buffer slot to be seen by the core
  int ejection_latency = 0;    // tail in ejection buffer to delivered to core
  // Once a worm's head is delivered, compute the rest of the worm in one step
  // instead of flit by flit (same cycles; only with vcs == 1). See HWMODEL.md.
  bool fast_worms = false;
  // "flit" (above) or "packet": a head claims the output ports of its path one after another,
  // first come first served, each for as many cycles as the packet has flits; no flit moves.
  // Zero-load timing as above; no chain blocking, no backpressure (HWMODEL.md).
  std::string network_model = "flit";
  // Routing function (hwmodel/include/tilempi/hwmodel/routing.h; HWMODEL.md "Routing functions and allocators"):
  // xy (the original), yx, o1turn, romm, valiant, min_adaptive, west_first, odd_even. Random
  // choices (o1turn's order, romm's and valiant's intermediate tile) come from a stream seeded by
  // routing_seed, drawn per packet in injection order.
  std::string routing = "xy";
  std::uint64_t routing_seed = 1;
  // Allocators of the flit model's routers with several VCs per port, named as BookSim names them:
  // separable_input_first (BookSim's, one iteration) or the original ones, first_free (a head asks
  // for the first free VC of its class) and output_rotating (outputs served one after another in an
  // order that rotates with the cycle). With one VC per port they are the same.
  std::string vc_allocator = "first_free";
  std::string sw_allocator = "output_rotating";

  // The tile core, for --compute model (core_model.h): cycles per element of the two reference
  // kernels, and the share of a program's compute taken as floating point.
  int core_int_cycles = 2;
  int core_fp_cycles = 2;
  int core_fp_percent = 50;

  // Static network.
  bool static_network = false;
  int static_setup_cycles = 0;  // per route configuration of one tile
  int static_hop_cycles = 1;    // per word per hop

  // Energy model (keys energy.*; energy.h, docs/HWMODEL.md "Energy").
  EnergyParameters energy;

  // Keys "adapter.<name>" are kept verbatim for the adapter models, which
  // validate them (hwmodel/adapter/).
  std::map<std::string, std::string> adapter;

  // The registered presets, in registration order (--preset's help and every list of presets).
  static const registry::Registry<PresetEntry>& presets();
  // Builds a registered preset. Throws ConfigError naming the preset if unknown.
  static Config preset_named(const std::string& name);
  // The registered presets' names, in registration order.
  static std::vector<std::string> preset_names();

  // Sets one key from its text value; throws ConfigError naming the key.
  void set(const std::string& key, const std::string& value);
  // "key=value"; throws ConfigError if there is no '='.
  void apply(const std::string& assignment);
  void apply_all(const std::vector<std::string>& assignments);
  // key=value lines; '#' starts a comment; blank lines ignored. Errors name
  // the file, line and key. The one parser of config text (files, --config, the sim job's
  // header); returns the keys it set, in their order.
  std::vector<std::string> apply_file(const std::string& path);
  std::vector<std::string> apply_text(const std::string& text, const std::string& origin = "<text>");

  // Whole-config consistency (e.g. max_packet_flits > header_flits, torus
  // with even vcs, mapping spec). Throws ConfigError naming the key.
  void validate() const;

  // Settings that a valid config holds but the chosen model does not honour (e.g. fast_worms
  // with several VCs), one sentence each, for tools to print as warnings.
  std::vector<std::string> ignored_settings() const;

  std::string get(const std::string& key) const;  // text of one key
  static std::vector<std::string> keys();          // every known key
  static std::string describe(const std::string& key);
  // The declaration of every chip key (type, valid values, description), with this config's
  // values as the defaults: `tilempirun --set help` and the table of docs/HWMODEL.md.
  std::vector<settings::Setting> declarations() const;
  std::string to_text() const;  // key=value lines, loadable by apply_text

  int max_payload_flits() const { return max_packet_flits - header_flits; }
  // Cycles a head spends in route computation and VC allocation at each router, beyond
  // router_delay, when nothing else is in its way.
  int head_stages() const {
    const int va = speculative ? std::max(0, vc_alloc_delay - sw_alloc_delay) : vc_alloc_delay;
    return routing_delay + va;
  }
  int st_delay() const { return router_delay - sw_alloc_delay; }
  // Packet classes (Chip::inject's vc_class): vcs / vcs_per_class; on a torus vcs / 2.
  int vc_classes() const { return torus ? vcs / 2 : vcs / vcs_per_class; }
  int num_tiles() const { return width * height; }
};

}  // namespace tilempi::hwmodel
