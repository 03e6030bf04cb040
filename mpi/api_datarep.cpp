// User data representations (MPI-3.1 §13.5.3): MPI_Register_datarep names a representation and
// the functions that convert data between it and memory; MPI_File_set_view may then name it, and
// every read and write of that view converts (api_file.cpp: transfer).
//
// What is supported: a representation in which every basic type the view and the accesses use
// has its memory extent (the extent function says so, type by type), so that the file's layout
// is the types' own and only the bytes change: byte order, encodings, checksums of fixed size.
// A representation that changes sizes (8-byte file integers for 4-byte ones) needs the view's
// layout recomputed in the file's sizes, which tilempi does not do: MPI_File_set_view and the
// accesses refuse it with MPI_ERR_UNSUPPORTED_DATAREP, naming the type.
// Registrations are the rank's own (with ranks as contexts, each rank registers its own, as each
// MPI process would) and last until the process ends, as the standard has it.
#include <deque>
#include <string>

#include "check.h"
#include "file.h"
#include "type_signature.h"

using namespace tilempi::mpi;

namespace {

/// A deque, so that a File's pointer to its view's representation stays valid.
tilempi::transport::RankLocal<std::deque<Datarep>> g_datareps;

}  // namespace

namespace tilempi::mpi {
namespace {
/// 0 when `name` can be registered, else the error class and why.
int name_free(const std::string& name, std::string* why) {
  if (name.empty()) {
    *why = "the representation's name is empty";
    return MPI_ERR_ARG;
  }
  if (name.size() >= MPI_MAX_DATAREP_STRING) {
    *why = "the representation's name is longer than MPI_MAX_DATAREP_STRING - 1";
    return MPI_ERR_ARG;
  }
  if (name == "native" || name == "internal" || name == "external32" || datarep_find(name)) {
    *why = "the data representation '" + name + "' is already defined";
    return MPI_ERR_DUP_DATAREP;
  }
  return 0;
}

/// Registers d (from C or Fortran): 0, or the error class and why.
int add(Datarep d, bool has_extent, std::string* why) {
  if (int cls = name_free(d.name, why)) return cls;
  if (!has_extent) {
    *why = "dtype_file_extent_fn is not given";
    return MPI_ERR_ARG;
  }
  g_datareps.get().push_back(std::move(d));
  return MPI_SUCCESS;
}
}  // namespace
}  // namespace tilempi::mpi

namespace tilempi::mpi {

const Datarep* datarep_find(const std::string& name) {
  for (const Datarep& d : g_datareps.get())
    if (d.name == name) return &d;
  return nullptr;
}

int raise_on_file_null(int errclass, const char* fn, const std::string& why) {
  MPI_Errhandler handler = MPI_ERRORS_RETURN;
  MPI_File_get_errhandler(MPI_FILE_NULL, &handler);
  MPI_Errhandler held = handler;
  MPI_Errhandler_free(&held);  // (the reference get_errhandler made; MPI_FILE_NULL keeps its own)
  return raise_on(handler, MPI_FILE_NULL, errclass, fn, why);
}

bool datarep_converts(const Datarep& d, bool write) {
  return write ? (d.write || d.f_write) : (d.read || d.f_read);
}

int datarep_convert(const Datarep& d, bool write, void* userbuf, MPI_Datatype type, int count, void* filebuf) {
  if (MPI_Datarep_conversion_function* c = write ? d.write : d.read)
    return c(userbuf, type, count, filebuf, 0, d.extra_state);
  FortranConversion* f = write ? d.f_write : d.f_read;
  if (!f) return MPI_SUCCESS;
  MPI_Fint t = type, n = count, ierror = MPI_SUCCESS;
  MPI_Offset position = 0;
  MPI_Aint extra = d.f_extra_state;
  f(userbuf, &t, &n, filebuf, &position, &extra, &ierror);
  return ierror;
}

int datarep_extent(const Datarep& d, MPI_Datatype h, MPI_Aint* extent) {
  if (d.extent) return d.extent(h, extent, d.extra_state);
  MPI_Fint t = h, ierror = MPI_SUCCESS;
  MPI_Aint extra = d.f_extra_state;
  d.f_extent(&t, extent, &extra, &ierror);
  return ierror;
}

int datarep_register_fortran(const std::string& name, FortranConversion* read, FortranConversion* write,
                             FortranExtent* extent, MPI_Aint extra_state, std::string* why) {
  Datarep d;
  d.name = name;
  d.f_read = read;
  d.f_write = write;
  d.f_extent = extent;
  d.f_extra_state = extra_state;
  return add(std::move(d), extent != nullptr, why);
}

bool datarep_layout_native(const Datarep& d, MPI_Datatype h, std::string* why) {
  const TypeSignature sig = type_signature(h);
  for (const SignatureItems& r : sig) {
    MPI_Aint file_extent = -1;
    const int rc = datarep_extent(d, r.basic, &file_extent);
    const Datatype* b = datatype_get(r.basic);
    if (rc != MPI_SUCCESS) {
      *why = "its extent function failed (" + std::to_string(rc) + ") for " + b->name;
      return false;
    }
    if (file_extent != b->extent) {
      *why = std::string(b->name) + " takes " + std::to_string(file_extent) + " bytes in '" + d.name + "' and " +
             std::to_string(b->extent) +
             " in memory: tilempi's file views support representations that keep the extents";
      return false;
    }
  }
  return true;
}

}  // namespace tilempi::mpi

extern "C" {

int MPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
                         MPI_Datarep_conversion_function* write_conversion_fn,
                         MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Register_datarep";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  // Errors of no file go to MPI_FILE_NULL's handler (MPI-3.1 §13.7).
  auto fail = [&](int cls, const std::string& why) { return raise_on_file_null(cls, fn, why); };
  Datarep d;
  d.name = datarep ? datarep : "";
  d.read = read_conversion_fn;
  d.write = write_conversion_fn;
  d.extent = dtype_file_extent_fn;
  d.extra_state = extra_state;
  std::string why;
  if (int cls = add(std::move(d), dtype_file_extent_fn != nullptr, &why)) return fail(cls, why);
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Register_datarep)
