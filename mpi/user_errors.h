// Error classes and codes a program adds (MPI_Add_error_class, MPI_Add_error_code,
// MPI_Add_error_string; api_error_codes.cpp): numbered after MPI_ERR_LASTCODE, per rank.
#pragma once

namespace tilempi::mpi {

/// Whether code is one a program added; if so, its class in *errclass.
bool user_error_class(int code, int* errclass);
/// The string MPI_Add_error_string gave code ("" when none), or nullptr if code was not added.
const char* user_error_string(int code);
/// The largest code or class in use (the value of the MPI_LASTUSEDCODE attribute).
int last_used_error_code();

}  // namespace tilempi::mpi
