// xy: dimension-order routing, X first (BookSim dor). Any VC of the class; on a torus the
// dateline VCs (the flit network's own route computation).
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    xy, "dimension order, X first then Y (BookSim dor); deterministic, any number of VCs",
    .kind = RoutingKind::deterministic, .vc_use = "any VC of the class",
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute&, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      return routing_detail::one(dor_port(topo, h.at, h.dst), 0, h.class_vcs, out);
    });

}  // namespace tilempi::hwmodel
