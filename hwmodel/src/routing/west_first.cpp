// west_first: the west-first turn model [Glass 1992], minimal: a packet bound west goes west first
// (no turn into the West direction later), every other packet chooses among its productive
// directions. Deadlock-free with one VC; the router picks the direction with the most room.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    west_first, "west-first turn model, minimal (Glass and Ni; Garnet, Noxim); adaptive, any number of VCs",
    .kind = RoutingKind::adaptive, .vc_use = "any VC of the class",
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute&, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      if (topo.coord(h.dst).x < topo.coord(h.at).x) return routing_detail::one(Dir::West, 0, h.class_vcs, out);
      Dir d[2];
      const int k = routing_detail::productive(topo, h.at, h.dst, d);
      for (int j = 0; j < k; ++j) routing_detail::one(d[j], 0, h.class_vcs, out + j);
      return k;
    });

}  // namespace tilempi::hwmodel
