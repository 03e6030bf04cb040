// The two-core copy of a large rendezvous message: the receiver publishes the transfer in the
// channel (destination, source, length, piece size) under a claim word
// `generation | pieces | next piece` (CoopWord) and pulls pieces itself; the sender, asked by a
// HELP entry on the control ring, claims pieces with the same compare-and-swap and pushes them.
// A sender busy elsewhere never claims anything and the receiver copies it all; a late HELP
// finds another generation (or nothing left) and does nothing. `coop_done` counts finished
// pieces; the receiver completes the transfer when it reaches the number of pieces.
//
// The copying itself is the caller's (cross-memory attach in the transport, memcpy in tests).
#pragma once

#include <algorithm>
#include <cstdint>

#include "host/shm_layout.h"

namespace tilempi::transport::host {

/// Rendezvous copies of at least this many bytes are shared between the two cores.
inline constexpr std::uint64_t kCoopMin = 256u << 10;
/// The smallest piece (also the size of the probe read that checks a peer lets us read).
inline constexpr std::uint64_t kCoopPiece = 64u << 10;

/// Piece size for a copy of len bytes: about a sixteenth, within [64 KiB, 128 KiB].
inline std::uint64_t coop_piece(std::uint64_t len) { return clamp_u64(pow2_floor(len / 16), kCoopPiece, 128u << 10); }

/// Whether a copy of len bytes has few enough pieces for the claim word.
inline bool coop_fits(std::uint64_t len) { return len / coop_piece(len) < CoopWord::kMask; }

inline std::uint64_t coop_pieces(std::uint64_t len) {
  const std::uint64_t p = coop_piece(len);
  return (len + p - 1) / p;
}

/// Claims the next piece of generation gen; false when the copy is another one or all claimed.
inline bool claim_piece(ChannelCtl* c, std::uint64_t gen, std::uint64_t& piece_out) {
  auto claim = shared(c->coop_claim);
  std::uint64_t w = claim.load(std::memory_order_acquire);
  for (;;) {
    if (CoopWord::gen(w) != gen || CoopWord::next(w) >= CoopWord::pieces(w)) return false;
    if (claim.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      piece_out = CoopWord::next(w);
      return true;
    }
  }
}

/// The receiver publishes generation gen of a copy of len bytes from src (sender's address) to
/// dst (receiver's address); the first `ready` pieces are already done.
inline void announce_copy(ChannelCtl* c, std::uint64_t gen, std::uint64_t dst, std::uint64_t src, std::uint64_t len,
                          std::uint64_t ready) {
  c->coop_dst = dst;
  c->coop_src = src;
  c->coop_len = len;
  c->coop_piece = coop_piece(len);
  shared(c->coop_done).store(ready, std::memory_order_relaxed);
  shared(c->coop_claim).store(CoopWord::make(gen, coop_pieces(len), ready), std::memory_order_release);
}

/// Claims and copies pieces of generation gen until none is left: copy(dst, src, n) with the
/// announced addresses, returning false on failure (then copy_pieces stops and returns false).
/// `any` tells whether this side copied anything.
template <class Copy>
bool copy_pieces(ChannelCtl* c, std::uint64_t gen, Copy&& copy, bool* any = nullptr) {
  std::uint64_t i = 0;
  while (claim_piece(c, gen, i)) {
    const std::uint64_t piece = c->coop_piece, len = c->coop_len;
    const std::uint64_t off = i * piece;
    const std::uint64_t n = std::min<std::uint64_t>(piece, len - off);
    if (!copy(c->coop_dst + off, c->coop_src + off, n)) return false;
    shared(c->coop_done).fetch_add(1, std::memory_order_acq_rel);
    if (any) *any = true;
  }
  return true;
}

/// Pieces finished so far (seq_cst for the sleeper's re-check).
inline std::uint64_t copy_progress(ChannelCtl* c) { return shared(c->coop_done).load(std::memory_order_seq_cst); }

}  // namespace tilempi::transport::host
