#include "tilempi/hwmodel/config.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

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

const st::Setting& network_model_decl() {
  static const st::Setting s = st::choice(
      "network_model", st::Source::chip, {"flit", "packet", "ideal"}, "",
      "flit: wormhole routers moved flit by flit with credits (exact); packet: each head claims the ports of "
      "its path for as many cycles as it has flits (fast, no chain blocking); ideal: zero latency, one flit per "
      "cycle written by the source and read by the destination (an adapter's own costs, as [Lee 1999] §6.3 "
      "measures them)");
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

const Key* find_key(const std::string& name) {
  for (const Key& k : key_table())
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

void Config::apply_text(const std::string& text, const std::string& origin) {
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
  }
}

void Config::apply_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "cannot read config file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  apply_text(ss.str(), path);
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
  if (torus && network_model == "packet")
    throw ConfigError("network_model", "config key 'network_model': packet is for meshes (it models no dateline "
                                       "virtual channels, so a torus could deadlock); use flit");
  if (vcs % vcs_per_class != 0)
    throw ConfigError("vcs_per_class", "config key 'vcs_per_class' (" + std::to_string(vcs_per_class) +
                                           ") must divide vcs (" + std::to_string(vcs) + ")");
  if (torus && vcs_per_class != 1)
    throw ConfigError("vcs_per_class", "config key 'vcs_per_class' must be 1 on a torus (its VCs are dateline "
                                       "pairs)");
  if (torus && vcs % 2 != 0)
    throw ConfigError("vcs", "config key 'vcs' must be even on a torus (dateline pairs), got " +
                                 std::to_string(vcs));
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
  const bool packet = network_model == "packet";
  if (fast_worms && packet) out.push_back("fast_worms is ignored by network_model=packet (it moves no flits)");
  else if (fast_worms && vcs > 1) out.push_back("fast_worms is ignored with vcs > 1: one-step worms need one VC");
  if (network_model == "ideal")
    out.push_back("network_model=ideal has no routers or links: the router, link, buffer and credit keys are "
                  "ignored (only header_flits, max_packet_flits, networks and vcs count)");
  if (packet) {
    if (vcs > 1) out.push_back("network_model=packet has no virtual channels: vcs=" + std::to_string(vcs) +
                               " only sets the number of packet classes");
    if (vcs_per_class > 1) out.push_back("vcs_per_class is ignored by network_model=packet (no virtual channels)");
    if (routing_delay > 0 || vc_alloc_delay > 0)
      out.push_back("network_model=packet adds routing_delay and vc_alloc_delay to every hop as fixed delays; "
                    "it has no input-VC pipeline (HWMODEL.md: its error against BookSim's router)");
    if (injection_credit_delay > 0)
      out.push_back("injection_credit_delay is ignored by network_model=packet (no credits)");
  }
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
  for (const Key& k : key_table()) out.emplace_back(k.decl.name);
  return out;
}

std::vector<settings::Setting> Config::declarations() const {
  std::vector<settings::Setting> out;
  for (const Key& k : key_table()) {
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
  for (const Key& k : key_table()) out += k.decl.name + "=" + k.get(*this) + "\n";
  for (const auto& [key, value] : adapter) out += key + "=" + value + "\n";
  return out;
}

std::vector<std::string> Config::preset_names() {
  return {"default", "tilepro64", "optimsoc", "mmachine", "booksim", "booksim_speculative"};
}

Config Config::preset_named(const std::string& name) {
  Config c;
  c.preset = name;
  if (name == "default") return c;
  if (name == "tilepro64") {
    // Tilera TilePro64, the chip NoCMsg ran on. [Yagna 2013] in docs/REFERENCES.md.
    c.width = 8;                 // [Yagna 2013] §2.1: 8x8 tiles
    c.height = 8;                // [Yagna 2013] §2.1
    c.clock_hz = 700e6;          // [Yagna 2013] §2.1: 700 MHz
    c.torus = false;             // [Yagna 2013] §2.1: no wrap-around links at the mesh edges
    c.flit_bytes = 4;            // [Yagna 2013] §2.1.2: the networks carry 32-bit data words, one word per flit
    c.header_flits = 1;          // assumption (not in the source): one header word carries the route
    c.max_packet_flits = 129;    // [Yagna 2013] §2.1.2: 1 to 128 data words per packet, plus the header word
    c.ejection_buffer_flits = 118;  // [Yagna 2013] §2.1.2: demux FIFO of 118 words at the receiver
    c.input_buffer_flits = 4;    // assumption (not in the source)
    c.injection_buffer_flits = 4;  // assumption (not in the source): cores write words to special registers
    c.router_delay = 1;          // assumption (not in the source): one cycle per hop
    c.networks = 1;              // [Yagna 2013] §2.1.2: the UDN is the one user dynamic network
    c.static_network = true;     // [Yagna 2013] §2.1.2: the SN, per-tile routes configured by software
    c.static_hop_cycles = 1;     // [Yagna 2013] §2.1.2, §3.2.3: single words between neighbours, no routing overhead
    c.static_setup_cycles = 100; // placeholder: [Yagna 2013] §3.2.3 calls SN route setup costly but gives no number
    // The core (--compute model). [Yagna 2013] §2.1: a 32-bit integer core, three-way VLIW (up to
    // three operations per cycle), no native floating point.
    c.core_int_cycles = 4;       // assumption: the bucket-count element is about 6 operations (load, shift, mask,
                                 // load, add, store) behind two dependent loads; 3-wide issue gives 2 at best, the
                                 // dependence and the cache (8 KiB L1 data) about 4
    c.core_fp_cycles = 120;      // assumption: a double multiply and add in software on a 32-bit integer core, each
                                 // some 50 instructions (unpack, multiply or align, normalize, round, pack) at
                                 // about one per cycle on their dependent chains, plus the loads
    return c;
  }
  if (name == "optimsoc") {
    // OpTiMSoC prototype NoC under the NAMP. [Wallentowitz 2018] in docs/REFERENCES.md.
    c.width = 4;                 // [Wallentowitz 2018] §4.3: 16 tiles in 4 rows and 4 columns
    c.height = 4;                // [Wallentowitz 2018] §4.3
    c.clock_hz = 100e6;          // assumption (not in the source): a typical FPGA prototype clock
    c.flit_bytes = 4;            // [Wallentowitz 2018] §3.2.2: 4 bytes per flit
    c.header_flits = 2;          // [Wallentowitz 2018] §3.2.2: h = 2 header flits
    c.max_packet_flits = 32;     // [Wallentowitz 2018] §3.2.2.2: packet length l = 32 words from there on
    c.input_buffer_flits = 4;    // [Wallentowitz 2018] §4.1, the OpTiMSoC router: 4-flit input buffers
    c.output_buffer_flits = 4;   // [Wallentowitz 2018] §4.1, the OpTiMSoC router: 4-flit output buffers
    c.injection_buffer_flits = 4;  // assumption: the adapter buffer matches the router buffers
    c.ejection_buffer_flits = 4;   // assumption: as above
    c.router_delay = 1;          // assumption (not in the source)
    c.vcs = 4;                   // [Wallentowitz 2018] §4.2.1: 4 adapter channels (control req/resp, data req/resp);
                                 // [Wallentowitz 2018] §4.1: carried as VCs of one network (or as physical networks)
    c.core_int_cycles = 7;       // assumption: a single-issue 32-bit RISC core, one cycle per operation plus a
                                 // load-use stall
    c.core_fp_cycles = 150;      // assumption: no FPU configured, double arithmetic in software as on the TilePro
    return c;
  }
  if (name == "mmachine") {
    // MIT M-Machine router. [Lee 1999] in docs/REFERENCES.md.
    c.width = 8;                 // [Lee 1999] §4.1: 2D mesh of up to 1024 MAP chips; 8x8 for the 64-node runs of ch. 7
    c.height = 8;
    c.flit_bytes = 8;            // [Lee 1999] §4.1: 68 payload bits per flit, i.e. one 64-bit word (plus tag bits)
    c.vcs = 4;                   // [Lee 1999] §3.3.3, §4.4: four virtual channels per physical path
    c.input_buffer_flits = 6;    // [Lee 1999] §4.4: the virtual channels are 6-entry FIFOs
    c.credit_delay = 5;          // [Lee 1999] §4.4.2 note 9: vacancy (credit) information takes up to 5 cycles
    c.injection_buffer_flits = 6;  // assumption: sized like a VC FIFO so that injection runs at full rate
    c.ejection_buffer_flits = 6;   // assumption: as above (covers the 5-cycle credit loop)
    c.header_flits = 1;          // assumption: one address word leads the message
    c.max_packet_flits = 13;     // [Lee 1999] §4.2: a message is at most 13 words: header, HandlerIP, DestAddr
                                 // and a body of up to 10 words (§3.2.1)
    c.router_delay = 1;          // assumption (not in the source)
    c.core_int_cycles = 3;       // assumption: a MAP cluster issues integer, memory and floating-point operations in
    c.core_fp_cycles = 4;        // parallel (hardware floating point): a few cycles per element of either kernel
    return c;
  }
  if (name == "booksim" || name == "booksim_speculative") {
    // BookSim 2's input-queued router on the 8x8 mesh of the reference curves
    // (docs/REFERENCES.md: BookSim 2; ../shared/reference/booksim-8x8.md has the configuration and curves).
    // "booksim" is BookSim's default pipeline (routing_delay = vc_alloc_delay = sw_alloc_delay =
    // st_final_delay = 1, speculative = 0); "booksim_speculative" adds lookahead routing
    // (routing_delay = 0) and speculative switch allocation. HWMODEL.md "Router pipeline" maps them.
    const bool spec = name == "booksim_speculative";
    c.width = 8;                   // k = 8, n = 2
    c.height = 8;
    c.vcs = 1;                     // num_vcs = 1
    c.input_buffer_flits = 4;      // vc_buf_size = 4
    c.injection_buffer_flits = 4;  // vc_buf_size = 4 (the router's injection input)
    c.ejection_buffer_flits = 4;   // vc_buf_size = 4: the router keeps credits for the ejection channel too
    c.header_flits = 1;            // packet_size counts every flit; no separate header
    c.max_packet_flits = 129;
    c.routing_delay = spec ? 0 : 1;  // routing_delay = 1 (0: lookahead)
    c.vc_alloc_delay = 1;          // vc_alloc_delay = 1
    c.sw_alloc_delay = 1;          // sw_alloc_delay = 1
    c.router_delay = 2;            // sw_alloc_delay + st_final_delay (1) + st_prepare_delay (0)
    c.speculative = spec;          // speculative = 0 / 1
    c.link_latency = 1;            // channel latency 1
    c.injection_latency = 3;       // injection channel latency 1 and 2 cycles to the router's input VC, and
    c.ejection_latency = 0;        // the ejection channel's cycle: together fitted to the measured zero-load
                                   // latencies (7 + 5h and 5 + 3h with 1-flit packets) and to the source's
                                   // credit round trip of 5 cycles (one more cycle for 5-flit packets,
                                   // 12 + 5h and 10 + 3h; a single flow gets 0.8 flit/cycle)
    c.injection_credit_delay = 2;  // as credit_delay
    c.credit_delay = 2;            // credit_delay = 0 plus the 1-cycle credit channel and its read: fitted
                                   // to the credit round trip of 5 cycles the reference measured
    return c;
  }
  throw ConfigError(name, "unknown preset '" + name +
                              "' (default, tilepro64, optimsoc, mmachine, booksim, booksim_speculative)");
}

}  // namespace tilempi::hwmodel
