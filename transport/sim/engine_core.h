// What every mechanism of the simulation engine shares (sim_engine.h drives them): the chip, the
// adapter, the placement of ranks on tiles, each rank's state as the engine knows it, and
// publishing an event to a rank (waking it if it waits for that event).
//
// The engine reaches the ranks through a RankSink: ranks as processes (segment_ranks.h: rings
// in a shared segment, futex bells) or ranks as contexts (context_job.cpp: function calls in the
// same thread). The engine itself does not know which.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "sim/wire.h"
#include "sim/rank_messages.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/transport/job_settings.h"  // MigrationOrder

namespace tilempi::transport::sim {

/// How the engine reaches the ranks.
class RankSink {
 public:
  virtual ~RankSink() = default;
  /// An event for rank r, in publication order.
  virtual void deliver(int r, const EngineEvent& e) = 0;
  /// Blocked rank r resumes at cycle `at`.
  virtual void woken(int r, std::uint64_t at) = 0;
  /// Rank r asked to block at `at` but an event it has not seen is published: it goes on.
  virtual void stays_awake(int r, std::uint64_t at) { (void)r, (void)at; }
  /// Rank r blocked or finished (the engine's own record changed already).
  virtual void state_changed(int r, RankState s) { (void)r, (void)s; }
  /// Rank r's payload arena (static broadcasts and offloads read the root's list from it).
  virtual const unsigned char* arena(int r) const = 0;
  virtual std::uint64_t arena_bytes() const = 0;
  /// Rank r's clock (the end of a rank that never said goodbye).
  virtual std::uint64_t clock_of(int r) const = 0;
  /// The deadlock report is coming: these blocked ranks will be asked what they wait for.
  virtual void ask_descriptions(const std::vector<int>& ranks) { (void)ranks; }
  /// What rank r waits for (the deadlock report).
  virtual std::string describe(int r) = 0;
};

struct EngineOptions {
  std::string report_path;
  std::string trace_path;
  /// How the ranks' compute is charged, in words, for the report and the summary (the job's
  /// resolved sim.compute, whose one default is its declaration's: transport/transport_settings.cpp).
  std::string compute;
  bool summary = true;
  bool progress = false;     ///< a line on stderr every few seconds of wall time (sim.progress)
  std::string summary_note;  ///< appended to the summary line (how the ranks ran)
  bool ranks_share_process = false;  ///< ranks are contexts in the engine's process (its peak memory is the job's)
  std::vector<MigrationOrder> migrations;  ///< tilempirun --migrate
};

/// A rank as the engine knows it.
struct RankInfo {
  std::uint32_t state = kRunning;
  std::uint64_t requests = 0;   ///< requests taken
  std::uint64_t published = 0;  ///< events published to it
  std::uint64_t blocked_at = 0;
  std::uint64_t blocks = 0;  ///< BLOCK requests taken
  bool wants_space = false;  ///< blocked for arena space: releases wake it
  std::uint64_t sleep_through = 0;  ///< completions the blocked rank need not be woken for (kSleepAll: all)
  std::uint64_t wake_op = 0;        ///< with kSleepAll: the operation whose completion wakes it
  std::uint64_t handler_cycles = 0;  ///< the adapter's wake-up handlers on this rank's core
  std::uint64_t end = 0;
  FinishRequest totals{};  ///< what the rank said at its goodbye (all zero without one)
  std::uint64_t sends = 0, bytes_sent = 0, recvs = 0;
  bool finished = false;
  bool said_goodbye = false;
  bool used_mpi = false;  ///< it posted a request: a rank of an MPI program
  std::map<std::string, std::uint64_t> notes;  ///< the rank's annotations ("alltoall=mesh_rounds" -> calls)
};

class EngineCore {
 public:
  EngineCore(int nranks, const hwmodel::Config& config, const std::string& adapter, std::vector<hwmodel::TileId> tiles,
             EngineOptions options, RankSink& sink);
  virtual ~EngineCore() = default;
  EngineCore(const EngineCore&) = delete;
  EngineCore& operator=(const EngineCore&) = delete;

  int nranks() const { return n_; }
  const hwmodel::Config& config() const { return config_; }
  const std::string& adapter_name() const { return adapter_name_; }
  hwmodel::Chip& chip() { return *chip_; }
  hwmodel::adapter::Adapter& adapter() { return *adapter_; }
  hwmodel::TileId tile(int r) const { return tiles_[static_cast<std::size_t>(r)]; }
  std::vector<hwmodel::TileId>& tiles() { return tiles_; }
  RankInfo& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  const unsigned char* arena(int r) const { return sink_.arena(r); }
  /// The adapter's lookahead: a request at cycle t touches the network at t + lookahead.
  std::uint64_t lookahead() const { return lookahead_; }
  /// The cycle whose events are being generated.
  std::uint64_t processing() const { return processing_; }

  /// Publishes an event to rank r (typed messages: their encode()), and wakes r if it waits for it.
  void publish(int r, const EngineEvent& e);
  template <class Message>
  void publish(int r, const Message& m) {
    publish(r, encode(m));
  }

  bool tracing() const { return tracing_; }
  /// A span of rank r's timeline in the trace (name: static storage).
  void trace(int r, const char* name, std::uint64_t begin, std::uint64_t end) {
    if (tracing_) spans_.push_back(Span{r, name, begin, end});
  }
  /// Messages the network carried for the ranks (the summary's count).
  void count_message() { ++messages_; }

 protected:
  struct Span {
    int rank;
    const char* name;
    std::uint64_t begin, end;
  };
  void wake(int r, std::uint64_t at);
  /// (cycle, rank, block number): wake the rank then if it is still in that same block.
  using Timer = std::tuple<std::uint64_t, int, std::uint64_t>;

  int n_;
  hwmodel::Config config_;
  std::string adapter_name_;
  std::vector<hwmodel::TileId> tiles_;
  EngineOptions opt_;
  RankSink& sink_;
  std::unique_ptr<hwmodel::Chip> chip_;
  std::unique_ptr<hwmodel::adapter::Adapter> adapter_;
  std::uint64_t lookahead_ = 1;
  std::uint64_t wake_cycles_ = 0;  ///< per event a rank waits for (Adapter::wake_cycles)
  std::vector<RankInfo> ranks_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::uint64_t processing_ = 0;
  std::uint64_t bound_ = 0;
  bool tracing_ = false;
  std::vector<Span> spans_;
  std::uint64_t messages_ = 0;
  std::uint64_t blocks_total_ = 0, wakes_total_ = 0;
};

}  // namespace tilempi::transport::sim
