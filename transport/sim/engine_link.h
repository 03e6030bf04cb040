// How a rank of the sim transport talks to the simulation engine. The rank's logic
// (sim_rank.h: clocks, events, operations, the payload arena) is the same whichever way
// the ranks run; only this link differs:
//  - ranks as processes (shm_link.cpp): requests and events travel through rings in a shared
//    segment, the engine is a thread of the launcher, waiting is a futex sleep;
//  - ranks as contexts (context_job.cpp): the engine lives in the same process and thread,
//    requests are function calls, and waiting is a switch back to the scheduler.
#pragma once

#include <dlfcn.h>
#include <time.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/sim_shm.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/transport/transport.h"

namespace tilempi::transport::sim {

/// What every rank needs to know about the job.
struct JobFacts {
  std::string config_text;  ///< hwmodel::Config::to_text() of the chip
  std::string adapter;
  bool compute_scaled = false;  ///< --compute scale:F
  double compute_scale = 0;
  bool compute_model = false;  ///< --compute model: counted operations where the program has them
  std::vector<std::int32_t> tiles;  ///< chip tile of each rank (sim/placement.h)
};

/// The job's chip, from its facts: one parser (Config::apply_text) and one error behaviour for
/// every reader (the launcher validated the text; a key this library does not know is an error
/// that names it, as for any config).
inline hwmodel::Config chip_config(const JobFacts& f) {
  hwmodel::Config cfg;
  cfg.apply_text(f.config_text, "the job's chip configuration");
  return cfg;
}

/// The facts as the launcher wrote them into the job's header (and the tile table after it).
inline JobFacts facts_of(const Header& h) {
  JobFacts f;
  f.config_text.assign(h.config, h.config_len);
  f.adapter = h.adapter;
  f.compute_scaled = h.compute_scaled != 0;
  f.compute_scale = h.compute_scale;
  f.compute_model = h.compute_model != 0;
  f.tiles.assign(tile_table(&h), tile_table(&h) + h.nranks);
  return f;
}

/// Takes a rank's events where the engine publishes them (EngineLink::deliver_to).
class EventSink {
 public:
  virtual void take(const EngineEvent& e) = 0;

 protected:
  ~EventSink() = default;
};

class EngineLink {
 public:
  virtual ~EngineLink() = default;

  virtual const JobFacts& facts() const = 0;
  /// Rank r's payload arena: a sender copies its message there, the receiver copies it out.
  virtual unsigned char* arena(int r) const = 0;
  virtual std::uint64_t arena_bytes() const = 0;
  virtual std::uint64_t initial_clock() const = 0;

  /// Hands a request to the engine (never blocks for long).
  virtual void post(const EngineRequest& q) = 0;
  /// Every event up to this cycle has been published to the rank.
  virtual std::uint64_t horizon() const = 0;
  /// Appends the events published since the last call, in publication order.
  virtual void take_events(std::vector<EngineEvent>& into) = 0;
  /// The events published and not taken yet, when they wait in this process's memory and can
  /// only change while the rank is switched out (ranks as contexts): the rank then looks at it
  /// instead of calling take_events in its completion loops. nullptr: events may come at any
  /// time (ranks as processes).
  virtual const std::vector<EngineEvent>* local_inbox() const { return nullptr; }
  /// The rank took every event of local_inbox() where it lies (instead of by take_events, which
  /// would copy them once more): they are gone from it.
  virtual void clear_local_inbox() {}
  /// Ranks as contexts: the engine hands each event, as it publishes it, straight to `sink` (the
  /// rank's own queue) instead of leaving it in local_inbox(); null stops that. Returns whether
  /// the link does so (then nothing comes through the inbox once it is empty). Events only come
  /// while the rank is switched out, as with the inbox.
  virtual bool deliver_to(EventSink* sink) {
    (void)sink;
    return false;
  }
  /// The rank's clock: every request it will still post has a time >= clock.
  virtual void publish_clock(std::uint64_t clock) = 0;
  /// Returns once horizon() >= t (the rank's clock, published, is <= t).
  virtual void sync_to(std::uint64_t t) = 0;
  /// Posts the BLOCK request q and returns when the engine wakes the rank: the clock to resume at.
  virtual std::uint64_t block(const EngineRequest& q) = 0;
  /// Returns only if the job still runs.
  virtual void check_dead() = 0;
  /// Ends the whole job: the launcher learns rank, code and why.
  [[noreturn]] virtual void abort(int rank, int code, const std::string& why) = 0;
  /// The MPI call the rank entered last (named when the rank crashes).
  virtual void note_call(const char* call) { (void)call; }
  /// The rank has been through MPI_Finalize. Ranks as processes: the launcher reads it when the
  /// process exits (Job::rank_finalized); ranks as contexts: the engine's own record says so.
  virtual void finalized() {}
  /// What the rank waits for, asked when the engine reports a deadlock.
  virtual void set_describer(std::function<std::string()> describe) = 0;

  /// The rank's program's operation counter (apps/opcount: [0] integer, [1] floating-point
  /// operations), or null if the program does not count. A rank process has one program: its
  /// counter is the one the process exports.
  virtual const volatile unsigned long long* op_counts() const {
    return static_cast<const volatile unsigned long long*>(::dlsym(RTLD_DEFAULT, "tilempi_op_counts"));
  }
  /// The operation counter that the program's counted shared libraries add to when they serve
  /// every rank (ranks as contexts: one copy of each library, bound to the simulator's counter),
  /// or null when each rank's libraries count into the rank's own counter (a rank process).
  virtual const volatile unsigned long long* shared_op_counts() const { return nullptr; }

  /// The clock that measures the application's compute between two MPI calls (--compute
  /// scale:F), in nanoseconds. By default the process's CPU time: a rank process shares the
  /// cores with the others, so only CPU time is its own. (A system call, 0.3-1.5 us here.)
  virtual std::uint64_t compute_clock_ns() const {
    timespec ts;
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
  }

  /// One-sided access: copy len bytes between local and address addr of rank r's memory (write:
  /// local -> remote). Ranks as contexts share one address space: a plain copy.
  virtual void copy_remote(int r, std::uint64_t addr, void* local, std::size_t len, bool write) {
    (void)r;
    if (write) std::memcpy(reinterpret_cast<void*>(addr), local, len);
    else std::memcpy(local, reinterpret_cast<const void*>(addr), len);
  }

  /// Hand-off counts (TILEMPI_SIM_PROFILE): waits for the horizon, and sleeps among them.
  virtual std::uint64_t horizon_waits() const { return 0; }
  virtual std::uint64_t horizon_sleeps() const { return 0; }
};

/// The rank side of the sim transport over a link.
std::unique_ptr<Transport> make_sim_transport(std::unique_ptr<EngineLink> link, int rank, int size);

}  // namespace tilempi::transport::sim
