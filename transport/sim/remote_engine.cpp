#include "sim/remote_engine.h"

#include "sim/migration_messages.h"
#include "sim/p2p_messages.h"

namespace tilempi::transport::sim {

namespace ad = tilempi::hwmodel::adapter;

void RemoteOperations::take(int r, const RemoteRequest& q) {
  Operation& x = in_flight_[q.id];
  x.origin = r;
  x.target = q.target;
  x.op = q.op;
  ++count_;
  bytes_ += q.put_bytes + q.get_bytes;
  if (core_.tracing())
    core_.trace(r, q.get_bytes ? "rma_get" : "rma_put", q.time, q.time + core_.adapter().remote_issue_cost(q.put_bytes, q.get_bytes));
  core_.adapter().remote_start(ad::Remote{q.id, core_.tile(r), core_.tile(x.target), q.put_bytes, q.get_bytes}, q.time);
}

void RemoteOperations::done(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  core_.publish(it->second.origin, DoneEvent{at + core_cycles, it->second.op, 0});
  in_flight_.erase(it);
}

void RemoteOperations::served(MsgId id, std::uint64_t at, std::uint64_t core_cycles) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end() || core_cycles == 0) return;
  // The target's core was interrupted: its clock loses the handler's cycles from `at` on.
  core_.publish(it->second.target, CoreTakenEvent{at, core_cycles});
}

}  // namespace tilempi::transport::sim
