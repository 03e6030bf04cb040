// The MPI layer's settings: the environment variables the library reads, declared once
// (tilempi/settings.h) for `tilempirun --set help` and the docs. The collective registry
// (coll/registry.cpp) parses the values: they name its algorithms.
#pragma once

#include <vector>

#include "tilempi/settings.h"

namespace tilempi::mpi {

const settings::Setting& coll_env();            ///< TILEMPI_COLL
const settings::Setting& coll_per_kind_env();   ///< TILEMPI_COLL_<COLLECTIVE> (one per collective)
const settings::Setting& coll_fallback_env();   ///< TILEMPI_COLL_FALLBACK
/// Every environment variable of the MPI layer, in listing order.
std::vector<settings::Setting> environment_settings();

}  // namespace tilempi::mpi
