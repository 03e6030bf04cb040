// The rank's half of one-sided operations (remote_messages.h).
#include "sim/remote_messages.h"
#include "sim/sim_ids.h"
#include "sim/sim_rank.h"

namespace tilempi::transport::sim {

// The bytes move inside the call (the layer above synchronizes: nothing may read or write them
// before the operation is complete); the engine times the adapter's packets and completes the
// operation at the modeled cycle.
OpId SimTransport::rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) {
  Call call(*this);
  link_->copy_remote(target, remote_addr, const_cast<void*>(src), len, true);
  return remote(target, len, 0);
}

OpId SimTransport::rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) {
  Call call(*this);
  link_->copy_remote(target, remote_addr, dst, len, false);
  return remote(target, 0, len);
}

OpId SimTransport::remote(int target, std::uint64_t put_bytes, std::uint64_t get_bytes) {
  const OpId op = next_op_++;
  post(RemoteRequest{clock_, RankOperationIds::make(rank_, ++remote_seq_), target, put_bytes, get_bytes, op,
                     energy_->kind(call_)});
  clock_ += costs_->remote_issue_cost(put_bytes, get_bytes);
  ops_.insert(op).send = true;  // finalize waits for it like a send
  return op;
}

}  // namespace tilempi::transport::sim
