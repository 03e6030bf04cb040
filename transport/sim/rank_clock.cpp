// The rank's clock, its events and its waiting; compute accounting; the rank's life from its
// first call to its goodbye (sim_rank.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "sim/migration_messages.h"
#include "sim/p2p_messages.h"
#include "sim/placement.h"
#include "sim/rank_messages.h"
#include "sim/sim_rank.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/transport/contexts.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

SimTransport::SimTransport(std::unique_ptr<EngineLink> link, int rank, int size)
    : link_(std::move(link)), rank_(rank), size_(size) {
  const JobFacts& facts = link_->facts();
  const hw::Config cfg = chip_config(facts);
  hz_ = cfg.clock_hz;
  static_ok_ = cfg.static_network;
  costs_ = hw::adapter::Adapter::create(facts.adapter, cfg);
  energy_ = std::make_unique<RankEnergy>(cfg, std::span<const hw::TileId>(facts.tiles), rank_);
  poll_cost_ = costs_->poll_cost();
  scaled_ = facts.compute_scaled;
  scale_ = facts.compute_scale;
  if (facts.compute_model) {
    // A program that counts its operations is charged them (deterministic, whatever the host
    // does); the clocks are then not read at all.
    counts_ = link_->op_counts();
    if (counts_) {
      shared_counts_ = link_->shared_op_counts();
      app_resumes();
      op_costs_ = hw::op_costs(cfg);
      counted_charged_ = counted_due();
      scaled_ = false;
      // The report charges the core's energy per operation counted from here on (sim_report.cpp).
      notes_["energy_ops_from=int"] = counts_[0];
      notes_["energy_ops_from=fp"] = counts_[1];
    }
  }
  rank_placement_ = shared_placement_on_chip(cfg, facts.tiles);
  inbox_ = link_->local_inbox();
  // (What was published before this, if anything, waits in the inbox: drained first.)
  if (link_->deliver_to(this)) drain();
  arena_ = link_->arena(rank_);
  space_.reset(link_->arena_bytes());
  if (scaled_)
    compute_clock_ = ComputeClock(
        [](const void* link) { return static_cast<const EngineLink*>(link)->compute_clock_ns(); }, link_.get());
  published_ = link_->initial_clock();
  clock_ = published_;
  // A blocked rank is inside an MPI call: the report names it first (ranks stuck in different
  // collectives may have nothing posted that says which one they are in).
  link_->set_describer([this] {
    std::string s = describer_ ? describer_() : std::string("(no description)");
    if (!waiting_for_.empty()) s = waiting_for_ + "; " + s;
    return call_ ? std::string("in ") + call_ + ": " + s : s;
  });
  set_virtual_sleeper(this);
}

SimTransport::~SimTransport() {
  link_->deliver_to(nullptr);
  forget_virtual_sleeper(this);
}

Capabilities SimTransport::capabilities() const {
  Capabilities c;
  c.virtual_time = true;
  c.global_clock = true;  // one engine clock for every rank
  c.modeled_tiles = true;
  c.static_network = static_ok_;
  c.hardware_multicast = c.hardware_reduction = costs_->collective_offload();
  c.one_sided = true;  // the adapter's RDMA (or its cores' handlers) reach every tile's memory
  c.migration = costs_->migration();
  c.shared_address_space = hosts_rank_contexts();
  // The adapter decides per size; its protocol switch is monotone in the size, so bisect it.
  std::uint64_t lo = 0, hi = std::uint64_t{1} << 40;
  if (!costs_->rendezvous(hi, false)) return c.eager_limit = hi, c;
  while (lo + 1 < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (costs_->rendezvous(mid, false) ? hi : lo) = mid;
  }
  c.eager_limit = lo;
  return c;
}

/// The application sleeps (sleep, usleep, nanosleep, clock_nanosleep: virtual_sleep.h): the
/// rank's clock advances by the slept time at the chip's clock rate, counted as its own time
/// (compute), as time it spends between MPI calls is.
bool SimTransport::sleep_virtual(std::uint64_t ns) {
  if (in_library_ || finished_) return false;
  compute(static_cast<std::uint64_t>(static_cast<long double>(ns) * hz_ / 1e9L + 0.5L));  // rounded
  return true;
}

void SimTransport::progress() {
  Call call(*this);
  advance();
}

void SimTransport::wait(std::uint64_t) {
  Call call(*this);
  advance();
  if (!changed_) jump_or_block();
  changed_ = false;
}

double SimTransport::wtime() {
  Call call(*this);
  return static_cast<double>(clock_) / hz_;
}

void SimTransport::abort(int code, const std::string& why) {
  link_->abort(rank_, code, why);
  std::abort();  // not reached: the link ends the job
}

void SimTransport::annotate(const char* key, const char* value) {
  note_key_.assign(key).append("=").append(value);
  ++notes_[note_key_];
}

double SimTransport::energy() {
  // The operations counted since MPI_Init (the report's core energy counts the same span).
  double int_ops = 0, fp_ops = 0;
  if (counts_) {
    int_ops = static_cast<double>(counts_[0] + shared_mine_[0]) - static_cast<double>(notes_["energy_ops_from=int"]);
    fp_ops = static_cast<double>(counts_[1] + shared_mine_[1]) - static_cast<double>(notes_["energy_ops_from=fp"]);
  }
  return energy_->joules(std::max(0.0, int_ops), std::max(0.0, fp_ops));
}

void SimTransport::finalize() {
  if (finished_) return;
  {
    Call call(*this);
    // Sends still on their way must complete in virtual time before the rank's end.
    ops_.for_each([&](Op& o) {
      while (o.send && !o.done) {
        advance();
        if (o.done) break;
        sync_to(clock_);
        advance();
        if (!o.done) {
          changed_ = false;
          jump_or_block();
        }
      }
    });
  }
  if (counts_) {
    notes_["energy_ops_to=int"] = counts_[0] + shared_mine_[0];
    notes_["energy_ops_to=fp"] = counts_[1] + shared_mine_[1];
  }
  energy_->add_notes(notes_);
  // The annotations go to the engine once, at the rank's end: one request each, text inline.
  for (const auto& [k, count] : notes_) post(NoteRequest{clock_, count, k});
  post(FinishRequest{.time = clock_, .counted = counts_ != nullptr, .comm = comm_, .compute = compute_,
                     .waited = waited_, .horizon_waits = link_->horizon_waits(),
                     .horizon_sleeps = link_->horizon_sleeps(), .blocks = blocks_});
  published_ = clock_;
  link_->publish_clock(clock_);
  link_->finalized();
  finished_ = true;
  forget_virtual_sleeper(this);
}

// ------------------------------------------------------------ compute accounting

/// Scale mode: the CPU time since the application last left the library, times F, at the
/// preset clock. Model mode: the counted operations since the last charge.
void SimTransport::charge_compute() {
  if (finished_) return;
  if (counts_) {
    if (shared_counts_)
      for (int i = 0; i < 2; ++i) {
        const std::uint64_t now = shared_counts_[i];
        shared_mine_[i] += now - shared_seen_[i];
        shared_seen_[i] = now;
      }
    const std::uint64_t due = counted_due();
    if (due > counted_charged_) {
      clock_ += due - counted_charged_;
      compute_ += due - counted_charged_;
      counted_charged_ = due;
    }
    return;
  }
  if (!scaled_) return;
  const std::uint64_t spent = compute_clock_.elapsed();
  const double cyc = static_cast<double>(spent) * 1e-9 * scale_ * hz_;
  const std::uint64_t c = static_cast<std::uint64_t>(cyc);
  clock_ += c;
  compute_ += c;
}

void SimTransport::enter_library(const char* call) {
  link_->note_call(call);
  if (depth_ == 0) charge_compute();
  in_library_ = true;
  call_ = call;
}

void SimTransport::leave_library() {
  in_library_ = false;
  call_ = nullptr;
  app_resumes();
  if (scaled_) compute_clock_.start();
}

void SimTransport::compute(std::uint64_t cycles) {
  if (finished_) return;
  clock_ += cycles;
  compute_ += cycles;
  publish_clock();
}

// ------------------------------------------------------------ events

void SimTransport::drain() {
  if (!events_waiting()) return;
  if (inbox_) {
    // Ranks as contexts: the events wait in this process's memory, and only change while the
    // rank is switched out. Taken where they lie: one copy of each event less, and one buffer
    // less as large as the rank's largest burst of events (an alltoall's N - 1 arrivals).
    for (const EngineEvent& e : *inbox_) heap_.push(e.time, seen_++, e);
    link_->clear_local_inbox();
    return;
  }
  incoming_events_.clear();
  link_->take_events(incoming_events_);
  for (const EngineEvent& e : incoming_events_) heap_.push(e.time, seen_++, e);
}

void SimTransport::apply(const EngineEvent& e) {
  switch (e.kind) {
    case kEvArrival:
    case kEvSendDone:
    case kEvDataDone:
    case kEvLocalDone:
    case kEvRelease: return apply_p2p(e);
    case kEvStatic: return apply_static(e);
    case kEvOffload:
    case kEvOffloadPart: return apply_offload(e);
    default: return;  // kEvServed, kEvMigrated: their core_cycles, charged by the caller, are all they do
  }
}

bool SimTransport::progress_for(const Op& o) {
  Call call(*this);
  advance();
  if (!o.done && lazy_ == 0) {
    sync_to(clock_);
    advance();
  }
  return o.done;
}

/// Nothing visible changed at the current clock: move to the next event for this rank, by a
/// jump when it is already published, else by blocking until the engine wakes us at its cycle.
/// Returns once an event changed something the caller may look at.
/// The outcome is the same whichever way it gets there (synchronized, jumped or woken): every
/// event up to the new clock is applied, so it does not depend on the host's timing.
void SimTransport::jump_or_block() {
  for (;;) {
    advance();
    if (changed_) return;
    drain();
    const std::uint64_t p = link_->horizon();
    if (known_ < clock_ && p >= clock_) {
      // Everything up to the clock is published already: look at it before moving on.
      known_ = clock_;
      continue;
    }
    if (known_ >= clock_ && !heap_.empty() && heap_.top_time() <= p) {
      // Every event up to that cycle is known (and none up to the clock is left): jump there.
      const std::uint64_t t = heap_.top_time();
      if (t > clock_) waited_ += t - clock_;
      known_ = std::max(known_, t);
      clock_ = std::max(clock_, t);
      apply_first();  // (its handler cycles on top)
      continue;
    }
    // Nothing known is due: block at once rather than wait for the horizon first, so that
    // this rank stops holding the other ranks back. The engine wakes us at our next event
    // (at once if one was published that we have not seen).
    block();
    sync_to(clock_);  // the engine publishes the horizon of our wake-up right after it
  }
}

/// A blocking wait for one operation at a cycle the engine decides: events are applied in time
/// order whatever the horizon, so blocking at once changes no cycle.
void SimTransport::wait_for(Op& op) {
  while (!op.done) {
    advance();
    if (op.done) break;
    changed_ = false;
    jump_or_block();
  }
}

void SimTransport::block() {
  ++blocks_;
  BlockRequest b;
  b.time = clock_;
  b.events_seen = seen_;
  b.wants_space = !waiting_for_.empty();
  // The earliest event held but not yet final (beyond the horizon seen): wake us then.
  // Releases count only when we wait for arena space.
  b.earliest_held = heap_.first_time(b.wants_space);
  // Inside a blocking wait that needs `expect_` more completions, the engine need not wake us
  // for the first expect_ - 1 of them: in such a wait a completion changes no clock and posts
  // nothing until the last one (the wake-up would only find that the wait goes on). The hint
  // holds for this sleep only: the layer above says it again before the next.
  if (expect_op_ != kDone || expect_ == SIZE_MAX) {
    b.sleep_through = kSleepAll;
    b.wake_op = expect_op_;
  } else {
    b.sleep_through = expect_ > 1 ? expect_ - 1 : 0;
  }
  expect_ = 0;
  expect_op_ = kDone;
  publish_clock();
  const std::uint64_t wake = link_->block(encode(b));
  if (wake > clock_) {
    waited_ += wake - clock_;
    clock_ = wake;
  }
  // The engine moved our published clock to the wake-up cycle.
  published_ = clock_;
}

std::unique_ptr<Transport> make_sim_transport(std::unique_ptr<EngineLink> link, int rank, int size) {
  return std::make_unique<SimTransport>(std::move(link), rank, size);
}

}  // namespace tilempi::transport::sim
