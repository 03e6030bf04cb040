#include "sim/segment_ranks.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "shm/abort_record.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

SegmentRanks::SegmentRanks(Segment seg, int nranks, const hw::Config& config, const std::string& adapter,
                           std::vector<hw::TileId> tiles, EngineOptions options)
    : seg_(seg), n_(nranks), req_tail_(static_cast<std::size_t>(nranks), 0),
      evt_head_(static_cast<std::size_t>(nranks), 0), overflow_(static_cast<std::size_t>(nranks)) {
  engine_ = std::make_unique<SimEngine>(nranks, config, adapter, std::move(tiles), std::move(options), *this);
}

SegmentRanks::~SegmentRanks() { stop_thread(); }

void SegmentRanks::stop_thread() {
  if (thread_.joinable()) {
    stop_.store(true, std::memory_order_release);
    Header* h = seg_.header();
    shared(h->engine_bell).fetch_add(1, std::memory_order_seq_cst);
    futex_wake(&h->engine_bell);
    thread_.join();
  }
}

void SegmentRanks::start() {
  thread_ = std::thread([this] {
    auto t0 = std::chrono::steady_clock::now();
    try {
      run();
    } catch (const std::exception& e) {
      failure_ = std::string("sim engine: ") + e.what();
      shared(seg_.header()->dead).store(1, std::memory_order_seq_cst);
      for (int r = 0; r < n_; ++r) ring_rank(r);
    }
    engine_->set_wall_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  });
}

void SegmentRanks::rank_exited(int rank, bool ok) {
  if (rank < 0 || rank >= n_) return;
  if (!ok) failed_any_.store(true, std::memory_order_release);
  shared(seg_.ctl(rank)->exited).store(1, std::memory_order_seq_cst);
  exited_any_.store(true, std::memory_order_release);
  Header* h = seg_.header();
  shared(h->engine_bell).fetch_add(1, std::memory_order_seq_cst);
  futex_wake(&h->engine_bell);
}

void SegmentRanks::ring_rank(int r) {
  RankCtl* c = seg_.ctl(r);
  shared(c->bell).fetch_add(1, std::memory_order_seq_cst);
  futex_wake(&c->bell);
}

// ------------------------------------------------------------------ the ranks' side

void SegmentRanks::deliver(int r, const EngineEvent& e) {
  std::deque<EngineEvent>& overflow = overflow_[static_cast<std::size_t>(r)];
  if (!overflow.empty()) {
    overflow.push_back(e);
    flush_overflow(r);
    return;
  }
  RankCtl* c = seg_.ctl(r);
  std::uint64_t& head = evt_head_[static_cast<std::size_t>(r)];
  const std::uint64_t tail = shared(c->evt_tail).load(std::memory_order_acquire);
  if (head - tail >= kRing) {
    overflow.push_back(e);
    return;
  }
  seg_.evt(r)[head % kRing] = e;
  ++head;
  shared(c->evt_head).store(head, std::memory_order_release);
}

void SegmentRanks::flush_overflow(int r) {
  std::deque<EngineEvent>& overflow = overflow_[static_cast<std::size_t>(r)];
  RankCtl* c = seg_.ctl(r);
  std::uint64_t& head = evt_head_[static_cast<std::size_t>(r)];
  const std::uint64_t tail = shared(c->evt_tail).load(std::memory_order_acquire);
  bool moved = false;
  while (!overflow.empty() && head - tail < kRing) {
    seg_.evt(r)[head % kRing] = overflow.front();
    overflow.pop_front();
    ++head;
    moved = true;
  }
  if (moved) {
    shared(c->evt_head).store(head, std::memory_order_release);
    ring_rank(r);
  }
}

void SegmentRanks::woken(int r, std::uint64_t at) {
  RankCtl* c = seg_.ctl(r);
  shared(c->wake_clock).store(at, std::memory_order_relaxed);
  shared(c->clock).store(at, std::memory_order_seq_cst);
  shared(c->state).store(kRunning, std::memory_order_seq_cst);
  // Rung once the horizon covering `at` is published (end of this pass): woken earlier, the
  // rank would find the horizon behind its clock and sleep again at once.
  to_ring_.push_back(r);
}

void SegmentRanks::stays_awake(int r, std::uint64_t at) {
  RankCtl* c = seg_.ctl(r);
  shared(c->wake_clock).store(at, std::memory_order_relaxed);
  shared(c->state).store(kRunning, std::memory_order_seq_cst);
  ring_rank(r);
}

void SegmentRanks::state_changed(int r, RankState s) {
  shared(seg_.ctl(r)->state).store(s, std::memory_order_seq_cst);
}

std::uint64_t SegmentRanks::clock_of(int r) const {
  return shared(seg_.ctl(r)->clock).load(std::memory_order_acquire);
}

// Ask every blocked rank for its pending operations; give them a few seconds.
void SegmentRanks::ask_descriptions(const std::vector<int>& ranks) {
  for (int r : ranks) {
    shared(seg_.ctl(r)->describe_req).fetch_add(1, std::memory_order_seq_cst);
    ring_rank(r);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  for (int r : ranks) {
    RankCtl* c = seg_.ctl(r);
    while (shared(c->describe_ack).load(std::memory_order_acquire) !=
               shared(c->describe_req).load(std::memory_order_acquire) &&
           !shared(c->exited).load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
      ::usleep(1000);
  }
}

std::string SegmentRanks::describe(int r) {
  RankCtl* c = seg_.ctl(r);
  if (shared(c->describe_ack).load(std::memory_order_acquire) != shared(c->describe_req).load(std::memory_order_acquire))
    return "(did not answer)";
  c->describe[sizeof c->describe - 1] = 0;
  return c->describe;
}

// ------------------------------------------------------------------ the engine thread

bool SegmentRanks::drain_requests() {
  bool any = false;
  for (int r = 0; r < n_; ++r) {
    RankCtl* c = seg_.ctl(r);
    if (engine_->state(r) != kFinished && shared(c->exited).load(std::memory_order_acquire)) {
      // The process ended without saying goodbye (or after it): it posts nothing more.
      engine_->rank_ended(r, shared(c->clock).load(std::memory_order_acquire));
      any = true;
    }
    std::uint64_t& tail = req_tail_[static_cast<std::size_t>(r)];
    const std::uint64_t head = shared(c->req_head).load(std::memory_order_acquire);
    if (head == tail) continue;
    EngineRequest* ring = seg_.req(r);
    while (tail != head) {
      const EngineRequest q = ring[tail % kRing];
      engine_->take(r, q);
      ++tail;
    }
    shared(c->req_tail).store(tail, std::memory_order_release);
    any = true;
  }
  return any;
}

void SegmentRanks::run() {
  Header* h = seg_.header();
  const std::uint64_t lookahead = engine_->lookahead();
  std::uint64_t last_bound = 0;
  bool first = true;
  for (;;) {
    if (stop_.load(std::memory_order_acquire)) return;
    ++passes_;
    // The bound: every running rank's future requests touch the network at >= clock + L.
    // Clocks are read before the request rings: a rank posts a request before it publishes a
    // clock past the request's time, so every request below the bound is drained below.
    std::uint64_t bound = hw::kNever;
    for (int r = 0; r < n_; ++r) {
      if (engine_->state(r) != kRunning) continue;
      const std::uint64_t c = shared(seg_.ctl(r)->clock).load(std::memory_order_seq_cst);
      bound = std::min(bound, c + lookahead - 1);
    }
    bool progress = drain_requests();
    for (int r = 0; r < n_; ++r)
      if (!overflow_[static_cast<std::size_t>(r)].empty()) flush_overflow(r);
    int running = 0, blocked = 0;
    for (int r = 0; r < n_; ++r) {
      if (engine_->state(r) == kRunning) ++running;
      else if (engine_->state(r) == kBlocked) ++blocked;
    }
    const auto model_start = std::chrono::steady_clock::now();
    const bool did = engine_->advance_to(bound);
    if (did) engine_->add_chip_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - model_start).count());
    const std::uint64_t reached = engine_->bound();
    if (reached != hw::kNever && reached > horizon_) {
      horizon_ = reached;
      shared(h->horizon).store(horizon_, std::memory_order_seq_cst);
      for (int r = 0; r < n_; ++r) {
        RankCtl* c = seg_.ctl(r);
        const std::uint64_t want = shared(c->want_horizon).load(std::memory_order_seq_cst);
        if (want != 0 && want <= horizon_) ring_rank(r);
      }
      progress = true;
    }
    for (int r : to_ring_) ring_rank(r);
    to_ring_.clear();
    if (bound != hw::kNever) shared(h->bottleneck).store(bound - (lookahead - 1), std::memory_order_seq_cst);
    progress = progress || did || first || reached != last_bound;
    last_bound = reached;
    first = false;

    // Every rank finished: nothing more to do until finish() stops us.
    if (!engine_->all_finished() && running == 0 && !did && engine_->idle() && blocked > 0) {
      if (deadlock_check()) return;
      continue;
    }
    if (progress) continue;

    // Sleep until a rank posts, publishes a clock we wait on, or exits.
    const std::uint32_t bell = shared(h->engine_bell).load(std::memory_order_seq_cst);
    shared(h->engine_sleeping).store(1, std::memory_order_seq_cst);
    bool pending = false;
    std::uint64_t now_bound = hw::kNever;
    for (int r = 0; r < n_ && !pending; ++r) {
      RankCtl* c = seg_.ctl(r);
      if (shared(c->req_head).load(std::memory_order_seq_cst) != req_tail_[static_cast<std::size_t>(r)])
        pending = true;
      else if (engine_->state(r) == kRunning)
        now_bound = std::min(now_bound, shared(c->clock).load(std::memory_order_seq_cst) + lookahead - 1);
    }
    if (now_bound != bound) pending = true;
    if (!pending && !exited_any_.exchange(false)) {
      ++sleeps_;
      futex_wait(&h->engine_bell, bell, 20'000'000);
    }
    shared(h->engine_sleeping).store(0, std::memory_order_seq_cst);
  }
}

bool SegmentRanks::deadlock_check() {
  // Late requests or exits may still be on their way: look once more.
  if (drain_requests()) return false;
  // A rank failed or aborted: the launcher is ending the job; the others wait for nothing.
  Header* h = seg_.header();
  if (failed_any_.load(std::memory_order_acquire) || shm::abort_started(h->abort)) {
    const std::uint32_t bell = shared(h->engine_bell).load(std::memory_order_seq_cst);
    if (!stop_.load(std::memory_order_acquire)) futex_wait(&h->engine_bell, bell, 50'000'000);
    return false;
  }
  for (int r = 0; r < n_; ++r)
    if (engine_->state(r) == kRunning) return false;
  failure_ = engine_->deadlock_report();
  shared(h->dead).store(1, std::memory_order_seq_cst);
  for (int r = 0; r < n_; ++r) ring_rank(r);
  return true;
}

std::string SegmentRanks::where_ranks_are() {
  stop_thread();
  drain_requests();
  return "sim: ended at virtual cycle " + std::to_string(horizon_) + "; the ranks were:" + engine_->where_ranks_are();
}

std::string SegmentRanks::finish() {
  stop_thread();
  // Requests the thread had no time to take (the last goodbyes).
  drain_requests();
  engine_->set_driver_counts(passes_, sleeps_);
  AbortRecord aborted;
  const bool was_aborted = shm::read_abort(seg_.header()->abort, aborted);
  // Ranks the launcher ended (--timeout, a signal, another rank's failure) did not "exit without
  // MPI_Finalize": the launcher has said why it ended the job.
  return engine_->finish(failure_, was_aborted || ended_by_launcher_);
}

}  // namespace tilempi::transport::sim
