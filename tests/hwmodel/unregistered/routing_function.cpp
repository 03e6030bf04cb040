// Must not compile: a routing function entry without a registration line in
// registered_routings.h (hwmodel.registry.unregistered_routing_function expects the registration
// macro's message).
#include "routing/registered_routings.h"

namespace tilempi::hwmodel {
TILEMPI_REGISTER_ROUTING(unregistered, "a routing function nobody listed",
                         .route = [](const Topology&, const RouteAt& h, PacketRoute&, RouteOption* out) {
                           return routing_detail::eject(h, out);
                         });
}  // namespace tilempi::hwmodel
