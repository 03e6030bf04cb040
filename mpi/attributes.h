// Attribute caching (api_attributes.cpp): what communicators, datatypes and windows hold, and the
// hooks that run the keyvals' callbacks when one is duplicated or freed.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mpi.h"

namespace tilempi::mpi {

/// An object's attributes: (keyval, value) pairs (a C pointer, or a Fortran integer value) in
/// the order they were first set, since freeing an object runs the delete callbacks last-set
/// first: MPI-3.1 §8.7.1 requires it of MPI_COMM_SELF at MPI_Finalize, and MPICH does it for
/// every object. Objects carry few attributes: a linear search finds one.
using AttrMap = std::vector<std::pair<int, void*>>;

enum class AttrObject { Comm, Type, Win };
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

/// An attribute set from Fortran is an integer, which C reads through a pointer to storage of the
/// library's (MPI-3.1 §17.2.7, Examples 17.14 and 17.15: *value == 7): the integer lives in a
/// cell, and the attribute's C value is the cell's address. Cells are counted by the attributes
/// that hold them (a C copy callback may copy the address) and go with the last.
/// A new cell holding value, held by nothing yet (attr_cell_drop() it if it is not stored).
void* attr_cell_new(MPI_Aint value);
/// Whether an attribute's C value is a cell, and its integer if so.
bool attr_cell_value(const void* value, MPI_Aint* out);
/// Frees a cell that no attribute holds (a set that failed); nothing for anything else.
void attr_cell_drop(void* value);
/// Create a keyval (the Fortran bindings use it with AttrLang::Fortran / Fortran1).
int keyval_create(AttrObject o, AttrLang lang, void (*copy)(), void (*del)(), int* keyval, void* extra, const char* fn);
/// Free a keyval of object o (MPI_*_free_keyval); errors go to MPI_COMM_WORLD's handler.
int keyval_free(AttrObject o, int* keyval, const char* fn);

/// Where an attribute call's error goes: the object's error handler (a communicator's for
/// communicators and datatypes, the window's for windows). Returns what the handler returns.
using AttrRaise = std::function<int(int error_class, const std::string& why)>;
/// MPI_*_set_attr, get_attr, delete_attr on an object's attributes (handle: the object's, passed to
/// the callbacks). attr_get answers the predefined communicator attributes itself.
int attr_set(AttrMap& attrs, AttrObject o, int handle, const AttrRaise& err, int key, void* value);
int attr_get(const AttrMap& attrs, AttrObject o, const AttrRaise& err, int key, void* value, int* flag);
int attr_delete(AttrMap& attrs, AttrObject o, int handle, const AttrRaise& err, int key);

}  // namespace tilempi::mpi
