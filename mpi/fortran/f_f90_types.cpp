// Fortran bindings of the parameterized-type functions (MPI-3.1 §17.1.9; mpi/api_f90_types.cpp):
// MPI_TYPE_CREATE_F90_REAL/COMPLEX/INTEGER for KIND selected_real_kind(p, r) or
// selected_int_kind(r), and MPI_TYPE_MATCH_SIZE (for a variable's size from MPI_SIZEOF or
// storage_size).
#include "fortran_support.h"

extern "C" {

void mpi_type_create_f90_real_(const MPI_Fint* p, const MPI_Fint* r, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_f90_real(*p, *r, newtype);
}

void mpi_type_create_f90_complex_(const MPI_Fint* p, const MPI_Fint* r, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_f90_complex(*p, *r, newtype);
}

void mpi_type_create_f90_integer_(const MPI_Fint* r, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_f90_integer(*r, newtype);
}

void mpi_type_match_size_(const MPI_Fint* typeclass, const MPI_Fint* size, MPI_Fint* datatype, MPI_Fint* ierr) {
  *ierr = MPI_Type_match_size(*typeclass, *size, datatype);
}

}  // extern "C"

TILEMPI_PMPI_F_ALIAS(type_create_f90_real)
TILEMPI_PMPI_F_ALIAS(type_create_f90_complex)
TILEMPI_PMPI_F_ALIAS(type_create_f90_integer)
TILEMPI_PMPI_F_ALIAS(type_match_size)
