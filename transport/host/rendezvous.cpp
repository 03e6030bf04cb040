// Large messages (above the eager limit) and every synchronous message go by rendezvous: a
// request (RTS: size, the sender's buffer address, an operation id) in the eager ring. When the
// layer above fetches it, the receiver pulls the bytes straight from the sender's memory with
// cross-memory attach (process_vm_readv: one copy, no intermediate buffer), from 256 KiB on
// with the sender pushing pieces too (shared_copy.h), and answers FIN on the control ring.
// Where the kernel forbids cross-memory attach it answers CTS instead and the sender streams
// the bytes through the channel's arena (arena_stream.h).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "host/host_transport.h"
#include "host/shared_copy.h"

namespace tilempi::transport::host {

OpId HostTransport::fetch_rendezvous(const Arrival& a, void* dst, std::size_t len) {
  auto it = rdvs_.find(a.handle >> 1);
  if (it == rdvs_.end()) abort(1, "tilempi host transport: fetch of an unknown or already fetched message");
  const Rdv r = it->second;
  rdvs_.erase(it);
  if (r.source == rank_) {  // to self: plain copy, complete the send directly
    if (len) std::memcpy(dst, reinterpret_cast<const void*>(r.addr), len);
    complete_send(r.send_id);
    Peer& p = peers_[static_cast<std::size_t>(rank_)];
    --p.expect_ctrl;
    --expect_ctrl_total_;
    return kDone;
  }
  if (len == 0) {
    send_ctrl(r.source, kCtrlFin, r.send_id, 0);
    return kDone;
  }
  Peer& p = peers_[static_cast<std::size_t>(r.source)];
  if (cma_ok_ && len < cma_below_) {
    int err = 0;
    const pid_t pid = shared(seg_.rank_slot(r.source)->pid).load(std::memory_order_acquire);
    if (len >= kCoopMin && p.coop_fetch == 0 && coop_fits(len)) {
      if (p.cma_verified) return start_coop(r, static_cast<unsigned char*>(dst), len, pid, 0);
      // Read one piece alone first, so that a refused peer falls back before anything is shared.
      CmaResult res = cma_read(pid, dst, r.addr, coop_piece(len), &err);
      if (res == CmaResult::Ok) {
        p.cma_verified = true;
        return start_coop(r, static_cast<unsigned char*>(dst), len, pid, 1);
      }
      if (res == CmaResult::Failed) cma_failed(r.source, err);
      cma_ok_ = false;
    } else {
      CmaResult res = cma_read(pid, dst, r.addr, len, &err);
      if (res == CmaResult::Ok) {
        p.cma_verified = true;
        send_ctrl(r.source, kCtrlFin, r.send_id, len);
        return kDone;
      }
      if (res == CmaResult::Failed) cma_failed(r.source, err);
      cma_ok_ = false;  // forbidden here: use the arena from now on
    }
  }
  const OpId id = next_id_++;
  FetchOp& f = fetches_[id];
  f.source = r.source;
  f.dst = static_cast<unsigned char*>(dst);
  f.send_id = r.send_id;
  f.t = ArenaTransfer::of(len, chunk_);
  // The sender streams CTS'd transfers through the arena in CTS order, and we empty them in
  // the same order, so every matched transfer can be cleared to send at once.
  p.arena_rx.push_back(id);
  ++arena_rx_total_;
  send_ctrl(r.source, kCtrlCts, r.send_id, len);
  return id;
}

void HostTransport::cma_failed(int peer, int err) {
  char why[160];
  std::snprintf(why, sizeof why, "tilempi host transport: cannot copy from/to rank %d's memory: %s", peer,
                std::strerror(err));
  abort(1, why);
}

// ---- shared copies: the receiver pulls pieces, the sender (asked by HELP) pushes others

// The first `ready` pieces are already in dst (one proves the peer lets us read).
OpId HostTransport::start_coop(const Rdv& r, unsigned char* dst, std::uint64_t len, pid_t pid, std::uint64_t ready) {
  Peer& p = peers_[static_cast<std::size_t>(r.source)];
  ChannelCtl* c = p.rx.ctl;
  const std::uint64_t pieces = coop_pieces(len);
  const std::uint64_t gen = (++p.coop_gen) & ((1ull << 24) - 1);
  announce_copy(c, gen, reinterpret_cast<std::uint64_t>(dst), r.addr, len, ready);
  send_ctrl(r.source, kCtrlHelp, r.send_id, gen);
  int err = 0;
  const bool ok = copy_pieces(c, gen, [&](std::uint64_t to, std::uint64_t from, std::uint64_t n) {
    return cma_read(pid, reinterpret_cast<void*>(to), from, n, &err) == CmaResult::Ok;
  });
  if (!ok) cma_failed(r.source, err);
  p.coop_pieces = pieces;
  p.coop_send_id = r.send_id;
  p.coop_len = len;
  if (shared(c->coop_done).load(std::memory_order_acquire) == pieces) {
    send_ctrl(r.source, kCtrlFin, r.send_id, len);
    return kDone;
  }
  const OpId id = next_id_++;
  FetchOp& f = fetches_[id];
  f.source = r.source;
  f.send_id = r.send_id;
  f.t.bytes = len;
  p.coop_fetch = id;
  ++coop_total_;
  return id;
}

// The sender's part: claim and push pieces until none is left.
void HostTransport::help(int dst, std::uint64_t gen) {
  ChannelCtl* c = peers_[static_cast<std::size_t>(dst)].tx.ctl;
  const pid_t pid = shared(seg_.rank_slot(dst)->pid).load(std::memory_order_acquire);
  int err = 0;
  bool any = false;
  const bool ok = copy_pieces(
      c, gen,
      [&](std::uint64_t to, std::uint64_t from, std::uint64_t n) {
        return cma_write(pid, to, reinterpret_cast<const void*>(from), n, &err) == CmaResult::Ok;
      },
      &any);
  if (!ok) cma_failed(dst, err);
  if (any) notify(dst);
}

void HostTransport::finish_coops() {
  for (int s = 0; s < size_ && coop_total_ > 0; ++s) {
    Peer& p = peers_[static_cast<std::size_t>(s)];
    if (p.coop_fetch == 0 || shared(p.rx.ctl->coop_done).load(std::memory_order_acquire) != p.coop_pieces)
      continue;
    fetches_[p.coop_fetch].done = true;
    p.coop_fetch = 0;
    --coop_total_;
    send_ctrl(s, kCtrlFin, p.coop_send_id, p.coop_len);
  }
}

// ---- control ring (rendezvous answers)

void HostTransport::send_ctrl(int dst, std::uint32_t kind, std::uint64_t send_id, std::uint64_t bytes) {
  Peer& p = peers_[static_cast<std::size_t>(dst)];
  CtrlMsg m{kind, send_id, bytes};
  if (p.ctrl_backlog.empty() && p.ctrl_out.write(m)) {
    notify(dst);
    return;
  }
  if (p.ctrl_backlog.empty()) ++ctrl_backlog_peers_;
  p.ctrl_backlog.push_back(m);
  announce_space_wait(p);
}

void HostTransport::flush_ctrl_backlog(int dst) {
  Peer& p = peers_[static_cast<std::size_t>(dst)];
  bool wrote = false;
  while (!p.ctrl_backlog.empty() && p.ctrl_out.write(p.ctrl_backlog.front())) {
    p.ctrl_backlog.pop_front();
    wrote = true;
  }
  if (p.ctrl_backlog.empty()) --ctrl_backlog_peers_;
  settle_space_wait(p);
  if (wrote) notify(dst);
}

void HostTransport::drain_ctrl(int s) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  bool any = false;
  CtrlMsg m;
  while (p.ctrl_in.next(m)) {
    any = true;
    if (m.kind == kCtrlHelp) {  // an extra message: the FIN still follows
      help(s, m.bytes);
      continue;
    }
    --p.expect_ctrl;
    --expect_ctrl_total_;
    if (m.kind == kCtrlFin) {
      complete_send(m.send_id);
    } else if (m.kind == kCtrlCts) {
      auto it = sends_.find(m.send_id);
      if (it != sends_.end()) {
        const std::uint64_t bytes = std::min<std::uint64_t>(m.bytes, it->second.len);
        if (bytes == 0) {
          it->second.done = true;
        } else {
          if (p.arena_tx.empty()) ++arena_tx_total_;
          p.arena_tx.push_back(ArenaTx{m.send_id, ArenaTransfer::of(bytes, chunk_)});
        }
      }
    }
  }
  if (any) {
    p.ctrl_in.release();
    if (shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) notify(s);
  }
}

void HostTransport::complete_send(std::uint64_t send_id) {
  auto it = sends_.find(send_id);
  if (it != sends_.end()) it->second.done = true;
}

// ---- arena streaming (fallback when cross-memory attach is not allowed)

void HostTransport::produce(int dst) {
  Peer& p = peers_[static_cast<std::size_t>(dst)];
  bool wrote = false;
  while (!p.arena_tx.empty()) {
    ArenaTx& t = p.arena_tx.front();
    auto it = sends_.find(t.id);
    const unsigned char* src = it == sends_.end() ? nullptr : it->second.buf;
    if (produce_pieces(arena(p.tx), p.produced, t.t, src)) wrote = true;
    if (!t.t.finished()) break;
    if (it != sends_.end()) it->second.done = true;
    p.arena_tx.pop_front();
    if (p.arena_tx.empty()) --arena_tx_total_;
  }
  if (wrote) notify(dst);
}

void HostTransport::consume_arena(int s) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  bool freed = false;
  while (!p.arena_rx.empty()) {
    FetchOp& f = fetches_[p.arena_rx.front()];
    if (consume_pieces(arena(p.rx), p.consumed, f.t, f.dst)) freed = true;
    if (!f.t.finished()) break;
    f.done = true;
    p.arena_rx.pop_front();
    --arena_rx_total_;
  }
  if (freed) notify(s);
}

}  // namespace tilempi::transport::host
