// The routing functions' registry, their checks and the helpers they share.
#include "registered_routings.h"

#include <stdexcept>
#include <string>

#include "tilempi/hwmodel/config.h"

namespace tilempi::hwmodel {

const registry::Registry<RoutingEntry>& routings() {
  static const auto r = TILEMPI_REGISTRY_OF("routing function", TILEMPI_REGISTERED_ROUTINGS, registered_routings);
  return r;
}

const RoutingEntry& routing_named(const std::string& name) {
  const RoutingEntry* e = routings().find(name);
  if (!e)
    throw ConfigError("routing", "config key 'routing': bad value '" + name + "': expected one of " +
                                     routings().joined());
  return *e;
}

void check_routing(const Config& c) {
  const RoutingEntry& e = routing_named(c.routing);
  if (std::string(e.name) == "xy") return;  // (a torus's dateline VCs are xy's)
  if (c.torus)
    throw ConfigError("routing", "routing=" + c.routing + " runs on meshes only (torus=false): on a torus only xy "
                                 "has its dateline VCs");
  const int k = c.vcs_per_class;
  if (k < e.min_class_vcs || (e.even_class_vcs && k % 2 != 0))
    throw ConfigError("routing", "routing=" + c.routing + " needs " +
                                     (e.even_class_vcs ? "an even number of VCs per packet class, at least " +
                                                             std::to_string(e.min_class_vcs)
                                                       : "at least " + std::to_string(e.min_class_vcs) +
                                                             " VCs per packet class") +
                                     " to be deadlock-free (" + e.vc_use + "); this chip has vcs_per_class=" +
                                     std::to_string(k) + " (vcs=" + std::to_string(c.vcs) + "): set e.g. vcs=" +
                                     std::to_string(e.min_class_vcs) + " vcs_per_class=" +
                                     std::to_string(e.min_class_vcs));
}

std::uint64_t routing_next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Dir dor_port(const Topology& topo, TileId at, TileId target, bool y_first) {
  const Coord a = topo.coord(at), b = topo.coord(target);
  const Dir x = b.x > a.x ? Dir::East : Dir::West;
  const Dir y = b.y > a.y ? Dir::South : Dir::North;
  if (!y_first) {
    if (a.x != b.x) return x;
    if (a.y != b.y) return y;
  } else {
    if (a.y != b.y) return y;
    if (a.x != b.x) return x;
  }
  return Dir::Local;
}

std::vector<Link> routed_path(const RoutingEntry& e, const Topology& topo, TileId src, TileId dst,
                              const PacketRoute& r) {
  if (e.kind == RoutingKind::adaptive)
    throw std::invalid_argument(std::string("routing ") + e.name + " is adaptive: its paths depend on timing");
  if (std::string(e.name) == "xy") return topo.xy_path(src, dst);
  PacketRoute state = r;
  std::vector<Link> path;
  TileId at = src;
  int in_port = static_cast<int>(Dir::Local);
  for (int guard = 0; guard <= 4 * topo.num_tiles(); ++guard) {
    RouteOption o[kMaxRouteOptions];
    const RouteAt h{at, src, dst, in_port, 0, 2};
    e.route(topo, h, state, o);
    const Dir d = static_cast<Dir>(o[0].port);
    if (d == Dir::Local) return path;
    path.push_back(Link{at, d});
    at = topo.neighbor(at, d);
    in_port = static_cast<int>(opposite(d));
  }
  throw std::logic_error(std::string("routing ") + e.name + " did not reach the destination");
}

namespace routing_detail {

int productive(const Topology& topo, TileId at, TileId dst, Dir* out) {
  const Coord a = topo.coord(at), b = topo.coord(dst);
  int n = 0;
  if (a.x != b.x) out[n++] = b.x > a.x ? Dir::East : Dir::West;
  if (a.y != b.y) out[n++] = b.y > a.y ? Dir::South : Dir::North;
  return n;
}

int two_phase(const Topology& topo, const RouteAt& h, PacketRoute& r, RouteOption* out) {
  if (r.phase == 0 && h.at == r.mid) r.phase = 1;
  // (In phase 0 a packet may pass its destination on the way to mid: valiant.)
  const Dir d = dor_port(topo, h.at, r.phase == 0 ? r.mid : h.dst);
  if (d == Dir::Local) return eject(h, out);
  const int half = h.class_vcs / 2;
  return r.phase == 0 ? one(d, 0, half, out) : one(d, half, h.class_vcs - half, out);
}

}  // namespace routing_detail

}  // namespace tilempi::hwmodel
