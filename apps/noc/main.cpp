// tilempi-noc: synthetic traffic on the modeled mesh, reported the way
// network simulators usually do (latency, accepted throughput, hops), with an
// optional latency-load sweep whose points run in parallel.
#include <omp.h>

#include <CLI/CLI.hpp>

#include "../cli_exit.h"
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tilempi/hwmodel/energy.h"
#include "tilempi/hwmodel/hwmodel.h"
#include "tilempi/hwmodel/traffic.h"

using namespace tilempi::hwmodel;

namespace {

struct Options {
  std::string preset = "default";
  std::vector<std::string> sets;
  std::vector<std::string> config_files;
  std::string mesh;
  std::string pattern = "uniform";
  double rate = 0.1;
  std::string unit = "flits";
  int packet_size = -1;
  std::uint64_t seed = 1;
  Cycle warmup = 2000;
  Cycle cycles = 10000;
  long long drain = -1;  // -1: 4 x cycles
  int hotspot = -1;
  double hotspot_fraction = 0.2;
  int network = 0;
  bool sweep = false;
  double sweep_step = 0.02;
  double sweep_max = 1.0;
  int threads = 0;
  std::string json_file, csv_file, heatmap_file, packets_csv, pairs_csv, energy_csv, energy_heatmap;
  bool print_config = false;
};

// Labels say what each figure measures: latencies in cycles over the packets created in the
// measurement window; offered load = what the sources generated in the window, accepted load =
// what was delivered in it.
void print_result(const TrafficResult& r, const TrafficSpec& s, const Config& c) {
  const double flits = c.header_flits + s.payload_flits;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("====== Overall Traffic Statistics (packets created in the measurement window) ======\n");
  std::printf("Packet latency average = %.4f cycles (created to tail delivered, source queueing included)\n",
              r.latency.mean());
  std::printf("\tminimum = %llu\n", u(r.latency.count ? r.latency.min : 0));
  std::printf("\tmaximum = %llu\n", u(r.latency.max));
  std::printf("Network latency average = %.4f cycles (head into the injection buffer to tail delivered)\n",
              r.network_latency.mean());
  std::printf("\tminimum = %llu\n", u(r.network_latency.count ? r.network_latency.min : 0));
  std::printf("\tmaximum = %llu\n", u(r.network_latency.max));
  std::printf("Queueing latency average = %.4f cycles (created to head into the injection buffer)\n",
              r.queueing_latency.mean());
  if (std::abs(r.zero_load_latency - r.zero_load_analytic) < 1e-9)
    std::printf("Zero-load latency = %.4f cycles (one packet alone; equals the analytic T0)\n", r.zero_load_latency);
  else
    std::printf("Zero-load latency = %.4f cycles (one packet alone, measured; the analytic T0 = %.4f assumes "
                "buffers that let a lone worm stream one flit per cycle)\n",
                r.zero_load_latency, r.zero_load_analytic);
  std::printf("Offered load = %.6f flits/node/cycle = %.6f packets/node/cycle (generated in the window)\n",
              r.offered_flits, r.offered_flits / flits);
  std::printf("Accepted load = %.6f flits/node/cycle = %.6f packets/node/cycle (delivered in the window)\n",
              r.accepted_flits, r.accepted_packets);
  std::printf("Hops average = %.4f links crossed (%.4f routers)\n", r.hops.mean(), r.hops.mean() + 1);
  std::printf("Bisection bound (uniform) = %.4f flits/node/cycle\n", r.bisection_bound);
  std::printf("Measured packets = %llu (%s)\n", u(r.measured_packets),
              r.drained ? "all delivered" : "NOT all delivered within the drain limit: saturated");
  std::printf("Simulated %llu cycles (%.6g s at %.6g Hz), %.0f router-cycles, %llu flit-hops\n", u(r.cycles),
              static_cast<double>(r.cycles) / c.clock_hz, c.clock_hz, r.router_cycles, u(r.flit_hops));
}

// The energy summary: the whole run (warm-up, window and drain), every network, as BookSim's power
// module averages it over its whole run.
void print_energy(const EnergyBreakdown& e, const Config& c) {
  const EnergyCosts k = energy_costs(c);
  std::printf("====== Power and energy (whole run, all networks; docs/HWMODEL.md \"Energy\") ======\n");
  std::printf("Technology: energy.* keys (Vdd %.3g V), %d-bit flits, %.3g mm links of %d stage(s) of %d repeater(s) "
              "of size %.1f%s\n",
              c.energy.vdd, k.flit_bits, k.wire.length_mm, k.wire.m, k.wire.n, k.wire.k,
              k.wire.meets_clock ? "" : " (NO design meets the clock: the fastest is used)");
  const double pj = 1e12;
  std::printf("Per flit: link %.4g pJ (wire %.4g, retiming %.4g), buffer write %.4g / read %.4g pJ, crossbar "
              "%.4g-%.4g pJ (+ control %.4g), output %.4g pJ; per cycle: channel %.4g pJ, router %.4g pJ\n",
              pj * (k.wire_per_flit + k.retiming_per_flit), pj * k.wire_per_flit, pj * k.retiming_per_flit,
              pj * k.buffer_write_per_flit, pj * k.buffer_read_per_flit,
              pj * (k.switch_input_near + k.switch_output_near), pj * (k.switch_input_far + k.switch_output_far),
              pj * k.switch_control_per_flit, pj * (k.output_dff_per_flit + k.output_control_per_flit),
              pj * (k.channel_clock_per_cycle + k.channel_leakage_per_cycle),
              pj * (k.switch_leakage_per_cycle + kPorts * (k.buffer_leakage_per_cycle + k.output_clock_per_cycle)));
  std::fputs(format_energy(e).c_str(), stdout);
  if (const std::string l = energy_limits(c); !l.empty()) std::printf("Energy model: %s\n", l.c_str());
}

void write_energy_csv(const std::string& file, const EnergyBreakdown& e) {
  std::ofstream f(file);
  if (!f) throw std::runtime_error("cannot write " + file);
  f.precision(10);
  f << "component,joules,watts\n";
  for (int i = 0; i < kEnergyComponents; ++i) {
    const auto comp = static_cast<EnergyComponent>(i);
    f << energy_component_name(comp) << ',' << e.joules[static_cast<std::size_t>(i)] << ',' << e.power_w(comp)
      << '\n';
  }
  f << "total," << e.total() << ',' << e.total_power_w() << '\n';
  f << "per_delivered_flit," << e.per_delivered_flit() << ",\n";
}

// "a=1 b=2" or "a=1,b=2" (a comma inside a value, as in mapping=list:0,1,2, stays in it).
std::vector<std::string> split_assignments(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    if (word.find('=') == std::string::npos && !out.empty()) out.back() += "," + word;
    else out.push_back(word);
    word.clear();
  };
  for (char ch : text) {
    if (ch == ' ' || ch == '\t' || ch == ',') flush();
    else word += ch;
  }
  flush();
  return out;
}

void write_packets_csv(const std::string& file, const TrafficResult& r) {
  std::ofstream f(file);
  if (!f) throw std::runtime_error("cannot write " + file);
  Stats st;
  st.packets = r.packets;
  st.write_packets_csv(f);
}

// Per source-destination pair: packets, latency (mean, min, max), mean link wait.
void write_pairs_csv(const std::string& file, const TrafficResult& r) {
  std::ofstream f(file);
  if (!f) throw std::runtime_error("cannot write " + file);
  struct Pair {
    Summary latency;
    std::uint64_t hops = 0, link_wait = 0;
  };
  std::map<std::pair<TileId, TileId>, Pair> pairs;
  for (const PacketRecord& p : r.packets) {
    Pair& q = pairs[{p.src, p.dst}];
    q.latency.add(p.delivered - p.created);
    q.hops = static_cast<std::uint64_t>(p.hops);
    q.link_wait += p.link_wait;
  }
  f << "src,dst,hops,packets,latency_mean,latency_min,latency_max,link_wait_mean\n";
  for (const auto& [k, q] : pairs)
    f << k.first << ',' << k.second << ',' << q.hops << ',' << q.latency.count << ',' << q.latency.mean() << ','
      << q.latency.min << ',' << q.latency.max << ','
      << static_cast<double>(q.link_wait) / static_cast<double>(q.latency.count) << '\n';
}

nlohmann::json result_json(const TrafficResult& r) {
  return {{"offered_flits", r.offered_flits},
          {"accepted_flits", r.accepted_flits},
          {"accepted_packets", r.accepted_packets},
          {"latency", r.latency.to_json()},
          {"network_latency", r.network_latency.to_json()},
          {"queueing_latency", r.queueing_latency.to_json()},
          {"hops", r.hops.to_json()},
          {"measured_packets", r.measured_packets},
          {"drained", r.drained},
          {"cycles", r.cycles},
          {"zero_load_latency", r.zero_load_latency},
          {"bisection_bound", r.bisection_bound}};
}

int run(const Options& o) {
  Config c = Config::preset_named(o.preset);
  for (const std::string& f : o.config_files) c.apply_file(f);
  if (!o.mesh.empty()) {
    const std::size_t x = o.mesh.find('x');
    const auto digits = [](const std::string& v) {
      return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
    };
    if (x == std::string::npos || !digits(o.mesh.substr(0, x)) || !digits(o.mesh.substr(x + 1)))
      throw CLI::ValidationError("--mesh", "expects WxH, e.g. 8x8, got '" + o.mesh + "'");
    try {
      c.set("width", o.mesh.substr(0, x));
      c.set("height", o.mesh.substr(x + 1));
    } catch (const ConfigError& e) {
      throw CLI::ValidationError("--mesh", e.what());
    }
  }
  for (const std::string& set : o.sets) c.apply_all(split_assignments(set));
  c.validate();
  if (o.print_config) std::cout << c.to_text();
  for (const std::string& w : c.ignored_settings()) std::fprintf(stderr, "tilempi-noc: warning: %s\n", w.c_str());

  TrafficSpec s;
  s.pattern = parse_pattern(o.pattern);
  s.rate = o.rate;
  s.rate_in_flits = o.unit == "flits";
  s.payload_flits = o.packet_size >= 0 ? o.packet_size : std::min(4, c.max_payload_flits());
  s.seed = o.seed;
  s.warmup = o.warmup;
  s.measure = o.cycles;
  s.drain_limit = o.drain < 0 ? kDrainAuto : static_cast<Cycle>(o.drain);
  s.keep_packets = !o.packets_csv.empty() || !o.pairs_csv.empty();
  s.hotspot = o.hotspot;
  s.hotspot_fraction = o.hotspot_fraction;
  s.network = o.network;

  std::printf("tilempi-noc: preset %s, %dx%d %s, %s traffic, packets of %d flits (%d header), router delay %d\n",
              c.preset.c_str(), c.width, c.height, c.torus ? "torus" : "mesh", pattern_name(s.pattern),
              c.header_flits + s.payload_flits, c.header_flits, c.router_delay);

  if (!o.sweep) {
    TrafficResult r = run_traffic(c, s);
    print_result(r, s, c);
    const EnergyBreakdown energy = network_energy(c, r.run);
    print_energy(energy, c);
    if (!o.energy_csv.empty()) write_energy_csv(o.energy_csv, energy);
    const Topology topo(c.width, c.height, c.torus);
    if (!o.json_file.empty()) {
      nlohmann::json j = result_json(r);
      j["config"] = c.to_text();
      j["pattern"] = pattern_name(s.pattern);
      j["rate"] = s.rate;
      j["rate_unit"] = o.unit;
      j["window"] = r.window.to_json(topo);
      j["energy"] = energy.to_json();
      std::ofstream f(o.json_file);
      if (!f) throw std::runtime_error("cannot write " + o.json_file);
      f << j.dump(2) << "\n";
    }
    if (!o.csv_file.empty()) {
      std::ofstream f(o.csv_file);
      if (!f) throw std::runtime_error("cannot write " + o.csv_file);
      r.window.write_links_csv(f, topo);
    }
    if (!o.heatmap_file.empty())
      write_heatmap(r.window, topo, s.network, o.heatmap_file,
                    std::string(pattern_name(s.pattern)) + " traffic at " + std::to_string(s.rate) + " " + o.unit +
                        "/node/cycle: link utilization");
    if (!o.energy_heatmap.empty())
      write_energy_heatmap(r.run, topo, c, s.network, o.energy_heatmap,
                           std::string(pattern_name(s.pattern)) + " traffic at " + std::to_string(s.rate) + " " +
                               o.unit + "/node/cycle: link energy (uJ, whole run)");
    if (!o.packets_csv.empty()) write_packets_csv(o.packets_csv, r);
    if (!o.pairs_csv.empty()) write_pairs_csv(o.pairs_csv, r);
    if (!r.drained) {
      std::fprintf(stderr,
                   "tilempi-noc: %llu of %llu measured packets were not delivered within the drain limit "
                   "(exit status 3): the network is saturated at this load, or --drain is too short\n",
                   static_cast<unsigned long long>(r.measured_packets - r.latency.count),
                   static_cast<unsigned long long>(r.measured_packets));
      return 3;
    }
    return 0;
  }

  // Sweep: load points in batches of one per thread, until a batch holds a
  // saturated point.
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  std::vector<double> rates;
  for (int i = 1;; ++i) {
    double r = o.sweep_step * i;
    if (r > o.sweep_max + 1e-9) break;
    rates.push_back(r);
  }
  if (rates.empty()) throw CLI::ValidationError("--sweep-step", "no load point at or below --sweep-max");
  std::printf("%10s %10s %10s %10s %8s %8s %10s %8s\n", "offered", "generated", "accepted", "latency", "min",
              "max", "net_lat", "hops");
  nlohmann::json points = nlohmann::json::array();
  bool saturated = false;
  for (std::size_t b = 0; b < rates.size() && !saturated; b += static_cast<std::size_t>(threads)) {
    const std::size_t e = std::min(rates.size(), b + static_cast<std::size_t>(threads));
    std::vector<TrafficResult> res(e - b);
    std::vector<std::string> errors(e - b);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t i = b; i < e; ++i) {
      TrafficSpec si = s;
      si.rate = rates[i];
      try {
        res[i - b] = run_traffic(c, si);
      } catch (const std::exception& ex) {
        errors[i - b] = ex.what();
      }
    }
    for (std::size_t i = b; i < e && !saturated; ++i) {
      if (!errors[i - b].empty()) throw std::runtime_error(errors[i - b]);
      const TrafficResult& r = res[i - b];
      const double offered_flits = s.rate_in_flits ? rates[i] : rates[i] * (c.header_flits + s.payload_flits);
      const bool sat = !r.drained || r.accepted_flits < 0.95 * r.offered_flits ||
                       r.latency.mean() > 10.0 * r.zero_load_latency;
      std::printf("%10.4f %10.4f %10.4f %10.2f %8llu %8llu %10.2f %8.3f%s\n", offered_flits, r.offered_flits,
                  r.accepted_flits, r.latency.mean(),
                  static_cast<unsigned long long>(r.latency.count ? r.latency.min : 0),
                  static_cast<unsigned long long>(r.latency.max), r.network_latency.mean(), r.hops.mean(),
                  sat ? "  saturated" : "");
      nlohmann::json j = result_json(r);
      const EnergyBreakdown energy = network_energy(c, r.run);
      j["energy"] = energy.to_json();
      j["rate"] = rates[i];
      j["saturated"] = sat;
      points.push_back(j);
      saturated = sat;
    }
    std::fflush(stdout);
  }
  std::printf("Bisection bound (uniform) = %.4f flits/node/cycle\n",
              bisection_bound(Topology(c.width, c.height, c.torus)));
  if (!o.json_file.empty()) {
    std::ofstream f(o.json_file);
    if (!f) throw std::runtime_error("cannot write " + o.json_file);
    f << nlohmann::json{{"config", c.to_text()}, {"pattern", pattern_name(s.pattern)}, {"rate_unit", o.unit},
                        {"points", points}}
             .dump(2)
      << "\n";
  }
  if (!o.csv_file.empty()) {
    std::ofstream f(o.csv_file);
    if (!f) throw std::runtime_error("cannot write " + o.csv_file);
    f << "rate,offered_flits,accepted_flits,latency,latency_min,latency_max,network_latency,hops,saturated,"
         "power_w,joules_per_flit\n";
    for (const auto& p : points)
      f << p["rate"].get<double>() << ',' << p["offered_flits"].get<double>() << ','
        << p["accepted_flits"].get<double>() << ',' << p["latency"]["mean"].get<double>() << ','
        << p["latency"]["min"].get<std::uint64_t>() << ',' << p["latency"]["max"].get<std::uint64_t>() << ','
        << p["network_latency"]["mean"].get<double>() << ',' << p["hops"]["mean"].get<double>() << ','
        << (p["saturated"].get<bool>() ? 1 : 0) << ',' << p["energy"]["total_watts"].get<double>() << ','
        << p["energy"]["joules_per_delivered_flit"].get<double>() << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tilempi-noc: synthetic traffic on the modeled 2D-mesh network-on-chip"};
  Options o;
  app.add_option("--preset", o.preset, "chip preset: " + Config::presets().joined())
      ->check(CLI::IsMember(Config::preset_names()));
  app.add_option("--config", o.config_files, "config file of key=value lines (# comments); repeatable")
      ->check(CLI::ExistingFile);
  app.add_option("--set", o.sets,
                 "override parameters: key=value, several separated by spaces or commas; repeatable "
                 "(e.g. --set router_delay=2,credit_delay=2)");
  app.add_option("--mesh", o.mesh, "mesh size WxH, e.g. 8x8");
  app.add_option("--pattern", o.pattern, "uniform, transpose, bitcomp, tornado, hotspot, neighbor")
      ->check(CLI::IsMember({"uniform", "transpose", "bitcomp", "tornado", "hotspot", "neighbor"}));
  app.add_option("--rate", o.rate, "offered load per node per cycle")->check(CLI::PositiveNumber);
  app.add_option("--unit", o.unit, "unit of --rate: flits or packets")->check(CLI::IsMember({"flits", "packets"}));
  app.add_option("--packet-size", o.packet_size, "payload flits per packet (header flits come on top)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--seed", o.seed, "random seed");
  app.add_option("--warmup", o.warmup, "warm-up cycles before measuring");
  app.add_option("--cycles", o.cycles, "measured cycles")->check(CLI::PositiveNumber);
  app.add_option("--drain", o.drain,
                 "cycles allowed after the window to deliver the measured packets (default: 4 x --cycles; 0: "
                 "none). A single run whose measured packets are not all delivered exits with status 3")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--hotspot", o.hotspot, "hotspot tile (default: centre)");
  app.add_option("--hotspot-fraction", o.hotspot_fraction, "share of packets to the hotspot")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--network", o.network, "dynamic network to load")->check(CLI::NonNegativeNumber);
  app.add_flag("--sweep", o.sweep, "latency-load curve up to saturation (points in parallel)");
  app.add_option("--sweep-step", o.sweep_step, "load step of the sweep")->check(CLI::PositiveNumber);
  app.add_option("--sweep-max", o.sweep_max, "highest load of the sweep")->check(CLI::PositiveNumber);
  app.add_option("--threads", o.threads, "threads of the sweep (default: OpenMP default)");
  app.add_option("--json", o.json_file, "write results as JSON");
  app.add_option("--csv", o.csv_file, "write per-link statistics (or the sweep) as CSV");
  app.add_option("--energy-heatmap", o.energy_heatmap,
                 "draw each link's energy over the whole run (FILE.png or FILE.svg, needs gnuplot)");
  app.add_option("--energy-csv", o.energy_csv,
                 "write the energy summary as CSV: component,joules,watts (single run)");
  app.add_option("--packets-csv", o.packets_csv, "write one line per measured packet as CSV (single run)");
  app.add_option("--pairs-csv", o.pairs_csv,
                 "write per source-destination pair packets, latency and link wait as CSV (single run)");
  app.add_option("--heatmap", o.heatmap_file, "draw link utilization with gnuplot: FILE.png or FILE.svg");
  app.add_flag("--print-config", o.print_config, "print the effective parameters");
  app.footer(
      "Exit status: 0 done; 3 a single run whose measured packets were not all delivered within --drain "
      "(saturated); 2 a bad option, config key or value, or another error.");
  if (int status = tilempi::apps::parse_command_line(app, argc, argv); status >= 0) return status;
  try {
    return run(o);
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const ConfigError& e) {
    std::cerr << "tilempi-noc: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tilempi-noc: " << e.what() << "\n";
    return 2;
  }
}
