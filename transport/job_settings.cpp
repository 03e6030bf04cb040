// The typed settings of a sim job (tilempi/transport/job_settings.h), parsed with their
// declarations (tilempi/transport/transport_settings.h).
#include "tilempi/transport/job_settings.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/transport/transport_settings.h"

namespace tilempi::transport {

namespace st = tilempi::settings;
namespace ts = tilempi::transport::settings;
namespace hw = tilempi::hwmodel;

namespace {
// The header of a sim job holds paths of up to this many bytes (sim_shm.h: report_path, trace_path).
constexpr std::size_t kMaxPath = 1023;
}  // namespace

std::vector<MigrationOrder> parse_migrations(const std::string& text) {
  std::vector<MigrationOrder> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    MigrationOrder o;
    unsigned long long r = 0, t = 0, c = 0;
    int used = 0;
    if (std::sscanf(item.c_str(), "%llu:%llu@%llu%n", &r, &t, &c, &used) != 3 || used != static_cast<int>(item.size()) ||
        item.find_first_of("-+ ") != std::string::npos || r > 1u << 20 || t > 1u << 20)
      st::bad_value(ts::sim_migrate(), item, "RANK:TILE@CYCLE (e.g. 1:5@20000)");
    o.rank = static_cast<int>(r);
    o.tile = static_cast<int>(t);
    o.at = c;
    out.push_back(o);
  }
  return out;
}

std::string migrations_text(const std::vector<MigrationOrder>& orders) {
  std::string out;
  for (const MigrationOrder& o : orders)
    out += (out.empty() ? "" : ",") + std::to_string(o.rank) + ":" + std::to_string(o.tile) + "@" + std::to_string(o.at);
  return out;
}

namespace {
RanksMode ranks_mode_named(const std::string& v) {
  return v == "contexts" ? RanksMode::contexts : v == "processes" ? RanksMode::processes : RanksMode::automatic;
}
}  // namespace

SimSettings::SimSettings() {
  // One default per knob: the declaration's, through the same parser as the user's value.
  for (const st::Setting* d : {&ts::sim_preset(), &ts::sim_adapter(), &ts::sim_compute(), &ts::sim_stack_kib(),
                               &ts::sim_summary(), &ts::sim_progress()})
    set(d->name, d->default_value);
  given.clear();
}

void SimSettings::set(const std::string& key, const std::string& value) {
  given.push_back(key);
  if (key.rfind("sim.", 0) != 0) {
    // A chip or adapter key: checked now against the default chip (Config::set checks one key's
    // value; an adapter key is kept for the adapter, which checks it when the job is created).
    hw::Config scratch;
    scratch.set(key, value);
    chip_keys.emplace_back(key, value);
    return;
  }
  const st::Setting* d = ts::find_sim_key(key);
  if (!d) st::unknown_key(key, "sim keys", ts::sim_keys());
  if (d == &ts::sim_preset()) {
    (void)hw::Config::preset_named(value);  // the registry's error names the presets
    preset = value;
  } else if (d == &ts::sim_adapter()) {
    if (!hw::adapter::Adapter::registry().find(value))
      throw hw::ConfigError(key, "unknown adapter '" + value + "' (" + hw::adapter::Adapter::registry().joined() + ")");
    adapter = value;
  } else if (d == &ts::sim_compute()) {
    ComputeMode m;
    m.text = value;
    if (value == "none") {
      m.kind = ComputeMode::Kind::none;
    } else if (value == "model") {
      m.kind = ComputeMode::Kind::model;
    } else {
      const std::string f = value.rfind("scale:", 0) == 0 ? value.substr(6) : std::string();
      char* end = nullptr;
      errno = 0;
      m.kind = ComputeMode::Kind::scale;
      m.factor = f.empty() ? -1 : std::strtod(f.c_str(), &end);
      if (f.empty() || errno != 0 || !end || *end != '\0' || !(m.factor >= 0))
        st::bad_value(*d, value, "none, model or scale:F (F >= 0)");
    }
    compute = m;
  } else if (d == &ts::sim_report() || d == &ts::sim_trace()) {
    if (value.size() > kMaxPath) st::bad_value(*d, value, "a path of at most " + std::to_string(kMaxPath) + " bytes");
    (d == &ts::sim_report() ? report : trace) = value;
  } else if (d == &ts::sim_config()) {
    std::ifstream in(value);
    if (!in) st::bad_value(*d, value, "a readable file (cannot read it)");
    std::stringstream text;
    text << in.rdbuf();
    hw::Config scratch;
    (void)scratch.apply_text(text.str(), value);  // errors name the file, the line and the key
    config_file = value;
    config_text = text.str();
  } else if (d == &ts::sim_migrate()) {
    for (const MigrationOrder& o : parse_migrations(value)) migrations.push_back(o);
  } else if (d == &ts::sim_arena_mib()) {
    arena_mib = static_cast<std::uint64_t>(st::to_integer(*d, value));
  } else if (d == &ts::sim_ranks()) {
    ranks = ranks_mode_named(st::to_choice(*d, value));
  } else if (d == &ts::sim_stack_kib()) {
    stack_kib = static_cast<std::uint64_t>(st::to_integer(*d, value));
  } else if (d == &ts::sim_summary()) {
    summary = st::to_boolean(*d, value);
  } else if (d == &ts::sim_progress()) {
    const std::string v = st::to_choice(*d, value);
    progress = v == "on" ? ProgressMode::on : v == "off" ? ProgressMode::off : ProgressMode::automatic;
  }
}

std::uint64_t SimSettings::arena_mib_for(int nranks) const {
  // Virtual size: tmpfs backs only the pages a job touches. Room for the largest messages of
  // small jobs (tests send 64 MiB between two ranks).
  return arena_mib.value_or(nranks <= 16 ? 160 : 64);
}

RanksMode SimSettings::ranks_mode() const {
  if (ranks) return *ranks;
  // TILEMPI_SIM_RANKS sets the default for a whole session (the test suite runs both ways).
  const std::optional<std::string> v = st::env_choice(ts::sim_ranks_env());
  return ranks_mode_named(v.value_or("auto"));
}

}  // namespace tilempi::transport
