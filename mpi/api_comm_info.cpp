// Info hints on communicators (MPI-3.1 §6.4.4): MPI_Comm_set_info, MPI_Comm_get_info and
// MPI_Comm_dup_with_info. No hint changes what tilempi does, so every hint set is kept and
// returned, as MPICH does (the standard lets an implementation drop hints it ignores).
#include <string>

#include "check.h"
#include "info.h"

using namespace tilempi::mpi;

namespace {

// An info argument: a live info object, or MPI_INFO_NULL (no hints).
bool info_arg(MPI_Comm comm, MPI_Info info, const char* fn, int* rc) {
  if (info == MPI_INFO_NULL || info_valid(info)) return true;
  *rc = raise(comm, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  return false;
}

}  // namespace

extern "C" {

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_set_info";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c || !info_arg(comm, info, fn, &rc)) return rc;
  info_merge(info, c->hints);
  return MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_get_info";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (!info_used) return raise(comm, MPI_ERR_ARG, fn, "info_used is NULL");
  *info_used = info_of(c->hints);  // a new object, which the user frees
  return MPI_SUCCESS;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_dup_with_info";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  // A bad argument at one rank must not leave the others' contexts ahead of its own: MPI_Comm_dup
  // keeps them in step on its own error paths, so it runs first and its result is dropped here.
  const bool info_ok = info_arg(comm, info, fn, &rc);
  MPI_Comm dup = MPI_COMM_NULL;
  if (int e = MPI_Comm_dup(comm, newcomm ? &dup : nullptr)) return e;
  if (!info_ok) {
    MPI_Comm_free(&dup);
    return rc;
  }
  // The new communicator's hints are info's, not comm's (MPI-3.1 §6.4.2).
  Comm* n = comm_get(dup);
  n->hints.clear();
  info_merge(info, n->hints);
  *newcomm = dup;
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Comm_set_info)
TILEMPI_PMPI_ALIAS(Comm_get_info)
TILEMPI_PMPI_ALIAS(Comm_dup_with_info)
