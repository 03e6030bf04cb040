// Packing in the portable "external32" representation (MPI-3.1 §4.3 and §13.5.2):
// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size.
//
// external32 is big-endian, every item byte-aligned and stored one after the other, with fixed
// sizes that differ from this machine's (x86-64 Linux, LP64) in four places: MPI_LONG and
// MPI_UNSIGNED_LONG take 4 bytes (8 here), MPI_WCHAR 2 (4 here), and MPI_LONG_DOUBLE is IEEE
// binary128 (x87 extended precision here, in 16 bytes). Complex values are pairs of their
// floating-point parts, each big-endian. A value that the external size cannot hold (a long
// beyond 32 bits, a wide character beyond U+FFFF) is MPI_ERR_CONVERSION.
//
// The data are packed in this machine's form first (the datatype's own pack: type-map order,
// contiguous), then converted item by item following the type signature (type_signature.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "check.h"
#include "type_signature.h"

using namespace tilempi::mpi;

namespace {

int bad(int cls, const char* fn, const std::string& what) { return raise(MPI_COMM_WORLD, cls, fn, what); }

/// Bytes of one item of basic type b in external32 (MPI-3.1 Table 13.2).
std::size_t external_size(MPI_Datatype b) {
  switch (b) {
    case MPI_LONG:
    case MPI_UNSIGNED_LONG: return 4;
    case MPI_WCHAR: return 2;
    case MPI_LONG_DOUBLE: return 16;
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX: return 32;
    default: return basic_size(b);
  }
}

bool is_complex(MPI_Datatype b) {
  switch (b) {
    case MPI_C_FLOAT_COMPLEX:
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_COMPLEX16:
    case MPI_COMPLEX32:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX: return true;
    default: return false;
  }
}

/// n bytes reversed (this machine is little-endian, external32 big-endian).
void reversed(const unsigned char* in, unsigned char* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

/// One long double (x87 extended, 80 bits in 16 bytes) as IEEE binary128, big-endian, and back.
void long_double_out(const unsigned char* in, unsigned char* out) {
  long double v;
  std::memcpy(&v, in, sizeof v);
  const __float128 q = static_cast<__float128>(v);
  unsigned char b[16];
  std::memcpy(b, &q, 16);
  reversed(b, out, 16);
}
void long_double_in(const unsigned char* in, unsigned char* out) {
  unsigned char b[16];
  reversed(in, b, 16);
  __float128 q;
  std::memcpy(&q, b, 16);
  const long double v = static_cast<long double>(q);
  std::memset(out, 0, 16);
  std::memcpy(out, &v, sizeof v < 16 ? sizeof v : 16);
}

/// Converts `count` items of b from this machine's form at *in to external32 at *out (or back
/// with to_external false), moving both pointers. False: a value the other form cannot hold.
bool convert(MPI_Datatype b, std::size_t count, const unsigned char*& in, unsigned char*& out, bool to_external) {
  const std::size_t ns = basic_size(b), es = external_size(b);
  for (std::size_t k = 0; k < count; ++k) {
    switch (b) {
      case MPI_LONG:
      case MPI_UNSIGNED_LONG: {
        if (to_external) {
          std::int64_t v;
          std::memcpy(&v, in, 8);
          const bool fits = b == MPI_LONG ? (v >= INT32_MIN && v <= INT32_MAX)
                                          : static_cast<std::uint64_t>(v) <= UINT32_MAX;
          if (!fits) return false;
          const std::uint32_t w = static_cast<std::uint32_t>(v);
          reversed(reinterpret_cast<const unsigned char*>(&w), out, 4);
        } else {
          std::uint32_t w;
          reversed(in, reinterpret_cast<unsigned char*>(&w), 4);
          const std::int64_t v = b == MPI_LONG ? static_cast<std::int64_t>(static_cast<std::int32_t>(w))
                                               : static_cast<std::int64_t>(w);
          std::memcpy(out, &v, 8);
        }
        break;
      }
      case MPI_WCHAR: {
        if (to_external) {
          std::uint32_t v;
          std::memcpy(&v, in, 4);
          if (v > 0xFFFF) return false;
          const std::uint16_t w = static_cast<std::uint16_t>(v);
          reversed(reinterpret_cast<const unsigned char*>(&w), out, 2);
        } else {
          std::uint16_t w;
          reversed(in, reinterpret_cast<unsigned char*>(&w), 2);
          const std::uint32_t v = w;
          std::memcpy(out, &v, 4);
        }
        break;
      }
      case MPI_LONG_DOUBLE:
        to_external ? long_double_out(in, out) : long_double_in(in, out);
        break;
      case MPI_C_LONG_DOUBLE_COMPLEX:
      case MPI_CXX_LONG_DOUBLE_COMPLEX:
        for (int part = 0; part < 2; ++part)
          to_external ? long_double_out(in + 16 * part, out + 16 * part) : long_double_in(in + 16 * part, out + 16 * part);
        break;
      default:
        if (is_complex(b)) {
          reversed(in, out, ns / 2);
          reversed(in + ns / 2, out + ns / 2, ns / 2);
        } else {
          reversed(in, out, ns);  // (one byte: a copy)
        }
    }
    in += to_external ? ns : es;
    out += to_external ? es : ns;
  }
  return true;
}

/// The checks the three calls share: the representation's name, the type; and the signature of
/// one element, with its external size.
const Datatype* arguments(const char* datarep, MPI_Datatype datatype, int count, const char* fn, int* rc,
                          TypeSignature* sig, std::size_t* external_bytes) {
  if (!check::initialized(fn, rc)) return nullptr;
  if (!datarep || std::strcmp(datarep, "external32") != 0) {
    *rc = bad(MPI_ERR_ARG, fn,
              std::string("data representation '") + (datarep ? datarep : "(null)") + "' (only \"external32\")");
    return nullptr;
  }
  const Datatype* t = datatype_get(datatype);
  if (!t) {
    *rc = bad(MPI_ERR_TYPE, fn, "datatype handle " + std::to_string(datatype) + " is not valid");
    return nullptr;
  }
  if (!t->committed) {
    *rc = bad(MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
    return nullptr;
  }
  if (count < 0) {
    *rc = bad(MPI_ERR_COUNT, fn, "count " + std::to_string(count) + " is negative");
    return nullptr;
  }
  *sig = type_signature(datatype);
  if (native_bytes(*sig) != t->size) {
    *rc = bad(MPI_ERR_TYPE, fn, "the type signature of this datatype could not be found for external32");
    return nullptr;
  }
  std::size_t e = 0;
  for (const SignatureItems& r : *sig) e += r.count * external_size(r.basic);
  *external_bytes = e;
  return t;
}

/// The position checks MPI_Pack_external and MPI_Unpack_external share: room for `need` bytes at
/// *position of a buffer of `size` bytes (what: "the packed data needs", "unpacking needs").
bool room(MPI_Aint size, const MPI_Aint* position, std::size_t need, const char* fn, const char* what, int* rc) {
  if (!position) {
    *rc = bad(MPI_ERR_ARG, fn, "position is NULL");
    return false;
  }
  if (size < 0 || *position < 0 || *position > size) {
    *rc = bad(MPI_ERR_ARG, fn, "position " + std::to_string(*position) + " is outside the buffer of " +
                                   std::to_string(size) + " bytes");
    return false;
  }
  if (need > static_cast<std::size_t>(size - *position)) {
    *rc = bad(MPI_ERR_TRUNCATE, fn, std::string(what) + " " + std::to_string(need) + " bytes but only " +
                                        std::to_string(size - *position) + " are left");
    return false;
  }
  return true;
}

}  // namespace

extern "C" {

int MPI_Pack_external_size(const char* datarep, int incount, MPI_Datatype datatype, MPI_Aint* size) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Pack_external_size";
  int rc;
  TypeSignature sig;
  std::size_t one = 0;
  if (!arguments(datarep, datatype, incount, fn, &rc, &sig, &one)) return rc;
  if (!size) return bad(MPI_ERR_ARG, fn, "size is NULL");
  *size = static_cast<MPI_Aint>(one * static_cast<std::size_t>(incount));
  return MPI_SUCCESS;
}

int MPI_Pack_external(const char* datarep, const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Pack_external";
  int rc;
  TypeSignature sig;
  std::size_t one = 0;
  const Datatype* t = arguments(datarep, datatype, incount, fn, &rc, &sig, &one);
  if (!t) return rc;
  const std::size_t need = one * static_cast<std::size_t>(incount);
  if (!room(outsize, position, need, fn, "the packed data needs", &rc)) return rc;
  if (need == 0) return MPI_SUCCESS;
  if (!outbuf || !inbuf) return bad(MPI_ERR_BUFFER, fn, "a buffer is NULL");
  std::vector<unsigned char> native(t->size * static_cast<std::size_t>(incount));
  pack(inbuf, static_cast<std::size_t>(incount), *t, native.data());
  const unsigned char* in = native.data();
  unsigned char* out = static_cast<unsigned char*>(outbuf) + *position;
  for (int k = 0; k < incount; ++k)
    for (const SignatureItems& r : sig)
      if (!convert(r.basic, r.count, in, out, true))
        return bad(MPI_ERR_CONVERSION, fn,
                   std::string("a value of ") + datatype_get(r.basic)->name + " does not fit its external32 size");
  *position += static_cast<MPI_Aint>(need);
  return MPI_SUCCESS;
}

int MPI_Unpack_external(const char* datarep, const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                        int outcount, MPI_Datatype datatype) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Unpack_external";
  int rc;
  TypeSignature sig;
  std::size_t one = 0;
  const Datatype* t = arguments(datarep, datatype, outcount, fn, &rc, &sig, &one);
  if (!t) return rc;
  const std::size_t need = one * static_cast<std::size_t>(outcount);
  if (!room(insize, position, need, fn, "unpacking needs", &rc)) return rc;
  if (need == 0) return MPI_SUCCESS;
  if (!outbuf || !inbuf) return bad(MPI_ERR_BUFFER, fn, "a buffer is NULL");
  std::vector<unsigned char> native(t->size * static_cast<std::size_t>(outcount));
  const unsigned char* in = static_cast<const unsigned char*>(inbuf) + *position;
  unsigned char* out = native.data();
  for (int k = 0; k < outcount; ++k)
    for (const SignatureItems& r : sig) convert(r.basic, r.count, in, out, false);  // (every external value fits)
  unpack(native.data(), native.size(), static_cast<std::size_t>(outcount), *t, outbuf);
  *position += static_cast<MPI_Aint>(need);
  return MPI_SUCCESS;
}

}  // extern "C"

TILEMPI_PMPI_ALIAS(Pack_external_size)
TILEMPI_PMPI_ALIAS(Pack_external)
TILEMPI_PMPI_ALIAS(Unpack_external)
