// The payload of a message held by the MPI layer until its receive takes it: one that arrived
// before its receive was posted (copied out of the transport at once, so that it never holds up
// later messages), or a send to this rank itself. A byte buffer that is not zeroed when made, and
// whose memory, once freed, is kept for the next one of its size class instead of going back to
// the system. Both mattered: with a std::vector, every such 32 KiB message was zeroed first, and
// glibc gave freed windows of them back to the kernel and faulted them in again, page by page.
// The rank that fell behind in a bidirectional exchange then got every message of the next
// window unexpected and paid both, so it stayed behind: bidirectional 32 KiB moved between 5 and
// 22 GB/s from run to run on the development VM (docs/HOST_TRANSPORT.md, "The seventh pass").
#pragma once

#include <cstddef>

namespace tilempi::mpi {

class PayloadBuffer {
 public:
  PayloadBuffer() = default;
  /// n bytes, contents undefined.
  explicit PayloadBuffer(std::size_t n);
  PayloadBuffer(PayloadBuffer&& o) noexcept : p_(o.p_), n_(o.n_), class_(o.class_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  PayloadBuffer& operator=(PayloadBuffer&& o) noexcept;
  PayloadBuffer(const PayloadBuffer&) = delete;
  PayloadBuffer& operator=(const PayloadBuffer&) = delete;
  ~PayloadBuffer() { release(); }

  char* data() { return p_; }
  const char* data() const { return p_; }
  std::size_t size() const { return n_; }

  /// Freed blocks a thread keeps for reuse, at most: two windows of 64 unexpected 32 KiB
  /// messages, and a bound on what a rank holds on to after a burst.
  static constexpr std::size_t kMaxCachedBytes = std::size_t{4} << 20;
  /// Bytes of freed buffers this thread keeps for reuse (for tests).
  static std::size_t cached_bytes();

 private:
  void release();

  char* p_ = nullptr;
  std::size_t n_ = 0;
  int class_ = -1;  ///< size class of a pooled block (its size is 1 << class_), -1 if not pooled
};

}  // namespace tilempi::mpi
