#include "errors.h"
#include "user_errors.h"

#include <cstdio>
#include <string>
#include <vector>
#include <unistd.h>

#include "comm.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

/// The message of the last error of each class returned to the program (per rank): error codes
/// are the classes, so this is what MPI_Error_string can say about the code the program holds.
std::vector<std::string>& returned_messages() {
  static transport::RankLocal<std::vector<std::string>> m;  // per rank (see rank_local.h)
  return m.get();
}

/// "function: class text: detail", the fatal path's message.
std::string compose(int errclass, const char* function, const std::string& detail) {
  const char* text = error_string(errclass);
  std::string added;  // a code the program added (MPI_Add_error_code): its string, else its number
  if (!text) {
    if (const char* s = user_error_string(errclass)) {
      added = *s ? std::string(s) : "error code " + std::to_string(errclass) + " (added by the program)";
      text = added.c_str();
    }
  }
  return std::string(function) + ": " + (text ? text : "unknown error class") + (detail.empty() ? "" : ": ") + detail;
}

/// An error of errclass goes back to the program: keep its message for MPI_Error_string.
void remember(int errclass, const char* function, const std::string& detail) {
  if (errclass <= MPI_SUCCESS || errclass > MPI_ERR_LASTCODE) return;
  auto& m = returned_messages();
  if (m.size() <= static_cast<std::size_t>(errclass)) m.resize(MPI_ERR_LASTCODE + 1);
  m[static_cast<std::size_t>(errclass)] = compose(errclass, function, detail);
}

}  // namespace

const std::string* returned_error_message(int errclass) {
  const auto& m = returned_messages();
  if (errclass <= MPI_SUCCESS || static_cast<std::size_t>(errclass) >= m.size() || m[errclass].empty()) return nullptr;
  return &m[static_cast<std::size_t>(errclass)];
}

const char* error_string(int errclass) {
  switch (errclass) {
    case MPI_SUCCESS: return "MPI_SUCCESS: no error";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER: invalid buffer pointer";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT: invalid count argument";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE: invalid datatype";
    case MPI_ERR_TAG: return "MPI_ERR_TAG: invalid tag";
    case MPI_ERR_COMM: return "MPI_ERR_COMM: invalid communicator";
    case MPI_ERR_RANK: return "MPI_ERR_RANK: invalid rank";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT: invalid root";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP: invalid group";
    case MPI_ERR_OP: return "MPI_ERR_OP: invalid reduce operation";
    case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY: invalid topology";
    case MPI_ERR_DIMS: return "MPI_ERR_DIMS: invalid dimension argument";
    case MPI_ERR_ARG: return "MPI_ERR_ARG: invalid argument";
    case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN: unknown error";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE: message truncated";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER: known error not in this list";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN: internal error";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS: error code is in status";
    case MPI_ERR_PENDING: return "MPI_ERR_PENDING: pending request";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST: invalid request";
    case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL: invalid key value";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM: out of memory";
    case MPI_ERR_INFO: return "MPI_ERR_INFO: invalid info object";
    case MPI_ERR_INFO_KEY: return "MPI_ERR_INFO_KEY: info key too long or empty";
    case MPI_ERR_INFO_VALUE: return "MPI_ERR_INFO_VALUE: info value too long or empty";
    case MPI_ERR_INFO_NOKEY: return "MPI_ERR_INFO_NOKEY: no such info key";
    case MPI_ERR_BASE: return "MPI_ERR_BASE: invalid base address";
    case MPI_ERR_WIN: return "MPI_ERR_WIN: invalid window";
    case MPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC: wrong synchronization of one-sided operations";
    case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE: target memory is not part of the window";
    case MPI_ERR_RMA_ATTACH: return "MPI_ERR_RMA_ATTACH: memory cannot be attached";
    case MPI_ERR_RMA_SHARED: return "MPI_ERR_RMA_SHARED: memory cannot be shared";
    case MPI_ERR_RMA_FLAVOR: return "MPI_ERR_RMA_FLAVOR: wrong window flavor";
    case MPI_ERR_RMA_CONFLICT: return "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window";
    case MPI_ERR_SIZE: return "MPI_ERR_SIZE: invalid size argument";
    case MPI_ERR_DISP: return "MPI_ERR_DISP: invalid displacement argument";
    case MPI_ERR_ASSERT: return "MPI_ERR_ASSERT: invalid assert argument";
    case MPI_ERR_LOCKTYPE: return "MPI_ERR_LOCKTYPE: invalid lock type";
    case MPI_ERR_FILE: return "MPI_ERR_FILE: invalid file handle";
    case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE: file does not exist";
    case MPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS: file exists";
    case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY: file is read-only";
    case MPI_ERR_AMODE: return "MPI_ERR_AMODE: invalid access mode";
    case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS: permission denied";
    case MPI_ERR_BAD_FILE: return "MPI_ERR_BAD_FILE: invalid file name";
    case MPI_ERR_IO: return "MPI_ERR_IO: input/output error";
    case MPI_ERR_NO_SPACE: return "MPI_ERR_NO_SPACE: not enough space";
    case MPI_ERR_QUOTA: return "MPI_ERR_QUOTA: quota exceeded";
    case MPI_ERR_NOT_SAME: return "MPI_ERR_NOT_SAME: collective argument not the same on all processes";
    case MPI_ERR_FILE_IN_USE: return "MPI_ERR_FILE_IN_USE: file in use";
    case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation";
    case MPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION: data conversion failed";
    case MPI_ERR_DUP_DATAREP: return "MPI_ERR_DUP_DATAREP: data representation already defined";
    case MPI_ERR_SPAWN: return "MPI_ERR_SPAWN: could not spawn processes";
    case MPI_ERR_PORT: return "MPI_ERR_PORT: invalid port name";
    case MPI_ERR_SERVICE: return "MPI_ERR_SERVICE: invalid service name";
    case MPI_ERR_NAME: return "MPI_ERR_NAME: invalid name (nothing published under it)";
    case MPI_T_ERR_MEMORY: return "MPI_T_ERR_MEMORY: out of memory";
    case MPI_T_ERR_NOT_INITIALIZED: return "MPI_T_ERR_NOT_INITIALIZED: the tool information interface is not initialized";
    case MPI_T_ERR_CANNOT_INIT: return "MPI_T_ERR_CANNOT_INIT: the tool information interface cannot be initialized";
    case MPI_T_ERR_INVALID_INDEX: return "MPI_T_ERR_INVALID_INDEX: index of a variable, category or enumeration out of range";
    case MPI_T_ERR_INVALID_ITEM: return "MPI_T_ERR_INVALID_ITEM: item index out of range";
    case MPI_T_ERR_INVALID_HANDLE: return "MPI_T_ERR_INVALID_HANDLE: invalid tool handle";
    case MPI_T_ERR_OUT_OF_HANDLES: return "MPI_T_ERR_OUT_OF_HANDLES: no more handles available";
    case MPI_T_ERR_OUT_OF_SESSIONS: return "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available";
    case MPI_T_ERR_INVALID_SESSION: return "MPI_T_ERR_INVALID_SESSION: invalid performance variable session";
    case MPI_T_ERR_CVAR_SET_NOT_NOW: return "MPI_T_ERR_CVAR_SET_NOT_NOW: the control variable cannot be set now";
    case MPI_T_ERR_CVAR_SET_NEVER: return "MPI_T_ERR_CVAR_SET_NEVER: the control variable cannot be set";
    case MPI_T_ERR_PVAR_NO_STARTSTOP: return "MPI_T_ERR_PVAR_NO_STARTSTOP: the performance variable cannot be started or stopped";
    case MPI_T_ERR_PVAR_NO_WRITE: return "MPI_T_ERR_PVAR_NO_WRITE: the performance variable cannot be written or reset";
    case MPI_T_ERR_PVAR_NO_ATOMIC: return "MPI_T_ERR_PVAR_NO_ATOMIC: the performance variable cannot be read and reset atomically";
    case MPI_T_ERR_INVALID_NAME: return "MPI_T_ERR_INVALID_NAME: no variable or category of that name";
    case MPI_T_ERR_INVALID: return "MPI_T_ERR_INVALID: invalid use of the tool information interface";
    default: return nullptr;
  }
}

int raise(MPI_Comm comm, int errclass, const char* function, const std::string& detail) {
  Runtime& rt = runtime();
  MPI_Errhandler handler = MPI_ERRORS_ARE_FATAL;
  MPI_Comm handle = comm;
  if (rt.initialized && !rt.finalized) {
    Comm* c = comm_find(comm);  // (also a freed one that a pending operation holds)
    if (!c) c = comm_get(MPI_COMM_WORLD);
    if (c) {
      handler = c->errhandler;
      handle = c->handle;
    }
  }
  if (MPI_Comm_errhandler_function* user = errhandler_function(handler)) {
    remember(errclass, function, detail);
    int code = errclass;
    user(&handle, &code);  // a user's handler that returns lets the call return the class
    return errclass;
  }
  return raise_with(handler, errclass, function, detail);
}

int raise_on(MPI_Errhandler handler, int handle, int errclass, const char* function, const std::string& detail) {
  if (MPI_Comm_errhandler_function* user = errhandler_function(handler)) {
    remember(errclass, function, detail);
    int code = errclass;
    user(&handle, &code);  // (MPI_Win and MPI_File are ints, as MPI_Comm: the same function type)
    return errclass;
  }
  return raise_with(handler, errclass, function, detail);
}

int raise_with(MPI_Errhandler handler, int errclass, const char* function, const std::string& detail) {
  Runtime& rt = runtime();
  if (handler == MPI_ERRORS_RETURN) {
    remember(errclass, function, detail);
    return errclass;
  }

  int rank = rt.transport ? rt.transport->rank() : 0;
  char message[1024];
  std::snprintf(message, sizeof message, "%s", compose(errclass, function, detail).c_str());
  std::fprintf(stderr, "tilempi: rank %d: fatal error in %s\n", rank, message);
  std::fflush(stderr);
  if (rt.transport && !rt.finalized) rt.transport->abort(errclass == 0 ? 1 : errclass, message);
  _exit(errclass == 0 ? 1 : errclass);
}

}  // namespace tilempi::mpi
