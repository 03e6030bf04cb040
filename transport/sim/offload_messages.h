// Collective transfers offloaded to the adapter ([Wallentowitz 2018] §3.3, NAMP-CC): each member
// posts its part of a multicast, scatter, gather or reduce; the engine has the adapter move the
// data and tells each member when its part is complete.
//
// Arena layout: a spreading root (multicast, scatter) writes [count][member ranks, int32, padded
// to 8][data] (its data: one block, or one per member for a scatter); a collecting sender
// (gather, reduce) writes its block alone.
#pragma once

#include <cstring>

#include "sim/messages.h"
#include "tilempi/hwmodel/adapter.h"

namespace tilempi::transport::sim {

/// Bytes ahead of the data in a spreading root's arena chunk: [count][ranks, padded to 8].
inline std::uint64_t offload_list_bytes(std::uint64_t members) { return 8 + (members * 4 + 7) / 8 * 8; }

/// One member's part of offloaded transfer `id`.
struct OffloadRequest {
  std::uint64_t time = 0;
  std::uint64_t id = 0;  ///< the transfer, as its members agree on it
  int root = 0;
  std::uint64_t bytes = 0;  ///< per part
  std::uint64_t arena_off = 0;
  hwmodel::adapter::CollKind kind = hwmodel::adapter::CollKind::Multicast;
  std::uint64_t members = 0;
  OpId op = 0;

  bool spread() const {
    return kind == hwmodel::adapter::CollKind::Multicast || kind == hwmodel::adapter::CollKind::Scatter;
  }

  Request encode() const {
    Request q = request_of(kReqOffload, time);
    q.msg = id;
    q.a = static_cast<std::uint64_t>(root);
    q.b = bytes;
    q.c = arena_off;
    q.d = static_cast<std::uint64_t>(kind);
    q.op = op;
    q.env.word[0] = members;
    return q;
  }
  static OffloadRequest decode(const Request& q, const DecodeContext& cx) {
    namespace ad = hwmodel::adapter;
    if (!cx.is_rank(q.a)) cx.bad(q, "collective offload root " + std::to_string(q.a));
    if (q.env.word[0] < 2 || q.env.word[0] > static_cast<std::uint64_t>(cx.nranks))
      cx.bad(q, "collective offload of " + std::to_string(q.env.word[0]) + " members");
    if (q.d > static_cast<std::uint64_t>(ad::CollKind::Reduce)) cx.bad(q, "collective offload kind " + std::to_string(q.d));
    OffloadRequest o;
    o.time = q.time;
    o.id = q.msg;
    o.root = static_cast<int>(q.a);
    o.bytes = q.b;
    o.arena_off = q.c;
    o.kind = static_cast<ad::CollKind>(q.d);
    o.members = q.env.word[0];
    o.op = q.op;
    // What the engine reads from the arena: a spreading root's [count][ranks][data], a
    // collecting sender's data (copied by the root from there).
    std::uint64_t need = 0;
    const bool root = o.root == cx.rank;
    if (o.spread() && root) {
      if (o.bytes > cx.arena_bytes) cx.bad(q, "collective offload of " + std::to_string(o.bytes) + " bytes");
      need = offload_list_bytes(o.members) + o.bytes * (o.kind == ad::CollKind::Scatter ? o.members : 1);
      std::uint64_t count = 0;
      if (cx.in_arena(o.arena_off, sizeof count)) std::memcpy(&count, cx.arena_of(cx.rank) + o.arena_off, sizeof count);
      if (count != o.members) cx.bad(q, "collective offload list of " + std::to_string(count) + " members");
    } else if (!o.spread() && !root) {
      need = o.bytes;
    }
    if (need && !cx.in_arena(o.arena_off, need)) cx.bad(q, "collective offload data outside the arena");
    return o;
  }
};

/// This rank's part of an offloaded transfer is complete. `bytes` is the root's length for a
/// spread; `root_off` the root's arena chunk (a spread's data, after its member list).
struct OffloadEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  int root = 0;
  std::uint64_t bytes = 0, root_off = 0;

  Event encode() const {
    Event e = event_of(kEvOffload, time);
    e.op = op;
    e.a = static_cast<std::uint64_t>(root);
    e.b = bytes;
    e.c = root_off;
    return e;
  }
  static OffloadEvent decode(const Event& e) { return {e.time, e.op, static_cast<int>(e.a), e.b, e.c}; }
};

/// At a gather or reduce root, before its OffloadEvent: one sender's block, `bytes` long at
/// `arena_off` of the sender's arena.
struct OffloadPartEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  int sender = 0;
  std::uint64_t bytes = 0, arena_off = 0;

  Event encode() const {
    Event e = event_of(kEvOffloadPart, time);
    e.op = op;
    e.a = static_cast<std::uint64_t>(sender);
    e.b = bytes;
    e.c = arena_off;
    return e;
  }
  static OffloadPartEvent decode(const Event& e) { return {e.time, e.op, static_cast<int>(e.a), e.b, e.c}; }
};

}  // namespace tilempi::transport::sim
