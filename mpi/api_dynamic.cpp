// Process creation and management (MPI-3.1 chapter 10) in a library whose jobs have a fixed set of
// ranks: every rank is started by tilempirun (or is a singleton), a modeled chip has its tiles
// placed before the job starts, and no rank is ever added. So each call does what the standard
// lets an implementation do that cannot start or connect processes, with the error class the
// standard names for it, rather than being missing (a code that merely mentions MPI_Comm_spawn on
// a path it never takes did not compile):
//  - MPI_Comm_get_parent: MPI_COMM_NULL, which is exact: no rank has a parent.
//  - MPI_Comm_spawn, MPI_Comm_spawn_multiple: MPI_ERR_SPAWN, every error code MPI_ERR_SPAWN, the
//    intercommunicator MPI_COMM_NULL (§10.3.2: an implementation may fail to start processes).
//  - MPI_Open_port: MPI_ERR_UNSUPPORTED_OPERATION; MPI_Close_port, MPI_Comm_accept,
//    MPI_Comm_connect: MPI_ERR_PORT (no port was ever opened, so none is valid).
//  - MPI_Publish_name: MPI_ERR_UNSUPPORTED_OPERATION; MPI_Unpublish_name: MPI_ERR_SERVICE (not
//    published); MPI_Lookup_name: MPI_ERR_NAME (nothing published: §10.4.4's class).
//  - MPI_Comm_join: success with MPI_COMM_NULL, the outcome §10.5.4 gives an implementation that
//    cannot make the intercommunicator and leaves the socket as it was.
//  - MPI_Comm_disconnect: frees the communicator like MPI_Comm_free (any communicator may be
//    disconnected, §10.5.5); operations still pending on it complete as after MPI_Comm_free.
// MPICH makes the same choices where it is built without a process manager that can spawn.
#include <string>

#include "check.h"
#include "info.h"

using namespace tilempi::mpi;

namespace {

constexpr const char* kFixedRanks = "tilempi runs a fixed set of ranks started by tilempirun: no dynamic processes";

bool info_ok(MPI_Comm comm, MPI_Info info, const char* fn, int* rc) {
  if (info == MPI_INFO_NULL || info_valid(info)) return true;
  *rc = raise(comm, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  return false;
}

bool root_ok(MPI_Comm comm, const Comm& c, int root, const char* fn, int* rc) {
  if (root >= 0 && root < c.size) return true;
  *rc = raise(comm, MPI_ERR_ROOT, fn, "root " + std::to_string(root) + " is not a rank of the communicator");
  return false;
}

/// The checks every collective call of this chapter makes on (comm, root, output communicator).
Comm* collective_args(MPI_Comm comm, int root, MPI_Comm* out, const char* fn, int* rc) {
  Comm* c = check::comm(comm, fn, rc);
  if (!c) return nullptr;
  if (c->inter) {
    *rc = raise(comm, MPI_ERR_COMM, fn, "the communicator must be an intracommunicator");
    return nullptr;
  }
  if (!root_ok(comm, *c, root, fn, rc)) return nullptr;
  if (!out) {
    *rc = raise(comm, MPI_ERR_ARG, fn, "the output communicator pointer is NULL");
    return nullptr;
  }
  *out = MPI_COMM_NULL;
  return c;
}

int spawn_failed(MPI_Comm comm, int processes, int* errcodes, const char* fn) {
  if (errcodes != MPI_ERRCODES_IGNORE)
    for (int i = 0; i < processes; ++i) errcodes[i] = MPI_ERR_SPAWN;
  return raise(comm, MPI_ERR_SPAWN, fn, kFixedRanks);
}

}  // namespace

extern "C" {

int MPI_Comm_get_parent(MPI_Comm* parent) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Comm_get_parent", &rc)) return rc;
  if (!parent) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_get_parent", "parent is NULL");
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm* intercomm, int array_of_errcodes[]) {
  ApiScope api_scope(__func__);
  (void)command;
  (void)argv;
  const char* fn = "MPI_Comm_spawn";
  int rc;
  Comm* c = collective_args(comm, root, intercomm, fn, &rc);
  if (!c || !info_ok(comm, info, fn, &rc)) return rc;
  if (c->rank == root && maxprocs <= 0)
    return raise(comm, MPI_ERR_ARG, fn, "maxprocs " + std::to_string(maxprocs) + " is not positive");
  return spawn_failed(comm, c->rank == root ? maxprocs : 0, array_of_errcodes, fn);
}

int MPI_Comm_spawn_multiple(int count, char* array_of_commands[], char** array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                            MPI_Comm* intercomm, int array_of_errcodes[]) {
  ApiScope api_scope(__func__);
  (void)array_of_commands;
  (void)array_of_argv;
  (void)array_of_info;
  const char* fn = "MPI_Comm_spawn_multiple";
  int rc;
  Comm* c = collective_args(comm, root, intercomm, fn, &rc);
  if (!c) return rc;
  int processes = 0;
  if (c->rank == root) {
    if (count <= 0) return raise(comm, MPI_ERR_ARG, fn, "count " + std::to_string(count) + " is not positive");
    if (!array_of_maxprocs) return raise(comm, MPI_ERR_ARG, fn, "array_of_maxprocs is NULL");
    for (int i = 0; i < count; ++i) processes += array_of_maxprocs[i] > 0 ? array_of_maxprocs[i] : 0;
  }
  return spawn_failed(comm, processes, array_of_errcodes, fn);
}

int MPI_Open_port(MPI_Info info, char* port_name) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Open_port";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!info_ok(MPI_COMM_WORLD, info, fn, &rc)) return rc;
  if (!port_name) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "port_name is NULL");
  return raise(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, fn, kFixedRanks);
}

int MPI_Close_port(const char* port_name) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Close_port";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  return raise(MPI_COMM_WORLD, MPI_ERR_PORT, fn,
               std::string("'") + (port_name ? port_name : "(null)") + "' is not an open port (MPI_Open_port opens none)");
}

int MPI_Comm_accept(const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  (void)port_name;
  const char* fn = "MPI_Comm_accept";
  int rc;
  if (!collective_args(comm, root, newcomm, fn, &rc) || !info_ok(comm, info, fn, &rc)) return rc;
  return raise(comm, MPI_ERR_PORT, fn, "no port is open (MPI_Open_port opens none): " + std::string(kFixedRanks));
}

int MPI_Comm_connect(const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_connect";
  int rc;
  if (!collective_args(comm, root, newcomm, fn, &rc) || !info_ok(comm, info, fn, &rc)) return rc;
  return raise(comm, MPI_ERR_PORT, fn,
               std::string("no process accepts on '") + (port_name ? port_name : "(null)") + "': " + kFixedRanks);
}

int MPI_Publish_name(const char* service_name, MPI_Info info, const char* port_name) {
  ApiScope api_scope(__func__);
  (void)service_name;
  (void)port_name;
  const char* fn = "MPI_Publish_name";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!info_ok(MPI_COMM_WORLD, info, fn, &rc)) return rc;
  return raise(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, fn, kFixedRanks);
}

int MPI_Unpublish_name(const char* service_name, MPI_Info info, const char* port_name) {
  ApiScope api_scope(__func__);
  (void)port_name;
  const char* fn = "MPI_Unpublish_name";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!info_ok(MPI_COMM_WORLD, info, fn, &rc)) return rc;
  return raise(MPI_COMM_WORLD, MPI_ERR_SERVICE, fn,
               std::string("service '") + (service_name ? service_name : "(null)") + "' is not published");
}

int MPI_Lookup_name(const char* service_name, MPI_Info info, char* port_name) {
  ApiScope api_scope(__func__);
  (void)port_name;
  const char* fn = "MPI_Lookup_name";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!info_ok(MPI_COMM_WORLD, info, fn, &rc)) return rc;
  return raise(MPI_COMM_WORLD, MPI_ERR_NAME, fn,
               std::string("service '") + (service_name ? service_name : "(null)") + "' is not published");
}

int MPI_Comm_join(int fd, MPI_Comm* intercomm) {
  ApiScope api_scope(__func__);
  (void)fd;
  int rc;
  if (!check::initialized("MPI_Comm_join", &rc)) return rc;
  if (!intercomm) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_join", "intercomm is NULL");
  *intercomm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_disconnect(MPI_Comm* comm) {
  ApiScope api_scope(__func__);
  if (!comm) return raise(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_disconnect", "comm pointer is NULL");
  int rc;
  if (!check::comm(*comm, "MPI_Comm_disconnect", &rc)) return rc;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return raise(*comm, MPI_ERR_COMM, "MPI_Comm_disconnect", "MPI_COMM_WORLD and MPI_COMM_SELF cannot be disconnected");
  return PMPI_Comm_free(comm);
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Comm_get_parent)
TILEMPI_PMPI_ALIAS(Comm_spawn)
TILEMPI_PMPI_ALIAS(Comm_spawn_multiple)
TILEMPI_PMPI_ALIAS(Open_port)
TILEMPI_PMPI_ALIAS(Close_port)
TILEMPI_PMPI_ALIAS(Comm_accept)
TILEMPI_PMPI_ALIAS(Comm_connect)
TILEMPI_PMPI_ALIAS(Publish_name)
TILEMPI_PMPI_ALIAS(Unpublish_name)
TILEMPI_PMPI_ALIAS(Lookup_name)
TILEMPI_PMPI_ALIAS(Comm_join)
TILEMPI_PMPI_ALIAS(Comm_disconnect)
