// Must not compile: a network model entry without a registration line in
// registered_network_models.h (hwmodel.registry.unregistered_network_model expects the
// registration macro's message).
#include "registered_network_models.h"

namespace tilempi::hwmodel {
TILEMPI_REGISTER_NETWORK_MODEL(unregistered, "a model nobody listed",
                               .create = [](Chip&, const Config&, const Topology&) {
                                 return std::unique_ptr<Chip::NetworkModel>();
                               });
}  // namespace tilempi::hwmodel
