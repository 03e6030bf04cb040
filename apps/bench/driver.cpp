// tilempi-bench: sweeps the [Yagna 2013] collective microbenchmark (tilempi-bench-mpi) over collectives,
// algorithms, rank counts and message sizes, on the sim transport (virtual time, cycles, link
// conflicts) or on host cores (wall time). Every configuration is one tilempirun job; independent
// jobs run in parallel, or as a Slurm job array (sweep.h: the sweep is a plan, resumable). Results
// go to CSV and JSON with every parameter, to a terminal table and to gnuplot figures.
#include <mpi.h>
#include <tilempi_ext.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "../cli_exit.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench.h"
#include "sweep.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace tilempi::bench {

namespace {

/// The library's registry entries of a collective (TILEMPIX_Coll_algorithms): the bench's
/// algorithm lists are read from it, never written down here.
std::vector<TILEMPIX_Coll_algorithm_info> registry_of(const std::string& coll) {
  int count = 0;
  if (TILEMPIX_Coll_algorithms(coll.c_str(), nullptr, 0, &count) != MPI_SUCCESS) return {};
  std::vector<TILEMPIX_Coll_algorithm_info> out(static_cast<std::size_t>(count));
  TILEMPIX_Coll_algorithms(coll.c_str(), out.data(), count, &count);
  return out;
}

}  // namespace

bool is_mesh_algorithm(const std::string& alg) {
  const std::string a = alg.substr(0, alg.find(':'));
  char coll[64];
  for (int i = 0; TILEMPIX_Coll_collective(i, coll, sizeof coll) == MPI_SUCCESS; ++i)
    for (const auto& info : registry_of(coll))
      if (info.mesh && a == info.name) return true;
  return false;
}

std::string baseline_algorithm(const std::string& coll) {
  for (const auto& info : registry_of(coll))
    if (info.baseline) return info.name;
  return "";
}

namespace {

constexpr int kExitUsage = 2;

// The collectives tilempi-bench-mpi measures.
const std::vector<std::string> kCollectives = {"alltoall", "barrier",   "bcast",  "reduce",
                                               "allreduce", "allgather", "gather", "scatter"};
const std::vector<std::string> kDefaultCollectives = {"alltoall", "barrier", "bcast", "reduce", "allreduce"};

// Every registered algorithm of a collective that runs on the bench's intracommunicators: the
// default sweep.
std::vector<std::string> registered_algorithms(const std::string& coll) {
  std::vector<std::string> out;
  for (const auto& info : registry_of(coll))
    if (!info.intercomm) out.push_back(info.name);
  return out;
}

// --quick: Yagna's comparison and the classic default, i.e. the default on several mesh rows
// (the mesh algorithm), the OperaMPI-like baseline and the default on one row.
std::vector<std::string> default_algorithms(const std::string& coll) {
  std::vector<std::string> out;
  const auto reg = registry_of(coll);
  auto add = [&](auto pick) {
    for (const auto& info : reg)
      if (pick(info) && std::find(out.begin(), out.end(), info.name) == out.end()) out.push_back(info.name);
  };
  add([](const TILEMPIX_Coll_algorithm_info& i) { return (i.defaults & TILEMPIX_COLL_DEFAULT_MULTI_ROW) != 0; });
  add([](const TILEMPIX_Coll_algorithm_info& i) { return i.baseline != 0; });
  add([](const TILEMPIX_Coll_algorithm_info& i) { return (i.defaults & TILEMPIX_COLL_DEFAULT_SINGLE_ROW) != 0; });
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

/// Thrown by usage_error once the message is out: main() exits with kExitUsage. An exception and
/// not exit(), so that the option and file parsers can run many times in one process (the fuzz
/// target fuzz/fuzz_bench.cpp).
struct UsageError {};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "tilempi-bench: %s (see tilempi-bench --help)\n", msg.c_str());
  throw UsageError{};
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// "4", "1K", "1KiB", "64k", "1M", "1MiB".
bool parse_size(std::string s, long& out) {
  long mult = 1;
  for (const char* suffix : {"KiB", "kiB", "KB", "kB", "K", "k"})
    if (s.size() > std::strlen(suffix) && s.ends_with(suffix)) {
      mult = 1024;
      s.resize(s.size() - std::strlen(suffix));
      break;
    }
  for (const char* suffix : {"MiB", "MB", "M", "m"})
    if (mult == 1 && s.size() > std::strlen(suffix) && s.ends_with(suffix)) {
      mult = 1024 * 1024;
      s.resize(s.size() - std::strlen(suffix));
      break;
    }
  if (mult == 1 && s.ends_with("B") && s.size() > 1) s.pop_back();
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || !end || *end != '\0' || v < 0) return false;
  // Compare before multiplying: "9999999999999999M" must be rejected, not overflow.
  if (v > (1L << 30) / mult) return false;
  out = v * mult;
  return true;
}

// "4,8,1K" or "4:1M" (every power of two from 4 to 1 MiB) or "4:1M:4" (every 4th power: x4 steps).
std::vector<long> parse_sizes(const std::string& text) {
  std::vector<long> out;
  for (const std::string& item : split(text, ',')) {
    const std::vector<std::string> r = split(item, ':');
    long a = 0, b = 0, f = 2;
    if (r.size() == 1) {
      if (!parse_size(r[0], a)) usage_error("--sizes: '" + item + "' is not a size (e.g. 8, 1K, 1M)");
      out.push_back(a);
    } else if (r.size() <= 3) {
      if (!parse_size(r[0], a) || !parse_size(r[1], b) || a <= 0 || b < a ||
          (r.size() == 3 && (!parse_size(r[2], f) || f < 2)))
        usage_error("--sizes: '" + item + "' is not a range FROM:TO[:FACTOR] (e.g. 4:1M)");
      for (long v = a; v <= b; v *= f) out.push_back(v);
    } else {
      usage_error("--sizes: '" + item + "' is not a size or a range");
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> parse_ranks(const std::string& text) {
  std::vector<int> out;
  for (const std::string& item : split(text, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || !end || *end != '\0' || v < 1 || v > 4096)
      usage_error("--ranks: '" + item + "' is not a rank count between 1 and 4096");
    out.push_back(static_cast<int>(v));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void validate_algorithm(const std::string& coll, const std::string& alg) {
  char msg[1024];
  const std::string spec = coll + "=" + alg;
  if (TILEMPIX_Coll_validate(spec.c_str(), msg, sizeof msg) != MPI_SUCCESS)
    usage_error("--alg " + spec + ": " + msg);
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}


struct Settings {
  std::string tilempirun, bench_mpi, transport = "sim", preset = "tilepro64", adapter, compute = "none";
  std::string bind;
  double timeout = 600;
  bool conflicts = true;
  std::string work_dir;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string last_lines(const std::string& text, int n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l))
    if (!l.empty() && l.find("tilempi-bench: rank=") == std::string::npos) lines.push_back(l);
  std::string out;
  for (std::size_t i = lines.size() > static_cast<std::size_t>(n) ? lines.size() - static_cast<std::size_t>(n) : 0;
       i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  return out;
}

std::vector<std::string> launcher_args(const Settings& s, const Result& r, const std::string& report) {
  std::vector<std::string> a = {s.tilempirun, "-n", std::to_string(r.ranks), "--transport", s.transport,
                                "--timeout", fmt("%.0f", s.timeout), "--coll", r.collective + "=" + r.algorithm};
  if (!s.bind.empty()) a.insert(a.end(), {"--bind", s.bind});
  if (s.transport == "sim") {
    a.insert(a.end(), {"--preset", s.preset, "--compute", s.compute});
    if (!s.adapter.empty()) a.insert(a.end(), {"--adapter", s.adapter});
    if (!report.empty()) a.insert(a.end(), {"--report", report});
  }
  // The timed collectives' separating barrier stays the library's default (Yagna used its own
  // barrier there too); only the collective under test is selected.
  a.push_back(s.bench_mpi);
  a.push_back(r.collective);
  a.push_back(std::to_string(r.bytes));
  return a;
}

// A rough relative cost, for the ETA: the bytes the network carries per call.
double cost(const Result& r) {
  const double n = r.ranks, b = static_cast<double>(r.bytes) + 64;
  const double per = r.collective == "alltoall" || r.collective == "allgather" ? n * n * b
                     : r.collective == "barrier"                              ? n * 64
                                                                              : n * b * 2;
  return (r.trials + r.warmup + 1) * (per / 4096 + n);
}

// The configuration names of a result: one tilempirun job with the trials, and on sim the
// single call that counts link conflicts.
std::string config_id(const Result& r) {
  return r.collective + "-" + r.algorithm + "-" + std::to_string(r.ranks) + "-" + std::to_string(r.bytes);
}

std::string config_label(const Settings& s, const Result& r) {
  return s.transport + " " + r.collective + "=" + r.algorithm + " n=" + std::to_string(r.ranks) + " " +
         std::to_string(r.bytes) + "B";
}

// The sweep as a plan: per result its trials job and, on sim with conflicts, its single-call job;
// each writes its log and run report into the work directory.
sweep::Plan plan_of(const Settings& s, const std::vector<Result>& results) {
  sweep::Plan p;
  p.dir = s.work_dir;
  const bool sim = s.transport == "sim";
  for (const Result& r : results) {
    sweep::Config c;
    c.id = config_id(r);
    c.label = config_label(s, r);
    const std::string report = sim ? p.dir + "/runs/" + c.id + ".json" : "";
    c.argv = launcher_args(s, r, report);
    c.argv.push_back(std::to_string(r.trials));
    c.argv.push_back(std::to_string(r.warmup));
    if (sim) c.outputs.push_back(report);
    c.cost = cost(r);
    p.configs.push_back(c);
    if (sim && s.conflicts) {
      // One call alone (no barrier, no other traffic): its link conflicts, the run report's
      // network.link_conflicts (packets whose head waited for a link another packet held).
      sweep::Config once;
      once.id = c.id + ".conflicts";
      once.label = c.label + " (conflicts)";
      const std::string once_report = p.dir + "/runs/" + once.id + ".json";
      once.argv = launcher_args(s, r, once_report);
      once.argv.push_back("0");
      once.outputs.push_back(once_report);
      once.cost = c.cost / (r.trials + r.warmup + 1);
      p.configs.push_back(once);
    }
  }
  return p;
}

// Reads a result's measurement from the logs and run reports its jobs left (`by_id`: the plan's
// configurations by id).
void merge_one(const Settings& s, const sweep::Plan& p, const std::map<std::string, const sweep::Config*>& by_id,
               Result& r) {
  const bool sim = s.transport == "sim";
  const auto find = [&](const std::string& id) -> const sweep::Config* {
    const auto it = by_id.find(id);
    return it == by_id.end() ? nullptr : it->second;
  };
  const sweep::Config* trials = find(config_id(r));
  const sweep::Config* once = find(config_id(r) + ".conflicts");
  if (!trials) {
    r.error = "not in the plan";
    return;
  }
  const sweep::Status st = sweep::status_of(p, *trials);
  r.run_seconds = st.seconds;
  const std::string out = slurp(p.log(*trials));
  const std::string report = sim ? trials->outputs.at(0) : "";
  if (st.state == sweep::State::pending) {
    r.error = "did not run";
    return;
  }
  if (st.state == sweep::State::failed) {
    r.error = "tilempirun exited with status " + std::to_string(st.exit) + ": " + last_lines(out, 3);
    return;
  }
  // Per trial, the maximum over ranks.
  std::vector<double> worst(static_cast<std::size_t>(r.trials), -1.0);
  std::vector<double> first_start(worst.size(), 1e300), last_end(worst.size(), -1e300);
  std::set<int> seen;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("tilempi-bench: rank=");
    if (at == std::string::npos) continue;
    std::istringstream f(line.substr(at + 15));
    std::string kv;
    int rank = -1;
    long first = 0;
    std::string times, starts;
    while (f >> kv) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) continue;
      const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
      if (k == "rank") rank = std::atoi(v.c_str());
      else if (k == "alg") r.selected = v;
      else if (k == "mesh") r.mesh = v;
      else if (k == "first") first = std::atol(v.c_str());
      else if (k == "t") times = v;
      else if (k == "s") starts = v;
    }
    seen.insert(rank);
    const std::vector<std::string> tv = split(times, ','), sv = split(starts, ',');
    for (std::size_t k = 0; k < tv.size(); ++k) {
      const long i = first + static_cast<long>(k);
      if (i < 0 || i >= r.trials || tv[k].empty()) continue;
      const auto u = static_cast<std::size_t>(i);
      const double d = std::atof(tv[k].c_str());
      worst[u] = std::max(worst[u], d);
      if (k < sv.size() && !sv[k].empty()) {
        const double st = std::atof(sv[k].c_str());
        first_start[u] = std::min(first_start[u], st);
        last_end[u] = std::max(last_end[u], st + d);
      }
    }
  }
  if (static_cast<int>(seen.size()) != r.ranks ||
      std::any_of(worst.begin(), worst.end(), [](double w) { return w < 0; })) {
    r.error = "incomplete output: " + std::to_string(seen.size()) + " of " + std::to_string(r.ranks) +
              " ranks reported; " + last_lines(out, 2);
    return;
  }
  double sum = 0, lo = worst[0], hi = worst[0];
  for (double w : worst) {
    sum += w * 1e6;
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  r.mean_us = sum / static_cast<double>(worst.size());
  double var = 0;
  for (double w : worst) var += (w * 1e6 - r.mean_us) * (w * 1e6 - r.mean_us);
  r.var_us2 = var / static_cast<double>(worst.size());  // population variance, as Yagna's tables
  r.min_us = lo * 1e6;
  r.max_us = hi * 1e6;
  double span = 0;
  for (std::size_t i = 0; i < worst.size(); ++i) span += (last_end[i] - first_start[i]) * 1e6;
  r.span_us = span / static_cast<double>(worst.size());
  if (sim) {
    try {
      const json j = json::parse(slurp(report));
      r.clock_hz = j.value("clock_hz", 0.0);
      r.adapter = j.value("adapter", std::string("-"));
      r.preset = j.value("preset", s.preset);
    } catch (const std::exception& e) {
      r.error = std::string("unreadable run report: ") + e.what();
      return;
    }
    if (once) {
      const sweep::Status st1 = sweep::status_of(p, *once);
      r.run_seconds += st1.seconds;
      try {
        if (st1.state != sweep::State::done)
          throw std::runtime_error(st1.state == sweep::State::pending ? std::string("did not run")
                                                                      : "status " + std::to_string(st1.exit));
        const json j = json::parse(slurp(once->outputs.at(0)));
        r.conflicts = j.at("network").at("link_conflicts").get<long long>();
        // And its energy (network, adapters and counted cores; docs/SIM.md "Run report").
        if (j.contains("energy")) r.energy_uj = 1e6 * j.at("energy").at("total_joules").get<double>();
      } catch (const std::exception& e) {
        r.error = std::string("the single-call run for the conflict count failed: ") + e.what() + " " +
                  last_lines(slurp(p.log(*once)), 2);
        return;
      }
    }
  }
  r.ok = true;
}

// ---- CSV and JSON ----

const char* kCsvHeader =
    "transport,preset,adapter,compute,ranks,mesh,collective,algorithm,selected,bytes,trials,warmup,"
    "mean_us,min_us,max_us,variance_us2,span_us,mean_cycles,min_cycles,max_cycles,clock_hz,conflicts,energy_uj,status";

std::string csv_row(const Result& r) {
  auto cyc = [&](double us) { return r.clock_hz > 0 && r.ok ? fmt("%.0f", us * r.clock_hz / 1e6) : std::string(); };
  std::string status = r.ok ? "ok" : r.error;
  for (char& c : status)
    if (c == ',' || c == '\n' || c == '"') c = ';';
  std::ostringstream o;
  o << r.transport << ',' << r.preset << ',' << r.adapter << ',' << r.compute << ',' << r.ranks << ',' << r.mesh << ','
    << r.collective << ',' << r.algorithm << ',' << r.selected << ',' << r.bytes << ',' << r.trials << ',' << r.warmup
    << ',' << (r.ok ? fmt("%.4f", r.mean_us) : "") << ',' << (r.ok ? fmt("%.4f", r.min_us) : "") << ','
    << (r.ok ? fmt("%.4f", r.max_us) : "") << ',' << (r.ok ? fmt("%.6g", r.var_us2) : "") << ',' << (r.ok ? fmt("%.4f", r.span_us) : "") << ','
    << cyc(r.mean_us)
    << ',' << cyc(r.min_us) << ',' << cyc(r.max_us) << ',' << (r.clock_hz > 0 ? fmt("%.0f", r.clock_hz) : "") << ','
    << (r.conflicts >= 0 ? std::to_string(r.conflicts) : "") << ',' << (r.energy_uj >= 0 ? fmt("%.6g", r.energy_uj) : "")
    << ',' << status;
  return o.str();
}

std::vector<Result> read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) usage_error("--from " + path + ": cannot read the file");
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> head = split(line, ',');
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < head.size(); ++i) col[head[i]] = i;
  for (const char* need : {"transport", "ranks", "collective", "algorithm", "bytes", "mean_us", "status"})
    if (!col.count(need)) usage_error("--from " + path + ": not a tilempi-bench CSV (no '" + need + "' column)");
  std::vector<Result> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split(line, ',');
    auto get = [&](const char* k) -> std::string {
      const auto it = col.find(k);
      return it != col.end() && it->second < f.size() ? f[it->second] : std::string();
    };
    auto num = [&](const char* k) { return std::atof(get(k).c_str()); };
    Result r;
    r.transport = get("transport");
    r.preset = get("preset");
    r.adapter = get("adapter");
    r.compute = get("compute");
    r.ranks = std::atoi(get("ranks").c_str());
    r.mesh = get("mesh");
    r.collective = get("collective");
    r.algorithm = get("algorithm");
    r.selected = get("selected");
    r.bytes = std::atol(get("bytes").c_str());
    r.trials = std::atoi(get("trials").c_str());
    r.warmup = std::atoi(get("warmup").c_str());
    r.ok = get("status") == "ok";
    r.error = r.ok ? "" : get("status");
    r.mean_us = num("mean_us");
    r.min_us = num("min_us");
    r.max_us = num("max_us");
    r.var_us2 = num("variance_us2");
    r.span_us = num("span_us");
    r.clock_hz = num("clock_hz");
    r.conflicts = get("conflicts").empty() ? -1 : std::atoll(get("conflicts").c_str());
    r.energy_uj = get("energy_uj").empty() ? -1 : num("energy_uj");
    out.push_back(r);
  }
  return out;
}

json to_json(const std::vector<Result>& results, const json& params) {
  json arr = json::array();
  for (const Result& r : results) {
    json j = {{"transport", r.transport}, {"preset", r.preset},         {"adapter", r.adapter},
              {"compute", r.compute},     {"ranks", r.ranks},           {"mesh", r.mesh},
              {"collective", r.collective}, {"algorithm", r.algorithm}, {"selected", r.selected},
              {"bytes", r.bytes},         {"trials", r.trials},         {"warmup", r.warmup},
              {"ok", r.ok}};
    if (r.ok) {
      j["mean_us"] = r.mean_us;
      j["min_us"] = r.min_us;
      j["max_us"] = r.max_us;
      j["variance_us2"] = r.var_us2;
      j["span_us"] = r.span_us;
      if (r.clock_hz > 0) {
        j["clock_hz"] = r.clock_hz;
        j["mean_cycles"] = std::llround(r.mean_us * r.clock_hz / 1e6);
        j["min_cycles"] = std::llround(r.min_us * r.clock_hz / 1e6);
        j["max_cycles"] = std::llround(r.max_us * r.clock_hz / 1e6);
      }
      if (r.conflicts >= 0) j["conflicts"] = r.conflicts;
      if (r.energy_uj >= 0) j["energy_uj"] = r.energy_uj;
      j["run_seconds"] = r.run_seconds;
    } else {
      j["error"] = r.error;
    }
    arr.push_back(j);
  }
  return {{"tool", "tilempi-bench"}, {"parameters", params}, {"results", arr}};
}

std::string self_dir() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

}  // namespace
}  // namespace tilempi::bench

int bench_main(int argc, char** argv) {
  using namespace tilempi::bench;
  namespace sweep = tilempi::sweep;
  CLI::App app{
      "tilempi-bench: the [Yagna 2013] collective microbenchmark (barrier, timer, one collective, timer; over trials) "
      "swept over collectives, algorithms, rank counts and message sizes, on the modeled chip (sim: virtual "
      "microseconds, cycles, link conflicts) or on host cores (wall microseconds). Every configuration is one "
      "tilempirun job; independent ones run in parallel, or as one Slurm job array (--slurm). With --work-dir the "
      "sweep resumes: the same command runs only the configurations without a result there.\n\n"
      "Examples:\n"
      "  tilempi-bench --quick --plot demo.png\n"
      "  tilempi-bench -c alltoall,bcast --ranks 16,49 --sizes 8,1K,64K --csv out.csv\n"
      "  tilempi-bench -a alltoall=mesh_rounds,linear -a barrier=ktree:3,ktree:4 --transport host\n"
      "  tilempi-bench --from out.csv --figures docs/figures --prefix sim\n"
      "  tilempi-bench -c alltoall --work-dir /shared/a2a --csv a2a.csv --slurm --partition short --time 30:00\n",
      "tilempi-bench"};
  app.set_version_flag("--version", "tilempi-bench (tilempi) " TILEMPI_VERSION_STRING);
  app.get_formatter()->column_width(34);
  Settings s;
  std::string collectives, ranks_text = "4,9,16,25,36,49", sizes_text = "4:1M", csv, json_path, plot, figures,
                           prefix, from, table;
  std::vector<std::string> algs;
  int trials = -1, warmup = 1, jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool quick = false, quiet = false, no_conflicts = false, list = false, plan_only = false;
  sweep::Options sopt;
  std::string metric = "max";
  app.add_option("-c,--collectives", collectives,
                 "comma-separated collectives (default alltoall,barrier,bcast,reduce,allreduce; also allgather, "
                 "gather, scatter)")
      ->type_name("LIST");
  app.add_option("-a,--alg", algs,
                 "COLL=ALG[,ALG...]: the algorithms of one collective (repeatable); ALG 'all' = every registered "
                 "one. Default: every algorithm the library registers for the collective (--list)")
      ->type_name("SPEC");
  app.add_option("-n,--ranks", ranks_text, "comma-separated rank counts")->capture_default_str()->type_name("LIST");
  app.add_option("-s,--sizes", sizes_text,
                 "message sizes in bytes: list (8,1K,1M) and/or ranges FROM:TO[:FACTOR] (powers of FACTOR, default 2); "
                 "barrier runs once per rank count")
      ->capture_default_str()
      ->type_name("LIST");
  app.add_option("-t,--trials", trials, "timed trials per configuration (default: 5 on sim, which is deterministic "
                                        "with --compute none; 50 on host)")
      ->check(CLI::Range(1, 100000));
  app.add_option("-w,--warmup", warmup, "untimed calls before the trials")->capture_default_str()->check(CLI::Range(0, 100000));
  app.add_option("--transport", s.transport, "sim: the modeled chip; host: real cores")
      ->check(CLI::IsMember({"sim", "host"}))
      ->capture_default_str();
  app.add_option("--preset", s.preset, "sim: chip preset")->capture_default_str();
  app.add_option("--adapter", s.adapter, "sim: network adapter model (default: tilempirun's, sim.adapter)");
  // A declared per-tool default (the declaration of sim.compute says it): the bench times
  // communication only, where tilempirun charges the application's work by default (model).
  app.add_option("--compute", s.compute,
                 "sim: compute time charging, none, model or scale:F (this tool's default none: it times "
                 "communication only; tilempirun's default, sim.compute, is model)")
      ->capture_default_str();
  app.add_option("--bind", s.bind, "host: core|none (tilempirun's default when not given)")
      ->check(CLI::IsMember({"core", "none"}));
  app.add_flag("--no-conflicts", no_conflicts, "sim: skip the extra single-call run that counts link conflicts");
  app.add_option("-j,--jobs", jobs, "configurations run in parallel (default: the number of cores)")->check(CLI::Range(1, 1024));
  app.add_option("--timeout", s.timeout, "seconds one tilempirun job may take")->capture_default_str()->check(CLI::Range(1.0, 1e6));
  app.add_option("--csv", csv, "write the results as CSV")->type_name("FILE");
  app.add_option("--json", json_path, "write the results and parameters as JSON")->type_name("FILE");
  app.add_option("--table", table, "write the comparison table as markdown")->type_name("FILE");
  app.add_option("--plot", plot, "write one overview plot (PNG): a panel per collective, time against ranks")
      ->type_name("FILE.png");
  app.add_option("--figures", figures, "write every figure (PNG and SVG) and the variance and comparison tables here")
      ->type_name("DIR");
  app.add_option("--prefix", prefix, "file name prefix for --figures (default: the transport)");
  app.add_option("--from", from, "do not run: read an earlier --csv and only write tables and plots")->type_name("FILE.csv");
  app.add_option("--metric", metric,
                 "what tables and plots show: max = per trial the slowest rank's own time ([Yagna 2013] §4.1), "
                 "span = first rank's start to last rank's end (CSV and JSON always have both), energy = sim: "
                 "the energy of one call alone in uJ (the single-call run's report; CSV column energy_uj)")
      ->check(CLI::IsMember({"max", "span", "energy"}))
      ->capture_default_str();
  app.add_flag("--quick", quick,
               "seconds-long comparison: 16 and 49 ranks, 8 B and 1 KiB, alltoall/barrier/bcast/reduce, mesh vs "
               "classic (the library's defaults on several mesh rows and on one row), sim; prints a table");
  app.add_flag("-q,--quiet", quiet, "no progress lines");
  app.add_flag("--list", list,
               "list per collective the algorithms the library registers (the default sweep) and its defaults "
               "(--quick), then exit");
  app.add_option("--tilempirun", s.tilempirun, "the launcher (default: next to this program)")->type_name("PATH");
  app.add_option("--bench-mpi", s.bench_mpi, "the MPI benchmark program (default: next to this program)")->type_name("PATH");
  app.add_option("--work-dir", s.work_dir,
                 "keep the sweep's plan (plan.json), the jobs' logs and run reports here (default: a temporary "
                 "directory); the same command again runs only what has no result there yet")
      ->type_name("DIR");
  app.add_flag("--plan-only", plan_only, "write the plan into --work-dir and exit (to run it with tilempi-sweep)");
  sweep::add_options(app, sopt);
  if (int status = tilempi::apps::parse_command_line(app, argc, argv); status >= 0) return status;

  set_metric(metric == "span" ? Metric::span : metric == "energy" ? Metric::energy : Metric::max);
  if (list) {
    // From the library's registry: what the default sweep and --quick run per collective.
    for (const std::string& c : kCollectives)
      std::printf("%s: %s (quick: %s)\n", c.c_str(), join(registered_algorithms(c), " ").c_str(),
                  join(default_algorithms(c), " ").c_str());
    return 0;
  }
  if (s.tilempirun.empty()) s.tilempirun = self_dir() + "/tilempirun";
  if (s.bench_mpi.empty()) s.bench_mpi = self_dir() + "/tilempi-bench-mpi";
  s.conflicts = !no_conflicts;

  std::vector<Result> results;
  json params;
  if (!from.empty()) {
    results = read_csv(from);
    if (results.empty()) usage_error("--from " + from + ": no results in the file");
    if (prefix.empty()) prefix = results[0].transport;
    params = {{"from", fs::path(from).filename().string()}};
  } else {
    if (quick) {
      if (collectives.empty() && algs.empty()) collectives = "alltoall,barrier,bcast,reduce";
      if (!app.count("--ranks")) ranks_text = "16,49";
      if (!app.count("--sizes")) sizes_text = "8,1K";
      if (trials < 0) trials = s.transport == "sim" ? 2 : 20;
    }
    if (trials < 0) trials = s.transport == "sim" ? 5 : 50;
    for (const std::string& p : {s.tilempirun, s.bench_mpi})
      if (access(p.c_str(), X_OK) != 0) usage_error("cannot run " + p + " (build it, or give --tilempirun/--bench-mpi)");
    // Collectives and their algorithms.
    std::vector<std::string> colls;
    std::map<std::string, std::vector<std::string>> chosen;
    for (const std::string& spec : algs) {
      const auto eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        usage_error("--alg " + spec + ": expected COLL=ALG[,ALG...]");
      const std::string c = spec.substr(0, eq);
      if (std::find(kCollectives.begin(), kCollectives.end(), c) == kCollectives.end())
        usage_error("--alg " + spec + ": unknown collective '" + c + "' (alltoall barrier bcast reduce allreduce "
                    "allgather gather scatter)");
      for (const std::string& a : split(spec.substr(eq + 1), ',')) {
        if (a == "all") {
          for (const std::string& x : registered_algorithms(c)) chosen[c].push_back(x);
          continue;
        }
        validate_algorithm(c, a);
        chosen[c].push_back(a);
      }
      if (std::find(colls.begin(), colls.end(), c) == colls.end()) colls.push_back(c);
    }
    if (!collectives.empty() || colls.empty()) {
      for (const std::string& c : collectives.empty() ? kDefaultCollectives : split(collectives, ',')) {
        if (std::find(kCollectives.begin(), kCollectives.end(), c) == kCollectives.end())
          usage_error("--collectives: unknown collective '" + c + "' (alltoall barrier bcast reduce allreduce "
                      "allgather gather scatter)");
        if (std::find(colls.begin(), colls.end(), c) == colls.end()) colls.push_back(c);
      }
    }
    for (const std::string& c : colls)
      if (!chosen.count(c)) chosen[c] = quick ? default_algorithms(c) : registered_algorithms(c);
    const std::vector<int> ranks = parse_ranks(ranks_text);
    const std::vector<long> sizes = parse_sizes(sizes_text);
    for (const std::string& c : colls)
      for (const std::string& a : chosen[c])
        for (int n : ranks)
          for (long b : c == "barrier" ? std::vector<long>{0} : sizes) {
            Result r;
            r.transport = s.transport;
            r.preset = s.transport == "sim" ? s.preset : "-";
            r.adapter = s.transport == "sim" ? (s.adapter.empty() ? "-" : s.adapter) : "-";
            r.compute = s.transport == "sim" ? s.compute : "-";
            r.ranks = n;
            r.collective = c;
            r.algorithm = a;
            r.bytes = b;
            r.trials = trials;
            r.warmup = warmup;
            results.push_back(r);
          }
    params = {{"transport", s.transport}, {"preset", s.preset},     {"adapter", s.adapter.empty() ? "default" : s.adapter},
              {"compute", s.compute},     {"ranks", ranks},         {"sizes", sizes},
              {"trials", trials},         {"warmup", warmup},       {"jobs", jobs},
              {"collectives", colls},     {"algorithms", chosen},   {"conflicts", s.conflicts},
              {"statistic", "per trial the maximum over ranks; mean, min, max and population variance over trials"}};
    if (prefix.empty()) prefix = s.transport;
    // Work directory: the plan, the jobs' logs and run reports. Given, it is kept, and a second
    // run of the same command takes the results that are there (resumes an interrupted sweep).
    bool temp = false;
    if (s.work_dir.empty()) {
      if (sopt.slurm || plan_only) usage_error(std::string(sopt.slurm ? "--slurm" : "--plan-only") +
                                               " needs --work-dir (on a file system the nodes share)");
      char tmpl[] = "/tmp/tilempi-bench.XXXXXX";
      if (!mkdtemp(tmpl)) usage_error("cannot create a temporary directory");
      s.work_dir = tmpl;
      temp = true;
    } else {
      s.work_dir = fs::absolute(s.work_dir).lexically_normal().string();
    }
    const sweep::Plan plan = plan_of(s, results);
    if (plan_only) {
      sweep::write_plan(plan);
      if (!quiet) std::fprintf(stderr, "tilempi-bench: wrote %s (%zu configurations)\n", plan.file().c_str(), plan.configs.size());
      return 0;
    }
    sopt.jobs = jobs;
    sopt.progress = !quiet;
    sopt.tool = "tilempi-bench";
    if (temp) sopt.resume_hint = "nothing is kept without --work-dir (give one to resume a sweep)";
    // What the merge job after a --no-wait array runs: this command, which then finds every
    // result there and only merges them.
    sweep::Config self;
    self.argv.push_back(self_dir() + "/tilempi-bench");
    for (int i = 1; i < argc; ++i) self.argv.push_back(argv[i]);
    sopt.merge_command = sweep::shell_line(self);
    const sweep::Outcome outcome = sweep::run({plan}, sopt);
    if (outcome.interrupted || outcome.submitted || outcome.pending) {
      if (temp) fs::remove_all(s.work_dir);
      if (outcome.submitted) return 0;
      if (outcome.pending && !outcome.interrupted)
        std::fprintf(stderr, "tilempi-bench: %zu configurations have no result: nothing written\n", outcome.pending);
      return outcome.interrupted ? 130 : 1;
    }
    std::map<std::string, const sweep::Config*> by_id;
    for (const sweep::Config& c : plan.configs) by_id[c.id] = &c;
    for (Result& r : results) {
      merge_one(s, plan, by_id, r);
      if (!r.ok)
        std::fprintf(stderr, "tilempi-bench: %s failed: %s\n", config_label(s, r).c_str(), r.error.c_str());
    }
    std::stable_sort(results.begin(), results.end(), [](const Result& a, const Result& b) {
      return std::tie(a.collective, a.algorithm, a.ranks, a.bytes) < std::tie(b.collective, b.algorithm, b.ranks, b.bytes);
    });
    if (temp) fs::remove_all(s.work_dir);
    // A requested algorithm that could not run (a restriction, e.g. mesh_rounds above 256 ranks)
    // is measured as its fallback: say so, the CSV's `selected` column has it per row.
    if (!quiet)
      for (const Result& r : results)
        if (r.ok && !r.selected.empty() && r.selected != "-" &&
            r.selected.substr(0, r.selected.find(':')) != r.algorithm.substr(0, r.algorithm.find(':')))
          std::fprintf(stderr, "tilempi-bench: note: %s=%s ran %s at %d ranks, %ld B\n", r.collective.c_str(),
                       r.algorithm.c_str(), r.selected.c_str(), r.ranks, r.bytes);
  }

  int status = 0;
  for (const Result& r : results)
    if (!r.ok) status = 1;
  if (!csv.empty()) {
    std::ofstream o(csv);
    if (!o) usage_error("--csv " + csv + ": cannot write the file");
    o << kCsvHeader << '\n';
    for (const Result& r : results) o << csv_row(r) << '\n';
  }
  if (!json_path.empty()) {
    std::ofstream o(json_path);
    if (!o) usage_error("--json " + json_path + ": cannot write the file");
    o << to_json(results, params).dump(2) << '\n';
  }
  if (!table.empty()) {
    std::ofstream o(table);
    if (!o) usage_error("--table " + table + ": cannot write the file");
    o << comparison_table(results, true);
  }
  if (quick || (csv.empty() && json_path.empty() && figures.empty() && plot.empty() && table.empty()))
    std::fputs(comparison_table(results, false).c_str(), stdout);
  std::string gnuplot = "gnuplot";
#ifdef TILEMPI_GNUPLOT
  gnuplot = TILEMPI_GNUPLOT;
#endif
  // The adapters of the results, in order of appearance: a figure of several says so in its title.
  std::string adapters;
  int n_adapters = 0;
  for (const Result& r : results)
    if ((", " + adapters + ",").find(", " + r.adapter + ",") == std::string::npos) {
      adapters += (adapters.empty() ? "" : ", ") + r.adapter;
      ++n_adapters;
    }
  const std::string title = results.empty() ? "" :
      results[0].transport == "sim" ? "sim, " + results[0].preset + " preset, " + adapters + (n_adapters > 1 ? " adapters" : " adapter")
                                    : "host cores, wall time";
  if (!plot.empty()) {
    if (!write_overview(results, plot, gnuplot, title)) {
      std::fprintf(stderr, "tilempi-bench: --plot %s: gnuplot failed\n", plot.c_str());
      status = 1;
    } else if (!quiet) {
      std::fprintf(stderr, "tilempi-bench: wrote %s\n", plot.c_str());
    }
  }
  if (!figures.empty()) {
    PlotOptions po;
    po.gnuplot = gnuplot;
    po.dir = figures;
    po.prefix = prefix;
    po.title = title;
    const std::vector<std::string> files = write_figures(results, po);
    if (!quiet) std::fprintf(stderr, "tilempi-bench: wrote %zu files to %s\n", files.size(), figures.c_str());
  }
  return status;
}

int main(int argc, char** argv) {
  try {
    return bench_main(argc, argv);
  } catch (const tilempi::bench::UsageError&) {
    return tilempi::bench::kExitUsage;
  }
}
