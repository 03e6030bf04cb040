// What Chip needs from a model of its dynamic networks (private header). Two models exist:
// Chip::Engine (engine.h, network_model=flit: wormhole routers flit by flit, the reference) and
// Chip::PacketEngine (packet_engine.h, network_model=packet: one event per packet and hop).
#pragma once

#include <cstdint>

#include "tilempi/hwmodel/chip.h"

namespace tilempi::hwmodel {

struct Chip::Network {
  virtual ~Network() = default;
  virtual PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                          std::uint64_t tag, int cls) = 0;
  virtual Cycle next_event_cycle(Cycle from) const = 0;
  virtual void run_until(Cycle c) = 0;
  virtual void hold_ejection(int network, TileId tile, bool hold) = 0;
  virtual std::uint64_t in_flight() const = 0;
  virtual void fill_stats(Stats& s) const = 0;
  virtual void reset_stats() = 0;

  Cycle stats_start_ = 0;    ///< cycle of the last reset
  bool log_packets_ = false;  ///< keep a PacketRecord per delivered packet
};

}  // namespace tilempi::hwmodel
