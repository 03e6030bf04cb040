// Fortran bindings: process creation and management (mpi/api_dynamic.cpp says what each call does
// in a job whose ranks are fixed). The spawn calls' argument lists are never read, so they are not
// converted.
#include <string>

#include "fortran_support.h"

using namespace tilempi::fortran;

namespace {

/// A Fortran ARRAY_OF_ERRCODES: MPI_ERRCODES_IGNORE becomes C's.
int* errcodes(MPI_Fint* f) {
  if (f == tilempi_errcodes_ignore_ || f == image_sentinels().errcodes_ignore) return MPI_ERRCODES_IGNORE;
  return f;
}

}  // namespace

extern "C" {

void mpi_comm_get_parent_(MPI_Fint* parent, MPI_Fint* ierr) { *ierr = MPI_Comm_get_parent(parent); }

void mpi_comm_spawn_(const char* command, const char* argv, const MPI_Fint* maxprocs, const MPI_Fint* info,
                     const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* intercomm, MPI_Fint* array_of_errcodes,
                     MPI_Fint* ierr, std::size_t command_len, std::size_t argv_len) {
  (void)argv;
  (void)argv_len;
  *ierr = MPI_Comm_spawn(c_string(command, command_len).c_str(), MPI_ARGV_NULL, *maxprocs, *info, *root, *comm,
                         intercomm, errcodes(array_of_errcodes));
}

void mpi_comm_spawn_multiple_(const MPI_Fint* count, const char* commands, const char* argv, const MPI_Fint* maxprocs,
                              const MPI_Fint* infos, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* intercomm,
                              MPI_Fint* array_of_errcodes, MPI_Fint* ierr, std::size_t commands_len,
                              std::size_t argv_len) {
  (void)commands;
  (void)argv;
  (void)commands_len;
  (void)argv_len;
  *ierr = MPI_Comm_spawn_multiple(*count, nullptr, MPI_ARGVS_NULL, maxprocs, infos, *root, *comm, intercomm,
                                  errcodes(array_of_errcodes));
}

void mpi_open_port_(const MPI_Fint* info, char* port_name, MPI_Fint* ierr, std::size_t port_name_len) {
  char c[MPI_MAX_PORT_NAME] = {};
  *ierr = MPI_Open_port(*info, c);
  if (*ierr == MPI_SUCCESS) to_fortran_string(c, static_cast<int>(std::strlen(c)), port_name, port_name_len);
}

void mpi_close_port_(const char* port_name, MPI_Fint* ierr, std::size_t port_name_len) {
  *ierr = MPI_Close_port(c_string(port_name, port_name_len).c_str());
}

void mpi_comm_accept_(const char* port_name, const MPI_Fint* info, const MPI_Fint* root, const MPI_Fint* comm,
                      MPI_Fint* newcomm, MPI_Fint* ierr, std::size_t port_name_len) {
  *ierr = MPI_Comm_accept(c_string(port_name, port_name_len).c_str(), *info, *root, *comm, newcomm);
}

void mpi_comm_connect_(const char* port_name, const MPI_Fint* info, const MPI_Fint* root, const MPI_Fint* comm,
                       MPI_Fint* newcomm, MPI_Fint* ierr, std::size_t port_name_len) {
  *ierr = MPI_Comm_connect(c_string(port_name, port_name_len).c_str(), *info, *root, *comm, newcomm);
}

void mpi_publish_name_(const char* service_name, const MPI_Fint* info, const char* port_name, MPI_Fint* ierr,
                       std::size_t service_len, std::size_t port_len) {
  *ierr = MPI_Publish_name(c_string(service_name, service_len).c_str(), *info, c_string(port_name, port_len).c_str());
}

void mpi_unpublish_name_(const char* service_name, const MPI_Fint* info, const char* port_name, MPI_Fint* ierr,
                         std::size_t service_len, std::size_t port_len) {
  *ierr = MPI_Unpublish_name(c_string(service_name, service_len).c_str(), *info, c_string(port_name, port_len).c_str());
}

void mpi_lookup_name_(const char* service_name, const MPI_Fint* info, char* port_name, MPI_Fint* ierr,
                      std::size_t service_len, std::size_t port_len) {
  char c[MPI_MAX_PORT_NAME] = {};
  *ierr = MPI_Lookup_name(c_string(service_name, service_len).c_str(), *info, c);
  if (*ierr == MPI_SUCCESS) to_fortran_string(c, static_cast<int>(std::strlen(c)), port_name, port_len);
}

void mpi_comm_join_(const MPI_Fint* fd, MPI_Fint* intercomm, MPI_Fint* ierr) { *ierr = MPI_Comm_join(*fd, intercomm); }

void mpi_comm_disconnect_(MPI_Fint* comm, MPI_Fint* ierr) { *ierr = MPI_Comm_disconnect(comm); }

}  // extern "C"

TILEMPI_PMPI_F_ALIAS(comm_get_parent)
TILEMPI_PMPI_F_ALIAS(comm_spawn)
TILEMPI_PMPI_F_ALIAS(comm_spawn_multiple)
TILEMPI_PMPI_F_ALIAS(open_port)
TILEMPI_PMPI_F_ALIAS(close_port)
TILEMPI_PMPI_F_ALIAS(comm_accept)
TILEMPI_PMPI_F_ALIAS(comm_connect)
TILEMPI_PMPI_F_ALIAS(publish_name)
TILEMPI_PMPI_F_ALIAS(unpublish_name)
TILEMPI_PMPI_F_ALIAS(lookup_name)
TILEMPI_PMPI_F_ALIAS(comm_join)
TILEMPI_PMPI_F_ALIAS(comm_disconnect)
