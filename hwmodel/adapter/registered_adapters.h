// The registration lines of the network-adapter models: one X(name) line per adapter, in the
// order of every list of adapters (--adapter's help, the unknown-adapter error, the tests that run
// for each adapter). Each adapter's file defines its entry with TILEMPI_REGISTER_ADAPTER
// (hwmodel/include/tilempi/hwmodel/registry.h says why both halves are needed).
#pragma once

#include <string_view>

#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/registry.h"

#define TILEMPI_REGISTERED_ADAPTERS(X) \
  X(udn)                               \
  X(namp)                              \
  X(rdma)                              \
  X(ilib)                              \
  X(mmachine)

namespace tilempi::hwmodel::adapter::registered {
#define TILEMPI_ADAPTER_DECLARE(id) extern const AdapterEntry adapter_##id;
TILEMPI_REGISTERED_ADAPTERS(TILEMPI_ADAPTER_DECLARE)
#undef TILEMPI_ADAPTER_DECLARE
inline constexpr std::string_view kAdapterNames[] = {TILEMPI_REGISTERED_ADAPTERS(TILEMPI_REGISTRY_NAME)};
}  // namespace tilempi::hwmodel::adapter::registered

/// Defines adapter `id`'s entry, in the adapter's own file (inside namespace
/// tilempi::hwmodel::adapter or at file scope):
///   TILEMPI_REGISTER_ADAPTER(udn, "one line of help",
///                            .create = [](const Config& c) -> std::unique_ptr<Adapter> {...});
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_ADAPTER(id, help_text, ...)                                                         \
  static_assert(::tilempi::hwmodel::registry::listed(::tilempi::hwmodel::adapter::registered::kAdapterNames, \
                                                     #id),                                                  \
                "adapter '" #id "' has no registration line in hwmodel/adapter/registered_adapters.h");     \
  constinit const tilempi::hwmodel::adapter::AdapterEntry tilempi::hwmodel::adapter::registered::adapter_##id{ \
      .name = #id, .help = help_text, __VA_ARGS__}
