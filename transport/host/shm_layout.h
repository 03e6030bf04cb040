// The host transport's shared-memory segment: one POSIX shm object per job, laid out the same
// way by the launcher (which creates it) and by every rank (which attach to it).
//
//   [Header][RankSlot x N][description x N]      page-aligned, the launcher maps only this part
//   [Block of receiver 0][Block of receiver 1]... one page-aligned block per receiving rank
//   Block r = Channel(0->r) Channel(1->r) ... Channel(N-1->r)
//   Channel s->r = [control lines][data ring][ctrl ring][arena]
//
// Everything a receiver reads in its hot loop lives in its own block, so the block can be bound
// to the receiver's NUMA node. Shared words are plain integers accessed through std::atomic_ref.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shm/abort_record.h"
#include "tilempi/transport/transport.h"

namespace tilempi::transport::host {

inline constexpr std::uint64_t kMagic = 0x74696c656d706931ull;  // "tilempi1"
inline constexpr std::uint32_t kLayoutVersion = 3;
inline constexpr std::size_t kLine = 64;
inline constexpr std::size_t kPage = 4096;

template <class T>
inline std::atomic_ref<T> shared(T& word) {
  return std::atomic_ref<T>(word);
}

/// Sizes derived from the number of ranks; stored in the header so ranks never disagree.
struct Geometry {
  std::uint64_t ring_bytes = 0;     ///< eager data ring per channel (power of two, multiple of kLine)
  std::uint64_t ctrl_slots = 0;     ///< control ring entries per channel (one line each)
  std::uint64_t arena_chunk = 0;    ///< bytes per arena chunk (copy-through fallback for large messages)
  std::uint64_t arena_chunks = 0;   ///< chunks per channel arena
  std::uint64_t eager_max = 0;      ///< largest payload sent eagerly
  std::uint64_t channel_bytes = 0;  ///< one channel, page-aligned
  std::uint64_t block_bytes = 0;    ///< one receiver's block (nranks channels)
  std::uint64_t header_bytes = 0;   ///< header + rank slots + descriptions, page-aligned
  std::uint64_t total_bytes = 0;
};

inline constexpr std::uint64_t kChannelCtlBytes = 8 * kLine;

inline std::uint64_t pow2_floor(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}
inline std::uint64_t clamp_u64(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
inline std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

/// A rank's doorbell and what the launcher may know of it. The words after heavy_fence are
/// written only when the rank goes to sleep or has finished (never per message): the launcher
/// reads them to tell a job that can make no progress (host_job.cpp), and asks a waiting rank
/// for its pending operations through describe_req/describe_ack (the text goes to the rank's
/// description, Segment::description).
struct alignas(kLine) RankSlot {
  std::uint32_t bell;      ///< futex word: bumped by whoever wakes this rank
  std::uint32_t sleeping;  ///< 1 while the rank is (about to be) asleep on bell
  std::int32_t pid;        ///< set when the rank attaches (cross-memory attach needs it)
  std::uint32_t attached;
  std::uint32_t heavy_fence;  ///< 1: the rank fences every registered writer before it sleeps (waiting.h)
  std::uint32_t finalized;    ///< 1 once the rank has been through MPI_Finalize
  std::uint32_t describe_req;  ///< bumped by the launcher (then it rings bell): describe what you wait for
  std::uint32_t describe_ack;  ///< set to describe_req by the rank once its description is written
  std::uint64_t idle_since;    ///< CLOCK_MONOTONIC ns: start of the rank's current stretch of waiting with
                               ///< nothing to do (0: none yet), as of its last sleep
  std::uint64_t naps;          ///< sleeps taken in waits so far: moves while a waiting rank sleeps
  std::uint32_t nap_bell;      ///< bell as the rank's last sleep began: a wake-up since moves bell
  std::uint8_t pad_[kLine - 52];
};
static_assert(sizeof(RankSlot) == kLine);

/// Bytes of a rank's description of its pending operations (with the terminating NUL).
inline constexpr std::size_t kDescriptionBytes = 2048;

struct alignas(kPage) Header {
  std::uint64_t magic;
  std::uint32_t version;
  std::int32_t nranks;
  Geometry geometry;
  std::int32_t launcher_pid;
  std::uint32_t attached;      ///< ranks attached so far; the last one unlinks the name
  std::uint32_t unlinked;
  shm::AbortWords abort;       ///< first writer wins (shm/abort_record.h)
  char name[128];
};

/// The first line of every eager-ring record. The payload starts right after the header fields
/// (kSlotPayloadOffset) and runs on into the following lines, so one memcpy writes it.
struct alignas(kLine) SlotHeader {
  std::uint64_t seq;         ///< absolute line position + 1; written last (release), polled by the receiver
  std::uint32_t kind_lines;  ///< kind in the low 8 bits, record length in lines above
  std::uint32_t len;         ///< payload bytes of this record
  Envelope envelope;
};
inline constexpr std::size_t kSlotPayloadOffset = offsetof(SlotHeader, envelope) + sizeof(Envelope);
static_assert(kSlotPayloadOffset == 48);

enum SlotKind : std::uint32_t {
  kSlotPad = 1,    ///< skip to the ring's start
  kSlotEager = 2,  ///< payload follows
  kSlotRts = 3,    ///< rendezvous request: RtsBody follows
};

struct RtsBody {
  std::uint64_t size;     ///< message bytes
  std::uint64_t addr;     ///< sender's buffer (in the sender's address space)
  std::uint64_t send_id;  ///< sender's operation, echoed in CTS/FIN
};

/// A control-ring entry (receiver -> sender answers to rendezvous requests).
struct alignas(kLine) CtrlSlot {
  std::uint64_t seq;  ///< position + 1, written last
  std::uint32_t kind;
  std::uint32_t pad_;
  std::uint64_t send_id;
  std::uint64_t bytes;
};
enum CtrlKind : std::uint32_t {
  kCtrlFin = 1,  ///< receiver pulled the data itself: the send is complete
  kCtrlCts = 2,  ///< receiver matched: stream `bytes` through the arena
  kCtrlHelp = 3, ///< receiver started a shared copy of generation `bytes`: claim pieces too
};

/// coop_claim: generation (24 bits) | pieces (20 bits) | next unclaimed piece (20 bits), so one
/// compare-and-swap both checks that the copy is still the one announced and claims a piece.
struct CoopWord {
  static constexpr std::uint64_t kBits = 20;
  static constexpr std::uint64_t kMask = (1ull << kBits) - 1;
  static std::uint64_t make(std::uint64_t gen, std::uint64_t pieces, std::uint64_t next) {
    return (gen << (2 * kBits)) | (pieces << kBits) | next;
  }
  static std::uint64_t gen(std::uint64_t w) { return w >> (2 * kBits); }
  static std::uint64_t pieces(std::uint64_t w) { return (w >> kBits) & kMask; }
  static std::uint64_t next(std::uint64_t w) { return w & kMask; }
};

/// Per-channel words, each on its own line (written by different sides).
struct ChannelCtl {
  alignas(kLine) std::uint64_t tail;        ///< receiver: data-ring lines released
  alignas(kLine) std::uint64_t ctrl_tail;   ///< receiver of ctrl entries: entries released
  alignas(kLine) std::uint32_t space_wait;  ///< sender: waiting for ring space, wake me
  alignas(kLine) std::uint64_t produced;    ///< sender: end of the last arena piece filled (bytes)
  alignas(kLine) std::uint64_t consumed;    ///< receiver: end of the last arena piece emptied (bytes)
  // A large copy shared by both sides (see CoopWord): the receiver pulls pieces with
  // process_vm_readv while the sender pushes others with process_vm_writev.
  alignas(kLine) std::uint64_t coop_claim;  ///< CoopWord, claimed piece by piece (CAS)
  std::uint64_t coop_dst;                   ///< receiver's buffer
  std::uint64_t coop_src;                   ///< sender's buffer
  std::uint64_t coop_len;
  std::uint64_t coop_piece;
  alignas(kLine) std::uint64_t coop_done;   ///< pieces finished in the current generation
};
static_assert(sizeof(ChannelCtl) <= kChannelCtlBytes);

inline Geometry make_geometry(int nranks) {
  Geometry g;
  const std::uint64_t n = static_cast<std::uint64_t>(nranks);
  const std::uint64_t pairs = n * n;
  // Budgets are virtual: tmpfs only backs the pages a job actually touches.
  g.ring_bytes = clamp_u64(pow2_floor((64ull << 20) / pairs), 16ull << 10, 256ull << 10);
  g.ctrl_slots = 64;
  g.arena_chunk = 64ull << 10;
  const std::uint64_t arena = clamp_u64(pow2_floor((256ull << 20) / pairs), 128ull << 10, 1ull << 20);
  g.arena_chunks = arena / g.arena_chunk;
  // 32 KiB: measured against 16 and 64 KiB on the development VM (docs/HOST_TRANSPORT.md): the
  // two copies through the ring beat a rendezvous up to 32 KiB, not at 64 KiB.
  g.eager_max = clamp_u64(g.ring_bytes / 4 - kSlotPayloadOffset, 1024, 32ull << 10);
  g.channel_bytes =
      round_up(kChannelCtlBytes + g.ring_bytes + g.ctrl_slots * kLine + arena, kPage);
  g.block_bytes = g.channel_bytes * n;
  g.header_bytes = round_up(sizeof(Header) + n * (sizeof(RankSlot) + kDescriptionBytes), kPage);
  g.total_bytes = g.header_bytes + g.block_bytes * n;
  return g;
}

/// Pointers into a mapped segment.
struct Segment {
  unsigned char* base = nullptr;
  std::size_t bytes = 0;

  Header* header() const { return reinterpret_cast<Header*>(base); }
  RankSlot* rank_slot(int r) const {
    return reinterpret_cast<RankSlot*>(base + sizeof(Header)) + r;
  }
  char* description(int r) const {
    return reinterpret_cast<char*>(base + sizeof(Header) + static_cast<std::size_t>(header()->nranks) * sizeof(RankSlot)) +
           kDescriptionBytes * static_cast<std::size_t>(r);
  }
  unsigned char* channel(int sender, int receiver) const {
    const Geometry& g = header()->geometry;
    return base + g.header_bytes + g.block_bytes * static_cast<std::uint64_t>(receiver) +
           g.channel_bytes * static_cast<std::uint64_t>(sender);
  }
  unsigned char* block(int receiver) const {
    const Geometry& g = header()->geometry;
    return base + g.header_bytes + g.block_bytes * static_cast<std::uint64_t>(receiver);
  }
};

}  // namespace tilempi::transport::host
