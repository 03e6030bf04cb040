// The registration lines of the chip presets: one X(name) line per preset, in the order of every
// list of presets (--preset's help, the unknown-preset error, the tests that run for each
// preset). Each preset's file defines its entry with TILEMPI_REGISTER_PRESET
// (hwmodel/include/tilempi/hwmodel/registry.h says why both halves are needed).
#pragma once

#include <string_view>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/registry.h"

#define TILEMPI_REGISTERED_PRESETS(X) \
  X(default)                          \
  X(tilepro64)                        \
  X(optimsoc)                         \
  X(mmachine)                         \
  X(booksim)                          \
  X(booksim_speculative)

namespace tilempi::hwmodel::registered {
#define TILEMPI_PRESET_DECLARE(id) extern const PresetEntry preset_##id;
TILEMPI_REGISTERED_PRESETS(TILEMPI_PRESET_DECLARE)
#undef TILEMPI_PRESET_DECLARE
inline constexpr std::string_view kPresetNames[] = {TILEMPI_REGISTERED_PRESETS(TILEMPI_REGISTRY_NAME)};
}  // namespace tilempi::hwmodel::registered

/// Defines preset `id`'s entry, in the preset's own file (inside namespace tilempi::hwmodel or at
/// file scope):
///   TILEMPI_REGISTER_PRESET(tilepro64, "one line of help", .apply = [](Config& c) { c.width = 8; ... });
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_PRESET(id, help_text, ...)                                                                 \
  static_assert(::tilempi::hwmodel::registry::listed(::tilempi::hwmodel::registered::kPresetNames, #id),           \
                "preset '" #id "' has no registration line in hwmodel/src/presets/registered_presets.h");          \
  constinit const tilempi::hwmodel::PresetEntry tilempi::hwmodel::registered::preset_##id{.name = #id, .help = help_text, __VA_ARGS__}
