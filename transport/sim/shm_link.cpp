// Ranks as processes: the link between a rank and the engine thread of the launcher is the job's
// shared segment (sim_shm.h). Requests go into the rank's request ring, events come back through
// its event ring; the rank publishes its clock there, and waits on a futex doorbell that the
// engine rings when it has published the horizon the rank needs or woke it from a block.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backends.h"
#include "tilempi/transport/termination.h"
#include "sim/engine_link.h"
#include "sim/sim_shm.h"

namespace tilempi::transport::sim {

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class ShmLink final : public EngineLink {
 public:
  ShmLink(Segment seg, int rank) : seg_(seg), rank_(rank) {
    h_ = seg_.header();
    me_ = seg_.ctl(rank_);
    facts_ = facts_of(*h_);
    // One-sided access reads and writes other rank processes' memory (copy_remote): let peers
    // of the same user do so under Yama too.
    ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    catch_termination();  // the launcher's SIGTERM while this rank waits flushes its output
  }

  // Ranks as processes: one cross-memory-attach copy from or into the rank's process.
  void copy_remote(int r, std::uint64_t addr, void* local, std::size_t len, bool write) override {
    if (r == rank_) return EngineLink::copy_remote(r, addr, local, len, write);
    const pid_t pid = shared(seg_.ctl(r)->pid).load(std::memory_order_acquire);
    std::size_t done = 0;
    while (done < len) {
      iovec l{static_cast<unsigned char*>(local) + done, len - done};
      iovec rm{reinterpret_cast<void*>(addr + done), len - done};
      const ssize_t n = write ? ::process_vm_writev(pid, &l, 1, &rm, 1, 0) : ::process_vm_readv(pid, &l, 1, &rm, 1, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        abort(rank_, 1, std::string("tilempi sim transport: one-sided access to rank ") + std::to_string(r) +
                            "'s memory failed: " + std::strerror(n < 0 ? errno : EFAULT));
      done += static_cast<std::size_t>(n);
    }
  }
  ~ShmLink() override {
    if (seg_.base) ::munmap(seg_.base, seg_.bytes);
  }

  const JobFacts& facts() const override { return facts_; }
  unsigned char* arena(int r) const override { return seg_.arena(r); }
  std::uint64_t arena_bytes() const override { return seg_.g.arena_bytes; }
  std::uint64_t initial_clock() const override { return shared(me_->clock).load(std::memory_order_acquire); }

  void post(const EngineRequest& q) override {
    const std::uint64_t head = req_head_;
    int spins = 0;
    while (head - shared(me_->req_tail).load(std::memory_order_acquire) >= kRing) {
      check_dead();
      ring_engine();
      if (++spins > 100) ::usleep(50);
    }
    seg_.req(rank_)[head % kRing] = q;
    req_head_ = head + 1;
    shared(me_->req_head).store(req_head_, std::memory_order_seq_cst);
    if (q.kind == kReqBlock || q.kind == kReqFinish || q.kind == kReqStatic || q.kind == kReqStaticCopied ||
        q.kind == kReqOffload ||
        req_head_ - shared(me_->req_tail).load(std::memory_order_relaxed) > kRing / 2) {
      if (shared(h_->engine_sleeping).load(std::memory_order_seq_cst)) ring_engine();
    }
    if (q.kind == kReqFinish) ring_engine();
  }

  std::uint64_t horizon() const override { return shared(h_->horizon).load(std::memory_order_acquire); }
  void finalized() override { shared(me_->finalized).store(1, std::memory_order_release); }

  void take_events(std::vector<EngineEvent>& into) override {
    const std::uint64_t head = shared(me_->evt_head).load(std::memory_order_acquire);
    if (head == seen_) return;
    const EngineEvent* ring = seg_.evt(rank_);
    for (; seen_ != head; ++seen_) into.push_back(ring[seen_ % kRing]);
    shared(me_->evt_tail).store(seen_, std::memory_order_release);
  }

  void publish_clock(std::uint64_t clock) override {
    const std::uint64_t old = published_;
    published_ = clock;
    shared(me_->clock).store(clock, std::memory_order_seq_cst);
    if (shared(h_->engine_sleeping).load(std::memory_order_seq_cst) &&
        old <= shared(h_->bottleneck).load(std::memory_order_relaxed))
      ring_engine();
  }

  void sync_to(std::uint64_t t) override {
    if (horizon() >= t) return;
    ++horizon_waits_;
    for (int i = 0; i < 64; ++i) {
      cpu_relax();
      if (horizon() >= t) return;
    }
    TerminationWindow window;
    for (;;) {
      check_dead();
      const std::uint32_t bell = shared(me_->bell).load(std::memory_order_seq_cst);
      shared(me_->want_horizon).store(t, std::memory_order_seq_cst);
      if (horizon() >= t) break;
      if (shared(h_->engine_sleeping).load(std::memory_order_seq_cst)) ring_engine();
      ++horizon_sleeps_;
      futex_wait(&me_->bell, bell, 50'000'000);
      if (horizon() >= t) break;
    }
    shared(me_->want_horizon).store(0, std::memory_order_relaxed);
  }

  std::uint64_t block(const EngineRequest& q) override {
    shared(me_->state).store(kBlocked, std::memory_order_seq_cst);
    post(q);
    TerminationWindow window;
    for (;;) {
      check_dead();
      const std::uint32_t bell = shared(me_->bell).load(std::memory_order_seq_cst);
      if (shared(me_->state).load(std::memory_order_seq_cst) != kBlocked) break;
      const std::uint32_t req = shared(me_->describe_req).load(std::memory_order_acquire);
      if (req != shared(me_->describe_ack).load(std::memory_order_relaxed)) describe(req);
      futex_wait(&me_->bell, bell, 100'000'000);
    }
    // The engine stored the wake-up cycle as our clock too.
    published_ = shared(me_->clock).load(std::memory_order_acquire);
    return shared(me_->wake_clock).load(std::memory_order_acquire);
  }

  void check_dead() override {
    if (int sig = termination_signal()) end_by_signal(sig);
    if (shared(h_->dead).load(std::memory_order_acquire)) {
      // The engine ended the job (deadlock) and reports it; leave quietly.
      std::fflush(nullptr);
      ::_exit(0);
    }
  }

  [[noreturn]] void abort(int rank, int code, const std::string& why) override {
    flush_program_output();  // first: the launcher ends every rank once it hears of the abort
    record_abort(h_, rank, code, why.c_str());
    const char* lp = std::getenv(kEnvLauncherPid);
    if (lp && std::atoi(lp) > 1) ::kill(std::atoi(lp), SIGUSR1);
    int status = code & 0xff;
    if (status == 0 && code != 0) status = 1;
    ::_exit(status);
  }

  void set_describer(std::function<std::string()> describe) override { describer_ = std::move(describe); }
  std::uint64_t horizon_waits() const override { return horizon_waits_; }
  std::uint64_t horizon_sleeps() const override { return horizon_sleeps_; }

 private:
  void ring_engine() {
    shared(h_->engine_bell).fetch_add(1, std::memory_order_seq_cst);
    futex_wake(&h_->engine_bell);
  }

  void describe(std::uint32_t req) {
    const std::string s = describer_ ? describer_() : std::string("(no description)");
    const std::size_t n = std::min(s.size(), sizeof me_->describe - 1);
    std::memcpy(me_->describe, s.data(), n);
    me_->describe[n] = 0;
    shared(me_->describe_ack).store(req, std::memory_order_release);
  }

  Segment seg_;
  int rank_;
  Header* h_ = nullptr;
  RankCtl* me_ = nullptr;
  JobFacts facts_;
  std::uint64_t req_head_ = 0;
  std::uint64_t seen_ = 0;
  std::uint64_t published_ = 0;
  std::uint64_t horizon_waits_ = 0, horizon_sleeps_ = 0;
  std::function<std::string()> describer_;
};

}  // namespace

std::unique_ptr<Transport> connect(int rank, int size) {
  const char* name = std::getenv(kEnvJob);
  if (!name || !*name) throw std::runtime_error("tilempi: no job in the environment (TILEMPI_JOB)");
  if (size < 1 || rank < 0 || rank >= size)
    throw std::runtime_error("tilempi: bad rank " + std::to_string(rank) + " of " + std::to_string(size));
  int fd = ::shm_open(name, O_RDWR, 0);
  if (fd < 0)
    throw std::runtime_error(std::string("tilempi: cannot open the job's shared memory ") + name + ": " +
                             std::strerror(errno) + " (was this rank started by tilempirun?)");
  Header probe{};
  if (::pread(fd, &probe, sizeof probe, 0) != static_cast<ssize_t>(sizeof probe) || probe.magic != kMagic ||
      probe.version != kVersion || probe.nranks != size) {
    ::close(fd);
    throw std::runtime_error("tilempi: the job's shared memory does not match this rank (size " +
                             std::to_string(size) + "; the segment says version " + std::to_string(probe.version) +
                             ", " + std::to_string(probe.nranks) + " ranks; this library reads version " +
                             std::to_string(kVersion) + ")");
  }
  const Geometry g = make_geometry(size, probe.arena_bytes);
  void* base = ::mmap(nullptr, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  int e = errno;
  ::close(fd);
  if (base == MAP_FAILED)
    throw std::runtime_error(std::string("tilempi: cannot map the job's shared memory: ") + std::strerror(e));
  Segment seg;
  seg.base = static_cast<unsigned char*>(base);
  seg.bytes = g.total_bytes;
  seg.g = g;
  Header* h = seg.header();
  shared(seg.ctl(rank)->pid).store(static_cast<std::int32_t>(::getpid()), std::memory_order_release);
  // The last rank to attach removes the name: from then on nothing can outlive the job.
  shm::count_attach(h->attached, h->unlinked, size, name);
  return make_sim_transport(std::make_unique<ShmLink>(seg, rank), rank, size);
}

}  // namespace tilempi::transport::sim
