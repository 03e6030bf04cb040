// Attribute caching (api_attributes.cpp): what communicators and datatypes hold, and the hooks
// that run the keyvals' callbacks when one is duplicated or freed.
#pragma once

#include <map>

#include "mpi.h"

namespace tilempi::mpi {

/// An object's attributes: keyval -> value (a C pointer, or a Fortran integer value).
using AttrMap = std::map<int, void*>;

enum class AttrObject { Comm, Type };
/// The language of a keyval's callbacks: C, Fortran (values INTEGER(KIND=MPI_ADDRESS_KIND)) or
/// MPI-1 Fortran (MPI_KEYVAL_CREATE: default INTEGER values).
enum class AttrLang { C, Fortran, Fortran1 };

/// Run the copy callbacks of from's attributes (the object being duplicated is from_handle) and
/// put what they keep into to. Returns the first failing callback's code.
int attributes_copy(const AttrMap& from, int from_handle, AttrMap& to);
/// Run the delete callbacks of every attribute and empty attrs. Returns the first failure's code.
int attributes_delete(AttrMap& attrs, int handle);
/// Whether key is a predefined attribute key (MPI_TAG_UB, ...), whose C value is a pointer to int.
bool attr_predefined(int key);
/// Create a keyval (the Fortran bindings use it with AttrLang::Fortran / Fortran1).
int keyval_create(AttrObject o, AttrLang lang, void (*copy)(), void (*del)(), int* keyval, void* extra, const char* fn);

}  // namespace tilempi::mpi
