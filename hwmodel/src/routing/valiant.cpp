// valiant: Valiant's randomized routing [Valiant 1981] as BookSim's valiant on a mesh: an
// intermediate tile drawn per packet among all tiles, XY to it in the lower half of the class's
// VCs, then XY to the destination in the upper half. Paths are not minimal (hops counted as taken).
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    valiant, "XY to a random tile of the whole mesh, then XY on (Valiant; BookSim valiant); oblivious, not minimal",
    .kind = RoutingKind::oblivious, .min_class_vcs = 2, .even_class_vcs = true,
    .vc_use = "the first phase in one half of the class's VCs, the second in the other",
    .choose = [](PacketRoute& r, const Topology& topo, TileId, TileId, std::uint64_t& rng) {
      r.mid = routing_draw(rng, topo.num_tiles());
      r.phase = 0;
    },
    .route = routing_detail::two_phase);

}  // namespace tilempi::hwmodel
