// Fortran bindings: communicators (intercommunicators too), object names, attributes and groups.
#include <string>

#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_comm_size_(const MPI_Fint* comm, MPI_Fint* size, MPI_Fint* ierr) { *ierr = MPI_Comm_size(*comm, size); }

void mpi_comm_rank_(const MPI_Fint* comm, MPI_Fint* rank, MPI_Fint* ierr) { *ierr = MPI_Comm_rank(*comm, rank); }

void mpi_comm_dup_(const MPI_Fint* comm, MPI_Fint* newcomm, MPI_Fint* ierr) { *ierr = MPI_Comm_dup(*comm, newcomm); }

void mpi_comm_dup_with_info_(const MPI_Fint* comm, const MPI_Fint* info, MPI_Fint* newcomm, MPI_Fint* ierr) {
  *ierr = MPI_Comm_dup_with_info(*comm, *info, newcomm);
}

void mpi_comm_set_info_(const MPI_Fint* comm, const MPI_Fint* info, MPI_Fint* ierr) {
  *ierr = MPI_Comm_set_info(*comm, *info);
}

void mpi_comm_get_info_(const MPI_Fint* comm, MPI_Fint* info_used, MPI_Fint* ierr) {
  *ierr = MPI_Comm_get_info(*comm, info_used);
}

void mpi_comm_split_(const MPI_Fint* comm, const MPI_Fint* color, const MPI_Fint* key, MPI_Fint* newcomm,
                     MPI_Fint* ierr) {
  *ierr = MPI_Comm_split(*comm, *color, *key, newcomm);
}

void mpi_comm_create_(const MPI_Fint* comm, const MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr) {
  *ierr = MPI_Comm_create(*comm, *group, newcomm);
}

void mpi_comm_create_group_(const MPI_Fint* comm, const MPI_Fint* group, const MPI_Fint* tag, MPI_Fint* newcomm,
                            MPI_Fint* ierr) {
  *ierr = MPI_Comm_create_group(*comm, *group, *tag, newcomm);
}

void mpi_comm_set_name_(const MPI_Fint* comm, const char* name, MPI_Fint* ierr, std::size_t name_len) {
  *ierr = MPI_Comm_set_name(*comm, c_string(name, name_len).c_str());
}

void mpi_comm_get_name_(const MPI_Fint* comm, char* name, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t name_len) {
  char c[MPI_MAX_OBJECT_NAME] = {};
  int n = 0;
  *ierr = MPI_Comm_get_name(*comm, c, &n);
  if (*ierr == MPI_SUCCESS) *resultlen = to_fortran_string(c, n, name, name_len);
}

void mpi_type_set_name_(const MPI_Fint* type, const char* name, MPI_Fint* ierr, std::size_t name_len) {
  *ierr = MPI_Type_set_name(*type, c_string(name, name_len).c_str());
}

void mpi_type_get_name_(const MPI_Fint* type, char* name, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t name_len) {
  char c[MPI_MAX_OBJECT_NAME] = {};
  int n = 0;
  *ierr = MPI_Type_get_name(*type, c, &n);
  if (*ierr == MPI_SUCCESS) *resultlen = to_fortran_string(c, n, name, name_len);
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

void mpi_comm_remote_size_(const MPI_Fint* comm, MPI_Fint* size, MPI_Fint* ierr) {
  *ierr = MPI_Comm_remote_size(*comm, size);
}

void mpi_comm_remote_group_(const MPI_Fint* comm, MPI_Fint* group, MPI_Fint* ierr) {
  *ierr = MPI_Comm_remote_group(*comm, group);
}

void mpi_intercomm_create_(const MPI_Fint* local_comm, const MPI_Fint* local_leader, const MPI_Fint* peer_comm,
                           const MPI_Fint* remote_leader, const MPI_Fint* tag, MPI_Fint* newintercomm, MPI_Fint* ierr) {
  *ierr = MPI_Intercomm_create(*local_comm, *local_leader, *peer_comm, *remote_leader, *tag, newintercomm);
}

void mpi_intercomm_merge_(const MPI_Fint* intercomm, const MPI_Fint* high, MPI_Fint* newintracomm, MPI_Fint* ierr) {
  *ierr = MPI_Intercomm_merge(*intercomm, from_logical(high), newintracomm);
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
TILEMPI_PMPI_F_ALIAS(comm_dup_with_info)
TILEMPI_PMPI_F_ALIAS(comm_set_info)
TILEMPI_PMPI_F_ALIAS(comm_get_info)
TILEMPI_PMPI_F_ALIAS(comm_split)
TILEMPI_PMPI_F_ALIAS(comm_create)
TILEMPI_PMPI_F_ALIAS(comm_create_group)
TILEMPI_PMPI_F_ALIAS(comm_set_name)
TILEMPI_PMPI_F_ALIAS(comm_get_name)
TILEMPI_PMPI_F_ALIAS(type_set_name)
TILEMPI_PMPI_F_ALIAS(type_get_name)
TILEMPI_PMPI_F_ALIAS(comm_free)
TILEMPI_PMPI_F_ALIAS(comm_compare)
TILEMPI_PMPI_F_ALIAS(comm_group)
TILEMPI_PMPI_F_ALIAS(comm_test_inter)
TILEMPI_PMPI_F_ALIAS(comm_remote_size)
TILEMPI_PMPI_F_ALIAS(comm_remote_group)
TILEMPI_PMPI_F_ALIAS(intercomm_create)
TILEMPI_PMPI_F_ALIAS(intercomm_merge)
TILEMPI_PMPI_F_ALIAS(group_size)
TILEMPI_PMPI_F_ALIAS(group_rank)
TILEMPI_PMPI_F_ALIAS(group_translate_ranks)
TILEMPI_PMPI_F_ALIAS(group_compare)
TILEMPI_PMPI_F_ALIAS(group_incl)
TILEMPI_PMPI_F_ALIAS(group_excl)
TILEMPI_PMPI_F_ALIAS(group_free)
