// The records a rank and the simulation engine exchange: an EngineRequest (rank -> engine) and an
// EngineEvent (engine -> rank), each two cache lines, the same whether they travel through the rings of
// the shared segment (ranks as processes) or as function arguments (ranks as contexts).
//
// Their generic slots (a, b, c, d, ...) mean what each kind's typed message says: every kind has
// one typed message in the header of its mechanism (p2p_messages.h, static_messages.h,
// offload_messages.h, remote_messages.h, migration_messages.h, rank_messages.h), whose one list
// of fields places its members in the slots (messages.h encodes and decodes by that list). Code
// outside those headers reads no generic slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tilempi/transport/transport.h"

namespace tilempi::transport::sim {

inline constexpr std::size_t kLine = 64;

/// A rank's state, as the engine records it (and, ranks as processes, in its control words).
enum RankState : std::uint32_t {
  kRunning = 0,   ///< may post requests at times >= clock
  kBlocked = 1,   ///< waits for an event; the engine wakes it
  kFinished = 2,  ///< finalized or exited
};

// The kinds are numbered by their order (no explicit values), so two kinds cannot share a number;
// a new kind goes last, before the count, and keeps the older numbers as they were. Each kind's
// fields: its typed message (the header named beside it).
enum ReqKind : std::uint32_t {
  kReqSend = 1,      ///< SendRequest (p2p_messages.h)
  kReqFetch,         ///< FetchRequest (p2p_messages.h)
  kReqBlock,         ///< BlockRequest (rank_messages.h)
  kReqFinish,        ///< FinishRequest (rank_messages.h)
  kReqStatic,        ///< StaticRequest (static_messages.h)
  kReqNote,          ///< NoteRequest (rank_messages.h)
  kReqOffload,       ///< OffloadRequest (offload_messages.h)
  kReqStaticCopied,  ///< StaticCopiedRequest (static_messages.h)
  kReqRemote,        ///< RemoteRequest (remote_messages.h)
  kReqMigrate,       ///< MigrateRequest (migration_messages.h)
  kReqKinds,         ///< one past the last kind
};

struct alignas(kLine) EngineRequest {
  std::uint32_t kind;
  std::uint32_t pad_;
  std::uint64_t time;   ///< core cycle of the call
  std::uint64_t msg;    ///< message id (send: assigned by the rank)
  std::uint64_t a, b, c, d;
  std::uint64_t op;     ///< the rank's operation id to complete
  Envelope env;
  std::uint64_t e, f, g;
};
static_assert(sizeof(EngineRequest) == 2 * kLine);
// Numbered by their order, as the request kinds are.
enum EvtKind : std::uint32_t {
  kEvArrival = 1,  ///< ArrivalEvent (p2p_messages.h)
  kEvSendDone,     ///< DoneEvent (p2p_messages.h): a send, a one-sided operation or a migration request completed
  kEvDataDone,     ///< DataDoneEvent (p2p_messages.h)
  kEvRelease,      ///< ReleaseEvent (p2p_messages.h)
  kEvStatic,       ///< StaticEvent (static_messages.h)
  kEvWake,         ///< (unused since version 5; keeps the numbers of the kinds after it)
  kEvOffload,      ///< OffloadEvent (offload_messages.h)
  kEvOffloadPart,  ///< OffloadPartEvent (offload_messages.h)
  kEvServed,       ///< CoreTakenEvent (rank_messages.h): the rank's core served a one-sided operation or the OS
  kEvMigrated,     ///< MigratedEvent (migration_messages.h)
  kEvKinds,        ///< one past the last kind (a rank's own local kinds start above it)
};

struct alignas(kLine) EngineEvent {
  std::uint32_t kind;
  std::uint32_t pad_;
  std::uint64_t time;         ///< cycle at which the rank may see it
  std::uint64_t core_cycles;  ///< handler cycles taken from the rank's core
  std::uint64_t msg;
  std::uint64_t op;
  std::uint64_t a, b, c;
  std::uint64_t d;
  Envelope env;
  std::uint64_t e, f;
};
static_assert(sizeof(EngineEvent) == 2 * kLine);

}  // namespace tilempi::transport::sim
