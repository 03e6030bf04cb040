// The simulation engine of the sim transport: runs in the launcher process (a thread started by
// Job::start()), owns the modeled chip and its adapter, and orders every rank's network calls in
// virtual time.
//
// Conservative synchronization. A running rank publishes its clock t: every request it will
// still post has a time >= t, and a request at time t touches the network no earlier than
// t + L (L = the adapter's lookahead). So the engine may simulate every cycle up to
// B = min(running clocks) + L - 1; blocked ranks do not hold it back. It publishes that
// "horizon": a rank may answer a poll at its clock t once horizon >= t, from the events the
// engine has published for it. A blocked rank is woken, with its clock moved forward, at the
// cycle of the first event for it. When no rank runs, no request is queued and the chip is
// idle while some rank still waits, the job is deadlocked: the engine asks each blocked rank for
// its pending operations and ends the job.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/sim_shm.h"
#include "sim/slots.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/chip.h"

namespace tilempi::transport::sim {

/// A task migration ordered when the job starts: rank to tile at cycle (tilempirun --migrate).
struct MigrationOrder {
  int rank = -1;
  int tile = -1;
  std::uint64_t at = 0;
};
/// "R:T@C[,R:T@C...]" -> orders; throws std::runtime_error naming the malformed order.
std::vector<MigrationOrder> parse_migrations(const std::string& text);

struct EngineOptions {
  std::string report_path;
  std::string trace_path;
  std::string compute = "none";
  bool summary = true;
  bool progress = false;     ///< a line on stderr every kProgressSeconds of wall time (sim.progress)
  std::string summary_note;  ///< appended to the summary line (how the ranks ran)
  std::uint64_t arena_bytes = 0;  ///< each rank's payload arena (0: the segment's)
  std::vector<MigrationOrder> migrations;  ///< tilempirun --migrate
};

/// How the engine reaches ranks that live in its own process (ranks as contexts, one thread).
/// Without a sink it reaches them through the shared segment (ranks as processes).
class RankSink {
 public:
  virtual ~RankSink() = default;
  /// An event for rank r, in publication order.
  virtual void deliver(int r, const Event& e) = 0;
  /// Blocked rank r resumes at cycle `at`.
  virtual void woken(int r, std::uint64_t at) = 0;
  /// Rank r's payload arena (static broadcasts read their routes from the root's).
  virtual const unsigned char* arena(int r) const = 0;
  /// Rank r's clock (the end of a rank that never said goodbye).
  virtual std::uint64_t clock_of(int r) const = 0;
  /// What rank r waits for (the deadlock report).
  virtual std::string describe(int r) = 0;
};

class Engine final : public hwmodel::adapter::Listener {
 public:
  /// sink: null for ranks as processes (the segment), else the ranks' own process.
  Engine(Segment seg, int nranks, const hwmodel::Config& config, const std::string& adapter,
         std::vector<hwmodel::TileId> tiles, EngineOptions options, RankSink* sink = nullptr);
  ~Engine() override;

  // ---- driven by a scheduler in the ranks' own process (sink mode), one thread
  /// A request of rank r, taken at once (a BLOCK leaves the rank blocked unless something was
  /// published that it has not seen).
  void take(int r, const Request& q);
  bool is_blocked(int r) const { return ranks_[static_cast<std::size_t>(r)].state == kBlocked; }
  /// Simulates every cycle up to `bound`; a rank woken on the way lowers the bound to its wake-up
  /// cycle + lookahead - 1 (bound() tells the final one). Returns whether anything happened.
  bool advance_to(std::uint64_t bound);
  std::uint64_t bound() const { return bound_; }
  std::uint64_t lookahead() const { return lookahead_; }
  int ranks() const { return n_; }
  /// No request queued, no timer pending, the chip idle.
  bool idle() const;
  /// The deadlock report (every blocked rank's pending operations).
  std::string deadlock_report() { return describe_deadlock(); }
  void set_wall_seconds(double s) { wall_seconds_ = s; }
  void add_chip_seconds(double s) { chip_seconds_ += s; }
  /// Rank r's code ended (its main returned, or it called exit) with its clock at `at`.
  void rank_ended(int r, std::uint64_t at);

  void start();
  /// Stops the thread (after every rank ended), writes report and trace; returns a failure message.
  std::string finish();
  void rank_exited(int rank, bool ok);

  // Listener
  void arrived(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void send_done(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void data_done(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void remote_done(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void remote_served(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void migration_work(hwmodel::adapter::MsgId id, hwmodel::Cycle at, hwmodel::Cycle core_cycles) override;
  void migration_switch(hwmodel::adapter::MsgId id, hwmodel::Cycle stop, hwmodel::Cycle resume) override;

 private:
  /// A request waiting for its cycle: the heap holds this key, the request itself stays in a
  /// slot of queued_reqs_ (a Request is two cache lines, which the heap would move at every
  /// sift).
  struct Queued {
    std::uint64_t eff;
    int rank;
    std::uint32_t slot;  ///< in queued_reqs_
    std::uint64_t seq;
    bool operator>(const Queued& o) const {
      if (eff != o.eff) return eff > o.eff;
      if (rank != o.rank) return rank > o.rank;
      return seq > o.seq;
    }
  };
  // A message in flight, in a slot of msgs_. Its handle (a count of messages << kMsgSlotBits |
  // slot) names it to the adapter and to the receiver, so that their calls find it without a
  // look-up; a handle whose slot was freed (or reused) finds nothing.
  struct Msg {
    std::uint64_t handle = 0;  // 0: free slot
    int src = -1, dst = -1;
    std::uint64_t bytes = 0, arena_off = 0;
    std::uint64_t send_op = 0, fetch_op = 0;
    std::uint64_t start = 0;  // cycle of the send call (message latency)
    bool rdv = false, sync = false;
    bool sent = false, fetched = false, data = false, arrived = false;
    std::uint64_t pair_seq = 0;  // its place among the messages from src to dst
    Envelope env{};
  };
  static constexpr int kMsgSlotBits = 24;  // adapters' tags keep the handle's low 60 bits
  static constexpr std::uint64_t kMsgSlotMask = (std::uint64_t{1} << kMsgSlotBits) - 1;
  Msg& new_msg();
  Msg* find_msg(std::uint64_t handle);
  void free_msg(Msg& m);
  struct RankInfo {
    std::uint32_t state = kRunning;
    std::uint64_t req_tail = 0;
    std::uint64_t evt_head = 0;
    std::deque<Event> overflow;
    std::uint64_t blocked_at = 0;
    std::uint64_t blocks = 0;  ///< BLOCK requests taken
    bool wants_space = false;  ///< blocked for arena space: releases wake it
    std::uint64_t sleep_through = 0;  ///< completions the blocked rank need not be woken for (kSleepAll: all)
    std::uint64_t wake_op = 0;        ///< with kSleepAll: the operation whose completion wakes it
    std::uint64_t blocked_cycles = 0;
    std::uint64_t handler_cycles = 0;  ///< the adapter's wake-up handlers on this rank's core
    std::uint64_t end = 0, comm = 0, compute = 0;
    std::uint64_t sends = 0, bytes_sent = 0, recvs = 0;
    bool finished = false;
    bool said_goodbye = false;
    bool used_mpi = false;  ///< it posted a request: a rank of an MPI program
    bool counted = false;  ///< its compute was charged as counted operations (--compute model)
    std::map<std::string, std::uint64_t> notes;  ///< the rank's annotations ("alltoall=mesh_rounds" -> calls)
  };
  struct Static {
    int expected = 0;
    int root = -1;
    std::uint64_t bytes = 0, root_off = 0;
    std::uint64_t root_time = 0;
    std::vector<std::pair<int, Request>> parts;
  };
  /// A collective transfer offloaded to the adapter (NAMP-CC), by the id its members agree on.
  struct Offload {
    int kind = 0;  ///< hwmodel::adapter::CollKind
    int expected = 0;
    int root = -1;
    std::uint64_t bytes = 0, root_off = 0;
    hwmodel::adapter::MsgId group = 0;  ///< the adapter's id of the whole transfer
    std::uint64_t root_done = ~0ull;    ///< when the root's part is complete (known once the adapter says)
    int published = 0;                  ///< completions published (all `expected`: the offload ends)
    std::uint64_t last = 0;             ///< the latest completion published to a destination
    struct Part {
      bool posted = false, published = false;
      Request q{};
      std::uint64_t done = ~0ull;
      hwmodel::adapter::MsgId id = 0;
    };
    std::map<int, Part> parts;  ///< by rank
  };
  struct Span {
    int rank;
    const char* name;
    std::uint64_t begin, end;
  };

  void run();
  bool drain_requests();
  void take_request(int r, const Request& q, std::uint64_t seq);
  void check_request(int r, const Request& q) const;
  void apply(int r, const Request& q, std::uint64_t now);
  void apply_static(Static& s, std::uint64_t now);
  void release_static(int root, std::uint64_t root_off, std::uint64_t time);
  void apply_offload(int r, const Request& q, std::uint64_t now);
  /// A migration request (a rank's, or a --migrate order when `order`): starts it or says why not.
  void apply_migrate(int r, const Request& q, std::uint64_t now, bool order);
  /// Publishes an arrival in the order its messages were sent between the two ranks.
  void publish_arrival(const Msg& m, const Event& e);
  /// The adapter's report on an offloaded transfer (a part's or the whole group's id).
  void offload_progress(hwmodel::adapter::MsgId id, std::uint64_t at, bool arrival);
  void publish_offload(std::uint64_t key, Offload& o, int r, std::uint64_t at);
  void publish(int r, const Event& e);
  void flush_overflow(int r);
  void wake(int r, std::uint64_t at);
  void on_delivered(const hwmodel::PacketEvent& e);
  bool deadlock_check();
  std::string describe_deadlock();
  void write_report();
  void write_trace();
  void print_summary();
  static constexpr int kProgressSeconds = 5;
  void report_progress();
  std::uint64_t progress_calls_ = 0;
  std::chrono::steady_clock::time_point progress_started_{}, progress_said_{};
  /// How compute was charged: the --compute setting, or the counted model where ranks counted.
  std::string compute_text() const;
  void ring_rank(int r);
  const unsigned char* arena_of(int r) const { return sink_ ? sink_->arena(r) : seg_.arena(r); }

  Segment seg_;
  int n_;
  hwmodel::Config config_;
  std::string adapter_name_;
  std::vector<hwmodel::TileId> tiles_;
  EngineOptions opt_;
  RankSink* sink_ = nullptr;
  std::unique_ptr<hwmodel::Chip> chip_;
  std::unique_ptr<hwmodel::adapter::Adapter> adapter_;
  std::uint64_t lookahead_ = 1;
  std::uint64_t wake_cycles_ = 0;  ///< per event a rank waits for (Adapter::wake_cycles)

  std::vector<RankInfo> ranks_;
  std::priority_queue<Queued, std::vector<Queued>, std::greater<Queued>> queue_;
  Slots<Request> queued_reqs_;  ///< the queued requests (Queued::slot)
  void enqueue(std::uint64_t eff, int rank, std::uint64_t seq, const Request& q);
  /// (cycle, rank, block number): wake the rank then if it is still in that same block.
  using Timer = std::tuple<std::uint64_t, int, std::uint64_t>;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::vector<Msg> msgs_;
  std::vector<std::uint32_t> free_msgs_;
  std::uint64_t msg_count_ = 0;
  struct RemoteOp {
    int origin = -1, target = -1;
    std::uint64_t op = 0;
  };
  std::unordered_map<std::uint64_t, RemoteOp> remotes_;  ///< one-sided operations in flight
  std::uint64_t remote_ops_ = 0, remote_bytes_ = 0;
  std::map<std::uint64_t, Static> statics_;
  /// A static broadcast's data in the root's arena, by (root, offset): released when every other
  /// participant has copied it out (kReqStaticCopied), never on a guess of when they will.
  struct StaticCopies {
    int left = 0;
    std::uint64_t time = 0;  ///< the cycle the last participant's data arrived
  };
  std::map<std::pair<int, std::uint64_t>, StaticCopies> static_copies_;
  std::map<std::uint64_t, Offload> offloads_;
  /// Task migrations, by the adapter's id.
  struct Move {
    int rank = -1;
    hwmodel::TileId from = 0, to = 0;
    std::uint64_t requested = 0, stop = 0, resume = 0;
    bool switched = false;  ///< tiles_ names the new tile (from `resume` on)
  };
  std::map<std::uint64_t, Move> moves_;
  std::uint64_t pending_switches_ = 0;  ///< moves whose tile switch is still to come
  void apply_switches(std::uint64_t now);
  /// Per pair of ranks (src * n + dst): messages sent, arrivals published, and arrivals held
  /// back until the ones sent before them are published (an adapter that moves an endpoint
  /// may finish a later message first; MPI's non-overtaking rule rests on this order).
  struct PairOrder {
    std::uint64_t sent = 0, published = 0, last_time = 0;
    std::uint64_t held = 0;  ///< arrivals in held_ for this pair
  };
  /// Every pair's entry in one array up to kDensePairRanks ranks (25 MB at 1024: every message
  /// asks for its pair twice, and a hash lookup was 2 % of an alltoall's job); a hash map above.
  static constexpr int kDensePairRanks = 1024;
  std::vector<PairOrder> dense_pairs_;
  std::unordered_map<std::uint64_t, PairOrder> sparse_pairs_;
  PairOrder& pair_order(int src, int dst) {
    const std::uint64_t key = static_cast<std::uint64_t>(src) * static_cast<std::uint64_t>(n_) + static_cast<std::uint64_t>(dst);
    return dense_pairs_.empty() ? sparse_pairs_[key] : dense_pairs_[key];
  }
  /// Arrivals held back, by (src * n + dst, the pair's message number).
  std::map<std::pair<std::uint64_t, std::uint64_t>, Event> held_;
  /// Adapter id of an offload's part (rank) or group (-1) -> (offload key, rank).
  std::unordered_map<hwmodel::adapter::MsgId, std::pair<std::uint64_t, int>> offload_ids_;
  std::uint64_t offload_seq_ = 0;
  std::vector<int> to_ring_;  ///< ranks woken in this pass, rung after the horizon is published
  std::uint64_t horizon_ = 0;
  std::uint64_t processing_ = 0;  ///< cycle whose events are being generated
  std::uint64_t bound_ = 0;

  // statistics
  std::uint64_t messages_ = 0, packets_ = 0;
  /// Packets whose head waited for a link held by another packet, and their summed wait.
  std::uint64_t conflicts_ = 0, conflict_cycles_ = 0;
  /// Packets slower than their zero-load latency (any reason), and their summed extra cycles.
  std::uint64_t delayed_ = 0, delay_cycles_ = 0;
  std::uint64_t static_bcasts_ = 0;
  hwmodel::Summary msg_latency_;
  std::vector<Span> spans_;
  struct LinkSpan {
    int link;
    std::uint64_t begin, end;
  };
  std::vector<LinkSpan> link_spans_;
  bool tracing_ = false;

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> exited_any_{false};
  std::atomic<bool> failed_any_{false};
  std::string failure_;
  double wall_seconds_ = 0;
  double chip_seconds_ = 0;
  std::uint64_t blocks_total_ = 0, wakes_total_ = 0, passes_ = 0, engine_sleeps_ = 0;
  std::uint64_t rank_horizon_waits_ = 0, rank_horizon_sleeps_ = 0;  ///< the ranks' waits for the horizon  ///< wall time inside the chip model
};

}  // namespace tilempi::transport::sim
