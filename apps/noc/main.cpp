// tilempi-noc: synthetic traffic on the modeled mesh, reported the way
// network simulators usually do (latency, accepted throughput, hops), with an
// optional latency-load sweep whose points run in parallel.
#include <omp.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

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
  Cycle drain = 0;
  int hotspot = -1;
  double hotspot_fraction = 0.2;
  int network = 0;
  bool sweep = false;
  double sweep_step = 0.02;
  double sweep_max = 1.0;
  int threads = 0;
  std::string json_file, csv_file, heatmap_file;
  bool print_config = false;
};

void print_result(const TrafficResult& r, const TrafficSpec& s, const Config& c) {
  const double flits = c.header_flits + s.payload_flits;
  std::printf("====== Overall Traffic Statistics ======\n");
  std::printf("Packet latency average = %.4f\n", r.latency.mean());
  std::printf("\tminimum = %llu\n", static_cast<unsigned long long>(r.latency.count ? r.latency.min : 0));
  std::printf("\tmaximum = %llu\n", static_cast<unsigned long long>(r.latency.max));
  std::printf("Network latency average = %.4f\n", r.network_latency.mean());
  std::printf("\tminimum = %llu\n",
              static_cast<unsigned long long>(r.network_latency.count ? r.network_latency.min : 0));
  std::printf("\tmaximum = %llu\n", static_cast<unsigned long long>(r.network_latency.max));
  std::printf("Queueing latency average = %.4f\n", r.queueing_latency.mean());
  std::printf("Zero-load latency (analytic) = %.4f\n", r.zero_load_latency);
  std::printf("Injected packet rate average = %.6f\n", r.offered_flits / flits);
  std::printf("Accepted packet rate average = %.6f\n", r.accepted_packets);
  std::printf("Injected flit rate average = %.6f\n", r.offered_flits);
  std::printf("Accepted flit rate average = %.6f\n", r.accepted_flits);
  std::printf("Hops average = %.4f\n", r.hops.mean());
  std::printf("Bisection bound (uniform) = %.4f flits/node/cycle\n", r.bisection_bound);
  std::printf("Measured packets = %llu (%s)\n", static_cast<unsigned long long>(r.measured_packets),
              r.drained ? "all delivered" : "NOT all delivered: saturated");
  std::printf("Total run time %llu cycles, %.0f router-cycles, %llu flit-hops\n",
              static_cast<unsigned long long>(r.cycles), r.router_cycles,
              static_cast<unsigned long long>(r.flit_hops));
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
    std::size_t x = o.mesh.find('x');
    if (x == std::string::npos) throw CLI::ValidationError("--mesh", "expects WxH, e.g. 8x8, got '" + o.mesh + "'");
    c.set("width", o.mesh.substr(0, x));
    c.set("height", o.mesh.substr(x + 1));
  }
  c.apply_all(o.sets);
  c.validate();
  if (o.print_config) std::cout << c.to_text();

  TrafficSpec s;
  s.pattern = parse_pattern(o.pattern);
  s.rate = o.rate;
  s.rate_in_flits = o.unit == "flits";
  s.payload_flits = o.packet_size >= 0 ? o.packet_size : std::min(4, c.max_payload_flits());
  s.seed = o.seed;
  s.warmup = o.warmup;
  s.measure = o.cycles;
  s.drain_limit = o.drain;
  s.hotspot = o.hotspot;
  s.hotspot_fraction = o.hotspot_fraction;
  s.network = o.network;

  std::printf("tilempi-noc: preset %s, %dx%d %s, %s traffic, packets of %d flits (%d header), router delay %d\n",
              c.preset.c_str(), c.width, c.height, c.torus ? "torus" : "mesh", pattern_name(s.pattern),
              c.header_flits + s.payload_flits, c.header_flits, c.router_delay);

  if (!o.sweep) {
    TrafficResult r = run_traffic(c, s);
    print_result(r, s, c);
    const Topology topo(c.width, c.height, c.torus);
    if (!o.json_file.empty()) {
      nlohmann::json j = result_json(r);
      j["config"] = c.to_text();
      j["pattern"] = pattern_name(s.pattern);
      j["rate"] = s.rate;
      j["rate_unit"] = o.unit;
      j["window"] = r.window.to_json(topo);
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
    return r.drained ? 0 : 0;
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
  std::printf("%10s %10s %10s %10s %8s %8s %10s %8s\n", "offered", "injected", "accepted", "latency", "min", "max",
              "net_lat", "hops");
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
    f << "rate,offered_flits,accepted_flits,latency,latency_min,latency_max,network_latency,hops,saturated\n";
    for (const auto& p : points)
      f << p["rate"].get<double>() << ',' << p["offered_flits"].get<double>() << ','
        << p["accepted_flits"].get<double>() << ',' << p["latency"]["mean"].get<double>() << ','
        << p["latency"]["min"].get<std::uint64_t>() << ',' << p["latency"]["max"].get<std::uint64_t>() << ','
        << p["network_latency"]["mean"].get<double>() << ',' << p["hops"]["mean"].get<double>() << ','
        << (p["saturated"].get<bool>() ? 1 : 0) << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tilempi-noc: synthetic traffic on the modeled 2D-mesh network-on-chip"};
  Options o;
  app.add_option("--preset", o.preset, "chip preset: default, tilepro64, optimsoc, mmachine")
      ->check(CLI::IsMember(Config::preset_names()));
  app.add_option("--config", o.config_files, "config file of key=value lines (# comments); repeatable")
      ->check(CLI::ExistingFile);
  app.add_option("--set", o.sets, "override one parameter, key=value; repeatable (e.g. --set router_delay=2)");
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
  app.add_option("--drain", o.drain, "cycles allowed to deliver measured packets (0: 4 x --cycles)");
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
  app.add_option("--heatmap", o.heatmap_file, "draw link utilization with gnuplot: FILE.png or FILE.svg");
  app.add_flag("--print-config", o.print_config, "print the effective parameters");
  CLI11_PARSE(app, argc, argv);
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
