// Operating-system services of the host transport: pinning with hwloc, NUMA placement with
// libnuma, cross-memory attach. (Futexes are shared with the sim transport: shm/futex.h.)
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace tilempi::transport::host {

struct Placement {
  int cores = 1;          ///< cores this process may run on (before binding)
  int bound_core = -1;    ///< logical index of the (first) core the rank was bound to, -1 if not bound
  int bound_cores = 0;    ///< how many cores from bound_core on (the rank's threads: OMP_NUM_THREADS)
  int numa_node = -1;     ///< node of that core, -1 if unknown
};

/// Binds the calling process to `threads` consecutive cores from core (rank x threads) mod cores
/// when bind is true (one core per rank for a single-threaded one).
Placement place_rank(int rank, bool bind, int threads = 1);

/// The threads a rank will run: OMP_NUM_THREADS's first number when it is above 1, else 1.
int rank_threads();

/// Prefer node for the pages of [addr, addr+len) (no-op without NUMA support or node < 0).
void bind_memory(void* addr, std::size_t len, int node);

/// Maps [addr, addr+len) of a shared mapping into this process's page tables now, writable,
/// without touching the data (MADV_POPULATE_WRITE; a no-op where the kernel lacks it), so that
/// the first messages do not pay a page fault per page of a ring.
void prefault(void* addr, std::size_t len);

enum class CmaResult { Ok, Unsupported, Failed };
/// Copies len bytes from remote_addr in process pid to dst; Unsupported when the kernel or
/// its policy forbids cross-memory attach (EPERM, ENOSYS).
CmaResult cma_read(pid_t pid, void* dst, std::uint64_t remote_addr, std::size_t len, int* err);

/// The same, writing len bytes from src into remote_addr of process pid.
CmaResult cma_write(pid_t pid, std::uint64_t remote_addr, const void* src, std::size_t len, int* err);

/// Whether this kernel and its policy let us use cross-memory attach at all.
bool cma_allowed();

}  // namespace tilempi::transport::host
