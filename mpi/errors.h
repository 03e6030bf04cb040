// MPI error classes, strings and handlers. Every API entry point checks its arguments and
// reports through raise(): fatal by default (the job ends with a message naming the call,
// the class and the culprit), returned to the caller under MPI_ERRORS_RETURN.
#pragma once

#include <string>

#include "mpi.h"

namespace tilempi::mpi {

/// Apply comm's error handler (MPI_COMM_WORLD's when comm is not a valid communicator).
/// Returns errclass when the handler returns.
int raise(MPI_Comm comm, int errclass, const char* function, const std::string& detail);

/// Whether h names an error handler (predefined, or a user's that the user still holds).
bool errhandler_valid(MPI_Errhandler h);
/// A user handler's function (nullptr for the predefined ones).
MPI_Comm_errhandler_function* errhandler_function(MPI_Errhandler h);
/// The same with an explicit handler (objects other than communicators: windows, files).
int raise_with(MPI_Errhandler handler, int errclass, const char* function, const std::string& detail);
/// The same for object `handle` (a window, a file): a user's handler is called with it.
int raise_on(MPI_Errhandler handler, int handle, int errclass, const char* function, const std::string& detail);

/// The kind of object a user's error handler was made for (MPI_Comm/Win/File_create_errhandler);
/// a handler may be set only on its kind of object.
enum class ErrhandlerFor { Comm, Win, File };
/// A new user handler of that kind (one reference held by the user).
MPI_Errhandler errhandler_create(MPI_Comm_errhandler_function* function, ErrhandlerFor kind);
/// Whether h is a predefined handler or a live user handler made for `kind`.
bool errhandler_fits(MPI_Errhandler h, ErrhandlerFor kind);
/// A get_errhandler call hands the user another reference to h.
void errhandler_ref(MPI_Errhandler h);

/// The fixed text of an error class, e.g. "MPI_ERR_RANK: invalid rank".
const char* error_string(int errclass);
/// What the fatal path would have printed for the last error of class errclass that this rank
/// returned to the program ("MPI_Send: MPI_ERR_RANK: invalid rank: rank 9 is not ..."), or nullptr
/// if none has been. Error codes are their classes: MPI_Error_string of a code says this.
const std::string* returned_error_message(int errclass);

}  // namespace tilempi::mpi
