// Argument checks shared by the API entry points. Each returns true when the argument is good;
// otherwise it has already applied the error handler and stored the class in *rc.
#pragma once

#include <string>

#include "comm.h"
#include "datatype.h"
#include "errors.h"
#include "runtime.h"

namespace tilempi::mpi::check {

inline bool initialized(const char* fn, int* rc) {
  const Runtime& rt = runtime();
  if (rt.initialized && !rt.finalized) return true;
  *rc = raise(MPI_COMM_WORLD, MPI_ERR_OTHER, fn,
              rt.finalized ? "called after MPI_Finalize" : "called before MPI_Init");
  return false;
}

inline Comm* comm(MPI_Comm h, const char* fn, int* rc) {
  if (!initialized(fn, rc)) return nullptr;
  Comm* c = comm_get(h);
  if (!c) *rc = raise(MPI_COMM_WORLD, MPI_ERR_COMM, fn, "communicator handle " + std::to_string(h) + " is not valid");
  return c;
}

inline bool count(const Comm& c, int n, const char* fn, int* rc) {
  if (n >= 0) return true;
  *rc = raise(c.handle, MPI_ERR_COUNT, fn, "count " + std::to_string(n) + " is negative");
  return false;
}

inline const Datatype* type(const Comm& c, MPI_Datatype h, const char* fn, int* rc) {
  const Datatype* t = datatype_get(h);
  if (!t) {
    *rc = raise(c.handle, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
    return nullptr;
  }
  if (!t->committed) {
    *rc = raise(c.handle, MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
    return nullptr;
  }
  return t;
}

inline bool buffer(const Comm& c, const void* buf, int n, const Datatype& t, const char* fn, int* rc) {
  if (buf || n == 0 || t.size == 0) return true;
  *rc = raise(c.handle, MPI_ERR_BUFFER, fn, "buffer is NULL but count is " + std::to_string(n));
  return false;
}

/// A destination rank (MPI_PROC_NULL allowed).
inline bool dest(const Comm& c, int r, const char* fn, int* rc) {
  if (r == MPI_PROC_NULL || (r >= 0 && r < c.size)) return true;
  *rc = raise(c.handle, MPI_ERR_RANK, fn,
              "rank " + std::to_string(r) + " is not in the communicator (size " + std::to_string(c.size) + ")");
  return false;
}

/// A source rank (MPI_ANY_SOURCE and MPI_PROC_NULL allowed).
inline bool source(const Comm& c, int r, const char* fn, int* rc) {
  return r == MPI_ANY_SOURCE || dest(c, r, fn, rc);
}

constexpr int kTagUb = 0x7fffffff;

inline bool send_tag(const Comm& c, int tag, const char* fn, int* rc) {
  if (tag >= 0 && tag <= kTagUb) return true;
  *rc = raise(c.handle, MPI_ERR_TAG, fn, "tag " + std::to_string(tag) + " is outside 0..MPI_TAG_UB");
  return false;
}

inline bool recv_tag(const Comm& c, int tag, const char* fn, int* rc) {
  return tag == MPI_ANY_TAG || send_tag(c, tag, fn, rc);
}

/// The common checks of a point-to-point buffer description.
inline bool message(const Comm& c, const void* buf, int n, MPI_Datatype h, const char* fn, int* rc) {
  if (!count(c, n, fn, rc)) return false;
  const Datatype* t = type(c, h, fn, rc);
  return t && buffer(c, buf, n, *t, fn, rc);
}

}  // namespace tilempi::mpi::check
