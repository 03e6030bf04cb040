// The run report (JSON), the trace (Chrome trace JSON, opens in Perfetto) and the summary line.
// Everything in the report is virtual-time data, so two runs with --compute none give the same
// file byte for byte; wall-clock figures appear only in the printed summary.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>

#include <sys/resource.h>

#include "sim/sim_engine.h"
#include "tilempi/hwmodel/core_model.h"
#include "tilempi/hwmodel/energy.h"
#include "tilempi/transport/transport_settings.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;
using nlohmann::json;

namespace {

std::string link_name(const hw::Topology& topo, int index) {
  const hw::Link l = hw::Topology::link_at(index);
  const hw::Coord c = topo.coord(l.tile);
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")" + hw::dir_name(l.dir);
}

// Notes "energy_ops_from=int" ... are the counted operations a rank's core energy is charged for,
// "energy_kind=N NAME" the names of its kinds of call (rank_clock.cpp), not choices of the layers
// above.
bool energy_note(const std::string& key) { return key.rfind("energy_", 0) == 0; }

// Rank ri's names of its kinds of call, by number (energy_account.h).
std::vector<std::string> kind_names(const RankInfo& ri) {
  std::vector<std::string> names;
  static const std::string kPrefix = "energy_kind=";
  for (auto it = ri.notes.lower_bound(kPrefix); it != ri.notes.end() && it->first.rfind(kPrefix, 0) == 0; ++it) {
    const std::string& t = it->first;
    const std::size_t space = t.find(' ', kPrefix.size());
    if (space == std::string::npos) continue;
    const unsigned long id = std::strtoul(t.c_str() + kPrefix.size(), nullptr, 10);
    if (id >= kCallKinds) continue;
    if (names.size() <= id) names.resize(id + 1);
    names[id] = t.substr(space + 1);
  }
  return names;
}

// The operations rank `ri` counted between MPI_Init and its end: {integer, floating point}.
std::pair<double, double> counted_ops(const RankInfo& ri) {
  auto note = [&](const char* k) {
    const auto it = ri.notes.find(k);
    return it == ri.notes.end() ? 0.0 : static_cast<double>(it->second);
  };
  return {std::max(0.0, note("energy_ops_to=int") - note("energy_ops_from=int")),
          std::max(0.0, note("energy_ops_to=fp") - note("energy_ops_from=fp"))};
}


}  // namespace

hw::Stats SimEngine::energy_stats() const {
  // Leakage and clocks run for the whole job: to the latest rank's end, even where the chip had
  // nothing left to simulate (a job on the static network alone never advances it).
  hw::Stats st = chip_->stats();
  std::uint64_t total = 0;
  for (const RankInfo& ri : ranks_) total = std::max(total, ri.end);
  st.end_cycle = std::max(st.end_cycle, st.start_cycle + total);
  return st;
}

JobEnergy SimEngine::job_energy() const {
  JobEnergy e;
  e.network = hw::network_energy(config_, energy_stats());
  for (int r = 0; r < n_; ++r) {
    const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    e.adapters += hw::adapter_energy(config_.energy, ri.sends + ri.recvs, energy_.words(r));
    if (!ri.totals.counted) continue;
    const auto [int_ops, fp_ops] = counted_ops(ri);
    e.cores += hw::core_energy(config_.energy, int_ops, fp_ops);
    ++e.cores_counted;
  }
  return e;
}

void SimEngine::write_report() {
  const hw::Stats st = chip_->stats();
  const hw::Topology& topo = chip_->topology();
  std::uint64_t total = 0;
  for (const RankInfo& ri : ranks_) total = std::max(total, ri.end);
  json j;
  j["preset"] = config_.preset;
  j["adapter"] = adapter_name_;
  j["compute"] = compute_text();
  j["clock_hz"] = config_.clock_hz;
  j["chip"] = {{"width", config_.width}, {"height", config_.height}};
  j["ranks"] = n_;
  j["total_cycles"] = total;
  j["total_seconds"] = static_cast<double>(total) / config_.clock_hz;
  json ranks = json::array();
  // What the layers above chose (Transport::annotate), e.g. the collective algorithms that ran:
  // {"alltoall": {"mesh_rounds": calls summed over the ranks}}, and per rank below.
  json chosen = json::object();
  for (int r = 0; r < n_; ++r) {
    const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    const hw::Coord c = topo.coord(tiles_[static_cast<std::size_t>(r)]);
    json mine = json::object();
    for (const auto& [kv, count] : ri.notes) {
      if (energy_note(kv)) continue;
      const std::size_t eq = kv.find('=');
      const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
      mine[key][value] = count;
      json& total = chosen[key][value];
      total = (total.is_number() ? total.get<std::uint64_t>() : 0) + count;
    }
    ranks.push_back({{"rank", r},
                     {"chosen", mine},
                     {"tile", tiles_[static_cast<std::size_t>(r)]},
                     {"x", c.x},
                     {"y", c.y},
                     {"end_cycles", ri.end},
                     {"comm_cycles", ri.totals.comm},
                     {"compute_cycles", ri.totals.compute},
                     {"blocked_cycles", ri.totals.waited},
                     {"handler_cycles", ri.handler_cycles},
                     {"sends", ri.sends},
                     {"bytes_sent", ri.bytes_sent},
                     {"receives", ri.recvs},
                     {"energy", rank_energy(r)}});
  }
  j["rank_stats"] = ranks;
  j["chosen"] = chosen;
  const double cycles = static_cast<double>(std::max<std::uint64_t>(1, st.cycles()));
  const hw::EnergyCosts& ek = energy_.costs();
  json links = json::array();
  std::uint64_t blocked_total = 0;
  for (std::size_t net = 0; net < st.networks.size(); ++net) {
    const hw::NetworkStats& ns = st.networks[net];
    for (std::size_t i = 0; i < ns.links.size(); ++i) {
      const hw::LinkStats& ls = ns.links[i];
      blocked_total += ls.blocked_cycles;
      if (ls.flits == 0 && ls.blocked_cycles == 0) continue;
      links.push_back({{"network", net},
                       {"link", link_name(topo, static_cast<int>(i))},
                       {"index", i},
                       {"flits", ls.flits},
                       {"busy_cycles", ls.busy_cycles},
                       {"blocked_cycles", ls.blocked_cycles},
                       {"utilization", static_cast<double>(ls.busy_cycles) / cycles},
                       // The channel's own energy: its flits over the wire and through its
                       // retiming flip-flops, its clock and leakage over the run.
                       {"energy_joules", static_cast<double>(ls.flits) * (ek.wire_per_flit + ek.retiming_per_flit) +
                                             static_cast<double>(st.cycles()) *
                                                 (ek.channel_clock_per_cycle + ek.channel_leakage_per_cycle)}});
    }
  }
  j["links"] = links;
  json slinks = json::array();
  for (std::size_t i = 0; i < st.static_links.size(); ++i) {
    const hw::LinkStats& ls = st.static_links[i];
    if (ls.flits == 0) continue;
    slinks.push_back({{"link", link_name(topo, static_cast<int>(i))}, {"index", i}, {"words", ls.flits}});
  }
  j["static_links"] = slinks;
  std::uint64_t delivered = 0;
  for (const hw::NetworkStats& ns : st.networks) delivered += ns.packets_delivered;
  j["network"] = {{"messages", messages_},
                  {"packets", packets_},
                  {"packets_delivered", delivered},
                  {"link_conflicts", conflicts_},
                  {"link_conflict_cycles", conflict_cycles_},
                  {"delayed_packets", delayed_},
                  {"delay_cycles", delay_cycles_},
                  {"link_blocked_cycles", blocked_total},
                  {"static_broadcasts", statics_.count()},
                  {"one_sided_operations", remotes_.count()},
                  {"one_sided_bytes", remotes_.bytes()},
                  {"message_latency", p2p_.latency().to_json()},
                  {"packet_latency", st.networks.empty() ? json() : st.networks[0].latency.to_json()}};
  {
    const JobEnergy e = job_energy();
    json je = json::object();
    je["network"] = e.network.to_json();
    je["network_packets_joules"] = energy_.dynamic_joules();
    je["adapters_joules"] = e.adapters;
    je["cores_joules"] = e.cores;
    je["cores_counted"] = e.cores_counted;
    je["total_joules"] = e.total();
    // Per kind of MPI call (energy_account.h): each rank's numbers named by its own notes and
    // summed by name; what no call caused is `unattributed`, so that the two add up to the total.
    std::map<std::string, KindEnergy> sums;
    for (int r = 0; r < n_; ++r) {
      const std::vector<std::string> names = kind_names(ranks_[static_cast<std::size_t>(r)]);
      const std::vector<KindEnergy>& kinds = energy_.by_kind(r);
      for (std::size_t id = 0; id < kinds.size(); ++id) {
        const KindEnergy& k = kinds[id];
        if (k.packets == 0 && k.message_ends == 0 && k.network_joules == 0) continue;
        KindEnergy& s = sums[id < names.size() && !names[id].empty() ? names[id] : std::string("(unnamed)")];
        s.network_joules += k.network_joules;
        s.message_ends += k.message_ends;
        s.words += k.words;
        s.packets += k.packets;
      }
    }
    json by_kind = json::object();
    double network_attributed = 0, adapters_attributed = 0;
    for (const auto& [name, k] : sums) {
      const double adapter = hw::adapter_energy(config_.energy, k.message_ends, k.words);
      network_attributed += k.network_joules;
      adapters_attributed += adapter;
      by_kind[name] = {{"joules", k.network_joules + adapter},
                       {"network_joules", k.network_joules},
                       {"adapter_joules", adapter},
                       {"packets", k.packets},
                       {"message_ends", k.message_ends},
                       {"adapter_words", k.words}};
    }
    je["by_call_kind"] = by_kind;
    const double dynamic_left = e.network.dynamic() - network_attributed;
    const double adapters_left = e.adapters - adapters_attributed;
    je["unattributed"] = {{"joules", e.network.leakage_and_clock() + dynamic_left + adapters_left + e.cores},
                          {"network_leakage_and_clock_joules", e.network.leakage_and_clock()},
                          {"network_dynamic_joules", dynamic_left},
                          {"adapter_joules", adapters_left},
                          {"cores_joules", e.cores}};
    je["total_watts"] = e.network.seconds > 0 ? e.total() / e.network.seconds : 0.0;
    je["limits"] = hw::energy_limits(config_);
    j["energy"] = je;
  }
  j["adapter_stats"] = adapter_->stats();
  // Task migrations ([Wallentowitz 2018] §3.6): when each was asked for, when the task stopped on
  // its old tile and when it ran on the new one.
  json moves = json::array();
  for (const auto& [id, mv] : migrations_.moves())
    moves.push_back({{"rank", mv.rank},
                     {"from_tile", mv.from},
                     {"to_tile", mv.to},
                     {"method", adapter_->migration_method()},
                     {"requested", mv.requested},
                     {"stop", mv.stop},
                     {"resume", mv.resume}});
  j["migrations"] = moves;
  json params = json::object();
  for (const auto& p : adapter_->params()) {
    if (!p.choices.empty()) params[p.name] = p.choices[p.value];
    else if (p.is_text) params[p.name] = p.text;
    else params[p.name] = p.value;
  }
  j["adapter_params"] = params;
  std::ofstream out(opt_.report_path);
  if (!out) throw std::runtime_error("cannot write the report to " + opt_.report_path);
  out << j.dump(2) << '\n';
}

void SimEngine::write_trace() {
  // Chrome trace JSON: ts/dur in microseconds of virtual time.
  const double us = 1e6 / config_.clock_hz;
  std::ofstream out(opt_.trace_path);
  if (!out) throw std::runtime_error("cannot write the trace to " + opt_.trace_path);
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const std::string& s) {
    out << (first ? "" : ",\n") << s;
    first = false;
  };
  emit(R"({"name":"process_name","ph":"M","pid":0,"args":{"name":"ranks"}})");
  emit(R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"links"}})");
  for (int r = 0; r < n_; ++r)
    emit("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" + std::to_string(r) +
         ",\"args\":{\"name\":\"rank " + std::to_string(r) + "\"}}");
  char buf[256];
  for (const Span& s : spans_) {
    std::snprintf(buf, sizeof buf, "{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f}",
                  s.name, s.rank, static_cast<double>(s.begin) * us,
                  static_cast<double>(s.end > s.begin ? s.end - s.begin : 0) * us);
    emit(buf);
  }
  const hw::Topology& topo = chip_->topology();
  std::vector<int> named;
  for (const LinkSpan& l : link_spans_) {
    if (std::find(named.begin(), named.end(), l.link) == named.end()) {
      named.push_back(l.link);
      const int net = l.link / 1000000;
      emit("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(l.link) +
           ",\"args\":{\"name\":\"net" + std::to_string(net) + " " + link_name(topo, l.link % 1000000) + "\"}}");
    }
    std::snprintf(buf, sizeof buf, "{\"name\":\"busy\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f}",
                  l.link, static_cast<double>(l.begin) * us, static_cast<double>(l.end - l.begin) * us);
    emit(buf);
  }
  // Energy counter track: the network's energy so far, in uJ: its leakage and clock at their
  // average rate plus the dynamic energy of the packets delivered by then (at most ~4 000 points).
  {
    const hw::Stats st = energy_stats();
    const hw::EnergyBreakdown net = hw::network_energy(config_, st);
    const double static_per_cycle =
        st.cycles() ? net.leakage_and_clock() / static_cast<double>(st.cycles()) : 0.0;
    emit(R"({"name":"process_name","ph":"M","pid":2,"args":{"name":"energy"}})");
    const std::vector<EnergyAccount::Sample>& samples = energy_.samples();
    const std::size_t step = samples.size() / 4000 + 1;
    auto counter = [&](std::uint64_t cycle, double dynamic) {
      const double uj = 1e6 * (dynamic + static_per_cycle * static_cast<double>(cycle - st.start_cycle));
      std::snprintf(buf, sizeof buf, "{\"name\":\"network energy\",\"ph\":\"C\",\"pid\":2,\"ts\":%.4f,\"args\":{\"uJ\":%.6g}}",
                    static_cast<double>(cycle) * us, uj);
      emit(buf);
    };
    counter(st.start_cycle, 0.0);
    for (std::size_t i = step - 1; i < samples.size(); i += step) counter(samples[i].cycle, samples[i].joules);
    counter(st.end_cycle, energy_.dynamic_joules());
  }
  out << "\n]}\n";
}

json SimEngine::rank_energy(int r) const {
  const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  json e = {{"network_joules", energy_.network_joules(r)},
            {"adapter_joules", hw::adapter_energy(config_.energy, ri.sends + ri.recvs, energy_.words(r))},
            {"adapter_words", energy_.words(r)}};
  if (ri.totals.counted) {
    const auto [int_ops, fp_ops] = counted_ops(ri);
    e["core_joules"] = hw::core_energy(config_.energy, int_ops, fp_ops);
    e["int_ops"] = int_ops;
    e["fp_ops"] = fp_ops;
  } else {
    e["core_joules"] = nullptr;  // its compute was not counted: no operations to charge
  }
  return e;
}

std::string SimEngine::compute_text() const {
  // Ranks say how they were charged when they finish; a job that ended early counts those.
  int counted = 0, finished = 0;
  for (const RankInfo& ri : ranks_) {
    counted += ri.totals.counted ? 1 : 0;
    finished += ri.said_goodbye ? 1 : 0;
  }
  if (counted == 0) return opt_.compute;
  std::string s = hw::describe(hw::op_costs(config_));
  if (counted < finished) {
    std::string timed = opt_.compute;
    if (timed.rfind("model: ", 0) == 0) timed = "timed: " + timed.substr(7);
    s += " on " + std::to_string(counted) + " of " + std::to_string(finished) + " ranks, the others " + timed;
  }
  return s;
}

// The most memory the process has held (its peak resident set): the whole job's when the ranks
// are contexts in it. A wall-clock kind of figure (it depends on the host's allocator and
// pages), so it is in the printed summary only, not in the report.
std::string SimEngine::peak_memory_text() {
  struct rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  const double bytes = static_cast<double>(ru.ru_maxrss) * 1024.0;  // (Linux counts KiB)
  char buf[32];
  if (bytes >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / (1024.0 * 1024));
  return buf;
}

void SimEngine::print_summary() {
  std::uint64_t total = 0, comm = 0, compute = 0;
  for (const RankInfo& ri : ranks_) {
    total = std::max(total, ri.end);
    comm += ri.totals.comm;
    compute += ri.totals.compute;
  }
  const hw::Stats st = chip_->stats();
  const double cycles = static_cast<double>(std::max<std::uint64_t>(1, st.cycles()));
  double best = 0;
  int best_link = -1;
  for (const hw::NetworkStats& ns : st.networks)
    for (std::size_t i = 0; i < ns.links.size(); ++i) {
      const double u = static_cast<double>(ns.links[i].busy_cycles) / cycles;
      if (u > best) {
        best = u;
        best_link = static_cast<int>(i);
      }
    }
  const double sum = static_cast<double>(std::max<std::uint64_t>(1, comm + compute));
  const JobEnergy energy = job_energy();
  std::string busiest = best_link >= 0 ? link_name(chip_->topology(), best_link) : std::string("-");
  if (tilempi::settings::env_boolean(tilempi::transport::settings::sim_profile_env()).value_or(false)) {
    std::fprintf(stderr,
                 "tilempirun: sim: engine passes %llu (slept %llu times), blocks %llu, wakes %llu; ranks waited "
                 "for the horizon %llu times, slept %llu times\n",
                 static_cast<unsigned long long>(passes_), static_cast<unsigned long long>(engine_sleeps_),
                 static_cast<unsigned long long>(blocks_total_),
                 static_cast<unsigned long long>(wakes_total_), static_cast<unsigned long long>(rank_horizon_waits_),
                 static_cast<unsigned long long>(rank_horizon_sleeps_));
    // What a large job holds at once: its memory grows with these, not with the messages sent.
    std::fprintf(stderr, "tilempirun: sim: at most %zu messages in flight, %zu requests waiting for their cycle\n",
                 p2p_.peak_in_flight(), queue_.peak());
  }
  std::fprintf(stderr,
               "tilempirun: sim: %d ranks on %s %dx%d, adapter %s: %llu cycles = %.3f us virtual; "
               "comm %.0f%% / compute %.0f%% of rank time (compute %s); %llu messages, %llu packets, %llu link "
               "conflicts (%llu packets delayed); busiest link %s %.1f%%; energy %.4g uJ (network %.0f%%); wall %.2f "
               "s (chip model %.2f s), peak memory %s%s%s\n",
               n_, config_.preset.c_str(), config_.width, config_.height, adapter_name_.c_str(),
               static_cast<unsigned long long>(total), static_cast<double>(total) / config_.clock_hz * 1e6,
               100.0 * static_cast<double>(comm) / sum, 100.0 * static_cast<double>(compute) / sum,
               compute_text().c_str(),
               static_cast<unsigned long long>(messages_), static_cast<unsigned long long>(packets_),
               static_cast<unsigned long long>(conflicts_), static_cast<unsigned long long>(delayed_), busiest.c_str(),
               100.0 * best, 1e6 * energy.total(), energy.total() > 0 ? 100.0 * energy.network.total() / energy.total() : 0.0,
               wall_seconds_, chip_seconds_, peak_memory_text().c_str(),
               opt_.ranks_share_process ? "" : " in the engine's process", opt_.summary_note.c_str());
  // Ranks that did not count their operations under --compute model are timed by this host: a
  // line of its own, since the summary's parenthesis is easy to miss.
  int counted = 0, finished = 0;
  for (const RankInfo& ri : ranks_) {
    counted += ri.totals.counted ? 1 : 0;
    finished += ri.said_goodbye ? 1 : 0;
  }
  if (opt_.compute.rfind("model", 0) == 0 && finished > counted)
    std::fprintf(stderr,
                 "tilempirun: sim: note: %d of %d ranks did not count their operations (a program built without "
                 "tilempicc/tilempif90, tilempi::opcount or pkg-config tilempi-opcount): their compute is this "
                 "host's time, scaled, which differs between hosts and runs (docs/SIM.md, \"Counted operations\")\n",
                 finished - counted, finished);
}

}  // namespace tilempi::transport::sim
