// What every typed message of the rank-engine protocol shares (wire.h has the records): the
// context a request is decoded in, and the error a malformed one raises.
//
// A request comes from a rank's memory, with ranks as processes from shared memory that a faulty
// program can overwrite: decoding checks every field the engine will index with (a rank, an arena
// offset, a count) and turns a bad one into MalformedRequest, which ends the job with a message
// instead of reading out of bounds (found by fuzz/fuzz_sim_requests.cpp). Validation is thus a
// by-product of decoding: a field that is never decoded is never used.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/wire.h"

namespace tilempi::transport::sim {

class MalformedRequest : public std::runtime_error {
 public:
  MalformedRequest(int rank, std::uint32_t kind, const std::string& what)
      : std::runtime_error("rank " + std::to_string(rank) + " posted a malformed request (kind " +
                           std::to_string(kind) + "): " + what) {}
};

/// Where a request is decoded: who posted it and what it may name.
struct DecodeContext {
  int rank = 0;    ///< the rank that posted it
  int nranks = 0;
  std::uint64_t arena_bytes = 0;                 ///< each rank's payload arena
  const unsigned char* (*arena)(const void*, int) = nullptr;  ///< rank r's arena
  const void* arena_owner = nullptr;

  bool is_rank(std::uint64_t r) const { return r < static_cast<std::uint64_t>(nranks); }
  const unsigned char* arena_of(int r) const { return arena(arena_owner, r); }
  /// [off, off + len) lies inside an arena.
  bool in_arena(std::uint64_t off, std::uint64_t len) const { return off <= arena_bytes && arena_bytes - off >= len; }
  [[noreturn]] void bad(const Request& q, const std::string& what) const { throw MalformedRequest(rank, q.kind, what); }
};

/// A request record of kind K at cycle `time`, its other fields zero.
inline Request request_of(std::uint32_t kind, std::uint64_t time) {
  Request q{};
  q.kind = kind;
  q.time = time;
  return q;
}
/// An event record of kind K at cycle `time`, its other fields zero.
inline Event event_of(std::uint32_t kind, std::uint64_t time) {
  Event e{};
  e.kind = kind;
  e.time = time;
  return e;
}

}  // namespace tilempi::transport::sim
