#include "tilempi/hwmodel/config.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "energy/energy_keys.h"
#include "network_model.h"
#include "presets/registered_presets.h"
#include "tilempi/hwmodel/routing.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

namespace {

namespace st = tilempi::settings;

// One chip key: its declaration (type, valid values, description; the default is the value of
// the config it is read from) and how it is set and read.
struct Key {
  st::Setting decl;
  std::function<void(Config&, const std::string&)> set;
  std::function<std::string(const Config&)> get;
};

[[noreturn]] void bad(const std::string& key, const std::string& value, const std::string& why) {
  throw ConfigError(key, "config key '" + key + "': bad value '" + value + "': " + why);
}

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

Key int_key(const char* name, const char* desc, int Config::*field, long lo, long hi) {
  st::Setting d = st::integer(name, st::Source::chip, lo, hi, "", desc);
  return Key{d, [=](Config& c, const std::string& v) { c.*field = static_cast<int>(st::to_integer(d, v)); },
             [=](const Config& c) { return std::to_string(c.*field); }};
}

Key bool_key(const char* name, const char* desc, bool Config::*field) {
  st::Setting d = st::boolean(name, st::Source::chip, "", desc);
  return Key{d, [=](Config& c, const std::string& v) { c.*field = st::to_boolean(d, v); },
             [=](const Config& c) { return std::string(c.*field ? "true" : "false"); }};
}

Key text_key(const char* name, const char* range, const char* desc,
             std::function<void(Config&, const std::string&)> set, std::function<std::string(const Config&)> get) {
  return Key{st::text(name, st::Source::chip, range, "", desc), std::move(set), std::move(get)};
}

// Keys whose setters need their declaration too.
const st::Setting& sw_alloc_decl() {
  static const st::Setting s = st::integer(
      "sw_alloc_delay", st::Source::chip, 1, 1000, "",
      "switch allocation (SA) cycles, part of router_delay; setting it keeps st_delay (BookSim sw_alloc_delay)");
  return s;
}

const st::Setting& st_delay_decl() {
  static const st::Setting s = st::integer(
      "st_delay", st::Source::chip, 0, 999, "",
      "switch traversal (ST) cycles after switch allocation: sets router_delay = sw_alloc_delay + st_delay "
      "(BookSim st_prepare_delay + st_final_delay)");
  return s;
}

// The registered network models: their names are the choices, "name: help; ..." the description.
const st::Setting& network_model_decl() {
  static const st::Setting s = [] {
    std::string description;
    for (const NetworkModelEntry* m : network_models().entries())
      description += (description.empty() ? "" : "; ") + std::string(m->name) + ": " + m->help;
    return st::choice("network_model", st::Source::chip, network_models().names(), "", description);
  }();
  return s;
}

// The registered routing functions: their names are the choices, "name: help; ..." the description.
const st::Setting& routing_decl() {
  static const st::Setting s = [] {
    std::string description = "routing function of the dynamic networks (HWMODEL.md \"Routing functions and allocators\"): ";
    bool first = true;
    for (const RoutingEntry* e : routings().entries()) {
      description += (first ? "" : "; ") + std::string(e->name) + ": " + e->help;
      first = false;
    }
    return st::choice("routing", st::Source::chip, routings().names(), "", description);
  }();
  return s;
}

const st::Setting& routing_seed_decl() {
  static const st::Setting s =
      st::integer("routing_seed", st::Source::chip, 0, std::int64_t{1} << 62, "",
                  "seed of the routing functions' random choices (o1turn's order, romm's and valiant's "
                  "intermediate tile), drawn per packet in injection order");
  return s;
}

const st::Setting& vc_allocator_decl() {
  static const st::Setting s = st::choice(
      "vc_allocator", st::Source::chip, {"first_free", "separable_input_first"}, "",
      "VC allocation with several VCs per port (flit model): first_free: a head asks for the first free VC of "
      "its class, each output VC grants round robin; separable_input_first: BookSim's separable input-first "
      "allocator, one iteration (each head asks for one of the free VCs its route allows, round robin, then "
      "each output VC grants round robin), and a new packet at the core takes the next VC of its class with "
      "room, round robin (BookSim vc_allocator)");
  return s;
}

const st::Setting& sw_allocator_decl() {
  static const st::Setting s = st::choice(
      "sw_allocator", st::Source::chip, {"output_rotating", "separable_input_first"}, "",
      "switch allocation with several VCs per port (flit model): output_rotating: outputs served one after "
      "another in an order rotating with the cycle, each granting round robin among the input VCs whose port "
      "has not sent yet; separable_input_first: BookSim's separable input-first allocator, one iteration "
      "(each input port picks one VC per output, then one output, round robin; each output grants one input "
      "port, round robin) (BookSim sw_allocator)");
  return s;
}

std::string format_double(double d) {
  std::ostringstream os;
  os.precision(17);
  os << d;
  return os.str();
}

const std::vector<Key>& key_table() {
  static const std::vector<Key> table = {
      text_key("preset", "a preset name", "name of the preset the config started from (informational)",
               [](Config& c, const std::string& v) { c.preset = v; }, [](const Config& c) { return c.preset; }),
      text_key("clock_hz", "a number > 0, suffixes k, M, G", "chip clock in Hz (accepts suffixes k, M, G)",
          [](Config& c, const std::string& v) {
            std::string s = v;
            double mult = 1;
            if (!s.empty()) {
              char last = s.back();
              if (last == 'k' || last == 'K') mult = 1e3;
              else if (last == 'M') mult = 1e6;
              else if (last == 'G') mult = 1e9;
              if (mult != 1) s.pop_back();
            }
            char* end = nullptr;
            errno = 0;
            double d = std::strtod(s.c_str(), &end);
            if (s.empty() || end != s.c_str() + s.size() || errno != 0 || !std::isfinite(d))
              bad("clock_hz", v, "expected a number > 0 (suffixes k, M, G)");
            d *= mult;
            if (d <= 0) bad("clock_hz", v, "expected a number > 0 (suffixes k, M, G)");
            c.clock_hz = d;
          },
          [](const Config& c) { return format_double(c.clock_hz); }),
      int_key("width", "mesh columns", &Config::width, 1, 1024),
      int_key("height", "mesh rows", &Config::height, 1, 1024),
      bool_key("torus", "wrap-around links in both dimensions", &Config::torus),
      text_key("mapping", "row_major, col_major or list:t0,t1,...",
               "rank-to-tile mapping: row_major, col_major or list:t0,t1,... (tile of rank 0, 1, ...)",
               [](Config& c, const std::string& v) {
                 try {
                   RankMap::check_spec(v);
                 } catch (const std::invalid_argument& e) {
                   bad("mapping", v, std::string(e.what()) + " (expected row_major, col_major or list:t0,t1,...)");
                 }
                 c.mapping = v;
               },
               [](const Config& c) { return c.mapping; }),
      int_key("networks", "number of identical dynamic physical networks", &Config::networks, 1, 16),
      int_key("vcs", "virtual channels per port (torus: even, used in dateline pairs)", &Config::vcs, 1, 12),
      int_key("vcs_per_class",
              "VCs per packet class on a mesh; > 1: a head takes any free VC of its class at every hop (per-hop "
              "VC allocation; packets of a class may overtake each other)",
              &Config::vcs_per_class, 1, 12),
      int_key("flit_bytes", "link width: bytes per flit", &Config::flit_bytes, 1, 1024),
      int_key("header_flits", "header flits per packet", &Config::header_flits, 1, 64),
      int_key("max_packet_flits", "longest packet in flits, header included", &Config::max_packet_flits, 1,
              1 << 20),
      int_key("input_buffer_flits", "router input buffer per port and VC, in flits", &Config::input_buffer_flits,
              1, 1 << 16),
      int_key("output_buffer_flits", "router output buffer per port and VC, in flits (adds to link credit)",
              &Config::output_buffer_flits, 0, 1 << 16),
      int_key("injection_buffer_flits", "core-to-router injection buffer per VC, in flits",
              &Config::injection_buffer_flits, 1, 1 << 16),
      int_key("ejection_buffer_flits", "router-to-core ejection (receive) buffer per VC, in flits",
              &Config::ejection_buffer_flits, 1, 1 << 16),
      int_key("routing_delay",
              "route computation (RC) cycles of a head at each router, from the cycle it is at the front of its "
              "input VC (0: lookahead routing; BookSim routing_delay)",
              &Config::routing_delay, 0, 1000),
      int_key("vc_alloc_delay",
              "VC allocation (VA) cycles of a head after route computation (0: the output VC is taken with the "
              "switch; BookSim vc_alloc_delay)",
              &Config::vc_alloc_delay, 0, 1000),
      Key{sw_alloc_decl(),
          [](Config& c, const std::string& v) {
            const int traversal = c.router_delay - c.sw_alloc_delay;
            const int sa = static_cast<int>(st::to_integer(sw_alloc_decl(), v));
            if (sa + traversal > 1000)
              bad("sw_alloc_delay", v, "sw_alloc_delay + st_delay (" + std::to_string(traversal) + ") exceeds 1000");
            c.sw_alloc_delay = sa;
            c.router_delay = sa + traversal;
          },
          [](const Config& c) { return std::to_string(c.sw_alloc_delay); }},
      bool_key("speculative", "speculative switch allocation: VC allocation in parallel with switch allocation "
                              "(BookSim speculative)",
               &Config::speculative),
      int_key("router_delay",
              "cycles from a flit's switch allocation to the router's output: sw_alloc_delay + st_delay (with "
              "no RC or VA stage, a head's router input to the next router input without link_latency)",
              &Config::router_delay, 1, 1000),
      Key{st_delay_decl(),
          [](Config& c, const std::string& v) {
            const int traversal = static_cast<int>(st::to_integer(st_delay_decl(), v));
            if (c.sw_alloc_delay + traversal > 1000)
              bad("st_delay", v, "sw_alloc_delay (" + std::to_string(c.sw_alloc_delay) + ") + st_delay exceeds 1000");
            c.router_delay = c.sw_alloc_delay + traversal;
          },
          [](const Config& c) { return std::to_string(c.st_delay()); }},
      int_key("link_latency", "extra wire cycles per hop", &Config::link_latency, 0, 1000),
      int_key("credit_delay", "cycles for a credit to reach the upstream router", &Config::credit_delay, 1, 1000),
      int_key("injection_latency", "cycles from the core's write to the flit at the router input",
              &Config::injection_latency, 1, 1000),
      int_key("injection_credit_delay",
              "cycles for a freed injection-buffer slot's credit to reach the core (0: the core sees its buffer "
              "directly)",
              &Config::injection_credit_delay, 0, 1000),
      int_key("ejection_latency", "cycles from the tail in the ejection buffer to delivery to the core",
              &Config::ejection_latency, 0, 1000),
      bool_key("fast_worms", "compute a worm's remaining flits in one step once its head is delivered (vcs=1)",
               &Config::fast_worms),
      Key{network_model_decl(),
          [](Config& c, const std::string& v) { c.network_model = st::to_choice(network_model_decl(), v); },
          [](const Config& c) { return c.network_model; }},
      Key{routing_decl(), [](Config& c, const std::string& v) { c.routing = st::to_choice(routing_decl(), v); },
          [](const Config& c) { return c.routing; }},
      Key{routing_seed_decl(),
          [](Config& c, const std::string& v) {
            c.routing_seed = static_cast<std::uint64_t>(st::to_integer(routing_seed_decl(), v));
          },
          [](const Config& c) { return std::to_string(c.routing_seed); }},
      Key{vc_allocator_decl(),
          [](Config& c, const std::string& v) { c.vc_allocator = st::to_choice(vc_allocator_decl(), v); },
          [](const Config& c) { return c.vc_allocator; }},
      Key{sw_allocator_decl(),
          [](Config& c, const std::string& v) { c.sw_allocator = st::to_choice(sw_allocator_decl(), v); },
          [](const Config& c) { return c.sw_allocator; }},
      int_key("core_int_cycles",
              "--compute model: tile cycles per element of the integer reference kernel (a bucket count; "
              "docs/SIM.md)",
              &Config::core_int_cycles, 1, 1000000),
      int_key("core_fp_cycles",
              "--compute model: tile cycles per element of the floating-point reference kernel (a sparse dot "
              "product; docs/SIM.md)",
              &Config::core_fp_cycles, 1, 1000000),
      int_key("core_fp_percent", "--compute model: share of a program's compute taken as floating point, in percent",
              &Config::core_fp_percent, 0, 100),
      bool_key("static_network", "the chip has a static network", &Config::static_network),
      int_key("static_setup_cycles", "cycles to configure one tile's static route", &Config::static_setup_cycles, 0,
              1 << 24),
      int_key("static_hop_cycles", "cycles per hop of a static-network word", &Config::static_hop_cycles, 1, 1000),
  };
  return table;
}

// The chip keys, then the energy model's (energy/energy_keys.cpp).
const std::vector<Key>& all_keys() {
  static const std::vector<Key> all = [] {
    std::vector<Key> out = key_table();
    for (const EnergyKey& e : energy_keys())
      out.push_back(Key{e.decl, [&e](Config& c, const std::string& v) { e.set(c.energy, e.decl, v); },
                        [&e](const Config& c) { return e.get(c.energy); }});
    return out;
  }();
  return all;
}

const Key* find_key(const std::string& name) {
  for (const Key& k : all_keys())
    if (name == k.decl.name) return &k;
  return nullptr;
}

}  // namespace

void Config::set(const std::string& key_in, const std::string& value_in) {
  std::string key = trim(key_in);
  std::string value = trim(value_in);
  if (key.rfind("adapter.", 0) == 0 && key.size() > 8) {
    adapter[key] = value;
    return;
  }
  const Key* k = find_key(key);
  if (!k) throw ConfigError(key, "unknown config key '" + key + "'");
  try {
    k->set(*this, value);
  } catch (const ConfigError&) {
    throw;
  } catch (const settings::Error& e) {
    throw ConfigError(e.name(), e.what());
  }
}

void Config::apply(const std::string& assignment) {
  std::size_t eq = assignment.find('=');
  if (eq == std::string::npos)
    throw ConfigError(trim(assignment), "config setting '" + assignment + "' is not key=value");
  set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

void Config::apply_all(const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) apply(a);
}

std::vector<std::string> Config::apply_text(const std::string& text, const std::string& origin) {
  std::vector<std::string> keys;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (trim(line).empty()) continue;
    try {
      apply(line);
    } catch (const ConfigError& e) {
      throw ConfigError(e.key(), origin + ":" + std::to_string(lineno) + ": " + e.what());
    }
    keys.push_back(trim(line.substr(0, line.find('='))));
  }
  return keys;
}

std::vector<std::string> Config::apply_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "cannot read config file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return apply_text(ss.str(), path);
}

void Config::validate() const {
  if (max_packet_flits <= header_flits)
    throw ConfigError("max_packet_flits", "config key 'max_packet_flits' (" + std::to_string(max_packet_flits) +
                                              ") must exceed header_flits (" + std::to_string(header_flits) + ")");
  if (sw_alloc_delay < 1 || sw_alloc_delay > router_delay)
    throw ConfigError("sw_alloc_delay", "config key 'sw_alloc_delay' (" + std::to_string(sw_alloc_delay) +
                                            ") must be in [1, router_delay (" + std::to_string(router_delay) +
                                            ")]: router_delay is switch allocation plus switch traversal");
  if (routing_delay < 0 || vc_alloc_delay < 0)
    throw ConfigError(routing_delay < 0 ? "routing_delay" : "vc_alloc_delay",
                      "config key 'routing_delay' and 'vc_alloc_delay' must be >= 0");
  if (const NetworkModelEntry& m = network_model_of(*this); m.check) m.check(*this);
  if (vcs % vcs_per_class != 0)
    throw ConfigError("vcs_per_class", "config key 'vcs_per_class' (" + std::to_string(vcs_per_class) +
                                           ") must divide vcs (" + std::to_string(vcs) + ")");
  if (torus && vcs_per_class != 1)
    throw ConfigError("vcs_per_class", "config key 'vcs_per_class' must be 1 on a torus (its VCs are dateline "
                                       "pairs)");
  if (torus && vcs % 2 != 0)
    throw ConfigError("vcs", "config key 'vcs' must be even on a torus (dateline pairs), got " +
                                 std::to_string(vcs));
  check_routing(*this);
  if (static_cast<long>(width) * height > (1L << 20))
    throw ConfigError("width", "config key 'width' x 'height' exceeds 2^20 tiles");
  try {
    RankMap::check_spec(mapping);
  } catch (const std::invalid_argument& e) {
    throw ConfigError("mapping", std::string("config key 'mapping': ") + e.what());
  }
}

std::vector<std::string> Config::ignored_settings() const {
  std::vector<std::string> out;
  const NetworkModelEntry* m = network_models().find(network_model);
  if (m && m->ignored) m->ignored(*this, out);
  return out;
}

std::string Config::get(const std::string& key) const {
  auto it = adapter.find(key);
  if (it != adapter.end()) return it->second;
  const Key* k = find_key(key);
  if (!k) throw ConfigError(key, "unknown config key '" + key + "'");
  return k->get(*this);
}

std::vector<std::string> Config::keys() {
  std::vector<std::string> out;
  for (const Key& k : all_keys()) out.emplace_back(k.decl.name);
  return out;
}

std::vector<settings::Setting> Config::declarations() const {
  std::vector<settings::Setting> out;
  for (const Key& k : all_keys()) {
    out.push_back(k.decl);
    out.back().default_value = k.get(*this);
  }
  return out;
}

std::string Config::describe(const std::string& key) {
  if (key.rfind("adapter.", 0) == 0) return "adapter parameter (validated by the adapter model)";
  const Key* k = find_key(key);
  if (!k) throw ConfigError(key, "unknown config key '" + key + "'");
  return k->decl.description;
}

std::string Config::to_text() const {
  std::string out;
  for (const Key& k : all_keys()) out += k.decl.name + "=" + k.get(*this) + "\n";
  for (const auto& [key, value] : adapter) out += key + "=" + value + "\n";
  return out;
}

const registry::Registry<PresetEntry>& Config::presets() {
  static const auto r = TILEMPI_REGISTRY_OF("preset", TILEMPI_REGISTERED_PRESETS, registered_presets);
  return r;
}

std::vector<std::string> Config::preset_names() { return presets().names(); }

Config Config::preset_named(const std::string& name) {
  const PresetEntry* e = presets().find(name);
  if (!e) throw ConfigError(name, "unknown preset '" + name + "' (" + presets().joined() + ")");
  Config c;
  c.preset = name;
  e->apply(c);
  return c;
}

}  // namespace tilempi::hwmodel
