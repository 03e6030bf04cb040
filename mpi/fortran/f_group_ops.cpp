// Fortran bindings: group range and set operations, MPI_COMM_SPLIT_TYPE, MPI_COMM_IDUP.
// RANGES(3, N) in Fortran is laid out as C's int[N][3].
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_group_range_incl_(const MPI_Fint* group, const MPI_Fint* n, MPI_Fint* ranges, MPI_Fint* newgroup,
                           MPI_Fint* ierr) {
  *ierr = MPI_Group_range_incl(*group, *n, reinterpret_cast<int(*)[3]>(ranges), newgroup);
}

void mpi_group_range_excl_(const MPI_Fint* group, const MPI_Fint* n, MPI_Fint* ranges, MPI_Fint* newgroup,
                           MPI_Fint* ierr) {
  *ierr = MPI_Group_range_excl(*group, *n, reinterpret_cast<int(*)[3]>(ranges), newgroup);
}

void mpi_group_union_(const MPI_Fint* g1, const MPI_Fint* g2, MPI_Fint* newgroup, MPI_Fint* ierr) {
  *ierr = MPI_Group_union(*g1, *g2, newgroup);
}

void mpi_group_intersection_(const MPI_Fint* g1, const MPI_Fint* g2, MPI_Fint* newgroup, MPI_Fint* ierr) {
  *ierr = MPI_Group_intersection(*g1, *g2, newgroup);
}

void mpi_group_difference_(const MPI_Fint* g1, const MPI_Fint* g2, MPI_Fint* newgroup, MPI_Fint* ierr) {
  *ierr = MPI_Group_difference(*g1, *g2, newgroup);
}

void mpi_comm_split_type_(const MPI_Fint* comm, const MPI_Fint* split_type, const MPI_Fint* key, const MPI_Fint* info,
                          MPI_Fint* newcomm, MPI_Fint* ierr) {
  *ierr = MPI_Comm_split_type(*comm, *split_type, *key, *info, newcomm);
}

void mpi_comm_idup_(const MPI_Fint* comm, MPI_Fint* newcomm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Comm_idup(*comm, newcomm, request);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(group_range_incl)
TILEMPI_PMPI_F_ALIAS(group_range_excl)
TILEMPI_PMPI_F_ALIAS(group_union)
TILEMPI_PMPI_F_ALIAS(group_intersection)
TILEMPI_PMPI_F_ALIAS(group_difference)
TILEMPI_PMPI_F_ALIAS(comm_split_type)
TILEMPI_PMPI_F_ALIAS(comm_idup)
