// Fortran bindings: array layouts, packing, the MPI_Count queries, and the MPI-1 names (whose Fortran displacements and extents are default
// INTEGERs, as MPI-1 defined them; the MPI-2 names take INTEGER(KIND=MPI_ADDRESS_KIND)).
#include <vector>

#include "errors.h"
#include "fortran_support.h"

using namespace tilempi::fortran;

namespace {
std::vector<MPI_Aint> widen(const MPI_Fint* v, MPI_Fint n) {
  return n > 0 ? std::vector<MPI_Aint>(v, v + n) : std::vector<MPI_Aint>{};
}
}  // namespace

extern "C" {

void mpi_type_create_subarray_(const MPI_Fint* ndims, const MPI_Fint* sizes, const MPI_Fint* subsizes,
                               const MPI_Fint* starts, const MPI_Fint* order, const MPI_Fint* oldtype,
                               MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_subarray(*ndims, sizes, subsizes, starts, *order, *oldtype, newtype);
}

void mpi_type_create_darray_(const MPI_Fint* size, const MPI_Fint* rank, const MPI_Fint* ndims, const MPI_Fint* gsizes,
                             const MPI_Fint* distribs, const MPI_Fint* dargs, const MPI_Fint* psizes,
                             const MPI_Fint* order, const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_create_darray(*size, *rank, *ndims, gsizes, distribs, dargs, psizes, *order, *oldtype, newtype);
}

void mpi_pack_(const void* inbuf, const MPI_Fint* incount, const MPI_Fint* datatype, void* outbuf,
               const MPI_Fint* outsize, MPI_Fint* position, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Pack(buffer(inbuf), *incount, *datatype, outbuf, *outsize, position, *comm);
}

// external32 (MPI-3.1 §4.3): DATAREP is a CHARACTER argument, its length passed last.
void mpi_pack_external_(const char* datarep, const void* inbuf, const MPI_Fint* incount, const MPI_Fint* datatype,
                        void* outbuf, const MPI_Aint* outsize, MPI_Aint* position, MPI_Fint* ierr,
                        std::size_t datarep_len) {
  *ierr = MPI_Pack_external(c_string(datarep, datarep_len).c_str(), buffer(inbuf), *incount, *datatype, outbuf,
                            *outsize, position);
}

void mpi_unpack_external_(const char* datarep, const void* inbuf, const MPI_Aint* insize, MPI_Aint* position,
                          void* outbuf, const MPI_Fint* outcount, const MPI_Fint* datatype, MPI_Fint* ierr,
                          std::size_t datarep_len) {
  *ierr = MPI_Unpack_external(c_string(datarep, datarep_len).c_str(), inbuf, *insize, position, buffer(outbuf),
                              *outcount, *datatype);
}

void mpi_pack_external_size_(const char* datarep, const MPI_Fint* incount, const MPI_Fint* datatype, MPI_Aint* size,
                             MPI_Fint* ierr, std::size_t datarep_len) {
  *ierr = MPI_Pack_external_size(c_string(datarep, datarep_len).c_str(), *incount, *datatype, size);
}

void mpi_unpack_(const void* inbuf, const MPI_Fint* insize, MPI_Fint* position, void* outbuf,
                 const MPI_Fint* outcount, const MPI_Fint* datatype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Unpack(inbuf, *insize, position, buffer(outbuf), *outcount, *datatype, *comm);
}

void mpi_pack_size_(const MPI_Fint* incount, const MPI_Fint* datatype, const MPI_Fint* comm, MPI_Fint* size,
                    MPI_Fint* ierr) {
  *ierr = MPI_Pack_size(*incount, *datatype, *comm, size);
}

void mpi_type_size_x_(const MPI_Fint* datatype, MPI_Count* size, MPI_Fint* ierr) {
  *ierr = MPI_Type_size_x(*datatype, size);
}

void mpi_type_get_extent_x_(const MPI_Fint* datatype, MPI_Count* lb, MPI_Count* extent, MPI_Fint* ierr) {
  *ierr = MPI_Type_get_extent_x(*datatype, lb, extent);
}

void mpi_type_get_true_extent_x_(const MPI_Fint* datatype, MPI_Count* lb, MPI_Count* extent, MPI_Fint* ierr) {
  *ierr = MPI_Type_get_true_extent_x(*datatype, lb, extent);
}

void mpi_get_elements_x_(const MPI_Fint* status, const MPI_Fint* datatype, MPI_Count* count, MPI_Fint* ierr) {
  StatusIn st(status);
  *ierr = MPI_Get_elements_x(st.c(), *datatype, count);
}

// ---- MPI-1 names ------------------------------------------------------------------------------

void mpi_type_extent_(const MPI_Fint* datatype, MPI_Fint* extent, MPI_Fint* ierr) {
  MPI_Aint e = 0;
  *ierr = MPI_Type_extent(*datatype, &e);
  *extent = static_cast<MPI_Fint>(e);
}

void mpi_type_lb_(const MPI_Fint* datatype, MPI_Fint* displacement, MPI_Fint* ierr) {
  MPI_Aint d = 0;
  *ierr = MPI_Type_lb(*datatype, &d);
  *displacement = static_cast<MPI_Fint>(d);
}

void mpi_type_ub_(const MPI_Fint* datatype, MPI_Fint* displacement, MPI_Fint* ierr) {
  MPI_Aint d = 0;
  *ierr = MPI_Type_ub(*datatype, &d);
  *displacement = static_cast<MPI_Fint>(d);
}

void mpi_type_hvector_(const MPI_Fint* count, const MPI_Fint* blocklength, const MPI_Fint* stride,
                       const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  *ierr = MPI_Type_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}

void mpi_type_hindexed_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Fint* displacements,
                        const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr) {
  const std::vector<MPI_Aint> d = widen(displacements, *count);
  *ierr = MPI_Type_hindexed(*count, blocklengths, d.data(), *oldtype, newtype);
}

void mpi_type_struct_(const MPI_Fint* count, const MPI_Fint* blocklengths, const MPI_Fint* displacements,
                      const MPI_Fint* types, MPI_Fint* newtype, MPI_Fint* ierr) {
  const std::vector<MPI_Aint> d = widen(displacements, *count);
  *ierr = MPI_Type_struct(*count, blocklengths, d.data(), types, newtype);
}

// MPI_ADDRESS's result is a default INTEGER: an address that does not fit is an error, not a
// silently wrong displacement.
void mpi_address_(const void* location, MPI_Fint* address, MPI_Fint* ierr) {
  MPI_Aint a = 0;
  *ierr = MPI_Address(buffer(location), &a);
  if (*ierr == MPI_SUCCESS && static_cast<MPI_Aint>(static_cast<MPI_Fint>(a)) != a)
    *ierr = tilempi::mpi::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_ADDRESS",
                                "the address does not fit a default INTEGER (MPI_GET_ADDRESS returns it whole)");
  *address = static_cast<MPI_Fint>(a);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(type_create_subarray)
TILEMPI_PMPI_F_ALIAS(type_create_darray)
TILEMPI_PMPI_F_ALIAS(pack)
TILEMPI_PMPI_F_ALIAS(unpack)
TILEMPI_PMPI_F_ALIAS(pack_external)
TILEMPI_PMPI_F_ALIAS(unpack_external)
TILEMPI_PMPI_F_ALIAS(pack_external_size)
TILEMPI_PMPI_F_ALIAS(pack_size)
TILEMPI_PMPI_F_ALIAS(type_size_x)
TILEMPI_PMPI_F_ALIAS(type_get_extent_x)
TILEMPI_PMPI_F_ALIAS(type_get_true_extent_x)
TILEMPI_PMPI_F_ALIAS(get_elements_x)
TILEMPI_PMPI_F_ALIAS(type_extent)
TILEMPI_PMPI_F_ALIAS(type_lb)
TILEMPI_PMPI_F_ALIAS(type_ub)
TILEMPI_PMPI_F_ALIAS(type_hvector)
TILEMPI_PMPI_F_ALIAS(type_hindexed)
TILEMPI_PMPI_F_ALIAS(type_struct)
TILEMPI_PMPI_F_ALIAS(address)
