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

namespace tilempi::hwmodel::registered_presets {
using Entry = PresetEntry;
TILEMPI_REGISTRY_DECLARE_ENTRIES(TILEMPI_REGISTERED_PRESETS)
}  // namespace tilempi::hwmodel::registered_presets

/// Defines preset `id`'s entry, in the preset's own file:
///   TILEMPI_REGISTER_PRESET(tilepro64, "one line of help", .apply = [](Config& c) { c.width = 8; ... });
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_PRESET(id, help_text, ...)                                                          \
  TILEMPI_REGISTRY_DEFINE(tilempi::hwmodel::registered_presets, "preset", "hwmodel/src/presets/registered_presets.h", \
                          id, help_text, __VA_ARGS__)
