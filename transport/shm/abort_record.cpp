#include "shm/abort_record.h"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace tilempi::transport::shm {

bool record_abort(AbortWords& w, int rank, int code, const char* why) {
  std::uint32_t expected = 0;
  if (!std::atomic_ref<std::uint32_t>(w.state).compare_exchange_strong(expected, 1, std::memory_order_acq_rel))
    return false;
  w.rank = rank;
  w.code = code;
  std::snprintf(w.why, sizeof w.why, "%s", why ? why : "");
  std::atomic_ref<std::uint32_t>(w.state).store(2, std::memory_order_release);
  return true;
}

bool abort_started(const AbortWords& w) {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(w.state)).load(std::memory_order_acquire) != 0;
}

bool read_abort(const AbortWords& w, AbortRecord& out) {
  if (std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(w.state)).load(std::memory_order_acquire) != 2)
    return false;
  out.rank = w.rank;
  out.code = w.code;
  out.why.assign(w.why, strnlen(w.why, sizeof w.why));
  return true;
}

}  // namespace tilempi::transport::shm
