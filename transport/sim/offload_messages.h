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
#include "sim/static_messages.h"
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
  std::uint32_t call_kind = 0;  ///< the rank's number of the MPI call's kind it belongs to (energy_account.h; 0: none)

  static bool spreads(hwmodel::adapter::CollKind k) {
    return k == hwmodel::adapter::CollKind::Multicast || k == hwmodel::adapter::CollKind::Scatter;
  }
  bool spread() const { return spreads(kind); }

  static constexpr auto kWire = wire<EngineRequest, kReqOffload>(slot(&OffloadRequest::time, &EngineRequest::time),
      slot(&OffloadRequest::id, &EngineRequest::msg), slot(&OffloadRequest::root, &EngineRequest::a),
      slot(&OffloadRequest::bytes, &EngineRequest::b), slot(&OffloadRequest::arena_off, &EngineRequest::c),
      slot(&OffloadRequest::kind, &EngineRequest::d), slot(&OffloadRequest::members, &EngineRequest::e),
      slot(&OffloadRequest::op, &EngineRequest::op), slot(&OffloadRequest::call_kind, &EngineRequest::f));
  static void check(const EngineRequest& q, const DecodeContext& cx) {
    namespace ad = hwmodel::adapter;
    if (!cx.is_rank(q.a)) cx.bad(q, "collective offload root " + std::to_string(q.a));
    cx.check_call_kind(q, q.f);
    if (q.e < 2 || q.e > static_cast<std::uint64_t>(cx.nranks))
      cx.bad(q, "collective offload of " + std::to_string(q.e) + " members");
    if (q.d > static_cast<std::uint64_t>(ad::CollKind::Reduce)) cx.bad(q, "collective offload kind " + std::to_string(q.d));
    // What the engine reads from the arena: a spreading root's [count][ranks][data], a
    // collecting sender's data (copied by the root from there).
    const auto kind = static_cast<ad::CollKind>(q.d);
    const bool root = q.a == static_cast<std::uint64_t>(cx.rank);
    std::uint64_t need = 0;
    if (spreads(kind) && root) {
      if (q.b > cx.arena_bytes) cx.bad(q, "collective offload of " + std::to_string(q.b) + " bytes");
      need = offload_list_bytes(q.e) + q.b * (kind == ad::CollKind::Scatter ? q.e : 1);
      std::uint64_t count = 0;
      if (cx.in_arena(q.c, sizeof count)) std::memcpy(&count, cx.arena_of(cx.rank) + q.c, sizeof count);
      if (count != q.e) cx.bad(q, "collective offload list of " + std::to_string(count) + " members");
    } else if (!spreads(kind) && !root) {
      need = q.b;
    }
    if (need && !cx.in_arena(q.c, need)) cx.bad(q, "collective offload data outside the arena");
  }
};

/// This rank's part of an offloaded transfer is complete. `rank` is the root, `bytes` its length
/// for a spread, `arena_off` its chunk (a spread's data, after its member list).
using OffloadEvent = ChunkEvent<kEvOffload>;

/// At a gather or reduce root, before its OffloadEvent: one sender's (`rank`) block.
using OffloadPartEvent = ChunkEvent<kEvOffloadPart>;

}  // namespace tilempi::transport::sim
