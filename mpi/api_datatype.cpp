// Datatype entry points: constructors, commit/free, size and extent queries.
#include <cstdint>
#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "check.h"

using namespace tilempi::mpi;

namespace {

const Datatype* old_type(MPI_Datatype h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  const Datatype* t = datatype_get(h);
  if (!t) *rc = raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(h) + " is not valid");
  return t;
}

int bad(int cls, const char* fn, const std::string& what) { return raise(MPI_COMM_WORLD, cls, fn, what); }

int build(const Datatype* old, const std::vector<int>& lens, const std::vector<std::ptrdiff_t>& disps,
          MPI_Datatype* newtype, const char* fn, TypeContents contents) {
  if (!newtype) return bad(MPI_ERR_ARG, fn, "newtype is NULL");
  *newtype = datatype_register(make_hindexed(*old, lens, disps), std::move(contents));
  return MPI_SUCCESS;
}

/// The ints of a constructor's contents: its leading scalars, then each array of n ints.
std::vector<int> ints_of(std::initializer_list<int> scalars, int n = 0, const int* a = nullptr,
                         const int* b = nullptr) {
  std::vector<int> v(scalars);
  if (a) v.insert(v.end(), a, a + n);
  if (b) v.insert(v.end(), b, b + n);
  return v;
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_contiguous", &rc);
  if (!old) return rc;
  if (count < 0) return bad(MPI_ERR_COUNT, "MPI_Type_contiguous", "count " + std::to_string(count) + " is negative");
  return build(old, {count}, {0}, newtype, "MPI_Type_contiguous",
               {MPI_COMBINER_CONTIGUOUS, {count}, {}, {oldtype}});
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_create_hvector", &rc);
  if (!old) return rc;
  if (count < 0 || blocklength < 0)
    return bad(MPI_ERR_COUNT, "MPI_Type_create_hvector", "count or blocklength is negative");
  std::vector<int> lens(count, blocklength);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) disps[i] = i * stride;
  return build(old, lens, disps, newtype, "MPI_Type_create_hvector",
               {MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {oldtype}});
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_vector", &rc);
  if (!old) return rc;
  if (count < 0 || blocklength < 0) return bad(MPI_ERR_COUNT, "MPI_Type_vector", "count or blocklength is negative");
  std::vector<int> lens(count, blocklength);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) disps[i] = static_cast<std::ptrdiff_t>(i) * stride * old->extent;
  return build(old, lens, disps, newtype, "MPI_Type_vector",
               {MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {oldtype}});
}

int MPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_indexed", &rc);
  if (!old) return rc;
  if (count < 0) return bad(MPI_ERR_COUNT, "MPI_Type_indexed", "count is negative");
  if (count > 0 && (!blocklengths || !displacements)) return bad(MPI_ERR_ARG, "MPI_Type_indexed", "NULL array");
  std::vector<int> lens(count);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) {
    if (blocklengths[i] < 0) return bad(MPI_ERR_COUNT, "MPI_Type_indexed", "blocklength " + std::to_string(i) + " is negative");
    lens[i] = blocklengths[i];
    disps[i] = static_cast<std::ptrdiff_t>(displacements[i]) * old->extent;
  }
  return build(old, lens, disps, newtype, "MPI_Type_indexed",
               {MPI_COMBINER_INDEXED, ints_of({count}, count, blocklengths, displacements), {}, {oldtype}});
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_create_indexed_block", &rc);
  if (!old) return rc;
  if (count < 0 || blocklength < 0) return bad(MPI_ERR_COUNT, "MPI_Type_create_indexed_block", "count or blocklength is negative");
  if (count > 0 && !displacements) return bad(MPI_ERR_ARG, "MPI_Type_create_indexed_block", "NULL array");
  std::vector<int> lens(count, blocklength);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) disps[i] = static_cast<std::ptrdiff_t>(displacements[i]) * old->extent;
  return build(old, lens, disps, newtype, "MPI_Type_create_indexed_block",
               {MPI_COMBINER_INDEXED_BLOCK, ints_of({count, blocklength}, count, displacements), {}, {oldtype}});
}

int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_create_hindexed", &rc);
  if (!old) return rc;
  if (count < 0) return bad(MPI_ERR_COUNT, "MPI_Type_create_hindexed", "count is negative");
  if (count > 0 && (!blocklengths || !displacements)) return bad(MPI_ERR_ARG, "MPI_Type_create_hindexed", "NULL array");
  std::vector<int> lens(count);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) {
    if (blocklengths[i] < 0)
      return bad(MPI_ERR_COUNT, "MPI_Type_create_hindexed", "blocklength " + std::to_string(i) + " is negative");
    lens[i] = blocklengths[i];
    disps[i] = displacements[i];
  }
  return build(old, lens, disps, newtype, "MPI_Type_create_hindexed",
               {MPI_COMBINER_HINDEXED, ints_of({count}, count, blocklengths), disps, {oldtype}});
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_create_hindexed_block";
  int rc;
  const Datatype* old = old_type(oldtype, fn, &rc);
  if (!old) return rc;
  if (count < 0 || blocklength < 0) return bad(MPI_ERR_COUNT, fn, "count or blocklength is negative");
  if (count > 0 && !displacements) return bad(MPI_ERR_ARG, fn, "NULL array");
  std::vector<int> lens(count, blocklength);
  std::vector<std::ptrdiff_t> disps(displacements, displacements + count);
  return build(old, lens, disps, newtype, fn, {MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength}, disps, {oldtype}});
}

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Type_create_struct", &rc)) return rc;
  if (count < 0) return bad(MPI_ERR_COUNT, "MPI_Type_create_struct", "count is negative");
  if (count > 0 && (!blocklengths || !displacements || !types))
    return bad(MPI_ERR_ARG, "MPI_Type_create_struct", "NULL array");
  if (!newtype) return bad(MPI_ERR_ARG, "MPI_Type_create_struct", "newtype is NULL");
  std::vector<const Datatype*> olds(count);
  std::vector<int> lens(count);
  std::vector<std::ptrdiff_t> disps(count);
  for (int i = 0; i < count; ++i) {
    olds[i] = datatype_get(types[i]);
    if (!olds[i])
      return bad(MPI_ERR_TYPE, "MPI_Type_create_struct", "types[" + std::to_string(i) + "] is not a valid datatype");
    if (blocklengths[i] < 0)
      return bad(MPI_ERR_COUNT, "MPI_Type_create_struct", "blocklength " + std::to_string(i) + " is negative");
    lens[i] = blocklengths[i];
    disps[i] = displacements[i];
  }
  Datatype t = make_struct(olds, lens, disps);
  pad_struct_extent(t);
  *newtype = datatype_register(std::move(t),
                               {MPI_COMBINER_STRUCT, ints_of({count}, count, blocklengths), disps,
                                std::vector<MPI_Datatype>(types, types + count)});
  return MPI_SUCCESS;
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_create_resized", &rc);
  if (!old) return rc;
  if (!newtype) return bad(MPI_ERR_ARG, "MPI_Type_create_resized", "newtype is NULL");
  *newtype = datatype_register(make_resized(*old, lb, extent), {MPI_COMBINER_RESIZED, {}, {lb, extent}, {oldtype}});
  return MPI_SUCCESS;
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* old = old_type(oldtype, "MPI_Type_dup", &rc);
  if (!old) return rc;
  if (!newtype) return bad(MPI_ERR_ARG, "MPI_Type_dup", "newtype is NULL");
  Datatype copy = make_resized(*old, old->lb, old->extent);
  copy.committed = old->committed;
  copy.explicit_lb = old->explicit_lb;
  copy.explicit_ub = old->explicit_ub;
  if (int e = attributes_copy(old->attributes, oldtype, copy.attributes)) {
    attributes_delete(copy.attributes, MPI_DATATYPE_NULL);
    return bad(e, "MPI_Type_dup", "an attribute's copy callback failed");
  }
  *newtype = datatype_register(std::move(copy), {MPI_COMBINER_DUP, {}, {}, {oldtype}});
  return MPI_SUCCESS;
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  ApiScope api_scope(__func__);
  int rc;
  if (!datatype) return bad(MPI_ERR_TYPE, "MPI_Type_commit", "datatype pointer is NULL");
  if (!old_type(*datatype, "MPI_Type_commit", &rc)) return rc;
  datatype_commit(*datatype);
  return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype* datatype) {
  ApiScope api_scope(__func__);
  int rc;
  if (!datatype) return bad(MPI_ERR_TYPE, "MPI_Type_free", "datatype pointer is NULL");
  const Datatype* t = old_type(*datatype, "MPI_Type_free", &rc);
  if (!t) return rc;
  if (t->predefined) return bad(MPI_ERR_TYPE, "MPI_Type_free", std::string("predefined type ") + t->name + " cannot be freed");
  // The last reference takes the attributes (their delete callbacks may fail the call); with
  // others left (a type built from this one, a handle MPI_Type_get_contents gave out), they wait.
  if (t->refs == 1)
    if (int e = attributes_delete(datatype_get_mutable(*datatype)->attributes, *datatype))
      return bad(e, "MPI_Type_free", "an attribute's delete callback failed");
  datatype_release(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = old_type(datatype, "MPI_Type_size", &rc);
  if (!t) return rc;
  if (!size) return bad(MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
  *size = static_cast<int>(t->size);
  return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = old_type(datatype, "MPI_Type_get_extent", &rc);
  if (!t) return rc;
  if (!lb || !extent) return bad(MPI_ERR_ARG, "MPI_Type_get_extent", "NULL argument");
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  ApiScope api_scope(__func__);
  int rc;
  const Datatype* t = old_type(datatype, "MPI_Type_get_true_extent", &rc);
  if (!t) return rc;
  if (!true_lb || !true_extent) return bad(MPI_ERR_ARG, "MPI_Type_get_true_extent", "NULL argument");
  *true_lb = t->true_lb;
  *true_extent = t->true_extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                          int* combiner) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_get_envelope";
  int rc;
  const Datatype* t = old_type(datatype, fn, &rc);
  if (!t) return rc;
  if (!num_integers || !num_addresses || !num_datatypes || !combiner) return bad(MPI_ERR_ARG, fn, "NULL argument");
  if (!t->contents) {
    *num_integers = *num_addresses = *num_datatypes = 0;
    *combiner = MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
  }
  *num_integers = static_cast<int>(t->contents->ints.size());
  *num_addresses = static_cast<int>(t->contents->aints.size());
  *num_datatypes = static_cast<int>(t->contents->types.size());
  *combiner = t->contents->combiner;
  return MPI_SUCCESS;
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                          int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[]) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_get_contents";
  int rc;
  const Datatype* t = old_type(datatype, fn, &rc);
  if (!t) return rc;
  if (!t->contents)
    return bad(MPI_ERR_TYPE, fn, std::string(t->name) + " is a named type: it has no contents (MPI_COMBINER_NAMED)");
  const TypeContents& c = *t->contents;
  if (max_integers < static_cast<int>(c.ints.size()) || max_addresses < static_cast<int>(c.aints.size()) ||
      max_datatypes < static_cast<int>(c.types.size()))
    return bad(MPI_ERR_ARG, fn, "the arrays hold " + std::to_string(max_integers) + " integers, " +
                                    std::to_string(max_addresses) + " addresses and " + std::to_string(max_datatypes) +
                                    " datatypes; the contents need " + std::to_string(c.ints.size()) + ", " +
                                    std::to_string(c.aints.size()) + " and " + std::to_string(c.types.size()) +
                                    " (MPI_Type_get_envelope)");
  if ((!c.ints.empty() && !integers) || (!c.aints.empty() && !addresses) || (!c.types.empty() && !datatypes))
    return bad(MPI_ERR_ARG, fn, "NULL array");
  std::copy(c.ints.begin(), c.ints.end(), integers);
  std::copy(c.aints.begin(), c.aints.end(), addresses);
  // Each derived type handed out is a new reference, which the user frees (MPI-3.1 §4.1.13).
  for (std::size_t i = 0; i < c.types.size(); ++i) {
    datatypes[i] = c.types[i];
    datatype_ref(c.types[i]);
  }
  return MPI_SUCCESS;
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  ApiScope api_scope(__func__);
  if (!address) return bad(MPI_ERR_ARG, "MPI_Get_address", "address is NULL");
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Type_contiguous)
TILEMPI_PMPI_ALIAS(Type_create_hvector)
TILEMPI_PMPI_ALIAS(Type_vector)
TILEMPI_PMPI_ALIAS(Type_indexed)
TILEMPI_PMPI_ALIAS(Type_create_indexed_block)
TILEMPI_PMPI_ALIAS(Type_create_hindexed)
TILEMPI_PMPI_ALIAS(Type_create_hindexed_block)
TILEMPI_PMPI_ALIAS(Type_get_envelope)
TILEMPI_PMPI_ALIAS(Type_get_contents)
TILEMPI_PMPI_ALIAS(Type_create_struct)
TILEMPI_PMPI_ALIAS(Type_create_resized)
TILEMPI_PMPI_ALIAS(Type_dup)
TILEMPI_PMPI_ALIAS(Type_commit)
TILEMPI_PMPI_ALIAS(Type_free)
TILEMPI_PMPI_ALIAS(Type_size)
TILEMPI_PMPI_ALIAS(Type_get_extent)
TILEMPI_PMPI_ALIAS(Type_get_true_extent)
TILEMPI_PMPI_ALIAS(Get_address)

// Address arithmetic (MPI-3.1 §4.1.5): addresses as MPI_Get_address gives them, so plain integer
// arithmetic, done unsigned (wrapping, as an address does) so that no sum is undefined behaviour.
extern "C" MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(disp));
}

extern "C" MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uint64_t>(addr1) - static_cast<std::uint64_t>(addr2));
}

TILEMPI_PMPI_ALIAS(Aint_add)
TILEMPI_PMPI_ALIAS(Aint_diff)
