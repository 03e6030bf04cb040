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
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/compute_clock.h"
#include "sim/engine_link.h"
#include "sim/placement.h"
#include "sim/sim_shm.h"
#include "sim/slots.h"
#include "sim/virtual_sleep.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/core_model.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

namespace {

constexpr std::uint64_t kNever = ~0ull;
constexpr std::uint32_t kEvLocalDone = 100;  // a fetch whose core work ends after its data arrived
static_assert(kEvLocalDone >= kEvKinds, "a rank's local event kind must not be an engine's");
constexpr std::uint64_t kLocalSeq = 1ull << 62;


class SimTransport final : public Transport, public StaticNetwork, public CollectiveOffload, public VirtualSleeper {
 public:
  SimTransport(std::unique_ptr<EngineLink> link, int rank, int size)
      : link_(std::move(link)), rank_(rank), size_(size) {
    const JobFacts& facts = link_->facts();
    // The launcher validated the config; a key this (older or newer) library does not know
    // concerns the chip only, which the ranks do not model: skip it.
    hw::Config cfg;
    {
      const std::string& text = facts.config_text;
      std::size_t pos = 0;
      while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (line.empty()) continue;
        try {
          cfg.apply(line);
        } catch (const hw::ConfigError&) {
        }
      }
    }
    hz_ = cfg.clock_hz;
    static_ok_ = cfg.static_network;
    flit_bytes_ = static_cast<std::uint64_t>(cfg.flit_bytes);
    costs_ = hw::adapter::Adapter::create(facts.adapter, cfg);
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
      }
    }
    topo_ = rank_topology(cfg, facts.tiles);
    inbox_ = link_->local_inbox();
    arena_ = link_->arena(rank_);
    arena_cap_ = link_->arena_bytes();
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
  ~SimTransport() override { forget_virtual_sleeper(this); }
  SimTransport(const SimTransport&) = delete;
  SimTransport& operator=(const SimTransport&) = delete;

  /// The application sleeps (sleep, usleep, nanosleep, clock_nanosleep: virtual_sleep.h): the
  /// rank's clock advances by the slept time at the chip's clock rate, counted as its own time
  /// (compute), as time it spends between MPI calls is.
  bool sleep_virtual(std::uint64_t ns) override {
    if (in_library_ || finished_) return false;
    compute(static_cast<std::uint64_t>(static_cast<long double>(ns) * hz_ / 1e9L + 0.5L));  // rounded
    return true;
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const Topology& topology() const override { return topo_; }
  const char* name() const override { return "sim"; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.virtual_time = true;
    c.global_clock = true;  // one engine clock for every rank
    c.modeled_tiles = true;
    c.static_network = static_ok_;
    c.hardware_multicast = c.hardware_reduction = costs_->collective_offload();
    c.one_sided = true;  // the adapter's RDMA (or its cores' handlers) reach every tile's memory
    c.migration = costs_->migration();
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
  StaticNetwork* static_network() override { return static_ok_ ? this : nullptr; }
  CollectiveOffload* collective_offload() override { return costs_->collective_offload() ? this : nullptr; }
  void set_describer(std::function<std::string()> d) override { describer_ = std::move(d); }

  // ------------------------------------------------------------ sending

  OpId send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) override {
    Call call(*this);
    const bool sync = mode == SendMode::Synchronous;
    const bool rdv = costs_->rendezvous(len, sync);
    const std::uint64_t off = alloc_or_wait(len);
    if (len) std::memcpy(arena_ + off, buf, len);
    const bool at_once = costs_->send_completes_at_once(len, rdv);
    const OpId op = at_once ? 0 : next_op_++;
    Request q{};
    q.kind = kReqSend;
    q.time = clock_;
    q.msg = (static_cast<std::uint64_t>(rank_) << 40) | ++msg_seq_;
    q.a = static_cast<std::uint64_t>(dst);
    q.b = len;
    q.c = off;
    q.d = (sync ? 1u : 0u) | (rdv ? 2u : 0u);
    q.op = op;
    q.env = envelope;
    post(q);
    clock_ += costs_->send_cost(len, rdv);
    if (op == 0) return kDone;
    Op& o = ops_.insert(op);
    o.send = true;
    o.listed = true;
    return op;
  }

  bool send_done(OpId id) override { return op_done(id); }

  // ------------------------------------------------------------ one-sided

  // The bytes move inside the call (the layer above synchronizes: nothing may read or write
  // them before the operation is complete); the engine times the adapter's packets and
  // completes the operation at the modeled cycle.
  OpId rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) override {
    Call call(*this);
    link_->copy_remote(target, remote_addr, const_cast<void*>(src), len, true);
    return remote(target, len, 0);
  }
  OpId rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) override {
    Call call(*this);
    link_->copy_remote(target, remote_addr, dst, len, false);
    return remote(target, 0, len);
  }
  bool rma_done(OpId id) override { return op_done(id); }

  OpId remote(int target, std::uint64_t put_bytes, std::uint64_t get_bytes) {
    const OpId op = next_op_++;
    Request q{};
    q.kind = kReqRemote;
    q.time = clock_;
    q.msg = (static_cast<std::uint64_t>(rank_) << 40) | ++msg_seq_;
    q.a = static_cast<std::uint64_t>(target);
    q.b = put_bytes;
    q.c = get_bytes;
    q.op = op;
    post(q);
    clock_ += costs_->remote_issue_cost(put_bytes, get_bytes);
    ops_.insert(op).send = true;  // finalize waits for it like a send
    return op;
  }

  // ------------------------------------------------------------ task migration

  // The engine answers at once (in virtual time: the request's cycle + lookahead); the
  // migration itself goes on while the caller continues.
  MigrateResult migrate(int rank, int tile) override {
    Call call(*this);
    const OpId op = next_op_++;
    Request q{};
    q.kind = kReqMigrate;
    q.time = clock_;
    q.a = static_cast<std::uint64_t>(rank);
    q.b = static_cast<std::uint64_t>(tile);
    q.op = op;
    Op& mine = ops_.insert(op);
    post(q);
    while (!mine.done) {
      advance();
      if (mine.done) break;
      changed_ = false;
      jump_or_block();
    }
    const std::uint64_t status = mine.status;
    ops_.erase(op);
    switch (static_cast<MigrateStatus>(status)) {
      case MigrateStatus::Ok: return MigrateResult::Ok;
      case MigrateStatus::BadTile: return MigrateResult::BadTile;
      case MigrateStatus::Occupied: return MigrateResult::Occupied;
      default: return MigrateResult::Unsupported;
    }
  }

  // ------------------------------------------------------------ receiving

  bool poll(Arrival& out) override {
    Call call(*this);
    advance();
    if (ready_head_ == ready_.size() && lazy_ == 0) {
      sync_to(clock_);
      advance();
    }
    if (ready_head_ == ready_.size()) {
      if (lazy_ == 0) clock_ += poll_cost_;
      return false;
    }
    const Event e = ready_[ready_head_++];
    if (ready_head_ == ready_.size()) {
      ready_.clear();
      ready_head_ = 0;
    } else if (ready_head_ >= 64 && 2 * ready_head_ >= ready_.size()) {  // never drained: drop what was read
      ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(ready_head_));
      ready_head_ = 0;
    }
    out.source = static_cast<int>(e.a);
    out.envelope = e.env;
    out.size = e.b;
    // A synchronous message waits in the adapter's buffer until matched: the receiver's take
    // (fetch) is what completes the sender.
    out.buffered = e.d == 0;
    const std::uint32_t slot = incoming_.put(Incoming{0, e.msg, e.b, e.c, static_cast<int>(e.a), (e.d & 1) != 0});
    out.handle = (++arrivals_ << 32) | slot;
    incoming_[slot].handle = out.handle;
    return true;
  }

  OpId fetch(const Arrival& a, void* dst, std::size_t len) override {
    Call call(*this);
    const std::uint32_t slot = static_cast<std::uint32_t>(a.handle);
    if (slot >= incoming_.size() || incoming_[slot].handle != a.handle || a.handle == 0)
      abort(1, "tilempi sim transport: fetch of an unknown or already fetched message");
    const Incoming in = incoming_[slot];
    incoming_[slot].handle = 0;
    incoming_.release(slot);
    if (len > in.bytes) len = in.bytes;
    if (len) std::memcpy(dst, link_->arena(in.src) + in.off, len);
    const OpId op = in.rdv ? next_op_++ : 0;
    Request q{};
    q.kind = kReqFetch;
    q.time = clock_;
    q.msg = in.msg;
    q.op = op;
    post(q);
    if (!in.rdv) {
      clock_ += costs_->recv_cost(in.bytes, false);
      return kDone;
    }
    Op& o = ops_.insert(op);
    o.min_done = clock_ + costs_->recv_cost(in.bytes, true);
    o.listed = true;
    clock_ += costs_->accept_cost();
    return op;
  }

  bool fetch_done(OpId id) override { return op_done(id); }

  void progress() override {
    Call call(*this);
    advance();
  }

  void wait(std::uint64_t) override {
    Call call(*this);
    advance();
    if (!changed_) jump_or_block();
    changed_ = false;
  }

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

  double wtime() override {
    Call call(*this);
    return static_cast<double>(clock_) / hz_;
  }
  double wtick() override { return 1.0 / hz_; }

  [[noreturn]] void abort(int code, const std::string& why) override {
    link_->abort(rank_, code, why);
    std::abort();  // not reached: the link ends the job
  }

  void annotate(const char* key, const char* value) override {
    note_key_.assign(key).append("=").append(value);
    ++notes_[note_key_];
  }

  void finalize() override {
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
    // The annotations go to the engine once, at the rank's end: one request each, text inline.
    for (const auto& [k, count] : notes_) {
      Request n{};
      n.kind = kReqNote;
      n.time = clock_;
      n.a = count;
      char text[kNoteChars] = {};
      std::memcpy(text, k.data(), std::min(k.size(), kNoteChars));
      std::memcpy(&n.env, text, sizeof n.env);
      std::memcpy(n.spare, text + sizeof n.env, sizeof n.spare);
      post(n);
    }
    Request q{};
    q.kind = kReqFinish;
    q.time = clock_;
    q.a = counts_ ? 1 : 0;
    q.b = comm_;
    q.c = compute_;
    q.d = waited_;
    q.spare[0] = link_->horizon_waits();
    q.spare[1] = link_->horizon_sleeps();
    q.spare[2] = blocks_;
    post(q);
    published_ = clock_;
    link_->publish_clock(clock_);
    finished_ = true;
    forget_virtual_sleeper(this);
  }

  // ------------------------------------------------------------ static network

  std::size_t bcast(std::uint64_t id, std::span<const StaticRouteHop> routes, int root, void* buf,
                    std::size_t len) override {
    Call call(*this);
    // The participants: the tiles the routes deliver to, and the root, each counted once (marks
    // in a table by tile, cleared after; a look-up per hop in a list was quadratic in the ranks,
    // 4 % of a 64-rank mesh_rounds job, and sorting the list still 3 %).
    std::vector<std::uint8_t>& seen = static_seen_;
    std::uint64_t participants = 0;
    auto count = [&](int tile) {
      const std::size_t k = static_cast<std::size_t>(tile);
      if (k >= seen.size()) seen.resize(k + 1, 0);
      participants += seen[k] == 0;
      seen[k] = 1;
    };
    for (const StaticRouteHop& h : routes)
      if (h.out_mask & kPortLocal) count(h.tile);
    count(root);
    for (const StaticRouteHop& h : routes)  // (only the tiles count() marked: the table may be shorter)
      if (h.out_mask & kPortLocal) seen[static_cast<std::size_t>(h.tile)] = 0;
    seen[static_cast<std::size_t>(root)] = 0;
    std::uint64_t off = 0;
    if (rank_ == root) {
      const std::uint64_t count = routes.size();
      off = alloc_or_wait(8 + count * sizeof(StaticRouteHop) + len);
      std::memcpy(arena_ + off, &count, 8);
      if (count) std::memcpy(arena_ + off + 8, routes.data(), count * sizeof(StaticRouteHop));
      if (len) std::memcpy(arena_ + off + 8 + count * sizeof(StaticRouteHop), buf, len);
    }
    const OpId op = next_op_++;
    {
      Op& o = ops_.insert(op);
      o.dst = static_cast<unsigned char*>(buf);
      o.len = len;
    }
    Request q{};
    q.kind = kReqStatic;
    q.time = clock_;
    q.msg = id;
    q.a = static_cast<std::uint64_t>(root);
    q.b = len;
    q.c = off;
    q.op = op;
    q.env.word[0] = participants;
    post(q);
    // A blocking wait for one event at a cycle the engine decides: events are applied in time
    // order whatever the horizon, so blocking at once changes no cycle.
    Op& mine = *ops_.find(op);
    while (!mine.done) {
      advance();
      if (mine.done) break;
      changed_ = false;
      jump_or_block();
    }
    const std::size_t sent = rank_ == root ? len : static_cast<std::size_t>(mine.sent);
    ops_.erase(op);
    return sent;
  }

  // ------------------------------------------------------------ collective offload

  std::size_t multicast(std::uint64_t id, std::span<const int> members, int root, void* buf, std::size_t len) override {
    return offload(OffloadCall{hw::adapter::CollKind::Multicast, members, root, buf, buf, len}, id);
  }
  std::size_t scatter(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                      std::size_t block) override {
    return offload(OffloadCall{hw::adapter::CollKind::Scatter, members, root, sbuf, rbuf, block}, id);
  }
  std::size_t gather(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                     std::size_t block) override {
    return offload(OffloadCall{hw::adapter::CollKind::Gather, members, root, sbuf, rbuf, block}, id);
  }
  std::size_t reduce(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                     std::size_t bytes, HwOp op, HwElem elem) override {
    OffloadCall c{hw::adapter::CollKind::Reduce, members, root, sbuf, rbuf, bytes};
    c.op = op;
    c.elem = elem;
    return offload(c, id);
  }

 private:
  /// One rank's side of an offloaded collective transfer, and what it learns at the end.
  struct OffloadCall {
    hw::adapter::CollKind kind;
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
  struct Op {
    bool done = false;  // written only by OpTable::set_done (which keeps its state byte)
    bool send = false;
    bool listed = false;  // of send() or fetch(): take_finished hands it over once done
    std::uint64_t min_done = 0;
    unsigned char* dst = nullptr;  // static broadcast target
    std::uint64_t len = 0;
    OffloadCall* offload = nullptr;
    std::uint64_t status = 0;  // a migration request's answer (MigrateStatus)
    std::uint64_t sent = 0;    // a static broadcast's length at its root
  };

  std::size_t index_of(std::span<const int> members, int r) const {
    return static_cast<std::size_t>(std::find(members.begin(), members.end(), r) - members.begin());
  }
  /// Bytes ahead of the data in a spreading root's arena chunk: [count][ranks, padded to 8].
  static std::uint64_t list_bytes(std::size_t n) { return 8 + (n * 4 + 7) / 8 * 8; }

  /// Returns the root's length at a multicast or scatter destination, else this rank's.
  std::size_t offload(OffloadCall c, std::uint64_t id) {
    using K = hw::adapter::CollKind;
    Call call(*this);
    const bool spread = c.kind == K::Multicast || c.kind == K::Scatter;
    const bool root = rank_ == c.root;
    const std::size_t n = c.members.size();
    const std::size_t me = index_of(c.members, rank_);
    // This rank's own block never crosses the network.
    if (root && c.kind == K::Scatter && c.rbuf) std::memmove(c.rbuf, static_cast<const unsigned char*>(c.sbuf) + me * c.bytes, c.bytes);
    if (root && c.kind == K::Gather && c.sbuf) std::memmove(static_cast<unsigned char*>(c.rbuf) + me * c.bytes, c.sbuf, c.bytes);
    if (root && c.kind == K::Reduce && c.bytes) std::memmove(c.rbuf, c.sbuf, c.bytes);
    c.sent = c.bytes;
    if (n <= 1) return c.bytes;
    std::uint64_t off = 0;
    if (spread && root) {
      const std::uint64_t data = c.kind == K::Scatter ? c.bytes * n : c.bytes;
      off = alloc_or_wait(list_bytes(n) + data);
      const std::uint64_t count = n;
      std::memcpy(arena_ + off, &count, 8);
      for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t m = c.members[i];
        std::memcpy(arena_ + off + 8 + i * 4, &m, 4);
      }
      if (data) std::memcpy(arena_ + off + list_bytes(n), c.sbuf, data);
    } else if (!spread && !root) {
      off = alloc_or_wait(c.bytes);
      if (c.bytes) std::memcpy(arena_ + off, c.sbuf, c.bytes);
    }
    const OpId op = next_op_++;
    ops_.insert(op).offload = &c;
    Request q{};
    q.kind = kReqOffload;
    q.time = clock_;
    q.msg = id;
    q.a = static_cast<std::uint64_t>(c.root);
    q.b = c.bytes;
    q.c = off;
    q.d = static_cast<std::uint64_t>(c.kind);
    q.op = op;
    q.env.word[0] = n;
    post(q);
    clock_ += costs_->coll_call_cost(c.kind, root);
    // A blocking wait for one event at a cycle the engine decides (as the static broadcast).
    Op& mine = *ops_.find(op);
    while (!mine.done) {
      advance();
      if (mine.done) break;
      changed_ = false;
      jump_or_block();
    }
    ops_.erase(op);
    return c.sent;
  }

  /// This rank's part is complete: take the data as the adapter left it.
  void finish_offload(OffloadCall& c, const Event& e) {
    using K = hw::adapter::CollKind;
    const std::size_t n = c.members.size();
    if ((c.kind == K::Multicast || c.kind == K::Scatter) && rank_ != c.root) {
      // The root's length places and bounds the data (a member's own may differ: an MPI error).
      c.sent = e.b;
      const unsigned char* data = link_->arena(c.root) + e.c + list_bytes(n);
      if (c.kind == K::Scatter) data += index_of(c.members, rank_) * e.b;
      if (const std::size_t len = std::min<std::size_t>(c.bytes, e.b)) std::memcpy(c.rbuf, data, len);
    } else if ((c.kind == K::Gather || c.kind == K::Reduce) && rank_ == c.root) {
      // Each sender's data is its own length in its arena: never more than that is read.
      for (const OffloadCall::Part& p : c.parts) {
        if (p.bytes != c.bytes && c.sent == c.bytes) c.sent = p.bytes;
        const std::size_t len = std::min<std::size_t>(c.bytes, p.bytes);
        if (c.kind == K::Reduce) hw_reduce(c.op, c.elem, link_->arena(p.sender) + p.off, c.rbuf, len);
        else if (len) std::memcpy(static_cast<unsigned char*>(c.rbuf) + index_of(c.members, p.sender) * c.bytes, link_->arena(p.sender) + p.off, len);
      }
    }
  }
  /// Operations by id: ids are handed out in order and mostly finish in order, so a ring indexed
  /// from the oldest live id beats a hash map (and a deque's index arithmetic) in the MPI layer's
  /// completion loops, which look up every pending operation on every pass. Whether an operation
  /// is live and done is also kept in one byte per operation beside the ring (state()), so such a
  /// pass reads a few cache lines, not one per operation. A reference to an operation stays
  /// valid until the next insert (which may move the ring).
  class OpTable {
   public:
    static constexpr std::uint8_t kLive = 1, kDone = 2;
    Op& insert(OpId id) {
      if (count_ == 0) base_ = id;
      while (id - base_ >= count_) {
        if (count_ == ring_.size()) grow();
        const std::size_t i = index(count_++);
        ring_[i] = Op{};
        state_[i] = 0;
      }
      const std::size_t i = index(id - base_);
      if (state_[i] & kDone) --done_;  // (ids are not reused: not expected)
      ring_[i] = Op{};
      state_[i] = kLive;
      return ring_[i];
    }
    /// kLive | kDone of the operation, 0 when no live operation has this id.
    std::uint8_t state(OpId id) const {
      const OpId k = id - base_;  // an id below base_ wraps around to a huge k
      return k < count_ ? state_[index(k)] : std::uint8_t{0};
    }
    Op* find(OpId id) {
      const OpId k = id - base_;
      if (k >= count_) return nullptr;
      const std::size_t i = index(k);
      return state_[i] & kLive ? &ring_[i] : nullptr;
    }
    /// Marks o done (every write of Op::done goes through here).
    void set_done(Op& o) {
      o.done = true;
      const std::size_t i = static_cast<std::size_t>(&o - ring_.data());
      std::uint8_t& st = state_[i];
      if (!(st & kDone)) {
        ++done_;
        if (o.listed) {
          // Outside blocking waits nobody takes the list and send_done/fetch_done erase its
          // operations: drop those now and then, so that it holds about the live ones only.
          if (finished_.size() >= 2 * count_ + 64)
            std::erase_if(finished_, [this](OpId id) { return state(id) != (kLive | kDone); });
          finished_.push_back(base_ + ((i - head_) & (ring_.size() - 1)));
        }
      }
      st |= kDone;
    }
    /// Appends the listed operations marked done (and not erased since) to out, and erases them.
    void take_finished(std::vector<OpId>& out) {
      for (const OpId id : finished_)
        if (state(id) == (kLive | kDone)) {
          out.push_back(id);
          erase(id);
        }
      finished_.clear();
    }
    /// Live operations marked done (not erased yet).
    std::size_t done_count() const { return done_; }
    void erase(OpId id) {
      if (const std::uint8_t st = state(id); st & kLive) {
        if (st & kDone) --done_;
        state_[index(id - base_)] = 0;
      }
      while (count_ > 0 && !(state_[head_] & kLive)) {
        head_ = (head_ + 1) & (ring_.size() - 1);
        --count_;
        ++base_;
      }
    }
    template <class F>
    void for_each(F&& f) {
      for (std::size_t k = 0; k < count_; ++k)
        if (const std::size_t i = index(k); state_[i] & kLive) f(ring_[i]);
    }

   private:
    std::size_t index(std::uint64_t k) const { return (head_ + static_cast<std::size_t>(k)) & (ring_.size() - 1); }
    void grow() {  // twice the size (a power of two), the oldest first
      const std::size_t size = ring_.empty() ? 64 : 2 * ring_.size();
      std::vector<Op> bigger(size);
      std::vector<std::uint8_t> bigger_state(size, 0);
      for (std::size_t k = 0; k < count_; ++k) {
        bigger[k] = ring_[index(k)];
        bigger_state[k] = state_[index(k)];
      }
      ring_.swap(bigger);
      state_.swap(bigger_state);
      head_ = 0;
    }
    std::vector<Op> ring_;
    std::vector<std::uint8_t> state_;
    std::vector<OpId> finished_;  // listed operations in the order they were marked done
    std::size_t head_ = 0, count_ = 0, done_ = 0;
    OpId base_ = 1;
  };

  /// An arrival handed to the layer above and not fetched yet. Its Arrival::handle names it:
  /// (a count of arrivals) << 32 | its slot, so that a handle fetched already never matches the
  /// arrival that reuses its slot.
  struct Incoming {
    std::uint64_t handle;  ///< 0 once fetched
    std::uint64_t msg;     ///< the engine's name of the message
    std::uint64_t bytes, off;
    int src;
    bool rdv;
  };
  /// The events the rank holds, in (cycle, sequence) order: small keys kept sorted, the events in
  /// slots beside them (an Event is two cache lines). They come from the engine almost in cycle
  /// order, so a new key goes in a step or two from the back, and taking the first costs nothing
  /// (a heap paid a walk of its depth for both, hundreds of events deep while a rank sleeps
  /// through a wait for its alltoall).
  class EventQueue {
   public:
    bool empty() const { return keys_.empty(); }
    std::uint64_t top_time() const { return keys_.front().time; }
    void push(std::uint64_t time, std::uint64_t seq, const Event& e) {
      const Key k{time, seq, events_.put(e), e.kind};
      auto at = keys_.end();
      while (at != keys_.begin() && *std::prev(at) > k) --at;
      keys_.insert(at, k);
    }
    Event pop() {
      const std::uint32_t slot = keys_.front().slot;
      keys_.pop_front();
      events_.release(slot);  // (its value stays until the slot is put again)
      return events_[slot];
    }
    /// The earliest cycle of an event other than a release (of any event with `releases`);
    /// kNever if none.
    std::uint64_t first_time(bool releases) const {
      for (const Key& k : keys_)
        if (releases || k.kind != kEvRelease) return k.time;
      return kNever;
    }

   private:
    struct Key {
      std::uint64_t time, seq;
      std::uint32_t slot, kind;
      bool operator>(const Key& o) const { return time != o.time ? time > o.time : seq > o.seq; }
    };
    std::deque<Key> keys_;
    Slots<Event> events_;
  };
  struct Chunk {
    std::uint64_t pos, len;
    bool freed;
  };

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

  /// Scale mode: the CPU time since the application last left the library, times F, at the
  /// preset clock.
  void charge_compute() {
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

 public:
  void enter_library(const char* call) override {
    link_->note_call(call);
    if (depth_ == 0) charge_compute();
    in_library_ = true;
    call_ = call;
  }
  void leave_library() override {
    in_library_ = false;
    call_ = nullptr;
    app_resumes();
    if (scaled_) compute_clock_.start();
  }
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

  void compute(std::uint64_t cycles) override {
    if (finished_) return;
    clock_ += cycles;
    compute_ += cycles;
    publish_clock();
  }

 private:

  // ---- engine communication (through the link)

  void check_dead() { link_->check_dead(); }

  void publish_clock() {
    if (clock_ == published_) return;
    published_ = clock_;
    link_->publish_clock(clock_);
  }

  void post(const Request& q) { link_->post(q); }

  std::uint64_t horizon() const { return link_->horizon(); }

  /// Waits until the engine has published every event up to cycle t; from then on the rank may
  /// look at them.
  void sync_to(std::uint64_t t) {
    publish_clock();
    if (horizon() < t) link_->sync_to(t);
    if (t > known_) known_ = t;
  }

  void drain() {
    if (!events_waiting()) return;
    incoming_events_.clear();
    link_->take_events(incoming_events_);
    for (const Event& e : incoming_events_) heap_.push(e.time, seen_++, e);
  }

  /// Applies every event whose cycle the clock has reached and the rank has synchronized to.
  /// The bound is known_, not the engine's horizon: how far the engine has got when the rank looks
  /// depends on the host's timing (ranks as processes), and what the rank sees and does must not.
  void advance() {
    if (events_waiting()) drain();
    while (!heap_.empty() && heap_.top_time() <= clock_ && heap_.top_time() <= known_) {
      const Event e = heap_.pop();
      clock_ += e.core_cycles;
      apply(e);
    }
  }

  void apply(const Event& e) {
    switch (e.kind) {
      case kEvArrival:
        ready_.push_back(e);
        changed_ = true;
        break;
      case kEvSendDone: {
        if (Op* o = ops_.find(e.op)) ops_.set_done(*o), o->status = e.d;
        changed_ = true;
        break;
      }
      case kEvDataDone: {
        Op* op = ops_.find(e.op);
        if (!op) break;
        const std::uint64_t at = std::max(e.time, op->min_done);
        if (at <= clock_) {
          ops_.set_done(*op);
          changed_ = true;
        } else {
          Event l{};
          l.kind = kEvLocalDone;
          l.time = at;
          l.op = e.op;
          heap_.push(at, kLocalSeq + local_seq_++, l);
        }
        break;
      }
      case kEvLocalDone: {
        if (Op* o = ops_.find(e.op)) ops_.set_done(*o);
        changed_ = true;
        break;
      }
      case kEvRelease:
        release(e.a);
        if (!waiting_for_.empty()) changed_ = true;  // only a send waiting for space cares
        break;
      case kEvOffloadPart: {
        if (Op* o = ops_.find(e.op); o && o->offload) o->offload->parts.push_back({static_cast<int>(e.a), e.c, e.b});
        break;
      }
      case kEvOffload: {
        Op* o = ops_.find(e.op);
        if (!o) break;
        if (o->offload) finish_offload(*o->offload, e);
        ops_.set_done(*o);
        changed_ = true;
        break;
      }
      case kEvStatic: {
        Op* found = ops_.find(e.op);
        if (!found) break;
        Op& o = *found;
        const int root = static_cast<int>(e.a);
        if (root != rank_) {
          o.sent = e.b;
          if (const std::uint64_t len = std::min(o.len, e.b)) {  // (the root's data, never beyond it)
            const unsigned char* base = link_->arena(root) + e.c;
            std::uint64_t count = 0;
            std::memcpy(&count, base, 8);
            std::memcpy(o.dst, base + 8 + count * sizeof(StaticRouteHop), len);
          }
          // The root's arena space may be reused from now on.
          Request q{};
          q.kind = kReqStaticCopied;
          q.time = clock_;
          q.a = e.a;
          q.c = e.c;
          post(q);
        }
        ops_.set_done(o);
        changed_ = true;
        break;
      }
      default:
        break;
    }
  }

  /// Events may have been published that this rank has not taken yet. Always true when the link
  /// cannot tell cheaply (ranks as processes).
  bool events_waiting() const { return !inbox_ || !inbox_->empty(); }
  /// advance() would apply nothing: no event taken or waiting is due.
  bool nothing_due() const {
    return !events_waiting() && (heap_.empty() || heap_.top_time() > std::min(clock_, known_));
  }

  /// op_done's short path would answer false for every pending operation: none is done, and
  /// nothing is due, to publish or to charge.
  bool nothing_completes() const override {
    return ops_.done_count() == 0 && quiet_check();
  }
  /// Inside a blocking wait op_done never synchronizes with the engine, so one progress step
  /// (the first check of a pending operation that is not done) finds all that checking each
  /// pending operation in turn would: the MPI layer may take the list instead of asking.
  bool take_finished(std::vector<OpId>& out) override {
    if (!(lazy_ > 0 && (in_library_ || depth_ > 0))) return false;
    ops_.take_finished(out);
    return true;
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
  [[gnu::noinline]] bool progress_for(const Op& o) {
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
  void jump_or_block() {
    for (;;) {
      advance();
      if (changed_) return;
      drain();
      const std::uint64_t p = horizon();
      if (known_ < clock_ && p >= clock_) {
        // Everything up to the clock is published already: look at it before moving on.
        known_ = clock_;
        continue;
      }
      if (known_ >= clock_ && !heap_.empty() && heap_.top_time() <= p) {
        // Every event up to that cycle is known (and none up to the clock is left): jump there.
        const Event e = heap_.pop();
        if (e.time > clock_) waited_ += e.time - clock_;
        known_ = std::max(known_, e.time);
        clock_ = std::max(clock_, e.time) + e.core_cycles;
        apply(e);
        continue;
      }
      // Nothing known is due: block at once rather than wait for the horizon first, so that
      // this rank stops holding the other ranks back. The engine wakes us at our next event
      // (at once if one was published that we have not seen).
      block();
      sync_to(clock_);  // the engine publishes the horizon of our wake-up right after it
    }
  }

  void block() {
    ++blocks_;
    Request q{};
    q.kind = kReqBlock;
    q.time = clock_;
    q.a = seen_;
    q.b = kNever;
    q.c = waiting_for_.empty() ? 0 : 1;
    // The earliest event held but not yet final (beyond the horizon seen): wake us then.
    // Releases count only when we wait for arena space.
    q.b = heap_.first_time(q.c != 0);
    // Inside a blocking wait that needs `expect_` more completions, the engine need not wake us
    // for the first expect_ - 1 of them: in such a wait a completion changes no clock and posts
    // nothing until the last one (the wake-up would only find that the wait goes on). The hint
    // holds for this sleep only: the layer above says it again before the next.
    if (expect_op_ != kDone || expect_ == SIZE_MAX) {
      q.d = kSleepAll;
      q.op = expect_op_;
    } else {
      q.d = expect_ > 1 ? expect_ - 1 : 0;
    }
    expect_ = 0;
    expect_op_ = kDone;
    publish_clock();
    const std::uint64_t wake = link_->block(q);
    if (wake > clock_) {
      waited_ += wake - clock_;
      clock_ = wake;
    }
    // The engine moved our published clock to the wake-up cycle.
    published_ = clock_;
  }

  // ---- arena: a ring of payload chunks, freed out of order as receivers copy them out

  std::uint64_t alloc_or_wait(std::uint64_t len) {
    const std::uint64_t n = (std::max<std::uint64_t>(len, 1) + 63) / 64 * 64;
    if (n > arena_cap_) {
      abort(1, "tilempi sim transport: a message of " + std::to_string(len) +
                   " bytes exceeds the payload arena (" + std::to_string(arena_cap_ >> 20) +
                   " MiB per rank); raise it with --set sim.arena_mib=N");
    }
    for (;;) {
      advance();
      std::uint64_t off;
      if (try_alloc(n, off)) return off;
      // Wait for receivers to take earlier payloads (a modeled stall: the send buffer is full).
      sync_to(clock_);
      advance();
      if (try_alloc(n, off)) return off;
      waiting_for_ = "a send of " + std::to_string(len) + " bytes waits for payload arena space (" +
                     std::to_string(arena_cap_ >> 20) + " MiB per rank, --set sim.arena_mib=N)";
      changed_ = false;
      jump_or_block();
      waiting_for_.clear();
    }
  }

  bool try_alloc(std::uint64_t n, std::uint64_t& off) {
    if (chunks_.empty()) alloc_pos_ = release_pos_ = 0;  // all free: start again at the arena's start
    std::uint64_t pos = alloc_pos_;
    const std::uint64_t at = pos % arena_cap_;
    const std::uint64_t pad = at + n > arena_cap_ ? arena_cap_ - at : 0;
    if (pos + pad + n - release_pos_ > arena_cap_) return false;
    if (pad) {
      chunks_.push_back(Chunk{pos, pad, true});
      pos += pad;
    }
    chunks_.push_back(Chunk{pos, n, false});
    alloc_pos_ = pos + n;
    off = pos % arena_cap_;
    retire();
    return true;
  }

  /// The payload at arena offset off was taken. The chunks in use lie in one arena's length
  /// from the oldest, in ascending position: off names exactly one, found by a binary search.
  void release(std::uint64_t off) {
    if (chunks_.empty()) return;
    const std::uint64_t oldest = chunks_.front().pos;
    std::uint64_t pos = oldest - oldest % arena_cap_ + off;
    if (pos < oldest) pos += arena_cap_;
    const auto it = std::lower_bound(chunks_.begin(), chunks_.end(), pos,
                                     [](const Chunk& c, std::uint64_t p) { return c.pos < p; });
    if (it == chunks_.end() || it->pos != pos || it->freed) return;  // released already
    it->freed = true;
    retire();
  }

  void retire() {
    while (!chunks_.empty() && chunks_.front().freed) {
      release_pos_ = chunks_.front().pos + chunks_.front().len;
      chunks_.pop_front();
    }
    if (chunks_.empty()) release_pos_ = alloc_pos_;
  }

  std::unique_ptr<EngineLink> link_;
  int rank_, size_;
  Topology topo_;
  double hz_ = 1e9;
  bool static_ok_ = false;
  std::map<std::string, std::uint64_t> notes_;  // annotate(): "key=value" -> calls
  std::string note_key_;
  std::uint64_t flit_bytes_ = 4;
  std::unique_ptr<hw::adapter::Adapter> costs_;
  std::uint64_t poll_cost_ = 1;
  bool scaled_ = false;
  double scale_ = 0;
  ComputeClock compute_clock_;  ///< times the application's code between calls (model, scale:F)
  const volatile unsigned long long* counts_ = nullptr;  ///< the program's operation counter (model)
  hw::OpCosts op_costs_;
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
  const std::vector<Event>* inbox_ = nullptr;  ///< EngineLink::local_inbox()
  std::uint64_t comm_ = 0, compute_ = 0, waited_ = 0;
  std::uint64_t blocks_ = 0;  ///< hand-offs (TILEMPI_SIM_PROFILE)
  std::uint64_t seen_ = 0;
  std::vector<Event> incoming_events_;
  std::uint64_t local_seq_ = 0;
  std::uint64_t msg_seq_ = 0;
  OpId next_op_ = 1;
  bool changed_ = false;
  bool finished_ = false;
  int lazy_ = 0;  ///< inside a blocking wait of the layer above: "nothing yet" is provisional
  EventQueue heap_;
  std::vector<std::uint8_t> static_seen_;  ///< bcast's scratch: marks by tile
  // Arrivals not polled yet, oldest first from ready_head_ on (a deque of these line-sized events
  // allocated and freed a block for every eight of them).
  std::vector<Event> ready_;
  std::size_t ready_head_ = 0;
  OpTable ops_;
  std::size_t expect_ = 0;  ///< expect_completions() of the blocking wait, for its next sleep
  OpId expect_op_ = kDone;
  Slots<Incoming> incoming_;
  std::uint64_t arrivals_ = 0;
  std::function<std::string()> describer_;
  std::string waiting_for_;  ///< what the transport itself waits for, if anything

  unsigned char* arena_ = nullptr;
  std::uint64_t arena_cap_ = 0;
  std::uint64_t alloc_pos_ = 0, release_pos_ = 0;
  std::deque<Chunk> chunks_;
};

}  // namespace

std::unique_ptr<Transport> make_sim_transport(std::unique_ptr<EngineLink> link, int rank, int size) {
  return std::make_unique<SimTransport>(std::move(link), rank, size);
}

}  // namespace tilempi::transport::sim
