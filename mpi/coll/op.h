// Reduction operations: the predefined ops on every basic type MPI allows them on, user ops
// (MPI_Op_create), and the Reducer the collective algorithms apply.
//
// Collective algorithms move reduction data in *packed* form (count * type.size bytes, the type
// map's data without gaps); a Reducer combines two packed vectors element by element. Ops apply
// per basic type: a derived type built from MPI_INT reduces as its MPI_INT elements.
#pragma once

#include <cstddef>
#include <string>

#include "datatype.h"
#include "mpi.h"

namespace tilempi::mpi::coll {

/// MPI_SUCCESS if op may be applied to datatype; otherwise MPI_ERR_OP (or MPI_ERR_TYPE) and why.
int op_check(MPI_Op op, MPI_Datatype datatype, std::string* why);
/// True for a live predefined or user op.
bool op_valid(MPI_Op op);
bool op_commutative(MPI_Op op);
const char* op_name(MPI_Op op);

/// inout[i] = in[i] op inout[i] for n predefined elements of basic type `basic`, packed
/// (element stride = the basic type's size). Returns false when the combination is not allowed.
bool apply_predefined(MPI_Op op, MPI_Datatype basic, const void* in, void* inout, std::size_t n);

/// Binds an op to a datatype for the algorithms. Elements are packed (type.size bytes each).
class Reducer {
 public:
  Reducer(MPI_Op op, MPI_Datatype type);
  /// inout = in op inout over n packed elements. `in` holds the lower-ranked operand: for a
  /// non-commutative op the result is (in) op (inout), i.e. rank order is kept when the caller
  /// passes the lower ranks' partial result as `in`.
  void apply(const void* in, void* inout, std::size_t n) const;
  /// Combine so that the result is lo op hi, stored in `lo_inout` (hi is left unchanged).
  /// Used when the caller holds the lower-ranked operand in its result buffer.
  void apply_into_lo(void* lo_inout, const void* hi, std::size_t n) const;
  bool commutative() const { return commutative_; }
  std::size_t elem_size() const { return elem_size_; }
  MPI_Op op() const { return op_; }
  /// The predefined type the elements are made of (MPI_DATATYPE_NULL when they mix types).
  MPI_Datatype basic() const { return type_ ? type_->basic : MPI_DATATYPE_NULL; }

 private:
  MPI_Op op_;
  MPI_Datatype type_handle_;
  const Datatype* type_;
  bool commutative_;
  std::size_t elem_size_;
};

}  // namespace tilempi::mpi::coll
