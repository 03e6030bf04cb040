#include "errors.h"

#include <cstdio>
#include <unistd.h>

#include "comm.h"
#include "runtime.h"

namespace tilempi::mpi {

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
    default: return nullptr;
  }
}

int raise(MPI_Comm comm, int errclass, const char* function, const std::string& detail) {
  Runtime& rt = runtime();
  MPI_Errhandler handler = MPI_ERRORS_ARE_FATAL;
  MPI_Comm handle = comm;
  if (rt.initialized && !rt.finalized) {
    Comm* c = comm_get(comm);
    if (!c) c = comm_get(MPI_COMM_WORLD);
    if (c) {
      handler = c->errhandler;
      handle = c->handle;
    }
  }
  if (handler == MPI_ERRORS_RETURN) return errclass;
  if (MPI_Comm_errhandler_function* user = errhandler_function(handler)) {
    int code = errclass;
    user(&handle, &code);  // a user's handler that returns lets the call return the class
    return errclass;
  }

  const char* text = error_string(errclass);
  int rank = rt.transport ? rt.transport->rank() : 0;
  char message[1024];
  std::snprintf(message, sizeof message, "%s: %s%s%s", function, text ? text : "unknown error class",
                detail.empty() ? "" : ": ", detail.c_str());
  std::fprintf(stderr, "tilempi: rank %d: fatal error in %s\n", rank, message);
  std::fflush(stderr);
  if (rt.transport && !rt.finalized) rt.transport->abort(errclass == 0 ? 1 : errclass, message);
  _exit(errclass == 0 ? 1 : errclass);
}

}  // namespace tilempi::mpi
