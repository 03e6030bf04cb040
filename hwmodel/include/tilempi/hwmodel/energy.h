// Energy of the modeled network, per component as BookSim 2's power module (after Orion) splits it:
// link wires and their clock, retiming flip-flops and leakage; router input buffers (writes, reads,
// leakage); the crossbar (traversal, control, leakage); the output stage (flip-flops, clock,
// control); the allocators. Per-event and per-cycle energies come from the technology parameters
// (energy_parameters.h, config keys energy.*); the counts from the network model's statistics.
// docs/HWMODEL.md "Energy" states the formulas and what each model can and cannot be charged for.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

// The components, in the order BookSim prints them (allocators after).
enum class EnergyComponent : int {
  channel_wire,      // a flit's bits over a hop's repeated wire
  channel_clock,     // the clock of a channel's retiming flip-flops, every cycle
  channel_retiming,  // a flit through a channel's retiming flip-flops
  channel_leakage,   // a channel's repeaters, every cycle
  input_read,        // a flit read from a router input buffer
  input_write,       // a flit written into a router input buffer
  input_leakage,     // an input buffer's SRAM cells, every cycle
  switch_traversal,  // a flit across the crossbar
  switch_control,    // the crossbar's control lines for that flit
  switch_leakage,    // the crossbar, every cycle
  output_dff,        // a flit through an output's flip-flops
  output_clock,      // an output's flip-flops' clock, every cycle
  output_control,    // an output's enable for that flit
  vc_allocation,     // a head's VC allocation at a router
  sw_allocation,     // a flit's switch allocation at a router
  count
};
inline constexpr int kEnergyComponents = static_cast<int>(EnergyComponent::count);
const char* energy_component_name(EnergyComponent c);  // "channel_wire", ...
// Leakage and clock components are charged per cycle, whatever the traffic.
bool energy_component_static(EnergyComponent c);

// A link's repeated wire as the model designs it: M pipeline stages of N repeaters of size K (in
// 1 um inverters), the design of least M^4 x power that crosses a stage in 80 % of a clock cycle
// (BookSim's choice, after Orion).
struct WireDesign {
  double length_mm = 0;
  double k = 0;
  int m = 0;
  int n = 0;
  bool meets_clock = true;  // false: no design fits the clock; the fastest one is used
};
WireDesign design_wire(const EnergyParameters& p, double length_mm, double clock_hz);

// The clock of BookSim's power module: 20 fan-out-of-4 inverter delays of the technology.
double technology_clock_hz(const EnergyParameters& p);

// Energies per event and per cycle, in joules, for one configuration.
struct EnergyCosts {
  int flit_bits = 0;
  WireDesign wire;
  // Per flit and channel (a hop, or an injection or ejection channel).
  double wire_per_flit = 0;
  double retiming_per_flit = 0;
  // Per channel and cycle.
  double channel_clock_per_cycle = 0;
  double channel_leakage_per_cycle = 0;
  // Per flit and router input buffer; leakage per input port and cycle.
  double buffer_read_per_flit = 0;
  double buffer_write_per_flit = 0;
  double buffer_leakage_per_cycle = 0;
  // A crossbar traversal is the input's half plus the output's half; each depends on whether the
  // port is in the first half of the crossbar (BookSim's port order: E, W, S, N, local).
  double switch_input_near = 0, switch_input_far = 0;
  double switch_output_near = 0, switch_output_far = 0;
  double switch_control_per_flit = 0;
  double switch_leakage_per_cycle = 0;  // per router
  // Per flit and output port; the clock per output port and cycle.
  double output_dff_per_flit = 0;
  double output_control_per_flit = 0;
  double output_clock_per_cycle = 0;
  double vc_allocation = 0;
  double sw_allocation = 0;
};
EnergyCosts energy_costs(const Config& c);
// Whether a router port (Dir as an int, Local = 4) lies in the crossbar's first half.
bool crossbar_port_near(int dir);

// What the network model counted that the energy model charges, over a stretch of cycles.
struct NetworkActivity {
  std::uint64_t cycles = 0;
  std::uint64_t routers = 0;         // per network: width x height
  std::uint64_t channels = 0;        // channels that exist (and leak, and are clocked)
  std::uint64_t channel_flits = 0;   // flit-channel traversals (and static-network words per link)
  std::uint64_t buffer_writes = 0;
  std::uint64_t buffer_reads = 0;
  std::uint64_t input_ports = 0;
  std::uint64_t output_ports = 0;
  // Crossbar traversals by the side of the input and of the output they used.
  std::uint64_t switch_in_near = 0, switch_in_far = 0;
  std::uint64_t switch_out_near = 0, switch_out_far = 0;
  std::uint64_t vc_allocations = 0;  // heads at routers: delivered packets x (hops + 1)
  std::uint64_t flits_delivered = 0;
  std::uint64_t networks = 0;
};
// From a chip's statistics (all networks). The flit and packet models count every flit on every
// link and port; the ideal model has no routers or links and charges nothing but leakage-free
// zero (NetworkActivity::routers = 0). `model` is Config::network_model.
NetworkActivity network_activity(const Config& c, const Stats& s);

struct EnergyBreakdown {
  std::array<double, kEnergyComponents> joules{};
  std::uint64_t cycles = 0;
  double seconds = 0;            // cycles at clock_hz
  std::uint64_t flits_delivered = 0;
  double total() const;
  double dynamic() const;        // the per-event components
  double leakage_and_clock() const;
  double power_w(EnergyComponent c) const { return seconds > 0 ? joules[static_cast<std::size_t>(c)] / seconds : 0; }
  double total_power_w() const { return seconds > 0 ? total() / seconds : 0; }
  double per_delivered_flit() const {
    return flits_delivered ? total() / static_cast<double>(flits_delivered) : 0;
  }
  nlohmann::json to_json() const;
};
EnergyBreakdown network_energy(const EnergyCosts& costs, const NetworkActivity& a, double clock_hz);
EnergyBreakdown network_energy(const Config& c, const Stats& s);

// The dynamic energy one packet of `flits` flits (header included) costs on its route from src to
// dst: the per-flit terms network_energy charges for it (its channels, its routers' buffers,
// crossbar halves, output stages and allocators) and one VC allocation per router. Summed over the
// delivered packets of a drained run it is network_energy's dynamic part (Energy tests); what a run
// report attributes to the packet's sender. 0 under the ideal model.
double packet_energy(const Config& c, const EnergyCosts& k, const Topology& topo, TileId src, TileId dst,
                     std::uint64_t flits);

// What the chosen network model cannot be charged for, one sentence (empty: nothing).
std::string energy_limits(const Config& c);

// The endpoints' energy: an adapter's per message and per word (at each end of a message), the
// tile core's per counted operation (energy_parameters.h; all assumptions, stated per key).
double adapter_energy(const EnergyParameters& p, std::uint64_t message_ends, std::uint64_t words);
double core_energy(const EnergyParameters& p, double int_ops, double fp_ops);

// BookSim-style table: component, power [W] and energy [J], total, per delivered flit.
std::string format_energy(const EnergyBreakdown& e);

}  // namespace tilempi::hwmodel
