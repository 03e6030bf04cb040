// Helpers of the mpi_f08 entry points (the generated f08_entry.cpp): choice buffers arrive as
// Fortran 2018 C descriptors (ISO_Fortran_binding.h of the gfortran that builds the module), the
// optional IERROR as a pointer that is null when the caller left it out. Everything else has the
// Fortran binding's layout already (handles are one INTEGER, TYPE(MPI_Status) is mpif.h's six).
#pragma once

extern "C" {
#include <ISO_Fortran_binding.h>
}

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "fortran_support.h"

namespace tilempi::fortran::f08 {

inline void set_ierror(MPI_Fint* ierror, MPI_Fint err) {
  if (ierror != nullptr) *ierror = err;
}

/// Whether the elements of a descriptor follow each other in memory (array element order).
bool contiguous(const CFI_cdesc_t* d);
/// The number of elements a descriptor covers (1 for a scalar).
std::size_t element_count(const CFI_cdesc_t* d);

/// Reports a buffer the call cannot use (on MPI_COMM_WORLD's error handler) and returns the
/// error class MPI_ERR_BUFFER.
MPI_Fint buffer_error(const char* call, const char* why);

/// The buffer of a call that is done with it when it returns. A non-contiguous section goes
/// through a contiguous copy: in before the call, and back after it when the call writes it (the
/// standard's "as if copied into a contiguous temporary").
class BlockingChoice {
 public:
  BlockingChoice(const CFI_cdesc_t* d, const char* call, bool written);
  BlockingChoice(const BlockingChoice&) = delete;
  BlockingChoice& operator=(const BlockingChoice&) = delete;
  bool ok(MPI_Fint*) const { return true; }
  void* address() { return copy_.empty() ? d_->base_addr : copy_.data(); }
  /// Copies the section back (for a buffer the call writes).
  void finish();

 private:
  const CFI_cdesc_t* d_;
  bool written_;
  std::vector<char> copy_;
};

/// The buffer of a call that uses it after returning (nonblocking, persistent, one-sided, split
/// collective): a non-contiguous section becomes a datatype that describes it in place, which
/// replaces the call's datatype (the element type stretched to a constant stride, same count) or
/// its (count, datatype) by (1, the section's type). That needs a count and datatype that describe
/// this buffer (and any companions of the same layout) and a datatype of whole array elements;
/// otherwise the call fails with MPI_ERR_BUFFER.
class AsyncChoice {
 public:
  /// per_rank_blocks: the count is that of each rank's block (gather, scatter, alltoall), not
  /// of the whole buffer.
  /// companions: the buffers that share this one's count and datatype (a reduction's), which must
  /// then have the same layout or be MPI_IN_PLACE.
  AsyncChoice(const CFI_cdesc_t* d, const char* call, const void* count, const void* datatype,
              bool per_rank_blocks, std::initializer_list<const CFI_cdesc_t*> companions = {});
  AsyncChoice(const AsyncChoice&) = delete;
  AsyncChoice& operator=(const AsyncChoice&) = delete;
  ~AsyncChoice();
  bool ok(MPI_Fint* err) const {
    if (err_ != MPI_SUCCESS) *err = err_;
    return err_ == MPI_SUCCESS;
  }
  void* address() const { return d_->base_addr; }
  void* count(void* original) { return replaced_count_ ? &count_ : original; }
  void* datatype(void* original) { return section_ != MPI_DATATYPE_NULL ? &section_ : original; }
  void finish() {}

 private:
  const CFI_cdesc_t* d_;
  MPI_Fint err_ = MPI_SUCCESS;
  MPI_Fint count_ = 1;
  bool replaced_count_ = false;
  MPI_Datatype section_ = MPI_DATATYPE_NULL;
};

/// A buffer whose address is all the call needs (MPI_GET_ADDRESS, MPI_FREE_MEM, ..._END).
class AddressChoice {
 public:
  AddressChoice(const CFI_cdesc_t* d, const char*) : d_(d) {}
  bool ok(MPI_Fint*) const { return true; }
  void* address() const { return d_->base_addr; }
  void finish() {}

 private:
  const CFI_cdesc_t* d_;
};

/// Memory the library keeps using as one piece (a window, the buffered-send buffer): it must be
/// contiguous.
class WholeChoice {
 public:
  WholeChoice(const CFI_cdesc_t* d, const char* call);
  bool ok(MPI_Fint* err) const {
    if (err_ != MPI_SUCCESS) *err = err_;
    return err_ == MPI_SUCCESS;
  }
  void* address() const { return d_->base_addr; }
  void finish() {}

 private:
  const CFI_cdesc_t* d_;
  MPI_Fint err_ = MPI_SUCCESS;
};

}  // namespace tilempi::fortran::f08

// The weak MPI_ names of the entry points (PMPI_x is the definition): see TILEMPI_PMPI_ALIAS.
#define TILEMPI_F08_ALIAS(name) TILEMPI_PMPI_ALIAS(name)
#define TILEMPI_F08_F_ALIAS(name) TILEMPI_PMPI_F_ALIAS(name)
