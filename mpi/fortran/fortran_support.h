// Helpers shared by the Fortran bindings: how Fortran arguments become C arguments.
//
// gfortran passes every argument by reference, appends a hidden size_t length for each
// CHARACTER argument, and names external symbols in lower case with one trailing underscore.
// Handles are the same integers on both sides (MPI_Fint == int), so only the sentinels,
// statuses, logicals, strings and 1-based indices need converting.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "mpi.h"

// The sentinel variables of mpif.h. Each lives in a COMMON block of its own; gfortran names
// the block's symbol like a procedure, so /TILEMPI_BOTTOM/ is tilempi_bottom_. The library
// defines them too (fortran_support.cpp), so programs link even when no unit includes mpif.h.
extern "C" {
extern MPI_Fint tilempi_bottom_;
extern MPI_Fint tilempi_in_place_;
extern MPI_Fint tilempi_status_ignore_[TILEMPI_STATUS_INTS];
extern MPI_Fint tilempi_statuses_ignore_[TILEMPI_STATUS_INTS];
extern MPI_Fint tilempi_errcodes_ignore_[1];
extern MPI_Fint tilempi_unweighted_[1];
extern MPI_Fint tilempi_weights_empty_[1];
}

namespace tilempi::fortran {

static_assert(sizeof(MPI_Status) == TILEMPI_STATUS_INTS * sizeof(MPI_Fint),
              "MPI_Status must be MPI_STATUS_SIZE Fortran INTEGERs");
static_assert(sizeof(MPI_Fint) == 4 && sizeof(MPI_Aint) == 8,
              "mpif.h assumes 4-byte INTEGER and MPI_ADDRESS_KIND=8");

/// The sentinel blocks of the running rank's own program image. Usually the program's blocks
/// and the library's are one object; a rank that is a context of the simulator has a private
/// copy of the program, whose blocks the shared library's symbols do not reach.
struct ImageSentinels {
  const void* bottom = nullptr;
  const void* in_place = nullptr;
  const void* status_ignore = nullptr;
  const void* statuses_ignore = nullptr;
  const void* unweighted = nullptr;
  const void* weights_empty = nullptr;
  const void* errcodes_ignore = nullptr;
};
const ImageSentinels& image_sentinels();

/// A Fortran choice buffer as a C buffer: MPI_BOTTOM and MPI_IN_PLACE become the C sentinels.
inline void* buffer(void* f) {
  if (f == static_cast<void*>(&tilempi_bottom_)) return MPI_BOTTOM;
  if (f == static_cast<void*>(&tilempi_in_place_)) return MPI_IN_PLACE;
  const ImageSentinels& s = image_sentinels();
  if (f == s.bottom) return MPI_BOTTOM;
  if (f == s.in_place) return MPI_IN_PLACE;
  return f;
}
inline const void* buffer(const void* f) { return buffer(const_cast<void*>(f)); }

/// A Fortran weights array of the topology functions: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become
/// the C sentinels.
inline int* weights(const MPI_Fint* f) {
  const ImageSentinels& s = image_sentinels();
  if (f == tilempi_unweighted_ || f == s.unweighted) return MPI_UNWEIGHTED;
  if (f == tilempi_weights_empty_ || f == s.weights_empty) return MPI_WEIGHTS_EMPTY;
  return const_cast<MPI_Fint*>(f);
}

inline bool ignores_status(const MPI_Fint* f) {
  if (f == tilempi_status_ignore_ || f == tilempi_statuses_ignore_) return true;
  const ImageSentinels& s = image_sentinels();
  return f == s.status_ignore || f == s.statuses_ignore;
}

/// A Fortran output status: the C call fills a real MPI_Status, copied back when this goes
/// out of scope (after the call). Starts from the caller's contents, so fields a call leaves
/// alone keep their values.
class StatusOut {
 public:
  explicit StatusOut(MPI_Fint* f) : f_(ignores_status(f) ? nullptr : f) {
    if (f_ != nullptr) std::memcpy(&s_, f_, sizeof s_);
  }
  StatusOut(const StatusOut&) = delete;
  StatusOut& operator=(const StatusOut&) = delete;
  ~StatusOut() {
    if (f_ != nullptr) std::memcpy(f_, &s_, sizeof s_);
  }
  MPI_Status* c() { return f_ != nullptr ? &s_ : MPI_STATUS_IGNORE; }

 private:
  MPI_Fint* f_;
  MPI_Status s_{};
};

/// A Fortran input status (MPI_GET_COUNT and friends).
class StatusIn {
 public:
  explicit StatusIn(const MPI_Fint* f) { std::memcpy(&s_, f, sizeof s_); }
  const MPI_Status* c() const { return &s_; }

 private:
  MPI_Status s_{};
};

/// An output array of count statuses (INTEGER STATUSES(MPI_STATUS_SIZE, count)).
class StatusesOut {
 public:
  StatusesOut(MPI_Fint* f, int count) : f_(ignores_status(f) ? nullptr : f), n_(count > 0 ? count : 0) {
    if (f_ == nullptr) return;
    if (n_ > kInline) heap_.resize(static_cast<std::size_t>(n_));
    std::memcpy(data(), f_, sizeof(MPI_Status) * static_cast<std::size_t>(n_));
  }
  StatusesOut(const StatusesOut&) = delete;
  StatusesOut& operator=(const StatusesOut&) = delete;
  ~StatusesOut() {
    if (f_ != nullptr) std::memcpy(f_, data(), sizeof(MPI_Status) * static_cast<std::size_t>(n_));
  }
  MPI_Status* c() { return f_ != nullptr ? data() : MPI_STATUSES_IGNORE; }

 private:
  static constexpr int kInline = 16;
  MPI_Status* data() { return n_ > kInline ? heap_.data() : inline_; }
  MPI_Fint* f_;
  int n_;
  MPI_Status inline_[kInline]{};
  std::vector<MPI_Status> heap_;
};

/// gfortran's LOGICAL: .TRUE. is 1, .FALSE. is 0; any nonzero value reads as true.
inline MPI_Fint logical(int c) { return c != 0 ? 1 : 0; }
inline int from_logical(const MPI_Fint* f) { return *f != 0 ? 1 : 0; }

/// Copy a C string of length clen into a Fortran CHARACTER(flen), blank-padded; the length
/// copied (at most flen) is what the caller reports as RESULTLEN.
inline int to_fortran_string(const char* c, int clen, char* f, std::size_t flen) {
  std::size_t n = clen > 0 ? static_cast<std::size_t>(clen) : 0;
  if (n > flen) n = flen;
  std::memcpy(f, c, n);
  std::memset(f + n, ' ', flen - n);
  return static_cast<int>(n);
}

/// A Fortran CHARACTER argument as a C string: its trailing blanks are not part of it.
inline std::string c_string(const char* f, std::size_t len) {
  while (len > 0 && f[len - 1] == ' ') --len;
  return std::string(f, len);
}

/// C's 0-based index (or MPI_UNDEFINED) as Fortran's 1-based one.
inline int fortran_index(int c) { return c >= 0 ? c + 1 : c; }

}  // namespace tilempi::fortran
