// The registration lines of the models of the dynamic networks (the chip key network_model): one
// X(name) line per model, in the order of every list of them (the key's choices and description,
// the tests that run for each model). Each model's file defines its entry with
// TILEMPI_REGISTER_NETWORK_MODEL (hwmodel/include/tilempi/hwmodel/registry.h says why both
// halves are needed). Private to hwmodel/src.
#pragma once

#include <string_view>

#include "network_model.h"
#include "tilempi/hwmodel/registry.h"

#define TILEMPI_REGISTERED_NETWORK_MODELS(X) \
  X(flit)                                    \
  X(packet)                                  \
  X(ideal)

namespace tilempi::hwmodel::registered_network_models {
using Entry = NetworkModelEntry;
TILEMPI_REGISTRY_DECLARE_ENTRIES(TILEMPI_REGISTERED_NETWORK_MODELS)
}  // namespace tilempi::hwmodel::registered_network_models

/// Defines network model `id`'s entry, in the model's own file, the fields after the help as
/// designated initializers:
///   TILEMPI_REGISTER_NETWORK_MODEL(packet, "one line of help",
///                                  .create = [](Chip& chip, const Config& c, const Topology& t) {...},
///                                  .check = ...);
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_NETWORK_MODEL(id, help_text, ...)                                          \
  TILEMPI_REGISTRY_DEFINE(tilempi::hwmodel::registered_network_models, "network model",            \
                          "hwmodel/src/registered_network_models.h", id, help_text, __VA_ARGS__)
