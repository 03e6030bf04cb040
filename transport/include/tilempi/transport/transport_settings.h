// The transport layer's settings: the sim transport's `sim.*` keys and the environment
// variables the backends read. Declared once here (tilempi/settings.h); the backends parse them
// with these declarations, `tilempirun --set help` lists them, docs/SIM.md's tables are
// generated from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tilempi/settings.h"

namespace tilempi::transport::settings {

using tilempi::settings::Setting;

// ---- sim transport keys (--set sim.KEY=VALUE); the first seven are also tilempirun's flags
const Setting& sim_preset();    ///< --preset
const Setting& sim_adapter();   ///< --adapter
const Setting& sim_compute();   ///< --compute
const Setting& sim_report();    ///< --report
const Setting& sim_trace();     ///< --trace
const Setting& sim_config();    ///< --config
const Setting& sim_migrate();   ///< --migrate
const Setting& sim_arena_mib();
const Setting& sim_ranks();
const Setting& sim_stack_kib();
const Setting& sim_summary();
const Setting& sim_progress();
/// Every sim.* key, in listing order.
std::vector<Setting> sim_keys();
/// The declaration of sim key `key`, or nullptr.
const Setting* find_sim_key(const std::string& key);

// ---- environment variables
const Setting& host_eager_env();    ///< TILEMPI_HOST_EAGER
const Setting& host_chunk_env();    ///< TILEMPI_HOST_CHUNK
const Setting& host_cma_env();      ///< TILEMPI_HOST_CMA
const Setting& host_deadlock_after_env();  ///< TILEMPI_HOST_DEADLOCK_AFTER (read by tilempirun)
const Setting& host_poll_yield_env();  ///< TILEMPI_HOST_POLL_YIELD
const Setting& sim_ranks_env();     ///< TILEMPI_SIM_RANKS
const Setting& sim_profile_env();   ///< TILEMPI_SIM_PROFILE
/// Every environment variable of the transport layer, in listing order.
std::vector<Setting> environment();

/// TILEMPI_HOST_EAGER for a job whose ring slots carry at most `max_bytes` of payload: the eager
/// limit in bytes, or nothing when unset. Throws tilempi::settings::Error naming the variable and
/// the job's range [0, max_bytes].
std::optional<std::uint64_t> host_eager(std::uint64_t max_bytes);
/// TILEMPI_HOST_CHUNK for an arena of `arena_bytes` per channel: the chunk size, or nothing
/// when unset. Throws tilempi::settings::Error naming the variable and the job's range.
std::optional<std::uint64_t> host_chunk(std::uint64_t arena_bytes);
/// TILEMPI_HOST_POLL_YIELD: every how many vain tests a host rank yields its core, or nothing
/// when unset. Throws tilempi::settings::Error naming the variable and its range.
std::optional<std::uint32_t> host_poll_yield();

}  // namespace tilempi::transport::settings
