// Must not compile: a preset entry without a registration line in registered_presets.h
// (hwmodel.registry.unregistered_preset expects the registration macro's message).
#include "presets/registered_presets.h"

namespace tilempi::hwmodel {
TILEMPI_REGISTER_PRESET(unregistered, "a preset nobody listed", .apply = [](Config& c) { c.width = 2; });
}  // namespace tilempi::hwmodel
