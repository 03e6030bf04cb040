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
  std::uint32_t kind = 0;  ///< the rank's number of the MPI call's kind it belongs to (energy_account.h; 0: none)

  static constexpr auto kWire = wire<EngineRequest, kReqStatic>(slot(&StaticRequest::time, &EngineRequest::time),
      slot(&StaticRequest::id, &EngineRequest::msg), slot(&StaticRequest::root, &EngineRequest::a),
      slot(&StaticRequest::bytes, &EngineRequest::b), slot(&StaticRequest::arena_off, &EngineRequest::c),
      slot(&StaticRequest::participants, &EngineRequest::e), slot(&StaticRequest::op, &EngineRequest::op),
      slot(&StaticRequest::kind, &EngineRequest::f));
  static void check(const EngineRequest& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "static broadcast root " + std::to_string(q.a));
    cx.check_call_kind(q, q.f);
    if (q.e == 0 || q.e > static_cast<std::uint64_t>(cx.nranks))
      cx.bad(q, "static broadcast of " + std::to_string(q.e) + " participants");
    if (q.a != static_cast<std::uint64_t>(cx.rank)) return;
    // The root's route list: [count][count hops], at most one hop per tile, inside its arena.
    std::uint64_t count = 0;
    if (!cx.in_arena(q.c, sizeof count)) cx.bad(q, "static route outside the arena");
    std::memcpy(&count, cx.arena_of(cx.rank) + q.c, sizeof count);
    if (count > static_cast<std::uint64_t>(cx.nranks) || !cx.in_arena(q.c, static_routes_bytes(count)))
      cx.bad(q, "static route of " + std::to_string(count) + " hops");
  }
};

/// A participant copied the broadcast's data out of the root's arena (at `arena_off`). (It names
/// a chunk only: the engine looks it up, and an unknown one changes nothing.)
struct StaticCopiedRequest {
  std::uint64_t time = 0;
  int root = 0;
  std::uint64_t arena_off = 0;

  static constexpr auto kWire = wire<EngineRequest, kReqStaticCopied>(slot(&StaticCopiedRequest::time, &EngineRequest::time),
      slot(&StaticCopiedRequest::root, &EngineRequest::a), slot(&StaticCopiedRequest::arena_off, &EngineRequest::c));
};

/// A collective's part at this rank, with a chunk of some rank's arena: `bytes` at `arena_off`
/// of rank `rank`'s arena. The static network's broadcast and the adapter's collective offload
/// (offload_messages.h) use it, each under its own kinds.
template <std::uint32_t Kind>
struct ChunkEvent {
  std::uint64_t time = 0;
  OpId op = 0;
  int rank = 0;
  std::uint64_t bytes = 0, arena_off = 0;

  static constexpr auto kWire = wire<EngineEvent, Kind>(slot(&ChunkEvent::time, &EngineEvent::time),
      slot(&ChunkEvent::op, &EngineEvent::op), slot(&ChunkEvent::rank, &EngineEvent::a), slot(&ChunkEvent::bytes, &EngineEvent::b),
      slot(&ChunkEvent::arena_off, &EngineEvent::c));
};

/// The static broadcast completed at this participant: its data is in the root's (`rank`) chunk,
/// after the routes; `bytes` is the root's length.
using StaticEvent = ChunkEvent<kEvStatic>;

}  // namespace tilempi::transport::sim
