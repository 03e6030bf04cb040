// The type signature of a datatype: type_signature.h says what and why.
#include "type_signature.h"

#include "datatype.h"

namespace tilempi::mpi {

namespace {

void append(TypeSignature& s, MPI_Datatype basic, std::size_t count) {
  if (count == 0) return;
  if (!s.empty() && s.back().basic == basic) s.back().count += count;
  else s.push_back({basic, count});
}

void append_times(TypeSignature& s, const TypeSignature& one, std::size_t times) {
  if (one.size() == 1) {
    append(s, one[0].basic, one[0].count * times);
    return;
  }
  for (std::size_t k = 0; k < times; ++k)
    for (const SignatureItems& r : one) append(s, r.basic, r.count);
}

/// The (value, index) pair types: MINLOC / MAXLOC's, two basic items each.
MPI_Datatype pair_value(MPI_Datatype h) {
  switch (h) {
    case MPI_FLOAT_INT: return MPI_FLOAT;
    case MPI_DOUBLE_INT: return MPI_DOUBLE;
    case MPI_LONG_INT: return MPI_LONG;
    case MPI_2INT: return MPI_INT;
    case MPI_SHORT_INT: return MPI_SHORT;
    case MPI_LONG_DOUBLE_INT: return MPI_LONG_DOUBLE;
    case MPI_2INTEGER: return MPI_INTEGER;
    case MPI_2REAL: return MPI_REAL;
    case MPI_2DOUBLE_PRECISION: return MPI_DOUBLE_PRECISION;
    default: return MPI_DATATYPE_NULL;
  }
}

}  // namespace

std::size_t native_bytes(const TypeSignature& s) {
  std::size_t n = 0;
  for (const SignatureItems& r : s) n += r.count * basic_size(r.basic);
  return n;
}

TypeSignature type_signature(MPI_Datatype h) {
  const Datatype* t = datatype_get(h);
  TypeSignature s;
  if (!t || t->size == 0) return s;
  if (!t->contents) {  // a named type
    if (const MPI_Datatype v = pair_value(h); v != MPI_DATATYPE_NULL) {
      const MPI_Datatype index = (h == MPI_2INTEGER || h == MPI_2REAL || h == MPI_2DOUBLE_PRECISION) ? v : MPI_INT;
      append(s, v, 1);
      append(s, index, 1);
    } else {
      append(s, h, 1);
    }
    return s;
  }
  const TypeContents& c = *t->contents;
  // One basic type throughout (not a pair): that many of it.
  if (t->basic != MPI_DATATYPE_NULL && pair_value(t->basic) == MPI_DATATYPE_NULL && basic_size(t->basic) != 0 &&
      t->basic_count * basic_size(t->basic) == t->size) {
    append(s, t->basic, t->basic_count);
    return s;
  }
  if (c.combiner == MPI_COMBINER_STRUCT || c.combiner == MPI_COMBINER_STRUCT_INTEGER) {
    for (std::size_t i = 0; i < c.types.size(); ++i)
      append_times(s, type_signature(c.types[i]), static_cast<std::size_t>(c.ints[1 + i]));
    return s;
  }
  if (c.types.empty()) return s;
  // Every other constructor repeats its one inner type: as many times as the sizes say.
  const Datatype* inner = datatype_get(c.types[0]);
  if (!inner || inner->size == 0) return s;
  append_times(s, type_signature(c.types[0]), t->size / inner->size);
  return s;
}

}  // namespace tilempi::mpi
