// The arena fallback for large messages where cross-memory attach is not allowed: the sender
// streams the bytes through the channel's arena of `chunks` chunks, filling chunk i+1 while the
// receiver empties chunk i. Two counters in the channel (produced, consumed) are the only shared
// state. Transfers go back to back in the order the receiver cleared them (CTS order), and the
// receiver empties them in the same order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "host/shm_layout.h"

namespace tilempi::transport::host {

/// One channel's arena.
struct ArenaView {
  ChannelCtl* ctl = nullptr;
  unsigned char* arena = nullptr;
  std::uint64_t chunk = 0;   ///< bytes per chunk
  std::uint64_t chunks = 0;  ///< chunks in the arena
};

/// Bytes per piece of a transfer: about an eighth of the message, so that even mid-sized
/// messages overlap the two copies, within [4 KiB, the chunk size]. Both sides derive it from
/// the byte count in the CTS.
inline std::uint64_t arena_piece(std::uint64_t bytes, std::uint64_t chunk) {
  return clamp_u64(pow2_floor(std::max<std::uint64_t>(bytes / 8, 1)), std::min<std::uint64_t>(4096, chunk), chunk);
}

/// A transfer being streamed (either side).
struct ArenaTransfer {
  std::uint64_t bytes = 0;
  std::uint64_t piece = 0;
  std::uint64_t pieces = 0;
  std::uint64_t done = 0;  ///< pieces produced (sender) or consumed (receiver)

  static ArenaTransfer of(std::uint64_t bytes, std::uint64_t chunk) {
    ArenaTransfer t;
    t.bytes = bytes;
    t.piece = arena_piece(bytes, chunk);
    t.pieces = (bytes + t.piece - 1) / t.piece;
    return t;
  }
  bool finished() const { return done >= pieces; }
};

/// The sender fills free chunks with the next pieces of t from src (null: the send is gone,
/// pieces are counted but not filled). `produced` is the sender's count. True if it produced any.
inline bool produce_pieces(const ArenaView& a, std::uint64_t& produced, ArenaTransfer& t, const unsigned char* src) {
  bool wrote = false;
  while (t.done < t.pieces) {
    const std::uint64_t consumed = shared(a.ctl->consumed).load(std::memory_order_acquire);
    if (produced - consumed >= a.chunks) break;
    const std::uint64_t off = t.done * t.piece;
    const std::uint64_t n = std::min<std::uint64_t>(t.piece, t.bytes - off);
    if (src) std::memcpy(a.arena + (produced % a.chunks) * a.chunk, src + off, n);
    ++produced;
    ++t.done;
    shared(a.ctl->produced).store(produced, std::memory_order_seq_cst);
    wrote = true;
  }
  return wrote;
}

/// The receiver empties filled chunks into dst. `consumed` is the receiver's count. True if it
/// freed any.
inline bool consume_pieces(const ArenaView& a, std::uint64_t& consumed, ArenaTransfer& t, unsigned char* dst) {
  bool freed = false;
  while (t.done < t.pieces) {
    const std::uint64_t produced = shared(a.ctl->produced).load(std::memory_order_acquire);
    if (produced <= consumed) break;
    const std::uint64_t off = t.done * t.piece;
    const std::uint64_t n = std::min<std::uint64_t>(t.piece, t.bytes - off);
    std::memcpy(dst + off, a.arena + (consumed % a.chunks) * a.chunk, n);
    ++consumed;
    ++t.done;
    shared(a.ctl->consumed).store(consumed, std::memory_order_seq_cst);
    freed = true;
  }
  return freed;
}

/// Room for the sender / data for the receiver (seq_cst for the sleeper's re-check).
inline bool arena_has_room(const ArenaView& a, std::uint64_t produced) {
  return produced - shared(a.ctl->consumed).load(std::memory_order_seq_cst) < a.chunks;
}
inline bool arena_has_data(const ArenaView& a, std::uint64_t consumed) {
  return shared(a.ctl->produced).load(std::memory_order_seq_cst) > consumed;
}

}  // namespace tilempi::transport::host
