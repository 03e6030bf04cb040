// What pending operations hold: the objects behind the handles they use outlive the user's free.
//
// MPI frees an object only once nothing uses it: MPI_Comm_free, MPI_Type_free and MPI_Op_free
// "mark the object for deallocation"; operations pending on it "complete normally" (MPI-3.1
// §2.5.1, §4.1.9, §5.9.5, §6.4.3). So a pending operation holds each object it uses: a
// non-blocking collective holds its communicator, datatypes and op until its code ends, a
// receive holds its derived datatype until it completes, a persistent request holds its
// communicator and datatype until it is freed. A freed handle stops naming the object at once
// (using it again is an error, as before), but the object stays, in its slot, until the last hold
// goes; only then is the slot free for a new object, so that an operation that names the object
// by its handle (a user op, a communicator's error handler) never reaches a newer one.
//
// Groups need no holds: what uses one copies its members (MPI_Win_post, MPI_Win_start,
// MPI_Comm_create_group). Error handlers are never reused (api_errhandler.cpp). Keyvals are held
// by the attributes that carry them (api_attributes.cpp).
#pragma once

#include <vector>

#include "mpi.h"

namespace tilempi::mpi {

struct Comm;
struct Datatype;

/// How many pending operations hold an object, and whether its handle was freed. Part of the
/// object, but never copied with it: a copy (a duplicate, a resized type) is a new object.
struct HoldCount {
  int count = 0;
  bool freed = false;  ///< the user freed the handle: the object goes with its last hold
  HoldCount() = default;
  HoldCount(const HoldCount&) {}
  HoldCount& operator=(const HoldCount&) { return *this; }
};

/// Hold the communicator a live handle names; returns it, or nullptr for a predefined or invalid
/// handle (nothing to hold: the predefined ones live until MPI_Finalize, and a call with an
/// invalid one fails on it before it can be pending).
Comm* comm_hold(MPI_Comm h);
void comm_unhold(Comm* c);
/// The communicator h names, whether the user freed h or not, while something holds it: for the
/// code of the operations that hold it (its error handler, its notices). nullptr when h names none.
Comm* comm_find(MPI_Comm h);

/// Hold a derived datatype (predefined ones and nullptr: nothing). The description stays valid
/// after MPI_Type_free until the last hold goes.
void datatype_hold(const Datatype* t);
void datatype_unhold(const Datatype* t);

/// Hold a user op: its slot is not reused and its function stays callable after MPI_Op_free.
/// Returns whether there was a user op to hold.
bool op_hold(MPI_Op op);
void op_unhold(MPI_Op op);

/// The holds of one pending operation, let go when it is destroyed; a copy holds the same objects
/// once more (the non-blocking collectives keep theirs in a std::function, which copies).
class Holds {
 public:
  Holds() = default;
  Holds(MPI_Comm comm, const std::vector<MPI_Datatype>& types, MPI_Op op = MPI_OP_NULL);
  Holds(const Holds& o);
  Holds& operator=(const Holds&) = delete;
  ~Holds();

 private:
  Comm* comm_ = nullptr;
  std::vector<const Datatype*> types_;
  MPI_Op op_ = MPI_OP_NULL;  ///< a held user op, else MPI_OP_NULL
};

}  // namespace tilempi::mpi
