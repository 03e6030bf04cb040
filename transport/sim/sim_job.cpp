// The launcher's side of a sim-transport job: build the chip's config from the command line,
// create the shared segment, run the simulation engine, write the report at the end.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>

#include "backends.h"
#include "sim/sim_engine.h"
#include "sim/sim_shm.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/transport/topology.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

namespace {

std::string option(const JobSpec& spec, const std::string& key, const std::string& def) {
  auto it = spec.options.find(key);
  return it == spec.options.end() || it->second.empty() ? def : it->second;
}

class SimJob final : public Job {
 public:
  explicit SimJob(const JobSpec& spec) {
    const int n = spec.nranks;
    if (n > 4096) throw std::runtime_error("the sim transport supports at most 4096 ranks");
    // ---- the chip
    hw::Config cfg;
    // Virtual size: tmpfs backs only the pages a job touches. Room for the largest messages of
    // small jobs (tests send 64 MiB between two ranks).
    std::uint64_t arena_mib = n <= 16 ? 160 : 64;
    bool summary = true;
    bool mapping_set = false;
    bool worms_set = false;
    try {
      cfg = hw::Config::preset_named(option(spec, "preset", "tilepro64"));
      const std::string file = option(spec, "config", "");
      if (!file.empty()) {
        cfg.apply_file(file);
        std::ifstream in(file);
        std::string line;
        while (std::getline(in, line)) worms_set = worms_set || line.find("fast_worms") != std::string::npos;
      }
      for (const auto& [key, value] : spec.options) {
        if (key.rfind("set.", 0) != 0) continue;
        const std::string k = key.substr(4);
        if (k == "sim.arena_mib") {
          arena_mib = std::strtoull(value.c_str(), nullptr, 10);
          if (arena_mib < 1 || arena_mib > 65536)
            throw hw::ConfigError(k, "config key 'sim.arena_mib': bad value '" + value + "': 1..65536");
          continue;
        }
        if (k == "sim.summary") {
          summary = value != "0" && value != "false" && value != "off";
          continue;
        }
        if (k == "mapping") mapping_set = true;
        if (k == "fast_worms") worms_set = true;
        cfg.set(k, value);
      }
    } catch (const hw::ConfigError& e) {
      throw std::runtime_error(e.what());
    }
    // One-step worms give the same packet cycles as flit-by-flit simulation at a fraction of
    // the cost (docs/HWMODEL.md); they need one VC. An explicit setting wins.
    if (!worms_set && cfg.vcs == 1) cfg.fast_worms = true;
    const Topology topo = default_topology(n, spec.mesh_width, spec.mesh_height);
    // A rank grid larger than the preset's mesh grows the chip (documented in docs/SIM.md).
    if (topo.width > cfg.width) cfg.width = topo.width;
    if (topo.height > cfg.height) cfg.height = topo.height;
    try {
      cfg.validate();
    } catch (const hw::ConfigError& e) {
      throw std::runtime_error(e.what());
    }
    std::vector<hw::TileId> tiles(static_cast<std::size_t>(n));
    if (mapping_set) {
      try {
        hw::RankMap map = hw::make_rank_map(cfg, n);
        for (int r = 0; r < n; ++r) tiles[static_cast<std::size_t>(r)] = map.tile_of(r);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("config key 'mapping': ") + e.what());
      }
    } else {
      for (int r = 0; r < n; ++r)
        tiles[static_cast<std::size_t>(r)] = topo.coord[static_cast<std::size_t>(r)].y * cfg.width +
                                             topo.coord[static_cast<std::size_t>(r)].x;
    }
    const std::string adapter = option(spec, "adapter", "udn");
    try {
      (void)hw::adapter::Adapter::create(adapter, cfg);
    } catch (const hw::ConfigError& e) {
      throw std::runtime_error(e.what());
    }
    const std::string compute = option(spec, "compute", "none");
    double scale = 0;
    bool scaled = false;
    if (compute.rfind("scale:", 0) == 0) {
      char* end = nullptr;
      scale = std::strtod(compute.c_str() + 6, &end);
      if (!end || *end || scale < 0) throw std::runtime_error("--compute " + compute + ": expected none or scale:F");
      scaled = true;
    } else if (compute != "none") {
      throw std::runtime_error("--compute " + compute + ": expected none or scale:F");
    }
    const std::string text = cfg.to_text();
    if (text.size() >= sizeof(Header::config)) throw std::runtime_error("the chip config is too long for the sim job");

    // ---- the segment
    std::random_device rd;
    char name[96];
    std::snprintf(name, sizeof name, "/tilempi-sim-%d-%08x%08x", static_cast<int>(::getpid()), rd(), rd());
    name_ = name;
    const Geometry g = make_geometry(n, arena_mib << 20);
    int fd = ::shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) throw std::runtime_error(std::string("cannot create shared memory ") + name + ": " + std::strerror(errno));
    if (::ftruncate(fd, static_cast<off_t>(g.total_bytes)) != 0) {
      int e = errno;
      ::close(fd);
      ::shm_unlink(name);
      throw std::runtime_error(std::string("cannot size shared memory: ") + std::strerror(e));
    }
    void* p = ::mmap(nullptr, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    ::close(fd);
    if (p == MAP_FAILED) {
      ::shm_unlink(name);
      throw std::runtime_error(std::string("cannot map shared memory: ") + std::strerror(e));
    }
    seg_.base = static_cast<unsigned char*>(p);
    seg_.bytes = g.total_bytes;
    seg_.g = g;
    Header* h = seg_.header();
    h->version = kVersion;
    h->nranks = n;
    h->arena_bytes = g.arena_bytes;
    h->total_bytes = g.total_bytes;
    std::snprintf(h->name, sizeof h->name, "%s", name);
    std::memcpy(h->config, text.data(), text.size());
    h->config_len = static_cast<std::uint32_t>(text.size());
    std::snprintf(h->adapter, sizeof h->adapter, "%s", adapter.c_str());
    h->compute_scaled = scaled ? 1 : 0;
    h->compute_scale = scale;
    h->mesh_width = topo.width;
    h->mesh_height = topo.height;
    h->chip_width = cfg.width;
    for (int r = 0; r < n; ++r) h->tile_of[r] = tiles[static_cast<std::size_t>(r)];
    shared(h->magic).store(kMagic, std::memory_order_release);

    EngineOptions eo;
    eo.report_path = option(spec, "report", "");
    eo.trace_path = option(spec, "trace", "");
    eo.compute = compute;
    eo.summary = summary;
    try {
      engine_ = std::make_unique<Engine>(seg_, n, cfg, adapter, tiles, eo);
    } catch (...) {
      unlink();
      ::munmap(seg_.base, seg_.bytes);
      seg_.base = nullptr;
      throw;
    }
  }

  ~SimJob() override {
    engine_.reset();
    unlink();
    if (seg_.base) ::munmap(seg_.base, seg_.bytes);
  }

  std::vector<std::pair<std::string, std::string>> environment() const override { return {{kEnvJob, name_}}; }

  void start() override { engine_->start(); }

  void rank_exited(int rank, int status) override {
    engine_->rank_exited(rank, WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }

  bool abort_record(AbortRecord& out) const override {
    Header* h = seg_.header();
    if (shared(h->abort_state).load(std::memory_order_acquire) != 2) return false;
    out.rank = h->abort_rank;
    out.code = h->abort_code;
    out.why = h->abort_why;
    return true;
  }

  std::string finish() override { return engine_->finish(); }

  void unlink() override {
    if (!seg_.base) return;
    if (shared(seg_.header()->unlinked).exchange(1) == 0) ::shm_unlink(name_.c_str());
  }

 private:
  std::string name_;
  Segment seg_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace

std::unique_ptr<Job> create_job(const JobSpec& spec) { return std::make_unique<SimJob>(spec); }

}  // namespace tilempi::transport::sim
