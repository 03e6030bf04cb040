// A rank's payload arena (sim transport): a ring of chunks that senders fill and receivers free
// out of order as they copy the payloads out. Only the space is managed here; what waits for
// it, in virtual time, is the rank's business (SimTransport::alloc_or_wait).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

namespace tilempi::transport::sim {

class PayloadArena {
 public:
  void reset(std::uint64_t capacity) { cap_ = capacity; }
  std::uint64_t capacity() const { return cap_; }
  /// The space a payload of len bytes takes (whole lines; at least one).
  static std::uint64_t chunk_bytes(std::uint64_t len) { return (std::max<std::uint64_t>(len, 1) + 63) / 64 * 64; }

  /// Takes n bytes (chunk_bytes) if they are free: their offset in off.
  bool try_alloc(std::uint64_t n, std::uint64_t& off) {
    if (chunks_.empty()) alloc_pos_ = release_pos_ = 0;  // all free: start again at the arena's start
    std::uint64_t pos = alloc_pos_;
    const std::uint64_t at = pos % cap_;
    const std::uint64_t pad = at + n > cap_ ? cap_ - at : 0;
    if (pos + pad + n - release_pos_ > cap_) return false;
    if (pad) {
      chunks_.push_back(Chunk{pos, pad, true});
      pos += pad;
    }
    chunks_.push_back(Chunk{pos, n, false});
    alloc_pos_ = pos + n;
    off = pos % cap_;
    retire();
    return true;
  }

  /// The payload at offset off was taken. The chunks in use lie in one arena's length from the
  /// oldest, in ascending position: off names exactly one, found by a binary search.
  void release(std::uint64_t off) {
    if (chunks_.empty()) return;
    const std::uint64_t oldest = chunks_.front().pos;
    std::uint64_t pos = oldest - oldest % cap_ + off;
    if (pos < oldest) pos += cap_;
    const auto it = std::lower_bound(chunks_.begin(), chunks_.end(), pos,
                                     [](const Chunk& c, std::uint64_t p) { return c.pos < p; });
    if (it == chunks_.end() || it->pos != pos || it->freed) return;  // released already
    it->freed = true;
    retire();
  }

 private:
  struct Chunk {
    std::uint64_t pos, len;
    bool freed;
  };
  void retire() {
    while (!chunks_.empty() && chunks_.front().freed) {
      release_pos_ = chunks_.front().pos + chunks_.front().len;
      chunks_.pop_front();
    }
    if (chunks_.empty()) release_pos_ = alloc_pos_;
  }

  std::uint64_t cap_ = 0;
  std::uint64_t alloc_pos_ = 0, release_pos_ = 0;
  std::deque<Chunk> chunks_;
};

}  // namespace tilempi::transport::sim
