// Rendezvous by allocation ([Wallentowitz 2018] §3.2), in two flavours:
//
//   namp  the protocol runs in the network adapter: the core only configures a slot. The
//         sender's adapter asks the receiver's adapter for buffer space (allocation request),
//         the receiver answers with a grant or a NACK (stateless: a grant is only a buffer
//         offset), the data follows by RDMA in P = ceil(S / (l - h)) packets, then a
//         finalization carrying the size makes the message visible. After a NACK the sender
//         retries when a timer expires. One egress engine per adapter serves one message at
//         a time. Requests, responses and data travel on separate channels (networks or VC
//         classes) so that responses never wait behind requests.
//   rdma  the same packets, but every protocol step is software on the cores (interrupt,
//         handler) over a plain RDMA engine: the [Wallentowitz 2018] baseline.
//
// The receive buffer of a tile is freed when its core takes the message (accept()).
//
// NAMP-CC ([Wallentowitz 2018] §3.3), namp only (adapter.namp.cc=0 turns it off): one slot
// carries a collective transfer, its list set up once per communicator and root (§3.3.2: "created
// and configured at connection setup"), so the core's call costs one slot setup plus cc_setup,
// whatever the number of destinations (§3.3.1.1).
//   multicast  connection-less (§3.3.2.1): the adapter scans the destination list, one entry per
//              list_scan cycles, and sends every allocation request at once; each destination's
//              grant, NACK and retry timer are its own, so a slow receiver holds up nobody
//              (§3.3.1.1: "the hardware can handle other transfers in parallel"). Granted parts
//              queue for the one egress engine; data and finalization as in §3.2.
//   scatter    connection-oriented (§3.3.2.2: credits, the endpoint set up beforehand, so no
//              allocation): every destination's part goes to the egress engine at once, read
//              by the DMA with base/size/count/stride (§3.3.3.1), an address generator: no cost.
//   gather     connection-oriented (§3.3.2.3): each sender's adapter writes its block into its
//              slot of the root's endpoint; the root's adapter keeps a bit per slot and notifies
//              the core once, when the last finalization arrived (§3.3.1.3).
//   reduce     as gather, but the root's DMA reads, combines and writes back every word it
//              receives (§3.3.1.4), reduce_cycles_per_word each, one data path per tile.
// Credits of the connection-oriented parts are taken to be available (the collective's endpoint
// holds every slot); the multicast's allocations use the receive buffer like any message.
//
// NAMP-SV ([Wallentowitz 2018] §3.4, access=): bare-metal software configures the slot itself;
// under an OS without NAMP-SV every send and receive is a system call whose kernel path also
// translates the task's addresses (§3.4.1); a NAMP-SV virtual interface lets the task configure
// the slot by virtual endpoint ids, translated by the adapter (one table read, §3.4.3): the core
// pays what bare metal pays. HW-OSQM ([Wallentowitz 2018] §3.5, wakeup=): an event reaches a
// waiting thread by its own polling, by an interrupt handler and the scheduler, or by the adapter
// appending the thread to the OS's ready queue (only the switch to it remains); the handler's
// cycles delay the thread and are counted per rank (wake_cycles(), the report's handler_cycles).
//
// NAMP-PS ([Wallentowitz 2018] §3.6, migration=): a task moves to another tile during the run.
// Table 3.3's three phases, by one of two methods:
//   pause  I: the OS suspends the incoming channels: from then on the endpoint answers every
//          allocation request with SUSPEND (the sender's slot waits, no retry timer) and holds
//          the connection-oriented parts back. The task stops once the transfers it already
//          granted are in. II: stop the task, suspend its outgoing channels, move the endpoint,
//          every buffered message and the task's state, remap, resume outgoing and the task.
//          III: RESUME to every sender it suspended, which asks the new tile again.
//   ps     NAMP-PS. I: the OS replicates the endpoint on the new tile (endpoint_bytes over the
//          network) and sets the old endpoint's relocation field; from then on an allocation
//          request to the old tile is answered with NAK_RELOC carrying the new endpoint, and the
//          sender restarts the transfer there (§3.6.4.1, connection-less); a connection-oriented
//          part is dualcast to both tiles (§3.6.4.2, the CC multicast with two entries): the old
//          tile's copy counts while the task still runs there, else the new one's. The task
//          stops once the transfers granted at the old tile are in. II: stop the task, sync the
//          buffered messages and move its state. III: the senders already send to the new tile.
// Messages that reach the new tile before the task runs there are seen from the resume on; a
// transfer the old tile's egress engine has begun ends from there, and the task's later sends
// leave the new tile's once it runs and that one has ended (so two tasks' messages keep their
// order). The phase II transfers are timed at the network's zero-load pace (the migration's own
// bulk traffic is not put on the links); the OS's steps cost os_step_cycles each.
#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"
#include "registered_adapters.h"

namespace tilempi::hwmodel::adapter {

namespace {

enum PacketKind : unsigned {
  kReq = 1, kGrant = 2, kNack = 3, kData = 4, kFin = 5, kSyncAck = 6,
  // One-sided operations: the address is known (the target exposed the memory), so no allocation.
  kPutData = 7, kPutAck = 8, kGetReq = 9, kGetData = 10,
  // Task migration's packets: the tag's own bits carry a sub-kind (MigKind).
  kMig = 11
};
enum MigKind : unsigned {
  kNakReloc = 1,   ///< old endpoint -> sender: relocated, here is the new one (§3.6.4.1)
  kSuspend = 2,    ///< endpoint -> sender: suspended, wait for RESUME (pausing, phase I)
  kResume = 3,     ///< new endpoint -> sender: send here now (pausing, phase III)
  kReplica = 4,    ///< old tile -> new tile: the endpoint's replica (NAMP-PS, phase I)
  kDualData = 5,   ///< a dualcast part's copy to the new tile (§3.6.4.2)
  kDualFin = 6,
  kResumeOut = 7,  ///< new tile -> itself: the task's outgoing channels resume (phase II's end)
};
// The sub-kind rides in the tag's own bits, above the id (adapter.h's tag layout).
inline std::uint64_t mig_tag(MsgId id, MigKind k) { return make_tag(with_own_bits(id, k), kMig); }
inline MigKind mig_kind(std::uint64_t tag) { return static_cast<MigKind>(own_bits(tag_msg(tag)) & 7); }
inline MsgId mig_msg(std::uint64_t tag) { return tag_msg(tag) & (kMsgIdLimit - 1); }
enum Channel : int { kChReq = 0, kChResp = 1, kChData = 2, kChAck = 3 };

// The adapter of both flavours: `offloaded` says whether the protocol steps run in the adapter
// (namp) or in software on the cores (rdma).
class NampAdapter final : public Adapter {
 public:
  NampAdapter(const Config& c, bool offloaded) : Adapter(offloaded ? "namp" : "rdma", c), offloaded_(offloaded) {
    const char* cal = "calibration ([Wallentowitz 2018] publishes no cycle costs, see docs/SIM.md)";
    call_ = param("call_overhead", 30, std::string(cal) + ": library call up to the adapter");
    if (offloaded) {
      start_ = param("slot_setup", 8, "[Wallentowitz 2018] Table 3.2: four slot registers and the flags, about 2 cycles each");
      adapter_ = param("adapter_delay", 4, "calibration: adapter state machine step ([Wallentowitz 2018] Fig. 3.19)");
      irq_ = 0;
      alloc_ = 0;
      dma_ = 0;
      fin_ = 0;
    } else {
      start_ = param("request_cycles", 14, std::string(cal) + ": software builds the allocation request");
      adapter_ = param("adapter_delay", 4, "calibration: RDMA engine start");
      irq_ = param("irq_cycles", 24, std::string(cal) + ": interrupt entry/exit per protocol message");
      alloc_ = param("alloc_cycles", 20, std::string(cal) + ": receiver software allocates a buffer");
      dma_ = param("dma_setup", 10, std::string(cal) + ": sender software programs the RDMA engine");
      fin_ = param("fin_cycles", 14, std::string(cal) + ": sender software sends the finalization");
    }
    completion_ = param("completion_cycles", 20, std::string(cal) + ": the core learns the send is done");
    retry_ = param("retry_cycles", 200, "[Wallentowitz 2018] §3.2: retry timer after a NACK; no value given, calibration");
    rx_buffer_ = param("rx_buffer_bytes", 16384, "[Wallentowitz 2018] §3.2: receive buffer of the adapter; size is a calibration");
    recv_overhead_ = param("recv_overhead", 20, std::string(cal) + ": library call, status read");
    recv_word_ = param("recv_cycles_per_word", 1, "calibration: copy from the receive buffer, one word per cycle");
    poll_ = param("poll_cycles", 4, "calibration: one status-register read and a branch");
    if (offloaded) {
      // NAMP-SV ([Wallentowitz 2018] §3.4): how a task reaches its slot.
      access_ = choice_param(
          "access", {"baremetal", "kernel", "vif"}, 0,
          "[Wallentowitz 2018] §3.4: the task configures the slot itself (bare-metal software, §3.2), through the OS "
          "(a system call per send and receive that translates its addresses, software emulation, §3.4.1), or "
          "through a NAMP-SV virtual interface mapped into the task, which translates virtual endpoint ids itself "
          "(§3.4.2-3)");
      syscall_ = param("syscall_cycles", 50,
                       "calibration (§3.4.1 names the cost, not its size): trap into the kernel, save and restore of "
                       "the registers its path uses, return; with access=kernel, per send and per receive");
      translate_ = param("translate_cycles", 10,
                         "calibration: the kernel finds the physical addresses of the endpoint and the buffer "
                         "(§3.4.1, step 4), two page-table reads; with access=kernel, per send");
      vif_ = param("vif_lookup", 2,
                   "calibration: the virtual interface reads the endpoint table entry of a vID (§3.4.3, step 4), one "
                   "memory read, in the adapter; with access=vif, per send");
      // HW-OSQM ([Wallentowitz 2018] §3.5): how a waiting thread learns of an event.
      wakeup_ = choice_param(
          "wakeup", {"poll", "interrupt", "osqm"}, 0,
          "[Wallentowitz 2018] §3.5: the waiting thread polls the slot (§3.2.5.3; one task per tile, the spin takes "
          "nothing from anyone), an interrupt handler resumes it through the OS scheduler (§3.5.1), or HW-OSQM puts "
          "it on the OS's ready queue itself and only the switch to it remains (§3.5.2)");
      isr_ = param("isr_cycles", 400,
                   "calibration from [Wallentowitz 2018] §3.5.1 (interrupts at 25 kHz take 10 % of the core: 4 us "
                   "each, 400 cycles at optimsoc's 100 MHz); with wakeup=interrupt, per event");
      resume_ = param("resume_cycles", 40,
                      "calibration: the scheduler switches to the resumed thread (§3.5.1, T_CS); with wakeup=interrupt "
                      "or osqm, per event");
      cc_ = param("cc", 1, "[Wallentowitz 2018] §3.3: NAMP-CC collective offload (1) or the base protocol only (0)") != 0;
      cc_setup_ = param("cc_setup", 6,
                        "[Wallentowitz 2018] Fig. 3.27a: the CC flag, the list pointer and its count, three more slot "
                        "registers at Table 3.2's 2 cycles each (the list itself is set up once per communicator and root)");
      list_scan_ = param("list_scan", 1, "calibration: the progress engine reads one list entry per cycle (§3.3.3.2)");
      reduce_word_ = param("reduce_cycles_per_word", 1,
                           "[Wallentowitz 2018] §3.3.1.4: one read-modify-write per data word in the DMA path, one cycle");
      // NAMP-PS ([Wallentowitz 2018] §3.6): how a migrating task's communication moves.
      method_ = choice_param(
          "migration", {"pause", "ps"}, 1,
          "[Wallentowitz 2018] §3.6 Table 3.3: pausing the task's channels during the migration, or NAMP-PS protection "
          "switching (endpoint relocation by NAK_RELOC for connection-less transfers, dualcast for connection-oriented "
          "ones, §3.6.4)");
      os_step_ = param("os_step_cycles", 100,
                       "calibration (§3.6 gives no costs): one OS step of a migration (Table 3.3's rows: suspend or "
                       "replicate, stop, remap, resume), a short kernel routine on the task's core");
      endpoint_bytes_ = param("endpoint_bytes", 64,
                              "calibration: the endpoint's data structure and its buffer configuration (Fig. 3.3a), "
                              "moved in phase I by NAMP-PS and in phase II by pausing");
      state_bytes_ = param("migrate_state_bytes", 16384,
                           "calibration: the task's state and code moved in phase II (the thesis leaves the task's own "
                           "migration out of its scope, §3.6)");
    }
  }

  const char* name() const override { return offloaded_ ? "namp" : "rdma"; }

  bool rendezvous(std::uint64_t, bool) const override { return false; }
  Cycle send_cost(std::uint64_t, bool) const override { return call_ + kernel_send() + start_; }
  bool send_completes_at_once(std::uint64_t, bool) const override { return false; }
  Cycle recv_cost(std::uint64_t bytes, bool) const override {
    const std::uint64_t words = (bytes + 3) / 4;
    return recv_overhead_ + (access_ == kKernel ? syscall_ : 0) + words * recv_word_;
  }
  Cycle wake_cycles() const override {
    return wakeup_ == kInterrupt ? isr_ + resume_ : wakeup_ == kOsqm ? resume_ : 0;
  }
  Cycle accept_cost() const override { return 0; }
  Cycle poll_cost() const override { return poll_; }
  Cycle lookahead() const override {
    Cycle l = kernel_send() + start_ + adapter_ + (access_ == kVif ? vif_ : 0);
    return l < 1 ? 1 : l;
  }

  // ---- NAMP-CC
  bool collective_offload() const override { return offloaded_ && cc_; }
  Cycle coll_call_cost(CollKind kind, bool root) const override {
    const bool spread = kind == CollKind::Multicast || kind == CollKind::Scatter;
    if (spread == root) return call_ + kernel_send() + start_ + (root ? cc_setup_ : 0);  // the sending slot
    return 0;  // a receiver waits; it pays recv_cost() when its part is complete
  }

  void start_spread(MsgId group, CollKind kind, const std::vector<Message>& parts, Cycle at) override {
    const Cycle t0 = at + lookahead();
    if (parts.empty()) {
      out_->send_done(group, t0, completion_);
      return;
    }
    ++cc_transfers_;
    spreads_[group] = Spread{parts.size()};
    for (std::size_t i = 0; i < parts.size(); ++i) {
      State& s = msgs_[parts[i].id];
      s.m = parts[i];
      s.group = group;
      s.cc = kind;
      const Cycle t = t0 + i * list_scan_;
      if (kind == CollKind::Multicast) {
        inject_stream(kChReq, s.m.src, s.m.dst, 1, t, make_tag(s.m.id, kReq));
      } else {
        s.direct = true;
        queue_direct(s.m.src, s.m.id, t);
      }
    }
  }

  void start_collect(MsgId group, CollKind kind, const Message& part, int slots, Cycle at) override {
    Collect& c = collects_[group];
    c.slots = slots;
    c.reduce = kind == CollKind::Reduce;
    State& s = msgs_[part.id];
    s.m = part;
    s.group = group;
    s.cc = kind;
    s.collect = true;
    s.direct = true;
    queue_direct(part.src, part.id, at + lookahead());
  }

  void start(const Message& m, Cycle at) override {
    State& s = msgs_[m.id];
    s.m = m;
    s.m.src = sending_tile(m.src, at + lookahead());
    Egress& eg = egress_[s.m.src];
    eg.queue.push_back(m.id);
    if (!eg.busy) begin(s.m.src, at + lookahead());
  }

  void accept(MsgId id, Cycle at) override {
    auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    State& s = it->second;
    rx_used_[s.m.dst] -= s.granted;
    s.granted = 0;
    s.accepted = true;
    if (s.m.synchronous) {
      const Cycle go = at + lookahead() + (offloaded_ ? adapter_ : irq_);
      inject_stream(kChAck, s.m.dst, s.m.src, 1, go, make_tag(id, kSyncAck));
    } else if (s.sent) {
      msgs_.erase(it);
    }
  }

  // ---- one-sided operations by RDMA ([Wallentowitz 2018] §3.2 moves all message data this way).
  // put: the origin's adapter writes the data straight into the target's memory (no allocation
  //      request: the window's address is known), the target's adapter acknowledges once the
  //      last packet is in memory (namp), or the target's software does after an interrupt (rdma).
  // get: a one-packet read request; the target's adapter streams the data back (namp), or the
  //      target's software programs its RDMA engine to (rdma).
  // The origin's core learns of the completion as of a send's (completion_cycles, plus an
  // interrupt for rdma).
  Cycle remote_issue_cost(std::uint64_t put_bytes, std::uint64_t) const override {
    if (offloaded_) return call_ + start_;
    return call_ + (put_bytes ? dma_ : start_);  // software programs the engine / builds the request
  }

  void remote_start(const Remote& r, Cycle at) override {
    Op& o = remote_ops_map_[r.id];
    o.r = r;
    const Cycle go = at + lookahead();
    if (r.get_bytes == 0)
      o.to_deliver = inject_stream(kChData, r.origin, r.target, flits_of(r.put_bytes), go, make_tag(r.id, kPutData));
    else
      o.to_deliver = inject_stream(kChReq, r.origin, r.target, 1, go, make_tag(r.id, kGetReq));
  }

  bool one_sided_delivered(const PacketEvent& e) {
    const unsigned kind = tag_kind(e.tag);
    if (kind < kPutData || kind > kGetData) return false;
    auto it = remote_ops_map_.find(tag_msg(e.tag));
    if (it == remote_ops_map_.end()) return true;
    Op& o = it->second;
    const Remote& r = o.r;
    const Cycle target_sw = offloaded_ ? 0 : irq_ + (kind == kGetReq ? dma_ : 0);
    const Cycle step = offloaded_ ? adapter_ : target_sw;
    if (--o.to_deliver != 0) return true;
    switch (kind) {
      case kPutData:
        if (target_sw) out_->remote_served(r.id, e.cycle, target_sw);
        o.to_deliver = inject_stream(kChResp, r.target, r.origin, 1, e.cycle + step + 1, make_tag(r.id, kPutAck));
        break;
      case kGetReq:
        if (target_sw) out_->remote_served(r.id, e.cycle, target_sw);
        o.to_deliver = inject_stream(kChData, r.target, r.origin, flits_of(r.get_bytes), e.cycle + step + 1,
                                     make_tag(r.id, kGetData));
        break;
      default:  // kPutAck, kGetData: complete at the origin
        out_->remote_done(r.id, e.cycle, completion_ + (offloaded_ ? 0 : irq_));
        remote_ops_map_.erase(it);
        break;
    }
    return true;
  }

  PacketOwner packet_owner(const PacketEvent& e) const override {
    const unsigned k = tag_kind(e.tag);
    if (k == kMig) return {TagFamily::migration, mig_msg(e.tag), true};
    if (k >= kPutData && k <= kGetData) return {TagFamily::one_sided, tag_msg(e.tag), true};
    return Adapter::packet_owner(e);
  }

  void delivered(const PacketEvent& e) override {
    if (remote_delivered(e) || one_sided_delivered(e)) return;
    if (tag_kind(e.tag) == kMig) return migration_delivered(e);
    auto it = msgs_.find(tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    const Message& m = s.m;
    switch (tag_kind(e.tag)) {
      case kReq: {
        ++requests_;
        if (offloaded_ && migrating_endpoint(s, e)) break;
        std::uint64_t& used = rx_used_[m.dst];
        const bool fits = used == 0 || used + m.bytes <= rx_buffer_;
        // Software on the receiver handles the request (rdma); the adapter alone does (namp).
        const Cycle handle = offloaded_ ? adapter_ : irq_ + alloc_;
        s.rx_cycles += offloaded_ ? 0 : irq_ + alloc_;
        if (fits) {
          used += m.bytes;
          s.granted = m.bytes;
          s.inbound = true;
          ++inbound_[m.dst];
          inject_stream(kChResp, m.dst, m.src, 1, e.cycle + handle + 1, make_tag(m.id, kGrant));
        } else {
          ++nacks_;
          inject_stream(kChResp, m.dst, m.src, 0, e.cycle + handle + 1, make_tag(m.id, kNack));
        }
        break;
      }
      case kGrant: {
        if (s.group) {  // a multicast part: its data waits for the egress engine
          s.direct = true;
          queue_direct(m.src, m.id, e.cycle + adapter_ + 1);
          break;
        }
        const Cycle handle = offloaded_ ? adapter_ : irq_ + dma_;
        s.tx_cycles += offloaded_ ? 0 : irq_ + dma_;
        const Cycle go = e.cycle + handle + 1;
        s.to_inject = inject_stream(kChData, m.src, m.dst, flits_of(m.bytes), go, make_tag(m.id, kData));
        s.tx_cycles += fin_;
        inject_stream(kChData, m.src, m.dst, 1, go + fin_, make_tag(m.id, kFin));
        ++s.to_inject;
        break;
      }
      case kNack: {
        ++retries_;
        if (s.group) {  // a multicast part retries alone; the egress engine serves the others
          inject_stream(kChReq, m.src, m.dst, 1, e.cycle + retry_, make_tag(m.id, kReq));
          break;
        }
        s.tx_cycles += offloaded_ ? 0 : irq_ + start_;
        inject_stream(kChReq, m.src, m.dst, 1, e.cycle + retry_ + (offloaded_ ? 0 : irq_ + start_), make_tag(m.id, kReq));
        break;
      }
      case kData:
        if (s.collect && collects_.count(s.group) && collects_[s.group].reduce) {
          // The root's data path combines each word as it arrives; one data path per tile.
          const std::uint64_t hf = static_cast<std::uint64_t>(config_.header_flits);
          const std::uint64_t words = e.flits > hf ? e.flits - hf : 0;
          Cycle& free_at = reduce_free_[m.dst];
          free_at = std::max<Cycle>(free_at, e.cycle) + words * reduce_word_;
        }
        break;
      case kFin:
        // The receiver learns of the message: its adapter flags DONE (namp) or an interrupt (rdma);
        // a collective's slot is marked complete.
        finalized(it->first, s, m.dst, e.cycle, false);
        break;
      case kSyncAck:
        out_->send_done(m.id, e.cycle, s.tx_cycles + completion_);
        msgs_.erase(it);
        break;
      default:
        break;
    }
  }

  void injected(const PacketEvent& e) override {
    if (tag_kind(e.tag) >= kRemoteFirst) return;
    const unsigned kind = tag_kind(e.tag);
    const bool copy = kind == kMig && (mig_kind(e.tag) == kDualData || mig_kind(e.tag) == kDualFin);
    if (kind != kData && kind != kFin && !copy) return;  // (one-sided packets need no injection events)
    auto it = msgs_.find(copy ? mig_msg(e.tag) : tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    if (--s.to_inject != 0) return;
    s.sent = true;
    const TileId src = s.m.src;
    const MsgId group = s.group;
    if (s.collect) {
      out_->send_done(s.m.id, e.cycle, completion_);
    } else if (group) {
      auto g = spreads_.find(group);
      if (g != spreads_.end() && --g->second.left == 0) {
        out_->send_done(group, e.cycle, completion_);
        spreads_.erase(g);
      }
    } else if (!s.m.synchronous) {
      out_->send_done(s.m.id, e.cycle, s.tx_cycles + completion_);
    }
    const bool erase = !s.collect && !s.m.synchronous && s.accepted;
    Egress& eg = egress_[src];
    eg.busy = false;
    if (erase) msgs_.erase(it);
    if (!eg.queue.empty()) begin(src, e.cycle + adapter_ + 1);
    if (eg.successor != kNoTile) release_successor(src);
  }

  // ---- NAMP-PS
  bool migration() const override { return offloaded_; }
  std::string migration_method() const override { return method_ == kPs ? "ps" : "pause"; }

  void migrate(const Migration& mg, Cycle at) override {
    Move& mv = moves_[mg.id];
    mv.m = mg;
    moving_from_[mg.from] = mg.id;
    moving_to_[mg.to] = mg.id;
    reloc_.erase(mg.to);  // a task arrives: an older relocation there is void
    for (auto it = learned_.begin(); it != learned_.end();) it = it->first.second == mg.to ? learned_.erase(it) : std::next(it);
    ++migrations_;
    out_->migration_work(mg.id, at, os_step_);  // phase I: suspend, or replicate and relocate
    if (method_ == kPause) {
      mv.closed = true;
      mv.ready_at = at + os_step_;
      try_stop(mv, at);
    } else {
      mv.replica_left = inject_stream(kChData, mg.from, mg.to, flits_of(endpoint_bytes_), at + os_step_,
                                      mig_tag(mg.id, kReplica));
    }
  }

  std::size_t active() const override {
    return msgs_.size() + spreads_.size() + collects_.size() + remote_active() + remote_ops_();
  }

  nlohmann::json stats() const override {
    nlohmann::json j = {{"allocation_requests", requests_}, {"nacks", nacks_}, {"retries", retries_}};
    if (collective_offload()) j["offloaded_collectives"] = cc_transfers_;
    if (migrations_) {
      j["migrations"] = migrations_;
      j["nak_relocs"] = relocations_;
      j["suspends"] = suspensions_;
      j["dualcasts"] = dualcasts_;
    }
    return j;
  }

 private:
  struct State {
    Message m;
    std::uint64_t granted = 0;
    std::uint32_t to_inject = 0;
    Cycle tx_cycles = 0;  // sender-core cycles of handlers
    Cycle rx_cycles = 0;  // receiver-core cycles of handlers
    bool sent = false;
    bool accepted = false;
    // NAMP-CC parts
    MsgId group = 0;             ///< the collective transfer it belongs to (0: a plain message)
    CollKind cc = CollKind::Multicast;
    bool collect = false;        ///< a gather or reduce part (else a multicast or scatter part)
    bool direct = false;         ///< the egress engine sends its data at once (granted, or credits)
    // NAMP-PS
    bool inbound = false;        ///< counted in inbound_ of its destination until its finalization
    bool dual = false;           ///< dualcast: a copy goes to dual_to too
    TileId dual_to = kNoTile;
    TileId next_dst = kNoTile;   ///< the endpoint NAK_RELOC or RESUME names
    bool done = false;           ///< its receiver has it (a dualcast part completes once)
    int fins_left = 1;           ///< finalizations still to come (2 for a dualcast part)
  };
  struct Spread {
    std::size_t left = 0;  ///< parts whose data has not left yet
  };
  /// A task's migration in progress (or done: then only its relocation field matters).
  struct Move {
    Migration m;
    bool closed = false;    ///< pause: incoming suspended; ps: the relocation field is set
    bool stopped = false;   ///< the switchover's times are known
    Cycle ready_at = 0;     ///< phase I's end
    Cycle stop = 0, resume = 0;
    std::uint32_t replica_left = 0;
    std::vector<MsgId> held;       ///< complete at the new tile before the stop: seen at the resume
    std::vector<MsgId> suspended;  ///< senders told to wait (pause), in order
  };
  struct Collect {
    int slots = 0, got = 0;
    bool reduce = false;
    Cycle last = 0;  ///< when the latest slot was complete
  };
  struct Op {
    Remote r;
    std::uint32_t to_deliver = 0;
  };
  std::size_t remote_ops_() const { return remote_ops_map_.size(); }
  std::unordered_map<MsgId, Op> remote_ops_map_;
  struct Egress {
    std::deque<MsgId> queue;
    bool busy = false;
    // NAMP-PS: a migrated task's queue waits here until it runs (resumed) and the old tile's
    // engine (whose successor this tile is) has ended its transfer.
    bool held = false, resumed = false;
    TileId successor = kNoTile;
  };

  void begin(TileId src, Cycle at) {
    Egress& eg = egress_[src];
    if (eg.queue.empty() || eg.held) return;
    const MsgId id = eg.queue.front();
    eg.queue.pop_front();
    eg.busy = true;
    State& s = msgs_.at(id);
    if (s.direct) {  // a collective part with its space: data and finalization, no request
      send_direct(id, s, at);
      return;
    }
    if (!learned_.empty()) {
      auto l = learned_.find({src, s.m.dst});
      if (l != learned_.end()) s.m.dst = l->second;
    }
    inject_stream(kChReq, src, s.m.dst, 1, at, make_tag(id, kReq));
  }

  /// A collective part whose data may go: it waits for the tile's egress engine.
  void queue_direct(TileId src, MsgId id, Cycle at) {
    src = sending_tile(src, at);
    msgs_.at(id).m.src = src;
    Egress& eg = egress_[src];
    eg.queue.push_back(id);
    if (!eg.busy) begin(src, at);
  }

  /// The root's adapter marks a gather or reduce slot complete (the bit field of §3.3.2.3); the
  /// core hears of the transfer once, when the last slot is.
  void finish_slot(const State& s, Cycle at) {
    auto it = collects_.find(s.group);
    if (it == collects_.end()) return;
    Collect& c = it->second;
    Cycle done = at;
    if (c.reduce) done = std::max(done, reduce_free_[s.m.dst]);
    c.last = std::max(c.last, done);
    if (++c.got < c.slots) return;
    ++cc_transfers_;
    out_->arrived(s.group, c.last + adapter_, 0);
    collects_.erase(it);
  }

  // ---- NAMP-PS helpers

  /// The move whose task leaves `t` and has not run on its new tile by `at` yet.
  Move* leaving(TileId t, Cycle at) {
    auto it = moving_from_.find(t);
    if (it == moving_from_.end()) return nullptr;
    Move& mv = moves_.at(it->second);
    if (mv.stopped && at >= mv.resume) return nullptr;
    return &mv;
  }
  /// The move whose task arrives on `t` and does not run there by `at` yet.
  Move* arriving(TileId t, Cycle at) {
    auto it = moving_to_.find(t);
    if (it == moving_to_.end()) return nullptr;
    Move& mv = moves_.at(it->second);
    if (mv.stopped && at >= mv.resume) return nullptr;
    return &mv;
  }

  /// Cycles to move `bytes` from one tile to another at the network's zero-load pace: the first
  /// packet's latency, then the other packets' flits one per cycle.
  Cycle transfer_cycles(TileId from, TileId to, std::uint64_t bytes) const {
    const std::uint64_t per = static_cast<std::uint64_t>(config_.max_payload_flits());
    const std::uint64_t flits = std::max<std::uint64_t>(1, flits_of(bytes));
    const std::uint64_t packets = (flits + per - 1) / per;
    const std::uint64_t first = std::min(flits, per);
    const std::uint64_t rest = flits - first + (packets - 1) * static_cast<std::uint64_t>(config_.header_flits);
    return chip_->zero_load_latency(from, to, static_cast<std::uint32_t>(first)) + rest;
  }

  /// Phase II begins once phase I is over and the transfers granted at the old tile are in.
  void try_stop(Move& mv, Cycle now) {
    if (mv.stopped || !mv.closed || inbound_[mv.m.from] != 0) return;
    const TileId from = mv.m.from, to = mv.m.to;
    mv.stopped = true;
    mv.stop = std::max(now, mv.ready_at);
    // The messages in the old endpoint's buffer that the task has not taken yet go along.
    const std::uint64_t buffered = rx_used_[from];
    if (method_ == kPause) {  // stop, suspend outgoing, remap, resume outgoing, resume task
      mv.resume = mv.stop + 5 * os_step_ + transfer_cycles(from, to, endpoint_bytes_ + buffered + state_bytes_);
    } else {  // stop, resume: the endpoint is there already
      mv.resume = mv.stop + 2 * os_step_ + transfer_cycles(from, to, buffered + state_bytes_);
    }
    reloc_[from] = to;
    out_->migration_switch(mv.m.id, mv.stop, mv.resume);
    for (MsgId id : mv.held) {  // completed at the new tile before the stop
      auto it = msgs_.find(id);
      if (it != msgs_.end() && !it->second.done) complete(it->first, it->second, mv.resume);
    }
    mv.held.clear();
    for (MsgId id : mv.suspended) resume_sender(mv, id, mv.resume);
    mv.suspended.clear();
    // Outgoing: what the old egress engine has not begun leaves the new one once the task runs
    // there, after the transfer the old one is on.
    Egress& old_eg = egress_[from];
    Egress& new_eg = egress_[to];
    for (auto it = old_eg.queue.rbegin(); it != old_eg.queue.rend(); ++it) {
      msgs_.at(*it).m.src = to;
      new_eg.queue.push_front(*it);
    }
    old_eg.queue.clear();
    new_eg.busy = true;
    new_eg.held = true;
    old_eg.successor = to;
    inject_stream(kChAck, to, to, 0, mv.resume, mig_tag(mv.m.id, kResumeOut));
  }

  /// The tile a task's new transfer leaves from: its new one once it stopped on the old one.
  TileId sending_tile(TileId t, Cycle at) {
    if (moving_from_.empty()) return t;
    Move* mv = leaving(t, at);
    return mv && mv->stopped ? mv->m.to : t;
  }

  /// An allocation request reached an endpoint that is moving or gone: answer SUSPEND (pausing),
  /// RESUME at the resume, or NAK_RELOC with the new endpoint. False: an ordinary request.
  bool migrating_endpoint(State& s, const PacketEvent& e) {
    if (moves_.empty()) return false;
    const TileId here = s.m.dst;
    const Cycle answer = e.cycle + adapter_ + 1;
    if (Move* mv = leaving(here, e.cycle); mv && mv->closed) {
      if (method_ == kPause) {
        ++suspensions_;
        if (mv->stopped) {
          resume_sender(*mv, s.m.id, std::max(answer, mv->resume));
        } else {
          inject_stream(kChResp, here, s.m.src, 0, answer, mig_tag(s.m.id, kSuspend));
          mv->suspended.push_back(s.m.id);
        }
        return true;
      }
      ++relocations_;
      s.next_dst = mv->m.to;
      inject_stream(kChResp, here, s.m.src, 0, answer, mig_tag(s.m.id, kNakReloc));
      return true;
    }
    auto r = reloc_.find(here);
    if (r == reloc_.end() || leaving(here, e.cycle)) return false;
    ++relocations_;  // a request for a task that left earlier: its endpoint's relocation field
    s.next_dst = r->second;
    inject_stream(kChResp, here, s.m.src, 0, answer, mig_tag(s.m.id, kNakReloc));
    return true;
  }

  /// Pausing, phase III: the new endpoint tells a suspended sender to ask it again.
  void resume_sender(const Move& mv, MsgId id, Cycle at) {
    auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    it->second.next_dst = mv.m.to;
    inject_stream(kChResp, mv.m.to, it->second.m.src, 0, at, mig_tag(id, kResume));
  }

  /// The new tile's egress engine serves the moved task once it runs there and the old tile's
  /// engine has ended its transfer.
  void release_successor(TileId from) {
    Egress& old_eg = egress_[from];
    if (old_eg.busy || old_eg.successor == kNoTile) return;
    const TileId to = old_eg.successor;
    Egress& new_eg = egress_[to];
    if (!new_eg.resumed) return;
    old_eg.successor = kNoTile;
    new_eg.held = new_eg.resumed = false;
    new_eg.busy = false;
    if (!new_eg.queue.empty()) begin(to, chip_->now());
  }

  /// The receiver's side has the message (its finalization is in, at a tile where the task runs).
  void complete(MsgId id, State& s, Cycle at) {
    s.done = true;
    if (s.collect) {
      finish_slot(s, at);
      if (s.fins_left == 0) msgs_.erase(id);
      return;
    }
    out_->arrived(id, at, s.rx_cycles + (offloaded_ ? 0 : irq_));
  }

  /// A finalization reached tile `at_tile` at `cycle`: complete there now, at the resume of a task
  /// that arrives there, or not at all (a dualcast copy whose other copy counted).
  void finalized(MsgId id, State& s, TileId at_tile, Cycle cycle, bool copy) {
    --s.fins_left;
    if (s.inbound && !copy) {
      s.inbound = false;
      const TileId d = at_tile;
      --inbound_[d];
      if (Move* mv = leaving(d, cycle)) try_stop(*mv, cycle);
    }
    if (s.done) {
      if (s.collect && s.fins_left == 0) msgs_.erase(id);
      return;
    }
    if (Move* mv = leaving(at_tile, cycle); mv && mv->stopped && s.dual && !copy) {
      if (s.collect && s.fins_left == 0) msgs_.erase(id);  // the task left: the copy counts
      return;
    }
    if (Move* mv = arriving(at_tile, cycle)) {
      if (mv->stopped) {
        complete(id, s, std::max(cycle, mv->resume));
      } else {
        mv->held.push_back(id);
      }
      return;
    }
    if (copy) {
      // The task runs on the copy's tile already; the first copy was ignored if it came after
      // the task's stop (else it counted and s.done is set).
      if (reloc_.count(s.m.dst)) complete(id, s, cycle);
      return;
    }
    complete(id, s, cycle);
  }

  /// A migration packet was delivered.
  void migration_delivered(const PacketEvent& e) {
    const MigKind k = mig_kind(e.tag);
    const MsgId id = mig_msg(e.tag);
    if (k == kReplica) {
      auto it = moves_.find(id);
      if (it == moves_.end() || --it->second.replica_left != 0) return;
      it->second.closed = true;  // the relocation field is set: NAK_RELOC from now on
      it->second.ready_at = e.cycle;
      try_stop(it->second, e.cycle);
      return;
    }
    if (k == kResumeOut) {
      auto it = moves_.find(id);
      if (it == moves_.end()) return;
      egress_[e.dst].resumed = true;
      release_successor(it->second.m.from);
      return;
    }
    auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    State& s = it->second;
    switch (k) {
      case kNakReloc:  // the sender's adapter updates the remote endpoint and restarts the transfer
      case kResume:
        learned_[{s.m.src, e.src}] = s.next_dst;  // its later transfers go there at once
        s.m.dst = s.next_dst;
        if (s.direct) {
          send_direct(id, s, e.cycle + adapter_ + 1);
        } else {
          inject_stream(kChReq, s.m.src, s.m.dst, 1, e.cycle + adapter_ + 1, make_tag(id, kReq));
        }
        break;
      case kSuspend:
        break;  // the slot waits for RESUME
      case kDualFin:
        finalized(id, s, e.dst, e.cycle, true);
        break;
      default:
        break;
    }
  }

  /// A connection-oriented part (or a granted multicast part) goes now: data and finalization,
  /// to both tiles while its receiver is between phase I and the stop (NAMP-PS dualcast).
  void send_direct(MsgId id, State& s, Cycle at) {
    TileId dst = s.m.dst;
    while (!s.granted && reloc_.count(dst) && !leaving(dst, at)) dst = reloc_.at(dst);  // phase III's update
    s.m.dst = dst;
    if (Move* mv = leaving(dst, at); mv && !s.granted) {
      if (method_ == kPause && mv->closed) {  // held back until RESUME
        if (mv->stopped) resume_sender(*mv, id, mv->resume);
        else mv->suspended.push_back(id);
        return;
      }
      if (method_ == kPs && mv->stopped) {
        s.m.dst = dst = mv->m.to;
      } else if (method_ == kPs && mv->closed) {
        s.dual = true;
        s.dual_to = mv->m.to;
        s.fins_left = 2;
        ++dualcasts_;
      }
    }
    if (!s.dual && !s.granted) {
      s.inbound = true;
      ++inbound_[dst];
    }
    s.to_inject = inject_stream(kChData, s.m.src, dst, flits_of(s.m.bytes), at, make_tag(id, kData));
    inject_stream(kChData, s.m.src, dst, 1, at, make_tag(id, kFin));
    ++s.to_inject;
    if (s.dual) {
      s.to_inject += inject_stream(kChData, s.m.src, s.dual_to, flits_of(s.m.bytes), at, mig_tag(id, kDualData));
      inject_stream(kChData, s.m.src, s.dual_to, 1, at, mig_tag(id, kDualFin));
      ++s.to_inject;
    }
  }

  enum Method : std::size_t { kPause = 0, kPs = 1 };
  enum Access : std::size_t { kBaremetal = 0, kKernel = 1, kVif = 2 };
  enum Wakeup : std::size_t { kPoll = 0, kInterrupt = 1, kOsqm = 2 };
  /// Core cycles the OS adds to a send with access=kernel: the system call and the translation.
  Cycle kernel_send() const { return access_ == kKernel ? syscall_ + translate_ : 0; }

  bool offloaded_;
  std::size_t access_ = kBaremetal, wakeup_ = kPoll;
  std::uint64_t syscall_ = 0, translate_ = 0, vif_ = 0, isr_ = 0, resume_ = 0;
  bool cc_ = false;
  std::uint64_t cc_setup_ = 0, list_scan_ = 0, reduce_word_ = 0;
  std::uint64_t call_, start_, adapter_, irq_, alloc_, dma_, fin_, completion_, retry_, rx_buffer_, recv_overhead_,
      recv_word_, poll_;
  std::unordered_map<MsgId, State> msgs_;
  std::unordered_map<TileId, Egress> egress_;
  std::unordered_map<TileId, std::uint64_t> rx_used_;
  std::unordered_map<MsgId, Spread> spreads_;
  std::unordered_map<MsgId, Collect> collects_;
  std::unordered_map<TileId, Cycle> reduce_free_;  ///< when each tile's reduction data path is free
  std::uint64_t requests_ = 0, nacks_ = 0, retries_ = 0, cc_transfers_ = 0;
  // NAMP-PS
  std::size_t method_ = kPs;
  std::uint64_t os_step_ = 0, endpoint_bytes_ = 0, state_bytes_ = 0;
  std::map<MsgId, Move> moves_;
  std::unordered_map<TileId, MsgId> moving_from_, moving_to_;
  std::unordered_map<TileId, TileId> reloc_;            ///< an old endpoint's relocation field
  std::map<std::pair<TileId, TileId>, TileId> learned_;  ///< (sender, old endpoint) -> new, from NAK_RELOC or RESUME
  std::unordered_map<TileId, std::uint64_t> inbound_;   ///< transfers into a tile not finalized yet
  std::uint64_t migrations_ = 0, relocations_ = 0, suspensions_ = 0, dualcasts_ = 0;
};

}  // namespace

TILEMPI_REGISTER_ADAPTER(namp,
                         "rendezvous by allocation run by the network adapter, with collective offload and task "
                         "migration ([Wallentowitz 2018] §3.2, §3.3, §3.6)",
                         .create = [](const Config& c) -> std::unique_ptr<Adapter> {
                           return std::make_unique<NampAdapter>(c, true);
                         });
TILEMPI_REGISTER_ADAPTER(rdma,
                         "namp's packets with every protocol step in software on the cores over a plain RDMA engine "
                         "(the baseline of [Wallentowitz 2018] §3.2)",
                         .create = [](const Config& c) -> std::unique_ptr<Adapter> {
                           return std::make_unique<NampAdapter>(c, false);
                         });

}  // namespace tilempi::hwmodel::adapter
