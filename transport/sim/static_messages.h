// The static network's broadcast ([Lee 1999]'s static routes, DESIGN.md "chip model"): every
// participant posts its part; the root's part names, in its arena, the routes the word stream
// takes ([count][count StaticRouteHop][data]); each participant learns when the data is there
// and copies it out of the root's arena, then says so, and the root's space is freed once all
// have.
#pragma once

#include <cstring>

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// Bytes ahead of the data in a static broadcast's chunk of the root's arena.
inline std::uint64_t static_routes_bytes(std::uint64_t hops) { return 8 + hops * sizeof(StaticRouteHop); }

/// One participant's part of static broadcast `id`.
struct StaticRequest {
  std::uint64_t time = 0;
  std::uint64_t id = 0;  ///< the broadcast, as its participants agree on it
  int root = 0;
  std::uint64_t bytes = 0;
  std::uint64_t arena_off = 0;  ///< the root's: its routes and data
  std::uint64_t participants = 0;
  OpId op = 0;

  Request encode() const {
    Request q = request_of(kReqStatic, time);
    q.msg = id;
    q.a = static_cast<std::uint64_t>(root);
    q.b = bytes;
    q.c = arena_off;
    q.op = op;
    q.env.word[0] = participants;
    return q;
  }
  static StaticRequest decode(const Request& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "static broadcast root " + std::to_string(q.a));
    if (q.env.word[0] == 0 || q.env.word[0] > static_cast<std::uint64_t>(cx.nranks))
      cx.bad(q, "static broadcast of " + std::to_string(q.env.word[0]) + " participants");
    if (q.a == static_cast<std::uint64_t>(cx.rank)) {
      // The root's route list: [count][count hops], at most one hop per tile, inside its arena.
      std::uint64_t count = 0;
      if (!cx.in_arena(q.c, sizeof count)) cx.bad(q, "static route outside the arena");
      std::memcpy(&count, cx.arena_of(cx.rank) + q.c, sizeof count);
      if (count > static_cast<std::uint64_t>(cx.nranks) || !cx.in_arena(q.c, static_routes_bytes(count)))
        cx.bad(q, "static route of " + std::to_string(count) + " hops");
    }
    StaticRequest s;
    s.time = q.time;
    s.id = q.msg;
    s.root = static_cast<int>(q.a);
    s.bytes = q.b;
    s.arena_off = q.c;
    s.participants = q.env.word[0];
    s.op = q.op;
    return s;
  }
};

/// A participant copied the broadcast's data out of the root's arena (at `arena_off`).
struct StaticCopiedRequest {
  std::uint64_t time = 0;
  int root = 0;
  std::uint64_t arena_off = 0;

  Request encode() const {
    Request q = request_of(kReqStaticCopied, time);
    q.a = static_cast<std::uint64_t>(root);
    q.c = arena_off;
    return q;
  }
  // (Names a chunk only: the engine looks it up, and an unknown one changes nothing.)
  static StaticCopiedRequest decode(const Request& q, const DecodeContext&) {
    return {q.time, static_cast<int>(q.a), q.c};
  }
};

/// The static broadcast completed at this participant: its data is at `root_off` of the root's
/// arena, after the routes; `bytes` is the root's length.
struct StaticEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  int root = 0;
  std::uint64_t bytes = 0, root_off = 0;

  Event encode() const {
    Event e = event_of(kEvStatic, time);
    e.op = op;
    e.a = static_cast<std::uint64_t>(root);
    e.b = bytes;
    e.c = root_off;
    return e;
  }
  static StaticEvent decode(const Event& e) { return {e.time, e.op, static_cast<int>(e.a), e.b, e.c}; }
};

}  // namespace tilempi::transport::sim
