#include "datatype.h"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

// Pair types for MINLOC / MAXLOC: MPI-3.1 §5.9.4 defines each as MPI_Type_create_struct of the C
// struct {value; index}, so the type map holds the value and the index but not the padding
// between them or after them: the size is the two members', the extent the struct's. Packed
// (what travels, and what reductions combine) a pair is the value and the index, back to back.
template <typename V, typename I = int>
struct Pair {
  V value;
  I index;
};

void push_block(std::vector<Block>& blocks, std::ptrdiff_t offset, std::size_t length) {
  if (length == 0) return;
  if (!blocks.empty()) {
    Block& last = blocks.back();
    if (last.offset + static_cast<std::ptrdiff_t>(last.length) == offset) {
      last.length += length;
      return;
    }
  }
  blocks.push_back(Block{offset, length});
}

constexpr std::size_t kMaxSignatureRuns = 4096;

/// Appends `times` copies of signature `from` to `to`, merging runs of one unit; false when the
/// result would take more than kMaxSignatureRuns runs.
bool append_signature(std::vector<SignatureRun>& to, const std::vector<SignatureRun>& from, std::size_t times) {
  if (from.empty() || times == 0) return true;
  auto push = [&](const SignatureRun& r) {
    if (!to.empty() && to.back().unit_bytes == r.unit_bytes && to.back().unit_elements == r.unit_elements)
      to.back().units += r.units;
    else
      to.push_back(r);
  };
  if (from.size() == 1) {  // one kind of unit: all copies are one run
    push(SignatureRun{from[0].unit_bytes, from[0].unit_elements, from[0].units * times});
    return to.size() <= kMaxSignatureRuns;
  }
  for (std::size_t k = 0; k < times; ++k) {
    for (const SignatureRun& r : from) push(r);
    if (to.size() > kMaxSignatureRuns) return false;
  }
  return true;
}

void finish(Datatype& t) {
  if (t.blocks.empty()) {
    t.true_lb = 0;
    t.true_extent = 0;
  } else {
    std::ptrdiff_t lo = t.blocks.front().offset, hi = lo;
    for (const Block& b : t.blocks) {
      lo = std::min(lo, b.offset);
      hi = std::max(hi, b.offset + static_cast<std::ptrdiff_t>(b.length));
    }
    t.true_lb = lo;
    t.true_extent = hi - lo;
  }
  t.contiguous = t.lb == 0 && static_cast<std::size_t>(t.extent) == t.size &&
                 (t.size == 0 || (t.blocks.size() == 1 && t.blocks[0].offset == 0));
}

}  // namespace

detail::DatatypeTable::DatatypeTable() {
  live.resize(TILEMPI_DATATYPE_PREDEFINED_END);
  auto def = [&](MPI_Datatype h, const char* name, std::size_t size) {
    auto t = std::make_unique<Datatype>();
    t->name = name;
    t->size = size;
    t->extent = static_cast<std::ptrdiff_t>(size);
    t->true_extent = t->extent;
    t->blocks = {Block{0, size}};
    t->contiguous = true;
    t->basic = h;
    t->basic_count = 1;
    t->align = size == 0 ? 1 : std::min<std::size_t>(size, alignof(std::max_align_t));
    if (size) t->signature = {SignatureRun{size, 1, 1}};
    t->predefined = true;
    t->committed = true;
    live[h] = std::move(t);
  };
  // A pair is two basic elements, the value and the index, each a run of the signature (a message
  // may end after a pair's value: MPI_Get_elements counts that value).
  auto def_pair = [&]<typename V, typename I>(MPI_Datatype h, const char* name, Pair<V, I>) {
    def(h, name, sizeof(V) + sizeof(I));
    using P = Pair<V, I>;
    Datatype& t = *live[h];
    t.blocks.clear();
    push_block(t.blocks, offsetof(P, value), sizeof(V));
    push_block(t.blocks, offsetof(P, index), sizeof(I));
    t.signature.clear();
    append_signature(t.signature, {SignatureRun{sizeof(V), 1, 1}}, 1);
    append_signature(t.signature, {SignatureRun{sizeof(I), 1, 1}}, 1);
    t.extent = sizeof(P);
    t.align = alignof(P);
    finish(t);
  };
  def(MPI_CHAR, "MPI_CHAR", sizeof(char));
  def(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", sizeof(signed char));
  def(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", sizeof(unsigned char));
  def(MPI_BYTE, "MPI_BYTE", 1);
  def(MPI_SHORT, "MPI_SHORT", sizeof(short));
  def(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(unsigned short));
  def(MPI_INT, "MPI_INT", sizeof(int));
  def(MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(unsigned));
  def(MPI_LONG, "MPI_LONG", sizeof(long));
  def(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(unsigned long));
  def(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", sizeof(long long));
  def(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(unsigned long long));
  def(MPI_FLOAT, "MPI_FLOAT", sizeof(float));
  def(MPI_DOUBLE, "MPI_DOUBLE", sizeof(double));
  def(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double));
  def(MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t));
  def(MPI_C_BOOL, "MPI_C_BOOL", sizeof(bool));
  def(MPI_INT8_T, "MPI_INT8_T", 1);
  def(MPI_INT16_T, "MPI_INT16_T", 2);
  def(MPI_INT32_T, "MPI_INT32_T", 4);
  def(MPI_INT64_T, "MPI_INT64_T", 8);
  def(MPI_UINT8_T, "MPI_UINT8_T", 1);
  def(MPI_UINT16_T, "MPI_UINT16_T", 2);
  def(MPI_UINT32_T, "MPI_UINT32_T", 4);
  def(MPI_UINT64_T, "MPI_UINT64_T", 8);
  def(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", sizeof(std::complex<float>));
  def(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sizeof(std::complex<double>));
  def(MPI_PACKED, "MPI_PACKED", 1);
  def(MPI_AINT, "MPI_AINT", sizeof(MPI_Aint));
  def_pair(MPI_FLOAT_INT, "MPI_FLOAT_INT", Pair<float>{});
  def_pair(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", Pair<double>{});
  def_pair(MPI_LONG_INT, "MPI_LONG_INT", Pair<long>{});
  def_pair(MPI_2INT, "MPI_2INT", Pair<int>{});
  def_pair(MPI_SHORT_INT, "MPI_SHORT_INT", Pair<short>{});
  def_pair(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", Pair<long double>{});
  // Fortran types with gfortran's default sizes.
  def(MPI_INTEGER, "MPI_INTEGER", 4);
  def(MPI_REAL, "MPI_REAL", 4);
  def(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8);
  def(MPI_COMPLEX, "MPI_COMPLEX", 8);
  def(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16);
  def(MPI_LOGICAL, "MPI_LOGICAL", 4);
  def(MPI_CHARACTER, "MPI_CHARACTER", 1);
  def_pair(MPI_2INTEGER, "MPI_2INTEGER", Pair<std::int32_t, std::int32_t>{});
  def_pair(MPI_2REAL, "MPI_2REAL", Pair<float, float>{});
  def_pair(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", Pair<double, double>{});
  def(MPI_INTEGER1, "MPI_INTEGER1", 1);
  def(MPI_INTEGER2, "MPI_INTEGER2", 2);
  def(MPI_INTEGER4, "MPI_INTEGER4", 4);
  def(MPI_INTEGER8, "MPI_INTEGER8", 8);
  def(MPI_REAL4, "MPI_REAL4", 4);
  def(MPI_REAL8, "MPI_REAL8", 8);
  def(MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset));
  def(MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count));
  def(MPI_INTEGER16, "MPI_INTEGER16", 16);
  def(MPI_REAL16, "MPI_REAL16", 16);
  def(MPI_COMPLEX8, "MPI_COMPLEX8", 8);
  def(MPI_COMPLEX16, "MPI_COMPLEX16", 16);
  def(MPI_COMPLEX32, "MPI_COMPLEX32", 32);
  def(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", sizeof(std::complex<long double>));
  def(MPI_CXX_BOOL, "MPI_CXX_BOOL", sizeof(bool));
  def(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", sizeof(std::complex<float>));
  def(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", sizeof(std::complex<double>));
  def(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", sizeof(std::complex<long double>));
  // Where C aligns a type less than its size: complex numbers align as their parts.
  auto align = [&](MPI_Datatype h, std::size_t a) { live[h]->align = a; };
  align(MPI_C_FLOAT_COMPLEX, alignof(std::complex<float>));
  align(MPI_C_DOUBLE_COMPLEX, alignof(std::complex<double>));
  align(MPI_C_LONG_DOUBLE_COMPLEX, alignof(std::complex<long double>));
  align(MPI_CXX_FLOAT_COMPLEX, alignof(std::complex<float>));
  align(MPI_CXX_DOUBLE_COMPLEX, alignof(std::complex<double>));
  align(MPI_CXX_LONG_DOUBLE_COMPLEX, alignof(std::complex<long double>));
  align(MPI_COMPLEX, 4);
  align(MPI_COMPLEX8, 4);
  align(MPI_DOUBLE_COMPLEX, 8);
  align(MPI_COMPLEX16, 8);
  align(MPI_COMPLEX32, 16);
  // MPI-1's bound markers (deprecated, removed in MPI-3.0 but still in codes): no data, they
  // only place a struct type's lower or upper bound.
  def(MPI_LB, "MPI_LB", 0);
  def(MPI_UB, "MPI_UB", 0);
  live[MPI_LB]->marker = Datatype::Marker::Lb;
  live[MPI_UB]->marker = Datatype::Marker::Ub;
  for (MPI_Datatype h : {MPI_LB, MPI_UB}) {
    live[h]->blocks.clear();
    live[h]->basic = MPI_DATATYPE_NULL;
    live[h]->basic_count = 0;
  }
}

// Per rank (see rank_local.h); constant-initialised at namespace scope (no guard per call).
constinit transport::RankLocal<detail::DatatypeTable> detail::g_datatype_table;

namespace {

using Table = detail::DatatypeTable;

Table& table() { return detail::g_datatype_table.get(); }

}  // namespace

Datatype* datatype_get_mutable(MPI_Datatype h) { return const_cast<Datatype*>(datatype_get(h)); }

std::size_t basic_size(MPI_Datatype h) {
  if (h <= 0 || h >= TILEMPI_DATATYPE_PREDEFINED_END) return 0;
  return table().live[h]->size;
}

MPI_Datatype datatype_register(Datatype t, TypeContents contents) {
  Table& tb = table();
  t.named = false;  // a new type has no name, whatever it was built from (MPI-3.1 §6.8)
  t.user_name.clear();
  t.predefined = false;
  t.refs = 1;
  for (MPI_Datatype inner : contents.types) datatype_ref(inner);
  t.contents = std::make_shared<const TypeContents>(std::move(contents));
  for (std::size_t i = TILEMPI_DATATYPE_PREDEFINED_END; i < tb.live.size(); ++i) {
    if (!tb.live[i]) {
      tb.live[i] = std::make_unique<Datatype>(std::move(t));
      return static_cast<MPI_Datatype>(i);
    }
  }
  tb.live.push_back(std::make_unique<Datatype>(std::move(t)));
  return static_cast<MPI_Datatype>(tb.live.size() - 1);
}

void datatype_ref(MPI_Datatype h) {
  Table& tb = table();
  if (h < TILEMPI_DATATYPE_PREDEFINED_END || static_cast<std::size_t>(h) >= tb.live.size() || !tb.live[h]) return;
  ++tb.live[h]->refs;
}

void datatype_release(MPI_Datatype h) {
  Table& tb = table();
  if (h < TILEMPI_DATATYPE_PREDEFINED_END || static_cast<std::size_t>(h) >= tb.live.size()) return;
  std::unique_ptr<Datatype>& slot = tb.live[h];
  if (!slot) return;
  if (--slot->refs > 0) return;
  // The last reference: a type the user freed while others held it takes its attributes now.
  attributes_delete(slot->attributes, h);
  const std::shared_ptr<const TypeContents> made_of = slot->contents;
  if (slot->holds.count == 0) {
    slot.reset();
  } else {
    // Pending operations still point at the description: keep it until the last lets go.
    slot->holds.freed = true;
    tb.retired.push_back(std::move(slot));
  }
  if (made_of)
    for (MPI_Datatype inner : made_of->types) datatype_release(inner);
}

void datatype_hold(const Datatype* t) {
  if (t && !t->predefined) ++const_cast<Datatype*>(t)->holds.count;
}

void datatype_unhold(const Datatype* t) {
  if (!t || t->predefined) return;
  auto* d = const_cast<Datatype*>(t);
  if (--d->holds.count > 0 || !d->holds.freed) return;
  auto& retired = table().retired;
  for (auto it = retired.begin(); it != retired.end(); ++it)
    if (it->get() == d) {
      retired.erase(it);
      return;
    }
}

void datatype_commit(MPI_Datatype h) {
  Table& tb = table();
  if (h > 0 && static_cast<std::size_t>(h) < tb.live.size() && tb.live[h]) tb.live[h]->committed = true;
}

Datatype make_struct(const std::vector<const Datatype*>& types, const std::vector<int>& blocklengths,
                     const std::vector<std::ptrdiff_t>& displacements) {
  Datatype t;
  t.name = "derived";
  bool first = true;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const Datatype* old = types[i];
    // A bound marker holds no data, nor does an entry of no blocks (MPI-3.1 §4.1.2: it adds
    // nothing to the type map), so neither makes the type's data mixed.
    if (old->marker != Datatype::Marker::None || blocklengths[i] == 0 || old->size == 0) continue;
    if (first) t.basic = old->basic;
    else if (old->basic != t.basic) t.basic = MPI_DATATYPE_NULL;  // mixed: moves data, cannot be reduced
    first = false;
  }
  // A type with no data at all (MPI_Type_contiguous(0, MPI_INT)) keeps its first type's basic
  // type, as before: its zero-count accumulates and reductions check against that.
  for (std::size_t i = 0; first && i < types.size(); ++i)
    if (types[i]->marker == Datatype::Marker::None) {
      t.basic = types[i]->basic;
      first = false;
    }
  // Bounds from the data, and (MPI-1 markers, resized types) explicit ones, which win.
  bool any = false, any_lb = false, any_ub = false;
  std::ptrdiff_t lb = 0, ub = 0, elb = 0, eub = 0;
  auto low = [](bool& have, std::ptrdiff_t& v, std::ptrdiff_t x) { v = have ? std::min(v, x) : x; have = true; };
  auto high = [](bool& have, std::ptrdiff_t& v, std::ptrdiff_t x) { v = have ? std::max(v, x) : x; have = true; };
  for (std::size_t i = 0; i < types.size(); ++i) {
    const Datatype& old = *types[i];
    for (int j = 0; j < blocklengths[i]; ++j) {
      std::ptrdiff_t origin = displacements[i] + j * old.extent;
      if (old.marker == Datatype::Marker::Lb) {
        low(any_lb, elb, origin);
        continue;
      }
      if (old.marker == Datatype::Marker::Ub) {
        high(any_ub, eub, origin);
        continue;
      }
      for (const Block& b : old.blocks) push_block(t.blocks, origin + b.offset, b.length);
      t.align = std::max(t.align, old.align);
      if (t.signature_known && j == 0) {  // the entry's blocks, all at once
        t.signature_known = old.signature_known &&
                            append_signature(t.signature, old.signature, static_cast<std::size_t>(blocklengths[i]));
        if (!t.signature_known) t.signature.clear();
      }
      t.size += old.size;
      t.basic_count += old.basic_count;
      std::ptrdiff_t lo = origin + old.lb, hi = origin + old.lb + old.extent;
      bool a = any;
      low(a, lb, lo);
      high(any, ub, hi);
      if (old.explicit_lb) low(any_lb, elb, lo);
      if (old.explicit_ub) high(any_ub, eub, hi);
    }
  }
  if (any_lb) lb = elb;
  if (any_ub) ub = eub;
  if (!any && any_lb && !any_ub) ub = lb;
  if (!any && any_ub && !any_lb) lb = std::min<std::ptrdiff_t>(0, ub);
  t.explicit_lb = any_lb;
  t.explicit_ub = any_ub;
  t.lb = lb;
  t.extent = ub - lb;
  finish(t);
  return t;
}

long long elements_in(const Datatype& t, std::size_t bytes) {
  if (!t.signature_known) {  // the basic type's elements (a pair's two each), bytes when mixed
    const Datatype* basic = datatype_get(t.basic);
    if (!basic || basic->size == 0) return static_cast<long long>(bytes);
    return elements_in(*basic, bytes);
  }
  if (t.size == 0) return 0;
  std::size_t per_type = 0;
  for (const SignatureRun& r : t.signature) per_type += r.units * r.unit_elements;
  std::size_t elements = bytes / t.size * per_type, rest = bytes % t.size;
  for (const SignatureRun& r : t.signature) {
    if (rest == 0) break;
    const std::size_t take = std::min(r.units, rest / r.unit_bytes);
    elements += take * r.unit_elements;
    rest -= take * r.unit_bytes;
    if (take < r.units) break;
  }
  return rest ? -1 : static_cast<long long>(elements);
}

std::size_t bytes_of_elements(const Datatype& t, std::size_t elements) {
  if (!t.signature_known) {
    const Datatype* basic = datatype_get(t.basic);
    if (!basic || basic->size == 0) return elements;
    return bytes_of_elements(*basic, elements);
  }
  std::size_t per_type = 0;
  for (const SignatureRun& r : t.signature) per_type += r.units * r.unit_elements;
  if (per_type == 0) return 0;
  std::size_t bytes = elements / per_type * t.size, rest = elements % per_type;
  for (const SignatureRun& r : t.signature) {
    if (rest == 0) break;
    const std::size_t take = std::min(r.units, (rest + r.unit_elements - 1) / r.unit_elements);
    bytes += take * r.unit_bytes;
    rest -= std::min(rest, take * r.unit_elements);
  }
  return bytes;
}

void pad_struct_extent(Datatype& t) {
  if (t.explicit_lb || t.explicit_ub || t.align <= 1) return;  // bounds the user set are kept
  const auto a = static_cast<std::ptrdiff_t>(t.align);
  const std::ptrdiff_t rest = ((t.extent % a) + a) % a;
  if (rest == 0) return;
  t.extent += a - rest;
  finish(t);
}

Datatype make_hindexed(const Datatype& old, const std::vector<int>& blocklengths,
                       const std::vector<std::ptrdiff_t>& displacements) {
  return make_struct(std::vector<const Datatype*>(blocklengths.size(), &old), blocklengths, displacements);
}

Datatype make_resized(const Datatype& old, std::ptrdiff_t lb, std::ptrdiff_t extent) {
  Datatype t = old;
  t.name = "derived";
  t.predefined = false;
  t.committed = false;
  t.refs = 1;
  t.contents.reset();
  t.lb = lb;
  t.extent = extent;
  t.marker = Datatype::Marker::None;
  t.explicit_lb = t.explicit_ub = true;  // MPI-3.1 §4.1.7: resizing sets both bounds explicitly
  t.attributes.clear();                   // a new type: MPI_Type_dup copies through the callbacks
  finish(t);
  return t;
}

namespace {
// buf + offset, by integer arithmetic: with MPI_BOTTOM, buf is a null pointer and the offsets are
// addresses (MPI_Get_address), which pointer arithmetic on a null pointer may not reach.
inline std::uintptr_t address(const void* buf, std::ptrdiff_t offset) {
  return reinterpret_cast<std::uintptr_t>(buf) + static_cast<std::uintptr_t>(offset);
}
}  // namespace

void pack(const void* buf, std::size_t count, const Datatype& t, void* dst) {
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(buf);
  if (t.contiguous) {
    if (count != 0 && t.size != 0) std::memcpy(out, in, count * t.size);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::uintptr_t base = address(buf, static_cast<std::ptrdiff_t>(i) * t.extent);
    for (const Block& b : t.blocks) {
      std::memcpy(out, reinterpret_cast<const char*>(base + static_cast<std::uintptr_t>(b.offset)), b.length);
      out += b.length;
    }
  }
}

void unpack(const void* src, std::size_t nbytes, std::size_t count, const Datatype& t, void* buf) {
  const auto* in = static_cast<const char*>(src);
  auto* out = static_cast<char*>(buf);
  nbytes = std::min(nbytes, count * t.size);
  if (t.contiguous) {
    if (nbytes) std::memcpy(out, in, nbytes);
    return;
  }
  for (std::size_t i = 0; i < count && nbytes; ++i) {
    const std::uintptr_t base = address(buf, static_cast<std::ptrdiff_t>(i) * t.extent);
    for (const Block& b : t.blocks) {
      std::size_t n = std::min(b.length, nbytes);
      std::memcpy(reinterpret_cast<char*>(base + static_cast<std::uintptr_t>(b.offset)), in, n);
      in += n;
      nbytes -= n;
      if (!nbytes) break;
    }
  }
}

void copy_typed(const void* src, std::size_t scount, const Datatype& st, void* dst, std::size_t rcount,
                const Datatype& rt) {
  std::size_t bytes = std::min(scount * st.size, rcount * rt.size);
  if (st.contiguous && rt.contiguous) {
    if (bytes) std::memmove(dst, src, bytes);
    return;
  }
  std::vector<char> tmp(scount * st.size);
  pack(src, scount, st, tmp.data());
  unpack(tmp.data(), bytes, rcount, rt, dst);
}

}  // namespace tilempi::mpi
