// Fortran bindings: error handlers and attribute caching. A Fortran error handler,
// SUBROUTINE H(COMM, ERRCODE), takes its arguments by reference, which is the C handler's
// signature: it is handed over as is. Fortran copy and delete callbacks take every argument by
// reference and attribute values as integers, so their keyvals are marked Fortran
// (attributes.h) and called through that signature. In Fortran an attribute is an integer value
// (INTEGER(KIND=MPI_ADDRESS_KIND), or a default INTEGER for the MPI-1 names), which C reads
// through a pointer (MPI-3.1 §17.2.7: the library's cell, attributes.h); an attribute set from C
// reads in Fortran as its address, the predefined ones as their values.
#include "attributes.h"
#include "fortran_support.h"

using namespace tilempi::fortran;
using tilempi::mpi::AttrLang;
using tilempi::mpi::AttrObject;

namespace {
using AnyFn = void (*)();
template <class F>
AnyFn any_fn(F f) {
  return reinterpret_cast<AnyFn>(f);
}
/// The library's own Fortran null callbacks stand for "none", as MPI_*_NULL_*_FN do in C (the
/// weak mpi_x_ name and its pmpi_x_ definition are one address).
AnyFn callback(AnyFn f, AnyFn null) { return f == null ? nullptr : f; }

/// A C attribute value as Fortran sees it: predefined attributes are pointers to their int value,
/// one set from Fortran its cell's integer, one set from C its address.
MPI_Aint fortran_value(MPI_Fint keyval, void* value) {
  if (tilempi::mpi::attr_predefined(keyval)) return value ? *static_cast<const int*>(value) : 0;
  MPI_Aint v;
  if (tilempi::mpi::attr_cell_value(value, &v)) return v;
  return reinterpret_cast<MPI_Aint>(value);
}

/// Sets a Fortran value through the C call set (which takes the C value: the value's cell).
template <class Set>
MPI_Fint set_fortran(MPI_Aint value, Set set) {
  void* cell = tilempi::mpi::attr_cell_new(value);
  const int rc = set(cell);
  tilempi::mpi::attr_cell_drop(cell);  // (nothing if the attribute holds it)
  return rc;
}
}  // namespace

extern "C" {

// ---- the predefined callbacks (MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, ... in mpif.h) -----------

void mpi_comm_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Aint*,
                            MPI_Fint* flag, MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
void mpi_comm_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint* in, MPI_Aint* out,
                      MPI_Fint* flag, MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}
void mpi_comm_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}
void mpi_type_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Aint*,
                            MPI_Fint* flag, MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
void mpi_type_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint* in, MPI_Aint* out,
                      MPI_Fint* flag, MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}
void mpi_win_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Aint*,
                           MPI_Fint* flag, MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
void mpi_win_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint* in, MPI_Aint* out,
                     MPI_Fint* flag, MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}
void mpi_win_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}
void mpi_type_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}
void mpi_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, MPI_Fint*, MPI_Fint* flag,
                       MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
void mpi_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint* in, MPI_Fint* out, MPI_Fint* flag,
                 MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}
void mpi_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, MPI_Fint* ierr) {
  *ierr = MPI_SUCCESS;
}

// ---- error handlers ------------------------------------------------------------------------------

void mpi_comm_create_errhandler_(MPI_Comm_errhandler_function* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Comm_create_errhandler(function, errhandler);
}

void mpi_errhandler_create_(MPI_Handler_function* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Errhandler_create(function, errhandler);
}

void mpi_comm_call_errhandler_(const MPI_Fint* comm, const MPI_Fint* errorcode, MPI_Fint* ierr) {
  *ierr = MPI_Comm_call_errhandler(*comm, *errorcode);
}

// ---- communicator attributes ---------------------------------------------------------------------

void mpi_comm_create_keyval_(void (*copy)(), void (*del)(), MPI_Fint* keyval, const MPI_Aint* extra, MPI_Fint* ierr) {
  *ierr = tilempi::mpi::keyval_create(
      AttrObject::Comm, AttrLang::Fortran, callback(copy, any_fn(&mpi_comm_null_copy_fn_)),
      callback(del, any_fn(&mpi_comm_null_delete_fn_)), keyval,
      reinterpret_cast<void*>(*extra), "MPI_COMM_CREATE_KEYVAL");
}

void mpi_keyval_create_(void (*copy)(), void (*del)(), MPI_Fint* keyval, const MPI_Fint* extra, MPI_Fint* ierr) {
  *ierr = tilempi::mpi::keyval_create(
      AttrObject::Comm, AttrLang::Fortran1, callback(copy, any_fn(&mpi_null_copy_fn_)),
      callback(del, any_fn(&mpi_null_delete_fn_)), keyval,
      reinterpret_cast<void*>(static_cast<MPI_Aint>(*extra)), "MPI_KEYVAL_CREATE");
}

void mpi_comm_free_keyval_(MPI_Fint* keyval, MPI_Fint* ierr) { *ierr = MPI_Comm_free_keyval(keyval); }
void mpi_keyval_free_(MPI_Fint* keyval, MPI_Fint* ierr) { *ierr = MPI_Keyval_free(keyval); }

void mpi_comm_set_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierr) {
  *ierr = set_fortran(*value, [&](void* v) { return MPI_Comm_set_attr(*comm, *keyval, v); });
}

void mpi_attr_put_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Fint* value, MPI_Fint* ierr) {
  *ierr = set_fortran(*value, [&](void* v) { return MPI_Attr_put(*comm, *keyval, v); });
}

void mpi_comm_get_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* attribute_val, MPI_Fint* flag,
                        MPI_Fint* ierr) {
  void* value = nullptr;
  int c = 0;
  *ierr = MPI_Comm_get_attr(*comm, *keyval, &value, &c);
  if (*ierr == MPI_SUCCESS && c != 0) *attribute_val = fortran_value(*keyval, value);
  *flag = logical(*ierr == MPI_SUCCESS ? c : 0);
}

void mpi_attr_get_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* attribute_val, MPI_Fint* flag,
                   MPI_Fint* ierr) {
  void* value = nullptr;
  int c = 0;
  *ierr = MPI_Attr_get(*comm, *keyval, &value, &c);
  if (*ierr == MPI_SUCCESS && c != 0) *attribute_val = static_cast<MPI_Fint>(fortran_value(*keyval, value));
  *flag = logical(*ierr == MPI_SUCCESS ? c : 0);
}

void mpi_comm_delete_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* ierr) {
  *ierr = MPI_Comm_delete_attr(*comm, *keyval);
}
void mpi_attr_delete_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* ierr) {
  *ierr = MPI_Attr_delete(*comm, *keyval);
}

// ---- datatype attributes -------------------------------------------------------------------------

void mpi_type_create_keyval_(void (*copy)(), void (*del)(), MPI_Fint* keyval, const MPI_Aint* extra, MPI_Fint* ierr) {
  *ierr = tilempi::mpi::keyval_create(
      AttrObject::Type, AttrLang::Fortran, callback(copy, any_fn(&mpi_type_null_copy_fn_)),
      callback(del, any_fn(&mpi_type_null_delete_fn_)), keyval,
      reinterpret_cast<void*>(*extra), "MPI_TYPE_CREATE_KEYVAL");
}

void mpi_type_free_keyval_(MPI_Fint* keyval, MPI_Fint* ierr) { *ierr = MPI_Type_free_keyval(keyval); }

void mpi_type_set_attr_(const MPI_Fint* datatype, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierr) {
  *ierr = set_fortran(*value, [&](void* v) { return MPI_Type_set_attr(*datatype, *keyval, v); });
}

void mpi_type_get_attr_(const MPI_Fint* datatype, const MPI_Fint* keyval, MPI_Aint* attribute_val, MPI_Fint* flag,
                        MPI_Fint* ierr) {
  void* value = nullptr;
  int c = 0;
  *ierr = MPI_Type_get_attr(*datatype, *keyval, &value, &c);
  if (*ierr == MPI_SUCCESS && c != 0) *attribute_val = fortran_value(*keyval, value);
  *flag = logical(*ierr == MPI_SUCCESS ? c : 0);
}

void mpi_type_delete_attr_(const MPI_Fint* datatype, const MPI_Fint* keyval, MPI_Fint* ierr) {
  *ierr = MPI_Type_delete_attr(*datatype, *keyval);
}

// ---- window attributes (MPI_WIN_GET_ATTR is in f_win.cpp, beside the predefined ones) ----------

void mpi_win_create_keyval_(void (*copy)(), void (*del)(), MPI_Fint* keyval, const MPI_Aint* extra, MPI_Fint* ierr) {
  *ierr = tilempi::mpi::keyval_create(AttrObject::Win, AttrLang::Fortran, callback(copy, any_fn(&mpi_win_null_copy_fn_)),
                                      callback(del, any_fn(&mpi_win_null_delete_fn_)), keyval,
                                      reinterpret_cast<void*>(*extra), "MPI_WIN_CREATE_KEYVAL");
}

void mpi_win_free_keyval_(MPI_Fint* keyval, MPI_Fint* ierr) { *ierr = MPI_Win_free_keyval(keyval); }

void mpi_win_set_attr_(const MPI_Fint* win, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierr) {
  *ierr = set_fortran(*value, [&](void* v) { return MPI_Win_set_attr(*win, *keyval, v); });
}

void mpi_win_delete_attr_(const MPI_Fint* win, const MPI_Fint* keyval, MPI_Fint* ierr) {
  *ierr = MPI_Win_delete_attr(*win, *keyval);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(comm_null_copy_fn)
TILEMPI_PMPI_F_ALIAS(comm_dup_fn)
TILEMPI_PMPI_F_ALIAS(comm_null_delete_fn)
TILEMPI_PMPI_F_ALIAS(type_null_copy_fn)
TILEMPI_PMPI_F_ALIAS(type_dup_fn)
TILEMPI_PMPI_F_ALIAS(win_null_copy_fn)
TILEMPI_PMPI_F_ALIAS(win_dup_fn)
TILEMPI_PMPI_F_ALIAS(win_null_delete_fn)
TILEMPI_PMPI_F_ALIAS(type_null_delete_fn)
TILEMPI_PMPI_F_ALIAS(null_copy_fn)
TILEMPI_PMPI_F_ALIAS(dup_fn)
TILEMPI_PMPI_F_ALIAS(null_delete_fn)
TILEMPI_PMPI_F_ALIAS(comm_create_errhandler)
TILEMPI_PMPI_F_ALIAS(errhandler_create)
TILEMPI_PMPI_F_ALIAS(comm_call_errhandler)
TILEMPI_PMPI_F_ALIAS(comm_create_keyval)
TILEMPI_PMPI_F_ALIAS(keyval_create)
TILEMPI_PMPI_F_ALIAS(comm_free_keyval)
TILEMPI_PMPI_F_ALIAS(keyval_free)
TILEMPI_PMPI_F_ALIAS(comm_set_attr)
TILEMPI_PMPI_F_ALIAS(attr_put)
TILEMPI_PMPI_F_ALIAS(comm_get_attr)
TILEMPI_PMPI_F_ALIAS(attr_get)
TILEMPI_PMPI_F_ALIAS(comm_delete_attr)
TILEMPI_PMPI_F_ALIAS(attr_delete)
TILEMPI_PMPI_F_ALIAS(type_create_keyval)
TILEMPI_PMPI_F_ALIAS(type_free_keyval)
TILEMPI_PMPI_F_ALIAS(type_set_attr)
TILEMPI_PMPI_F_ALIAS(type_get_attr)
TILEMPI_PMPI_F_ALIAS(type_delete_attr)
TILEMPI_PMPI_F_ALIAS(win_create_keyval)
TILEMPI_PMPI_F_ALIAS(win_free_keyval)
TILEMPI_PMPI_F_ALIAS(win_set_attr)
TILEMPI_PMPI_F_ALIAS(win_delete_attr)
