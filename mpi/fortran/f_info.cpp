// Fortran bindings: info objects, MPI_ALLOC_MEM / MPI_FREE_MEM and TILEMPIX_SHARED_ALLOC / _FREE.
#include <string>

#include "fortran_support.h"
#include "tilempi_ext.h"

using namespace tilempi::fortran;

namespace {

// A Fortran CHARACTER key or value as a C string: its leading and trailing blanks are not part of
// it (MPI-3.1 §9), the blanks inside are.
std::string key_string(const char* f, std::size_t len) {
  while (len > 0 && f[len - 1] == ' ') --len;
  std::size_t start = 0;
  while (start < len && f[start] == ' ') ++start;
  return std::string(f + start, len - start);
}

}  // namespace

extern "C" {

void mpi_info_create_(MPI_Fint* info, MPI_Fint* ierr) { *ierr = MPI_Info_create(info); }

void mpi_info_set_(const MPI_Fint* info, const char* key, const char* value, MPI_Fint* ierr, std::size_t key_len,
                   std::size_t value_len) {
  *ierr = MPI_Info_set(*info, key_string(key, key_len).c_str(), key_string(value, value_len).c_str());
}

void mpi_info_delete_(const MPI_Fint* info, const char* key, MPI_Fint* ierr, std::size_t key_len) {
  *ierr = MPI_Info_delete(*info, key_string(key, key_len).c_str());
}

void mpi_info_get_(const MPI_Fint* info, const char* key, const MPI_Fint* valuelen, char* value, MPI_Fint* flag,
                   MPI_Fint* ierr, std::size_t key_len, std::size_t value_len) {
  std::string k = key_string(key, key_len);
  int n = *valuelen < 0 ? 0 : *valuelen;
  std::string v(static_cast<std::size_t>(n) + 1, '\0');
  int f = 0;
  *ierr = MPI_Info_get(*info, k.c_str(), *valuelen, v.data(), &f);
  *flag = logical(f);
  if (*ierr == MPI_SUCCESS && f) to_fortran_string(v.c_str(), static_cast<int>(std::strlen(v.c_str())), value, value_len);
}

void mpi_info_get_valuelen_(const MPI_Fint* info, const char* key, MPI_Fint* valuelen, MPI_Fint* flag,
                            MPI_Fint* ierr, std::size_t key_len) {
  int f = 0;
  *ierr = MPI_Info_get_valuelen(*info, key_string(key, key_len).c_str(), valuelen, &f);
  *flag = logical(f);
}

void mpi_info_get_nkeys_(const MPI_Fint* info, MPI_Fint* nkeys, MPI_Fint* ierr) {
  *ierr = MPI_Info_get_nkeys(*info, nkeys);
}

void mpi_info_get_nthkey_(const MPI_Fint* info, const MPI_Fint* n, char* key, MPI_Fint* ierr, std::size_t key_len) {
  char c[MPI_MAX_INFO_KEY + 1] = {};
  *ierr = MPI_Info_get_nthkey(*info, *n, c);
  if (*ierr == MPI_SUCCESS) to_fortran_string(c, static_cast<int>(std::strlen(c)), key, key_len);
}

void mpi_info_dup_(const MPI_Fint* info, MPI_Fint* newinfo, MPI_Fint* ierr) { *ierr = MPI_Info_dup(*info, newinfo); }

void mpi_info_free_(MPI_Fint* info, MPI_Fint* ierr) { *ierr = MPI_Info_free(info); }

// BASEPTR is an INTEGER(KIND=MPI_ADDRESS_KIND), for a Cray pointer or C_F_POINTER.
void mpi_alloc_mem_(const MPI_Aint* size, const MPI_Fint* info, MPI_Aint* baseptr, MPI_Fint* ierr) {
  void* p = nullptr;
  *ierr = MPI_Alloc_mem(*size, *info, &p);
  if (*ierr == MPI_SUCCESS) *baseptr = reinterpret_cast<MPI_Aint>(p);
}

void mpi_free_mem_(void* base, MPI_Fint* ierr) { *ierr = MPI_Free_mem(base); }

// TILEMPIX_SHARED_ALLOC(SIZE, KEY, BASEPTR, IERROR): as MPI_ALLOC_MEM, keyed (tilempi_ext.h);
// the key's trailing blanks are not part of it. TILEMPIX_SHARED_FREE(BASE, IERROR) takes the
// block as MPI_FREE_MEM does.
void tilempix_shared_alloc_(const MPI_Aint* size, const char* key, MPI_Aint* baseptr, MPI_Fint* ierr,
                            std::size_t key_len) {
  while (key_len > 0 && key[key_len - 1] == ' ') --key_len;
  void* p = nullptr;
  *ierr = TILEMPIX_Shared_alloc(*size, std::string(key, key_len).c_str(), &p);
  if (*ierr == MPI_SUCCESS) *baseptr = reinterpret_cast<MPI_Aint>(p);
}

void tilempix_shared_free_(void* base, MPI_Fint* ierr) { *ierr = TILEMPIX_Shared_free(base); }

void tilempix_shared_alloc_folds_(MPI_Fint* flag, MPI_Fint* ierr) {
  int c = 0;
  *ierr = TILEMPIX_Shared_alloc_folds(&c);
  *flag = logical(c);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(info_create)
TILEMPI_PMPI_F_ALIAS(info_set)
TILEMPI_PMPI_F_ALIAS(info_delete)
TILEMPI_PMPI_F_ALIAS(info_get)
TILEMPI_PMPI_F_ALIAS(info_get_valuelen)
TILEMPI_PMPI_F_ALIAS(info_get_nkeys)
TILEMPI_PMPI_F_ALIAS(info_get_nthkey)
TILEMPI_PMPI_F_ALIAS(info_dup)
TILEMPI_PMPI_F_ALIAS(info_free)
TILEMPI_PMPI_F_ALIAS(alloc_mem)
TILEMPI_PMPI_F_ALIAS(free_mem)
