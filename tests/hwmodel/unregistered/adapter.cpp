// Must not compile: an adapter entry without a registration line in registered_adapters.h
// (hwmodel.registry.unregistered_adapter expects the registration macro's message).
#include "registered_adapters.h"

namespace tilempi::hwmodel::adapter {
TILEMPI_REGISTER_ADAPTER(unregistered, "an adapter nobody listed",
                         .create = [](const Config& c) { return Adapter::create("udn", c); });
}  // namespace tilempi::hwmodel::adapter
