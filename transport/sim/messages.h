// The typed messages of the rank-engine protocol (wire.h has the records): how a message is
// encoded and decoded, the one way for every kind, and the context a request is decoded in.
//
// A message is a plain struct of named members that says, once, its record, its kind and where
// each member goes in the record:
//
//   static constexpr auto kWire = wire<EngineRequest, kReqSend>(slot(&M::dst, &EngineRequest::a), flag(&M::sync, &EngineRequest::d, 0), ...);
//
// encode(m) and decode<M>(record) follow that list; nothing else reads or writes a record's slots.
//
// A request comes from a rank's memory, with ranks as processes from shared memory that a faulty
// program can overwrite: a request that the engine indexes with (a rank, an arena offset, a
// count) has a check(record, context) that decode() runs first, turning a bad field into
// MalformedRequest, which ends the job with a message instead of reading out of bounds (found by
// fuzz/fuzz_sim_requests.cpp). Validation is thus part of decoding: nothing the engine uses is
// left undecoded.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "sim/wire.h"

namespace tilempi::transport::sim {

class MalformedRequest : public std::runtime_error {
 public:
  MalformedRequest(int rank, std::uint32_t kind, const std::string& what)
      : std::runtime_error("rank " + std::to_string(rank) + " posted a malformed request (kind " +
                           std::to_string(kind) + "): " + what) {}
};

/// The kinds of MPI call a rank may name (a request's `kind`: energy_account.h); more are named 0.
inline constexpr std::uint64_t kCallKinds = std::uint64_t{1} << 16;

/// Where a request is decoded: who posted it and what it may name.
struct DecodeContext {
  int rank = 0;  ///< the rank that posted it
  int nranks = 0;
  std::uint64_t arena_bytes = 0;                              ///< each rank's payload arena
  const unsigned char* (*arena)(const void*, int) = nullptr;  ///< rank r's arena
  const void* arena_owner = nullptr;

  bool is_rank(std::uint64_t r) const { return r < static_cast<std::uint64_t>(nranks); }
  /// A request's call kind, checked: the engine sizes its tables by it.
  void check_call_kind(const EngineRequest& q, std::uint64_t kind) const {
    if (kind >= kCallKinds) bad(q, "call kind " + std::to_string(kind) + " (at most " + std::to_string(kCallKinds - 1) + ")");
  }
  const unsigned char* arena_of(int r) const { return arena(arena_owner, r); }
  /// [off, off + len) lies inside an arena.
  bool in_arena(std::uint64_t off, std::uint64_t len) const { return off <= arena_bytes && arena_bytes - off >= len; }
  [[noreturn]] void bad(const EngineRequest& q, const std::string& what) const { throw MalformedRequest(rank, q.kind, what); }
};

/// A member of message M kept in a slot of record R.
template <class M, class T, class R, class S>
struct Field {
  T M::*member;
  S R::*slot;
  void put(const M& m, R& r) const { r.*slot = static_cast<S>(m.*member); }
  void get(const R& r, M& m) const { m.*member = static_cast<T>(r.*slot); }
};
/// A flag of message M kept in one bit of a slot of record R (beside other flags).
template <class M, class R, class S>
struct Flag {
  bool M::*member;
  S R::*slot;
  int bit;
  void put(const M& m, R& r) const { r.*slot |= static_cast<S>(m.*member ? 1 : 0) << bit; }
  void get(const R& r, M& m) const { m.*member = ((r.*slot >> bit) & 1) != 0; }
};
template <class M, class T, class R, class S>
constexpr Field<M, T, R, S> slot(T M::*member, S R::*slot) {
  return {member, slot};
}
template <class M, class R, class S>
constexpr Flag<M, R, S> flag(bool M::*member, S R::*slot, int bit) {
  return {member, slot, bit};
}

/// A message's place on the wire: its record (EngineRequest or EngineEvent), its kind, and where each of its
/// members goes (the fields).
template <class R, std::uint32_t Kind, class... F>
struct Wire {
  using Record = R;
  static constexpr std::uint32_t kKind = Kind;
  std::tuple<F...> fields;
};
template <class R, std::uint32_t Kind, class... F>
constexpr Wire<R, Kind, F...> wire(F... fields) {
  return {std::tuple<F...>{fields...}};
}

/// Message m as its record, by its list of fields.
template <class M>
auto encode(const M& m) {
  using W = std::remove_cvref_t<decltype(M::kWire)>;
  typename W::Record r{};
  r.kind = W::kKind;
  std::apply([&](const auto&... f) { (f.put(m, r), ...); }, M::kWire.fields);
  return r;
}

/// The event e as message M (the caller has looked at e.kind).
template <class M>
M decode(const EngineEvent& e) {
  M m{};
  std::apply([&](const auto&... f) { (f.get(e, m), ...); }, M::kWire.fields);
  return m;
}

/// The request q as message M, checked (where M has a check) as one rank cx.rank may post.
template <class M>
M decode(const EngineRequest& q, const DecodeContext& cx) {
  if constexpr (requires { M::check(q, cx); }) M::check(q, cx);
  M m{};
  std::apply([&](const auto&... f) { (f.get(q, m), ...); }, M::kWire.fields);
  return m;
}

}  // namespace tilempi::transport::sim
