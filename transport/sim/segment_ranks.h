// Ranks as processes: the engine reaches them through the job's shared segment (sim_shm.h) —
// request and event rings, each rank's control words, futex bells — and runs in a thread of
// the launcher that drives it: it drains the rings, advances the chip up to the bound the
// running ranks' clocks allow, publishes the horizon and rings the ranks it woke, and sleeps
// when nothing moves.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sim/sim_engine.h"
#include "sim/sim_shm.h"

namespace tilempi::transport::sim {

class SegmentRanks final : public RankSink {
 public:
  SegmentRanks(Segment seg, int nranks, const hwmodel::Config& config, const std::string& adapter,
               std::vector<hwmodel::TileId> tiles, EngineOptions options);
  ~SegmentRanks() override;

  /// Starts the engine thread.
  void start();
  /// The launcher saw rank's process end (ok: exit status 0).
  void rank_exited(int rank, bool ok);
  /// Stops the thread (after every rank ended), writes report and trace; returns a failure message.
  std::string finish();
  /// For the launcher's --timeout, which ends the job: stops the engine thread (the model cannot
  /// be read while it runs), takes the requests already posted, and says where every rank is.
  std::string where_ranks_are();
  /// The launcher ends the job: the ranks it ends are not reported as having left without
  /// MPI_Finalize.
  void ending_by_launcher() { ended_by_launcher_ = true; }

  // RankSink
  void deliver(int r, const EngineEvent& e) override;
  void woken(int r, std::uint64_t at) override;
  void stays_awake(int r, std::uint64_t at) override;
  void state_changed(int r, RankState s) override;
  const unsigned char* arena(int r) const override { return seg_.arena(r); }
  std::uint64_t arena_bytes() const override { return seg_.g.arena_bytes; }
  std::uint64_t clock_of(int r) const override;
  void ask_descriptions(const std::vector<int>& ranks) override;
  std::string describe(int r) override;

 private:
  void run();
  void stop_thread();
  /// Takes every request posted; notes processes that ended. Returns whether there were any.
  bool drain_requests();
  void flush_overflow(int r);
  void ring_rank(int r);
  bool deadlock_check();

  Segment seg_;
  int n_;
  std::unique_ptr<SimEngine> engine_;
  std::vector<std::uint64_t> req_tail_;  ///< per rank: requests taken from its ring
  std::vector<std::uint64_t> evt_head_;  ///< per rank: events written to its ring
  std::vector<std::deque<EngineEvent>> overflow_;  ///< per rank: events waiting for room in its ring
  std::vector<int> to_ring_;  ///< ranks woken in this pass, rung after the horizon is published
  std::uint64_t horizon_ = 0;
  std::uint64_t passes_ = 0, sleeps_ = 0;

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> exited_any_{false};
  std::atomic<bool> failed_any_{false};
  std::string failure_;
  bool ended_by_launcher_ = false;  ///< the launcher ends the job (ending_by_launcher)
};

}  // namespace tilempi::transport::sim
