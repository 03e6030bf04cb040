// The run's energy as the engine sees it packet by packet: each delivered packet's dynamic energy
// (hwmodel packet_energy) charged to the rank that sent it, the words each rank's adapter moved,
// and, when tracing, the dynamic energy over time for the trace's counter track. The chip-wide
// breakdown (leakage and clock included) comes from the chip's statistics at the end
// (sim_report.cpp); docs/SIM.md "Energy".
#pragma once

#include <cstdint>
#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/energy.h"

namespace tilempi::transport::sim {

/// The job's energy: the network's (chip statistics: every component, leakage and clock
/// included), the adapters' (per message end and word) and the cores' (per counted operation;
/// ranks that did not count are charged none).
struct JobEnergy {
  hwmodel::EnergyBreakdown network;
  double adapters = 0, cores = 0;
  int cores_counted = 0;
  double total() const { return network.total() + adapters + cores; }
};

class EnergyAccount {
 public:
  EnergyAccount(const hwmodel::Config& config, const hwmodel::Topology& topo, int nranks, bool keep_samples);

  /// A delivered packet; `tiles` maps ranks to their tiles now (a task migration changes it).
  void delivered(const hwmodel::PacketEvent& e, const std::vector<hwmodel::TileId>& tiles);

  const hwmodel::EnergyCosts& costs() const { return costs_; }
  double network_joules(int r) const { return network_j_[static_cast<std::size_t>(r)]; }
  /// Payload words the rank's adapter moved: those of the packets it sent and received.
  std::uint64_t words(int r) const { return words_[static_cast<std::size_t>(r)]; }
  double dynamic_joules() const { return dynamic_j_; }
  struct Sample {
    std::uint64_t cycle;
    double joules;  ///< dynamic energy of the packets delivered up to and including `cycle`
  };
  const std::vector<Sample>& samples() const { return samples_; }

 private:
  int rank_of(hwmodel::TileId t, const std::vector<hwmodel::TileId>& tiles);

  const hwmodel::Config& config_;
  const hwmodel::Topology& topo_;
  hwmodel::EnergyCosts costs_;
  bool keep_samples_;
  std::vector<double> network_j_;
  std::vector<std::uint64_t> words_;
  std::vector<int> rank_at_;  ///< tile -> rank (-1: none), rebuilt when a migration moved a rank
  std::vector<hwmodel::TileId> mapped_;  ///< the rank -> tile map rank_at_ was built from
  double dynamic_j_ = 0;
  std::vector<Sample> samples_;
};

}  // namespace tilempi::transport::sim
