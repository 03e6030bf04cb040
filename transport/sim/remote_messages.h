// One-sided operations (MPI_Put/MPI_Get through the adapter's RDMA or its cores' handlers): the
// rank moves the bytes inside its call; the engine times the adapter's packets and completes the
// operation (DoneEvent) at the modeled cycle.
#pragma once

#include "sim/messages.h"

namespace tilempi::transport::sim {

/// Rank writes `put_bytes` to and reads `get_bytes` from `target`'s memory.
struct RemoteRequest {
  std::uint64_t time = 0;
  std::uint64_t id = 0;  ///< the origin's id of the operation (sim_ids.h RankMessageIds)
  int target = 0;
  std::uint64_t put_bytes = 0, get_bytes = 0;
  OpId op = 0;

  Request encode() const {
    Request q = request_of(kReqRemote, time);
    q.msg = id;
    q.a = static_cast<std::uint64_t>(target);
    q.b = put_bytes;
    q.c = get_bytes;
    q.op = op;
    return q;
  }
  static RemoteRequest decode(const Request& q, const DecodeContext& cx) {
    if (!cx.is_rank(q.a)) cx.bad(q, "one-sided target rank " + std::to_string(q.a) + " of " + std::to_string(cx.nranks));
    return {q.time, q.msg, static_cast<int>(q.a), q.b, q.c, q.op};
  }
};

}  // namespace tilempi::transport::sim
