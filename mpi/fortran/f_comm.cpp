// Fortran bindings: communicators, attributes and groups.
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_comm_size_(const MPI_Fint* comm, MPI_Fint* size, MPI_Fint* ierr) { *ierr = MPI_Comm_size(*comm, size); }

void mpi_comm_rank_(const MPI_Fint* comm, MPI_Fint* rank, MPI_Fint* ierr) { *ierr = MPI_Comm_rank(*comm, rank); }

void mpi_comm_dup_(const MPI_Fint* comm, MPI_Fint* newcomm, MPI_Fint* ierr) { *ierr = MPI_Comm_dup(*comm, newcomm); }

void mpi_comm_split_(const MPI_Fint* comm, const MPI_Fint* color, const MPI_Fint* key, MPI_Fint* newcomm,
                     MPI_Fint* ierr) {
  *ierr = MPI_Comm_split(*comm, *color, *key, newcomm);
}

void mpi_comm_create_(const MPI_Fint* comm, const MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr) {
  *ierr = MPI_Comm_create(*comm, *group, newcomm);
}

void mpi_comm_free_(MPI_Fint* comm, MPI_Fint* ierr) { *ierr = MPI_Comm_free(comm); }

void mpi_comm_compare_(const MPI_Fint* comm1, const MPI_Fint* comm2, MPI_Fint* result, MPI_Fint* ierr) {
  *ierr = MPI_Comm_compare(*comm1, *comm2, result);
}

void mpi_comm_group_(const MPI_Fint* comm, MPI_Fint* group, MPI_Fint* ierr) { *ierr = MPI_Comm_group(*comm, group); }

void mpi_comm_test_inter_(const MPI_Fint* comm, MPI_Fint* flag, MPI_Fint* ierr) {
  int c = 0;
  *ierr = MPI_Comm_test_inter(*comm, &c);
  *flag = logical(c);
}

void mpi_group_size_(const MPI_Fint* group, MPI_Fint* size, MPI_Fint* ierr) { *ierr = MPI_Group_size(*group, size); }

void mpi_group_rank_(const MPI_Fint* group, MPI_Fint* rank, MPI_Fint* ierr) { *ierr = MPI_Group_rank(*group, rank); }

void mpi_group_translate_ranks_(const MPI_Fint* group1, const MPI_Fint* n, const MPI_Fint* ranks1,
                                const MPI_Fint* group2, MPI_Fint* ranks2, MPI_Fint* ierr) {
  *ierr = MPI_Group_translate_ranks(*group1, *n, ranks1, *group2, ranks2);
}

void mpi_group_compare_(const MPI_Fint* group1, const MPI_Fint* group2, MPI_Fint* result, MPI_Fint* ierr) {
  *ierr = MPI_Group_compare(*group1, *group2, result);
}

void mpi_group_incl_(const MPI_Fint* group, const MPI_Fint* n, const MPI_Fint* ranks, MPI_Fint* newgroup,
                     MPI_Fint* ierr) {
  *ierr = MPI_Group_incl(*group, *n, ranks, newgroup);
}

void mpi_group_excl_(const MPI_Fint* group, const MPI_Fint* n, const MPI_Fint* ranks, MPI_Fint* newgroup,
                     MPI_Fint* ierr) {
  *ierr = MPI_Group_excl(*group, *n, ranks, newgroup);
}

void mpi_group_free_(MPI_Fint* group, MPI_Fint* ierr) { *ierr = MPI_Group_free(group); }

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(comm_size)
TILEMPI_PMPI_F_ALIAS(comm_rank)
TILEMPI_PMPI_F_ALIAS(comm_dup)
TILEMPI_PMPI_F_ALIAS(comm_split)
TILEMPI_PMPI_F_ALIAS(comm_create)
TILEMPI_PMPI_F_ALIAS(comm_free)
TILEMPI_PMPI_F_ALIAS(comm_compare)
TILEMPI_PMPI_F_ALIAS(comm_group)
TILEMPI_PMPI_F_ALIAS(comm_test_inter)
TILEMPI_PMPI_F_ALIAS(group_size)
TILEMPI_PMPI_F_ALIAS(group_rank)
TILEMPI_PMPI_F_ALIAS(group_translate_ranks)
TILEMPI_PMPI_F_ALIAS(group_compare)
TILEMPI_PMPI_F_ALIAS(group_incl)
TILEMPI_PMPI_F_ALIAS(group_excl)
TILEMPI_PMPI_F_ALIAS(group_free)
