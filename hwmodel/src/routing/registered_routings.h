// The registration lines of the routing functions (the chip key `routing`): one X(name) line per
// function, in the order of every list of them (the key's choices and description, the tests that
// run for each). Each function's file defines its entry with TILEMPI_REGISTER_ROUTING
// (hwmodel/include/tilempi/hwmodel/registry.h says why both halves are needed).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "tilempi/hwmodel/registry.h"
#include "tilempi/hwmodel/routing.h"

#define TILEMPI_REGISTERED_ROUTINGS(X) \
  X(xy)                                \
  X(yx)                                \
  X(o1turn)                            \
  X(romm)                              \
  X(valiant)                           \
  X(min_adaptive)                      \
  X(west_first)                        \
  X(odd_even)

namespace tilempi::hwmodel::registered_routings {
using Entry = RoutingEntry;
TILEMPI_REGISTRY_DECLARE_ENTRIES(TILEMPI_REGISTERED_ROUTINGS)
}  // namespace tilempi::hwmodel::registered_routings

/// Defines routing function `id`'s entry, in its own file, the fields after the help as designated
/// initializers:
///   TILEMPI_REGISTER_ROUTING(yx, "one line of help", .route = ...);
/// `id` must have a registration line above.
#define TILEMPI_REGISTER_ROUTING(id, help_text, ...)                                                  \
  TILEMPI_REGISTRY_DEFINE(tilempi::hwmodel::registered_routings, "routing function",                 \
                          "hwmodel/src/routing/registered_routings.h", id, help_text, __VA_ARGS__)

namespace tilempi::hwmodel::routing_detail {

// The whole class at the destination's ejection port.
inline int eject(const RouteAt& h, RouteOption* out) {
  out[0] = RouteOption{static_cast<std::int8_t>(Dir::Local), 0, static_cast<std::int8_t>(h.class_vcs), 0};
  return 1;
}

// One port with VCs [first, first + count) of the class.
inline int one(Dir port, int first, int count, RouteOption* out) {
  out[0] = RouteOption{static_cast<std::int8_t>(port), static_cast<std::int8_t>(first),
                       static_cast<std::int8_t>(count), 0};
  return 1;
}

// The productive directions from `at` to `dst` on a mesh (X's first), as Dir values; returns how
// many (0 at dst).
int productive(const Topology& topo, TileId at, TileId dst, Dir* out);

// Two-phase dimension-order routing through r.mid (romm, valiant): phase 0 in the lower half of
// the class's VCs towards mid, phase 1 in the upper half towards dst.
int two_phase(const Topology& topo, const RouteAt& h, PacketRoute& r, RouteOption* out);

}  // namespace tilempi::hwmodel::routing_detail
