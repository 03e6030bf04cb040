// A rank's side of the energy model: the kinds of MPI call it names with its requests (the run
// report's energy per call kind, energy_account.h) and the energy it can price by itself, which
// TILEMPIX_Energy returns (docs/SIM.md "Energy as the program sees it").
//
// What a rank prices itself, deterministic because it depends on nothing but the rank's own calls:
// its core's counted operations, its adapter's work for the messages it sent and took (per message
// end and payload word, as the report charges adapters), and the network's dynamic energy of the
// messages it sent, their payload packets priced on their routes as the report prices delivered
// packets (hwmodel::packet_energy), from the moment they are sent. Not priced here: the adapters'
// protocol packets (rendezvous handshakes, acknowledgements), one-sided operations, collective
// offloads, static-network broadcasts, and the chip's leakage and clock, which no rank causes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/energy.h"
#include "tilempi/hwmodel/topology.h"

namespace tilempi::transport::sim {

class RankEnergy {
 public:
  /// tiles: every rank's tile, which must outlive this object (the job's facts).
  RankEnergy(const hwmodel::Config& config, std::span<const hwmodel::TileId> tiles, int rank);

  // ---- the kinds of call
  /// The layer above names the kind of the calls that follow (e.g. "alltoall/mesh_rounds");
  /// nullptr or "": each request belongs to the MPI call it is made in again.
  void name_kind(const char* name);
  /// The number of the kind a request made now, inside API call `call` (static storage; nullptr
  /// outside any call), belongs to. 0: none (more kinds than a request can name).
  std::uint32_t kind(const char* call) {
    if (named_) return named_;
    if (call == last_call_) return last_kind_;
    return kind_of_call(call);
  }
  /// Its notes for the run report: "energy_kind=N NAME" for each kind it numbered.
  void add_notes(std::map<std::string, std::uint64_t>& notes) const;

  // ---- what the rank prices itself
  void sent(int dst, std::uint64_t bytes) {
    const std::uint64_t flits = flits_of(bytes);
    const std::uint64_t packets = flits == 0 ? 1 : (flits + max_payload_ - 1) / max_payload_;
    const std::uint64_t f = flits + packets * header_;
    // Its route's hops by kind (XY, as packet_energy walks it): a packet's energy is linear in
    // them, so sums are all the rank keeps (a table per destination would be N^2 in all).
    const hwmodel::TileId a = tiles_[static_cast<std::size_t>(rank_)], b = tiles_[static_cast<std::size_t>(dst)];
    const int dx = delta(a % width_, b % width_, width_), dy = delta(a / width_, b / width_, height_);
    const std::uint64_t nx = static_cast<std::uint64_t>(dx < 0 ? -dx : dx);
    const std::uint64_t ns = static_cast<std::uint64_t>(dy > 0 ? dy : 0), nn = static_cast<std::uint64_t>(dy < 0 ? -dy : 0);
    flits_ += f;
    flits_x_ += f * nx;
    flits_s_ += f * ns;
    flits_n_ += f * nn;
    packets_ += packets;
    packet_hops_ += packets * (nx + ns + nn);
    ++ends_;
    words_ += flits;
  }
  void received(std::uint64_t bytes) {
    ++ends_;
    words_ += flits_of(bytes);
  }
  /// Joules so far: the core's for int_ops and fp_ops counted operations, the adapter's and the
  /// network's of this rank's messages.
  double joules(double int_ops, double fp_ops);

 private:
  std::uint32_t kind_of_call(const char* call);
  std::uint32_t number(const std::string& name);
  std::uint64_t flits_of(std::uint64_t bytes) const { return (bytes + flit_bytes_ - 1) / flit_bytes_; }

  /// Signed steps from a to b along a dimension of n tiles (hwmodel Topology's: on a torus the
  /// shorter way round, a tie forwards).
  int delta(int a, int b, int n) const {
    const int d = b - a;
    if (!torus_) return d;
    const int fwd = ((d % n) + n) % n, back = n - fwd;
    return fwd == 0 ? 0 : fwd <= back ? fwd : -back;
  }

  hwmodel::Config config_;
  std::span<const hwmodel::TileId> tiles_;  ///< every rank's tile (the job's facts, not a copy)
  int rank_;
  int width_, height_;
  bool torus_;
  std::uint64_t flit_bytes_, max_payload_, header_;
  // Kinds: numbers from 1, by name; calls by the address of their name (one look-up per call).
  std::vector<std::string> names_{""};
  std::unordered_map<std::string, std::uint32_t> numbers_;
  std::unordered_map<const char*, std::uint32_t> calls_;
  const char* last_call_ = nullptr;
  std::uint32_t last_kind_ = 0;
  std::uint32_t named_ = 0;
  // Messages sent: flits (headers included), and flits times the hops of each kind they made
  // (east or west, south, north); packets, and packets times hops.
  std::uint64_t flits_ = 0, flits_x_ = 0, flits_s_ = 0, flits_n_ = 0, packets_ = 0, packet_hops_ = 0;
  std::uint64_t ends_ = 0, words_ = 0;
  std::optional<hwmodel::EnergyCosts> costs_;  ///< at the first joules()
};

}  // namespace tilempi::transport::sim
