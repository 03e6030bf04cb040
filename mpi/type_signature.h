// The type signature of a datatype (MPI-3.1 §3.3.1): the sequence of basic types its data are,
// as runs. tilempi keeps one basic type per datatype (datatype.h), which a struct of mixed members
// does not have; such a type's signature comes from how it was made (TypeContents): a struct's
// members in order, every other constructor its one inner type repeated as often as the size says.
// Used where each item's own type matters beyond its size: external32 packing
// (api_pack_external.cpp) and user data representations of files (api_datarep.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "mpi.h"

namespace tilempi::mpi {

/// A run of the type signature: `count` items of basic type `basic`.
struct SignatureItems {
  MPI_Datatype basic;
  std::size_t count;
};
using TypeSignature = std::vector<SignatureItems>;

/// The signature of one element of datatype h (empty for a type of no data).
TypeSignature type_signature(MPI_Datatype h);
/// The bytes of the signature's items back to back in this machine's form: a type's size when
/// the signature is right (callers check it before relying on it).
std::size_t native_bytes(const TypeSignature& s);

}  // namespace tilempi::mpi
