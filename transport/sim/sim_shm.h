// The sim transport's shared-memory segment, laid out the same way by the launcher (engine)
// and by every rank:
//
//   [Header][tile of each rank x N][RankCtl x N][request rings x N][event rings x N][payload arenas x N]
//
// Ranks as contexts share only the header and the tile table with the launcher (their rings and
// arenas live in the simulator process).
//
// Requests go rank -> engine (single producer, single consumer per rank); events go engine ->
// rank (their records: wire.h). Payloads never pass through the engine: a sender copies them into its own arena, the
// receiver copies them out, and the engine only tells, in virtual time, when that may happen.
// Shared words are plain integers accessed through std::atomic_ref.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "shm/abort_record.h"
#include "shm/futex.h"
#include "shm/segment.h"
#include "sim/wire.h"

namespace tilempi::transport::sim {

inline constexpr std::uint64_t kMagic = 0x74696c656d73696dull;  // "tilemsim"
inline constexpr std::uint32_t kVersion = 9;
inline constexpr std::size_t kPage = 4096;
inline constexpr std::uint64_t kRing = 4096;  ///< entries per request / event ring (power of two)

template <class T>
inline std::atomic_ref<T> shared(T& word) {
  return std::atomic_ref<T>(word);
}

struct RankCtl {
  // written by the rank
  alignas(kLine) std::uint64_t clock;       ///< lower bound of the time of any future request
  alignas(kLine) std::uint64_t req_head;    ///< requests posted
  std::uint64_t evt_tail;                   ///< events consumed
  alignas(kLine) std::uint64_t want_horizon;  ///< sleeping until horizon >= this (0: not)
  std::uint32_t describe_ack;
  std::int32_t pid;
  std::uint32_t finalized;                  ///< 1 once the rank has been through MPI_Finalize
  // written by the engine
  alignas(kLine) std::uint64_t req_tail;    ///< requests taken
  std::uint64_t evt_head;                   ///< events published
  alignas(kLine) std::uint32_t state;       ///< RankState (rank: running->blocked via request; engine: ->running)
  std::uint32_t bell;                       ///< futex: bumped whenever the engine wants the rank to look
  std::uint64_t wake_clock;                 ///< the clock a blocked rank resumes at
  std::uint32_t describe_req;               ///< bumped by the engine: write your pending operations
  std::uint32_t exited;                     ///< the launcher saw the process end
  char describe[2048];                      ///< the rank's pending operations (deadlock report)
};

struct alignas(kPage) Header {
  std::uint64_t magic;
  std::uint32_t version;
  std::int32_t nranks;
  std::uint64_t arena_bytes;   ///< per rank
  std::uint64_t total_bytes;
  std::uint64_t horizon;       ///< every event up to this cycle is published (engine)
  std::uint32_t engine_bell;   ///< futex: ranks bump it when the engine sleeps
  std::uint32_t engine_sleeping;
  std::uint64_t bottleneck;    ///< smallest running clock the engine waits on
  std::uint32_t dead;          ///< the engine ended the job (deadlock): ranks exit
  std::uint32_t attached;
  std::uint32_t unlinked;
  shm::AbortWords abort;       ///< first writer wins (shm/abort_record.h)
  char name[128];
  std::uint32_t config_len;
  char config[32768];          ///< hwmodel::Config::to_text() of the job
  char adapter[32];
  std::uint32_t compute_scaled;  ///< 1: charge measured CPU time
  double compute_scale;
  std::uint32_t compute_model;   ///< 1: --compute model: a rank whose program counts its operations is charged them
  char migrations[1024];       ///< tilempirun --migrate orders, "R:T@C" separated by commas
  // Ranks as contexts: the launcher describes the job, the simulator process runs it.
  std::uint32_t contexts;       ///< 1: one simulator process hosts every rank (no rings, no arenas here)
  std::uint32_t stack_kib;      ///< each rank's stack
  std::uint32_t summary;        ///< print the summary line
  std::uint32_t progress;       ///< print a progress line every few seconds (sim.progress)
  char report_path[1024];
  char trace_path[1024];
  char compute[160];            ///< --compute as given, or for `model` the ratio line of core_model.h
  std::uint32_t failure_state;  ///< 0 none, 1 writing, 2 written: the simulator process failed the job
  char failure[16384];          ///< why (e.g. the deadlock report), printed by the launcher
};

struct Geometry {
  std::uint64_t header_bytes, tiles_bytes, ctl_bytes, req_bytes, evt_bytes, arena_bytes, total_bytes;
  std::uint64_t ctl_off, req_off, evt_off, arena_off;
};

inline std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

/// The header and the tile table: all a job of ranks as contexts puts in the segment.
inline std::uint64_t header_and_tiles_bytes(int nranks) {
  return round_up(sizeof(Header), kPage) + round_up(static_cast<std::uint64_t>(nranks) * sizeof(std::int32_t), kPage);
}

/// The chip tile of each rank (the one placement, sim/placement.h), nranks entries right after
/// the header: sized by the job, so the rank count has no limit of the segment's layout.
inline std::int32_t* tile_table(Header* h) {
  return reinterpret_cast<std::int32_t*>(reinterpret_cast<unsigned char*>(h) + round_up(sizeof(Header), kPage));
}
inline const std::int32_t* tile_table(const Header* h) { return tile_table(const_cast<Header*>(h)); }

/// with_rings false: the header and the tile table only (ranks as contexts).
inline Geometry make_geometry(int nranks, std::uint64_t arena_bytes, bool with_rings = true) {
  const std::uint64_t n = static_cast<std::uint64_t>(nranks);
  Geometry g{};
  g.header_bytes = round_up(sizeof(Header), kPage);
  g.tiles_bytes = header_and_tiles_bytes(nranks) - g.header_bytes;
  g.ctl_off = g.header_bytes + g.tiles_bytes;
  if (!with_rings) {
    g.req_off = g.evt_off = g.arena_off = g.total_bytes = g.ctl_off;
    return g;
  }
  g.ctl_bytes = round_up(sizeof(RankCtl), kLine);
  g.req_bytes = kRing * sizeof(EngineRequest);
  g.evt_bytes = kRing * sizeof(EngineEvent);
  g.arena_bytes = round_up(arena_bytes, kPage);
  g.req_off = round_up(g.ctl_off + n * g.ctl_bytes, kPage);
  g.evt_off = g.req_off + n * g.req_bytes;
  g.arena_off = round_up(g.evt_off + n * g.evt_bytes, kPage);
  g.total_bytes = g.arena_off + n * g.arena_bytes;
  return g;
}

struct Segment {
  unsigned char* base = nullptr;
  std::size_t bytes = 0;
  Geometry g{};

  Header* header() const { return reinterpret_cast<Header*>(base); }
  RankCtl* ctl(int r) const { return reinterpret_cast<RankCtl*>(base + g.ctl_off + g.ctl_bytes * static_cast<std::uint64_t>(r)); }
  EngineRequest* req(int r) const { return reinterpret_cast<EngineRequest*>(base + g.req_off + g.req_bytes * static_cast<std::uint64_t>(r)); }
  EngineEvent* evt(int r) const { return reinterpret_cast<EngineEvent*>(base + g.evt_off + g.evt_bytes * static_cast<std::uint64_t>(r)); }
  unsigned char* arena(int r) const { return base + g.arena_off + g.arena_bytes * static_cast<std::uint64_t>(r); }
};

// Shared with the host transport (transport/shm/).
using shm::futex_wait;
inline void futex_wake(std::uint32_t* word) { shm::futex_wake_all(word); }
inline bool record_abort(Header* h, int rank, int code, const char* why) {
  return shm::record_abort(h->abort, rank, code, why);
}

}  // namespace tilempi::transport::sim
