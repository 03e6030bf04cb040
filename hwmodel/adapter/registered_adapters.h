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
using Entry = AdapterEntry;
TILEMPI_REGISTRY_DECLARE_ENTRIES(TILEMPI_REGISTERED_ADAPTERS)
}  // namespace tilempi::hwmodel::adapter::registered

/// Defines adapter `id`'s entry, in the adapter's own file:
///   TILEMPI_REGISTER_ADAPTER(udn, "one line of help",
///                            .create = [](const Config& c) -> std::unique_ptr<Adapter> {...});
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_ADAPTER(id, help_text, ...)                                                        \
  TILEMPI_REGISTRY_DEFINE(tilempi::hwmodel::adapter::registered, "adapter", "hwmodel/adapter/registered_adapters.h", \
                          id, help_text, __VA_ARGS__)
