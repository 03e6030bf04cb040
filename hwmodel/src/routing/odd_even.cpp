// odd_even: the odd-even turn model [Chiu 2000], minimal: no East-to-North or East-to-South turn in
// an even column, no North-to-West or South-to-West turn in an odd column. Deadlock-free with one
// VC and more adaptive than west-first for eastbound and westbound packets alike; the router picks
// the allowed direction with the most room.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    odd_even, "odd-even turn model, minimal (Chiu; Garnet, Noxim); adaptive, any number of VCs",
    .kind = RoutingKind::adaptive, .vc_use = "any VC of the class",
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute&, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      const Coord c = topo.coord(h.at), d = topo.coord(h.dst), s = topo.coord(h.src);
      const int ex = d.x - c.x;
      const Dir vertical = d.y > c.y ? Dir::South : Dir::North;
      int n = 0;
      if (ex == 0) return routing_detail::one(vertical, 0, h.class_vcs, out);
      if (ex > 0) {
        if (d.y == c.y) return routing_detail::one(Dir::East, 0, h.class_vcs, out);
        // A turn from East into Y is allowed in odd columns only (and at the source, where the
        // packet has not gone East yet).
        if (c.x % 2 == 1 || c.x == s.x) n += routing_detail::one(vertical, 0, h.class_vcs, out + n);
        // Going on East must leave a column where the last turn is allowed: not into an even
        // destination column from the one next to it.
        if (d.x % 2 == 1 || ex != 1) n += routing_detail::one(Dir::East, 0, h.class_vcs, out + n);
        return n;
      }
      n += routing_detail::one(Dir::West, 0, h.class_vcs, out + n);
      // Turning from Y into West is allowed in even columns only: go vertical here only if the
      // packet can turn West again later, i.e. this column is even.
      if (d.y != c.y && c.x % 2 == 0) n += routing_detail::one(vertical, 0, h.class_vcs, out + n);
      return n;
    });

}  // namespace tilempi::hwmodel
