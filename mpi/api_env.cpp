// MPI environment: init, finalize, abort, time, versions; tilempi's job-description extensions.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "check.h"
#include "hooks.h"
#include "p2p.h"
#include "user_errors.h"

using namespace tilempi::mpi;

namespace {

int copy_out(const std::string& s, char* out, int len) {
  if (!out || len <= 0) return MPI_ERR_ARG;
  std::snprintf(out, static_cast<std::size_t>(len), "%s", s.c_str());
  return MPI_SUCCESS;
}

// On a virtual clock, time passes only as the transport charges it: with --compute none a rank
// that waits for time to pass by polling MPI_Wtime (HPCG sizing its run, OSU's dummy compute)
// spins for ever. Say so once, with the option that ends it.
constexpr std::uint64_t kFrozenWtimeCalls = 1000000;

void note_wtime(Runtime& rt, double now) {
  if (now != rt.last_wtime) {
    rt.last_wtime = now;
    rt.same_wtime_calls = 0;
    return;
  }
  if (++rt.same_wtime_calls < kFrozenWtimeCalls || rt.said_time_frozen) return;
  rt.said_time_frozen = true;
  std::fprintf(stderr,
               "tilempi: rank %d: MPI_Wtime returned the same virtual time %llu times in a row: no virtual time "
               "passes between this rank's MPI calls (--compute none charges no compute), so a loop that waits "
               "for time to pass never ends; run with --compute model (the default) or --compute scale:F\n",
               rt.transport->rank(), static_cast<unsigned long long>(kFrozenWtimeCalls));
  std::fflush(stderr);
}

int init(int required) {
  Runtime& rt = runtime();
  if (rt.initialized) return raise(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init", "MPI is already initialized");
  if (rt.finalized) return raise(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init", "MPI cannot be initialized again after MPI_Finalize");
  try {
    rt.transport = tilempi::transport::connect_from_environment();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilempi: MPI_Init failed: %s\n", e.what());
    std::fflush(stderr);
    _exit(1);
  }
  // Levels above FUNNELED need threads that share the rank's library state: on a transport in
  // real time (host: a rank is a process) they do; on a modeled one (sim: a rank may be a
  // context of the simulator process, whose scheduler knows only the rank's own thread) they do
  // not, so it provides FUNNELED at most.
  const bool modeled = rt.transport->capabilities().virtual_time;
  rt.bracketed = modeled ? rt.transport.get() : nullptr;
  rt.real_time = !modeled;
  const int most = modeled ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE;
  rt.thread_level = required > most ? most : (required < 0 ? 0 : required);
  threads::g_multiple = rt.thread_level == MPI_THREAD_MULTIPLE;
  comms_init(rt.transport->rank(), rt.transport->size());
  // A transport that brackets the calls knows which one a waiting rank is in; one in real time
  // does not (a bracket would cost every call), so its description names the call.
  if (modeled) {
    rt.transport->set_describer(describe_pending);
  } else {
    rt.transport->set_describer([] {
      const char* call = runtime().call;
      return call ? std::string("in ") + call + ": " + describe_pending() : describe_pending();
    });
  }
  tilempi::transport::watch_library_depth(&rt.api_depth);
  rt.initialized = true;
  int rc = coll_initialize();
  if (rc != MPI_SUCCESS) return raise(MPI_COMM_WORLD, rc, "MPI_Init", "collective algorithm selection failed");
  rt.direct_p2p = rt.real_time && !rt.bracketed && !threads::g_multiple;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Init(int*, char***) {
  ApiScope api_scope(__func__);
  return init(MPI_THREAD_SINGLE);
}

int MPI_Init_thread(int*, char***, int required, int* provided) {
  ApiScope api_scope(__func__);
  int rc = init(required);
  if (provided) *provided = runtime().thread_level;
  return rc;
}

int MPI_Initialized(int* flag) {
  ApiScope api_scope(__func__);
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Initialized", "flag is NULL");
  *flag = runtime().initialized;
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  ApiScope api_scope(__func__);
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Finalized", "flag is NULL");
  *flag = runtime().finalized;
  return MPI_SUCCESS;
}

int MPI_Pcontrol(const int, ...) {
  ApiScope api_scope(__func__);
  return MPI_SUCCESS;
}

int MPI_Finalize(void) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Finalize", &rc)) return rc;
  // MPI_COMM_SELF's attributes are deleted first, so that a library can hook MPI_Finalize with a
  // delete callback (MPI-3.1 §8.7.1).
  if (Comm* self = comm_get(MPI_COMM_SELF))
    if (int e = attributes_delete(self->attributes, MPI_COMM_SELF))
      return raise(MPI_COMM_WORLD, e, "MPI_Finalize", "a delete callback of an MPI_COMM_SELF attribute failed");
  bsend_drain();  // MPI_Finalize completes every buffered send
  coll_finalize();
  Runtime& rt = runtime();
  rt.direct_p2p = false;
  rt.transport->finalize();
  tilempi::transport::watch_library_depth(nullptr);
  rt.finalized = true;
  comms_clear();
  rt.bracketed = nullptr;
  rt.real_time = false;
  rt.transport.reset();
  return MPI_SUCCESS;
}

int MPI_Query_thread(int* provided) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Query_thread", &rc)) return rc;
  if (!provided) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
  *provided = runtime().thread_level;
  return MPI_SUCCESS;
}

int MPI_Is_thread_main(int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Is_thread_main", &rc)) return rc;
  if (!flag) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
  *flag = getpid() == gettid();
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  ApiScope api_scope(__func__);
  Runtime& rt = runtime();
  (void)comm;  // tilempi ends the whole job, as MPICH does for any communicator
  std::string why = "MPI_Abort(" + std::to_string(comm) + ", " + std::to_string(errorcode) + ")";
  if (rt.transport && rt.initialized && !rt.finalized) rt.transport->abort(errorcode, why);
  std::fprintf(stderr, "tilempi: %s called outside an MPI job\n", why.c_str());
  _exit(errorcode);
}

int MPI_Get_version(int* version, int* subversion) {
  ApiScope api_scope(__func__);
  if (!version || !subversion) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_version", "NULL argument");
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Get_library_version(char* version, int* resultlen) {
  ApiScope api_scope(__func__);
  if (!version || !resultlen) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_library_version", "NULL argument");
  std::string v = "tilempi 0.1.0 (MPI 3.1 subset; host and modeled-mesh transports)";
  copy_out(v, version, MPI_MAX_LIBRARY_VERSION_STRING);
  *resultlen = static_cast<int>(std::strlen(version));
  return MPI_SUCCESS;
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Get_processor_name", &rc)) return rc;
  if (!name || !resultlen) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL argument");
  char host[MPI_MAX_PROCESSOR_NAME] = "localhost";
  gethostname(host, sizeof host - 1);
  std::string n = host;
  if (runtime().transport->capabilities().modeled_tiles) {
    const auto& c = runtime().transport->rank_placement().coord[runtime().transport->rank()];
    n = "tile(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
  }
  copy_out(n, name, MPI_MAX_PROCESSOR_NAME);
  *resultlen = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

double MPI_Wtime(void) {
  ApiScope api_scope(__func__);
  Runtime& rt = runtime();
  if (!rt.transport) {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  const double now = rt.transport->wtime();
  if (rt.bracketed) note_wtime(rt, now);
  return now;
}

double MPI_Wtick(void) {
  ApiScope api_scope(__func__);
  Runtime& rt = runtime();
  return rt.transport ? rt.transport->wtick() : 1e-9;
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  ApiScope api_scope(__func__);
  const char* s = error_string(errorcode);
  if (!s) s = user_error_string(errorcode);  // a code the program added (api_error_codes.cpp)
  if (!string || !resultlen) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string", "NULL argument");
  if (!s) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string", "unknown error code " + std::to_string(errorcode));
  // The code a call returned says what that call's failure was, as the fatal path would have.
  if (const std::string* returned = returned_error_message(errorcode)) s = returned->c_str();
  copy_out(s, string, MPI_MAX_ERROR_STRING);
  *resultlen = static_cast<int>(std::strlen(string));
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  ApiScope api_scope(__func__);
  if (!errorclass) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", "errorclass is NULL");
  if (user_error_class(errorcode, errorclass)) return MPI_SUCCESS;
  if (!error_string(errorcode))
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", "unknown error code " + std::to_string(errorcode));
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

int TILEMPIX_Transport_name(char* name, int len) {
  int rc;
  if (!check::initialized("TILEMPIX_Transport_name", &rc)) return rc;
  return copy_out(runtime().transport->name(), name, len);
}

double TILEMPIX_Energy(void) {
  ApiScope api_scope(__func__);
  Runtime& rt = runtime();
  return rt.transport ? rt.transport->energy() : 0.0;
}

int TILEMPIX_Compute(long long cycles) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("TILEMPIX_Compute", &rc)) return rc;
  if (cycles < 0)
    return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "TILEMPIX_Compute", "cycles = " + std::to_string(cycles) + " is negative");
  runtime().transport->compute(static_cast<std::uint64_t>(cycles));
  return MPI_SUCCESS;
}

int TILEMPIX_Migrate(MPI_Comm comm, int rank, int tile) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "TILEMPIX_Migrate", &rc);
  if (!c) return rc;
  if (!check::dest(*c, rank, "TILEMPIX_Migrate", &rc)) return rc;
  if (rank == MPI_PROC_NULL) return raise(comm, MPI_ERR_RANK, "TILEMPIX_Migrate", "MPI_PROC_NULL has no task to move");
  if (tile < 0) return raise(comm, MPI_ERR_ARG, "TILEMPIX_Migrate", "tile = " + std::to_string(tile) + " is negative");
  auto& t = *runtime().transport;
  const std::string where = "rank " + std::to_string(rank) + " to tile " + std::to_string(tile) + ": ";
  switch (t.migrate(c->world[rank], tile)) {
    case tilempi::transport::MigrateResult::Ok:
      return MPI_SUCCESS;
    case tilempi::transport::MigrateResult::BadTile:
      return raise(comm, MPI_ERR_ARG, "TILEMPIX_Migrate", where + "the chip has no such tile");
    case tilempi::transport::MigrateResult::Occupied:
      return raise(comm, MPI_ERR_ARG, "TILEMPIX_Migrate",
                   where + "the tile is occupied (a rank sits there, or a migration in progress involves it or the rank)");
    default:
      return raise(comm, MPI_ERR_UNSUPPORTED_OPERATION, "TILEMPIX_Migrate",
                   where + "the " + std::string(t.name()) + " transport cannot move a task here (task migration needs the sim transport with the namp adapter)");
  }
}

int TILEMPIX_Mesh_shape(int* width, int* height) {
  int rc;
  if (!check::initialized("TILEMPIX_Mesh_shape", &rc)) return rc;
  const auto& t = runtime().transport->rank_placement();
  if (width) *width = t.width;
  if (height) *height = t.height;
  return MPI_SUCCESS;
}

int TILEMPIX_Rank_coords(MPI_Comm comm, int rank, int* x, int* y) {
  int rc;
  Comm* c = check::comm(comm, "TILEMPIX_Rank_coords", &rc);
  if (!c) return rc;
  if (!check::dest(*c, rank, "TILEMPIX_Rank_coords", &rc)) return rc;
  if (rank == MPI_PROC_NULL) return raise(comm, MPI_ERR_RANK, "TILEMPIX_Rank_coords", "MPI_PROC_NULL has no tile");
  const auto& coord = runtime().transport->rank_placement().coord[c->world[rank]];
  if (x) *x = coord.x;
  if (y) *y = coord.y;
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Init)
TILEMPI_PMPI_ALIAS(Init_thread)
TILEMPI_PMPI_ALIAS(Initialized)
TILEMPI_PMPI_ALIAS(Finalized)
TILEMPI_PMPI_ALIAS(Pcontrol)
TILEMPI_PMPI_ALIAS(Finalize)
TILEMPI_PMPI_ALIAS(Query_thread)
TILEMPI_PMPI_ALIAS(Is_thread_main)
TILEMPI_PMPI_ALIAS(Abort)
TILEMPI_PMPI_ALIAS(Get_version)
TILEMPI_PMPI_ALIAS(Get_library_version)
TILEMPI_PMPI_ALIAS(Get_processor_name)
TILEMPI_PMPI_ALIAS(Wtime)
TILEMPI_PMPI_ALIAS(Wtick)
TILEMPI_PMPI_ALIAS(Error_string)
TILEMPI_PMPI_ALIAS(Error_class)
