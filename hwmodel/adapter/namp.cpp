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
#include <deque>
#include <unordered_map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"

namespace tilempi::hwmodel::adapter {

namespace {

enum Kind : unsigned { kReq = 1, kGrant = 2, kNack = 3, kData = 4, kFin = 5, kSyncAck = 6 };
enum Channel : int { kChReq = 0, kChResp = 1, kChData = 2, kChAck = 3 };

class Alloc final : public Adapter {
 public:
  Alloc(const Config& c, bool offloaded) : Adapter(offloaded ? "namp" : "rdma", c), offloaded_(offloaded) {
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
  }

  const char* name() const override { return offloaded_ ? "namp" : "rdma"; }

  bool rendezvous(std::uint64_t, bool) const override { return false; }
  Cycle send_cost(std::uint64_t, bool) const override { return call_ + start_; }
  bool send_completes_at_once(std::uint64_t, bool) const override { return false; }
  Cycle recv_cost(std::uint64_t bytes, bool) const override {
    const std::uint64_t words = (bytes + 3) / 4;
    return recv_overhead_ + words * recv_word_;
  }
  Cycle accept_cost() const override { return 0; }
  Cycle poll_cost() const override { return poll_; }
  Cycle lookahead() const override {
    Cycle l = start_ + adapter_;
    return l < 1 ? 1 : l;
  }

  void start(const Message& m, Cycle at) override {
    State& s = msgs_[m.id];
    s.m = m;
    Egress& eg = egress_[m.src];
    eg.queue.push_back(m.id);
    if (!eg.busy) begin(m.src, at + lookahead());
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

  void delivered(const PacketEvent& e) override {
    auto it = msgs_.find(tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    const Message& m = s.m;
    switch (tag_kind(e.tag)) {
      case kReq: {
        ++requests_;
        std::uint64_t& used = rx_used_[m.dst];
        const bool fits = used == 0 || used + m.bytes <= rx_buffer_;
        // Software on the receiver handles the request (rdma); the adapter alone does (namp).
        const Cycle handle = offloaded_ ? adapter_ : irq_ + alloc_;
        s.rx_cycles += offloaded_ ? 0 : irq_ + alloc_;
        if (fits) {
          used += m.bytes;
          s.granted = m.bytes;
          inject_stream(kChResp, m.dst, m.src, 1, e.cycle + handle + 1, make_tag(m.id, kGrant));
        } else {
          ++nacks_;
          inject_stream(kChResp, m.dst, m.src, 0, e.cycle + handle + 1, make_tag(m.id, kNack));
        }
        break;
      }
      case kGrant: {
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
        s.tx_cycles += offloaded_ ? 0 : irq_ + start_;
        inject_stream(kChReq, m.src, m.dst, 1, e.cycle + retry_ + (offloaded_ ? 0 : irq_ + start_), make_tag(m.id, kReq));
        break;
      }
      case kFin:
        // The receiver learns of the message: its adapter flags DONE (namp) or an interrupt (rdma).
        out_->arrived(m.id, e.cycle, s.rx_cycles + (offloaded_ ? 0 : irq_));
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
    const unsigned kind = tag_kind(e.tag);
    if (kind != kData && kind != kFin) return;
    auto it = msgs_.find(tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    if (--s.to_inject != 0) return;
    s.sent = true;
    const TileId src = s.m.src;
    if (!s.m.synchronous) out_->send_done(s.m.id, e.cycle, s.tx_cycles + completion_);
    Egress& eg = egress_[src];
    eg.busy = false;
    if (!eg.queue.empty()) begin(src, e.cycle + adapter_ + 1);
    if (!s.m.synchronous && s.accepted) msgs_.erase(it);
  }

  std::size_t active() const override { return msgs_.size(); }

  nlohmann::json stats() const override {
    return {{"allocation_requests", requests_}, {"nacks", nacks_}, {"retries", retries_}};
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
  };
  struct Egress {
    std::deque<MsgId> queue;
    bool busy = false;
  };

  void begin(TileId src, Cycle at) {
    Egress& eg = egress_[src];
    if (eg.queue.empty()) return;
    const MsgId id = eg.queue.front();
    eg.queue.pop_front();
    eg.busy = true;
    const State& s = msgs_.at(id);
    inject_stream(kChReq, src, s.m.dst, 1, at, make_tag(id, kReq));
  }

  bool offloaded_;
  std::uint64_t call_, start_, adapter_, irq_, alloc_, dma_, fin_, completion_, retry_, rx_buffer_, recv_overhead_,
      recv_word_, poll_;
  std::unordered_map<MsgId, State> msgs_;
  std::unordered_map<TileId, Egress> egress_;
  std::unordered_map<TileId, std::uint64_t> rx_used_;
  std::uint64_t requests_ = 0, nacks_ = 0, retries_ = 0;
};

}  // namespace

std::unique_ptr<Adapter> make_namp(const Config& c, bool offloaded) { return std::make_unique<Alloc>(c, offloaded); }

}  // namespace tilempi::hwmodel::adapter
