// yx: dimension-order routing, Y first. Deadlock-free on a mesh with one VC like xy.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    yx, "dimension order, Y first then X; deterministic, any number of VCs",
    .kind = RoutingKind::deterministic, .vc_use = "any VC of the class",
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute&, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      return routing_detail::one(dor_port(topo, h.at, h.dst, true), 0, h.class_vcs, out);
    });

}  // namespace tilempi::hwmodel
