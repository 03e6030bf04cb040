// MPI_Status_c2f, MPI_Status_f2c and their mpi_f08 twins: the three forms of a status are the same
// six integers (mpi.h's MPI_Status, mpif.h's STATUS(MPI_STATUS_SIZE), mpi_f08's TYPE(MPI_Status)),
// so each conversion is a copy. An ignore sentinel is not a status: converting one is an error.
#include <cstring>

#include "fortran_support.h"

namespace {

bool is_ignore(const void* p) {
  return p == nullptr || p == static_cast<const void*>(MPI_STATUS_IGNORE) ||
         tilempi::fortran::ignores_status(static_cast<const MPI_Fint*>(p));
}

int copy_status(const void* from, void* to) {
  if (is_ignore(from) || is_ignore(to)) return MPI_ERR_ARG;
  std::memmove(to, from, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) { return copy_status(c_status, f_status); }
int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) { return copy_status(f_status, c_status); }
int MPI_Status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) {
  return copy_status(c_status, f08_status);
}
int MPI_Status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) {
  return copy_status(f08_status, c_status);
}
int MPI_Status_f2f08(const MPI_Fint* f_status, MPI_F08_status* f08_status) {
  return copy_status(f_status, f08_status);
}
int MPI_Status_f082f(const MPI_F08_status* f08_status, MPI_Fint* f_status) {
  return copy_status(f08_status, f_status);
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Status_c2f)
TILEMPI_PMPI_ALIAS(Status_f2c)
TILEMPI_PMPI_ALIAS(Status_c2f08)
TILEMPI_PMPI_ALIAS(Status_f082c)
TILEMPI_PMPI_ALIAS(Status_f2f08)
TILEMPI_PMPI_ALIAS(Status_f082f)
