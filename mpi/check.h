// Argument checks shared by the API entry points. Each returns true when the argument is good;
// otherwise it has already applied the error handler and stored the class in *rc.
//
// Every check runs on every message, so each is an inline test whose failure goes to a cold,
// out-of-line function that builds the message (the strings and the handler stay off the path).
#pragma once

#include <string>

#include "comm.h"
#include "datatype.h"
#include "errors.h"
#include "runtime.h"

namespace tilempi::mpi::check {

/// Whether a NULL buffer may hold data of type t. A NULL buffer is MPI_BOTTOM (mpi.h), which MPI
/// allows with any datatype (MPI-3.1 §4.1.12): the type's displacements are then addresses, as
/// MPI_Get_address gives them. What is still refused (MPI_ERR_BUFFER, as MPICH does): a NULL
/// buffer with data at its offset 0, where no data can be (every predefined type, and derived
/// types whose data starts at their origin). A type of absolute addresses never starts at 0.
inline bool bottom_ok(const Datatype& t) { return t.size == 0 || t.true_lb != 0; }
/// The detail of MPI_ERR_BUFFER for a NULL buffer with data at offset 0.
inline std::string null_buffer_why(std::size_t count) {
  return "buffer is NULL but count is " + std::to_string(count) +
         " and the datatype's data starts at offset 0 (with MPI_BOTTOM, a datatype of absolute addresses "
         "from MPI_Get_address is needed)";
}

namespace failed {
// The error paths: apply the handler, store the class in *rc. Out of line and marked cold, so
// that the inline checks above them compile to a compare and a branch.
[[gnu::cold, gnu::noinline]] inline bool initialized(const char* fn, int* rc) {
  *rc = raise(MPI_COMM_WORLD, MPI_ERR_OTHER, fn,
              runtime().finalized ? "called after MPI_Finalize" : "called before MPI_Init");
  return false;
}
[[gnu::cold, gnu::noinline]] inline Comm* comm(MPI_Comm h, const char* fn, int* rc) {
  *rc = raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn, "communicator handle " + std::to_string(h) + " is not valid");
  return nullptr;
}
[[gnu::cold, gnu::noinline]] inline bool count(const Comm& c, int n, const char* fn, int* rc) {
  *rc = raise(c.handle, MPI_ERR_COUNT, fn, "count " + std::to_string(n) + " is negative");
  return false;
}
[[gnu::cold, gnu::noinline]] inline const Datatype* type(const Comm& c, MPI_Datatype h, const Datatype* t,
                                                         const char* fn, int* rc) {
  if (!t)
    *rc = raise(c.handle, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  else
    *rc = raise(c.handle, MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
  return nullptr;
}
[[gnu::cold, gnu::noinline]] inline bool buffer(const Comm& c, int n, const char* fn, int* rc) {
  *rc = raise(c.handle, MPI_ERR_BUFFER, fn, null_buffer_why(static_cast<std::size_t>(n)));
  return false;
}
[[gnu::cold, gnu::noinline]] inline bool rank(const Comm& c, int r, const char* fn, int* rc) {
  *rc = raise(c.handle, MPI_ERR_RANK, fn,
              "rank " + std::to_string(r) + " is not in the " + (c.inter ? "remote group" : "communicator") +
                  " (size " + std::to_string(c.peer_size()) + ")");
  return false;
}
[[gnu::cold, gnu::noinline]] inline bool tag(const Comm& c, int tag, const char* fn, int* rc) {
  *rc = raise(c.handle, MPI_ERR_TAG, fn, "tag " + std::to_string(tag) + " is outside 0..MPI_TAG_UB");
  return false;
}
}  // namespace failed

inline bool initialized(const char* fn, int* rc) {
  const Runtime& rt = runtime();
  if (rt.initialized && !rt.finalized) [[likely]]
    return true;
  return failed::initialized(fn, rc);
}

inline Comm* comm(MPI_Comm h, const char* fn, int* rc) {
  if (!initialized(fn, rc)) [[unlikely]]
    return nullptr;
  if (Comm* c = comm_get(h)) [[likely]]
    return c;
  return failed::comm(h, fn, rc);
}

inline bool count(const Comm& c, int n, const char* fn, int* rc) {
  if (n >= 0) [[likely]]
    return true;
  return failed::count(c, n, fn, rc);
}

inline const Datatype* type(const Comm& c, MPI_Datatype h, const char* fn, int* rc) {
  const Datatype* t = datatype_get(h);
  if (t && t->committed) [[likely]]
    return t;
  return failed::type(c, h, t, fn, rc);
}

inline bool buffer(const Comm& c, const void* buf, int n, const Datatype& t, const char* fn, int* rc) {
  if (buf || n == 0 || bottom_ok(t)) [[likely]]
    return true;
  return failed::buffer(c, n, fn, rc);
}

/// A destination rank (MPI_PROC_NULL allowed): of the remote group on an intercommunicator.
inline bool dest(const Comm& c, int r, const char* fn, int* rc) {
  if (static_cast<unsigned>(r) < static_cast<unsigned>(c.peer_size()) || r == MPI_PROC_NULL) [[likely]]
    return true;
  return failed::rank(c, r, fn, rc);
}

/// An intracommunicator (a call the standard defines for intracommunicators only).
inline Comm* intra(MPI_Comm h, const char* fn, int* rc) {
  Comm* c = comm(h, fn, rc);
  if (c && c->inter) {
    *rc = raise(h, MPI_ERR_COMM, fn, "this call needs an intracommunicator; the communicator is an intercommunicator");
    return nullptr;
  }
  return c;
}

/// A source rank (MPI_ANY_SOURCE and MPI_PROC_NULL allowed): of the remote group on an
/// intercommunicator, whose size may differ from the local group's.
inline bool source(const Comm& c, int r, const char* fn, int* rc) {
  if (static_cast<unsigned>(r) < static_cast<unsigned>(c.peer_size()) || r == MPI_ANY_SOURCE || r == MPI_PROC_NULL)
      [[likely]]
    return true;
  return failed::rank(c, r, fn, rc);
}

constexpr int kTagUb = 0x7fffffff;

inline bool send_tag(const Comm& c, int tag, const char* fn, int* rc) {
  if (tag >= 0 && tag <= kTagUb) [[likely]]
    return true;
  return failed::tag(c, tag, fn, rc);
}

inline bool recv_tag(const Comm& c, int tag, const char* fn, int* rc) {
  if ((tag >= 0 && tag <= kTagUb) || tag == MPI_ANY_TAG) [[likely]]
    return true;
  return failed::tag(c, tag, fn, rc);
}

/// The common checks of a point-to-point buffer description; the type, or nullptr.
inline const Datatype* message_type(const Comm& c, const void* buf, int n, MPI_Datatype h, const char* fn,
                                    int* rc) {
  if (!count(c, n, fn, rc)) return nullptr;
  const Datatype* t = type(c, h, fn, rc);
  return t && buffer(c, buf, n, *t, fn, rc) ? t : nullptr;
}

inline bool message(const Comm& c, const void* buf, int n, MPI_Datatype h, const char* fn, int* rc) {
  return message_type(c, buf, n, h, fn, rc) != nullptr;
}

}  // namespace tilempi::mpi::check
