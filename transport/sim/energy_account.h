// The run's energy as the engine sees it packet by packet: each delivered packet's dynamic energy
// (hwmodel packet_energy) charged to the rank that sent it and to the MPI call its message belongs
// to, the words each rank's adapter moved, and, when tracing, the dynamic energy over time for the
// trace's counter track. The chip-wide breakdown (leakage and clock included) comes from the
// chip's statistics at the end (sim_report.cpp); docs/SIM.md "Run report", `energy`.
//
// Attribution to MPI calls: a rank names, with each request that starts network traffic (a send,
// a one-sided operation, a collective offload, a static broadcast), the kind of call it is in
// (its own number for a name such as "MPI_Send" or "alltoall/mesh_rounds"; 0: none). The engine
// records the owner (rank, kind) of the ids the request starts, and each delivered packet is
// charged to the owner of the id it works for (the adapter says which: Adapter::packet_owner),
// whatever the packet is (payload, rendezvous handshake, acknowledgement, retry): a message's
// whole protocol is charged to the call that sent it. What has no owner (a task migration's own
// packets, flow control that serves no one message, a packet whose message's record was reused
// before it arrived) stays unattributed.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/sim_ids.h"
#include "tilempi/hwmodel/adapter.h"
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

/// What one kind of MPI call of one rank caused.
struct KindEnergy {
  double network_joules = 0;       ///< its packets' dynamic energy, and its static-network words'
  std::uint64_t message_ends = 0;  ///< its messages' sends and receives (the adapters' per-message energy)
  std::uint64_t words = 0;         ///< payload words its packets moved, at each end (as EnergyAccount::words)
  std::uint64_t packets = 0;       ///< its delivered packets
};

class EnergyAccount {
 public:
  using TagFamily = hwmodel::adapter::Adapter::TagFamily;
  using PacketOwner = hwmodel::adapter::Adapter::PacketOwner;

  EnergyAccount(const hwmodel::Config& config, const hwmodel::Topology& topo, int nranks, bool keep_samples);

  /// A delivered packet, working for `owner` (the adapter's Adapter::packet_owner); `tiles` maps
  /// ranks to their tiles now (a task migration changes it).
  void delivered(const hwmodel::PacketEvent& e, const std::vector<hwmodel::TileId>& tiles, const PacketOwner& owner);

  // The owners of ids, as requests start them (kind: the rank's number of its call's kind).
  void own_message(MsgId handle, int rank, std::uint32_t kind);
  /// The receiver took message `handle`: its end of the message.
  void fetched(MsgId handle);
  void own_remote(MsgId id, int rank, std::uint32_t kind);
  void remote_over(MsgId id);
  /// Offloaded transfers' ids first .. end - 1 (Offloads' ids grow one by one).
  void own_offloads(MsgId first, MsgId end, int rank, std::uint32_t kind);
  /// A static broadcast moved `link_words` words over links (words times links).
  void static_words(int rank, std::uint32_t kind, std::uint64_t link_words);

  const hwmodel::EnergyCosts& costs() const { return costs_; }
  double network_joules(int r) const { return network_j_[static_cast<std::size_t>(r)]; }
  /// Payload words the rank's adapter moved: those of the packets it sent and received.
  std::uint64_t words(int r) const { return words_[static_cast<std::size_t>(r)]; }
  /// Rank r's energy per kind of call, by its number (index 0: none named).
  const std::vector<KindEnergy>& by_kind(int r) const { return by_kind_[static_cast<std::size_t>(r)]; }
  double dynamic_joules() const { return dynamic_j_; }
  struct Sample {
    std::uint64_t cycle;
    double joules;  ///< dynamic energy of the packets delivered up to and including `cycle`
  };
  const std::vector<Sample>& samples() const { return samples_; }

 private:
  struct Owner {
    int rank = -1;
    std::uint32_t kind = 0;
  };
  int rank_of(hwmodel::TileId t, const std::vector<hwmodel::TileId>& tiles);
  KindEnergy& kind_of(const Owner& o);
  Owner owner_of(const PacketOwner& p) const;

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
  std::vector<std::vector<KindEnergy>> by_kind_;
  /// Messages by their handle's slot (MessageHandle): a slot's later message replaces the earlier.
  struct MessageOwner {
    MsgId handle = 0;
    Owner owner;
  };
  std::vector<MessageOwner> messages_;
  std::unordered_map<MsgId, Owner> remotes_;
  struct OffloadRange {
    MsgId first, end;
    Owner owner;
  };
  std::vector<OffloadRange> offloads_;  ///< in order of their ids
};

}  // namespace tilempi::transport::sim
