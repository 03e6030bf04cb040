// o1turn: XY or YX chosen at random per packet [Seo 2005, O1TURN], as BookSim's xy_yx: XY packets
// in the lower half of the class's VCs, YX packets in the upper half, so that each half is a
// dimension-order network of its own (deadlock-free); at the destination any VC of the class.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    o1turn,
    "XY or YX drawn per packet, each on its own half of the class's VCs (O1TURN; BookSim xy_yx); oblivious",
    .kind = RoutingKind::oblivious, .min_class_vcs = 2, .even_class_vcs = true,
    .vc_use = "XY packets in one half of the class's VCs, YX packets in the other",
    .choose = [](PacketRoute& r, const Topology&, TileId, TileId, std::uint64_t& rng) {
      r.yx = static_cast<std::uint8_t>(routing_draw(rng, 2));
    },
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute& r, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      const int half = h.class_vcs / 2;
      const Dir d = dor_port(topo, h.at, h.dst, r.yx != 0);
      return r.yx ? routing_detail::one(d, half, h.class_vcs - half, out) : routing_detail::one(d, 0, half, out);
    });

}  // namespace tilempi::hwmodel
