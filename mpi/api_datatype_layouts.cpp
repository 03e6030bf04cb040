// Datatype entry points beyond the constructors of api_datatype.cpp: array layouts (subarray,
// darray), packing into user buffers (MPI_Pack, MPI_Unpack, MPI_Pack_size), the MPI_Count
// queries (_x), and the MPI-1 names that MPI-3.0 removed but codes still call (MPI_Type_extent,
// MPI_Type_struct, MPI_Address, ...), each defined by its MPI-2 replacement.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check.h"
#include "request.h"

using namespace tilempi::mpi;

namespace {

int bad(int cls, const char* fn, const std::string& what) { return raise(MPI_COMM_WORLD, cls, fn, what); }

const Datatype* type_arg(MPI_Datatype h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  const Datatype* t = datatype_get(h);
  if (!t) *rc = bad(MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  return t;
}

/// An n-dimensional selection of an array of old elements, as a type: `index[d]` lists the
/// indices taken along dimension d (in order), `sizes[d]` is the array's extent along d, and
/// `c_order` says whether the last dimension is the fastest (C) or the first (Fortran). The type's
/// extent is the whole array's, so that consecutive elements of it are consecutive arrays.
MPI_Datatype array_selection(const Datatype& old, const std::vector<std::vector<int>>& index,
                             const std::vector<int>& sizes, bool c_order, TypeContents contents) {
  const std::size_t n = sizes.size();
  // Dimensions from slowest to fastest.
  std::vector<std::size_t> dims(n);
  for (std::size_t i = 0; i < n; ++i) dims[i] = c_order ? i : n - 1 - i;
  std::vector<std::ptrdiff_t> stride(n);  // in elements, per dimension
  std::ptrdiff_t s = 1;
  for (std::size_t k = n; k-- > 0;) {
    stride[dims[k]] = s;
    s *= sizes[dims[k]];
  }
  const std::ptrdiff_t total = s;
  std::vector<int> lens;
  std::vector<std::ptrdiff_t> disps;
  bool empty = false;
  for (const auto& ix : index) empty = empty || ix.empty();
  if (!empty) {
    // Odometer over every dimension; adjacent elements merge into blocks in the constructor.
    std::vector<std::size_t> at(n, 0);
    for (;;) {
      std::ptrdiff_t off = 0;
      for (std::size_t d = 0; d < n; ++d) off += index[d][at[d]] * stride[d];
      lens.push_back(1);
      disps.push_back(off * old.extent);
      std::size_t k = n;
      while (k-- > 0) {
        const std::size_t d = dims[k];
        if (++at[d] < index[d].size()) break;
        at[d] = 0;
      }
      if (k == static_cast<std::size_t>(-1)) break;
    }
  }
  Datatype sel = make_hindexed(old, lens, disps);
  return datatype_register(make_resized(sel, 0, total * old.extent), std::move(contents));
}

bool order_ok(int order, const char* fn, int* rc) {
  if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN) return true;
  *rc = bad(MPI_ERR_ARG, fn, "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
  return false;
}

/// Position and buffer checks shared by MPI_Pack and MPI_Unpack: room for `need` bytes at *position.
bool room(int size, const int* position, std::size_t need, const char* fn, const char* what, int* rc) {
  if (!position) {
    *rc = bad(MPI_ERR_ARG, fn, "position is NULL");
    return false;
  }
  if (size < 0 || *position < 0 || *position > size) {
    *rc = bad(MPI_ERR_ARG, fn, "position " + std::to_string(*position) + " is outside the buffer of " + std::to_string(size) + " bytes");
    return false;
  }
  if (need > static_cast<std::size_t>(size - *position)) {
    *rc = bad(MPI_ERR_TRUNCATE, fn, std::string(what) + " needs " + std::to_string(need) + " bytes but only " +
                                        std::to_string(size - *position) + " are left after position " + std::to_string(*position));
    return false;
  }
  return true;
}

}  // namespace

extern "C" {

int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_create_subarray";
  int rc;
  const Datatype* old = type_arg(oldtype, fn, &rc);
  if (!old) return rc;
  if (ndims <= 0) return bad(MPI_ERR_DIMS, fn, "ndims " + std::to_string(ndims) + " is not positive");
  if (!sizes || !subsizes || !starts || !newtype) return bad(MPI_ERR_ARG, fn, "an array argument or newtype is NULL");
  if (!order_ok(order, fn, &rc)) return rc;
  std::vector<std::vector<int>> index(static_cast<std::size_t>(ndims));
  for (int d = 0; d < ndims; ++d) {
    if (sizes[d] <= 0 || subsizes[d] <= 0 || subsizes[d] > sizes[d] || starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
      return bad(MPI_ERR_ARG, fn, "dimension " + std::to_string(d) + ": size " + std::to_string(sizes[d]) + ", subsize " +
                                      std::to_string(subsizes[d]) + ", start " + std::to_string(starts[d]) +
                                      " (need 0 < subsize <= size and 0 <= start <= size - subsize)");
    for (int i = 0; i < subsizes[d]; ++i) index[static_cast<std::size_t>(d)].push_back(starts[d] + i);
  }
  TypeContents contents{MPI_COMBINER_SUBARRAY, {ndims}, {}, {oldtype}};
  for (const int* a : {sizes, subsizes, starts}) contents.ints.insert(contents.ints.end(), a, a + ndims);
  contents.ints.push_back(order);
  *newtype = array_selection(*old, index, std::vector<int>(sizes, sizes + ndims), order == MPI_ORDER_C,
                             std::move(contents));
  return MPI_SUCCESS;
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                           const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_create_darray";
  int rc;
  const Datatype* old = type_arg(oldtype, fn, &rc);
  if (!old) return rc;
  if (size <= 0 || rank < 0 || rank >= size)
    return bad(MPI_ERR_ARG, fn, "rank " + std::to_string(rank) + " is not in a group of size " + std::to_string(size));
  if (ndims <= 0) return bad(MPI_ERR_DIMS, fn, "ndims " + std::to_string(ndims) + " is not positive");
  if (!gsizes || !distribs || !dargs || !psizes || !newtype) return bad(MPI_ERR_ARG, fn, "an array argument or newtype is NULL");
  if (!order_ok(order, fn, &rc)) return rc;
  long long procs = 1;
  for (int d = 0; d < ndims; ++d) {
    if (psizes[d] <= 0) return bad(MPI_ERR_ARG, fn, "psizes[" + std::to_string(d) + "] is not positive");
    procs *= psizes[d];
  }
  if (procs != size)
    return bad(MPI_ERR_ARG, fn, "the process grid has " + std::to_string(procs) + " processes, not size " + std::to_string(size));
  // The process grid is row-major whatever the array's order (MPI-3.1 §4.1.4).
  std::vector<int> coord(static_cast<std::size_t>(ndims));
  for (int d = ndims - 1, r = rank; d >= 0; --d) {
    coord[static_cast<std::size_t>(d)] = r % psizes[d];
    r /= psizes[d];
  }
  std::vector<std::vector<int>> index(static_cast<std::size_t>(ndims));
  for (int d = 0; d < ndims; ++d) {
    const int g = gsizes[d], p = psizes[d], c = coord[static_cast<std::size_t>(d)];
    auto& ix = index[static_cast<std::size_t>(d)];
    const std::string dim = "dimension " + std::to_string(d) + ": ";
    if (g <= 0) return bad(MPI_ERR_ARG, fn, dim + "gsize " + std::to_string(g) + " is not positive");
    switch (distribs[d]) {
      case MPI_DISTRIBUTE_NONE:
        if (p != 1) return bad(MPI_ERR_ARG, fn, dim + "MPI_DISTRIBUTE_NONE needs psize 1");
        for (int i = 0; i < g; ++i) ix.push_back(i);
        break;
      case MPI_DISTRIBUTE_BLOCK: {
        const int b = dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : dargs[d];
        if (b <= 0 || static_cast<long long>(b) * p < g)
          return bad(MPI_ERR_ARG, fn, dim + "block " + std::to_string(b) + " x " + std::to_string(p) +
                                          " processes does not cover " + std::to_string(g) + " elements");
        for (long long i = static_cast<long long>(c) * b; i < std::min<long long>(static_cast<long long>(c + 1) * b, g); ++i)
          ix.push_back(static_cast<int>(i));
        break;
      }
      case MPI_DISTRIBUTE_CYCLIC: {
        const int b = dargs[d] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : dargs[d];
        if (b <= 0) return bad(MPI_ERR_ARG, fn, dim + "cyclic block " + std::to_string(b) + " is not positive");
        for (long long start = static_cast<long long>(c) * b; start < g; start += static_cast<long long>(p) * b)
          for (long long i = start; i < std::min<long long>(start + b, g); ++i) ix.push_back(static_cast<int>(i));
        break;
      }
      default:
        return bad(MPI_ERR_ARG, fn, dim + "distribution " + std::to_string(distribs[d]) +
                                        " is not MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE");
    }
  }
  TypeContents contents{MPI_COMBINER_DARRAY, {size, rank, ndims}, {}, {oldtype}};
  for (const int* a : {gsizes, distribs, dargs, psizes}) contents.ints.insert(contents.ints.end(), a, a + ndims);
  contents.ints.push_back(order);
  *newtype = array_selection(*old, index, std::vector<int>(gsizes, gsizes + ndims), order == MPI_ORDER_C,
                             std::move(contents));
  return MPI_SUCCESS;
}

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Pack";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* t = nullptr;
  if (!check::count(*c, incount, fn, &rc) || !(t = check::type(*c, datatype, fn, &rc)) ||
      !check::buffer(*c, inbuf, incount, *t, fn, &rc))
    return rc;
  const std::size_t need = static_cast<std::size_t>(incount) * t->size;
  if (!room(outsize, position, need, fn, "the packed data", &rc)) return rc;
  if (need && !outbuf) return bad(MPI_ERR_BUFFER, fn, "outbuf is NULL");
  if (need) pack(inbuf, static_cast<std::size_t>(incount), *t, static_cast<char*>(outbuf) + *position);
  *position += static_cast<int>(need);
  return MPI_SUCCESS;
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Unpack";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* t = nullptr;
  if (!check::count(*c, outcount, fn, &rc) || !(t = check::type(*c, datatype, fn, &rc)) ||
      !check::buffer(*c, outbuf, outcount, *t, fn, &rc))
    return rc;
  const std::size_t need = static_cast<std::size_t>(outcount) * t->size;
  if (!room(insize, position, need, fn, "unpacking", &rc)) return rc;
  if (need && !inbuf) return bad(MPI_ERR_BUFFER, fn, "inbuf is NULL");
  if (need) unpack(static_cast<const char*>(inbuf) + *position, need, static_cast<std::size_t>(outcount), *t, outbuf);
  *position += static_cast<int>(need);
  return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Pack_size";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  const Datatype* t = nullptr;
  if (!check::count(*c, incount, fn, &rc) || !(t = check::type(*c, datatype, fn, &rc))) return rc;
  if (!size) return bad(MPI_ERR_ARG, fn, "size is NULL");
  const std::size_t need = static_cast<std::size_t>(incount) * t->size;
  if (need > static_cast<std::size_t>(INT32_MAX)) return bad(MPI_ERR_COUNT, fn, "the packed size does not fit an int");
  *size = static_cast<int>(need);  // packed data is the type's data, nothing more
  return MPI_SUCCESS;
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_size_x", &rc);
  if (!t) return rc;
  if (!size) return bad(MPI_ERR_ARG, "MPI_Type_size_x", "size is NULL");
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_get_extent_x", &rc);
  if (!t) return rc;
  if (!lb || !extent) return bad(MPI_ERR_ARG, "MPI_Type_get_extent_x", "NULL argument");
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_get_true_extent_x", &rc);
  if (!t) return rc;
  if (!lb || !extent) return bad(MPI_ERR_ARG, "MPI_Type_get_true_extent_x", "NULL argument");
  *lb = t->true_lb;
  *extent = t->true_extent;
  return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Get_elements_x";
  if (!status || status == MPI_STATUS_IGNORE || !count) return bad(MPI_ERR_ARG, fn, "status or count is NULL");
  int rc;
  const Datatype* t = type_arg(datatype, fn, &rc);
  if (!t) return rc;
  const long long n = elements_in(*t, status_bytes(*status));
  *count = n < 0 ? MPI_UNDEFINED : static_cast<MPI_Count>(n);
  return MPI_SUCCESS;
}

// ---- MPI-1 names (removed in MPI-3.0) ---------------------------------------------------------

int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_extent", &rc);
  if (!t) return rc;
  if (!extent) return bad(MPI_ERR_ARG, "MPI_Type_extent", "extent is NULL");
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_lb", &rc);
  if (!t) return rc;
  if (!displacement) return bad(MPI_ERR_ARG, "MPI_Type_lb", "displacement is NULL");
  *displacement = t->lb;
  return MPI_SUCCESS;
}

int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = type_arg(datatype, "MPI_Type_ub", &rc);
  if (!t) return rc;
  if (!displacement) return bad(MPI_ERR_ARG, "MPI_Type_ub", "displacement is NULL");
  *displacement = t->lb + t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

int MPI_Type_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return MPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}

int MPI_Type_struct(int count, const int blocklengths[], const MPI_Aint displacements[], const MPI_Datatype types[],
                    MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return MPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
}

int MPI_Address(const void* location, MPI_Aint* address) {
  ApiScope api_scope(__func__);
  return MPI_Get_address(location, address);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Type_create_subarray)
TILEMPI_PMPI_ALIAS(Type_create_darray)
TILEMPI_PMPI_ALIAS(Pack)
TILEMPI_PMPI_ALIAS(Unpack)
TILEMPI_PMPI_ALIAS(Pack_size)
TILEMPI_PMPI_ALIAS(Type_size_x)
TILEMPI_PMPI_ALIAS(Type_get_extent_x)
TILEMPI_PMPI_ALIAS(Type_get_true_extent_x)
TILEMPI_PMPI_ALIAS(Get_elements_x)
TILEMPI_PMPI_ALIAS(Type_extent)
TILEMPI_PMPI_ALIAS(Type_lb)
TILEMPI_PMPI_ALIAS(Type_ub)
TILEMPI_PMPI_ALIAS(Type_hvector)
TILEMPI_PMPI_ALIAS(Type_hindexed)
TILEMPI_PMPI_ALIAS(Type_struct)
TILEMPI_PMPI_ALIAS(Address)
