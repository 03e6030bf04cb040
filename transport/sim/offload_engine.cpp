#include "sim/offload_engine.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/p2p_messages.h"

namespace tilempi::transport::sim {

namespace ad = tilempi::hwmodel::adapter;

void Offloads::take(int r, const OffloadRequest& q) {
  const std::uint64_t key = q.id;
  const int n = core_.nranks();
  auto [it, fresh] = offloads_.try_emplace(key);
  Offload& o = it->second;
  if (fresh) {
    o.kind = q.kind;
    o.expected = static_cast<int>(q.members);
    o.root = q.root;
    o.bytes = q.bytes;
    o.group = next_id();
    ids_[o.group] = {key, -1};
  }
  Offload::Part& p = o.parts[r];
  p.posted = true;
  p.q = q;
  const std::uint64_t now = core_.processing();
  const hwmodel::TileId root_tile = core_.tile(o.root);
  if (o.spread() && r == o.root) {
    o.bytes = q.bytes;  // the root's length is what travels (a member's may differ: an MPI error)
    // The member list sits in the root's arena ahead of the data: [count][ranks...][data].
    o.root_off = q.arena_off;
    const unsigned char* base = core_.arena(r) + q.arena_off;
    std::uint64_t count = 0;
    std::memcpy(&count, base, 8);
    std::vector<ad::Message> msgs;
    for (std::uint64_t i = 0; i < count; ++i) {
      std::int32_t m = 0;
      std::memcpy(&m, base + 8 + i * 4, 4);
      if (m == o.root || m < 0 || m >= n) continue;
      Offload::Part& pm = o.parts[m];
      pm.id = next_id();
      ids_[pm.id] = {key, m};
      msgs.push_back(ad::Message{pm.id, root_tile, core_.tile(m), o.bytes, false});
      core_.count_message();
    }
    core_.rank(r).sends += msgs.size();
    core_.rank(r).bytes_sent += o.bytes * msgs.size();
    core_.adapter().start_spread(o.group, o.kind, msgs, q.time);
  } else if (o.spread()) {
    if (p.done != ~0ull) publish(o, r, std::max(p.done, now));
  } else if (r == o.root) {
    if (o.root_done != ~0ull) publish(o, r, std::max(o.root_done, now));
  } else {
    p.id = next_id();
    ids_[p.id] = {key, r};
    core_.count_message();
    ++core_.rank(r).sends;
    core_.rank(r).bytes_sent += o.bytes;
    core_.adapter().start_collect(o.group, o.kind, ad::Message{p.id, core_.tile(r), root_tile, o.bytes, false},
                                  o.expected - 1, q.time);
  }
  // The adapter may complete parts inside start_spread/start_collect (progress), which erases a
  // finished offload: look it up again rather than through `o` (found by fuzzing).
  if (auto e = offloads_.find(key); e != offloads_.end() && e->second.published == e->second.expected)
    offloads_.erase(e);
}

void Offloads::progress(MsgId id, std::uint64_t at, bool arrival) {
  auto idit = ids_.find(id);
  if (idit == ids_.end()) return;
  const auto [key, rank] = idit->second;
  ids_.erase(idit);
  auto oit = offloads_.find(key);
  if (oit == offloads_.end()) return;
  Offload& o = oit->second;
  if (rank >= 0 && arrival) {
    // A destination's part of a multicast or scatter: its core reads it out of the buffer.
    Offload::Part& p = o.parts[rank];
    p.done = at + core_.adapter().recv_cost(o.bytes, false);
    if (p.posted) publish(o, rank, p.done);
  } else if (rank >= 0) {
    publish(o, rank, at);  // a gather or reduce sender's data has left
  } else if (arrival) {
    // Every slot of the root's endpoint is complete. The adapter wrote (gather) or combined
    // (reduce) the data in place, so the core only takes the notification: a receive without
    // data ([Wallentowitz 2018] §3.3.1.3-4, "the receive overhead for the NAMP is always constant").
    o.root_done = at + core_.adapter().recv_cost(0, false);
    if (o.parts[o.root].posted) publish(o, o.root, o.root_done);
  } else {
    o.root_done = at;  // every part of a multicast or scatter has left the root
    publish(o, o.root, at);
  }
  if (o.published == o.expected) offloads_.erase(oit);
}

void Offloads::publish(Offload& o, int r, std::uint64_t at) {
  Offload::Part& p = o.parts[r];
  if (p.published) return;
  p.published = true;
  ++o.published;
  at = std::max(at, core_.processing());
  core_.trace(r, "offload", p.q.time, at);
  if (!o.spread() && r == o.root) {
    // The root copies (gather) or combines (reduce) every sender's block from its arena, as the
    // adapter wrote it into the endpoint; then the senders' arena space is free.
    for (auto& [s, sp] : o.parts) {
      if (s == o.root) continue;
      // (the sender's length: the root's may differ, an MPI error)
      core_.publish(r, OffloadPartEvent{at, p.q.op, s, sp.q.bytes, sp.q.arena_off});
    }
  }
  core_.publish(r, OffloadEvent{at, p.q.op, o.root, o.bytes, o.root_off});
  if (o.spread() && r != o.root) {
    ++core_.rank(r).recvs;
    core_.adapter().accept(p.id, at);  // the destination's buffer is free again
    o.last = std::max(o.last, at);
    int left = 0;
    for (auto& [m, pm] : o.parts) left += m != o.root && !pm.published;
    if (left == 0 && static_cast<int>(o.parts.size()) == o.expected) core_.publish(o.root, ReleaseEvent{o.last, o.root_off});
  } else if (!o.spread() && r == o.root) {
    ++core_.rank(r).recvs;
    for (auto& [s, sp] : o.parts) {
      if (s == o.root) continue;
      core_.publish(s, ReleaseEvent{at, sp.q.arena_off});
    }
  }
}

}  // namespace tilempi::transport::sim
