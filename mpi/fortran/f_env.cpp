// Fortran bindings: environment, timers and error handling.
#include <string>

#include "fortran_support.h"
#include "tilempi_ext.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_init_(MPI_Fint* ierr) { *ierr = MPI_Init(nullptr, nullptr); }

void mpi_init_thread_(const MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  *ierr = MPI_Init_thread(nullptr, nullptr, *required, provided);
}

void mpi_initialized_(MPI_Fint* flag, MPI_Fint* ierr) {
  int c = 0;
  *ierr = MPI_Initialized(&c);
  *flag = logical(c);
}

void mpi_finalize_(MPI_Fint* ierr) { *ierr = MPI_Finalize(); }

void mpi_finalized_(MPI_Fint* flag, MPI_Fint* ierr) {
  int c = 0;
  *ierr = MPI_Finalized(&c);
  *flag = logical(c);
}

void mpi_query_thread_(MPI_Fint* provided, MPI_Fint* ierr) { *ierr = MPI_Query_thread(provided); }

void mpi_is_thread_main_(MPI_Fint* flag, MPI_Fint* ierr) {
  int c = 0;
  *ierr = MPI_Is_thread_main(&c);
  *flag = logical(c);
}

void mpi_abort_(const MPI_Fint* comm, const MPI_Fint* errorcode, MPI_Fint* ierr) {
  *ierr = MPI_Abort(*comm, *errorcode);
}

void mpi_get_version_(MPI_Fint* version, MPI_Fint* subversion, MPI_Fint* ierr) {
  *ierr = MPI_Get_version(version, subversion);
}

void mpi_get_library_version_(char* version, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t version_len) {
  char c[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {};
  int clen = 0;
  *ierr = MPI_Get_library_version(c, &clen);
  *resultlen = to_fortran_string(c, *ierr == MPI_SUCCESS ? clen : 0, version, version_len);
}

void mpi_get_processor_name_(char* name, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t name_len) {
  char c[MPI_MAX_PROCESSOR_NAME + 1] = {};
  int clen = 0;
  *ierr = MPI_Get_processor_name(c, &clen);
  *resultlen = to_fortran_string(c, *ierr == MPI_SUCCESS ? clen : 0, name, name_len);
}

void mpi_pcontrol_(const MPI_Fint* level, MPI_Fint* ierr) { *ierr = MPI_Pcontrol(*level); }

void tilempix_migrate_(const MPI_Fint* comm, const MPI_Fint* rank, const MPI_Fint* tile, MPI_Fint* ierr) {
  *ierr = TILEMPIX_Migrate(*comm, *rank, *tile);
}

double mpi_wtime_() { return MPI_Wtime(); }
double tilempix_energy_() { return TILEMPIX_Energy(); }
double mpi_wtick_() { return MPI_Wtick(); }

void mpi_comm_set_errhandler_(const MPI_Fint* comm, const MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Comm_set_errhandler(*comm, *errhandler);
}

void mpi_comm_get_errhandler_(const MPI_Fint* comm, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Comm_get_errhandler(*comm, errhandler);
}

// The MPI-1 names, still common in Fortran codes.
void mpi_errhandler_set_(const MPI_Fint* comm, const MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Comm_set_errhandler(*comm, *errhandler);
}

void mpi_errhandler_get_(const MPI_Fint* comm, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Comm_get_errhandler(*comm, errhandler);
}

void mpi_errhandler_free_(MPI_Fint* errhandler, MPI_Fint* ierr) { *ierr = MPI_Errhandler_free(errhandler); }

void mpi_error_string_(const MPI_Fint* errorcode, char* string, MPI_Fint* resultlen, MPI_Fint* ierr,
                       std::size_t string_len) {
  char c[MPI_MAX_ERROR_STRING + 1] = {};
  int clen = 0;
  *ierr = MPI_Error_string(*errorcode, c, &clen);
  *resultlen = to_fortran_string(c, *ierr == MPI_SUCCESS ? clen : 0, string, string_len);
}

void mpi_error_class_(const MPI_Fint* errorcode, MPI_Fint* errorclass, MPI_Fint* ierr) {
  *ierr = MPI_Error_class(*errorcode, errorclass);
}

void mpi_add_error_class_(MPI_Fint* errorclass, MPI_Fint* ierr) { *ierr = MPI_Add_error_class(errorclass); }

void mpi_add_error_code_(const MPI_Fint* errorclass, MPI_Fint* errorcode, MPI_Fint* ierr) {
  *ierr = MPI_Add_error_code(*errorclass, errorcode);
}

// The string's trailing blanks are Fortran's padding, not part of it.
void mpi_add_error_string_(const MPI_Fint* errorcode, const char* string, MPI_Fint* ierr, std::size_t string_len) {
  while (string_len > 0 && string[string_len - 1] == ' ') --string_len;
  *ierr = MPI_Add_error_string(*errorcode, std::string(string, string_len).c_str());
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(init)
TILEMPI_PMPI_F_ALIAS(init_thread)
TILEMPI_PMPI_F_ALIAS(initialized)
TILEMPI_PMPI_F_ALIAS(finalize)
TILEMPI_PMPI_F_ALIAS(finalized)
TILEMPI_PMPI_F_ALIAS(query_thread)
TILEMPI_PMPI_F_ALIAS(is_thread_main)
TILEMPI_PMPI_F_ALIAS(abort)
TILEMPI_PMPI_F_ALIAS(get_version)
TILEMPI_PMPI_F_ALIAS(get_library_version)
TILEMPI_PMPI_F_ALIAS(get_processor_name)
TILEMPI_PMPI_F_ALIAS(pcontrol)
TILEMPI_PMPI_F_ALIAS(wtime)
TILEMPI_PMPI_F_ALIAS(wtick)
TILEMPI_PMPI_F_ALIAS(comm_set_errhandler)
TILEMPI_PMPI_F_ALIAS(comm_get_errhandler)
TILEMPI_PMPI_F_ALIAS(errhandler_set)
TILEMPI_PMPI_F_ALIAS(errhandler_get)
TILEMPI_PMPI_F_ALIAS(errhandler_free)
TILEMPI_PMPI_F_ALIAS(error_string)
TILEMPI_PMPI_F_ALIAS(error_class)
TILEMPI_PMPI_F_ALIAS(add_error_class)
TILEMPI_PMPI_F_ALIAS(add_error_code)
TILEMPI_PMPI_F_ALIAS(add_error_string)
