// Fortran bindings: Cartesian topologies and the struct / hindexed datatype constructors.
// LOGICAL arrays (periods, remain_dims) are gfortran's 4-byte logicals: 1 for .TRUE., 0 for .FALSE.
#include <vector>

#include "fortran_support.h"

using namespace tilempi::fortran;

namespace {
std::vector<int> logicals(const MPI_Fint* f, int n) {
  std::vector<int> v(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) v[i] = from_logical(&f[i]);
  return v;
}
}  // namespace

extern "C" {

void mpi_dims_create_(const MPI_Fint* nnodes, const MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* ierr) {
  *ierr = MPI_Dims_create(*nnodes, *ndims, dims);
}

void mpi_cart_create_(const MPI_Fint* comm_old, const MPI_Fint* ndims, const MPI_Fint* dims, const MPI_Fint* periods,
                      const MPI_Fint* reorder, MPI_Fint* comm_cart, MPI_Fint* ierr) {
  std::vector<int> p = logicals(periods, *ndims);
  *ierr = MPI_Cart_create(*comm_old, *ndims, dims, p.data(), from_logical(reorder), comm_cart);
}

void mpi_cart_coords_(const MPI_Fint* comm, const MPI_Fint* rank, const MPI_Fint* maxdims, MPI_Fint* coords,
                      MPI_Fint* ierr) {
  *ierr = MPI_Cart_coords(*comm, *rank, *maxdims, coords);
}

void mpi_cart_rank_(const MPI_Fint* comm, const MPI_Fint* coords, MPI_Fint* rank, MPI_Fint* ierr) {
  *ierr = MPI_Cart_rank(*comm, coords, rank);
}

void mpi_cart_shift_(const MPI_Fint* comm, const MPI_Fint* direction, const MPI_Fint* disp, MPI_Fint* source,
                     MPI_Fint* dest, MPI_Fint* ierr) {
  *ierr = MPI_Cart_shift(*comm, *direction, *disp, source, dest);
}

void mpi_cart_get_(const MPI_Fint* comm, const MPI_Fint* maxdims, MPI_Fint* dims, MPI_Fint* periods, MPI_Fint* coords,
                   MPI_Fint* ierr) {
  std::vector<int> p(*maxdims > 0 ? *maxdims : 0);
  *ierr = MPI_Cart_get(*comm, *maxdims, dims, p.data(), coords);
  for (int i = 0; i < *maxdims; ++i) periods[i] = logical(p[i]);
}

void mpi_cartdim_get_(const MPI_Fint* comm, MPI_Fint* ndims, MPI_Fint* ierr) { *ierr = MPI_Cartdim_get(*comm, ndims); }

void mpi_cart_sub_(const MPI_Fint* comm, const MPI_Fint* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr) {
  int n = 0;
  *ierr = MPI_Cartdim_get(*comm, &n);
  if (*ierr != MPI_SUCCESS) return;
  std::vector<int> r = logicals(remain_dims, n);
  *ierr = MPI_Cart_sub(*comm, r.data(), newcomm);
}

void mpi_topo_test_(const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) { *ierr = MPI_Topo_test(*comm, status); }

void mpi_type_create_hindexed_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Aint* displacements,
                               const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_hindexed(*count, blocklengths, displacements, *oldtype, newtype);
}

void mpi_type_create_struct_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Aint* displacements,
                             const MPI_Fint* types, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_struct(*count, blocklengths, displacements, types, newtype);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(dims_create)
TILEMPI_PMPI_F_ALIAS(cart_create)
TILEMPI_PMPI_F_ALIAS(cart_coords)
TILEMPI_PMPI_F_ALIAS(cart_rank)
TILEMPI_PMPI_F_ALIAS(cart_shift)
TILEMPI_PMPI_F_ALIAS(cart_get)
TILEMPI_PMPI_F_ALIAS(cartdim_get)
TILEMPI_PMPI_F_ALIAS(cart_sub)
TILEMPI_PMPI_F_ALIAS(topo_test)
TILEMPI_PMPI_F_ALIAS(type_create_hindexed)
TILEMPI_PMPI_F_ALIAS(type_create_struct)
