#include "payload_buffer.h"

#include <utility>
#include <vector>

namespace tilempi::mpi {

namespace {

// Blocks of 4 KiB to 4 MiB are pooled by power-of-two size class; smaller ones are cheap to get
// from malloc, larger ones rare. A thread keeps at most kMaxCachedBytes of freed blocks.
// (Per thread: the simulator's ranks share a thread, and a block freed on another thread than
// its own simply joins that thread's pool.)
constexpr int kMinClass = 12;
constexpr int kMaxClass = 22;

// Set once this thread's pool is destroyed (at its exit): buffers that outlive it, such as those
// of a static object destroyed later, are freed directly.
thread_local bool t_pool_gone = false;

struct Pool {
  std::vector<char*> free[kMaxClass + 1];
  std::size_t cached = 0;
  ~Pool() {
    for (auto& list : free)
      for (char* p : list) delete[] p;
    t_pool_gone = true;
  }
};

Pool& pool() {
  thread_local Pool p;
  return p;
}

int size_class(std::size_t n) {
  int c = kMinClass;
  while ((std::size_t{1} << c) < n) ++c;
  return c;
}

}  // namespace

PayloadBuffer::PayloadBuffer(std::size_t n) : n_(n) {
  if (n == 0) return;
  if (n <= (std::size_t{1} << kMinClass) / 2 || n > (std::size_t{1} << kMaxClass) || t_pool_gone) {
    p_ = new char[n];  // (default-initialised: not zeroed)
    return;
  }
  class_ = size_class(n);
  Pool& pl = pool();
  auto& list = pl.free[class_];
  if (!list.empty()) {
    p_ = list.back();
    list.pop_back();
    pl.cached -= std::size_t{1} << class_;
  } else {
    p_ = new char[std::size_t{1} << class_];
  }
}

PayloadBuffer& PayloadBuffer::operator=(PayloadBuffer&& o) noexcept {
  if (this != &o) {
    release();
    p_ = std::exchange(o.p_, nullptr);
    n_ = std::exchange(o.n_, 0);
    class_ = o.class_;
  }
  return *this;
}

void PayloadBuffer::release() {
  if (!p_) return;
  if (class_ >= 0 && !t_pool_gone) {
    Pool& pl = pool();
    const std::size_t bytes = std::size_t{1} << class_;
    if (pl.cached + bytes <= kMaxCachedBytes) {
      pl.free[class_].push_back(p_);
      pl.cached += bytes;
      p_ = nullptr;
      return;
    }
  }
  delete[] p_;
  p_ = nullptr;
}

std::size_t PayloadBuffer::cached_bytes() { return t_pool_gone ? 0 : pool().cached; }

}  // namespace tilempi::mpi
