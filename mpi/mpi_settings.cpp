// The MPI layer's settings (mpi_settings.h).
#include "mpi_settings.h"

namespace tilempi::mpi {

const settings::Setting& coll_env() {
  static const settings::Setting s = settings::text(
      "TILEMPI_COLL", settings::Source::environment,
      "collective=algorithm[,...], e.g. alltoall=mesh_rounds,barrier=ktree:4 (tilempirun --coll help)",
      "the library's selector",
      "collective algorithms for every communicator; tilempirun --coll sets it for the ranks");
  return s;
}

const settings::Setting& coll_per_kind_env() {
  static const settings::Setting s = settings::text(
      "TILEMPI_COLL_<COLLECTIVE>", settings::Source::environment,
      "an algorithm of that collective (tilempirun --coll help)", "TILEMPI_COLL's choice",
      "one collective's algorithm, e.g. TILEMPI_COLL_ALLTOALL=pairwise; wins over TILEMPI_COLL");
  return s;
}

const settings::Setting& coll_fallback_env() {
  static const settings::Setting s = settings::choice(
      "TILEMPI_COLL_FALLBACK", settings::Source::environment, {"error", "warn", "silent"}, "warn",
      "a requested algorithm that cannot run on a communicator: error fails the call, warn runs the fallback "
      "and says so once per algorithm and communicator, silent runs the fallback without a word");
  return s;
}

std::vector<settings::Setting> environment_settings() {
  return {coll_env(), coll_per_kind_env(), coll_fallback_env()};
}

}  // namespace tilempi::mpi
