#include "sim/engine_core.h"

#include <algorithm>

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;
namespace ad = tilempi::hwmodel::adapter;

EngineCore::EngineCore(int nranks, const hw::Config& config, const std::string& adapter, std::vector<hw::TileId> tiles,
                       EngineOptions options, RankSink& sink)
    : n_(nranks), config_(config), adapter_name_(adapter), tiles_(std::move(tiles)), opt_(std::move(options)),
      sink_(sink) {
  chip_ = std::make_unique<hw::Chip>(config_);
  adapter_ = ad::Adapter::create(adapter_name_, config_);
  lookahead_ = std::max<std::uint64_t>(1, adapter_->lookahead());
  wake_cycles_ = adapter_->wake_cycles();
  ranks_.resize(static_cast<std::size_t>(n_));
  tracing_ = !opt_.trace_path.empty();
}

void EngineCore::publish(int r, const EngineEvent& e0) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.finished) return;  // e.g. arena space returned after the sender's MPI_Finalize
  EngineEvent e = e0;
  if (wake_cycles_ && (e.kind == kEvArrival || e.kind == kEvSendDone || e.kind == kEvDataDone ||
                       e.kind == kEvOffload || e.kind == kEvStatic)) {
    // The event reaches the waiting code through a handler (the adapter's wakeup mode).
    e.time += wake_cycles_;
    ri.handler_cycles += wake_cycles_;
  }
  sink_.deliver(r, e);
  ++ri.published;
  // Returned arena space matters only to a rank that waits for it; the completions a rank's
  // wait sleeps through (BlockRequest::sleep_through) do not wake it either: they are in its
  // events when the completion or arrival that does wake it comes.
  if (ri.state == kBlocked && (e.kind != kEvRelease || ri.wants_space)) {
    if (ri.sleep_through && (e.kind == kEvSendDone || e.kind == kEvDataDone) && e.core_cycles == 0 &&
        !(ri.sleep_through == kSleepAll && e.op == ri.wake_op)) {
      if (ri.sleep_through != kSleepAll) --ri.sleep_through;
    } else if (e.time <= processing_) {
      wake(r, e.time > ri.blocked_at ? e.time : ri.blocked_at);
    } else {
      timers_.push({e.time, r, ri.blocks});
    }
  }
}

void EngineCore::wake(int r, std::uint64_t at) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.state != kBlocked) return;
  if (at > ri.blocked_at) trace(r, "wait", ri.blocked_at, at);
  ri.state = kRunning;
  ri.sleep_through = 0;
  ++wakes_total_;
  bound_ = std::min(bound_, at + lookahead_ - 1);
  sink_.woken(r, at);
}

}  // namespace tilempi::transport::sim
