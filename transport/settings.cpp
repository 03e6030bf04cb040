// The transport layer's settings (tilempi/transport/settings.h).
#include "tilempi/transport/settings.h"

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
  static const Setting s =
      st::boolean("sim.summary", st::Source::sim, "true", "print the one-line summary of the run at its end");
  return s;
}

const Setting& sim_progress() {
  static const Setting s = st::choice(
      "sim.progress", st::Source::sim, {"auto", "on", "off"}, "auto",
      "a line on stderr every 5 s of a long run (virtual cycle, messages, ranks done, wall time): auto when "
      "stderr is a terminal; tilempirun --quiet sets off");
  return s;
}

std::vector<Setting> sim_keys() {
  return {sim_arena_mib(), sim_progress(), sim_ranks(), sim_stack_kib(), sim_summary()};
}

const Setting* find_sim_key(const std::string& key) {
  for (const Setting* s : {&sim_arena_mib(), &sim_progress(), &sim_ranks(), &sim_stack_kib(), &sim_summary()})
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
      "sim: print the engine's hand-off counts (passes, blocks, wakes, context switches) at the end of a run");
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
