// Ranks as contexts: the simulator process. One thread runs everything, in a deterministic
// order: a scheduler loop (the "maestro", on the process's own stack) and one user-level context
// per rank, each running main() of a private copy of the program's image (program_image.h).
//
// The scheduler keeps the conservative synchronization of the sim engine (sim_engine.h), with
// the rank clocks read directly instead of through shared memory: the runnable rank with the
// smallest clock c runs next; before it does, the engine simulates every cycle up to
// c + L - 1 (L = the adapter's lookahead), which no request still to come can touch. A rank
// runs until it must wait: for the horizon (its clock passed what the engine has simulated: it
// goes back to the ready queue), or for an event (it blocks, and the engine wakes it at the
// event's cycle). No futex, no horizon wait across processes, no engine thread: a hand-off is a
// context switch of a few nanoseconds. Virtual times are those of ranks as processes.
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends.h"
#include "sim/context_crash.h"
#include "sim/context_termination.h"
#include "tilempi/transport/termination.h"
#include "tilempi/transport/context.h"
#include "sim/engine_link.h"
#include "sim/program_image.h"
#include "sim/rank_variables.h"
#include "sim/sim_engine.h"
#include "sim/sim_shm.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/transport/contexts.h"
#include "tilempi/transport/job.h"
#include "tilempi/transport/rank_local.h"
#include "tilempi/transport/transport_settings.h"

extern char** environ;

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

namespace {

/// Leaves the process at once, whatever the ranks interposed (exit and _exit are, for ranks).
[[noreturn]] void exit_process(int status) {
  std::fflush(nullptr);
  ::syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

enum class SlotState { Ready, Running, Blocking, Blocked, Ended };

struct Slot {
  int rank = 0;
  std::unique_ptr<Context> ctx;
  LoadedCopy copy;
  SlotState state = SlotState::Ready;
  std::uint64_t clock = 0;  ///< the rank's published clock
  std::uint64_t wake = 0;   ///< the clock a blocked rank resumes at
  std::vector<EngineEvent> inbox;
  EventSink* sink = nullptr;  ///< the rank's own queue, once its transport gave it (deliver_to)
  std::function<std::string()> describer;
  const char* last_call = nullptr;
  int saved_errno = 0;
  int status = 0;
  std::vector<std::string> arg_store;
  std::vector<char*> argv;
};

class Scheduler;
Scheduler* g_scheduler = nullptr;
Slot* g_running = nullptr;  ///< the rank whose code runs now (null: the scheduler)

class Scheduler final : public RankSink {
 public:
  int run(int argc, char** argv);

  // RankSink
  void deliver(int r, const EngineEvent& e) override {
    Slot& s = slots_[static_cast<std::size_t>(r)];
    if (s.sink) s.sink->take(e);
    else s.inbox.push_back(e);
  }
  void woken(int r, std::uint64_t at) override {
    Slot& s = slots_[static_cast<std::size_t>(r)];
    s.wake = at;
    s.clock = at;
    s.state = SlotState::Ready;
    ready_.push({at, r});
  }
  const unsigned char* arena(int r) const override { return arena_of(r); }
  std::uint64_t clock_of(int r) const override { return slots_[static_cast<std::size_t>(r)].clock; }
  std::string describe(int r) override {
    Slot& s = slots_[static_cast<std::size_t>(r)];
    if (!s.describer) return "(no description)";
    const int before = current_rank_slot();
    set_current_rank_slot(r);
    std::string d = s.describer();
    set_current_rank_slot(before);
    return d;
  }

  // ---- what the ranks' links call
  SimEngine& engine() { return *engine_; }
  const JobFacts& facts() const { return facts_; }
  unsigned char* arena_of(int r) const { return arenas_ + arena_bytes_ * static_cast<std::uint64_t>(r); }
  std::uint64_t arena_bytes() const override { return arena_bytes_; }
  std::uint64_t horizon() const { return horizon_; }
  Header* header() const { return header_; }

  /// The running rank waits for the horizon: back to the ready queue at its clock.
  void yield_ready(Slot& s) {
    s.state = SlotState::Ready;
    to_scheduler(s);
  }
  /// A request of the running rank: the engine takes it once the rank is switched out, on the
  /// scheduler's stack (take_posted), not deep below the rank's frames on its own, whose lines
  /// are cold at every visit in a large job. Nothing of the engine runs while a rank does, so
  /// it sees the requests in the same order either way.
  void post(const EngineRequest& q) { posted_.push_back(q); }
  /// The running rank asks to block (BLOCK request q, after the ones it posted): taken on the
  /// scheduler's stack; returns the clock it resumes at, woken or left running (q.time) when it
  /// has events it has not seen.
  std::uint64_t yield_blocked(Slot& s, const EngineRequest& q) {
    posted_.push_back(q);
    s.wake = q.time;
    s.state = SlotState::Blocking;
    to_scheduler(s);
    return s.wake;
  }
  [[noreturn]] void end(Slot& s, int status) {
    s.status = status;
    s.state = SlotState::Ended;
    take_posted(s.rank);  // (its goodbye comes before its end)
    engine_->rank_ended(s.rank, s.clock);
    to_scheduler(s);
    std::abort();  // an ended rank is never resumed
  }
  [[noreturn]] void fail(Slot& s, const std::string& why) {
    set_failure("rank " + std::to_string(s.rank) + ": " + why);
    exit_process(1);
  }
  void set_failure(const std::string& text) {
    Header* h = header_;
    std::uint32_t expected = 0;
    if (!shared(h->failure_state).compare_exchange_strong(expected, 1)) return;
    std::snprintf(h->failure, sizeof h->failure, "%s", text.c_str());
    shared(h->failure_state).store(2, std::memory_order_release);
  }

  std::size_t stack_bytes() const { return stack_bytes_; }

 private:
  void to_scheduler(Slot& s) {
    s.saved_errno = errno;
    g_running = nullptr;
    Context::switch_to(*s.ctx, maestro_);
    errno = s.saved_errno;
  }
  void resume(Slot& s);
  /// The engine takes the requests rank r posted while it ran, in order.
  void take_posted(int r) {
    for (const EngineRequest& q : posted_) engine_->take(r, q);
    posted_.clear();
  }
  void attach_job();
  void load_ranks(ProgramImage& image, int argc, char** argv);
  void give_stdin_to_rank_zero();
  std::string loop();
  [[noreturn]] void end_terminated(int sig);

  Header* header_ = nullptr;
  int n_ = 0;
  JobFacts facts_;
  std::unique_ptr<SimEngine> engine_;
  std::vector<Slot> slots_;
  std::priority_queue<std::pair<std::uint64_t, int>, std::vector<std::pair<std::uint64_t, int>>,
                      std::greater<>>
      ready_;
  std::uint64_t horizon_ = 0;
  Context maestro_;
  unsigned char* arenas_ = nullptr;
  std::uint64_t arena_bytes_ = 0;
  std::size_t stack_bytes_ = 0;
  int failed_status_ = 0;
  std::string late_exit_;  // the first rank that failed after MPI_Finalize (the launcher says it)
  std::string notes_;
  std::uint64_t switches_ = 0;
  RankVariables variables_;
  std::vector<EngineRequest> posted_;  ///< by the running rank, not taken yet (post)
};

// ------------------------------------------------------------------ a rank's link

class ContextLink final : public EngineLink {
 public:
  ContextLink(Scheduler& s, Slot& slot) : s_(s), slot_(slot) {}

  const JobFacts& facts() const override { return s_.facts(); }
  unsigned char* arena(int r) const override { return s_.arena_of(r); }
  std::uint64_t arena_bytes() const override { return s_.arena_bytes(); }
  std::uint64_t initial_clock() const override { return slot_.clock; }

  void post(const EngineRequest& q) override { s_.post(q); }
  std::uint64_t horizon() const override { return s_.horizon(); }
  void take_events(std::vector<EngineEvent>& into) override {
    if (slot_.inbox.empty()) return;
    if (into.empty()) {  // (the usual case: the rank's own vector, empty, changes places with the inbox)
      into.swap(slot_.inbox);
      return;
    }
    into.insert(into.end(), slot_.inbox.begin(), slot_.inbox.end());
    slot_.inbox.clear();
  }
  const std::vector<EngineEvent>* local_inbox() const override { return &slot_.inbox; }
  void clear_local_inbox() override { slot_.inbox.clear(); }
  bool deliver_to(EventSink* sink) override {
    slot_.sink = sink;
    return true;
  }
  void publish_clock(std::uint64_t clock) override { slot_.clock = clock; }
  void sync_to(std::uint64_t t) override {
    while (s_.horizon() < t) {
      ++waits_;
      s_.yield_ready(slot_);
    }
  }
  std::uint64_t block(const EngineRequest& q) override { return s_.yield_blocked(slot_, q); }
  void check_dead() override {}
  [[noreturn]] void abort(int rank, int code, const std::string& why) override {
    record_abort(s_.header(), rank, code, why.c_str());
    int status = code & 0xff;
    if (status == 0 && code != 0) status = 1;
    exit_process(status);
  }
  void set_describer(std::function<std::string()> describe) override { slot_.describer = std::move(describe); }
  void note_call(const char* call) override { slot_.last_call = call; }
  std::uint64_t horizon_waits() const override { return waits_; }
  /// Each rank's copy of the program has its own counter.
  const volatile unsigned long long* op_counts() const override {
    return static_cast<const volatile unsigned long long*>(::dlsym(slot_.copy.handle, "tilempi_op_counts"));
  }
  /// A shared library of the program is loaded once for all copies, and its counted code binds to
  /// the first tilempi_op_counts of the global scope: the simulator's own (apps/tilempirun). Only
  /// the running rank's code runs between two MPI calls, so what it adds there is that rank's.
  const volatile unsigned long long* shared_op_counts() const override {
    return static_cast<const volatile unsigned long long*>(::dlsym(RTLD_DEFAULT, "tilempi_op_counts"));
  }
  /// Between two MPI calls of a rank, only that rank's code runs on the simulator's one thread:
  /// the thread's CPU clock measures its compute, and time the OS gives other processes meanwhile
  /// does not count. (A read is a system call, about 0.5 us: stretches under 10 us are timed by
  /// the monotonic clock instead, see compute_clock.h.)
  std::uint64_t compute_clock_ns() const override {
    timespec ts;
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
  }

 private:
  Scheduler& s_;
  Slot& slot_;
  std::uint64_t waits_ = 0;
};

// ------------------------------------------------------------------ the rank's entry

void rank_entry(void* arg) {
  Slot& s = *static_cast<Slot*>(arg);
  const int status = s.copy.main(static_cast<int>(s.argv.size()) - 1, s.argv.data(), environ);
  g_scheduler->end(s, status);
}

// ------------------------------------------------------------------ set-up

void Scheduler::attach_job() {
  const char* name = std::getenv(kEnvJob);
  if (!name || !*name) throw std::runtime_error("no job in the environment (TILEMPI_JOB): start it with tilempirun");
  const int fd = ::shm_open(name, O_RDWR, 0);
  if (fd < 0) throw std::runtime_error(std::string("cannot open the job's shared memory ") + name + ": " + std::strerror(errno));
  // The header says how many ranks, and so how long the tile table after it is.
  Header probe{};
  if (::pread(fd, &probe, sizeof probe, 0) != static_cast<ssize_t>(sizeof probe) || probe.magic != kMagic ||
      probe.version != kVersion || !probe.contexts || probe.nranks < 1) {
    ::close(fd);
    throw std::runtime_error("the job's shared memory is not a sim job for ranks as contexts");
  }
  const std::size_t bytes = header_and_tiles_bytes(probe.nranks);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);
  if (p == MAP_FAILED) throw std::runtime_error(std::string("cannot map the job's shared memory: ") + std::strerror(e));
  header_ = static_cast<Header*>(p);
  Header* h = header_;
  n_ = h->nranks;
  facts_ = facts_of(*h);
  arena_bytes_ = h->arena_bytes;
  stack_bytes_ = static_cast<std::size_t>(h->stack_kib) << 10;
  // The launcher removes the name at the end; nothing else needs it now.
  shm::unlink_once(h->unlinked, name);
}

namespace {

// The process's memory mappings and the most it may have (vm.max_map_count); -1 if unknown.
long count_mappings() {
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return -1;
  long lines = 0;
  for (int c; (c = std::fgetc(f)) != EOF;) lines += c == '\n';
  std::fclose(f);
  return lines;
}
long max_mappings() {
  FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r");
  if (!f) return -1;
  long v = -1;
  if (std::fscanf(f, "%ld", &v) != 1) v = -1;
  std::fclose(f);
  return v;
}

std::string mappings_limit_text(long max) {
  return "this system allows " + std::to_string(max) +
         " per process (vm.max_map_count; as root, sysctl -w vm.max_map_count=N raises it)";
}

}  // namespace

void Scheduler::load_ranks(ProgramImage& image, int argc, char** argv) {
  slots_.resize(static_cast<std::size_t>(n_));
  // Each rank's copy of the program takes a few memory mappings (its segments) and its stack one
  // or two, and vm.max_map_count bounds their sum: measured on the first ranks and checked before
  // the rest load, so that a job too large for it says so by name rather than failing inside the
  // dynamic loader with ENOMEM (16384 ranks need about 100 000 mappings).
  constexpr int kMeasured = 64;
  const long max = max_mappings();
  const long before = count_mappings();
  for (int r = 0; r < n_; ++r) {
    if (r == kMeasured && max > 0 && before >= 0) {
      const long now = count_mappings();
      // A lower bound: the first ranks take 5-6 each for a C program, and a rank adds more as it
      // runs (the binding of library variables splits a mapping of its copy; large allocations
      // are mappings of their own): 2000 ranks of one ended at 6 per rank. A job near the limit
      // that passes here fails while loading, and says why below.
      const double per_rank = static_cast<double>(now - before) / kMeasured;
      const double needed = static_cast<double>(now) + per_rank * (n_ - kMeasured) + 64;  // + the run's own
      if (needed > static_cast<double>(max))
        throw std::runtime_error(std::to_string(n_) + " ranks as contexts need at least " +
                                 std::to_string(static_cast<long>(needed)) + " memory mappings (" +
                                 std::to_string(static_cast<long>(per_rank + 0.5)) +
                                 " per rank: its copy of the program and its stack), and " + mappings_limit_text(max) +
                                 "; at most about " + std::to_string(kMeasured + static_cast<long>((static_cast<double>(max) - 64 - now) / per_rank)) +
                                 " ranks fit");
    }
    Slot& s = slots_[static_cast<std::size_t>(r)];
    s.rank = r;
    try {
      s.copy = image.load_copy();
    } catch (const std::runtime_error& e) {
      const long now = count_mappings();
      if (max > 0 && now >= max - 64)
        throw std::runtime_error(std::string(e.what()) + " (rank " + std::to_string(r) + ": " + std::to_string(now) +
                                 " memory mappings in use, " + mappings_limit_text(max) + ")");
      throw;
    }
    // Each rank gets its own argument strings: programs may permute or edit them (getopt).
    s.arg_store.reserve(static_cast<std::size_t>(argc));
    for (int i = 0; i < argc; ++i) s.arg_store.emplace_back(argv[i]);
    for (std::string& a : s.arg_store) s.argv.push_back(a.data());
    s.argv.push_back(nullptr);
    s.ctx = std::make_unique<Context>(&rank_entry, &s, stack_bytes_);
  }
  std::vector<RankImage> images;
  for (const Slot& s : slots_) images.push_back({s.copy.handle, s.copy.base});
  variables_.build(images, image.copy_relocated_symbols());
  give_stdin_to_rank_zero();
}

// Only rank 0 reads the launcher's stdin; every other rank's is empty (as a rank process's,
// whose stdin the launcher sets to /dev/null, and as MPICH does). The ranks share this process's
// stdin, so without this rank 1 read what rank 0 had not read yet, depending on the schedule.
// Each rank's `stdin` (a per-rank library variable) is a stream of its own that is always at its
// end, and an fclose in one rank touches only its own. It names descriptor 0, as /dev/null on
// descriptor 0 does in a rank process (fileno(stdin) == 0); its reads go to the empty stream,
// never to the descriptor, and closing it leaves the descriptor open (glibc's cookie streams).
void Scheduler::give_stdin_to_rank_zero() {
  cookie_io_functions_t at_end{};
  at_end.read = [](void*, char*, std::size_t) -> ssize_t { return 0; };
  for (int r = 1; r < n_; ++r)
    if (auto* cell = static_cast<FILE**>(variables_.cell("stdin", r)))
      if (FILE* empty = ::fopencookie(nullptr, "r", at_end)) {
        empty->_fileno = STDIN_FILENO;
        *cell = empty;
      }
}

// ------------------------------------------------------------------ crash reports

/// The rank whose code ran when a fatal signal came (context_crash.h): async-signal-safe.
bool crashed_rank(CrashedRank* out) {
  const Slot* s = g_running;
  if (!s || !g_scheduler) return false;
  *out = {s->rank, s->ctx.get(), s->last_call, g_scheduler->stack_bytes()};
  return true;
}

// ------------------------------------------------------------------ the loop

void Scheduler::resume(Slot& s) {
  // A rank resumes by returning through frames that other ranks' visits have pushed out of the
  // cache: one miss after the other, each waiting for the one before. Asked for at once, they
  // overlap; and the next ready rank's are asked for now, a whole visit ahead of its turn.
  constexpr std::size_t kResumeStackBytes = 1024;
  s.ctx->prefetch_stack(kResumeStackBytes);
  if (!ready_.empty())
    if (const Slot& next = slots_[static_cast<std::size_t>(ready_.top().second)]; next.ctx)
      next.ctx->prefetch_stack(kResumeStackBytes);
  variables_.bind(s.rank);
  s.state = SlotState::Running;
  set_current_rank_slot(s.rank);
  g_running = &s;
  ++switches_;
  Context::switch_to(maestro_, *s.ctx);
  g_running = nullptr;
}

/// A cheap clock for the share of wall time spent in the chip model (read around every advance
/// of the engine, hundreds of thousands of times per second): the time-stamp counter where there
/// is one, converted to seconds against the wall clock over the whole run.
std::uint64_t ticks() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

std::string Scheduler::loop() {
  const std::uint64_t lookahead = engine_->lookahead();
  std::size_t live = slots_.size();
  for (Slot& s : slots_) ready_.push({0, s.rank});
  std::uint64_t chip = 0;
  const std::uint64_t start_ticks = ticks();
  const auto start = std::chrono::steady_clock::now();
  auto chip_seconds = [&] {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::uint64_t all = ticks() - start_ticks;
    return all ? wall * static_cast<double>(chip) / static_cast<double>(all) : 0.0;
  };
  while (live > 0) {
    if (int sig = contexts_termination_signal()) [[unlikely]]
      end_terminated(sig);
    if (ready_.empty()) {
      // Every live rank waits for an event: simulate until one is woken.
      const std::uint64_t t0 = ticks();
      engine_->advance_to(hw::kNever);
      chip += ticks() - t0;
      if (engine_->bound() != hw::kNever && engine_->bound() > horizon_) horizon_ = engine_->bound();
      if (ready_.empty()) {
        engine_->add_chip_seconds(chip_seconds());
        return engine_->deadlock_report();
      }
      continue;
    }
    const std::uint64_t c = ready_.top().first;
    if (horizon_ < c + lookahead - 1) {
      const std::uint64_t t0 = ticks();
      engine_->advance_to(c + lookahead - 1);
      chip += ticks() - t0;
      horizon_ = std::max(horizon_, engine_->bound());
      if (ready_.top().first < c) continue;  // a rank woken on the way comes first
    }
    const int r = ready_.top().second;
    ready_.pop();
    Slot& s = slots_[static_cast<std::size_t>(r)];
    resume(s);
    take_posted(r);
    if (s.state == SlotState::Blocking) {
      // Something the rank has not seen yet was published: the engine left it running, and it
      // goes on at its clock.
      s.state = engine_->is_blocked(r) ? SlotState::Blocked : SlotState::Ready;
    }
    switch (s.state) {
      case SlotState::Ready: ready_.push({s.clock, r}); break;
      case SlotState::Blocking:
      case SlotState::Blocked: break;  // the engine wakes it
      case SlotState::Ended:
        --live;
        s.ctx.reset();  // its stack is free again
        if (s.status != 0 && engine_->finalized(r)) {
          // After MPI_Finalize a nonzero status fails the job but does not end it: the other
          // ranks finish (as with MPICH), and the first such status is the job's.
          if (failed_status_ == 0) {
            failed_status_ = s.status;
            late_exit_ = "rank " + std::to_string(r) + " exited with status " + std::to_string(s.status) +
                         " after MPI_Finalize";
          }
        } else if (s.status != 0) {
          failed_status_ = s.status;
          engine_->add_chip_seconds(chip_seconds());
          return "rank " + std::to_string(r) + " exited with status " + std::to_string(s.status) + "; ending the job";
        }
        break;
      case SlotState::Running: break;
    }
  }
  engine_->add_chip_seconds(chip_seconds());
  return {};
}

// The launcher's SIGTERM (its --timeout, or tilempirun itself terminated) came and the scheduler
// has the hand: say where every rank is, as the host transport does at a timeout, then end with
// every rank's output flushed (context_termination.h). A SIGINT (Ctrl-C) ends without a report.
void Scheduler::end_terminated(int sig) {
  if (sig == SIGTERM) {
    const std::string where = engine_->where_ranks_are();
    std::fprintf(stderr, "tilempirun: sim: ended by the launcher at virtual cycle %llu; the ranks were:%s\n",
                 static_cast<unsigned long long>(horizon_), where.c_str());
  }
  end_by_signal(sig);
}

int Scheduler::run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tilempi-simhost PROGRAM [ARGS...] (started by tilempirun --transport sim)\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  g_scheduler = this;
  attach_job();
  std::string why;
  std::optional<ProgramImage> image = ProgramImage::inspect(argv[1], why);
  if (!image) throw std::runtime_error(std::string(argv[1]) + ": cannot be loaded once per rank: " + why);
  // A modeled tile core runs one thread: OpenMP regions of a rank run on its context. (Set before
  // the first copy loads the OpenMP runtime, which reads it once.)
  if (const char* omp = std::getenv("OMP_NUM_THREADS"); !omp || !*omp) {
    ::setenv("OMP_NUM_THREADS", "1", 1);
    for (const std::string& lib : image->needed())
      if (lib.find("libgomp") != std::string::npos || lib.find("libomp") != std::string::npos) notes_ = "OMP_NUM_THREADS=1";
  }
  const hw::Config cfg = chip_config(facts_);
  std::vector<hw::TileId> tiles(static_cast<std::size_t>(n_));
  for (int r = 0; r < n_; ++r) tiles[static_cast<std::size_t>(r)] = facts_.tiles[static_cast<std::size_t>(r)];
  EngineOptions eo;
  eo.report_path = header_->report_path;
  eo.trace_path = header_->trace_path;
  eo.compute = header_->compute;
  eo.summary = header_->summary != 0;
  eo.progress = header_->progress != 0;
  eo.migrations = parse_migrations(std::string(header_->migrations, strnlen(header_->migrations, sizeof header_->migrations)));
  eo.summary_note = "; ranks as contexts";
  eo.ranks_share_process = true;
  if (!notes_.empty()) eo.summary_note += " (" + notes_ + " for the ranks, a tile core runs one thread)";
  engine_ = std::make_unique<SimEngine>(n_, cfg, facts_.adapter, tiles, eo, *this);

  // Payload arenas: virtual memory, committed only where messages are written.
  const std::uint64_t total = arena_bytes_ * static_cast<std::uint64_t>(n_);
  void* a = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (a == MAP_FAILED) throw std::runtime_error("cannot reserve the payload arenas: " + std::string(std::strerror(errno)));
  arenas_ = static_cast<unsigned char*>(a);

  // The C library's name of the program (error(), err(), getopt's messages, and each copy's own
  // program_invocation_name, copied in when it loads) is the program's, as in a rank process,
  // not the simulator's.
  program_invocation_name = argv[1];
  char* slash = std::strrchr(argv[1], '/');
  program_invocation_short_name = slash ? slash + 1 : argv[1];
  load_ranks(*image, argc - 1, argv + 1);
  install_crash_handlers(header_, &crashed_rank);
  catch_termination_of_contexts();

  std::string failure = loop();
  set_current_rank_slot(0);
  // What runs from now on (the engine's report, the ranks' atexit handlers and destructors, the
  // end of the process) uses the process's own variables.
  variables_.bind(-1);
  engine_->set_wall_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (tilempi::settings::env_boolean(tilempi::transport::settings::sim_profile_env()).value_or(false))
    std::fprintf(stderr, "tilempirun: sim: %llu context switches to ranks; %zu library variables per rank, %zu references rebound per switch\n",
                 static_cast<unsigned long long>(switches_), variables_.variables(), variables_.references());
  const std::string engine_failure = engine_->finish(std::string(), false);
  if (failure.empty()) failure = engine_failure;
  if (failure.empty()) failure = late_exit_;
  if (!failure.empty()) set_failure(failure);
  return failed_status_;
}

}  // namespace

int run_contexts(int argc, char** argv) {
  try {
    // Never destroyed: ranks' atexit handlers and destructors run after this returns.
    static Scheduler* scheduler = new Scheduler;
    const int status = scheduler->run(argc, argv);
    std::fflush(nullptr);
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilempirun: sim: %s\n", e.what());
    return 1;
  }
}

std::unique_ptr<Transport> connect_context() {
  if (!g_running || !g_scheduler) throw std::runtime_error("tilempi: not a rank of a simulator process");
  Slot& s = *g_running;
  const int n = static_cast<int>(g_scheduler->engine().nranks());
  return make_sim_transport(std::make_unique<ContextLink>(*g_scheduler, s), s.rank, n);
}

bool in_rank_context() { return g_running != nullptr; }
bool hosts_rank_contexts() { return g_scheduler != nullptr; }

void* running_rank_symbol(const char* name) {
  if (!g_running || !g_running->copy.handle) return nullptr;
  return ::dlsym(g_running->copy.handle, name);
}
int running_rank() { return g_running ? g_running->rank : -1; }

void end_rank(int status) {
  if (!g_running || !g_scheduler) exit_process(status);
  g_scheduler->end(*g_running, status);
}

void fail_rank(const std::string& why) {
  if (!g_running || !g_scheduler) {
    std::fprintf(stderr, "tilempirun: sim: %s\n", why.c_str());
    exit_process(1);
  }
  g_scheduler->fail(*g_running, why);
}

}  // namespace tilempi::transport::sim
