// min_adaptive: minimal adaptive routing with an escape VC [Duato 1993], as BookSim's min_adapt: the
// first VC of the class is the escape channel, routed XY (low priority); the other VCs may take
// either productive direction (high priority). A packet in the escape VC stays there, which keeps
// the escape network deadlock-free.
#include "registered_routings.h"

namespace tilempi::hwmodel {

TILEMPI_REGISTER_ROUTING(
    min_adaptive,
    "minimal adaptive over the productive directions, XY on an escape VC (Duato; BookSim min_adapt); adaptive",
    .kind = RoutingKind::adaptive, .min_class_vcs = 2,
    .vc_use = "the first VC of the class is the XY escape channel, the others adaptive",
    .route = [](const Topology& topo, const RouteAt& h, PacketRoute&, RouteOption* out) {
      if (h.at == h.dst) return routing_detail::eject(h, out);
      int n = 0;
      // From the core a packet is not in the escape VC (BookSim ignores the injection VC).
      const bool escaped = h.in_port != static_cast<int>(Dir::Local) && h.in_vc == 0;
      if (!escaped) {
        Dir d[2];
        const int k = routing_detail::productive(topo, h.at, h.dst, d);
        for (int j = 0; j < k; ++j)
          out[n++] = RouteOption{static_cast<std::int8_t>(d[j]), 1, static_cast<std::int8_t>(h.class_vcs - 1), 1};
      }
      out[n++] = RouteOption{static_cast<std::int8_t>(dor_port(topo, h.at, h.dst)), 0, 1, 0};
      return n;
    });

}  // namespace tilempi::hwmodel
