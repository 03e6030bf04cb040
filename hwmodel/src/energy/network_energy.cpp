// The network's energy per component, from the technology parameters and the statistics.
//
// Every formula is an energy: a switched capacitance C costs C x Vdd^2 per event (0.5 C Vdd^2 where
// the line charges on average every other event, as for a wire's bits), leakage is a current times
// Vdd for one clock period. These are the capacitance estimates of BookSim 2's power module, after
// Orion (docs/HWMODEL.md "Energy" lists them), written as energies: BookSim prints the same terms
// multiplied by its clock frequency and divided by the run's cycles, i.e. average power.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "tilempi/hwmodel/energy.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

namespace {

// Capacitances derived from the technology, as the formulas use them.
struct Tech {
  double v2;        // Vdd^2
  double cw;        // wire capacitance per mm: both neighbours, above and below [F/mm]
  double ci_delay;  // input capacitance of a 1 um inverter (NMOS 1 um, PMOS 2 um), for delay
  double co_delay;  // its output capacitance, for delay
  double ci;        // the same for power
  double co;
  double pitch;     // a channel's and the crossbar's wire pitch: two metal pitches [mm]
  double ioff_gate; // an inverter's leakage per um of NMOS width: 0.5 (Ioff_n + 2 Ioff_p)
  explicit Tech(const EnergyParameters& p)
      : v2(p.vdd * p.vdd),
        cw(2.0 * (p.cw_gnd + p.cw_cpl)),
        ci_delay(3.0 * (p.cg + p.cgdl)),
        co_delay(3.0 * p.cd),
        ci(3.0 * p.cg_pwr),
        co(3.0 * p.cd_pwr),
        pitch(2.0 * p.metal_pitch_mm),
        ioff_gate(0.5 * (p.ioff_n + 2.0 * p.ioff_p)) {}
};

// One bit over a wire of L mm in M stages of N repeaters of size K: each of the M x N segments
// switches its repeater and its piece of wire, every other flit on average.
double wire_bit_energy(const Tech& t, double length_mm, double k, int m, int n) {
  const double segments = static_cast<double>(m) * n;
  return 0.5 * (k * (t.ci + t.co) + t.cw * length_mm / segments) * t.v2 * segments;
}

// A flit of `bits` through `stages` rows of D flip-flops, each flip-flop's data input switching
// half the time and its clocked internals every time (alpha: the share of cycles with a flit).
double flipflop_energy(const Tech& t, const EnergyParameters& p, int stages, int bits, double alpha) {
  const double c_din = 2 * 0.8 * (t.ci + t.co) + 2 * (2.0 / 3.0 * 0.8 * t.co);
  const double c_clk = 2 * 0.8 * (t.ci + t.co) + 2 * (2.0 / 3.0 * 0.8 * p.cg_pwr);
  return (alpha * 0.5 * c_din + alpha * c_clk) * stages * bits * t.v2;
}

// The clock of `stages` rows of `bits` flip-flops, every cycle: the clock wires running across the
// row (dff_height / 2 of them per bit pitch) and the flip-flops' clock inputs, with the driver.
double clock_energy(const Tech& t, const EnergyParameters& p, int stages, int bits) {
  const double columns = p.dff_height * p.metal_pitch_mm / t.pitch;
  const double length = bits * t.pitch;
  const double c = (1 + 5.0 / 16.0 * (1 + t.co_delay / t.ci_delay)) * (length * t.cw * columns + bits * t.ci_delay);
  return stages * c * t.v2;
}

// Delay of one repeated segment of l mm driven by a repeater of size K (Elmore).
double segment_delay(const Tech& t, const EnergyParameters& p, double k, double l) {
  const double k0 = p.r_inverter * (t.co_delay + t.ci_delay);
  const double k1 = p.r_inverter / k * t.cw + k * p.rw * t.ci_delay;
  const double k2 = 0.5 * p.rw * t.cw;
  return k0 + k1 * l + k2 * l * l;
}

}  // namespace

const char* energy_component_name(EnergyComponent c) {
  switch (c) {
    case EnergyComponent::channel_wire: return "channel_wire";
    case EnergyComponent::channel_clock: return "channel_clock";
    case EnergyComponent::channel_retiming: return "channel_retiming";
    case EnergyComponent::channel_leakage: return "channel_leakage";
    case EnergyComponent::input_read: return "input_read";
    case EnergyComponent::input_write: return "input_write";
    case EnergyComponent::input_leakage: return "input_leakage";
    case EnergyComponent::switch_traversal: return "switch";
    case EnergyComponent::switch_control: return "switch_control";
    case EnergyComponent::switch_leakage: return "switch_leakage";
    case EnergyComponent::output_dff: return "output_dff";
    case EnergyComponent::output_clock: return "output_clock";
    case EnergyComponent::output_control: return "output_control";
    case EnergyComponent::vc_allocation: return "vc_allocation";
    case EnergyComponent::sw_allocation: return "sw_allocation";
    case EnergyComponent::count: break;
  }
  return "?";
}

bool energy_component_static(EnergyComponent c) {
  return c == EnergyComponent::channel_clock || c == EnergyComponent::channel_leakage ||
         c == EnergyComponent::input_leakage || c == EnergyComponent::switch_leakage ||
         c == EnergyComponent::output_clock;
}

double technology_clock_hz(const EnergyParameters& p) {
  const double fo4 = p.r_inverter * (3.0 * p.cd + 12.0 * p.cg + 12.0 * p.cgdl);
  return 1.0 / (20.0 * fo4);
}

WireDesign design_wire(const EnergyParameters& p, double length_mm, double clock_hz) {
  const Tech t(p);
  const double budget = 0.8 / clock_hz;
  // The design's figure of merit weighs a typical 64-bit channel at 20 % activity; M, the stages,
  // weighs in at the fourth power (each stage is a cycle of latency and a row of flip-flops).
  constexpr int kBits = 64;
  constexpr double kAlpha = 0.2;
  WireDesign best{length_mm, 0, 0, 0, true};
  double best_metric = std::numeric_limits<double>::infinity();
  WireDesign fastest{length_mm, 0, 0, 0, false};
  double fastest_delay = std::numeric_limits<double>::infinity();
  for (int ki = 0; ki < 90; ++ki) {
    const double k = 1.0 + 0.1 * ki;
    for (int n = 1; n < 40; ++n)
      for (int m = 1; m < 40; ++m) {
        const double delay = n * segment_delay(t, p, k, length_mm / (static_cast<double>(n) * m));
        if (delay < fastest_delay) {
          fastest_delay = delay;
          fastest.k = k, fastest.m = m, fastest.n = n;
        }
        if (!(delay < budget)) continue;
        const double e = kAlpha * kBits * wire_bit_energy(t, length_mm, k, m, n) + flipflop_energy(t, p, m, kBits, kAlpha);
        const double metric = static_cast<double>(m) * m * m * m * e;
        if (metric < best_metric) {
          best_metric = metric;
          best.k = k, best.m = m, best.n = n;
        }
      }
  }
  return best.m ? best : fastest;
}

bool crossbar_port_near(int dir) {
  // BookSim's mesh router numbers its ports +x, -x, +y, -y, local; a crossbar line of a port in the
  // first half (index < ports / 2) is charged half its length. In this model's coordinates (y grows
  // southwards) those are East, West and South.
  return dir == static_cast<int>(Dir::East) || dir == static_cast<int>(Dir::West) ||
         dir == static_cast<int>(Dir::South);
}

EnergyCosts energy_costs(const Config& c) {
  const EnergyParameters& p = c.energy;
  const Tech t(p);
  EnergyCosts e;
  const int w = p.flit_bits > 0 ? p.flit_bits : 8 * c.flit_bytes;
  e.flit_bits = w;
  const double wd = static_cast<double>(w);
  const double period = 1.0 / c.clock_hz;

  // Channels.
  e.wire = design_wire(p, p.wire_mm, c.clock_hz);
  e.wire_per_flit = wd * wire_bit_energy(t, p.wire_mm, e.wire.k, e.wire.m, e.wire.n);
  e.retiming_per_flit = flipflop_energy(t, p, e.wire.m, w, 1.0);
  e.channel_clock_per_cycle = clock_energy(t, p, e.wire.m, w);
  e.channel_leakage_per_cycle = wd * e.wire.k * t.ioff_gate * p.vdd * e.wire.m * e.wire.n * period;

  // Input buffers: an SRAM of `depth` words of w bits. An access drives a wordline (the cells'
  // pass gates and the wire across the word, with its decoder) and the bitline circuits of every
  // column (precharge and write enable over the array's height); each bit then moves its bitline,
  // which spans the depth. (BookSim's predecoder term, a product of two capacitances, and its
  // cell-flip term, which lacks the clock factor, are some 1e-13 of the rest: left out.)
  const double depth = static_cast<double>(c.vcs) * c.input_buffer_flits;
  const double lambda4 = 4.0 * p.lambda_um;
  const double c_cell_wl = 2 * lambda4 * p.cg_pwr + 6 * p.metal_pitch_mm * t.cw;
  const double x = 1.0 + 5.0 / 16.0 * (1 + t.co / t.ci);
  const double c_decode = x * wd * c_cell_wl;
  const double h_array = 6 * wd * p.metal_pitch_mm;
  const double y = 1.25 * (1 + t.co / t.ci);
  const double c_precharge = y * (t.cw * h_array + 3 * wd * t.ci);
  const double c_write_enable = y * (t.cw * h_array + 2 * wd * t.ci);
  const double wordline = (c_precharge + c_write_enable + c_decode) * t.v2;
  const double bitline = depth * (lambda4 * p.cd_pwr + 8 * p.metal_pitch_mm * t.cw) * t.v2;
  e.buffer_read_per_flit = wordline + wd * bitline;
  e.buffer_write_per_flit = wordline + wd * bitline;
  e.buffer_leakage_per_cycle = depth * p.ioff_sram * p.vdd * wd * period;

  // Crossbar: kPorts x kPorts, w bits per port. A flit drives its input line across the outputs
  // (with its driver and the cross-points' inputs) and the output line down the inputs; a port in
  // the crossbar's first half drives half the line.
  const double ports = kPorts;
  const double w_xbar = wd * ports * t.pitch;
  const double h_xbar = wd * ports * t.pitch;
  const double cw_in = w_xbar * t.cw;
  const double cw_out = h_xbar * t.cw;
  const double c_xi = cw_out / 16.0;
  const double c_xo = 4.0 * c_xi * (t.co_delay / t.ci_delay);
  const double c_ti = cw_in / 16.0;
  const double c_to = 4.0 * c_ti * (t.co_delay / t.ci_delay);
  const double c_in_driver = 5.0 / 16.0 * (1 + t.co_delay / t.ci_delay) * (0.5 * t.cw * w_xbar + c_ti);
  const double c_in_far = c_in_driver + cw_in + c_ti + ports * c_xi;
  const double c_in_near = c_in_far - (0.5 * cw_in + ports / 2 * c_xi);
  const double c_out_far = cw_out + c_to + ports * c_xo;
  const double c_out_near = c_out_far - (0.5 * cw_out + ports / 2 * c_xo);
  // The input line is charged by the output the flit goes to, the output line by its input.
  e.switch_output_far = wd * 0.5 * c_in_far * t.v2;
  e.switch_output_near = wd * 0.5 * c_in_near * t.v2;
  e.switch_input_far = wd * 0.5 * c_out_far * t.v2;
  e.switch_input_near = wd * 0.5 * c_out_near * t.v2;
  const double c_ctrl = wd * (5.0 / 16.0 * cw_in) + (w_xbar + h_xbar) * t.cw;
  e.switch_control_per_flit = (1 + 5.0 / 16.0 * (1 + t.co_delay / t.ci_delay)) * c_ctrl * t.v2;
  // BookSim's crossbar leakage is the current of the cross-points and drivers (sized by their
  // capacitance over a 1 um inverter's); it is not multiplied by Vdd there, and is not here, so
  // that the figures agree (docs/HWMODEL.md "Energy").
  e.switch_leakage_per_cycle = t.ioff_gate * wd * (ports * ports * c_xi + 2 * ports * c_ti) / t.ci * period;

  // Output stage: a row of flip-flops per output, and its enable.
  e.output_dff_per_flit = flipflop_energy(t, p, 1, w, 1.0);
  e.output_clock_per_cycle = clock_energy(t, p, 1, w);
  e.output_control_per_flit = (1 + 5.0 / 16.0) * (1 + t.co / t.ci) * (wd * t.pitch * t.cw + wd * t.ci) * t.v2;

  e.vc_allocation = p.va_pj * 1e-12;
  e.sw_allocation = p.sa_pj * 1e-12;
  return e;
}

NetworkActivity network_activity(const Config& c, const Stats& s) {
  NetworkActivity a;
  a.cycles = s.cycles();
  const Topology topo(c.width, c.height, c.torus);
  const std::uint64_t tiles = static_cast<std::uint64_t>(topo.num_tiles());
  for (const NetworkStats& ns : s.networks) a.flits_delivered += ns.flits_delivered;
  if (c.network_model == "ideal") return a;  // no routers, no links: nothing to charge
  const EnergyParameters& p = c.energy;
  for (const NetworkStats& ns : s.networks) {
    ++a.networks;
    a.routers += tiles;
    a.input_ports += tiles * kPorts;
    a.output_ports += tiles * kPorts;
    for (int i = 0; i < topo.num_link_slots(); ++i) {
      const Link l = Topology::link_at(i);
      const bool exists = topo.link_exists(l);
      if (exists || p.edge_channels) ++a.channels;
      if (!exists || static_cast<std::size_t>(i) >= ns.links.size()) continue;
      const std::uint64_t f = ns.links[static_cast<std::size_t>(i)].flits;
      a.channel_flits += f;
      a.buffer_writes += f;
      a.buffer_reads += f;
      (crossbar_port_near(static_cast<int>(l.dir)) ? a.switch_out_near : a.switch_out_far) += f;
      // At the next router the flit comes in through the port facing back.
      (crossbar_port_near(static_cast<int>(opposite(l.dir))) ? a.switch_in_near : a.switch_in_far) += f;
    }
    std::uint64_t inj = 0, ej = 0;
    for (const LinkStats& l : ns.injection) inj += l.flits;
    for (const LinkStats& l : ns.ejection) ej += l.flits;
    if (p.local_channels) {
      a.channels += 2 * tiles;
      a.channel_flits += inj + ej;
    }
    a.buffer_writes += inj;  // the injection buffer is the router's local input
    a.buffer_reads += ej;    // every flit leaving an input buffer crosses the switch: to a link or out
    a.switch_in_far += inj;  // local ports are in the crossbar's second half
    a.switch_out_far += ej;
    a.vc_allocations += static_cast<std::uint64_t>(ns.hops.sum) + ns.hops.count;
  }
  // The static network's words cross wires like flits (its crossbars are configured once per
  // route and not charged; its channels' clock and leakage are not modeled).
  for (const LinkStats& l : s.static_links) a.channel_flits += l.flits;
  return a;
}

double EnergyBreakdown::total() const {
  double s = 0;
  for (double j : joules) s += j;
  return s;
}

double EnergyBreakdown::leakage_and_clock() const {
  double s = 0;
  for (int i = 0; i < kEnergyComponents; ++i)
    if (energy_component_static(static_cast<EnergyComponent>(i))) s += joules[static_cast<std::size_t>(i)];
  return s;
}

double EnergyBreakdown::dynamic() const { return total() - leakage_and_clock(); }

EnergyBreakdown network_energy(const EnergyCosts& e, const NetworkActivity& a, double clock_hz) {
  EnergyBreakdown b;
  b.cycles = a.cycles;
  b.seconds = static_cast<double>(a.cycles) / clock_hz;
  b.flits_delivered = a.flits_delivered;
  const double cyc = static_cast<double>(a.cycles);
  auto set = [&](EnergyComponent c, double j) { b.joules[static_cast<std::size_t>(c)] = j; };
  auto d = [](std::uint64_t v) { return static_cast<double>(v); };
  set(EnergyComponent::channel_wire, d(a.channel_flits) * e.wire_per_flit);
  set(EnergyComponent::channel_clock, d(a.channels) * cyc * e.channel_clock_per_cycle);
  set(EnergyComponent::channel_retiming, d(a.channel_flits) * e.retiming_per_flit);
  set(EnergyComponent::channel_leakage, d(a.channels) * cyc * e.channel_leakage_per_cycle);
  set(EnergyComponent::input_read, d(a.buffer_reads) * e.buffer_read_per_flit);
  set(EnergyComponent::input_write, d(a.buffer_writes) * e.buffer_write_per_flit);
  set(EnergyComponent::input_leakage, d(a.input_ports) * cyc * e.buffer_leakage_per_cycle);
  set(EnergyComponent::switch_traversal,
      d(a.switch_in_near) * e.switch_input_near + d(a.switch_in_far) * e.switch_input_far +
          d(a.switch_out_near) * e.switch_output_near + d(a.switch_out_far) * e.switch_output_far);
  const std::uint64_t traversals = a.switch_out_near + a.switch_out_far;
  set(EnergyComponent::switch_control, d(traversals) * e.switch_control_per_flit);
  set(EnergyComponent::switch_leakage, d(a.routers) * cyc * e.switch_leakage_per_cycle);
  set(EnergyComponent::output_dff, d(traversals) * e.output_dff_per_flit);
  set(EnergyComponent::output_clock, d(a.output_ports) * cyc * e.output_clock_per_cycle);
  set(EnergyComponent::output_control, d(traversals) * e.output_control_per_flit);
  set(EnergyComponent::vc_allocation, d(a.vc_allocations) * e.vc_allocation);
  set(EnergyComponent::sw_allocation, d(traversals) * e.sw_allocation);
  return b;
}

EnergyBreakdown network_energy(const Config& c, const Stats& s) {
  return network_energy(energy_costs(c), network_activity(c, s), c.clock_hz);
}

double packet_energy(const Config& c, const EnergyCosts& k, const Topology& topo, TileId src, TileId dst,
                     std::uint64_t flits) {
  if (c.network_model == "ideal") return 0;
  // The source router's local input and the destination's local output are in the crossbar's
  // second half; each hop adds its output's half here and its input's half at the next router.
  double halves = k.switch_input_far + k.switch_output_far;
  int hops = 0;
  for (TileId at = src; at != dst; ++hops) {
    const Dir d = topo.route(at, dst);
    halves += crossbar_port_near(static_cast<int>(d)) ? k.switch_output_near : k.switch_output_far;
    halves += crossbar_port_near(static_cast<int>(opposite(d))) ? k.switch_input_near : k.switch_input_far;
    at = topo.neighbor(at, d);
  }
  const double routers = hops + 1;
  const double channels = hops + (c.energy.local_channels ? 2 : 0);
  const double per_flit = channels * (k.wire_per_flit + k.retiming_per_flit) +
                          routers * (k.buffer_write_per_flit + k.buffer_read_per_flit + k.switch_control_per_flit +
                                     k.output_dff_per_flit + k.output_control_per_flit + k.sw_allocation) +
                          halves;
  return static_cast<double>(flits) * per_flit + routers * k.vc_allocation;
}

double adapter_energy(const EnergyParameters& p, std::uint64_t message_ends, std::uint64_t words) {
  return 1e-12 * (p.adapter_message_pj * static_cast<double>(message_ends) + p.adapter_word_pj * static_cast<double>(words));
}

double core_energy(const EnergyParameters& p, double int_ops, double fp_ops) {
  return 1e-12 * (p.core_int_op_pj * int_ops + p.core_fp_op_pj * fp_ops);
}

std::string energy_limits(const Config& c) {
  if (c.network_model == "ideal")
    return "the ideal network model has no routers or links: no network energy is charged";
  if (c.network_model == "packet")
    return "the packet model counts a packet's flits on a port when its head takes the port, and no "
           "credits or retries (allocations are one per head and flit, as in the flit model)";
  return {};
}

nlohmann::json EnergyBreakdown::to_json() const {
  nlohmann::json j;
  nlohmann::json comps = nlohmann::json::object();
  for (int i = 0; i < kEnergyComponents; ++i) {
    const auto c = static_cast<EnergyComponent>(i);
    comps[energy_component_name(c)] = {{"joules", joules[static_cast<std::size_t>(i)]}, {"watts", power_w(c)}};
  }
  j["components"] = std::move(comps);
  j["cycles"] = cycles;
  j["seconds"] = seconds;
  j["total_joules"] = total();
  j["total_watts"] = total_power_w();
  j["dynamic_joules"] = dynamic();
  j["leakage_and_clock_joules"] = leakage_and_clock();
  j["flits_delivered"] = flits_delivered;
  j["joules_per_delivered_flit"] = per_delivered_flit();
  return j;
}

std::string format_energy(const EnergyBreakdown& e) {
  std::ostringstream os;
  os.setf(std::ios::scientific);
  os.precision(6);
  os << "Power and energy (averaged over " << e.cycles << " cycles, " << e.seconds << " s):\n";
  for (int i = 0; i < kEnergyComponents; ++i) {
    const auto c = static_cast<EnergyComponent>(i);
    std::string name = energy_component_name(c);
    name.resize(18, ' ');
    os << "  " << name << " " << e.power_w(c) << " W  " << e.joules[static_cast<std::size_t>(i)] << " J\n";
  }
  os << "  total              " << e.total_power_w() << " W  " << e.total() << " J\n";
  os << "  per delivered flit " << e.per_delivered_flit() << " J (" << e.flits_delivered << " flits)\n";
  return os.str();
}

}  // namespace tilempi::hwmodel
