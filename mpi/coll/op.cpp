// Reduction operations (MPI-3.1 §5.9). Values are read and written with memcpy: packed buffers
// need not be aligned, and integer arithmetic wraps in unsigned form so that overflow is defined.
#include "coll/op.h"

#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "errors.h"
#include "holds.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi::coll {

namespace {

enum class Cat { None, CInt, FInt, Float, Complex, Logical, Byte, Pair };

struct UserOp {
  MPI_User_function* fn = nullptr;
  bool commute = true;
  bool live = false;  ///< the user's handle names it (MPI_Op_free: no longer)
  int holds = 0;      ///< pending reductions that use it (holds.h): the slot is not reused
};

std::vector<UserOp>& user_ops() {
  static transport::RankLocal<std::vector<UserOp>> ops;  // per rank (see rank_local.h)
  return ops.get();
}

UserOp* user_op(MPI_Op op) {
  if (op < TILEMPI_OP_PREDEFINED_END) return nullptr;
  auto& ops = user_ops();
  std::size_t i = static_cast<std::size_t>(op - TILEMPI_OP_PREDEFINED_END);
  if (i >= ops.size() || !ops[i].live) return nullptr;
  return &ops[i];
}

/// The user op a reduction holds (or, if the user still has it, may hold): live or held.
UserOp* held_user_op(MPI_Op op) {
  if (op < TILEMPI_OP_PREDEFINED_END) return nullptr;
  auto& ops = user_ops();
  std::size_t i = static_cast<std::size_t>(op - TILEMPI_OP_PREDEFINED_END);
  if (i >= ops.size() || !(ops[i].live || ops[i].holds > 0)) return nullptr;
  return &ops[i];
}

Cat category(MPI_Datatype t) {
  switch (t) {
    case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_SHORT: case MPI_UNSIGNED_SHORT:
    case MPI_INT: case MPI_UNSIGNED: case MPI_LONG: case MPI_UNSIGNED_LONG: case MPI_LONG_LONG_INT:
    case MPI_UNSIGNED_LONG_LONG: case MPI_INT8_T: case MPI_INT16_T: case MPI_INT32_T: case MPI_INT64_T:
    case MPI_UINT8_T: case MPI_UINT16_T: case MPI_UINT32_T: case MPI_UINT64_T: case MPI_AINT:
    // Beyond the standard (MPI-3.1 §5.9.2 lists MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR, not
    // MPI_CHAR), as MPICH: codes reduce and accumulate MPI_CHAR as a C integer (docs/COVERAGE.md).
    case MPI_CHAR:
    case MPI_OFFSET: case MPI_COUNT:  // (with MPI_AINT, the standard's "multi-language types")
      return Cat::CInt;
    case MPI_INTEGER: case MPI_INTEGER1: case MPI_INTEGER2: case MPI_INTEGER4: case MPI_INTEGER8:
    case MPI_INTEGER16:
      return Cat::FInt;
    case MPI_FLOAT: case MPI_DOUBLE: case MPI_LONG_DOUBLE: case MPI_REAL: case MPI_DOUBLE_PRECISION:
    case MPI_REAL4: case MPI_REAL8: case MPI_REAL16:
      return Cat::Float;
    case MPI_C_FLOAT_COMPLEX: case MPI_C_DOUBLE_COMPLEX: case MPI_COMPLEX: case MPI_DOUBLE_COMPLEX:
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_COMPLEX8: case MPI_COMPLEX16: case MPI_COMPLEX32:
    case MPI_CXX_FLOAT_COMPLEX: case MPI_CXX_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
      return Cat::Complex;
    case MPI_C_BOOL: case MPI_LOGICAL: case MPI_CXX_BOOL:
      return Cat::Logical;
    case MPI_BYTE:
      return Cat::Byte;
    case MPI_FLOAT_INT: case MPI_DOUBLE_INT: case MPI_LONG_INT: case MPI_2INT: case MPI_SHORT_INT:
    case MPI_LONG_DOUBLE_INT: case MPI_2INTEGER: case MPI_2REAL: case MPI_2DOUBLE_PRECISION:
      return Cat::Pair;
    default:
      return Cat::None;
  }
}

bool allowed(MPI_Op op, Cat c) {
  switch (op) {
    case MPI_MAX: case MPI_MIN:
      return c == Cat::CInt || c == Cat::FInt || c == Cat::Float;
    case MPI_SUM: case MPI_PROD:
      return c == Cat::CInt || c == Cat::FInt || c == Cat::Float || c == Cat::Complex;
    case MPI_LAND: case MPI_LOR: case MPI_LXOR:
      return c == Cat::CInt || c == Cat::Logical;
    case MPI_BAND: case MPI_BOR: case MPI_BXOR:
      return c == Cat::CInt || c == Cat::FInt || c == Cat::Byte;
    case MPI_MAXLOC: case MPI_MINLOC:
      return c == Cat::Pair;
    case MPI_REPLACE: case MPI_NO_OP:
      return true;
    default:
      return false;
  }
}

template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Integer arithmetic in a wide-enough unsigned type: wraps instead of overflowing.
template <class T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T, class F>
void each(const void* in, void* inout, std::size_t n, std::size_t stride, F f) {
  auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < n; ++i) store<T>(b + i * stride, f(load<T>(a + i * stride), load<T>(b + i * stride)));
}

template <class T>
bool integer_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  using W = Wide<T>;
  const std::size_t s = sizeof(T);
  switch (op) {
    case MPI_MAX: each<T>(in, io, n, s, [](T a, T b) { return a > b ? a : b; }); return true;
    case MPI_MIN: each<T>(in, io, n, s, [](T a, T b) { return a < b ? a : b; }); return true;
    case MPI_SUM: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(W(a) + W(b)); }); return true;
    case MPI_PROD: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(W(a) * W(b)); }); return true;
    case MPI_LAND: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a != 0 && b != 0); }); return true;
    case MPI_LOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a != 0 || b != 0); }); return true;
    case MPI_LXOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>((a != 0) != (b != 0)); }); return true;
    case MPI_BAND: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a & b); }); return true;
    case MPI_BOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a | b); }); return true;
    case MPI_BXOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a ^ b); }); return true;
    default: return false;
  }
}

template <class T>
bool float_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  const std::size_t s = sizeof(T);
  switch (op) {
    case MPI_MAX: each<T>(in, io, n, s, [](T a, T b) { return a > b ? a : b; }); return true;
    case MPI_MIN: each<T>(in, io, n, s, [](T a, T b) { return a < b ? a : b; }); return true;
    case MPI_SUM: each<T>(in, io, n, s, [](T a, T b) { return a + b; }); return true;
    case MPI_PROD: each<T>(in, io, n, s, [](T a, T b) { return a * b; }); return true;
    default: return false;
  }
}

template <class T>
bool complex_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  using C = std::complex<T>;
  switch (op) {
    case MPI_SUM: each<C>(in, io, n, sizeof(C), [](C a, C b) { return a + b; }); return true;
    case MPI_PROD: each<C>(in, io, n, sizeof(C), [](C a, C b) { return a * b; }); return true;
    default: return false;
  }
}

// Fortran's INTEGER(16): GCC's 128-bit integer, wrapping in its unsigned form as integer_op does
// (written out: the standard library's traits know the type only in GNU mode).
bool int128_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  using I = __int128;
  using U = unsigned __int128;
  const std::size_t s = sizeof(I);
  switch (op) {
    case MPI_MAX: each<I>(in, io, n, s, [](I a, I b) { return a > b ? a : b; }); return true;
    case MPI_MIN: each<I>(in, io, n, s, [](I a, I b) { return a < b ? a : b; }); return true;
    case MPI_SUM: each<I>(in, io, n, s, [](I a, I b) { return static_cast<I>(U(a) + U(b)); }); return true;
    case MPI_PROD: each<I>(in, io, n, s, [](I a, I b) { return static_cast<I>(U(a) * U(b)); }); return true;
    case MPI_BAND: each<I>(in, io, n, s, [](I a, I b) { return a & b; }); return true;
    case MPI_BOR: each<I>(in, io, n, s, [](I a, I b) { return a | b; }); return true;
    case MPI_BXOR: each<I>(in, io, n, s, [](I a, I b) { return a ^ b; }); return true;
    default: return false;
  }
}

// Fortran's REAL(16) and COMPLEX(16) (MPI_REAL16, MPI_COMPLEX32): gfortran's IEEE quad precision,
// GCC's __float128 where long double is something else (x86: 80-bit extended).
#if defined(__SIZEOF_FLOAT128__)
using Quad = __float128;
#define TILEMPI_HAVE_QUAD 1
#elif __LDBL_MANT_DIG__ == 113
using Quad = long double;
#define TILEMPI_HAVE_QUAD 1
#endif

#ifdef TILEMPI_HAVE_QUAD
bool quad_complex_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  struct QC {
    Quad re, im;
  };
  static_assert(sizeof(QC) == 32);
  switch (op) {
    case MPI_SUM: each<QC>(in, io, n, sizeof(QC), [](QC a, QC b) { return QC{a.re + b.re, a.im + b.im}; }); return true;
    case MPI_PROD:
      each<QC>(in, io, n, sizeof(QC), [](QC a, QC b) { return QC{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; });
      return true;
    default: return false;
  }
}
#endif

// Logical values of any width: nonzero is true; results are 0 or 1.
template <class T>
bool logical_op(MPI_Op op, const void* in, void* io, std::size_t n) {
  const std::size_t s = sizeof(T);
  switch (op) {
    case MPI_LAND: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a != 0 && b != 0); }); return true;
    case MPI_LOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>(a != 0 || b != 0); }); return true;
    case MPI_LXOR: each<T>(in, io, n, s, [](T a, T b) { return static_cast<T>((a != 0) != (b != 0)); }); return true;
    default: return false;
  }
}

// MAXLOC / MINLOC over packed (value, index) pairs: the value, then the index right after it
// (the pair type's data without the C struct's padding). Ties keep the lower index (MPI-3.1 §5.9.4).
template <class V, class I>
bool loc_op(MPI_Op op, const void* in, void* io, std::size_t n, std::size_t stride) {
  if (op != MPI_MAXLOC && op != MPI_MINLOC) return false;
  const bool max = op == MPI_MAXLOC;
  constexpr std::size_t off = sizeof(V);
  auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(io);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* pa = a + i * stride;
    unsigned char* pb = b + i * stride;
    V va = load<V>(pa), vb = load<V>(pb);
    I ia = load<I>(pa + off), ib = load<I>(pb + off);
    if (max ? va > vb : va < vb) {
      store<V>(pb, va);
      store<I>(pb + off, ia);
    } else if (va == vb && ia < ib) {
      store<I>(pb + off, ia);
    }
  }
  return true;
}

}  // namespace

}  // namespace tilempi::mpi::coll

namespace tilempi::mpi {

bool op_hold(MPI_Op op) {
  coll::UserOp* u = coll::held_user_op(op);
  if (u) ++u->holds;
  return u != nullptr;
}

void op_unhold(MPI_Op op) {
  if (coll::UserOp* u = coll::held_user_op(op)) --u->holds;
}

}  // namespace tilempi::mpi

namespace tilempi::mpi::coll {

bool op_valid(MPI_Op op) {
  return (op > MPI_OP_NULL && op < TILEMPI_OP_PREDEFINED_END) || user_op(op) != nullptr;
}

bool op_commutative(MPI_Op op) {
  if (UserOp* u = held_user_op(op)) return u->commute;
  return op != MPI_REPLACE && op != MPI_NO_OP;
}

const char* op_name(MPI_Op op) {
  static const char* names[] = {"MPI_OP_NULL", "MPI_MAX",  "MPI_MIN",    "MPI_SUM",    "MPI_PROD",
                                "MPI_LAND",    "MPI_BAND", "MPI_LOR",    "MPI_BOR",    "MPI_LXOR",
                                "MPI_BXOR",    "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};
  if (op >= 0 && op < TILEMPI_OP_PREDEFINED_END) return names[op];
  return "user op";
}

int op_check(MPI_Op op, MPI_Datatype datatype, std::string* why) {
  if (!op_valid(op)) {
    if (why) *why = "invalid op handle " + std::to_string(op);
    return MPI_ERR_OP;
  }
  const Datatype* t = datatype_get(datatype);
  if (!t) {
    if (why) *why = "invalid datatype handle " + std::to_string(datatype);
    return MPI_ERR_TYPE;
  }
  if (user_op(op)) return MPI_SUCCESS;
  if (t->size == 0) return MPI_SUCCESS;  // nothing to combine
  if (!allowed(op, category(t->basic))) {
    if (why) *why = std::string(op_name(op)) + " is not defined on " + datatype_get(t->basic)->name;
    return MPI_ERR_OP;
  }
  return MPI_SUCCESS;
}

bool apply_predefined(MPI_Op op, MPI_Datatype basic, const void* in, void* io, std::size_t n) {
  Cat c = category(basic);
  if (!allowed(op, c)) return false;
  const Datatype* bt = datatype_get(basic);
  const std::size_t stride = bt ? bt->size : 0;
  if (op == MPI_NO_OP) return true;
  if (op == MPI_REPLACE) {
    if (n) std::memmove(io, in, n * stride);
    return true;
  }
  switch (basic) {
    case MPI_CHAR: return integer_op<char>(op, in, io, n);
    case MPI_SIGNED_CHAR: case MPI_INT8_T: case MPI_INTEGER1: return integer_op<std::int8_t>(op, in, io, n);
    case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: case MPI_BYTE: return integer_op<std::uint8_t>(op, in, io, n);
    case MPI_SHORT: case MPI_INT16_T: case MPI_INTEGER2: return integer_op<std::int16_t>(op, in, io, n);
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: return integer_op<std::uint16_t>(op, in, io, n);
    case MPI_INT: case MPI_INT32_T: case MPI_INTEGER: case MPI_INTEGER4: return integer_op<std::int32_t>(op, in, io, n);
    case MPI_UNSIGNED: case MPI_UINT32_T: return integer_op<std::uint32_t>(op, in, io, n);
    case MPI_LONG: return integer_op<long>(op, in, io, n);
    case MPI_UNSIGNED_LONG: return integer_op<unsigned long>(op, in, io, n);
    case MPI_LONG_LONG_INT: case MPI_INT64_T: case MPI_INTEGER8: return integer_op<long long>(op, in, io, n);
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: return integer_op<unsigned long long>(op, in, io, n);
    case MPI_AINT: return integer_op<MPI_Aint>(op, in, io, n);
    case MPI_OFFSET: return integer_op<MPI_Offset>(op, in, io, n);
    case MPI_COUNT: return integer_op<MPI_Count>(op, in, io, n);
    case MPI_INTEGER16: return int128_op(op, in, io, n);
#ifdef TILEMPI_HAVE_QUAD
    case MPI_REAL16: return float_op<Quad>(op, in, io, n);
    case MPI_COMPLEX32: return quad_complex_op(op, in, io, n);
#endif
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX: return complex_op<long double>(op, in, io, n);
    case MPI_COMPLEX8: case MPI_CXX_FLOAT_COMPLEX: return complex_op<float>(op, in, io, n);
    case MPI_COMPLEX16: case MPI_CXX_DOUBLE_COMPLEX: return complex_op<double>(op, in, io, n);
    case MPI_CXX_BOOL: return logical_op<std::uint8_t>(op, in, io, n);
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4: return float_op<float>(op, in, io, n);
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8: return float_op<double>(op, in, io, n);
    case MPI_LONG_DOUBLE: return float_op<long double>(op, in, io, n);
    case MPI_C_FLOAT_COMPLEX: case MPI_COMPLEX: return complex_op<float>(op, in, io, n);
    case MPI_C_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX: return complex_op<double>(op, in, io, n);
    case MPI_C_BOOL: return logical_op<std::uint8_t>(op, in, io, n);
    case MPI_LOGICAL: return logical_op<std::int32_t>(op, in, io, n);
    case MPI_FLOAT_INT: return loc_op<float, int>(op, in, io, n, stride);
    case MPI_DOUBLE_INT: return loc_op<double, int>(op, in, io, n, stride);
    case MPI_LONG_INT: return loc_op<long, int>(op, in, io, n, stride);
    case MPI_2INT: case MPI_2INTEGER: return loc_op<int, int>(op, in, io, n, stride);
    case MPI_SHORT_INT: return loc_op<short, int>(op, in, io, n, stride);
    case MPI_LONG_DOUBLE_INT: return loc_op<long double, int>(op, in, io, n, stride);
    case MPI_2REAL: return loc_op<float, float>(op, in, io, n, stride);
    case MPI_2DOUBLE_PRECISION: return loc_op<double, double>(op, in, io, n, stride);
    default: return false;
  }
}

Reducer::Reducer(MPI_Op op, MPI_Datatype type)
    : op_(op), type_handle_(type), type_(datatype_get(type)), commutative_(op_commutative(op)),
      elem_size_(type_ ? type_->size : 0) {}

void Reducer::apply(const void* in, void* inout, std::size_t n) const {
  if (n == 0 || elem_size_ == 0) return;
  if (UserOp* u = held_user_op(op_)) {  // (the user may have freed it since the call began)
    // The user function counts in int: longer runs of packed elements go in pieces.
    constexpr std::size_t kMaxLen = INT_MAX;
    if (n > kMaxLen) {
      for (std::size_t i = 0; i < n; i += kMaxLen)
        apply(static_cast<const unsigned char*>(in) + i * elem_size_, static_cast<unsigned char*>(inout) + i * elem_size_,
              std::min(kMaxLen, n - i));
      return;
    }
    int len = static_cast<int>(n);
    MPI_Datatype dt = type_handle_;
    if (type_->contiguous) {
      u->fn(const_cast<void*>(in), inout, &len, &dt);
      return;
    }
    // The user function sees the datatype's own layout: unpack both operands, call, repack.
    const std::size_t span = (n - 1) * static_cast<std::size_t>(type_->extent) + static_cast<std::size_t>(type_->true_extent);
    std::vector<unsigned char> a(span), b(span);
    unsigned char* abase = a.data() - type_->true_lb;
    unsigned char* bbase = b.data() - type_->true_lb;
    unpack(in, n * type_->size, n, *type_, abase);
    unpack(inout, n * type_->size, n, *type_, bbase);
    u->fn(abase, bbase, &len, &dt);
    pack(bbase, n, *type_, inout);
    return;
  }
  apply_predefined(op_, type_->basic, in, inout, n * type_->basic_count);
}

void Reducer::apply_into_lo(void* lo_inout, const void* hi, std::size_t n) const {
  if (n == 0 || elem_size_ == 0) return;
  if (commutative_) {
    apply(hi, lo_inout, n);
    return;
  }
  std::vector<unsigned char> tmp(static_cast<const unsigned char*>(hi),
                                 static_cast<const unsigned char*>(hi) + n * elem_size_);
  apply(lo_inout, tmp.data(), n);
  std::memcpy(lo_inout, tmp.data(), n * elem_size_);
}

}  // namespace tilempi::mpi::coll

// ---------------------------------------------------------------------------------------------
// MPI entry points
using namespace tilempi::mpi;

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  ApiScope api_scope(__func__);
  if (!user_fn) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create", "user function is NULL");
  if (!op) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create", "op is NULL");
  auto& ops = coll::user_ops();
  std::size_t i = 0;
  while (i < ops.size() && (ops[i].live || ops[i].holds > 0)) ++i;
  if (i == ops.size()) ops.emplace_back();
  ops[i] = coll::UserOp{user_fn, commute != 0, true, 0};
  *op = static_cast<MPI_Op>(TILEMPI_OP_PREDEFINED_END + static_cast<int>(i));
  return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op* op) {
  ApiScope api_scope(__func__);
  if (!op) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_free", "op is NULL");
  coll::UserOp* u = coll::user_op(*op);
  if (!u) {
    return raise(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free",
                 *op > 0 && *op < TILEMPI_OP_PREDEFINED_END ? "cannot free a predefined op" : "invalid op handle");
  }
  u->live = false;
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  ApiScope api_scope(__func__);
  if (!coll::op_valid(op)) return raise(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_commutative", "invalid op handle");
  if (!commute) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_commutative", "commute is NULL");
  *commute = coll::op_commutative(op) ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Reduce_local";
  if (count < 0) return raise(MPI_COMM_WORLD, MPI_ERR_COUNT, fn, "negative count " + std::to_string(count));
  const Datatype* t = datatype_get(datatype);
  if (!t) return raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, "invalid datatype");
  if (!t->committed) return raise(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, std::string("datatype not committed: ") + t->name);
  std::string why;
  if (int e = coll::op_check(op, datatype, &why)) return raise(MPI_COMM_WORLD, e, fn, why);
  if (count == 0 || t->size == 0) return MPI_SUCCESS;
  if (!inbuf || !inoutbuf || inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
    return raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, fn, "invalid buffer");
  if (coll::user_op(op)) {
    int len = count;
    MPI_Datatype dt = datatype;
    coll::user_op(op)->fn(const_cast<void*>(inbuf), inoutbuf, &len, &dt);
    return MPI_SUCCESS;
  }
  const std::size_t n = static_cast<std::size_t>(count);
  if (t->contiguous) {
    coll::apply_predefined(op, t->basic, inbuf, inoutbuf, n * t->basic_count);
    return MPI_SUCCESS;
  }
  std::vector<unsigned char> a(n * t->size), b(n * t->size);
  pack(inbuf, n, *t, a.data());
  pack(inoutbuf, n, *t, b.data());
  coll::apply_predefined(op, t->basic, a.data(), b.data(), n * t->basic_count);
  unpack(b.data(), b.size(), n, *t, inoutbuf);
  return MPI_SUCCESS;
}

}  // extern "C"
