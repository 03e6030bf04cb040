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

#include "tilempi/hwmodel/adapter.h"

namespace tilempi::hwmodel::adapter {

namespace {

enum Kind : unsigned { kEager = 1, kRts = 2, kCts = 3, kData = 4 };

class Udn final : public Adapter {
 public:
  explicit Udn(const Config& c) : Adapter("udn", c) {
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
    State& s = msgs_[m.id];
    s.m = m;
    s.rdv = rendezvous(m.bytes, m.synchronous);
    const Cycle go = at + (send_overhead_ < 1 ? 1 : send_overhead_);
    if (s.rdv) {
      inject_stream(0, m.src, m.dst, envelope_ + 1, go, make_tag(m.id, kRts));
    } else {
      s.to_deliver = inject_stream(0, m.src, m.dst, envelope_ + flits_of(m.bytes), go, make_tag(m.id, kEager));
    }
  }

  void accept(MsgId id, Cycle at) override {
    auto it = msgs_.find(id);
    if (it == msgs_.end() || !it->second.rdv) return;  // eager: the FIFO was drained on arrival
    const Message& m = it->second.m;
    inject_stream(1, m.dst, m.src, 1, at + (ctrl_overhead_ < 1 ? 1 : ctrl_overhead_), make_tag(id, kCts));
  }

  void delivered(const PacketEvent& e) override {
    auto it = msgs_.find(tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    switch (tag_kind(e.tag)) {
      case kEager:
        if (--s.to_deliver == 0) {
          out_->arrived(s.m.id, e.cycle, 0);
          msgs_.erase(it);
        }
        break;
      case kRts:
        out_->arrived(s.m.id, e.cycle, 0);
        break;
      case kCts: {
        const std::uint64_t flits = flits_of(s.m.bytes);
        const Cycle go = e.cycle + (handler_ < 1 ? 1 : handler_);
        s.to_inject = s.to_deliver = inject_stream(0, s.m.src, s.m.dst, flits, go, make_tag(s.m.id, kData));
        break;
      }
      case kData:
        if (--s.to_deliver == 0) {
          out_->data_done(s.m.id, e.cycle, 0);
          if (s.to_inject == 0) msgs_.erase(it);
        }
        break;
      default:
        break;
    }
  }

  void injected(const PacketEvent& e) override {
    if (tag_kind(e.tag) != kData) return;
    auto it = msgs_.find(tag_msg(e.tag));
    if (it == msgs_.end()) return;
    State& s = it->second;
    if (--s.to_inject == 0) {
      // The handler wrote every data word: the last one leaving is the send's end.
      out_->send_done(s.m.id, e.cycle, 0);
      if (s.to_deliver == 0) msgs_.erase(it);
    }
  }

  std::size_t active() const override { return msgs_.size(); }

 private:
  struct State {
    Message m;
    bool rdv = false;
    std::uint32_t to_deliver = 0;
    std::uint32_t to_inject = 0;
  };
  std::uint64_t send_overhead_, send_word_, recv_overhead_, recv_word_, envelope_, ctrl_overhead_, handler_, poll_,
      eager_words_;
  std::unordered_map<MsgId, State> msgs_;
};

}  // namespace

std::unique_ptr<Adapter> make_udn(const Config& c) { return std::make_unique<Udn>(c); }

}  // namespace tilempi::hwmodel::adapter
