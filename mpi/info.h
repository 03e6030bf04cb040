// Info objects as the rest of the library sees them: the hints a window or a file keeps
// (MPI_Win_set_info/get_info, MPI_File_set_info/get_info, and the info given at creation).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "mpi.h"

namespace tilempi::mpi {

/// key -> value, in the order the keys were first set.
using Hints = std::vector<std::pair<std::string, std::string>>;

/// Whether h names a live info object (MPI_INFO_NULL does not).
bool info_valid(MPI_Info h);
/// Sets every hint of info h (valid, or MPI_INFO_NULL: none) in `into`, replacing equal keys.
void info_merge(MPI_Info h, Hints& into);
/// A new info object holding the hints (the caller frees it).
MPI_Info info_of(const Hints& hints);

}  // namespace tilempi::mpi
