#include "sim/p2p_engine.h"

#include <algorithm>
#include <stdexcept>

namespace tilempi::transport::sim {

namespace ad = tilempi::hwmodel::adapter;

P2pMessages::P2pMessages(EngineCore& core) : core_(core) {}

MsgId P2pMessages::send(int r, const SendRequest& s) {
  Msg& m = new_msg();
  m.src = r;
  m.send = s;
  m.sent = s.op == 0;
  m.pair_seq = pairs_.at(pair_key(r, s.dst)).sent++;
  core_.count_message();
  RankInfo& ri = core_.rank(r);
  ++ri.sends;
  ri.bytes_sent += s.bytes;
  if (core_.tracing()) core_.trace(r, "send", s.time, s.time + core_.adapter().send_cost(s.bytes, s.rdv));
  const MsgId handle = m.handle;
  core_.adapter().start(ad::Message{handle, core_.tile(r), core_.tile(s.dst), s.bytes, s.sync}, s.time);
  return handle;
}

void P2pMessages::fetch(int r, const FetchRequest& f, std::uint64_t now) {
  Msg* mp = find(f.msg);
  if (!mp) return;
  Msg& m = *mp;
  ++core_.rank(r).recvs;
  m.fetched = true;
  m.fetch_op = f.op;
  if (core_.tracing())
    core_.trace(r, "recv", f.time,
                f.time + (m.send.rdv ? core_.adapter().accept_cost() : core_.adapter().recv_cost(m.send.bytes, false)));
  core_.adapter().accept(f.msg, f.time);
  // The receiver copied the payload out of the sender's arena inside its fetch call.
  if (!m.send.inline_data) core_.publish(m.src, ReleaseEvent{now, m.send.arena_off});
  if (m.sent && (!m.send.rdv || m.data)) free_msg(m);
}

P2pMessages::Msg& P2pMessages::new_msg() {
  std::uint32_t slot;
  if (!free_msgs_.empty()) {
    slot = free_msgs_.back();
    free_msgs_.pop_back();
  } else {
    if (msgs_.size() >= MessageHandle::kMaxSlots) throw std::length_error("sim engine: more than 16M messages in flight");
    slot = static_cast<std::uint32_t>(msgs_.size());
    msgs_.emplace_back();
  }
  Msg& m = msgs_[slot];
  m = Msg{};
  m.handle = MessageHandle::make(++msg_count_, slot);
  return m;
}

P2pMessages::Msg* P2pMessages::find(MsgId handle) {
  const std::uint32_t slot = MessageHandle::slot(handle);
  if (slot >= msgs_.size() || msgs_[slot].handle != handle) return nullptr;
  return &msgs_[slot];
}

void P2pMessages::free_msg(Msg& m) {
  free_msgs_.push_back(MessageHandle::slot(m.handle));
  m.handle = 0;
}

void P2pMessages::arrived(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  Msg* mp = find(id);
  if (!mp) return;
  Msg& m = *mp;
  if (!m.arrived) {
    latency_.add(at - m.send.time);
    m.arrived = true;
  }
  // Handler cycles delay what the core learns rather than being charged when the rank happens
  // to look: that keeps the rank's clock independent of when it drained its events. The
  // receiver's fetch names the message by its handle.
  const SendRequest& s = m.send;
  publish_arrival(m, ArrivalEvent{.time = at + core_cycles, .msg = id, .src = m.src, .bytes = s.bytes,
                                  .arena_off = s.arena_off, .rdv = s.rdv, .sync = s.sync, .env = s.env,
                                  .inline_data = s.inline_data, .data0 = s.data0, .data1 = s.data1});
}

void P2pMessages::publish_arrival(Msg& m, ArrivalEvent e) {
  const int dst = m.send.dst;
  if (m.published) return core_.publish(dst, e);  // told again (an adapter's later notice)
  const std::uint64_t key = pair_key(m.src, dst);
  PairOrder& po = *pairs_.find(key);  // (there: m is on its way)
  if (m.pair_seq > po.published) {
    // An earlier message between the two is still on its way.
    if (held_.insert_or_assign({key, m.pair_seq}, e).second) ++po.held;
    return;
  }
  m.published = true;
  for (;;) {
    e.time = std::max(e.time, po.last_time);
    po.last_time = e.time;
    ++po.published;
    core_.publish(dst, e);
    if (po.held == 0) break;
    auto next = held_.find({key, po.published});
    if (next == held_.end()) break;
    e = next->second;
    held_.erase(next);
    --po.held;
    if (Msg* h = find(e.msg)) h->published = true;
  }
  if (po.published == po.sent && po.held == 0 && po.last_time <= core_.processing()) pairs_.erase(key);
}

void P2pMessages::sent(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  Msg* mp = find(id);
  if (!mp) return;
  Msg& m = *mp;
  m.sent = true;
  if (m.send.op != 0) core_.publish(m.src, DoneEvent{at + core_cycles, m.send.op, 0});
  if (m.fetched && (!m.send.rdv || m.data)) free_msg(m);
}

void P2pMessages::data_done(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  Msg* mp = find(id);
  if (!mp) return;
  Msg& m = *mp;
  m.data = true;
  core_.publish(m.send.dst, DataDoneEvent{at + core_cycles, m.fetch_op});
  if (m.sent && m.fetched) free_msg(m);
}

}  // namespace tilempi::transport::sim
