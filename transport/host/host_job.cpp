// The launcher's side of a host-transport job: create the segment, describe it to the ranks,
// read the abort record, remove the name.
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backends.h"
#include "host/shm_layout.h"
#include "shm/segment.h"
#include "tilempi/transport/settings.h"

namespace tilempi::transport::host {

namespace {

class HostJob final : public Job {
 public:
  explicit HostJob(const JobSpec& spec) : spec_(spec) {
    name_ = shm::unique_name("tilempi");
    std::snprintf(path_, sizeof path_, "/dev/shm%s", name_.c_str());

    Geometry g = make_geometry(spec.nranks);
    // Tuning knobs for measurements (tilempi/transport/settings.h), checked here so that a bad
    // value ends the job before it starts: the arena's chunk size (a power of two, at most half
    // the arena) and the eager limit (read again by each rank, which may have it from -x).
    try {
      const std::uint64_t arena = g.arena_chunk * g.arena_chunks;
      if (auto v = settings::host_chunk(arena)) {
        g.arena_chunk = *v;
        g.arena_chunks = arena / *v;
      }
      (void)settings::host_eager(g.ring_bytes / 4 - kSlotPayloadOffset);
      (void)tilempi::settings::env_boolean(settings::host_cma_env());
    } catch (const tilempi::settings::Error&) {
      throw;  // a bad setting: the launcher says so as a usage error
    }
    // Every rank maps the whole segment (its size grows with the square of the rank count): a
    // job that cannot fit in a process's address space is refused before anything starts.
    {
      std::uint64_t space = 1ull << 47;  // x86-64 user address space
      rlimit as{};
      if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) space = std::min<std::uint64_t>(space, as.rlim_cur);
      if (g.total_bytes > space / 2)
        throw std::runtime_error("tilempi: " + std::to_string(spec.nranks) + " host ranks need a " +
                                 std::to_string(g.total_bytes >> 30) + " GiB shared segment mapped by every rank, more "
                                 "than half of a process's address space (" + std::to_string(space >> 30) +
                                 " GiB); run fewer ranks on host, or the job on --transport sim");
    }
    // The launcher maps only the header: the ranks' blocks are theirs.
    void* p = nullptr;
    try {
      p = shm::create_segment(name_, g.total_bytes, g.header_bytes);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("tilempi: ") + e.what());
    }
    header_ = static_cast<Header*>(p);
    header_->version = kLayoutVersion;
    header_->nranks = spec.nranks;
    header_->geometry = g;
    header_->launcher_pid = static_cast<int>(::getpid());
    std::snprintf(header_->name, sizeof header_->name, "%s", name_.c_str());
    // Ranks check the magic last: it publishes the fields above.
    shared(header_->magic).store(kMagic, std::memory_order_release);
  }

  ~HostJob() override {
    unlink();
    if (header_) ::munmap(header_, header_->geometry.header_bytes);
  }

  std::vector<std::pair<std::string, std::string>> environment() const override {
    std::vector<std::pair<std::string, std::string>> env;
    env.emplace_back(kEnvJob, name_);
    env.emplace_back(kEnvSize, std::to_string(spec_.nranks));
    env.emplace_back(kEnvTransport, "host");
    env.emplace_back(kEnvBind, spec_.bind ? "core" : "none");
    if (spec_.mesh_width > 0 || spec_.mesh_height > 0) {
      Topology t = default_topology(spec_.nranks, spec_.mesh_width, spec_.mesh_height);
      env.emplace_back(kEnvMesh, std::to_string(t.width) + "x" + std::to_string(t.height));
    }
    return env;
  }

  bool abort_record(AbortRecord& out) const override {
    return shm::read_abort(header_->abort, out);
  }

  // Only async-signal-safe calls: the launcher may call this from a signal handler.
  void unlink() override {
    if (!unlinked_.exchange(true)) ::unlink(path_);
  }

 private:
  JobSpec spec_;
  std::string name_;
  char path_[160] = {};
  Header* header_ = nullptr;
  std::atomic<bool> unlinked_{false};
};

}  // namespace

std::unique_ptr<Job> create_job(const JobSpec& spec) {
  if (spec.nranks < 1) throw std::runtime_error("tilempi: a job needs at least one rank");
  if (spec.mesh_width > 0 && spec.mesh_height > 0 && spec.mesh_width * spec.mesh_height < spec.nranks)
    throw std::runtime_error("tilempi: a " + std::to_string(spec.mesh_width) + "x" +
                             std::to_string(spec.mesh_height) + " mesh cannot hold " +
                             std::to_string(spec.nranks) + " ranks");
  return std::make_unique<HostJob>(spec);
}

}  // namespace tilempi::transport::host
