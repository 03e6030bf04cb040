// Fortran bindings: derived datatypes, addresses and reduction operations.
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_type_contiguous_(const MPI_Fint* count, const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_contiguous(*count, *oldtype, newtype);
}

void mpi_type_vector_(const MPI_Fint* count, const MPI_Fint* blocklength, const MPI_Fint* stride,
                      const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_vector(*count, *blocklength, *stride, *oldtype, newtype);
}

void mpi_type_create_hvector_(const MPI_Fint* count, const MPI_Fint* blocklength, const MPI_Aint* stride,
                              const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}

void mpi_type_indexed_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Fint* displacements,
                       const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_indexed(*count, blocklengths, displacements, *oldtype, newtype);
}

void mpi_type_create_indexed_block_(const MPI_Fint* count, const MPI_Fint* blocklength,
                                    const MPI_Fint* displacements, const MPI_Fint* oldtype, MPI_Fint* newtype,
                                    MPI_Fint* ierr) {
  *ierr = MPI_Type_create_indexed_block(*count, *blocklength, displacements, *oldtype, newtype);
}

void mpi_type_create_hindexed_block_(const MPI_Fint* count, const MPI_Fint* blocklength, const MPI_Aint* displacements,
                                     const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_hindexed_block(*count, *blocklength, displacements, *oldtype, newtype);
}

void mpi_type_get_envelope_(const MPI_Fint* datatype, MPI_Fint* num_integers, MPI_Fint* num_addresses,
                            MPI_Fint* num_datatypes, MPI_Fint* combiner, MPI_Fint* ierr) {
  *ierr = MPI_Type_get_envelope(*datatype, num_integers, num_addresses, num_datatypes, combiner);
}

// ADDRESSES is INTEGER(KIND=MPI_ADDRESS_KIND), as MPI_Aint; handles are the C handles.
void mpi_type_get_contents_(const MPI_Fint* datatype, const MPI_Fint* max_integers, const MPI_Fint* max_addresses,
                            const MPI_Fint* max_datatypes, MPI_Fint* integers, MPI_Aint* addresses,
                            MPI_Fint* datatypes, MPI_Fint* ierr) {
  *ierr = MPI_Type_get_contents(*datatype, *max_integers, *max_addresses, *max_datatypes, integers, addresses,
                                datatypes);
}

void mpi_type_create_resized_(const MPI_Fint* oldtype, const MPI_Aint* lb, const MPI_Aint* extent,
                              MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_resized(*oldtype, *lb, *extent, newtype);
}

void mpi_type_commit_(MPI_Fint* datatype, MPI_Fint* ierr) { *ierr = MPI_Type_commit(datatype); }

void mpi_type_free_(MPI_Fint* datatype, MPI_Fint* ierr) { *ierr = MPI_Type_free(datatype); }

void mpi_type_dup_(const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_dup(*oldtype, newtype);
}

void mpi_type_size_(const MPI_Fint* datatype, MPI_Fint* size, MPI_Fint* ierr) {
  *ierr = MPI_Type_size(*datatype, size);
}

void mpi_type_get_extent_(const MPI_Fint* datatype, MPI_Aint* lb, MPI_Aint* extent, MPI_Fint* ierr) {
  *ierr = MPI_Type_get_extent(*datatype, lb, extent);
}

void mpi_type_get_true_extent_(const MPI_Fint* datatype, MPI_Aint* true_lb, MPI_Aint* true_extent,
                               MPI_Fint* ierr) {
  *ierr = MPI_Type_get_true_extent(*datatype, true_lb, true_extent);
}

void mpi_get_address_(const void* location, MPI_Aint* address, MPI_Fint* ierr) {
  *ierr = MPI_Get_address(buffer(location), address);
}

// INTEGER(KIND=MPI_ADDRESS_KIND) FUNCTION MPI_AINT_ADD(BASE, DISP) (and MPI_AINT_DIFF): functions
// in Fortran too, their arguments by reference.
MPI_Aint mpi_aint_add_(const MPI_Aint* base, const MPI_Aint* disp) { return MPI_Aint_add(*base, *disp); }
MPI_Aint mpi_aint_diff_(const MPI_Aint* addr1, const MPI_Aint* addr2) { return MPI_Aint_diff(*addr1, *addr2); }

// A Fortran reduction function, SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE), takes every
// argument by reference, which is MPI_User_function's C signature: it is handed over as is.
void mpi_op_create_(MPI_User_function* function, const MPI_Fint* commute, MPI_Fint* op, MPI_Fint* ierr) {
  *ierr = MPI_Op_create(function, from_logical(commute), op);
}

void mpi_op_free_(MPI_Fint* op, MPI_Fint* ierr) { *ierr = MPI_Op_free(op); }

void mpi_op_commutative_(const MPI_Fint* op, MPI_Fint* commute, MPI_Fint* ierr) {
  int c = 0;
  *ierr = MPI_Op_commutative(*op, &c);
  *commute = logical(c);
}

void mpi_reduce_local_(const void* inbuf, void* inoutbuf, const MPI_Fint* count, const MPI_Fint* datatype,
                       const MPI_Fint* op, MPI_Fint* ierr) {
  *ierr = MPI_Reduce_local(buffer(inbuf), buffer(inoutbuf), *count, *datatype, *op);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(type_contiguous)
TILEMPI_PMPI_F_ALIAS(type_vector)
TILEMPI_PMPI_F_ALIAS(type_create_hvector)
TILEMPI_PMPI_F_ALIAS(type_indexed)
TILEMPI_PMPI_F_ALIAS(type_create_indexed_block)
TILEMPI_PMPI_F_ALIAS(type_create_hindexed_block)
TILEMPI_PMPI_F_ALIAS(type_get_envelope)
TILEMPI_PMPI_F_ALIAS(type_get_contents)
TILEMPI_PMPI_F_ALIAS(type_create_resized)
TILEMPI_PMPI_F_ALIAS(type_commit)
TILEMPI_PMPI_F_ALIAS(type_free)
TILEMPI_PMPI_F_ALIAS(type_dup)
TILEMPI_PMPI_F_ALIAS(type_size)
TILEMPI_PMPI_F_ALIAS(type_get_extent)
TILEMPI_PMPI_F_ALIAS(type_get_true_extent)
TILEMPI_PMPI_F_ALIAS(get_address)
TILEMPI_PMPI_F_ALIAS(op_create)
TILEMPI_PMPI_F_ALIAS(op_free)
TILEMPI_PMPI_F_ALIAS(op_commutative)
TILEMPI_PMPI_F_ALIAS(reduce_local)
TILEMPI_PMPI_F_ALIAS(aint_add)
TILEMPI_PMPI_F_ALIAS(aint_diff)
