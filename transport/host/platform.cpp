#include "host/platform.h"

#include <hwloc.h>
#include <numa.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace tilempi::transport::host {

int rank_threads() {
  const char* v = std::getenv("OMP_NUM_THREADS");  // "4" or a list per nesting level, "4,2"
  if (!v) return 1;
  char* end = nullptr;
  const long k = std::strtol(v, &end, 10);
  return end != v && k > 1 && k < (1 << 16) ? static_cast<int>(k) : 1;
}

Placement place_rank(int rank, bool bind, int threads) {
  Placement p;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) p.cores = CPU_COUNT(&set);
  if (p.cores < 1) p.cores = 1;
  // Let peers of the same user read our buffers with process_vm_readv even under Yama.
#ifdef PR_SET_PTRACER
  ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
  if (!bind) return p;

  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return p;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return p;
  }
  hwloc_obj_type_t type = HWLOC_OBJ_CORE;
  int n = hwloc_get_nbobjs_by_type(topo, type);
  if (n <= 0) {
    type = HWLOC_OBJ_PU;
    n = hwloc_get_nbobjs_by_type(topo, type);
  }
  if (n > 0) {
    p.cores = n;
    // A rank of k OpenMP threads gets k cores of its own, as Open MPI's --map-by slot:PE=k does:
    // pinned to one core its threads would share it while the others idle.
    const int k = std::min(std::max(threads, 1), n);
    const int first = static_cast<int>((static_cast<long long>(rank) * k) % n);
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    for (int i = 0; i < k; ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, static_cast<unsigned>((first + i) % n));
      if (!obj || !obj->cpuset) continue;
      hwloc_bitmap_t one = hwloc_bitmap_dup(obj->cpuset);
      hwloc_bitmap_singlify(one);  // one hardware thread of each core
      hwloc_bitmap_or(cpus, cpus, one);
      hwloc_bitmap_free(one);
    }
    if (!hwloc_bitmap_iszero(cpus) && hwloc_set_cpubind(topo, cpus, HWLOC_CPUBIND_PROCESS) == 0) {
      p.bound_core = first;
      p.bound_cores = k;
      int pu = hwloc_bitmap_first(cpus);
      if (pu >= 0 && numa_available() >= 0) p.numa_node = numa_node_of_cpu(pu);
    }
    hwloc_bitmap_free(cpus);
  }
  hwloc_topology_destroy(topo);
  return p;
}

void bind_memory(void* addr, std::size_t len, int node) {
  if (node < 0 || len == 0 || numa_available() < 0) return;
  if (numa_num_configured_nodes() <= 1) return;  // nothing to choose
  numa_tonode_memory(addr, len, node);
}

void prefault(void* addr, std::size_t len) {
#ifdef MADV_POPULATE_WRITE
  auto a = reinterpret_cast<std::uintptr_t>(addr) & ~static_cast<std::uintptr_t>(4095);
  const auto end = reinterpret_cast<std::uintptr_t>(addr) + len;
  ::madvise(reinterpret_cast<void*>(a), end - a, MADV_POPULATE_WRITE);
#else
  (void)addr;
  (void)len;
#endif
}

CmaResult cma_read(pid_t pid, void* dst, std::uint64_t remote_addr, std::size_t len, int* err) {
  auto* out = static_cast<unsigned char*>(dst);
  std::size_t done = 0;
  while (done < len) {
    iovec local{out + done, len - done};
    iovec remote{reinterpret_cast<void*>(remote_addr + done), len - done};
    ssize_t n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (err) *err = errno;
      return (errno == EPERM || errno == ENOSYS || errno == EACCES) ? CmaResult::Unsupported : CmaResult::Failed;
    }
    if (n == 0) {
      if (err) *err = EFAULT;
      return CmaResult::Failed;
    }
    done += static_cast<std::size_t>(n);
  }
  return CmaResult::Ok;
}

CmaResult cma_write(pid_t pid, std::uint64_t remote_addr, const void* src, std::size_t len, int* err) {
  const auto* in = static_cast<const unsigned char*>(src);
  std::size_t done = 0;
  while (done < len) {
    iovec local{const_cast<unsigned char*>(in + done), len - done};
    iovec remote{reinterpret_cast<void*>(remote_addr + done), len - done};
    ssize_t n = ::process_vm_writev(pid, &local, 1, &remote, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (err) *err = errno;
      return (errno == EPERM || errno == ENOSYS || errno == EACCES) ? CmaResult::Unsupported : CmaResult::Failed;
    }
    if (n == 0) {
      if (err) *err = EFAULT;
      return CmaResult::Failed;
    }
    done += static_cast<std::size_t>(n);
  }
  return CmaResult::Ok;
}

bool cma_allowed() {
  // Reading our own memory needs the same system call; seccomp filters and kernels built
  // without it fail here with ENOSYS or EPERM (peer access is checked again on first use).
  unsigned char src[64] = {1}, dst[64] = {0};
  int err = 0;
  return cma_read(::getpid(), dst, reinterpret_cast<std::uint64_t>(src), sizeof src, &err) == CmaResult::Ok &&
         dst[0] == 1;
}

}  // namespace tilempi::transport::host
