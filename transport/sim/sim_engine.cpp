#include "sim/sim_engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "tilempi/transport/job.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;
namespace ad = tilempi::hwmodel::adapter;

SimEngine::SimEngine(int nranks, const hw::Config& config, const std::string& adapter, std::vector<hw::TileId> tiles,
                     EngineOptions options, RankSink& sink)
    : EngineCore(nranks, config, adapter, std::move(tiles), std::move(options), sink),
      p2p_(*this), statics_(*this), offloads_(*this), remotes_(*this), migrations_(*this), queue_(nranks),
      energy_(config_, chip_->topology(), nranks, tracing_), routing_(&hw::routing_named(config_.routing)) {
  adapter_->attach(*chip_, *this);
  chip_->on_delivered([this](const hw::PacketEvent& e) { on_delivered(e); });
  chip_->on_injected([this](const hw::PacketEvent& e) { adapter_->injected(e); });
  // --migrate orders act at their cycle (no lookahead: the OS, not a rank's call, starts them).
  for (const MigrationOrder& o : opt_.migrations)
    queue_.push(o.at, -1, encode(MigrateRequest{o.at, static_cast<std::uint64_t>(o.rank), static_cast<std::uint64_t>(o.tile), 0}));
}

// ------------------------------------------------------------------ requests

DecodeContext SimEngine::decode_context(int r) const {
  DecodeContext cx;
  cx.rank = r;
  cx.nranks = n_;
  cx.arena_bytes = sink_.arena_bytes();
  cx.arena = [](const void* sink, int rank) { return static_cast<const RankSink*>(sink)->arena(rank); };
  cx.arena_owner = &sink_;
  return cx;
}

void SimEngine::take(int r, const EngineRequest& q) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  ++ri.requests;
  const DecodeContext cx = decode_context(r);
  // A rank's own requests act at once; the network's wait for their cycle + lookahead, decoded
  // (validated) here already, so that a malformed one is named by the rank that posted it.
  switch (q.kind) {
    case kReqBlock:
      ri.used_mpi = true;
      return block(r, decode<BlockRequest>(q, cx));
    case kReqFinish:
      ri.used_mpi = true;
      return finish_rank(r, decode<FinishRequest>(q, cx));
    case kReqNote: {
      const NoteRequest note = decode<NoteRequest>(q, cx);
      ri.used_mpi = true;
      ri.notes[note.text] += note.count;
      return;
    }
    case kReqSend: decode<SendRequest>(q, cx); break;
    case kReqFetch: decode<FetchRequest>(q, cx); break;
    case kReqStatic: decode<StaticRequest>(q, cx); break;
    case kReqStaticCopied: decode<StaticCopiedRequest>(q, cx); break;
    case kReqOffload: decode<OffloadRequest>(q, cx); break;
    case kReqRemote: decode<RemoteRequest>(q, cx); break;
    case kReqMigrate: decode<MigrateRequest>(q, cx); break;
    default: cx.bad(q, "no such kind");
  }
  ri.used_mpi = true;
  queue_.push(q.time + lookahead_, r, q);
}

void SimEngine::block(int r, const BlockRequest& b) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  ri.blocked_at = b.time;
  ri.wants_space = b.wants_space;
  // (A wake-up handler on the rank's core, the adapter's wake-up mode, is timed at each
  // wake-up: then every completion wakes it.)
  ri.sleep_through = wake_cycles_ ? 0 : b.sleep_through;
  ri.wake_op = b.wake_op;
  ++ri.blocks;
  ++blocks_total_;
  // The earliest event the rank holds but may not look at yet (its time lies beyond the horizon
  // it saw): it must be woken then even though nothing new is published.
  if (b.earliest_held != hw::kNever) timers_.push({b.earliest_held, r, ri.blocks});
  if (ri.published > b.events_seen) {
    // Something was published after the rank last looked: it need not sleep.
    sink_.stays_awake(r, b.time);
    return;
  }
  ri.state = kBlocked;
  sink_.state_changed(r, kBlocked);
}

void SimEngine::finish_rank(int r, const FinishRequest& f) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  ri.finished = true;
  ri.said_goodbye = true;
  ri.state = kFinished;
  ri.end = f.time;
  ri.totals = f;
  rank_horizon_waits_ += f.horizon_waits;
  rank_horizon_sleeps_ += f.horizon_sleeps;
  sink_.state_changed(r, kFinished);
}

void SimEngine::apply(int r, const EngineRequest& q, std::uint64_t now) {
  const DecodeContext cx = decode_context(r < 0 ? 0 : r);
  switch (q.kind) {
    case kReqMigrate: return migrations_.take(r, decode<MigrateRequest>(q, cx), r < 0);  // r < 0: a --migrate order
    // (energy_: who owns the ids each request starts, for the report's energy per call kind)
    case kReqSend: {
      const SendRequest s = decode<SendRequest>(q, cx);
      return energy_.own_message(p2p_.send(r, s), r, s.kind);
    }
    case kReqFetch: {
      const FetchRequest f = decode<FetchRequest>(q, cx);
      energy_.fetched(f.msg);
      return p2p_.fetch(r, f, now);
    }
    case kReqRemote: {
      const RemoteRequest m = decode<RemoteRequest>(q, cx);
      energy_.own_remote(m.id, r, m.kind);
      return remotes_.take(r, m);
    }
    case kReqStatic: {
      const StaticRequest s = decode<StaticRequest>(q, cx);
      const std::uint64_t words = chip_->static_mesh().link_words();
      statics_.take(r, s, now);
      return energy_.static_words(r, s.kind, chip_->static_mesh().link_words() - words);
    }
    case kReqStaticCopied: return statics_.copied(decode<StaticCopiedRequest>(q, cx));
    case kReqOffload: {
      const OffloadRequest o = decode<OffloadRequest>(q, cx);
      const MsgId first = offloads_.peek_next_id();
      offloads_.take(r, o);
      return energy_.own_offloads(first, offloads_.peek_next_id(), r, o.call_kind);
    }
    default: return;
  }
}

// ------------------------------------------------------------------ the adapter's reports

void SimEngine::arrived(MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  if (is_offload(id)) return offloads_.progress(id, at + core_cycles, true);
  p2p_.arrived(id, at, core_cycles);
}
void SimEngine::send_done(MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  if (is_offload(id)) return offloads_.progress(id, at + core_cycles, false);
  p2p_.sent(id, at, core_cycles);
}
void SimEngine::data_done(MsgId id, hw::Cycle at, hw::Cycle core_cycles) { p2p_.data_done(id, at, core_cycles); }
void SimEngine::remote_done(MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  remotes_.done(id, at, core_cycles);
  energy_.remote_over(id);  // (its last packet has been charged: remote_done comes with it)
}
void SimEngine::remote_served(MsgId id, hw::Cycle at, hw::Cycle core_cycles) { remotes_.served(id, at, core_cycles); }
void SimEngine::migration_work(MsgId id, hw::Cycle at, hw::Cycle core_cycles) { migrations_.work(id, at, core_cycles); }
void SimEngine::migration_switch(MsgId id, hw::Cycle stop, hw::Cycle resume) { migrations_.switched(id, stop, resume); }

void SimEngine::on_delivered(const hw::PacketEvent& e) {
  ++packets_;
  // Link conflict: the head waited for a link that another packet held (the chip model's
  // link_wait; not the ejection port, not the packet's own links, not the source's own packets).
  if (e.link_wait) {
    ++conflicts_;
    conflict_cycles_ += e.link_wait;
  }
  // Delay, for any reason: the packet took longer in the network than it would have alone,
  // waiting for an ejection port included. head_in is when the head entered the source's
  // injection buffer: waiting behind the source's own earlier packets is not part of it.
  const std::uint32_t payload = e.flits > static_cast<std::uint32_t>(config_.header_flits)
                                    ? e.flits - static_cast<std::uint32_t>(config_.header_flits)
                                    : 0;
  const hw::Cycle alone = chip_->zero_load_latency(e.src, e.dst, payload);
  const hw::Cycle took = e.cycle - e.head_in;
  if (took > alone) {
    ++delayed_;
    delay_cycles_ += took - alone;
  }
  // The links of a packet's path, for the trace: known from its ends under a deterministic
  // routing; an oblivious or adaptive one chose per packet, and the trace draws no link for it.
  if (tracing_ && e.src != e.dst && routing_->kind == hw::RoutingKind::deterministic) {
    const hw::Topology& topo = chip_->topology();
    std::vector<hw::Link> path = hw::routed_path(*routing_, topo, e.src, e.dst, hw::PacketRoute{});
    const hw::Cycle hop = static_cast<hw::Cycle>(config_.router_delay + config_.link_latency);
    // Approximate busy span per link: the worm's head reaches hop i after i hops at the
    // observed pace, and the body follows for `flits` cycles.
    const double pace = path.empty() ? 0.0 : static_cast<double>(took > e.flits ? took - e.flits : 0) / path.size();
    for (std::size_t i = 0; i < path.size(); ++i) {
      const std::uint64_t b = e.head_in + static_cast<std::uint64_t>(pace * static_cast<double>(i)) + hop;
      link_spans_.push_back(LinkSpan{hw::Topology::link_index(path[i]) + e.network * 1000000, b, b + e.flits});
    }
  }
  energy_.delivered(e, tiles_, adapter_->packet_owner(e));
  adapter_->delivered(e);
}

// ------------------------------------------------------------------ time

// A long run says where it is: virtual cycle, messages, ranks done, wall time, every few seconds
// (sim.progress). The clock is read at the first advance and once every 64 after, which costs
// nothing measurable (one reading every 1024 advances could leave a slow job, a sanitized one on
// a loaded machine, without a line for its first 7 s: sim.progress failed so once).
void SimEngine::report_progress() {
  if (progress_calls_++ % 64 != 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (progress_started_ == std::chrono::steady_clock::time_point{}) {
    progress_started_ = progress_said_ = now;
    return;
  }
  if (now - progress_said_ < std::chrono::seconds(kProgressSeconds)) return;
  progress_said_ = now;
  int done = 0;
  for (const RankInfo& ri : ranks_) done += ri.finished ? 1 : 0;
  const std::uint64_t cycle = std::min(bound_, chip_->now());
  std::fprintf(stderr, "tilempirun: sim: cycle %llu (%.3f ms virtual), %llu messages, %d of %d ranks done; wall %.0f s\n",
               static_cast<unsigned long long>(cycle), static_cast<double>(cycle) / config_.clock_hz * 1e3,
               static_cast<unsigned long long>(messages_), done, n_,
               std::chrono::duration<double>(now - progress_started_).count());
}

bool SimEngine::advance_to(std::uint64_t bound) {
  if (opt_.progress) report_progress();
  bound_ = bound;
  bool did = false;
  for (;;) {
    std::uint64_t chip_next = chip_->next_event_cycle();
    std::uint64_t next = chip_next;
    next = std::min(next, queue_.first_cycle());
    if (!timers_.empty()) next = std::min(next, std::get<0>(timers_.top()));
    if (next == hw::kNever || next > bound_) break;
    processing_ = next;
    if (migrations_.switches_pending()) migrations_.apply_switches(next);
    if (queue_.first_cycle() == next) {
      do {
        EngineRequest q;  // (a copy: apply may queue more)
        const int rank = queue_.pop(q);
        apply(rank, q, next);
      } while (queue_.first_cycle() == next);
      chip_next = chip_->next_event_cycle();  // the requests may have given the chip work at `next`
    }
    if (chip_next == next) chip_->run_until(next);
    while (!timers_.empty() && std::get<0>(timers_.top()) <= next) {
      const auto [t, r, block] = timers_.top();
      timers_.pop();
      const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
      if (ri.blocks == block) wake(r, std::max(next, ri.blocked_at));
    }
    did = true;
  }
  return did;
}

bool SimEngine::idle() const { return queue_.empty() && timers_.empty() && chip_->next_event_cycle() == hw::kNever; }

bool SimEngine::all_finished() const {
  for (const RankInfo& ri : ranks_)
    if (!ri.finished) return false;
  return true;
}

void SimEngine::rank_ended(int r, std::uint64_t at) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.finished) return;
  ri.finished = true;
  ri.state = kFinished;
  ri.end = at;
  sink_.state_changed(r, kFinished);
}

// ------------------------------------------------------------------ deadlock

std::string SimEngine::deadlock_report() {
  std::vector<int> blocked;
  std::uint64_t at = 0;
  for (int r = 0; r < n_; ++r)
    if (ranks_[static_cast<std::size_t>(r)].state == kBlocked) {
      blocked.push_back(r);
      at = std::max(at, ranks_[static_cast<std::size_t>(r)].blocked_at);
    }
  sink_.ask_descriptions(blocked);
  std::string out = "sim: deadlock at virtual cycle " + std::to_string(at) + ": " + std::to_string(blocked.size()) +
                    " rank(s) wait and nothing is in flight";
  for (int r : blocked)
    out += "\n  rank " + std::to_string(r) + " (waiting since cycle " +
           std::to_string(ranks_[static_cast<std::size_t>(r)].blocked_at) + "): " + sink_.describe(r);
  for (int r = 0; r < n_; ++r) {
    const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    if (ri.finished && !ri.said_goodbye) out += "\n  rank " + std::to_string(r) + ": exited without MPI_Finalize";
  }
  return out;
}

std::string SimEngine::where_ranks_are() {
  std::vector<int> blocked;
  for (int r = 0; r < n_; ++r)
    if (!ranks_[static_cast<std::size_t>(r)].finished && ranks_[static_cast<std::size_t>(r)].state == kBlocked)
      blocked.push_back(r);
  sink_.ask_descriptions(blocked);
  std::string out;
  for (int r = 0; r < n_; ++r) {
    const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    out += "\n  rank " + std::to_string(r);
    if (ri.finished)
      out += ri.said_goodbye ? ": ended" : ": exited without MPI_Finalize";
    else if (ri.state == kBlocked)
      out += " (waiting since virtual cycle " + std::to_string(ri.blocked_at) + "): " + sink_.describe(r);
    else
      out += " (at virtual cycle " + std::to_string(sink_.clock_of(r)) + "): running (not waiting in MPI)";
  }
  return out;
}

// ------------------------------------------------------------------ end of the job

std::string SimEngine::finish(std::string failure, bool aborted) {
  // Ranks that never said goodbye: take their last published clocks.
  for (int r = 0; r < n_; ++r) {
    RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    if (!ri.finished) ri.end = sink_.clock_of(r);
  }
  // When every rank has finished, the network runs dry before the report, whatever point the
  // engine had reached: ranks as processes let the engine thread run ahead on its own, ranks as
  // contexts only as far as a rank needed, so traffic still in flight at the end (an adapter's
  // last acknowledgements) was counted or not depending on the process model and on timing.
  if (failure.empty() && !aborted && all_finished()) advance_to(hw::kNever);
  try {
    if (!opt_.report_path.empty()) write_report();
    if (tracing_) write_trace();
  } catch (const std::exception& e) {
    if (failure.empty()) failure = std::string("sim: ") + e.what();
  }
  if (opt_.summary) print_summary();
  // A job whose ranks all ended, some of them between MPI_Init and MPI_Finalize, did not run as
  // MPI says (a program that never used MPI is no MPI job: it may end as it likes).
  if (failure.empty() && !aborted) {
    bool used = false;
    std::string unfinalized;
    for (int r = 0; r < n_; ++r) {
      const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
      used = used || ri.used_mpi;
      if (ri.finished && !ri.said_goodbye) unfinalized += (unfinalized.empty() ? "" : ", ") + std::to_string(r);
    }
    if (used && !unfinalized.empty())
      failure = "sim: rank" + std::string(unfinalized.find(',') == std::string::npos ? " " : "s ") + unfinalized +
                ": " + kExitedWithoutFinalize;
  }
  // --migrate orders for cycles the job never reached: say so rather than nothing.
  if (failure.empty()) {
    std::uint64_t end = 0;
    for (const RankInfo& ri : ranks_) end = std::max(end, ri.end);
    queue_.for_each([&](std::uint64_t, int rank, const EngineRequest& req) {
      if (req.kind != kReqMigrate || rank >= 0) return;
      const MigrateRequest m = decode<MigrateRequest>(req, decode_context(0));
      std::fprintf(stderr, "tilempirun: sim: --migrate %llu:%llu@%llu did not happen: the job ended at cycle %llu\n",
                   static_cast<unsigned long long>(m.who), static_cast<unsigned long long>(m.tile),
                   static_cast<unsigned long long>(m.time), static_cast<unsigned long long>(end));
    });
  }
  return failure;
}

}  // namespace tilempi::transport::sim
