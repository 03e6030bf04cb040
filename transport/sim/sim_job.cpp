// The launcher's side of a sim-transport job: build the chip's config from the command line,
// create the shared segment, run the simulation engine, write the report at the end.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends.h"
#ifdef TILEMPI_HAVE_CONTEXTS
#include "sim/placement.h"
#include "sim/program_image.h"
#endif
#include "sim/segment_ranks.h"
#include "sim/sim_ids.h"
#include "sim/sim_shm.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/core_model.h"
#include "tilempi/transport/transport_settings.h"
#include "tilempi/transport/rank_placement.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

namespace {

/// tilempirun --migrate: every order names a rank of the job and a tile of the chip, and the
/// tile is free when the order acts (the orders played in cycle order over the placement).
/// The engine checks again at run time (a migration still in progress may hold a tile).
void check_migrations(const std::vector<MigrationOrder>& orders, const hw::Config& cfg, std::vector<hw::TileId> tiles) {
  std::vector<MigrationOrder> by_time = orders;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const MigrationOrder& a, const MigrationOrder& b) { return a.at < b.at; });
  const int chip_tiles = cfg.width * cfg.height;
  for (const MigrationOrder& o : by_time) {
    const std::string what = "--migrate " + std::to_string(o.rank) + ":" + std::to_string(o.tile) + "@" +
                             std::to_string(o.at) + ": ";
    if (o.rank >= static_cast<int>(tiles.size()))
      throw std::runtime_error(what + "rank " + std::to_string(o.rank) + " does not exist (" +
                               std::to_string(tiles.size()) + " ranks)");
    if (o.tile >= chip_tiles)
      throw std::runtime_error(what + "tile " + std::to_string(o.tile) + " is not on the " + std::to_string(cfg.width) +
                               "x" + std::to_string(cfg.height) + " chip");
    for (std::size_t r = 0; r < tiles.size(); ++r)
      if (tiles[r] == static_cast<hw::TileId>(o.tile))
        throw std::runtime_error(what + "tile " + std::to_string(o.tile) + " holds rank " + std::to_string(r) +
                                 (static_cast<int>(r) == o.rank ? " itself" : ""));
    tiles[static_cast<std::size_t>(o.rank)] = static_cast<hw::TileId>(o.tile);
  }
}

class SimJob final : public Job {
 public:
  explicit SimJob(const JobSpec& spec) {
    const int n = spec.nranks;
    // The one limit of the ids (sim_ids.h): a one-sided operation's id holds its rank in 16 bits.
    // Beyond that, memory decides (docs/SIM.md, "Ranks as contexts").
    if (n > (1 << RankOperationIds::kRankBits))
      throw std::runtime_error("the sim transport supports at most " + std::to_string(1 << RankOperationIds::kRankBits) +
                               " ranks (a one-sided operation's id holds its rank in " +
                               std::to_string(RankOperationIds::kRankBits) + " bits, sim_ids.h)");
    // ---- the chip
    // Every setting arrives resolved and checked (spec.sim, job_settings.h); the rules that depend
    // on the job are applied here, as their declarations say (tilempi/transport/transport_settings.h).
    namespace ts = tilempi::transport::settings;
    const SimSettings& set = spec.sim;
    const std::uint64_t arena_mib = set.arena_mib_for(n);
    const RanksMode ranks_mode = set.ranks_mode();
    (void)tilempi::settings::env_boolean(ts::sim_profile_env());  // a bad value is the launcher's usage error
    // The chip: the preset, then the config file, then the --set keys (each throws
    // tilempi::settings::Error, which the launcher reports as a usage error).
    hw::Config cfg = hw::Config::preset_named(set.preset);
    std::vector<std::string> user_keys;  // the chip keys the user set (--config, --set)
    if (!set.config_file.empty()) user_keys = cfg.apply_text(set.config_text, set.config_file);
    for (const auto& [key, value] : set.chip_keys) {
      cfg.set(key, value);
      user_keys.push_back(key);
    }
    const auto user_set = [&](const char* key) {
      return std::find(user_keys.begin(), user_keys.end(), key) != user_keys.end();
    };
    // A setting the chip model ignores is said once, by the launcher, as tilempi-noc says it;
    // only settings the user made: a preset's own values are not the user's to act on, and the
    // network model that ignores them is a choice, not a mistake.
    for (const std::string& w : cfg.ignored_settings())
      for (const std::string& k : user_keys)
        if (!k.empty() && k != "network_model" && w.find(k) != std::string::npos) {
          std::fprintf(stderr, "tilempirun: warning: %s\n", w.c_str());
          break;
        }
    // One-step worms give the same packet cycles as flit-by-flit simulation at a fraction of
    // the cost (docs/HWMODEL.md); they need one VC. An explicit setting wins.
    if (!user_set("fast_worms") && cfg.vcs == 1) cfg.fast_worms = true;
    const RankPlacement grid = default_placement(n, spec.mesh_width, spec.mesh_height);
    // A rank grid larger than the preset's mesh grows the chip (documented in docs/SIM.md).
    if (grid.width > cfg.width) cfg.width = grid.width;
    if (grid.height > cfg.height) cfg.height = grid.height;
    cfg.validate();
    const std::vector<hw::TileId> tiles = place_ranks(cfg, n, spec.mesh_width, spec.mesh_height, user_set("mapping"));
    const std::vector<MigrationOrder>& migrations = set.migrations;
    const std::string migrate_text = migrations_text(migrations);
    if (migrate_text.size() >= sizeof(Header::migrations)) throw std::runtime_error("--migrate: too many orders");
    check_migrations(migrations, cfg, tiles);
    const std::string& adapter = set.adapter;
    if (!hw::adapter::Adapter::create(adapter, cfg)->migration() && !migrations.empty())
      throw std::runtime_error("--migrate: the " + adapter + " adapter cannot move a task (task migration, [Wallentowitz "
                               "2018] §3.6, is modeled for --adapter namp)");
    std::string compute = set.compute.text;
    double scale = 0;
    bool scaled = false;
    bool compute_model = false;
    if (set.compute.kind == ComputeMode::Kind::scale) {
      scale = set.compute.factor;
      scaled = true;
    } else if (set.compute.kind == ComputeMode::Kind::model) {
      // The tile core's speed against this host's, measured now (hwmodel/core_model.h): the
      // scale is the factor from host compute time to tile compute time.
      const hw::CoreRatio r = hw::core_ratio(cfg, hw::measure_host_speed());
      scale = r.ratio;
      scaled = true;
      compute_model = true;
      compute = hw::describe(r);
    }
    const std::string text = cfg.to_text();
    if (text.size() >= sizeof(Header::config)) throw std::runtime_error("the chip config is too long for the sim job");
    choose_ranks_mode(spec, ranks_mode);

    // ---- the segment
    name_ = shm::unique_name("tilempi-sim");
    // Ranks as contexts share no memory with the launcher but the header: their rings and
    // arenas live in the simulator process.
    const Geometry g = make_geometry(n, arena_mib << 20, /*with_rings=*/!contexts_);
    void* p = shm::create_segment(name_, g.total_bytes, g.total_bytes);
    seg_.base = static_cast<unsigned char*>(p);
    seg_.bytes = g.total_bytes;
    seg_.g = g;
    Header* h = seg_.header();
    h->version = kVersion;
    h->nranks = n;
    h->arena_bytes = contexts_ ? round_up(arena_mib << 20, kPage) : g.arena_bytes;
    h->total_bytes = g.total_bytes;
    std::snprintf(h->name, sizeof h->name, "%s", name_.c_str());
    std::memcpy(h->config, text.data(), text.size());
    h->config_len = static_cast<std::uint32_t>(text.size());
    std::snprintf(h->adapter, sizeof h->adapter, "%s", adapter.c_str());
    h->compute_scaled = scaled ? 1 : 0;
    h->compute_scale = scale;
    h->compute_model = compute_model ? 1 : 0;
    std::copy(tiles.begin(), tiles.end(), tile_table(h));
    std::snprintf(h->migrations, sizeof h->migrations, "%s", migrate_text.c_str());
    h->contexts = contexts_ ? 1 : 0;
    h->stack_kib = static_cast<std::uint32_t>(set.stack_kib);
    h->summary = set.summary ? 1 : 0;
    // (decided here, where stderr is the user's: the simulator process writes into a pipe)
    const bool progress = set.progress == ProgressMode::on ||
                          (set.progress == ProgressMode::automatic && ::isatty(STDERR_FILENO));
    h->progress = progress ? 1 : 0;
    std::snprintf(h->report_path, sizeof h->report_path, "%s", set.report.c_str());
    std::snprintf(h->trace_path, sizeof h->trace_path, "%s", set.trace.c_str());
    std::snprintf(h->compute, sizeof h->compute, "%s", compute.c_str());
    if (set.report.size() >= sizeof h->report_path || set.trace.size() >= sizeof h->trace_path) {
      unlink();
      throw std::runtime_error("--report or --trace: path too long");
    }
    shared(h->magic).store(kMagic, std::memory_order_release);
    if (contexts_) return;  // the engine runs in the simulator process

    EngineOptions eo;
    eo.report_path = set.report;
    eo.trace_path = set.trace;
    eo.compute = compute;
    eo.summary = set.summary;
    eo.progress = progress;
    eo.migrations = migrations;
    try {
      engine_ = std::make_unique<SegmentRanks>(seg_, n, cfg, adapter, tiles, eo);
    } catch (...) {
      unlink();
      ::munmap(seg_.base, seg_.bytes);
      seg_.base = nullptr;
      throw;
    }
  }

  ~SimJob() override {
    if (engine_) engine_.reset();
    unlink();
    if (seg_.base) ::munmap(seg_.base, seg_.bytes);
  }

  std::vector<std::pair<std::string, std::string>> environment() const override {
    std::vector<std::pair<std::string, std::string>> env{{kEnvJob, name_}};
    if (contexts_ && !tunables_.empty()) env.emplace_back("GLIBC_TUNABLES", tunables_);
    // A modeled tile core runs one thread, as a rank context does (context_job.cpp): a rank
    // process's OpenMP regions too, or its threads would add to its operation counter at once and
    // lose increments (counts, hence virtual times, would change from run to run).
    if (!contexts_)
      if (const char* omp = std::getenv("OMP_NUM_THREADS"); !omp || !*omp) env.emplace_back("OMP_NUM_THREADS", "1");
    return env;
  }

  void start() override {
    if (engine_) engine_->start();
  }
  std::string rank_host() const override { return contexts_ ? host_ : std::string(); }
  std::string notice() const override { return notice_; }

  bool rank_finalized(int rank) const override {
    if (contexts_ || rank < 0 || rank >= seg_.header()->nranks) return false;
    return shared(seg_.ctl(rank)->finalized).load(std::memory_order_acquire) != 0;
  }

  void rank_exited(int rank, int status) override {
    // A nonzero status after MPI_Finalize fails the job (the launcher says so) but is no failure
    // of the simulation: the rank said goodbye.
    const bool ok = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || rank_finalized(rank));
    if (engine_) engine_->rank_exited(rank, ok);
  }

  bool abort_record(AbortRecord& out) const override {
    Header* h = seg_.header();
    return shm::read_abort(h->abort, out);
  }

  // --timeout: where every rank was. With ranks as processes the engine runs in a thread of this
  // launcher and answers here; ranks as contexts have the simulator process say it as it ends
  // (context_job.cpp, Scheduler::end_terminated).
  std::string where_ranks_wait() override { return engine_ ? engine_->where_ranks_are() : std::string(); }
  void ending_by_launcher() override {
    if (engine_) engine_->ending_by_launcher();
  }

  std::string finish() override {
    if (engine_) return engine_->finish();
    // Ranks as contexts: the simulator process wrote why it failed the job, if it did.
    Header* h = seg_.header();
    if (shared(h->failure_state).load(std::memory_order_acquire) != 2) return {};
    h->failure[sizeof h->failure - 1] = 0;
    return h->failure;
  }

  void unlink() override {
    if (!seg_.base) return;
    shm::unlink_once(seg_.header()->unlinked, name_.c_str());
  }

 private:
  /// Ranks as contexts (one simulator process) or as processes: sim.ranks=auto picks contexts
  /// when the program can be loaded once per rank and says why when it cannot.
  void choose_ranks_mode(const JobSpec& spec, RanksMode mode) {
    if (mode == RanksMode::processes) return;
    std::string why;
#ifdef TILEMPI_HAVE_CONTEXTS
    host_ = simulator_program();
    if (host_.empty()) why = "the simulator program tilempi-simhost is not installed beside tilempirun";
    std::optional<ProgramImage> image;
    // The ranks' copies must share the simulator's one libtilempi.so (rank_local.h). Asked first:
    // a static libtilempi brings thread-local variables of its own, and "link libtilempi.so" is
    // the remedy a user can act on, not the TLS refusal that would otherwise come first.
    auto links_shared_library = [](const ProgramImage& im) {
      for (const std::string& lib : im.needed())
        if (lib.rfind("libtilempi.so", 0) == 0) return true;
      return false;
    };
    const char* const static_library =
        "it does not link libtilempi.so (a static libtilempi cannot share the simulator; a wrapper such as env, sh, "
        "time or valgrind starts the MPI program in a process of its own)";
    if (why.empty()) {
      ProgramImage::Options look;
      look.allow_tls = true;
      look.need_main = false;
      std::string ignored;
      if (auto peek = ProgramImage::inspect(spec.program, ignored, look); peek && !links_shared_library(*peek))
        why = static_library;
    }
    if (why.empty()) image = ProgramImage::inspect(spec.program, why);
    if (image) {
      if (!links_shared_library(*image)) why = static_library;
      for (const std::string& lib : image->needed())
        if (lib.find("libasan") != std::string::npos || lib.find("libtsan") != std::string::npos)
          why = "it is built with a sanitizer (" + lib + ")";
      // The ranks as contexts share the simulator's one stdout and stderr, so their lines cannot be
      // told apart: tagging needs a process per rank, asked for (auto) or not (refused by name).
      if (why.empty() && spec.tag_output) why = "--tag-output needs a process per rank";
      if (why.empty() && spec.output_per_rank) why = "each rank's output goes to a file of its own, from a process of its own";
      if (why.empty() && spec.several_programs) why = "the job runs several programs (':'), one per process";
      if (why.empty() && image->has_static_tls()) {
        // Each copy takes its thread-local variables from glibc's reserve of static TLS.
        const std::uint64_t per_copy = round_up(image->tls_bytes() + 64, 64);
        tunables_ = "glibc.rtld.optional_static_tls=" + std::to_string(per_copy * static_cast<std::uint64_t>(spec.nranks) + 4096);
        if (const char* t = std::getenv("GLIBC_TUNABLES"); t && *t) tunables_ = std::string(t) + ":" + tunables_;
      }
    }
#else
    why = "this build has no ranks as contexts";
#endif
    if (why.empty()) {
      contexts_ = true;
      return;
    }
    if (mode == RanksMode::contexts) throw std::runtime_error("sim.ranks=contexts: " + spec.program + " cannot run as contexts: " + why);
    notice_ = "sim: ranks run as processes: " + why;
  }

  /// tilempi-simhost beside the running launcher, or empty.
  static std::string simulator_program() {
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return {};
    std::string dir(self, static_cast<std::size_t>(n));
    dir = dir.substr(0, dir.rfind('/'));
    const std::string path = dir + "/tilempi-simhost";
    return ::access(path.c_str(), X_OK) == 0 ? path : std::string();
  }

  std::string name_;
  Segment seg_;
  std::unique_ptr<SegmentRanks> engine_;
  bool contexts_ = false;
  std::string host_;
  std::string notice_;
  std::string tunables_;
};

}  // namespace

std::unique_ptr<Job> create_job(const JobSpec& spec) { return std::make_unique<SimJob>(spec); }

}  // namespace tilempi::transport::sim
