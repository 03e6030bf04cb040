// The simulation engine of the sim transport: owns the modeled chip and its adapter and orders
// every rank's network calls in virtual time. It runs in the launcher's engine thread (ranks as
// processes, segment_ranks.h drives it) or in the simulator process beside the ranks (ranks as
// contexts, context_job.cpp drives it); either way it reaches the ranks through a RankSink.
//
// Conservative synchronization. A running rank publishes its clock t: every request it will
// still post has a time >= t, and a request at time t touches the network no earlier than
// t + L (L = the adapter's lookahead). So the engine may simulate every cycle up to
// B = min(running clocks) + L - 1; blocked ranks do not hold it back. Its driver publishes that
// "horizon": a rank may answer a poll at its clock t once horizon >= t, from the events the
// engine has published for it. A blocked rank is woken, with its clock moved forward, at the
// cycle of the first event for it. When no rank runs, no request is queued and the chip is
// idle while some rank still waits, the job is deadlocked: the engine asks each blocked rank for
// its pending operations and ends the job.
//
// Each mechanism keeps its own half in its own file: point-to-point messages (p2p_engine.h),
// the static network (static_engine.h), collective offload (offload_engine.h), one-sided
// operations (remote_engine.h), task migration (migration_engine.h). This class takes the
// requests, decodes them (decoding validates: messages.h) and hands each to its mechanism at
// its cycle, and routes the adapter's reports back to the mechanism that owns the id.
#pragma once

#include <chrono>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "sim/energy_account.h"
#include "sim/engine_core.h"
#include "sim/request_lanes.h"
#include "tilempi/hwmodel/routing.h"
#include "sim/migration_engine.h"
#include "sim/offload_engine.h"
#include "sim/p2p_engine.h"
#include "sim/remote_engine.h"
#include "sim/slots.h"
#include "sim/static_engine.h"

namespace tilempi::transport::sim {

class SimEngine final : public EngineCore, public hwmodel::adapter::Listener {
 public:
  SimEngine(int nranks, const hwmodel::Config& config, const std::string& adapter, std::vector<hwmodel::TileId> tiles,
            EngineOptions options, RankSink& sink);

  /// A request of rank r, taken at once (a BLOCK leaves the rank blocked unless something was
  /// published that it has not seen). Throws MalformedRequest for a malformed one.
  void take(int r, const EngineRequest& q);
  bool is_blocked(int r) const { return ranks_[static_cast<std::size_t>(r)].state == kBlocked; }
  std::uint32_t state(int r) const { return ranks_[static_cast<std::size_t>(r)].state; }
  /// Rank r has been through MPI_Finalize (its goodbye reached the engine).
  bool finalized(int r) const { return ranks_[static_cast<std::size_t>(r)].said_goodbye; }
  /// Simulates every cycle up to `bound`; a rank woken on the way lowers the bound to its wake-up
  /// cycle + lookahead - 1 (bound() tells the final one). Returns whether anything happened.
  bool advance_to(std::uint64_t bound);
  std::uint64_t bound() const { return bound_; }
  /// No request queued, no timer pending, the chip idle.
  bool idle() const;
  bool all_finished() const;
  /// Rank r's code ended (its main returned, or it called exit, or its process ended) with its
  /// clock at `at`, before or after saying goodbye.
  void rank_ended(int r, std::uint64_t at);
  /// The deadlock report (every blocked rank's pending operations).
  std::string deadlock_report();
  /// Where every rank is, one line each ("  rank R ..."): waiting in MPI (its pending operations),
  /// running its own code, or ended. For the launcher's --timeout, as the host transport says it.
  std::string where_ranks_are();

  void set_wall_seconds(double s) { wall_seconds_ = s; }
  void add_chip_seconds(double s) { chip_seconds_ += s; }
  /// The driver's hand-off counts (TILEMPI_SIM_PROFILE): its passes and sleeps.
  void set_driver_counts(std::uint64_t passes, std::uint64_t sleeps) { passes_ = passes, engine_sleeps_ = sleeps; }
  /// After the last rank: writes report and trace, prints the summary; returns why the job failed
  /// (`failure` if set already, or a finding of its own), empty if it did not. `aborted`: a rank
  /// ended the job (MPI_Abort, a fatal error), so ranks that did not finalize are no finding.
  std::string finish(std::string failure, bool aborted);

  // Listener: routes each report to the mechanism that owns the id (sim_ids.h).
  void arrived(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void send_done(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void data_done(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void remote_done(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void remote_served(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void migration_work(MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void migration_switch(MsgId id, hwmodel::Cycle stop, hwmodel::Cycle resume) override;

 private:
  DecodeContext decode_context(int r) const;
  /// A queued request at its cycle `now`, handed to its mechanism.
  void apply(int r, const EngineRequest& q, std::uint64_t now);
  void block(int r, const BlockRequest& b);
  void finish_rank(int r, const FinishRequest& f);
  void on_delivered(const hwmodel::PacketEvent& e);

  void write_report();
  /// The job's energy (sim_report.cpp) and one rank's share for the report.
  JobEnergy job_energy() const;
  hwmodel::Stats energy_stats() const;  ///< the chip's statistics, stretched to the job's end
  nlohmann::json rank_energy(int r) const;
  void write_trace();
  void print_summary();
  static std::string peak_memory_text();
  static constexpr int kProgressSeconds = 5;
  void report_progress();
  /// How compute was charged: the --compute setting, or the counted model where ranks counted.
  std::string compute_text() const;

  P2pMessages p2p_;
  StaticBroadcasts statics_;
  Offloads offloads_;
  RemoteOperations remotes_;
  Migrations migrations_;

  RequestLanes queue_;  ///< the requests that wait for their cycle

  // statistics
  std::uint64_t packets_ = 0;
  /// Packets whose head waited for a link held by another packet, and their summed wait.
  std::uint64_t conflicts_ = 0, conflict_cycles_ = 0;
  /// Packets slower than their zero-load latency (any reason), and their summed extra cycles.
  std::uint64_t delayed_ = 0, delay_cycles_ = 0;
  struct LinkSpan {
    int link;
    std::uint64_t begin, end;
  };
  std::vector<LinkSpan> link_spans_;
  EnergyAccount energy_;  ///< each delivered packet's energy, per rank (energy_account.h)
  const hwmodel::RoutingEntry* routing_;  ///< the chip's routing function (the trace's link paths)
  std::uint64_t progress_calls_ = 0;
  std::chrono::steady_clock::time_point progress_started_{}, progress_said_{};
  double wall_seconds_ = 0;
  double chip_seconds_ = 0;  ///< wall time inside the chip model
  std::uint64_t passes_ = 0, engine_sleeps_ = 0;
  std::uint64_t rank_horizon_waits_ = 0, rank_horizon_sleeps_ = 0;  ///< the ranks' waits for the horizon
};

}  // namespace tilempi::transport::sim
