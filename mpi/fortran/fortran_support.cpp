// The sentinel variables behind mpif.h's MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE,
// MPI_STATUSES_IGNORE and MPI_ERRCODES_IGNORE. A Fortran program's COMMON blocks of the same
// names and these definitions resolve to one object, whose address the bindings recognize.
#include "fortran_support.h"

extern "C" {
MPI_Fint tilempi_bottom_ = 0;
MPI_Fint tilempi_in_place_ = 0;
MPI_Fint tilempi_status_ignore_[TILEMPI_STATUS_INTS] = {};
MPI_Fint tilempi_statuses_ignore_[TILEMPI_STATUS_INTS] = {};
MPI_Fint tilempi_errcodes_ignore_[1] = {};
}
