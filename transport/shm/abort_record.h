// The abort record both transports keep in their segment's header: the first rank to abort
// writes who, with which code and why; the launcher reads it once the ranks have ended.
#pragma once

#include <cstdint>

#include "tilempi/transport/job.h"

namespace tilempi::transport::shm {

/// Lives in shared memory. state: 0 empty -> 1 being written -> 2 complete.
struct AbortWords {
  std::uint32_t state;
  std::int32_t rank;
  std::int32_t code;
  char why[1024];
};

/// Records the first abort of the job (a compare-and-swap on state, then the fields, then a
/// release store of "complete"); false when another rank got there first.
bool record_abort(AbortWords& w, int rank, int code, const char* why);

/// Whether any rank started to record an abort (complete or not).
bool abort_started(const AbortWords& w);

/// The complete record, if there is one.
bool read_abort(const AbortWords& w, AbortRecord& out);

}  // namespace tilempi::transport::shm
