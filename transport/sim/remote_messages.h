// One-sided operations (MPI_Put/MPI_Get through the adapter's RDMA or its cores' handlers): the
// rank moves the bytes inside its call; the engine times the adapter's packets and completes the
// operation (DoneEvent) at the modeled cycle.
#pragma once

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// Rank writes `put_bytes` to and reads `get_bytes` from `target`'s memory.
struct RemoteRequest {
  std::uint64_t time = 0;
  std::uint64_t id = 0;  ///< the origin's id of the operation (sim_ids.h RankOperationIds)
  int target = 0;
  std::uint64_t put_bytes = 0, get_bytes = 0;
  OpId op = 0;
  std::uint32_t kind = 0;  ///< the rank's number of the MPI call's kind it belongs to (energy_account.h; 0: none)

  static constexpr auto kWire = wire<EngineRequest, kReqRemote>(slot(&RemoteRequest::time, &EngineRequest::time),
      slot(&RemoteRequest::id, &EngineRequest::msg), slot(&RemoteRequest::target, &EngineRequest::a),
      slot(&RemoteRequest::put_bytes, &EngineRequest::b), slot(&RemoteRequest::get_bytes, &EngineRequest::c),
      slot(&RemoteRequest::op, &EngineRequest::op), slot(&RemoteRequest::kind, &EngineRequest::e));
  static void check(const EngineRequest& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "one-sided target rank " + std::to_string(q.a) + " of " + std::to_string(cx.nranks));
    cx.check_call_kind(q, q.e);
  }
};

}  // namespace tilempi::transport::sim
