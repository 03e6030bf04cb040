// The settings of one sim job, resolved and typed: what tilempirun hands the sim transport
// (JobSpec::sim) instead of a map of strings. Every field is a declared setting
// (tilempi/transport/transport_settings.h: its name, type, default, description and flag); set() is the one
// place that turns a setting's text into its field, so a flag (`--adapter namp`) and the key
// (`--set sim.adapter=namp`) are the same thing, checked the same way, with one default each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilempi::transport {

/// A task migration ordered when the job starts: rank to tile at cycle (sim.migrate, --migrate).
struct MigrationOrder {
  int rank = -1;
  int tile = -1;
  std::uint64_t at = 0;
};
/// "R:T@C[,R:T@C...]" -> orders; throws tilempi::settings::Error (sim.migrate) naming the
/// malformed order. The one reader of the orders' text (the launcher's flag, the job's header).
std::vector<MigrationOrder> parse_migrations(const std::string& text);
/// The orders as parse_migrations reads them.
std::string migrations_text(const std::vector<MigrationOrder>& orders);

/// sim.compute: how the application's work between MPI calls is charged.
struct ComputeMode {
  enum class Kind { none, model, scale };
  Kind kind = Kind::model;
  double factor = 0;  ///< scale:F
  std::string text;   ///< as given ("none", "model", "scale:0.5")
};

enum class RanksMode { automatic, contexts, processes };  ///< sim.ranks
enum class ProgressMode { automatic, on, off };           ///< sim.progress

struct SimSettings {
  /// Every field at its declared default (the declarations' default_value, parsed by set()).
  SimSettings();

  std::string preset;                         ///< sim.preset
  std::string adapter;                        ///< sim.adapter
  ComputeMode compute;                        ///< sim.compute
  std::string report;                         ///< sim.report; empty: none
  std::string trace;                          ///< sim.trace; empty: none
  std::string config_file;                    ///< sim.config; empty: none
  std::string config_text;                    ///< its contents, read once when it was set
  std::vector<MigrationOrder> migrations;     ///< sim.migrate
  std::optional<std::uint64_t> arena_mib;     ///< sim.arena_mib; unset: the rule of its declaration
  std::optional<RanksMode> ranks;             ///< sim.ranks; unset: TILEMPI_SIM_RANKS, else auto
  std::uint64_t stack_kib = 0;                ///< sim.stack_kib
  bool summary = true;                        ///< sim.summary
  ProgressMode progress = ProgressMode::automatic;  ///< sim.progress
  /// Chip and adapter keys (--set KEY=VALUE), in the order given; each checked as it was set
  /// (adapter keys by the adapter when the job is created).
  std::vector<std::pair<std::string, std::string>> chip_keys;
  /// The settings the user gave (a job on the host transport says it ignores them).
  std::vector<std::string> given;

  /// Sets one setting: a sim.* key through its declaration, any other key as a chip or adapter
  /// key. Throws tilempi::settings::Error naming the key and the value (hwmodel::ConfigError for
  /// a chip key or an unknown preset or adapter).
  void set(const std::string& key, const std::string& value);
  /// The rules of the defaults that depend on the job or the session, as their declarations say:
  /// sim.arena_mib (160 up to 16 ranks, else 64) and sim.ranks (TILEMPI_SIM_RANKS, else auto;
  /// throws tilempi::settings::Error for a bad variable).
  std::uint64_t arena_mib_for(int nranks) const;
  RanksMode ranks_mode() const;
};

}  // namespace tilempi::transport
