// MPI_SIZEOF of the `mpi` module (mpi/fortran/mpi_module.f90) and MPI_Sizeof of `mpi_f08`
// (mpi_f08_gen.py; MPI-3.1 §17.1.9): the modules' generic picks, by the argument's type and kind,
// one of these C functions, which answers the size in bytes that its name says. The argument
// itself (an assumed-rank descriptor) is not read; mpi_f08's ierror is optional (NULL if absent).
#include "fortran_support.h"

namespace {
void answer(int bytes, MPI_Fint* size, MPI_Fint* ierror) {
  *size = bytes;
  if (ierror) *ierror = MPI_SUCCESS;
}
}  // namespace

extern "C" {
void tilempi_sizeof_1(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(1, size, ierror); }
void tilempi_sizeof_2(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(2, size, ierror); }
void tilempi_sizeof_4(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(4, size, ierror); }
void tilempi_sizeof_8(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(8, size, ierror); }
void tilempi_sizeof_16(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(16, size, ierror); }
void tilempi_sizeof_32(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(32, size, ierror); }
// LOGICAL and CHARACTER (no C types): Fortran externals; a CHARACTER's hidden length comes last,
// unread (one byte a character, whatever the length).
void tilempi_sizeof_logical1_(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(1, size, ierror); }
void tilempi_sizeof_logical2_(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(2, size, ierror); }
void tilempi_sizeof_logical4_(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(4, size, ierror); }
void tilempi_sizeof_logical8_(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(8, size, ierror); }
void tilempi_sizeof_character_(const void*, MPI_Fint* size, MPI_Fint* ierror) { answer(1, size, ierror); }
}  // extern "C"
