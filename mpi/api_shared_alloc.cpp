// TILEMPIX_Shared_alloc / TILEMPIX_Shared_free: one copy of a large read-mostly buffer for every
// rank of a simulated job (docs/SIM.md "Folding large buffers across ranks").
//
// With ranks as contexts, a thousand ranks live in one simulator process, so a code whose every
// rank holds the same large input (or whose input's values do not change what it sends and
// computes) needs a thousand copies of it. Where the ranks share one address space, the ranks
// that ask with the same key get the same block; everywhere else (host transport, ranks as
// processes) each rank gets a block of its own, so a program that uses the calls stays correct
// wherever it runs. Blocks are zero-filled, and a folded block is mapped without reserving
// memory: pages no rank writes cost nothing.
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "check.h"
#include "tilempi/transport/rank_local.h"

using namespace tilempi::mpi;

namespace {

/// A folded block: shared by every rank that asked for its key and has not freed it.
struct Folded {
  void* base = nullptr;
  std::size_t size = 0;
  int users = 0;
};

/// Folded blocks by key and by address, for the whole process (that is the point: every rank).
struct FoldedBlocks {
  std::mutex mutex;
  std::map<std::string, Folded> by_key;
  std::map<void*, std::string> key_of;
};
FoldedBlocks& folded() {
  static FoldedBlocks f;
  return f;
}

/// The blocks this rank holds (folded or its own), so that a free of anything else is an error.
struct Held {
  std::set<void*> blocks;
};
Held& held() {
  static tilempi::transport::RankLocal<Held> h;  // per rank (see rank_local.h)
  return h.get();
}

bool folds() { return runtime().transport && runtime().transport->capabilities().shared_address_space; }

int alloc(MPI_Aint size, const char* key, void** out) {
  const char* fn = "TILEMPIX_Shared_alloc";
  if (size < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "size " + std::to_string(size) + " is negative");
  if (!key || !*key) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "the key is empty");
  const std::size_t bytes = size > 0 ? static_cast<std::size_t>(size) : 1;
  if (!folds()) {
    void* p = std::calloc(1, bytes);
    if (!p) return raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, "cannot allocate " + std::to_string(size) + " bytes");
    held().blocks.insert(p);
    *out = p;
    return MPI_SUCCESS;
  }
  FoldedBlocks& f = folded();
  std::lock_guard<std::mutex> lock(f.mutex);
  auto it = f.by_key.find(key);
  if (it != f.by_key.end()) {
    Folded& b = it->second;
    if (b.size != bytes)
      return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                   std::string("key \"") + key + "\" names a block of " + std::to_string(b.size) + " bytes, not " +
                       std::to_string(bytes) + " (every rank must ask for the same size)");
    if (!held().blocks.insert(b.base).second)
      return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                   std::string("this rank holds the block of key \"") + key + "\" already (free it first)");
    ++b.users;
    *out = b.base;
    return MPI_SUCCESS;
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, "cannot map " + std::to_string(size) + " bytes");
  f.by_key.emplace(key, Folded{p, bytes, 1});
  f.key_of.emplace(p, key);
  held().blocks.insert(p);
  *out = p;
  return MPI_SUCCESS;
}

}  // namespace

int TILEMPIX_Shared_alloc(MPI_Aint size, const char* key, void* baseptr) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("TILEMPIX_Shared_alloc", &rc)) return rc;
  if (!baseptr) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "TILEMPIX_Shared_alloc", "baseptr is NULL");
  void* p = nullptr;
  rc = alloc(size, key, &p);
  if (rc == MPI_SUCCESS) std::memcpy(baseptr, &p, sizeof p);
  return rc;
}

int TILEMPIX_Shared_free(void* base) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("TILEMPIX_Shared_free", &rc)) return rc;
  if (!base) return MPI_SUCCESS;
  if (held().blocks.erase(base) == 0)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "TILEMPIX_Shared_free",
                 "the address is not a block this rank got from TILEMPIX_Shared_alloc (or it was freed already)");
  FoldedBlocks& f = folded();
  std::lock_guard<std::mutex> lock(f.mutex);
  const auto k = f.key_of.find(base);
  if (k == f.key_of.end()) {
    std::free(base);
    return MPI_SUCCESS;
  }
  Folded& b = f.by_key.at(k->second);
  if (--b.users == 0) {
    ::munmap(b.base, b.size);
    f.by_key.erase(k->second);
    f.key_of.erase(k);
  }
  return MPI_SUCCESS;
}

int TILEMPIX_Shared_alloc_folds(int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("TILEMPIX_Shared_alloc_folds", &rc)) return rc;
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "TILEMPIX_Shared_alloc_folds", "flag is NULL");
  *flag = folds() ? 1 : 0;
  return MPI_SUCCESS;
}
