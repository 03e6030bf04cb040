// Routing functions of the dynamic networks (the chip key `routing`): which output ports and
// which virtual channels a head may take at each router. Each function is a registered entry, one
// file each in hwmodel/src/routing/ with its registration line in
// hwmodel/src/routing/registered_routings.h. Meshes only, except xy (which has the torus's
// dateline VCs). docs/HWMODEL.md, "Routing functions and allocators".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tilempi/hwmodel/registry.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::hwmodel {

struct Config;

/// What a routing function keeps of one packet: drawn once, when the packet is injected, from the
/// chip's routing stream (seeded by `routing_seed`), so the same seed gives the same paths.
struct PacketRoute {
  TileId mid = kNoTile;    ///< intermediate tile of a two-phase routing (romm, valiant)
  std::uint8_t phase = 0;  ///< 0: towards mid (when there is one), 1: towards the destination
  std::uint8_t yx = 0;     ///< o1turn: this packet goes Y first
};

/// One set of output VCs a head may take at a router: output port `port` (a Dir) and the VCs
/// [vc_first, vc_first + vc_count) of the packet's class, numbered within the class. Options of a
/// higher `priority` are preferred (an adaptive routing's escape VC has the lower one).
struct RouteOption {
  std::int8_t port = 0;
  std::int8_t vc_first = 0;
  std::int8_t vc_count = 1;
  std::int8_t priority = 0;
};
inline constexpr int kMaxRouteOptions = 3;

/// Where a head asks for its route.
struct RouteAt {
  TileId at = 0, src = 0, dst = 0;
  int in_port = 4;    ///< the input it came in by (a Dir; Local: from its own core)
  int in_vc = 0;      ///< its input VC within its class
  int class_vcs = 1;  ///< VCs per packet class
};

/// How a packet's path is decided.
enum class RoutingKind : std::uint8_t {
  deterministic,  ///< by source and destination alone
  oblivious,      ///< per packet at random (the seed), whatever the traffic
  adaptive,       ///< at each hop from the state of the routers: it depends on timing
};

/// A registered routing function (hwmodel/src/routing/registered_routings.h lists them).
struct RoutingEntry {
  const char* name;
  const char* help;  ///< one line: what it does, after which source
  RoutingKind kind = RoutingKind::deterministic;
  int min_class_vcs = 1;        ///< VCs per packet class it needs to be deadlock-free on a mesh
  bool even_class_vcs = false;  ///< the class's VCs are split into two halves
  const char* vc_use = "";      ///< how it uses a class's VCs (in the refusal of a chip with too few)
  /// Draws the packet's route state at injection (nullptr: none). `rng` is the chip's stream.
  void (*choose)(PacketRoute& r, const Topology& topo, TileId src, TileId dst, std::uint64_t& rng) = nullptr;
  /// The options of a head at `h.at` (1 to kMaxRouteOptions, written to out); may advance r.phase.
  /// At the destination the only option is Local with the whole class.
  int (*route)(const Topology& topo, const RouteAt& h, PacketRoute& r, RouteOption* out) = nullptr;
};

/// The registered routing functions, in registration order.
const registry::Registry<RoutingEntry>& routings();
/// The routing named `name`; throws ConfigError naming the key `routing` (and the choices) if none.
const RoutingEntry& routing_named(const std::string& name);
/// Throws ConfigError naming the key for a chip that cannot run c.routing deadlock-free (too few
/// or an odd number of VCs per class, a torus), saying what the function needs.
void check_routing(const Config& c);

/// The next number of a routing stream (splitmix64), and a uniform draw in [0, n).
std::uint64_t routing_next(std::uint64_t& state);
inline int routing_draw(std::uint64_t& state, int n) {
  return static_cast<int>(routing_next(state) % static_cast<std::uint64_t>(n));
}

/// Output port of dimension-order routing towards `target` at `at` on a mesh, X first (yx: Y
/// first); Local at the target.
Dir dor_port(const Topology& topo, TileId at, TileId target, bool y_first = false);

/// The directed links a packet takes from src to dst under a routing whose path does not depend on
/// timing (deterministic or oblivious), given the packet's route state (`choose`'s draw). Throws
/// std::invalid_argument for an adaptive routing.
std::vector<Link> routed_path(const RoutingEntry& e, const Topology& topo, TileId src, TileId dst,
                              const PacketRoute& r);

}  // namespace tilempi::hwmodel
