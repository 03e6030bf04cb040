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

namespace tilempi::hwmodel::registered {
#define TILEMPI_NETWORK_MODEL_DECLARE(id) extern const NetworkModelEntry network_model_##id;
TILEMPI_REGISTERED_NETWORK_MODELS(TILEMPI_NETWORK_MODEL_DECLARE)
#undef TILEMPI_NETWORK_MODEL_DECLARE
inline constexpr std::string_view kNetworkModelNames[] = {TILEMPI_REGISTERED_NETWORK_MODELS(TILEMPI_REGISTRY_NAME)};
}  // namespace tilempi::hwmodel::registered

/// Defines network model `id`'s entry, in the model's own file (inside namespace tilempi::hwmodel
/// or at file scope), the fields after the help as designated initializers:
///   TILEMPI_REGISTER_NETWORK_MODEL(packet, "one line of help",
///                                  .create = [](Chip& chip, const Config& c, const Topology& t) {...},
///                                  .check = ...);
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_NETWORK_MODEL(id, help_text, ...)                                                      \
  static_assert(::tilempi::hwmodel::registry::listed(::tilempi::hwmodel::registered::kNetworkModelNames, #id), \
                "network model '" #id "' has no registration line in hwmodel/src/registered_network_models.h"); \
  constinit const tilempi::hwmodel::NetworkModelEntry tilempi::hwmodel::registered::network_model_##id{        \
      .name = #id, .help = help_text, __VA_ARGS__}
