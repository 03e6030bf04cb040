// Every id the sim transport makes up, and how its bits are laid out. The ids that reach the
// adapter (hwmodel::adapter::MsgId) stay below kMsgIdLimit: the bits above belong to the adapter
// (adapter.h's tag layout). Each family is told apart from the others by the listener callback
// it comes back through, except messages and offloaded transfers, which share arrived() and
// send_done() and are told apart by kOffloadBit.
//
//   message handle (engine):     [0][count: 31 bits][slot: 24 bits]    < 2^55
//   offloaded transfer (engine): [1][sequence: 55 bits]                 bit 55 set
//   one-sided operation (rank):  [rank: 16 bits][sequence: 40 bits]    any rank below 2^16
//   task migration (engine):     sequence from 1                       (its own callbacks)
#pragma once

#include <cstdint>

#include "tilempi/hwmodel/adapter.h"

namespace tilempi::transport::sim {

using hwmodel::adapter::kMsgIdBits;
using hwmodel::adapter::kMsgIdLimit;
using hwmodel::adapter::MsgId;

/// An offloaded collective transfer's id (the group's or a part's), never a message's handle.
inline constexpr MsgId kOffloadBit = MsgId{1} << (kMsgIdBits - 1);
inline bool is_offload(MsgId id) { return (id & kOffloadBit) != 0; }

/// The engine's handle of a message in flight: it names the message to the adapter and to the
/// receiver (ArrivalEvent::msg), so that their calls find it without a look-up: the slot says
/// where it is, the count makes a handle whose slot was freed (or reused) find nothing.
struct MessageHandle {
  static constexpr unsigned kSlotBits = 24;
  static constexpr unsigned kCountBits = kMsgIdBits - 1 - kSlotBits;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::uint64_t kMaxSlots = kSlotMask + 1;

  /// count: messages so far, from 1. It wraps after 2^31 (a stale handle would then need a
  /// message in the same slot exactly 2^31 messages later to be taken for it); never 0, so that
  /// no handle is 0 (a free slot's).
  static MsgId make(std::uint64_t count, std::uint32_t slot) {
    count &= (std::uint64_t{1} << kCountBits) - 1;
    return ((count ? count : 1) << kSlotBits) | slot;
  }
  static std::uint32_t slot(MsgId handle) { return static_cast<std::uint32_t>(handle & kSlotMask); }
};
static_assert(MessageHandle::kCountBits + MessageHandle::kSlotBits + 1 == kMsgIdBits, "handles fill the id below kOffloadBit");

/// A rank's ids of its one-sided operations: unique in the job without asking the engine.
struct RankOperationIds {
  static constexpr unsigned kSequenceBits = 40;
  static constexpr unsigned kRankBits = kMsgIdBits - kSequenceBits;
  static MsgId make(int rank, std::uint64_t seq) { return (static_cast<MsgId>(rank) << kSequenceBits) | seq; }
};
static_assert(RankOperationIds::kRankBits == 16, "one-sided operation ids hold any rank below 65536");

}  // namespace tilempi::transport::sim
