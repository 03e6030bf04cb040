// The rank's side of the sim transport: every call that touches the network becomes a request to
// the simulation engine, stamped with the rank's virtual clock; what the engine publishes back
// (arrivals, completions) becomes visible once the rank's clock has reached its cycle. How the
// requests and events travel is the link's business (engine_link.h): the same logic serves ranks
// as processes and ranks as contexts.
//
// Determinism: an answer at clock t (a poll that finds nothing, a send not yet done) is only
// given once the engine's horizon has reached t, i.e. once every event up to t is known. A rank
// waiting for something jumps its clock straight to the next event published for it, or, when
// there is none yet, blocks and lets the engine wake it at the cycle of its next event.
//
// One class, its members defined by mechanism, each beside the engine's half and the messages
// they exchange: the rank's clock, events and waiting (rank_clock.cpp), point-to-point messages
// and the payload arena (rank_p2p.cpp), the static network (rank_static.cpp), collective offload
// (rank_offload.cpp), one-sided operations (rank_remote.cpp), task migration (rank_migration.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/compute_clock.h"
#include "sim/engine_link.h"
#include "sim/event_queue.h"
#include "sim/op_table.h"
#include "sim/payload_arena.h"
#include "sim/rank_energy.h"
#include "sim/slots.h"
#include "sim/virtual_sleep.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/core_model.h"

namespace tilempi::transport::sim {

/// One rank's side of an offloaded collective transfer, and what it learns at the end.
struct OffloadCall {
  hwmodel::adapter::CollKind kind;
  std::span<const int> members;
  int root;
  const void* sbuf;
  void* rbuf;
  std::size_t bytes;
  HwOp op = HwOp::Sum;
  HwElem elem = HwElem::I32;
  struct Part {
    int sender;
    std::uint64_t off;    ///< in the sender's arena
    std::uint64_t bytes;  ///< the sender's length
  };
  std::vector<Part> parts{};  ///< at a gather/reduce root
  /// At a multicast or scatter destination: the root's length; at a gather or reduce root: the
  /// first sender's length that differs from the root's; else this rank's.
  std::size_t sent = 0;
};

class SimTransport final : public Transport, public StaticRoutes, public CollectiveOffload, public VirtualSleeper,
                           private EventSink {
 public:
  SimTransport(std::unique_ptr<EngineLink> link, int rank, int size);
  ~SimTransport() override;
  SimTransport(const SimTransport&) = delete;
  SimTransport& operator=(const SimTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const RankPlacement& rank_placement() const override { return *rank_placement_; }
  const char* name() const override { return "sim"; }
  Capabilities capabilities() const override;
  StaticRoutes* static_routes() override { return static_ok_ ? this : nullptr; }
  CollectiveOffload* collective_offload() override { return costs_->collective_offload() ? this : nullptr; }
  void set_describer(std::function<std::string()> d) override { describer_ = std::move(d); }

  // point-to-point (rank_p2p.cpp)
  OpId send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) override;
  bool send_done(OpId id) override { return op_done(id); }
  bool poll(Arrival& out) override;
  OpId fetch(const Arrival& a, void* dst, std::size_t len) override;
  bool fetch_done(OpId id) override { return op_done(id); }

  // one-sided (rank_remote.cpp)
  OpId rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) override;
  OpId rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) override;
  bool rma_done(OpId id) override { return op_done(id); }

  // task migration (rank_migration.cpp)
  MigrateResult migrate(int rank, int tile) override;

  // static network (rank_static.cpp)
  std::size_t bcast(std::uint64_t id, std::span<const StaticRouteHop> routes, int root, void* buf,
                    std::size_t len) override;

  // collective offload (rank_offload.cpp)
  std::size_t multicast(std::uint64_t id, std::span<const int> members, int root, void* buf, std::size_t len) override;
  std::size_t scatter(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                      std::size_t block) override;
  std::size_t gather(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                     std::size_t block) override;
  std::size_t reduce(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                     std::size_t bytes, HwOp op, HwElem elem) override;

  // the clock, waiting and the rank's life (rank_clock.cpp)
  void progress() override;
  void wait(std::uint64_t) override;
  void begin_blocking_wait() override { ++lazy_; }
  void end_blocking_wait() override {
    if (lazy_ > 0) --lazy_;
    expect_ = 0;
    expect_op_ = kDone;
  }
  void expect_completions(std::size_t n, OpId only) override {
    expect_ = lazy_ > 0 ? n : 0;
    expect_op_ = lazy_ > 0 ? only : kDone;
  }
  double wtime() override;
  double wtick() override { return 1.0 / hz_; }
  [[noreturn]] void abort(int code, const std::string& why) override;
  void annotate(const char* key, const char* value) override;
  void name_call_kind(const char* kind) override { energy_->name_kind(kind); }
  double energy() override;
  void finalize() override;
  void enter_library(const char* call) override;
  void leave_library() override;
  void compute(std::uint64_t cycles) override;
  bool sleep_virtual(std::uint64_t ns) override;

  /// op_done's short path would answer false for every pending operation: none is done, and
  /// nothing is due, to publish or to charge.
  bool nothing_completes() const override { return ops_.done_count() == 0 && quiet_check(); }
  /// Inside a blocking wait op_done never synchronizes with the engine, so one progress step
  /// (the first check of a pending operation that is not done) finds all that checking each
  /// pending operation in turn would: the MPI layer may take the list instead of asking.
  bool take_finished(std::vector<OpId>& out) override {
    if (!(lazy_ > 0 && (in_library_ || depth_ > 0))) return false;
    ops_.take_finished(out);
    return true;
  }

 private:
  /// Charges compute time on entry (scale mode) and communication time on exit. Inside a call
  /// of the library above (enter_library), the compute was charged on its entry.
  struct Call {
    SimTransport& t;
    std::uint64_t start;
    explicit Call(SimTransport& tr) : t(tr) {
      if (t.depth_++ == 0 && !t.in_library_) t.charge_compute();
      start = t.clock_;
    }
    ~Call() {
      if (--t.depth_ == 0) {
        t.comm_ += t.clock_ - start;
        t.publish_clock();
        if (t.scaled_ && !t.in_library_) t.compute_clock_.start();
        if (!t.in_library_) t.app_resumes();
      }
    }
  };

  // ---- the clock and compute accounting (rank_clock.cpp)
  void charge_compute();
  /// The tile cycles of every operation the program has counted (core_model.h OpCosts); from the
  /// totals, so that rounding never accumulates.
  std::uint64_t counted_due() const {
    return static_cast<std::uint64_t>(static_cast<double>(counts_[0] + shared_mine_[0]) * op_costs_.int_op +
                                      static_cast<double>(counts_[1] + shared_mine_[1]) * op_costs_.fp_op);
  }
  /// The application runs again (after init or a call): what the program's shared libraries count
  /// from now until the next call is this rank's (EngineLink::shared_op_counts).
  void app_resumes() {
    if (!shared_counts_) return;
    shared_seen_[0] = shared_counts_[0];
    shared_seen_[1] = shared_counts_[1];
  }
  void publish_clock() {
    if (clock_ == published_) return;
    published_ = clock_;
    link_->publish_clock(clock_);
  }

  // ---- events and waiting (rank_clock.cpp)
  void post(const EngineRequest& q) { link_->post(q); }
  template <class Message>
  void post(const Message& m) {
    link_->post(encode(m));
  }
  /// Waits until the engine has published every event up to cycle t; from then on the rank may
  /// look at them.
  void sync_to(std::uint64_t t) {
    publish_clock();
    if (link_->horizon() < t) link_->sync_to(t);
    if (t > known_) known_ = t;
  }
  void drain();
  /// EventSink: an event the engine publishes, straight into the queue (ranks as contexts: one
  /// copy of the event less, and no inbox of the rank's to touch on the way).
  void take(const EngineEvent& e) override { heap_.push(e.time, seen_++, e); }
  /// Applies every event whose cycle the clock has reached and the rank has synchronized to.
  /// The bound is known_, not the engine's horizon: how far the engine has got when the rank looks
  /// depends on the host's timing (ranks as processes), and what the rank sees and does must not.
  void advance() {
    if (events_waiting()) drain();
    while (!heap_.empty() && heap_.top_time() <= clock_ && heap_.top_time() <= known_) apply_first();
  }
  /// Takes the first event held and applies it, its handler cycles charged first. An arrival
  /// stays in the queue's slot until it is polled (ready_ names the slot): it is not copied onto
  /// the stack and into a list of the rank's, two more cold places per message in a large job.
  void apply_first() {
    if (heap_.top_kind() == kEvArrival) {
      const std::uint32_t slot = heap_.pop_slot();
      clock_ += heap_.event(slot).core_cycles;
      ready_.push_back(slot);
      changed_ = true;
      return;
    }
    const EngineEvent e = heap_.pop();
    clock_ += e.core_cycles;
    apply(e);
  }
  /// An event at its cycle, handed to its mechanism.
  void apply(const EngineEvent& e);
  /// Events may have been published that this rank has not taken yet. Always true when the link
  /// cannot tell cheaply (ranks as processes).
  bool events_waiting() const { return !inbox_ || !inbox_->empty(); }
  /// advance() would apply nothing: no event taken or waiting is due.
  bool nothing_due() const {
    return !events_waiting() && (heap_.empty() || heap_.top_time() > std::min(clock_, known_));
  }
  bool quiet_check() const {
    return lazy_ > 0 && (in_library_ || depth_ > 0) && clock_ == published_ && nothing_due();
  }
  bool op_done(OpId id) {
    if (id == kDone) return true;
    const std::uint8_t state = ops_.state(id);
    if (!(state & OpTable::kLive)) return true;
    if (!(state & OpTable::kDone)) {
      // The MPI layer's completion loops ask for every pending request in turn: when nothing is
      // due, nothing to publish and no compute to charge, the full path below would change
      // nothing, so answer at once.
      if (quiet_check()) return false;
      if (!progress_for(*ops_.find(id))) return false;
    }
    ops_.erase(id);
    return true;
  }
  /// op_done's full path, out of line so that the short one costs no stack frame: progress, and
  /// whether the operation is done now.
  [[gnu::noinline]] bool progress_for(const Op& o);
  /// Nothing visible changed at the current clock: move to the next event for this rank.
  void jump_or_block();
  /// Waits (in virtual time) until operation op is done.
  void wait_for(Op& op);
  void block();

  // ---- per mechanism: what its events do to the rank
  void apply_p2p(const EngineEvent& e);       // rank_p2p.cpp
  void apply_static(const EngineEvent& e);    // rank_static.cpp
  void apply_offload(const EngineEvent& e);   // rank_offload.cpp
  std::uint64_t alloc_or_wait(std::uint64_t len);  // rank_p2p.cpp
  OpId remote(int target, std::uint64_t put_bytes, std::uint64_t get_bytes);  // rank_remote.cpp
  std::size_t offload(OffloadCall c, std::uint64_t id);  // rank_offload.cpp
  void finish_offload(OffloadCall& c, std::uint64_t root_bytes, std::uint64_t root_off);

  std::unique_ptr<EngineLink> link_;
  int rank_, size_;
  std::shared_ptr<const RankPlacement> rank_placement_;  ///< the job's, shared by its ranks (placement.h)
  double hz_ = 1e9;
  bool static_ok_ = false;
  std::map<std::string, std::uint64_t> notes_;  // annotate(): "key=value" -> calls
  std::string note_key_;
  std::unique_ptr<hwmodel::adapter::Adapter> costs_;
  std::unique_ptr<RankEnergy> energy_;  ///< kinds of call named, and what TILEMPIX_Energy prices
  std::uint64_t poll_cost_ = 1;
  bool scaled_ = false;
  double scale_ = 0;
  ComputeClock compute_clock_;  ///< times the application's code between calls (model, scale:F)
  const volatile unsigned long long* counts_ = nullptr;  ///< the program's operation counter (model)
  hwmodel::OpCosts op_costs_;
  /// The counter the program's shared libraries count into for every rank (ranks as contexts),
  /// its value when this rank's application code last resumed, and what it counted for this rank.
  const volatile unsigned long long* shared_counts_ = nullptr;
  std::uint64_t shared_seen_[2] = {0, 0}, shared_mine_[2] = {0, 0};
  std::uint64_t counted_charged_ = 0;  ///< cycles of counted operations charged so far
  int depth_ = 0;
  bool in_library_ = false;  ///< inside a call of the MPI layer (enter_library .. leave_library)
  const char* call_ = nullptr;  ///< that call's name (static storage), for the deadlock report

  std::uint64_t clock_ = 0, published_ = 0;
  std::uint64_t known_ = 0;  ///< the rank has synchronized up to this cycle: events up to it are final
  const std::vector<EngineEvent>* inbox_ = nullptr;  ///< EngineLink::local_inbox()
  std::uint64_t comm_ = 0, compute_ = 0, waited_ = 0;
  std::uint64_t blocks_ = 0;  ///< hand-offs (TILEMPI_SIM_PROFILE)
  std::uint64_t seen_ = 0;
  std::vector<EngineEvent> incoming_events_;
  std::uint64_t local_seq_ = 0;
  std::uint64_t remote_seq_ = 0;  ///< one-sided operations posted (their ids: sim_ids.h)
  OpId next_op_ = 1;
  bool changed_ = false;
  bool finished_ = false;
  int lazy_ = 0;  ///< inside a blocking wait of the layer above: "nothing yet" is provisional
  EventQueue heap_;
  std::vector<std::uint8_t> static_seen_;  ///< bcast's scratch: marks by tile
  // Arrivals not polled yet, oldest first from ready_head_ on: their slots in heap_ (a deque of
  // copies of these two-line events had allocated and freed a block for every eight of them, and
  // a vector of copies cost a cold line or two of the rank's at each arrival).
  std::vector<std::uint32_t> ready_;
  std::size_t ready_head_ = 0;
  OpTable ops_;
  std::size_t expect_ = 0;  ///< expect_completions() of the blocking wait, for its next sleep
  OpId expect_op_ = kDone;
  /// An arrival handed to the layer above and not fetched yet. Its Arrival::handle names it:
  /// (a count of arrivals) << 32 | its slot, so that a handle fetched already never matches the
  /// arrival that reuses its slot.
  struct Incoming {
    std::uint64_t handle;  ///< 0 once fetched
    std::uint64_t msg;     ///< the engine's name of the message
    std::uint64_t bytes, off;
    int src;
    bool rdv;
    bool inline_data;       ///< the payload is in data (ArrivalEvent::inline_data)
    std::uint64_t data[2];
  };
  Slots<Incoming> incoming_;
  std::uint64_t arrivals_ = 0;
  std::function<std::string()> describer_;
  std::string waiting_for_;  ///< what the transport itself waits for, if anything

  unsigned char* arena_ = nullptr;
  PayloadArena space_;
};

/// A fetch whose core work ends after its data arrived: the rank's own event, never the engine's.
inline constexpr std::uint32_t kEvLocalDone = 100;
static_assert(kEvLocalDone >= kEvKinds, "a rank's local event kind must not be an engine's");
/// Sequence numbers of the rank's own events: after every engine event of the same cycle.
inline constexpr std::uint64_t kLocalSeq = 1ull << 62;

}  // namespace tilempi::transport::sim
