// The transport layer's settings (tilempi/transport/transport_settings.h).
#include "tilempi/transport/transport_settings.h"

#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"

namespace tilempi::transport::settings {

namespace st = tilempi::settings;

namespace {
// The largest ring of a host job (make_geometry: 16 KiB .. 256 KiB) and its slot header: the
// declared range of TILEMPI_HOST_EAGER; a job's own limit may be smaller.
constexpr std::int64_t kMaxRingBytes = 256 << 10;
constexpr std::int64_t kSlotHeaderBytes = 48;
constexpr std::int64_t kMaxArenaBytes = 1 << 20;
constexpr std::int64_t kMinChunk = 4096;
}  // namespace

const Setting& sim_preset() {
  static const Setting s = [] {
    std::string names;
    for (const std::string& n : hwmodel::Config::preset_names()) names += (names.empty() ? "" : "|") + n;
    return st::with_flags(st::text("sim.preset", st::Source::sim, names, "tilepro64",
                                   "the chip's parameters before --config and --set change them: a registered preset "
                                   "(--preset help says what each models; tilepro64 is the TilePro64's 8x8 chip)"),
                          {"--preset"});
  }();
  return s;
}

const Setting& sim_adapter() {
  static const Setting s = [] {
    std::string names;
    for (const std::string& n : hwmodel::adapter::Adapter::names()) names += (names.empty() ? "" : "|") + n;
    return st::with_flags(st::text("sim.adapter", st::Source::sim, names, "udn",
                                   "the network adapter model: a registered adapter (--adapter help says what each "
                                   "models; its keys: --adapter NAME --set help=adapter)"),
                          {"--adapter"});
  }();
  return s;
}

const Setting& sim_compute() {
  static const Setting s = st::with_flags(
      st::text("sim.compute", st::Source::sim, "none|model|scale:F (F >= 0)", "model",
               "charge the application's work between MPI calls as a tile core would take it: model: the operations "
               "a program built with tilempicc/tilempif90 counts, at the preset's cycles per operation (the same on "
               "every host and run; an uncounted program's time against this host's, measured at start); scale:F: "
               "host time x F (docs/SIM.md says which clock); none: nothing (tilempi-bench's own default: it times "
               "communication only)"),
      {"--compute"});
  return s;
}

const Setting& sim_report() {
  static const Setting s = st::with_flags(
      st::text("sim.report", st::Source::sim, "a writable FILE (checked before any rank starts)", "",
               "write the run's statistics to FILE (JSON) at its end (default: none)"),
      {"--report"});
  return s;
}

const Setting& sim_trace() {
  static const Setting s = st::with_flags(
      st::text("sim.trace", st::Source::sim, "a writable FILE (checked before any rank starts)", "",
               "write a Chrome/Perfetto trace of the run to FILE at its end (default: none)"),
      {"--trace"});
  return s;
}

const Setting& sim_config() {
  static const Setting s = st::with_flags(
      st::text("sim.config", st::Source::sim, "a FILE of KEY=VALUE lines of chip keys ('#' starts a comment)", "",
               "chip keys from FILE, applied over the preset and before --set; its width and height also give the "
               "number of ranks and the rank grid when -n and --mesh do not (on host too)"),
      {"--config"});
  return s;
}

const Setting& sim_migrate() {
  static const Setting s = st::with_flags(
      st::text("sim.migrate", st::Source::sim, "RANK:TILE@CYCLE[,...] (e.g. 1:5@20000)", "",
               "move rank R's task to tile T (y*width+x) at cycle C during the run; each --migrate (or --set) adds its "
               "orders; the adapter's method moves its communication (namp: adapter.namp.migration=pause|ps)"),
      {"--migrate"});
  return s;
}

const Setting& sim_arena_mib() {
  static const Setting s = st::integer(
      "sim.arena_mib", st::Source::sim, 1, 65536, "160 up to 16 ranks, else 64",
      "payload arena per rank, MiB of virtual shared memory (only touched pages cost memory); a message larger "
      "than the arena ends the job with a message saying so");
  return s;
}

const Setting& sim_ranks() {
  static const Setting s = st::choice(
      "sim.ranks", st::Source::sim, {"auto", "contexts", "processes"}, "TILEMPI_SIM_RANKS, else auto",
      "ranks as user-level contexts of one simulator process, or as one process each; auto takes contexts "
      "when the program can be loaded once per rank and says why not otherwise; contexts makes that an error");
  return s;
}

const Setting& sim_stack_kib() {
  static const Setting s = st::integer(
      "sim.stack_kib", st::Source::sim, 64, 4194304, "8192",
      "each context's stack in KiB (reserved, not committed: a rank costs the pages it touches); a rank that "
      "overflows it is reported as such");
  return s;
}

const Setting& sim_summary() {
  static const Setting s = st::with_flags(
      st::boolean("sim.summary", st::Source::sim, "true", "print the one-line summary of the run at its end"),
      {"--quiet (false)"});
  return s;
}

const Setting& sim_progress() {
  static const Setting s = st::with_flags(
      st::choice("sim.progress", st::Source::sim, {"auto", "on", "off"}, "auto",
                 "a line on stderr every 5 s of a long run (virtual cycle, messages, ranks done, wall time): auto "
                 "when stderr is a terminal"),
      {"--quiet (off)"});
  return s;
}

namespace {
// Every sim.* key, in listing order (by name): the one list that sim_keys() and find_sim_key() read.
const std::vector<const Setting*>& sim_key_list() {
  static const std::vector<const Setting*> list{&sim_adapter(), &sim_arena_mib(), &sim_compute(),  &sim_config(),
                                                &sim_migrate(), &sim_preset(),    &sim_progress(), &sim_ranks(),
                                                &sim_report(),  &sim_stack_kib(), &sim_summary(),  &sim_trace()};
  return list;
}
}  // namespace

std::vector<Setting> sim_keys() {
  std::vector<Setting> out;
  for (const Setting* s : sim_key_list()) out.push_back(*s);
  return out;
}

const Setting* find_sim_key(const std::string& key) {
  for (const Setting* s : sim_key_list())
    if (s->name == key) return s;
  return nullptr;
}

const Setting& host_eager_env() {
  static const Setting s = [] {
    Setting d = st::integer(
        "TILEMPI_HOST_EAGER", st::Source::environment, 0, kMaxRingBytes / 4 - kSlotHeaderBytes,
        "a quarter of a ring less 48, 1024 .. 32768 by job size",
        "host: largest message in bytes sent eagerly through the ring (larger ones go by rendezvous); at most a "
        "quarter of the job's ring less the 48-byte slot header (the error names the job's limit)");
    return d;
  }();
  return s;
}

const Setting& host_chunk_env() {
  static const Setting s = [] {
    Setting d = st::integer(
        "TILEMPI_HOST_CHUNK", st::Source::environment, kMinChunk, kMaxArenaBytes / 2, "65536",
        "host: largest piece in bytes in which the arena streams large messages, a power of two, at most half the "
        "job's arena (the error names the job's limit)");
    d.range = "a power of two in [" + std::to_string(kMinChunk) + ", " + std::to_string(kMaxArenaBytes / 2) + "]";
    return d;
  }();
  return s;
}

const Setting& host_cma_env() {
  static const Setting s = st::boolean(
      "TILEMPI_HOST_CMA", st::Source::environment,
      "where the kernel allows it, cross-memory attach below 64 KiB, and below 128 KiB while messages go both ways; the arena otherwise",
      "host: true copies every large message once with cross-memory attach; false streams every one through the arena");
  return s;
}

const Setting& host_deadlock_after_env() {
  static const Setting s = st::text(
      "TILEMPI_HOST_DEADLOCK_AFTER", st::Source::environment, "a number of seconds >= 0; 0: never", "10",
      "host: tilempirun ends a job in which every rank has waited in MPI with nothing in flight for this long, "
      "saying where each rank waits (the default of --deadlock-after)");
  return s;
}

const Setting& host_poll_yield_env() {
  static const Setting s = st::integer(
      "TILEMPI_HOST_POLL_YIELD", st::Source::environment, 0, 1000000, "32 when the job has more ranks than cores, else 0",
      "host: a rank gives its core away (sched_yield) once every this many MPI_Test, MPI_Testany, MPI_Testall, "
      "MPI_Testsome, MPI_Iprobe or MPI_Improbe that found nothing; 0: never");
  return s;
}

const Setting& sim_ranks_env() {
  static const Setting s = st::choice("TILEMPI_SIM_RANKS", st::Source::environment,
                                      {"auto", "contexts", "processes"}, "auto",
                                      "sim: the default of sim.ranks for every job of the session");
  return s;
}

const Setting& sim_profile_env() {
  static const Setting s = st::boolean(
      "TILEMPI_SIM_PROFILE", st::Source::environment, "false",
      "sim: print the engine's hand-off counts (passes, blocks, wakes, context switches) and the most messages and requests in flight at once, at the end of a run");
  return s;
}

std::vector<Setting> environment() {
  return {host_eager_env(), host_chunk_env(), host_cma_env(), host_deadlock_after_env(), host_poll_yield_env(),
          sim_ranks_env(), sim_profile_env()};
}

std::optional<std::uint64_t> host_eager(std::uint64_t max_bytes) {
  const Setting& s = host_eager_env();
  auto v = st::env_integer(s, 0, static_cast<std::int64_t>(max_bytes));
  if (!v) return std::nullopt;
  return static_cast<std::uint64_t>(*v);
}

std::optional<std::uint32_t> host_poll_yield() {
  auto v = st::env_integer(host_poll_yield_env(), 0, 1000000);
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

std::optional<std::uint64_t> host_chunk(std::uint64_t arena_bytes) {
  const Setting& s = host_chunk_env();
  const auto hi = static_cast<std::int64_t>(arena_bytes / 2);
  auto text = st::env_text(s);
  if (!text) return std::nullopt;
  const std::string expected = "a power of two in [" + std::to_string(kMinChunk) + ", " + std::to_string(hi) + "]";
  std::int64_t v = 0;
  try {
    v = st::to_integer(s, *text, kMinChunk, hi);
  } catch (const st::Error&) {
    st::bad_value(s, *text, expected);
  }
  if ((v & (v - 1)) != 0) st::bad_value(s, *text, expected);
  return static_cast<std::uint64_t>(v);
}

}  // namespace tilempi::transport::settings
