// The rank's half of point-to-point messages (p2p_messages.h) and its payload arena.
#include <algorithm>
#include <cstring>
#include <string>

#include "sim/p2p_messages.h"
#include "sim/sim_rank.h"

namespace tilempi::transport::sim {

OpId SimTransport::send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) {
  Call call(*this);
  const bool sync = mode == SendMode::Synchronous;
  const bool rdv = costs_->rendezvous(len, sync);
  SendRequest q{.time = 0, .dst = dst, .bytes = len, .arena_off = 0, .sync = sync, .rdv = rdv, .op = 0, .env = envelope,
                .kind = energy_->kind(call_)};
  if (!rdv && len <= kInlineBytes) {
    // In the request itself. (The events due are applied first, as alloc_or_wait does, which
    // finds the space at once for a small payload.)
    advance();
    q.inline_data = true;
    if (len) std::memcpy(&q.data0, buf, std::min<std::size_t>(len, 8));
    if (len > 8) std::memcpy(&q.data1, static_cast<const unsigned char*>(buf) + 8, len - 8);
  } else {
    q.arena_off = alloc_or_wait(len);
    if (len) std::memcpy(arena_ + q.arena_off, buf, len);
  }
  const bool at_once = costs_->send_completes_at_once(len, rdv);
  q.op = at_once ? 0 : next_op_++;
  q.time = clock_;
  const OpId op = q.op;
  post(q);
  energy_->sent(dst, len);
  clock_ += costs_->send_cost(len, rdv);
  if (op == 0) return kDone;
  Op& o = ops_.insert(op);
  o.send = true;
  o.listed = true;
  return op;
}

bool SimTransport::poll(Arrival& out) {
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
  const std::uint32_t held = ready_[ready_head_++];
  const ArrivalEvent e = decode<ArrivalEvent>(heap_.event(held));
  heap_.release(held);
  if (ready_head_ == ready_.size()) {
    ready_.clear();
    ready_head_ = 0;
  } else if (ready_head_ >= 64 && 2 * ready_head_ >= ready_.size()) {  // never drained: drop what was read
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(ready_head_));
    ready_head_ = 0;
  }
  out.source = e.src;
  out.envelope = e.env;
  out.size = e.bytes;
  // A synchronous message waits in the adapter's buffer until matched: the receiver's take
  // (fetch) is what completes the sender.
  out.buffered = !e.rdv && !e.sync;
  const std::uint32_t slot =
      incoming_.put(Incoming{0, e.msg, e.bytes, e.arena_off, e.src, e.rdv, e.inline_data, {e.data0, e.data1}});
  out.handle = (++arrivals_ << 32) | slot;
  incoming_[slot].handle = out.handle;
  return true;
}

OpId SimTransport::fetch(const Arrival& a, void* dst, std::size_t len) {
  Call call(*this);
  const std::uint32_t slot = static_cast<std::uint32_t>(a.handle);
  if (slot >= incoming_.size() || incoming_[slot].handle != a.handle || a.handle == 0)
    abort(1, "tilempi sim transport: fetch of an unknown or already fetched message");
  const Incoming in = incoming_[slot];
  incoming_[slot].handle = 0;
  incoming_.release(slot);
  if (len > in.bytes) len = in.bytes;
  if (len) std::memcpy(dst, in.inline_data ? reinterpret_cast<const unsigned char*>(in.data) : link_->arena(in.src) + in.off, len);
  const OpId op = in.rdv ? next_op_++ : 0;
  post(FetchRequest{clock_, in.msg, op});
  energy_->received(in.bytes);
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

void SimTransport::apply_p2p(const EngineEvent& e) {
  switch (e.kind) {
    case kEvArrival: break;  // (apply_first keeps it in the queue's slot for poll)
    case kEvSendDone: {
      const DoneEvent d = decode<DoneEvent>(e);
      if (Op* o = ops_.find(d.op)) ops_.set_done(*o), o->status = d.status;
      changed_ = true;
      break;
    }
    case kEvDataDone: {
      const DataDoneEvent d = decode<DataDoneEvent>(e);
      Op* op = ops_.find(d.op);
      if (!op) break;
      const std::uint64_t at = std::max(d.time, op->min_done);
      if (at <= clock_) {
        ops_.set_done(*op);
        changed_ = true;
      } else {
        // The core's own work on the fetch ends later: a local event then.
        EngineEvent l{};
        l.kind = kEvLocalDone;
        l.time = at;
        l.op = d.op;
        heap_.push(at, kLocalSeq + local_seq_++, l);
      }
      break;
    }
    case kEvLocalDone:
      if (Op* o = ops_.find(e.op)) ops_.set_done(*o);
      changed_ = true;
      break;
    case kEvRelease:
      space_.release(decode<ReleaseEvent>(e).arena_off);
      if (!waiting_for_.empty()) changed_ = true;  // only a send waiting for space cares
      break;
    default:
      break;
  }
}

// ---- the payload arena: what waits for its space

std::uint64_t SimTransport::alloc_or_wait(std::uint64_t len) {
  const std::uint64_t n = PayloadArena::chunk_bytes(len);
  const std::uint64_t cap = space_.capacity();
  if (n > cap) {
    abort(1, "tilempi sim transport: a message of " + std::to_string(len) + " bytes exceeds the payload arena (" +
                 std::to_string(cap >> 20) + " MiB per rank); raise it with --set sim.arena_mib=N");
  }
  for (;;) {
    advance();
    std::uint64_t off;
    if (space_.try_alloc(n, off)) return off;
    // Wait for receivers to take earlier payloads (a modeled stall: the send buffer is full).
    sync_to(clock_);
    advance();
    if (space_.try_alloc(n, off)) return off;
    waiting_for_ = "a send of " + std::to_string(len) + " bytes waits for payload arena space (" +
                   std::to_string(cap >> 20) + " MiB per rank, --set sim.arena_mib=N)";
    changed_ = false;
    jump_or_block();
    waiting_for_.clear();
  }
}

}  // namespace tilempi::transport::sim
