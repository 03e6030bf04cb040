// The default preset: the model's own defaults (config.h), a small chip for unit tests and quick
// runs.
#include "registered_presets.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_PRESET(default, "the model's own defaults: a 4x4 mesh at 1 GHz with one-cycle routers (config.h)",
                        .apply = [](Config&) {});

}  // namespace tilempi::hwmodel
