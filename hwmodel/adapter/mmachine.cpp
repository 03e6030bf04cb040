// The M-Machine's message interface ([Lee 1999] ch. 3-4), with MPI on top of it.
//
// Injection (§3.2.1, §4.2): the core assembles a message of up to body_words (10) words in its
// registers and a SEND instruction injects it atomically, with a header, the HandlerIP and the
// DestAddr: 13 words at most. The SEND issues only when the 16-word output queue has 13 words
// free (§4.2); the words then leave at one per cycle. DestAddr is a virtual address: the GTLB
// (§3.3.1, §4.2.2), 4 entries each mapping an address region onto a 2^a x 2^b rectangle of
// nodes, translates it; a miss is resolved by a software event handler (§4.2.3) in its own
// thread slot, and ordered messages behind it wait (§4.2.1).
// Flow control (§3.3.2): every throttled SEND decrements the outgoing message buffer counter
// (OMBC, one per bounce buffer); SENDs block at zero. The receiver's handler either consumes a
// message and answers with an acknowledgement (OMBC + 1 at the sender) or, when it cannot
// buffer it, returns it whole to the sender, which keeps it in a bounce buffer and sends it
// again later. Acknowledgements and bounces are priority-1 messages, always consumed.
// Extraction and dispatch (§3.2.2, §3.2.3): a dispatcher in a thread slot reserved for messages
// jumps to the handler within 3 cycles of the message's arrival; the handler reads the words
// one by one (streaming) and deposits them; the user thread's MPI library takes the message from
// there. Ordered messages of one node to another use one virtual channel, so they arrive in
// order (§3.3.3).
//
// MPI on it (assumptions, docs/SIM.md): an MPI message of W words goes as ceil(W / 10) messages
// when W <= 10, else as ceil((W + 1) / 10) with the length in the first; the envelope
// (communicator context, tag) rides in DestAddr's offset into the receiver's mailbox region and
// the fragment kind in HandlerIP, so an empty MPI message is an empty M-Machine message (PING's).
// Messages above eager_words, and synchronous ones, go by rendezvous: a one-word request; once
// the receiver's MPI matched it, a go-ahead (priority 1) makes the sender's handler send the
// data, which the receiver has room for and never bounces.
//
// Costs are [Lee 1999]'s where it gives them (null SEND occupancy 5 and 1 per word, §7.2.2;
// dispatch 3, §3.2) and calibrated to Table 6.4's PING (38 cycles on a zero-latency network,
// occupancy 28) where it does not; each parameter's source says which.
#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"
#include "registered_adapters.h"

namespace tilempi::hwmodel::adapter {

namespace {

// kFull: returned for want of room (the sender waits for kRoom); kOrder: returned only because an
// earlier message of the same sender was (it may go again as soon as that one is taken).
enum PacketKind : unsigned { kFrag = 1, kAck = 2, kFull = 3, kGoAhead = 4, kRoom = 5, kOrder = 6 };
enum Channel : int { kP0 = 0, kP1 = 1 };  // request and reply priorities (§3.2), one VC class each

// Words of an M-Machine message besides its body: header, HandlerIP, DestAddr (§4.2.4, §4.3.2).
constexpr std::uint64_t kFrame = 3;

// A point of [Lee 1999] ch. 6's design space: what one mechanism adds to a message of w words
// beyond the M-Machine's own (MM): latency lat + lat_word * w and occupancy occ + occ_word * w.
// Calibration (docs/SIM.md): the fixed parts from Table 6.4's PING (two empty messages, so half
// of each row's difference to MM), the per-word parts from its RPC (one 9-word message).
struct Mechanism {
  const char* code;
  std::uint64_t lat, lat_word, occ, occ_word;
  bool streaming;  // injection: the words go as they are written; extraction: the handler starts at the head
};
// Injection (§6.1): register- or memory-mapped, buffered or streaming. MM: buffered, the buffer
// being the general registers themselves (nothing copied).
constexpr Mechanism kInjection[] = {
    {"mm", 0, 0, 0, 0, false},
    {"irs", 1, 0, 1, 1, true},    // PING 35 (-3), occ. 30 (+2); RPC occ. 52: one copy per word
    {"irb", 3, 1, 3, 1, false},   // PING 43 (+5), occ. 33 (+5); RPC 53 (+9)
    {"ims", 40, 0, 9, 1, true},   // PING 117 (+79: a channel opened per message), occ. 46 (+18)
    {"imb", 32, 2, 9, 1, false},  // PING 103 (+65), occ. 47 (+19); RPC 99 (+55)
};
// Extraction (§6.1). MM: streaming, the message words read straight from MsgBody.
constexpr Mechanism kExtraction[] = {
    {"mm", 0, 0, 0, 0, true},
    {"ers", 0, 0, 1, 1, true},    // PING 39 (+1), occ. 31 (+3); RPC occ. 54 (+12)
    {"erb", 8, 0, 0, 1, false},   // PING 55 (+17), occ. 29; RPC 62 (+18: 8 + the 9 words waited for)
    {"ems", 24, 1, 1, 1, true},   // PING 87 (+49), occ. 31; RPC 77 (+33)
    {"emb", 36, 0, 2, 1, false},  // PING 109 (+71), occ. 33; RPC 90 (+46)
};
// Address translation (§6.5.3): the GTLB (free on a hit) or a software lookup, found in the first
// table entry (SWX: PING 79, +41 for two translations, occ. 74; the spills of the registers the
// lookup needs grow with the message held in them: RPC occ. +48 for 9 words).
constexpr Mechanism kTranslation[] = {
    {"gtlb", 0, 0, 0, 0, false},
    {"swx", 20, 2, 23, 3, false},
};
// Dispatch (§6.5.4), beyond the dispatcher's jump: a dedicated thread slot (MM), polling (POL,
// optimistic: the message arrives as the poll runs; 6 registers saved) or an interrupt (INT, 32
// registers saved). Table 6.4 gives latency only (PING 76 and 292: +19 and +127 per message);
// the occupancy is taken equal (assumption: the swap's cycles are all issue slots lost).
// Dispatch time varies (§6.4, §6.5.4, Figure 6-10). pol is Table 6.4's best case (POL_MIN: the
// message arrives as the poll runs); pol_max the worst (it barely missed a poll and waits
// poll_miss_cycles more); pol_periodic polls every poll_period_cycles from cycle 0 and a message
// waits for the next poll. int is INT_MIN: the interrupt handler checks for new messages before
// it returns to the displaced program, so a message in by then costs no second interrupt;
// int_max: every message its own. pol, pol_periodic and int drain alike (the poll that found a
// message finds the next one in at once), which is how Table 6.4 derives BLKW for POL and INT
// (notes a, b: BLKW_MM plus one swap, 2684 and 2792).
constexpr Mechanism kDispatch[] = {
    {"thread", 0, 0, 0, 0, false},
    {"pol", 19, 0, 19, 0, false},
    {"pol_max", 19, 0, 19, 0, false},
    {"pol_periodic", 19, 0, 19, 0, false},
    {"int", 127, 0, 127, 0, false},
    {"int_max", 127, 0, 127, 0, false},
};

template <std::size_t N>
const Mechanism& find(const Mechanism (&table)[N], const std::string& code) {
  for (const Mechanism& m : table)
    if (code == m.code) return m;
  return table[0];
}
template <std::size_t N>
std::vector<std::string> codes(const Mechanism (&table)[N]) {
  std::vector<std::string> out;
  for (const Mechanism& m : table) out.emplace_back(m.code);
  return out;
}

// A Table 6.4 model name ("MM", "SWX_IMB_EMB_INT", ...) as the four choices; false if a part is
// unknown or a mechanism is given twice.
bool parse_model(const std::string& name, std::string& inj, std::string& ext, std::string& xlate,
                 std::string& disp) {
  inj = "mm", ext = "mm", xlate = "gtlb", disp = "thread";
  if (name == "MM") return true;
  bool seen[4] = {false, false, false, false};
  std::size_t pos = 0;
  while (pos <= name.size()) {
    std::size_t end = name.find('_', pos);
    if (end == std::string::npos) end = name.size();
    std::string part = name.substr(pos, end - pos);
    for (char& ch : part) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    int kind = -1;
    if (part == "swx") kind = 2, xlate = part;
    else if (part == "pol" || part == "int") kind = 3, disp = part;
    else if (part.size() == 3 && part[0] == 'i' && find(kInjection, part).code != std::string("mm")) kind = 0, inj = part;
    else if (part.size() == 3 && part[0] == 'e' && find(kExtraction, part).code != std::string("mm")) kind = 1, ext = part;
    if (kind < 0 || seen[kind]) return false;
    seen[kind] = true;
    pos = end + 1;
  }
  return true;
}

class MMachineAdapter final : public Adapter {
 public:
  explicit MMachineAdapter(const Config& c) : Adapter("mmachine", c) {
    const std::string model =
        text_param("model", "MM",
                   "MM, or Table 6.4's codes joined by _: SWX, POL, INT, IRS, IRB, IMS, IMB, ERS, ERB, EMS, EMB",
                   "[Lee 1999] §6.1 Tables 6.1-6.3: the interface variant; MM is the M-Machine's. Sets the defaults "
                   "of injection, extraction, translation and dispatch");
    std::string inj, ext, xl, disp;
    if (!parse_model(model, inj, ext, xl, disp))
      throw ConfigError("adapter.mmachine.model",
                        "config key 'adapter.mmachine.model': bad value '" + model +
                            "': expected MM or codes of Table 6.4 joined by _ (SWX, POL, INT, IRS, IRB, IMS, IMB, ERS, "
                            "ERB, EMS, EMB; at most one of each kind), e.g. SWX_IMB_EMB_INT");
    inj_ = find(kInjection, pick("injection", codes(kInjection), inj,
                                         "[Lee 1999] §6.1: mm (register-mapped, buffered in the general registers), irs, "
                                         "irb (register-mapped streaming, buffered), ims, imb (memory-mapped)"));
    ext_ = find(kExtraction, pick("extraction", codes(kExtraction), ext,
                                          "[Lee 1999] §6.1: mm (streaming from MsgBody), ers, erb (register-mapped "
                                          "streaming, buffered), ems, emb (memory-mapped)"));
    xl_ = find(kTranslation, pick("translation", codes(kTranslation), xl,
                                          "[Lee 1999] §6.5.3: gtlb (hardware), swx (a software lookup per message)"));
    disp_ = find(kDispatch, pick("dispatch", codes(kDispatch), disp,
                                         "[Lee 1999] §6.5.4: thread (a dedicated thread slot), pol (polling, the best "
                                         "case of Table 6.4), pol_max (polling, a message that just missed a poll, "
                                         "§6.4), pol_periodic (a poll every poll_period_cycles), int (interrupt; "
                                         "messages in before the handler returns need none), int_max (an interrupt per "
                                         "message)"));
    const char* cal = "calibration from [Lee 1999] Table 6.4 for the chosen variant (0 for MM's own mechanism)";
    inj_.lat = param("injection_cycles", inj_.lat, std::string(cal) + ": injection's extra latency per message");
    inj_.lat_word = param("injection_cycles_per_word", inj_.lat_word, std::string(cal) + ": ... per word");
    inj_.occ = param("injection_occupancy", inj_.occ, std::string(cal) + ": injection's extra occupancy per message");
    inj_.occ_word = param("injection_occupancy_per_word", inj_.occ_word, std::string(cal) + ": ... per word");
    ext_.lat = param("extraction_cycles", ext_.lat, std::string(cal) + ": extraction's extra latency per message");
    ext_.lat_word = param("extraction_cycles_per_word", ext_.lat_word, std::string(cal) + ": ... per word");
    ext_.occ = param("extraction_occupancy", ext_.occ, std::string(cal) + ": extraction's extra occupancy per message");
    ext_.occ_word = param("extraction_occupancy_per_word", ext_.occ_word, std::string(cal) + ": ... per word");
    xl_.lat = param("swx_cycles", xl_.lat, std::string(cal) + ": the software lookup's latency per message (swx)");
    xl_.lat_word = param("swx_cycles_per_word", xl_.lat_word, std::string(cal) + ": ... per word (register spills)");
    xl_.occ = param("swx_occupancy", xl_.occ, std::string(cal) + ": the software lookup's occupancy per message");
    xl_.occ_word = param("swx_occupancy_per_word", xl_.occ_word, std::string(cal) + ": ... per word");
    disp_.lat = param("dispatch_extra_cycles", disp_.lat,
                      std::string(cal) + ": a poll's or an interrupt's thread swap, per message");
    disp_.occ = param("dispatch_extra_occupancy", disp_.occ,
                      std::string(cal) + ": its occupancy (the thesis gives none: taken equal to the latency)");
    poll_miss_ = param("poll_miss_cycles", 121,
                       "[Lee 1999] §6.4: 'a penalty of 121 cycles of latency is incurred whenever a message barely "
                       "misses a poll' (dispatch=pol_max)");
    poll_period_ = param("poll_period_cycles", 120,
                         "[Lee 1999] §6.5.4: 'assuming a poll-frequency of 1 per 120 cycles' (dispatch=pol_periodic)");
    if (disp_.code == std::string("pol_periodic") && poll_period_ == 0)
      throw ConfigError("adapter.mmachine.poll_period_cycles",
                        "config key 'adapter.mmachine.poll_period_cycles': must be at least 1 with dispatch=pol_periodic");
    // The experiments of §7.2.2 vary latency and occupancy beyond the M-Machine's own.
    added_latency_ = param("added_latency_cycles", 0,
                           "[Lee 1999] §7.2.2, Figure 7-11: cycles of latency added to every message on its way (the "
                           "LOG model's k_l beyond the base); 0 on the M-Machine");
    send_stall_ = param("send_stall_cycles", 0,
                        "[Lee 1999] §7.2.2, Figure 7-13: the pipeline stalls this many cycles after each SEND issues, "
                        "before the message is injected (occupancy added to k_o); 0 on the M-Machine");
    const char* ping = "calibration: PING on a zero-latency network takes 38 cycles and occupies 28 ([Lee 1999] §6.4 "
                       "Table 6.4, MM): one way = send_overhead + 2 words streamed + dispatch_cycles + handler_overhead "
                       "+ poll_cycles + recv_overhead = 5 + 2 + 3 + 4 + 1 + 4 = 19";
    send_overhead_ = param("send_overhead", 5, "[Lee 1999] §7.2.2: k_o = 5 cycles of occupancy per message (the null "
                                               "SEND of ch. 6)");
    send_word_ = param("send_cycles_per_word", 1, "[Lee 1999] §7.2.2: v_o = 1 cycle per message word");
    body_words_ = param("body_words", 10, "[Lee 1999] §3.2.1: a message body of up to 10 words");
    queue_words_ = param("queue_words", 16, "[Lee 1999] §4.2: a 16-word outgoing message queue");
    issue_free_ = param("issue_free_words", 13,
                        "[Lee 1999] §4.2: a SEND issues only with 13 words free (the longest message with its header)");
    dispatch_ = param("dispatch_cycles", 3, "[Lee 1999] §3.2: a message is dispatched within a jump delay (3 cycles)");
    handler_overhead_ = param("handler_overhead", 4, std::string(ping) + ": the handler's fixed part");
    handler_word_ = param("handler_cycles_per_word", 1,
                          "[Lee 1999] §3.2.2: the handler reads one word per MsgBody read (streaming extraction)");
    poll_ = param("poll_cycles", 1, std::string(ping) + ": a test of MsgHead's presence bit (§3.2.3)");
    recv_overhead_ = param("recv_overhead", 4, std::string(ping) + ": the MPI receive taking the deposited message");
    ack_ = param("ack_cycles", 5, "[Lee 1999] §3.3.2: the handler acknowledges with a non-throttled SEND (k_o = 5, "
                                  "§7.2.2) in its own thread slot");
    gtlb_entries_ = param("gtlb_entries", 4, "[Lee 1999] §3.3.1: a fully associative GTLB of 4 entries");
    miss_ = param("gtlb_miss_cycles", 20,
                  "[Lee 1999] §4.2.3, §6.4: a miss is resolved in software; as SWX's lookup, found in the first entry: "
                  "Table 6.4 PING 79 - 38 = 41 cycles for two translations, about 20 each");
    miss_entry_ = param("gtlb_miss_cycles_per_entry", 16,
                        "[Lee 1999] §6.4: each entry the software lookup passes costs 16 cycles more");
    bounce_buffers_ = param("bounce_buffers", 32,
                            "assumption: [Lee 1999] §3.3.2 says the OS reserves 'a number of' bounce buffers per node "
                            "(the OMBC's initial value)");
    buffer_words_ = param("recv_buffer_words", 4096,
                          "assumption: words a node's handlers can deposit for messages its MPI has not taken yet; "
                          "a message that finds no room is returned to its sender ([Lee 1999] §3.3.2)");
    retry_ = param("retry_cycles", 100,
                   "assumption: a bounced message waits this long in its bounce buffer before it is sent again "
                   "([Lee 1999] §3.3.2 leaves the retry to software)");
    eager_words_ = param("eager_words", 1024,
                         "assumption: up to 1 KW (BLKW's transfer, [Lee 1999] §6.2) an MPI message goes at once; above, "
                         "by rendezvous");
    const std::uint64_t room = static_cast<std::uint64_t>(c.max_payload_flits());
    if (body_words_ < 1) body_words_ = 1;
    // A message is one packet: its body is as long as the chip's packets allow.
    body_ = std::min<std::uint64_t>(body_words_, room > kFrame - 1 ? room - (kFrame - 1) : 1);
  }

  const char* name() const override { return "mmachine"; }

  // A choice parameter by its words: the chosen word.
  std::string pick(const std::string& name, const std::vector<std::string>& words, const std::string& def,
                   const std::string& source) {
    const std::size_t d = static_cast<std::size_t>(std::find(words.begin(), words.end(), def) - words.begin());
    return words[choice_param(name, words, d < words.size() ? d : 0, source)];
  }

  // ---- core side
  bool rendezvous(std::uint64_t bytes, bool synchronous) const override {
    // A message the receive buffer could never hold goes by rendezvous too.
    return synchronous || flits_of(bytes) > std::min(eager_words_, buffer_words_ > 0 ? buffer_words_ - 1 : 0);
  }
  Cycle send_cost(std::uint64_t bytes, bool rdv) const override {
    if (rdv) return send_latency(1);  // the one-word request
    Cycle c = 0;
    for (std::uint64_t w : split(flits_of(bytes))) c += send_latency(w);
    return c;
  }
  // The sender's part of one message of w words: assembling it, translating its address, the SEND.
  Cycle send_latency(std::uint64_t w) const {
    return send_overhead_ + send_stall_ + w * send_word_ + inj_.lat + inj_.lat_word * w + xl_.lat + xl_.lat_word * w;
  }
  Cycle send_occupancy(std::uint64_t w) const {
    return send_overhead_ + send_stall_ + w * send_word_ + inj_.occ + inj_.occ_word * w + xl_.occ + xl_.occ_word * w;
  }
  // The send is done when its last SEND has issued: a full output queue, a zero OMBC or a GTLB
  // miss hold the sender (§4.2.1).
  bool send_completes_at_once(std::uint64_t, bool) const override { return false; }
  Cycle recv_cost(std::uint64_t, bool) const override { return recv_overhead_; }
  Cycle accept_cost() const override { return recv_overhead_ + send_overhead_; }
  Cycle poll_cost() const override { return poll_; }
  // A streaming injection's first words leave before the SEND's end (kFrame - 1 words earlier).
  Cycle lookahead() const override {
    const Cycle first = send_latency(0) > kFrame - 1 ? send_latency(0) - (inj_.streaming ? kFrame - 1 : 0) : 1;
    return std::max<Cycle>(1, std::min(first, accept_cost()));
  }

  // ---- network side
  void start(const Message& m, Cycle at) override {
    Msg& s = msgs_[m.id];
    s.m = m;
    s.rdv = rendezvous(m.bytes, m.synchronous);
    s.words = flits_of(m.bytes);
    if (s.rdv) {
      s.total = 1;
      occupancy_ += send_occupancy(1);
      enqueue(m, Frag{m.id, 1, 0, true, true, false, false}, at + send_latency(1), false);
    } else {
      const std::vector<std::uint64_t> parts = split(s.words);
      s.total = static_cast<std::uint32_t>(parts.size());
      Cycle ready = at;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        ready += send_latency(parts[i]);
        occupancy_ += send_occupancy(parts[i]);
        enqueue(m, Frag{m.id, parts[i], static_cast<std::uint32_t>(i), i + 1 == parts.size(), false, false, false},
                ready, false);
      }
    }
    pump(m.src);
  }

  void accept(MsgId id, Cycle at) override {
    auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    Msg& s = it->second;
    Sink& k = sink(s.m.dst);
    k.used -= std::min(k.used, s.reserved);
    if (s.reserved > 0) {
      // Room again: the senders whose messages were returned may send them again (a reply,
      // priority 1). Without it they would retry forever into a full buffer.
      // Sent by the handler slot after what it is doing, so after any message it returned.
      const Cycle t = std::max({at + 1, k.free, chip_->now()});
      for (TileId src : k.waiting) inject_stream(kP1, s.m.dst, src, kFrame - 1, t, make_tag(src, kRoom));
      k.waiting.clear();
    }
    s.reserved = 0;
    s.accepted = true;
    if (!s.rdv) {
      finish_if_done(it);
      return;
    }
    // The receiver's MPI answers the request with a go-ahead (priority 1, physically addressed).
    ++go_aheads_;
    inject_stream(kP1, s.m.dst, s.m.src, kFrame - 1, at + recv_overhead_ + send_overhead_, make_tag(id, kGoAhead));
  }

  void delivered(const PacketEvent& e) override {
    if (remote_delivered(e)) return;  // one-sided operations: handlers on the cores (adapter.cpp)
    const std::uint64_t key = tag_msg(e.tag);
    switch (tag_kind(e.tag)) {
      case kFrag: on_fragment(key, e); break;
      case kAck: on_answer(key, e, false, false); break;
      case kFull: on_answer(key, e, true, true); break;
      case kOrder: on_answer(key, e, true, false); break;
      case kGoAhead: on_go_ahead(key, e); break;
      case kRoom:
        source(e.dst).pairs[e.src].room = true;
        pump(e.dst);
        break;
      default: break;
    }
  }

  // Its fragments' packets carry the fragment's key, a go-ahead the message's id, kRoom none.
  PacketOwner packet_owner(const PacketEvent& e) const override {
    const std::uint64_t key = tag_msg(e.tag);
    switch (tag_kind(e.tag)) {
      case kFrag:
      case kAck:
      case kFull:
      case kOrder: {
        const auto it = frags_.find(key);
        if (it == frags_.end()) return {};
        return {TagFamily::message, it->second.msg, true};
      }
      case kGoAhead: return {TagFamily::message, key, true};
      case kRoom: return {};
      default: return Adapter::packet_owner(e);
    }
  }

  void injected(const PacketEvent& e) override {
    if (tag_kind(e.tag) != kFrag) return;
    auto it = frags_.find(tag_msg(e.tag));
    if (it == frags_.end()) return;
    Source& s = source(e.src);
    s.queued -= std::min(s.queued, kFrame + it->second.words);
    pump(e.src);
  }

  std::size_t active() const override { return msgs_.size() + frags_.size() + remote_active(); }

  nlohmann::json stats() const override {
    return {{"messages", sent_},         {"bounces", bounces_},          {"retries", retries_},
            {"gtlb_hits", hits_},        {"gtlb_misses", misses_},       {"queue_stalls", queue_stalls_},
            {"ombc_stalls", ombc_stalls_}, {"go_aheads", go_aheads_},    {"occupancy_cycles", occupancy_},
            {"flow_control_cycles", flow_}};
  }

 private:
  // One M-Machine message of an MPI message.
  struct Frag {
    MsgId msg = 0;
    std::uint64_t words = 0;  // body
    std::uint32_t index = 0;
    bool last = false;
    bool request = false;  // a rendezvous request
    bool data = false;     // rendezvous data: the receiver has room, it is never returned
    bool retry = false;    // sent again from a bounce buffer
    TileId src = kNoTile, dst = kNoTile;
    std::uint64_t seq = 0;  // order among the sender's throttled messages
    Cycle ready = 0;        // assembled in the registers, ready to issue
  };
  struct Msg {
    Message m;
    bool rdv = false;
    bool accepted = false;
    std::uint64_t words = 0;
    std::uint32_t total = 0;     // M-Machine messages (rendezvous: the request)
    std::uint32_t handled = 0;   // of them, consumed by the receiver's handler
    std::uint32_t data_total = 0, data_handled = 0, data_issued = 0, issued = 0;
    std::uint64_t reserved = 0;  // receive-buffer words held until the MPI takes the message
    bool admitted = false;       // the receiver holds room for the whole message
    bool arrived = false, sent = false, data_done = false;
    std::uint32_t live = 0;      // M-Machine messages not yet acknowledged (or, data, consumed)
  };
  // A sender's state towards one destination.
  struct Pair {
    std::map<std::uint64_t, std::uint64_t> bounced;  // seq -> fragment, in bounce buffers
    std::uint64_t unanswered = 0;  // issued throttled messages without ack or bounce
    bool retrying = false;         // a bounced message is out again
    bool room = true;              // the destination has not returned anything since it last said it has room
    Cycle retry_at = 0;
  };
  struct Source {
    std::deque<std::uint64_t> user;    // throttled messages not yet issued, in order
    std::deque<std::uint64_t> data;    // rendezvous data the handler sends
    std::uint64_t queued = 0;          // words in the output queue
    std::uint64_t ombc = 0;
    std::map<TileId, Pair> pairs;      // per destination
    Cycle core_free = 0;               // the user thread's last SEND issued
    Cycle handler_free = 0;            // the priority-1 handler slot
    std::uint64_t next_seq = 0;
    std::vector<int> gtlb;             // cached regions, most recently used last
  };
  struct Sink {
    Cycle free = 0;                    // the priority-0 handler slot
    std::uint64_t used = 0;            // receive-buffer words
    std::set<TileId> returning;        // sources whose next messages are returned until a retry fits
    std::set<TileId> waiting;          // sources to tell when room frees up
  };
  // A GTLB entry's reach: a 2^a x 2^b rectangle of nodes (§3.3.1).
  struct Region {
    int x0, y0, w, h;
  };

  std::vector<std::uint64_t> split(std::uint64_t words) const {
    std::vector<std::uint64_t> out;
    if (words <= body_) {
      out.push_back(words);
      return out;
    }
    std::uint64_t left = words + 1;  // the length word
    while (left > 0) {
      const std::uint64_t w = std::min(left, body_);
      out.push_back(w);
      left -= w;
    }
    return out;
  }

  Source& source(TileId t) {
    auto it = sources_.find(t);
    if (it != sources_.end()) return it->second;
    Source& s = sources_[t];
    s.ombc = bounce_buffers_;
    // The OS loads the GTLB with the largest regions when the program starts.
    if (regions_.empty()) build_regions();
    for (std::size_t r = 0; r < regions_.size() && r < gtlb_entries_; ++r) s.gtlb.push_back(static_cast<int>(r));
    return s;
  }
  Sink& sink(TileId t) { return sinks_[t]; }

  void enqueue(const Message& m, Frag f, Cycle ready, bool data) {
    f.src = m.src;
    f.dst = m.dst;
    f.ready = ready;
    Source& s = source(m.src);
    if (!data) f.seq = s.next_seq++;
    const std::uint64_t key = next_frag_++;
    frags_.emplace(key, f);
    ++msgs_.at(f.msg).live;
    (data ? s.data : s.user).push_back(key);
  }

  // Issues what the source can: rendezvous data first (the handler's), then a retry or the
  // user's next message. Called whenever the output queue drains, an answer arrives or a
  // message is queued.
  void pump(TileId src) {
    Source& s = source(src);
    for (;;) {
      const std::uint64_t free_words = queue_words_ - std::min(queue_words_, s.queued);
      if (free_words < std::min(issue_free_, queue_words_) && s.queued > 0) {
        if (!s.data.empty() || !s.user.empty()) ++queue_stalls_;
        return;  // the next SEND waits for the queue to drain (injected() calls back)
      }
      if (!s.data.empty()) {
        const std::uint64_t key = s.data.front();
        s.data.pop_front();
        issue(s, key, false);
        continue;
      }
      // Retries, per destination: one bounced message at a time, once every earlier message to
      // it has been answered and it said it has room; it takes nothing more of ours until the
      // first of them fits (order, §3.3.3).
      bool retried = false;
      for (auto& [dst, p] : s.pairs) {
        if (p.bounced.empty() || p.retrying || p.unanswered > 0 || !p.room) continue;
        auto b = p.bounced.begin();
        const std::uint64_t key = b->second;
        p.bounced.erase(b);
        p.retrying = true;
        ++retries_;
        frags_.at(key).retry = true;
        frags_.at(key).ready = std::max(frags_.at(key).ready, p.retry_at);
        issue(s, key, true);
        retried = true;
        break;
      }
      if (retried) continue;
      // The user's next message to a destination with nothing returned (messages to others may
      // pass one that waits: only a pair's order matters).
      auto next = s.user.end();
      for (auto it = s.user.begin(); it != s.user.end(); ++it) {
        auto p = s.pairs.find(frags_.at(*it).dst);
        if (p == s.pairs.end() || (p->second.bounced.empty() && !p->second.retrying)) {
          next = it;
          break;
        }
      }
      if (next == s.user.end()) return;
      if (s.ombc == 0) {
        ++ombc_stalls_;
        return;  // SENDs block until an acknowledgement returns (§3.3.2)
      }
      const std::uint64_t key = *next;
      s.user.erase(next);
      --s.ombc;
      issue(s, key, true);
    }
  }

  void issue(Source& s, std::uint64_t key, bool throttled) {
    Frag& f = frags_.at(key);
    Msg& m = msgs_.at(f.msg);
    const Cycle now = chip_->now();
    Cycle t = std::max(f.ready, now);
    // A stalled SEND stalled the user thread: its next message was assembled after it.
    if (!f.data && !f.retry) {
      t = std::max(t, s.core_free + send_latency(f.words));
      s.core_free = t;
    }
    if (xl_.code == std::string("gtlb")) t += translate(s, f.dst);
    s.queued += kFrame + f.words;
    if (throttled) ++s.pairs[f.dst].unanswered;
    ++sent_;
    // Streaming injection: the words went into the network as they were written, the last one
    // at t; buffered: they leave from t on.
    Cycle head = t;
    if (inj_.streaming) head = std::max(t > kFrame - 1 + f.words ? t - (kFrame - 1 + f.words) : 0, now);
    inject_stream(kP0, f.src, f.dst, kFrame - 1 + f.words, head, make_tag(key, kFrag));
    if (f.retry) return;
    if (f.data) {
      if (++m.data_issued == m.data_total) {
        m.sent = true;
        out_->send_done(f.msg, t, 0);
      }
    } else if (++m.issued == m.total && !m.rdv) {
      m.sent = true;
      out_->send_done(f.msg, t, 0);
    }
  }

  // GTLB lookup for a message to `dst`: 0 on a hit, else the software handler's cycles.
  Cycle translate(Source& s, TileId dst) {
    const int r = region_of(dst);
    auto it = std::find(s.gtlb.begin(), s.gtlb.end(), r);
    if (it != s.gtlb.end()) {
      s.gtlb.erase(it);
      s.gtlb.push_back(r);
      ++hits_;
      return 0;
    }
    ++misses_;
    // The handler searches the mapping table in order (§6.4: 16 cycles per entry passed).
    const Cycle c = miss_ + miss_entry_ * static_cast<Cycle>(r);
    occupancy_ += c;
    if (gtlb_entries_ > 0) {
      if (s.gtlb.size() >= gtlb_entries_) s.gtlb.erase(s.gtlb.begin());  // least recently used out
      s.gtlb.push_back(r);
    }
    return c;
  }

  // The mailboxes of all nodes as regions of 2^a x 2^b nodes (§3.3.1), largest first: a mesh
  // of power-of-two sides is one region, others need several.
  void build_regions() {
    const int W = config_.width, H = config_.height;
    std::vector<int> xs, ys;  // power-of-two strips
    for (int x = 0; x < W;) {
      int w = 1;
      while (x + 2 * w <= W && x % (2 * w) == 0) w *= 2;
      xs.push_back(x);
      xs.push_back(w);
      x += w;
    }
    for (int y = 0; y < H;) {
      int h = 1;
      while (y + 2 * h <= H && y % (2 * h) == 0) h *= 2;
      ys.push_back(y);
      ys.push_back(h);
      y += h;
    }
    for (std::size_t j = 0; j < ys.size(); j += 2)
      for (std::size_t i = 0; i < xs.size(); i += 2) regions_.push_back(Region{xs[i], ys[j], xs[i + 1], ys[j + 1]});
    std::stable_sort(regions_.begin(), regions_.end(),
                     [](const Region& a, const Region& b) { return a.w * a.h > b.w * b.h; });
  }
  int region_of(TileId t) const {
    const int x = static_cast<int>(t) % config_.width, y = static_cast<int>(t) / config_.width;
    for (std::size_t i = 0; i < regions_.size(); ++i) {
      const Region& g = regions_[i];
      if (x >= g.x0 && x < g.x0 + g.w && y >= g.y0 && y < g.y0 + g.h) return static_cast<int>(i);
    }
    return 0;
  }

  // Whether the poll or interrupt handler takes messages already in before it returns.
  bool drains() const {
    const std::string c = disp_.code;
    return c == "pol" || c == "pol_periodic" || c == "int";
  }
  // Cycles a message that is in at `in` waits for the poll that dispatches it (polled dispatch).
  Cycle poll_wait(Cycle in) const {
    if (disp_.code == std::string("pol_max")) return poll_miss_;
    if (disp_.code == std::string("pol_periodic")) return (poll_period_ - in % poll_period_) % poll_period_;
    return 0;
  }

  void on_fragment(std::uint64_t key, const PacketEvent& e) {
    auto fit = frags_.find(key);
    if (fit == frags_.end()) return;
    Frag& f = fit->second;
    Msg& m = msgs_.at(f.msg);
    Sink& k = sink(f.dst);
    // Streaming extraction: the dispatcher wakes when DestAddr, the third word, is in, and the body
    // streams in behind it; buffered: once the whole message is in.
    const Cycle dest_in = (ext_.streaming ? e.cycle - f.words : e.cycle) + added_latency_;
    const Cycle ready = std::max(k.free, dest_in);
    // A message in before the handler slot finished the last one is found by the handler itself
    // when the dispatch drains (no second swap); else it pays the poll or interrupt.
    const bool swap = !(drains() && k.free > 0 && dest_in <= k.free);
    const Cycle begin = ready + (swap ? poll_wait(ready) + disp_.lat : 0) + dispatch_;
    // Room: rendezvous data always; a message already admitted; else the whole MPI message must
    // fit, and nothing of a source whose earlier message was returned is taken before its retry.
    bool take = f.data || m.admitted;
    bool full = false;
    if (!take) {
      const bool blocked = k.returning.count(f.src) && !f.retry;
      const std::uint64_t need = f.request ? 1 : m.words;
      full = k.used + need > buffer_words_;
      if (!blocked && !full) {
        k.used += need;
        m.reserved = need;
        m.admitted = true;
        k.returning.erase(f.src);
        take = true;
      }
    }
    if (!take) {
      // Returned whole: the handler reads it and sends it back (priority 1, non-throttled).
      k.returning.insert(f.src);
      if (full) k.waiting.insert(f.src);
      ++bounces_;
      const Cycle back = begin + handler_overhead_ + 2 * f.words * handler_word_ + send_overhead_;
      flow_ += back - begin;
      k.free = back;
      inject_stream(kP1, f.dst, f.src, kFrame - 1 + f.words, std::max(back, chip_->now()), make_tag(key, full ? kFull : kOrder));
      return;
    }
    const Cycle done =
        std::max(begin + handler_overhead_ + ext_.lat + f.words * (handler_word_ + ext_.lat_word), e.cycle + added_latency_ + 1);
    occupancy_ += (swap ? disp_.occ : 0) + handler_overhead_ + ext_.occ + f.words * (handler_word_ + ext_.occ_word);
    if (!f.data) flow_ += ack_;
    k.free = done + ack_;
    if (!f.data) inject_stream(kP1, f.dst, f.src, kFrame - 1, done + ack_, make_tag(key, kAck));
    const MsgId id = f.msg;
    if (f.data) {
      if (++m.data_handled == m.data_total) {
        m.data_done = true;
        out_->data_done(id, done, 0);
      }
      drop(fit);
    } else if (++m.handled == m.total) {
      m.arrived = true;
      out_->arrived(id, done, 0);
      // The receiver's MPI will find it with a poll and take it (counted now: a job may end
      // before its last take reaches the adapter).
      occupancy_ += poll_ + (m.rdv ? accept_cost() : recv_cost(m.m.bytes, false));
    }
    finish_if_done(msgs_.find(id));
  }

  // An acknowledgement or a returned message reaches the sender's priority-1 handler.
  void on_answer(std::uint64_t key, const PacketEvent& e, bool bounced, bool full) {
    auto fit = frags_.find(key);
    if (fit == frags_.end()) return;
    Frag& f = fit->second;
    Source& s = source(f.src);
    const Cycle begin = std::max(s.handler_free, e.cycle + added_latency_) + dispatch_;
    const Cycle done = begin + handler_overhead_ + (bounced ? f.words * handler_word_ : 0);
    s.handler_free = done;
    flow_ += done - begin;
    Pair& p = s.pairs[f.dst];
    if (p.unanswered) --p.unanswered;
    if (f.retry) p.retrying = false;
    const MsgId id = f.msg;
    const TileId src = f.src;
    if (bounced) {
      p.bounced.emplace(f.seq, key);  // into a bounce buffer, to be sent again
      p.retry_at = done + retry_;
      if (full) p.room = false;  // until the receiver says it has room
    } else {
      ++s.ombc;
      drop(fit);
    }
    pump(src);
    finish_if_done(msgs_.find(id));
  }

  // The receiver matched a rendezvous request: the sender's handler sends the data.
  void on_go_ahead(MsgId id, const PacketEvent& e) {
    auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    Msg& m = it->second;
    Source& s = source(m.m.src);
    Cycle ready = std::max(s.handler_free, e.cycle + added_latency_) + dispatch_ + handler_overhead_;
    std::vector<std::uint64_t> parts;
    for (std::uint64_t left = m.words; left > 0;) {
      const std::uint64_t w = std::min(left, body_);
      parts.push_back(w);
      left -= w;
    }
    if (parts.empty()) parts.push_back(0);
    m.data_total = static_cast<std::uint32_t>(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      ready += send_latency(parts[i]);
      occupancy_ += send_occupancy(parts[i]);
      enqueue(m.m, Frag{id, parts[i], static_cast<std::uint32_t>(i), i + 1 == parts.size(), false, true, false},
              ready, true);
    }
    s.handler_free = ready;
    pump(m.m.src);
  }

  // A message is forgotten once it was sent, taken by the receiver's MPI and every one of its
  // M-Machine messages was acknowledged.
  void finish_if_done(std::unordered_map<MsgId, Msg>::iterator it) {
    if (it == msgs_.end()) return;
    const Msg& m = it->second;
    if (!m.sent || !m.accepted || !m.arrived) return;
    if (m.rdv && !m.data_done) return;
    if (m.live > 0) return;
    msgs_.erase(it);
  }
  void drop(std::map<std::uint64_t, Frag>::iterator fit) {
    auto it = msgs_.find(fit->second.msg);
    if (it != msgs_.end() && it->second.live > 0) --it->second.live;
    frags_.erase(fit);
  }

  std::uint64_t send_overhead_, send_word_, body_words_, queue_words_, issue_free_, dispatch_, handler_overhead_,
      handler_word_, poll_, recv_overhead_, ack_, gtlb_entries_, miss_, miss_entry_, bounce_buffers_, buffer_words_,
      retry_, eager_words_, poll_miss_, poll_period_, added_latency_, send_stall_;
  std::uint64_t body_ = 10;
  Mechanism inj_, ext_, xl_, disp_;
  std::unordered_map<MsgId, Msg> msgs_;
  std::map<std::uint64_t, Frag> frags_;
  std::uint64_t next_frag_ = 1;
  std::unordered_map<TileId, Source> sources_;
  std::unordered_map<TileId, Sink> sinks_;
  std::vector<Region> regions_;
  std::uint64_t sent_ = 0, bounces_ = 0, retries_ = 0, hits_ = 0, misses_ = 0, queue_stalls_ = 0, ombc_stalls_ = 0,
                go_aheads_ = 0, occupancy_ = 0, flow_ = 0;
};

}  // namespace

TILEMPI_REGISTER_ADAPTER(mmachine,
                         "the M-Machine's message interface: atomic SENDs, GTLB, return-to-sender flow control "
                         "([Lee 1999] ch. 3, 4)",
                         .create = [](const Config& c) -> std::unique_ptr<Adapter> {
                           return std::make_unique<MMachineAdapter>(c);
                         });

}  // namespace tilempi::hwmodel::adapter
