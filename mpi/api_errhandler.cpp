// Error handlers: the predefined MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN, and the user's
// (MPI_Comm_create_errhandler and MPI-1's MPI_Errhandler_create), which raise() calls with the
// communicator and the error class; MPI_Comm_call_errhandler; the MPI-1 names
// MPI_Errhandler_set/get.
//
// A user handler's handle stays callable for as long as a communicator has it, whatever
// MPI_Errhandler_free did (the standard frees it only when nothing uses it); the handle itself
// becomes invalid for MPI_Comm_set_errhandler once every reference the user held is freed
// (MPI_Comm_create_errhandler and MPI_Comm_get_errhandler each give one).
#include <string>
#include <vector>

#include "check.h"
#include "errors.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

struct Handler {
  MPI_Comm_errhandler_function* fn = nullptr;
  int refs = 0;  ///< references the user holds
  ErrhandlerFor kind = ErrhandlerFor::Comm;
};

/// Index: handle - kFirstUser.
constexpr MPI_Errhandler kFirstUser = 3;

std::vector<Handler>& handlers() {
  static transport::RankLocal<std::vector<Handler>> h;  // per rank (see rank_local.h)
  return h.get();
}

Handler* user_handler(MPI_Errhandler h) {
  auto& hs = handlers();
  if (h < kFirstUser || static_cast<std::size_t>(h - kFirstUser) >= hs.size()) return nullptr;
  return &hs[static_cast<std::size_t>(h - kFirstUser)];
}

}  // namespace

bool errhandler_valid(MPI_Errhandler h) {
  if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN) return true;
  const Handler* u = user_handler(h);
  return u && u->refs > 0;
}

MPI_Comm_errhandler_function* errhandler_function(MPI_Errhandler h) {
  const Handler* u = user_handler(h);
  return u ? u->fn : nullptr;
}

MPI_Errhandler errhandler_create(MPI_Comm_errhandler_function* function, ErrhandlerFor kind) {
  auto& hs = handlers();
  hs.push_back(Handler{function, 1, kind});
  return kFirstUser + static_cast<MPI_Errhandler>(hs.size() - 1);
}

bool errhandler_fits(MPI_Errhandler h, ErrhandlerFor kind) {
  if (!errhandler_valid(h)) return false;
  const Handler* u = user_handler(h);
  return !u || u->kind == kind;
}

void errhandler_ref(MPI_Errhandler h) {
  if (Handler* u = user_handler(h)) ++u->refs;
}

}  // namespace tilempi::mpi

using namespace tilempi::mpi;

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Comm_create_errhandler", &rc)) return rc;
  if (!function || !errhandler)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "function or errhandler is NULL");
  *errhandler = errhandler_create(function, ErrhandlerFor::Comm);
  return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  return MPI_Comm_create_errhandler(function, errhandler);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_set_errhandler", &rc);
  if (!c) return rc;
  if (!errhandler_fits(errhandler, ErrhandlerFor::Comm))
    return raise(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
                 "error handler " + std::to_string(errhandler) + " is not valid for a communicator");
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  ApiScope api_scope(__func__);
  return MPI_Comm_set_errhandler(comm, errhandler);
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_get_errhandler", &rc);
  if (!c) return rc;
  if (!errhandler) return raise(comm, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "errhandler is NULL");
  *errhandler = c->errhandler;
  if (Handler* u = user_handler(c->errhandler)) ++u->refs;  // a new reference (MPI-3.1 §8.3.1)
  return MPI_SUCCESS;
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  return MPI_Comm_get_errhandler(comm, errhandler);
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  ApiScope api_scope(__func__);
  if (!errhandler) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_free", "errhandler is NULL");
  if (!errhandler_valid(*errhandler))
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_free",
                 "error handler " + std::to_string(*errhandler) + " is not valid");
  if (Handler* u = user_handler(*errhandler)) --u->refs;  // the predefined handlers are never freed
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_call_errhandler", &rc);
  if (!c) return rc;
  raise(comm, errorcode, "MPI_Comm_call_errhandler", "the application called the handler");
  return MPI_SUCCESS;  // the handler returned (MPI-3.1 §8.3.5)
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Comm_create_errhandler)
TILEMPI_PMPI_ALIAS(Errhandler_create)
TILEMPI_PMPI_ALIAS(Comm_set_errhandler)
TILEMPI_PMPI_ALIAS(Errhandler_set)
TILEMPI_PMPI_ALIAS(Comm_get_errhandler)
TILEMPI_PMPI_ALIAS(Errhandler_get)
TILEMPI_PMPI_ALIAS(Errhandler_free)
TILEMPI_PMPI_ALIAS(Comm_call_errhandler)
