// Object names (MPI-3.1 §6.8): MPI_Comm_set_name / get_name and MPI_Type_set_name / get_name.
// A name is local to the process (no communication) and at most MPI_MAX_OBJECT_NAME - 1
// characters: a longer one is cut there. Predefined objects start with their MPI names
// (MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT, ...); a new communicator or derived type has none.
// Window names are in api_win.cpp beside the windows.
#include <cstring>
#include <string>

#include "check.h"

using namespace tilempi::mpi;

namespace {

std::string cut(const char* name) { return std::string(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1)); }

void copy_out(const std::string& name, char* out, int* resultlen) {
  std::memcpy(out, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
}

std::string default_comm_name(MPI_Comm h) {
  if (h == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (h == MPI_COMM_SELF) return "MPI_COMM_SELF";
  return "";
}

Datatype* type_arg(MPI_Datatype h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  Datatype* t = datatype_get_mutable(h);
  if (!t) *rc = raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  return t;
}

}  // namespace

extern "C" {

int MPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_set_name", &rc);
  if (!c) return rc;
  if (!comm_name) return raise(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "comm_name is NULL");
  c->name = cut(comm_name);
  c->named = true;
  return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_get_name", &rc);
  if (!c) return rc;
  if (!comm_name || !resultlen) return raise(comm, MPI_ERR_ARG, "MPI_Comm_get_name", "comm_name or resultlen is NULL");
  copy_out(c->named ? c->name : default_comm_name(comm), comm_name, resultlen);
  return MPI_SUCCESS;
}

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  ApiScope api_scope(__func__);
  int rc;
  Datatype* t = type_arg(datatype, "MPI_Type_set_name", &rc);
  if (!t) return rc;
  if (!type_name) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_set_name", "type_name is NULL");
  t->user_name = cut(type_name);
  t->named = true;
  return MPI_SUCCESS;
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  ApiScope api_scope(__func__);
  int rc;
  Datatype* t = type_arg(datatype, "MPI_Type_get_name", &rc);
  if (!t) return rc;
  if (!type_name || !resultlen) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_name", "type_name or resultlen is NULL");
  copy_out(t->named ? t->user_name : std::string(t->predefined ? t->name : ""), type_name, resultlen);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Comm_set_name)
TILEMPI_PMPI_ALIAS(Comm_get_name)
TILEMPI_PMPI_ALIAS(Type_set_name)
TILEMPI_PMPI_ALIAS(Type_get_name)
