// The register-mapped adapter of the TilePro64's user dynamic network (UDN), on which [Yagna 2013]
// ran: the core writes the words of a packet into the network one per cycle, and the receiving
// core reads them from its demux FIFO (118 words, [Yagna 2013] §2.1.2). A message library on top of it:
//
//   eager       (envelope + data fit the FIFO): the data packets go at once; the send is done
//               when the core has written them.
//   rendezvous  (larger, or synchronous): a request packet (envelope + size); the receiver's
//               library answers with a one-word go-ahead once the message is matched; an
//               interrupt handler on the sender then writes the data packets. The send is done
//               when the last data packet has left the sender; the receiver's fetch when the
//               last word has arrived and been read.
#include <unordered_map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"
#include "registered_adapters.h"

namespace tilempi::hwmodel::adapter {

namespace {

enum PacketKind : unsigned { kEager = 1, kRts = 2, kCts = 3, kData = 4 };

class UdnAdapter final : public Adapter {
 public:
  explicit UdnAdapter(const Config& c) : Adapter("udn", c) {
    send_overhead_ = param("send_overhead", 20,
                           "calibration: library call and header word before the first data word "
                           "([Yagna 2013] gives no per-call figure; OperaMPI's 6.8 us small-message latency is "
                           "mostly software above this layer, [Yagna 2013] §2.2)");
    send_word_ = param("send_cycles_per_word", 1, "[Yagna 2013] §2.2: a lower bound of one word per cycle");
    recv_overhead_ = param("recv_overhead", 20, "calibration: library call and envelope decode");
    recv_word_ = param("recv_cycles_per_word", 1,
                       "[Yagna 2013] §2.1.2: words are read from a demux-queue register, one per cycle");
    envelope_ = param("envelope_words", 3, "assumption: source, tag/communicator, length");
    ctrl_overhead_ = param("ctrl_overhead", 20, "calibration: as send_overhead, for the one-word go-ahead");
    handler_ = param("handler_cycles", 30, "calibration: interrupt entry and exit on the sender");
    poll_ = param("poll_cycles", 4, "calibration: one read of the demux status register and a branch");
    const std::uint64_t fifo = static_cast<std::uint64_t>(c.ejection_buffer_flits);
    eager_words_ = param("eager_words", fifo > envelope_ ? fifo - envelope_ : 1,
                         "[Yagna 2013] §2.1.2: an eager message (envelope + data) fits the 118-word demux FIFO");
  }

  const char* name() const override { return "udn"; }

  bool rendezvous(std::uint64_t bytes, bool synchronous) const override {
    return synchronous || flits_of(bytes) > eager_words_;
  }
  Cycle send_cost(std::uint64_t bytes, bool rdv) const override {
    return send_overhead_ + (rdv ? envelope_ + 1 : envelope_ + flits_of(bytes)) * send_word_;
  }
  bool send_completes_at_once(std::uint64_t, bool rdv) const override { return !rdv; }
  Cycle recv_cost(std::uint64_t bytes, bool rdv) const override {
    return recv_overhead_ + (rdv ? flits_of(bytes) : envelope_ + flits_of(bytes)) * recv_word_;
  }
  Cycle accept_cost() const override { return ctrl_overhead_ + send_word_; }
  Cycle poll_cost() const override { return poll_; }
  Cycle lookahead() const override {
    Cycle l = send_overhead_ < ctrl_overhead_ ? send_overhead_ : ctrl_overhead_;
    return l < 1 ? 1 : l;
  }

  void start(const Message& m, Cycle at) override {
    const std::uint32_t slot = alloc();
    State& s = msgs_[slot];
    s.m = m;
    s.rdv = rendezvous(m.bytes, m.synchronous);
    s.to_deliver = s.to_inject = 0;
    const Cycle go = at + (send_overhead_ < 1 ? 1 : send_overhead_);
    if (s.rdv) {
      rdv_slot_.emplace(m.id, slot);
      inject_stream(0, m.src, m.dst, envelope_ + 1, go, make_tag(slot, kRts));
    } else {
      const std::uint32_t n = inject_stream(0, m.src, m.dst, envelope_ + flits_of(m.bytes), go, make_tag(slot, kEager));
      msgs_[slot].to_deliver = n;
    }
  }

  void accept(MsgId id, Cycle at) override {
    auto it = rdv_slot_.find(id);
    if (it == rdv_slot_.end()) return;  // eager: the FIFO was drained on arrival
    const std::uint32_t slot = it->second;
    rdv_slot_.erase(it);
    const Message& m = msgs_[slot].m;
    inject_stream(1, m.dst, m.src, 1, at + (ctrl_overhead_ < 1 ? 1 : ctrl_overhead_), make_tag(slot, kCts));
  }

  void delivered(const PacketEvent& e) override {
    if (remote_delivered(e)) return;
    const std::uint32_t slot = static_cast<std::uint32_t>(tag_msg(e.tag));
    State& s = msgs_[slot];
    switch (tag_kind(e.tag)) {
      case kEager:
        if (--s.to_deliver == 0) {
          out_->arrived(s.m.id, e.cycle, 0);
          release(slot);
        }
        break;
      case kRts:
        out_->arrived(s.m.id, e.cycle, 0);
        break;
      case kCts: {
        const std::uint64_t flits = flits_of(s.m.bytes);
        const Cycle go = e.cycle + (handler_ < 1 ? 1 : handler_);
        const std::uint32_t n = inject_stream(0, s.m.src, s.m.dst, flits, go, make_tag(slot, kData));
        msgs_[slot].to_inject = msgs_[slot].to_deliver = n;
        break;
      }
      case kData:
        if (--s.to_deliver == 0) {
          out_->data_done(s.m.id, e.cycle, 0);
          if (msgs_[slot].to_inject == 0) release(slot);
        }
        break;
      default:
        break;
    }
  }

  // Its tags carry its slot, not the message's id.
  PacketOwner packet_owner(const PacketEvent& e) const override {
    if (tag_kind(e.tag) >= kRemoteFirst) return Adapter::packet_owner(e);
    const std::uint64_t slot = tag_msg(e.tag);
    if (slot >= msgs_.size()) return {};
    return {TagFamily::message, msgs_[static_cast<std::size_t>(slot)].m.id, true};
  }

  void injected(const PacketEvent& e) override {
    if (tag_kind(e.tag) >= kRemoteFirst) return;
    if (tag_kind(e.tag) != kData) return;
    const std::uint32_t slot = static_cast<std::uint32_t>(tag_msg(e.tag));
    State& s = msgs_[slot];
    if (--s.to_inject == 0) {
      // The handler wrote every data word: the last one leaving is the send's end.
      out_->send_done(s.m.id, e.cycle, 0);
      if (msgs_[slot].to_deliver == 0) release(slot);
    }
  }

  std::size_t active() const override { return msgs_.size() - free_.size() + remote_active(); }

 private:
  struct State {
    Message m;
    bool rdv = false;
    std::uint32_t to_deliver = 0;
    std::uint32_t to_inject = 0;
  };
  std::uint64_t send_overhead_, send_word_, recv_overhead_, recv_word_, envelope_, ctrl_overhead_, handler_, poll_,
      eager_words_;
  // A message's state lives in a slot, found from its packets' tags (tag = slot and kind) without
  // a look-up by id; freed slots are reused. Only a rendezvous message is found by id, once, when
  // the receiver accepts it.
  std::uint32_t alloc() {
    if (!free_.empty()) {
      const std::uint32_t slot = free_.back();
      free_.pop_back();
      return slot;
    }
    msgs_.emplace_back();
    return static_cast<std::uint32_t>(msgs_.size() - 1);
  }
  void release(std::uint32_t slot) { free_.push_back(slot); }
  std::vector<State> msgs_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<MsgId, std::uint32_t> rdv_slot_;  // rendezvous messages not accepted yet
};

}  // namespace

TILEMPI_REGISTER_ADAPTER(udn,
                         "the TilePro64's register-mapped user dynamic network, eager and rendezvous in software "
                         "on the cores ([Yagna 2013] §2.1.2)",
                         .create = [](const Config& c) -> std::unique_ptr<Adapter> {
                           return std::make_unique<UdnAdapter>(c);
                         });

}  // namespace tilempi::hwmodel::adapter
