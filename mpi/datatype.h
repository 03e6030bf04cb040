// Datatypes: sizes, extents and type maps; packing to and from contiguous bytes.
// Every type is built from one predefined "basic" type (tilempi has no struct types), which
// is what reductions operate on.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "attributes.h"
#include "holds.h"
#include "mpi.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

struct Block {
  std::ptrdiff_t offset;  ///< from the element's origin, in bytes
  std::size_t length;     ///< bytes
};

/// A run of the type signature (MPI-3.1 §3.3.1: the sequence of basic types): `units` basic
/// elements in a row that each take unit_bytes of the packed data. A pair type (MPI_DOUBLE_INT,
/// ...) is one unit of two basic elements. MPI_Get_elements walks these runs.
struct SignatureRun {
  std::size_t unit_bytes;
  std::size_t unit_elements;
  std::size_t units;
};

/// How a derived type was made (MPI_Type_get_envelope, MPI_Type_get_contents): its constructor
/// and the arguments given to it, in the standard's order for that constructor (MPI-3.1 §4.1.13).
/// The derived types named in `types` are held (Datatype::refs) while the type made from them
/// lives, so that get_contents can hand them out again after the user has freed them.
struct TypeContents {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> aints;
  std::vector<MPI_Datatype> types;
};

struct Datatype {
  const char* name = "";
  std::size_t size = 0;            ///< bytes of data in one element
  std::ptrdiff_t lb = 0;           ///< lower bound
  std::ptrdiff_t extent = 0;       ///< distance between consecutive elements
  std::ptrdiff_t true_lb = 0;
  std::ptrdiff_t true_extent = 0;
  std::vector<Block> blocks;       ///< one element's data, in type-map order, adjacent blocks merged
  bool contiguous = true;          ///< one block at offset 0 and extent == size: no packing needed
  MPI_Datatype basic = MPI_DATATYPE_NULL;  ///< predefined type the data is made of
  std::size_t basic_count = 0;     ///< basic elements in one element
  /// The alignment of its data in C (the largest of its basic types'): MPI_Type_create_struct
  /// rounds a struct's extent up to a multiple of it (MPI-3.1 §4.1.6, the epsilon of ub), so that
  /// the extent is the C struct's sizeof.
  std::size_t align = 1;
  /// The type signature of one element, run by run, adjacent runs of one unit merged; empty
  /// with signature_known false when it would take more than kMaxSignatureRuns runs (then
  /// MPI_Get_elements counts the basic type's elements, or bytes when the data is mixed).
  std::vector<SignatureRun> signature;
  bool signature_known = true;
  /// MPI-1's bound markers: MPI_LB and MPI_UB themselves, and whether a type's lb / ub were set
  /// explicitly (by a marker or by MPI_Type_create_resized), which a struct built from it keeps
  /// (MPI-3.1 §4.1.6: the bounds of a type with markers are the markers', not its data's).
  enum class Marker : unsigned char { None, Lb, Ub };
  Marker marker = Marker::None;
  bool explicit_lb = false;
  bool explicit_ub = false;
  bool predefined = false;
  bool committed = false;
  int refs = 1;                    ///< the user's handle, plus each type or get_contents result holding it
  std::shared_ptr<const TypeContents> contents;  ///< nullptr: a predefined (named) type
  AttrMap attributes;              ///< cached attributes (api_attributes.cpp)
  bool named = false;              ///< MPI_Type_set_name was called (then user_name is the name)
  std::string user_name;
  HoldCount holds;                 ///< pending operations that use the description (holds.h)
};

namespace detail {
/// Datatypes by handle (datatype.cpp keeps them; declared here so that datatype_get(), which
/// every message's checks make, inlines).
struct DatatypeTable {
  DatatypeTable();  ///< with the predefined types
  std::vector<std::unique_ptr<Datatype>> live;    // index = handle
  std::deque<std::unique_ptr<Datatype>> retired;  // freed types that pending operations still hold
};
extern transport::RankLocal<DatatypeTable> g_datatype_table;
}  // namespace detail

/// nullptr when h is not a live datatype.
inline const Datatype* datatype_get(MPI_Datatype h) {
  const auto& live = detail::g_datatype_table.get().live;
  if (h <= 0 || static_cast<std::size_t>(h) >= live.size()) return nullptr;
  return live[static_cast<std::size_t>(h)].get();
}
/// The same, for what a handle may change (its attributes).
Datatype* datatype_get_mutable(MPI_Datatype h);
/// Size in bytes of a predefined type (0 if h is not predefined).
std::size_t basic_size(MPI_Datatype h);

/// How many basic elements `bytes` of t's packed data hold (MPI_Get_elements), -1 when they end
/// inside a basic element (MPI_UNDEFINED).
long long elements_in(const Datatype& t, std::size_t bytes);
/// The bytes of t's packed data that hold `elements` basic elements (MPI_Status_set_elements).
std::size_t bytes_of_elements(const Datatype& t, std::size_t elements);

/// Copy count elements described by t at buf into contiguous dst (count * t.size bytes).
void pack(const void* buf, std::size_t count, const Datatype& t, void* dst);
/// Scatter nbytes of contiguous src into count elements of t at buf (nbytes <= count * t.size;
/// a short message fills a prefix).
void unpack(const void* src, std::size_t nbytes, std::size_t count, const Datatype& t, void* buf);
/// Copy count elements between two buffers of possibly different types with the same signature.
void copy_typed(const void* src, std::size_t scount, const Datatype& st, void* dst, std::size_t rcount,
                const Datatype& rt);

}  // namespace tilempi::mpi

namespace tilempi::mpi {

/// Make a new derived type live (uncommitted), made as `contents` says; returns its handle. Takes
/// a reference to each derived type contents names.
MPI_Datatype datatype_register(Datatype t, TypeContents contents);
/// One more reference to derived type h's handle (a type made from it, a handle MPI_Type_get_contents
/// returned): the handle stays valid until every reference has been released.
void datatype_ref(MPI_Datatype h);
/// Drop one reference to a derived type's handle; the last one frees the handle and the references
/// it takes. Operations that hold the description (holds.h) keep it valid.
void datatype_release(MPI_Datatype h);
/// Mark committed.
void datatype_commit(MPI_Datatype h);

/// Type constructors (validated by the caller). `displacements` are in bytes.
Datatype make_hindexed(const Datatype& old, const std::vector<int>& blocklengths,
                       const std::vector<std::ptrdiff_t>& displacements);
/// A struct type: blocks of different types. Its basic type is MPI_DATATYPE_NULL when they differ
/// (such a type moves data but cannot be reduced).
Datatype make_struct(const std::vector<const Datatype*>& types, const std::vector<int>& blocklengths,
                     const std::vector<std::ptrdiff_t>& displacements);
Datatype make_resized(const Datatype& old, std::ptrdiff_t lb, std::ptrdiff_t extent);
/// MPI_Type_create_struct's padding: the extent of a struct type without an explicit bound
/// rounded up to a multiple of its alignment, as a C compiler pads the struct (MPI-3.1 §4.1.6;
/// MPICH does this for struct types only, and so does tilempi).
void pad_struct_extent(Datatype& t);

}  // namespace tilempi::mpi
