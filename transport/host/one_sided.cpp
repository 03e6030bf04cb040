// One-sided access on the host transport: MPI windows' puts and gets are one cross-memory-attach
// copy into or out of the target process (a plain copy for this rank's own memory), complete
// when the call returns. Capabilities::one_sided says whether the kernel allows it
// (TILEMPI_HOST_CMA=false turns it off, and the MPI layer carries the operations as messages).
#include <cstring>

#include "host/host_transport.h"
#include "host/platform.h"

namespace tilempi::transport::host {

namespace {
pid_t pid_of(const Segment& seg, int r) { return shared(seg.rank_slot(r)->pid).load(std::memory_order_acquire); }
}  // namespace

OpId HostTransport::rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) {
  int err = 0;
  if (target == rank_) std::memcpy(reinterpret_cast<void*>(remote_addr), src, len);
  else if (len && cma_write(pid_of(seg_, target), remote_addr, src, len, &err) != CmaResult::Ok) cma_failed(target, err);
  return kDone;
}

OpId HostTransport::rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) {
  int err = 0;
  if (target == rank_) std::memcpy(dst, reinterpret_cast<const void*>(remote_addr), len);
  else if (len && cma_read(pid_of(seg_, target), dst, remote_addr, len, &err) != CmaResult::Ok) cma_failed(target, err);
  return kDone;
}

}  // namespace tilempi::transport::host
