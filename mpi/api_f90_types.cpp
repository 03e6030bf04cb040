// Datatypes for Fortran's parameterized types (MPI-3.1 §17.1.9): MPI_Type_create_f90_real,
// _complex and _integer give the type of a variable of KIND selected_real_kind(p, r) (or
// selected_int_kind(r)); MPI_Type_match_size gives a predefined type of a class and a size.
//
// The kinds are gfortran's on this machine class (the compiler tilempif90 wraps): REAL(4) up to
// 6 digits and exponent range 37, REAL(8) 15 and 307, REAL(10) (x87 extended, 16 bytes of storage,
// C's long double) 18 and 4931, REAL(16) (IEEE quad) 33 and 4931; INTEGER(1), (2), (4), (8), (16)
// up to 2, 4, 9, 18 and 38 decimal digits. A (p, r) no kind meets is MPI_ERR_ARG (§17.1.9: it is
// erroneous to ask for one the compiler does not support).
//
// §17.1.9 makes each result a predefined type: it cannot be freed, and MPI_Type_get_envelope
// names its combiner (MPI_COMBINER_F90_REAL, ...) with p and r as its integers. The same
// arguments give the same handle (one type per (combiner, p, r) and rank, made on first use).
//
// MPI_Type_match_size returns, as MPICH does from C, the first predefined C type of the size:
// MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE for MPI_TYPECLASS_REAL; MPI_SIGNED_CHAR, MPI_SHORT,
// MPI_INT, MPI_LONG, MPI_LONG_LONG for MPI_TYPECLASS_INTEGER (MPICH gives MPI_CHAR for one byte,
// which no arithmetic reduction accepts; MPI_SIGNED_CHAR is the integer of that size); the C
// complex types for MPI_TYPECLASS_COMPLEX.
#include <map>
#include <string>
#include <tuple>

#include "check.h"

using namespace tilempi::mpi;

namespace {

int bad(int cls, const char* fn, const std::string& what) { return raise(MPI_COMM_WORLD, cls, fn, what); }

/// (combiner, p, r) -> the type made for it in this rank.
struct F90Types {
  std::map<std::tuple<int, int, int>, MPI_Datatype> made;
};
tilempi::transport::RankLocal<F90Types> g_f90_types;

/// MPI_UNDEFINED (or any negative value: selected_real_kind's "no requirement") asks nothing.
int wanted(int v) { return v == MPI_UNDEFINED || v < 0 ? 0 : v; }

/// The type of selected_real_kind(p, r) (complex: of a COMPLEX of that kind), or
/// MPI_DATATYPE_NULL.
MPI_Datatype real_kind(int p, int r, bool complex) {
  struct Kind {
    int digits, range;
    MPI_Datatype real, cplx;
  };
  static const Kind kinds[] = {{6, 37, MPI_REAL4, MPI_COMPLEX8},
                               {15, 307, MPI_REAL8, MPI_COMPLEX16},
                               {18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX},
                               {33, 4931, MPI_REAL16, MPI_COMPLEX32}};
  for (const Kind& k : kinds)
    if (wanted(p) <= k.digits && wanted(r) <= k.range) return complex ? k.cplx : k.real;
  return MPI_DATATYPE_NULL;
}

MPI_Datatype integer_kind(int r) {
  struct Kind {
    int range;
    MPI_Datatype type;
  };
  static const Kind kinds[] = {
      {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}, {38, MPI_INTEGER16}};
  for (const Kind& k : kinds)
    if (wanted(r) <= k.range) return k.type;
  return MPI_DATATYPE_NULL;
}

/// The predefined type of combiner (p, r) whose data is `base`, made once per rank.
MPI_Datatype f90_type(int combiner, int p, int r, MPI_Datatype base) {
  F90Types& f = g_f90_types.get();
  const auto key = std::make_tuple(combiner, p, r);
  if (auto it = f.made.find(key); it != f.made.end()) return it->second;
  const Datatype* b = datatype_get(base);
  Datatype t = *b;  // the same data, bounds and name (a predefined type's: static storage)
  t.attributes.clear();
  t.refs = 1;
  t.named = false;
  t.user_name.clear();
  t.committed = true;
  std::vector<int> ints = combiner == MPI_COMBINER_F90_INTEGER ? std::vector<int>{r} : std::vector<int>{p, r};
  const MPI_Datatype h = datatype_register(std::move(t), {combiner, std::move(ints), {}, {}});
  datatype_get_mutable(h)->predefined = true;  // (registering makes a derived type)
  f.made.emplace(key, h);
  return h;
}

int create(int combiner, int p, int r, MPI_Datatype* newtype, const char* fn) {
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!newtype) return bad(MPI_ERR_ARG, fn, "newtype is NULL");
  const MPI_Datatype base = combiner == MPI_COMBINER_F90_INTEGER ? integer_kind(r)
                                                                  : real_kind(p, r, combiner == MPI_COMBINER_F90_COMPLEX);
  if (base == MPI_DATATYPE_NULL) {
    const std::string args = combiner == MPI_COMBINER_F90_INTEGER
                                 ? "r=" + std::to_string(r)
                                 : "p=" + std::to_string(p) + ", r=" + std::to_string(r);
    return bad(MPI_ERR_ARG, fn, "no kind of this compiler has " + args + " (gfortran's widest: " +
                                    (combiner == MPI_COMBINER_F90_INTEGER ? "38 digits)" : "33 digits, range 4931)"));
  }
  *newtype = f90_type(combiner, p, r, base);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return create(MPI_COMBINER_F90_REAL, p, r, newtype, "MPI_Type_create_f90_real");
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return create(MPI_COMBINER_F90_COMPLEX, p, r, newtype, "MPI_Type_create_f90_complex");
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  ApiScope api_scope(__func__);
  return create(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype, "MPI_Type_create_f90_integer");
}

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Type_match_size";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!datatype) return bad(MPI_ERR_ARG, fn, "datatype is NULL");
  static const MPI_Datatype reals[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
  static const MPI_Datatype integers[] = {MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG};
  static const MPI_Datatype complexes[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX};
  auto first_of_size = [&](auto& list) {
    for (MPI_Datatype t : list)
      if (datatype_get(t)->size == static_cast<std::size_t>(size)) return t;
    return static_cast<MPI_Datatype>(MPI_DATATYPE_NULL);
  };
  MPI_Datatype found = MPI_DATATYPE_NULL;
  switch (typeclass) {
    case MPI_TYPECLASS_REAL: found = first_of_size(reals); break;
    case MPI_TYPECLASS_INTEGER: found = first_of_size(integers); break;
    case MPI_TYPECLASS_COMPLEX: found = first_of_size(complexes); break;
    default:
      return bad(MPI_ERR_ARG, fn,
                 "typeclass " + std::to_string(typeclass) +
                     " is not MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER or MPI_TYPECLASS_COMPLEX");
  }
  if (found == MPI_DATATYPE_NULL)
    return bad(MPI_ERR_ARG, fn, "no predefined type of that class has " + std::to_string(size) + " bytes");
  *datatype = found;
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Type_create_f90_real)
TILEMPI_PMPI_ALIAS(Type_create_f90_complex)
TILEMPI_PMPI_ALIAS(Type_create_f90_integer)
TILEMPI_PMPI_ALIAS(Type_match_size)
