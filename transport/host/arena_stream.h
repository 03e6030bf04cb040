// The arena for large messages (and the fallback where cross-memory attach is not allowed): the
// sender streams the bytes through the channel's arena in pieces, filling piece i+1 while the
// receiver empties piece i. The arena is a byte ring: each piece starts where the last one ended,
// rounded up to its own size (a power of two, so no piece wraps). Pieces used to sit one per
// 64 KiB chunk whatever their size, so that an 8 KiB piece was followed by 56 KiB never touched:
// 64 KiB messages then took 8.6 us one way instead of 4.7 on the development VM
// (docs/HOST_TRANSPORT.md, "The seventh pass"). Two byte counters in the channel (produced,
// consumed: the end of the last piece filled and emptied) are the only shared state. Transfers go
// back to back in the order the receiver cleared them (CTS order), and the receiver empties them
// in the same order, so both sides place every piece at the same offset.
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
  std::uint64_t chunk = 0;  ///< the largest piece (a power of two)
  std::uint64_t bytes = 0;  ///< the arena's size (a power of two, a multiple of chunk)
};

/// Bytes per piece of a transfer: about an eighth of the message, so that even mid-sized
/// messages overlap the two copies, within [4 KiB, the largest piece]. Both sides derive it
/// from the byte count in the CTS.
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
  /// Where the next piece starts, given the end of the last one: rounded up to the piece size.
  std::uint64_t next_start(std::uint64_t last_end) const { return (last_end + piece - 1) & ~(piece - 1); }
};

/// The sender fills the arena with the next pieces of t from src (null: the send is gone, pieces
/// are counted but not filled). `produced` is the sender's count. True if it produced any.
inline bool produce_pieces(const ArenaView& a, std::uint64_t& produced, ArenaTransfer& t, const unsigned char* src) {
  bool wrote = false;
  while (t.done < t.pieces) {
    const std::uint64_t start = t.next_start(produced);
    const std::uint64_t consumed = shared(a.ctl->consumed).load(std::memory_order_acquire);
    if (start + t.piece - consumed > a.bytes) break;
    const std::uint64_t off = t.done * t.piece;
    const std::uint64_t n = std::min<std::uint64_t>(t.piece, t.bytes - off);
    if (src) std::memcpy(a.arena + (start & (a.bytes - 1)), src + off, n);
    produced = start + t.piece;
    ++t.done;
    shared(a.ctl->produced).store(produced, std::memory_order_seq_cst);
    wrote = true;
  }
  return wrote;
}

/// The receiver empties filled pieces into dst. `consumed` is the receiver's count. True if it
/// freed any.
inline bool consume_pieces(const ArenaView& a, std::uint64_t& consumed, ArenaTransfer& t, unsigned char* dst) {
  bool freed = false;
  while (t.done < t.pieces) {
    const std::uint64_t start = t.next_start(consumed);
    const std::uint64_t produced = shared(a.ctl->produced).load(std::memory_order_acquire);
    if (produced < start + t.piece) break;
    const std::uint64_t off = t.done * t.piece;
    const std::uint64_t n = std::min<std::uint64_t>(t.piece, t.bytes - off);
    std::memcpy(dst + off, a.arena + (start & (a.bytes - 1)), n);
    consumed = start + t.piece;
    ++t.done;
    shared(a.ctl->consumed).store(consumed, std::memory_order_seq_cst);
    freed = true;
  }
  return freed;
}

/// Room for t's next piece / data for the receiver (seq_cst for the sleeper's re-check). The
/// sender's counter only ever stops at the end of a piece the receiver will empty in the same
/// order, so any byte produced past `consumed` is the receiver's next piece.
inline bool arena_has_room(const ArenaView& a, std::uint64_t produced, const ArenaTransfer& t) {
  return t.next_start(produced) + t.piece - shared(a.ctl->consumed).load(std::memory_order_seq_cst) <= a.bytes;
}
inline bool arena_has_data(const ArenaView& a, std::uint64_t consumed) {
  return shared(a.ctl->produced).load(std::memory_order_seq_cst) > consumed;
}

}  // namespace tilempi::transport::host
