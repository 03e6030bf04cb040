// romm: two-phase ROMM [Nesson 1995] as BookSim's romm: an intermediate tile drawn per packet in
// the minimal quadrant of source and destination, XY to it in the lower half of the class's VCs,
// then XY to the destination in the upper half (each phase a dimension-order network of its own).
// Paths stay minimal.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    romm,
    "two-phase ROMM: XY to a random tile of the minimal quadrant, then XY on (BookSim romm); oblivious, minimal",
    .kind = RoutingKind::oblivious, .min_class_vcs = 2, .even_class_vcs = true,
    .vc_use = "the first phase in one half of the class's VCs, the second in the other",
    .choose = [](PacketRoute& r, const Topology& topo, TileId src, TileId dst, std::uint64_t& rng) {
      const Coord s = topo.coord(src), d = topo.coord(dst);
      // Each coordinate uniformly between the source's and the destination's, both included.
      const int x = std::min(s.x, d.x) + routing_draw(rng, std::abs(d.x - s.x) + 1);
      const int y = std::min(s.y, d.y) + routing_draw(rng, std::abs(d.y - s.y) + 1);
      r.mid = topo.tile(x, y);
      r.phase = 0;
    },
    .route = routing_detail::two_phase);

}  // namespace tilempi::hwmodel
