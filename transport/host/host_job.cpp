// The launcher's side of a host-transport job: create the segment, describe it to the ranks,
// read the abort record, watch for a job that makes no progress, remove the name.
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends.h"
#include "host/shm_layout.h"
#include "host/waiting.h"
#include "shm/segment.h"
#include "tilempi/transport/transport_settings.h"

namespace tilempi::transport::host {

namespace {

class HostJob final : public Job {
 public:
  explicit HostJob(const JobSpec& spec) : spec_(spec) {
    name_ = shm::unique_name("tilempi");
    std::snprintf(path_, sizeof path_, "/dev/shm%s", name_.c_str());

    Geometry g = make_geometry(spec.nranks);
    // Tuning knobs for measurements (tilempi/transport/transport_settings.h), checked here so that a bad
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
      (void)settings::host_poll_yield();
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
    seg_ = Segment{reinterpret_cast<unsigned char*>(header_), g.header_bytes};
    watch_.resize(static_cast<std::size_t>(spec.nranks));
    exited_.assign(static_cast<std::size_t>(spec.nranks), false);
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
      RankPlacement t = default_placement(spec_.nranks, spec_.mesh_width, spec_.mesh_height);
      env.emplace_back(kEnvMesh, std::to_string(t.width) + "x" + std::to_string(t.height));
    }
    return env;
  }

  bool abort_record(AbortRecord& out) const override {
    return shm::read_abort(header_->abort, out);
  }

  bool rank_finalized(int rank) const override {
    if (rank < 0 || rank >= spec_.nranks) return false;
    return shared(seg_.rank_slot(rank)->finalized).load(std::memory_order_acquire) != 0;
  }

  void rank_exited(int rank, int wait_status) override {
    (void)wait_status;
    if (rank >= 0 && rank < spec_.nranks) exited_[static_cast<std::size_t>(rank)] = true;
  }

  std::optional<double> seconds_without_progress() override;
  std::string no_progress_report(double seconds) override;
  std::string where_ranks_wait() override;

  // Only async-signal-safe calls: the launcher may call this from a signal handler.
  void unlink() override {
    if (!unlinked_.exchange(true)) ::unlink(path_);
  }

 private:
  /// What the last look saw of a rank (seconds_without_progress).
  struct Watch {
    std::uint64_t naps = 0;
    std::uint64_t idle_since = 0;
    bool waiting = false;
  };
  bool waits_now(int r, Watch& w, bool& same_stretch);
  /// Asks `ranks` what they wait for; waits at most `patience_ms` for the answers. Each answer,
  /// or nothing for a rank that did not answer (it is not in a wait, or gone).
  std::vector<std::optional<std::string>> ask(const std::vector<int>& ranks, int patience_ms);
  std::string waiting_line(int r, const std::optional<std::string>& answer, std::uint64_t now);

  JobSpec spec_;
  std::string name_;
  char path_[160] = {};
  Header* header_ = nullptr;
  Segment seg_;
  std::atomic<bool> unlinked_{false};
  std::vector<Watch> watch_;
  std::vector<bool> exited_;
  std::uint64_t all_waiting_since_ = 0;  ///< the first look since which every running rank waited
};

// ---------------------------------------------------------------- a job that makes no progress
//
// Each rank says in its slot, on the way to every sleep in a wait (host_transport.cpp), since when
// it has waited with nothing to do (idle_since: the start of its current stretch) and that it
// sleeps (naps moves, sleeping), and from which bell value it was woken. A look finds a rank
// waiting when it is attached and not finalized, in a stretch, not rung since its last sleep
// began, and asleep now or asleep again since the previous look. The job makes no progress while
// every rank still running waits, look after look, in the same stretch: a message sent starts a
// new stretch at its sender (its rings moved) and rings or wakes its receiver, so nothing is in
// flight; a rank outside its waits (its own work, or a copy a peer waits for) does not sleep.

bool HostJob::waits_now(int r, Watch& w, bool& same_stretch) {
  RankSlot* s = seg_.rank_slot(r);
  const std::uint64_t naps = shared(s->naps).load(std::memory_order_acquire);
  const std::uint64_t idle = shared(s->idle_since).load(std::memory_order_relaxed);
  const bool asleep = shared(s->sleeping).load(std::memory_order_relaxed) != 0;
  const bool rung = shared(s->bell).load(std::memory_order_relaxed) != shared(s->nap_bell).load(std::memory_order_relaxed);
  const bool waiting = shared(s->attached).load(std::memory_order_acquire) != 0 &&
                       shared(s->finalized).load(std::memory_order_acquire) == 0 && idle != 0 && !rung &&
                       (asleep || naps != w.naps);
  same_stretch = w.waiting && waiting && idle == w.idle_since;
  w.naps = naps;
  w.idle_since = idle;
  w.waiting = waiting;
  return waiting;
}

std::optional<double> HostJob::seconds_without_progress() {
  const std::uint64_t now = now_ns();
  bool all = true, any = false, same = true;
  for (int r = 0; r < spec_.nranks; ++r) {
    if (exited_[static_cast<std::size_t>(r)]) continue;
    any = true;
    bool same_stretch = false;
    all = waits_now(r, watch_[static_cast<std::size_t>(r)], same_stretch) && all;
    same = same && same_stretch;
  }
  if (!any || !all) {
    all_waiting_since_ = 0;
    return 0.0;
  }
  if (all_waiting_since_ == 0 || !same) all_waiting_since_ = now;
  return static_cast<double>(now - all_waiting_since_) * 1e-9;
}

std::vector<std::optional<std::string>> HostJob::ask(const std::vector<int>& ranks, int patience_ms) {
  std::vector<std::uint32_t> req(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    RankSlot* s = seg_.rank_slot(ranks[i]);
    req[i] = shared(s->describe_req).fetch_add(1, std::memory_order_seq_cst) + 1;
    // Rung whether it sleeps or not: it looks at describe_req before it sleeps and after.
    shared(s->bell).fetch_add(1, std::memory_order_seq_cst);
    shm::futex_wake_all(&s->bell);
  }
  std::vector<std::optional<std::string>> out(ranks.size());
  auto answered = [&](std::size_t i) {
    return shared(seg_.rank_slot(ranks[i])->describe_ack).load(std::memory_order_acquire) == req[i];
  };
  for (int waited = 0; waited < patience_ms; waited += 5) {
    bool all = true;
    for (std::size_t i = 0; i < ranks.size() && all; ++i) all = answered(i);
    if (all) break;
    const timespec pause{0, 5'000'000};
    ::nanosleep(&pause, nullptr);
  }
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (!answered(i)) continue;
    char* text = seg_.description(ranks[i]);
    out[i] = std::string(text, ::strnlen(text, kDescriptionBytes - 1));
  }
  return out;
}

std::string HostJob::waiting_line(int r, const std::optional<std::string>& answer, std::uint64_t now) {
  char head[96];
  const std::uint64_t since = shared(seg_.rank_slot(r)->idle_since).load(std::memory_order_relaxed);
  // (A rank that moved since it was asked began a new stretch just now.)
  const double waited = since != 0 && since < now ? static_cast<double>(now - since) * 1e-9 : 0.0;
  std::snprintf(head, sizeof head, "\n  rank %d (waiting for %.1f s): ", r, waited);
  return head + (answer ? *answer : std::string("(did not answer)"));
}

std::string HostJob::no_progress_report(double seconds) {
  std::vector<int> waiting, finalized;
  std::string gone;
  std::uint64_t last_start = 0;
  for (int r = 0; r < spec_.nranks; ++r) {
    RankSlot* s = seg_.rank_slot(r);
    if (!exited_[static_cast<std::size_t>(r)]) {
      waiting.push_back(r);
      last_start = std::max(last_start, shared(s->idle_since).load(std::memory_order_relaxed));
    } else if (shared(s->finalized).load(std::memory_order_acquire)) {
      finalized.push_back(r);
    } else if (shared(s->attached).load(std::memory_order_acquire)) {
      gone += "\n  rank " + std::to_string(r) + ": " + kExitedWithoutFinalize;
    } else {
      gone += "\n  rank " + std::to_string(r) + ": exited without calling MPI_Init";
    }
  }
  // Nothing happened since the last rank began to wait: that is how long the job stands still.
  const std::uint64_t now = now_ns();  // (the time of the question, not of the last answer)
  if (last_start != 0 && last_start < now) seconds = std::max(seconds, static_cast<double>(now - last_start) * 1e-9);
  const auto answers = ask(waiting, 2000);
  char head[160];
  std::snprintf(head, sizeof head, "host: no progress for %.1f s: %zu rank(s) wait and nothing is in flight", seconds,
                waiting.size());
  std::string out = head;
  for (std::size_t i = 0; i < waiting.size(); ++i) out += waiting_line(waiting[i], answers[i], now);
  out += gone;
  if (!finalized.empty()) {
    out += "\n  ended after MPI_Finalize: rank";
    out += finalized.size() > 1 ? "s " : " ";
    for (std::size_t i = 0; i < finalized.size(); ++i) out += (i ? ", " : "") + std::to_string(finalized[i]);
  }
  return out;
}

std::string HostJob::where_ranks_wait() {
  std::vector<int> asked;
  std::vector<std::string> other(static_cast<std::size_t>(spec_.nranks));
  for (int r = 0; r < spec_.nranks; ++r) {
    if (exited_[static_cast<std::size_t>(r)]) continue;
    RankSlot* s = seg_.rank_slot(r);
    if (!shared(s->attached).load(std::memory_order_acquire))
      other[static_cast<std::size_t>(r)] = "running (not in MPI yet)";
    else if (shared(s->finalized).load(std::memory_order_acquire))
      other[static_cast<std::size_t>(r)] = "running (after MPI_Finalize)";
    else
      asked.push_back(r);
  }
  const std::uint64_t now = now_ns();  // (the time of the question, not of the last answer)
  const auto answers = ask(asked, 1000);
  std::string out;
  std::size_t a = 0;
  for (int r = 0; r < spec_.nranks; ++r) {
    if (exited_[static_cast<std::size_t>(r)]) continue;
    if (a < asked.size() && asked[a] == r) {
      const auto& answer = answers[a++];
      if (answer) out += waiting_line(r, answer, now);
      else out += "\n  rank " + std::to_string(r) + ": running (not waiting in MPI)";
    } else {
      out += "\n  rank " + std::to_string(r) + ": " + other[static_cast<std::size_t>(r)];
    }
  }
  return out.empty() ? out : out.substr(1);  // (without the first newline)
}

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
