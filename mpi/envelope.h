// The envelope of a message between ranks, the one place that encodes it, decodes it and says
// which envelopes a receive accepts: every send and receive path of the progress engine (p2p.cpp
// and the shortcuts of p2p_shortcuts.cpp and p2p_fast.h) goes through here.
//
//   word[0]: the context (the communicator's, + 1 on its collective lane); 0 for the library's own
//            control messages between ranks (p2p_cancel.cpp), which no communicator uses
//   word[1]: the sender's rank in the communicator (low half), the tag (high half)
//   word[2]: the message's number at its sender, which MPI_Cancel of the send names to the
//            receiver (p2p_cancel.cpp)
#pragma once

#include <cstdint>

#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi::envelope {

/// The number of the last message sent (word[2]). One counter per process, not per rank: with
/// ranks as contexts of one process (one thread), the numbers stay unique per sender all the same.
inline std::uint64_t g_last_send_number = 0;

inline transport::Envelope encode(std::uint64_t context, int rank, int tag) {
  transport::Envelope env{};
  env.word[0] = context;
  env.word[1] = static_cast<std::uint32_t>(rank) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  env.word[2] = ++g_last_send_number;
  return env;
}

/// The context of the library's control messages (p2p_cancel.cpp): communicators' contexts are
/// above MPI_COMM_SELF's (comm.cpp).
constexpr std::uint64_t kControlContext = 0;

struct Fields {
  std::uint64_t context;
  int source;
  int tag;
};

inline Fields decode(const transport::Envelope& env) {
  return Fields{env.word[0], static_cast<int>(static_cast<std::uint32_t>(env.word[1])),
                static_cast<int>(static_cast<std::uint32_t>(env.word[1] >> 32))};
}
inline int tag_of(const transport::Envelope& env) { return static_cast<int>(static_cast<std::uint32_t>(env.word[1] >> 32)); }

/// Whether a receive for (want_source, want_tag) takes a message from source with tag: MPI's
/// rule, MPI_ANY_SOURCE and MPI_ANY_TAG included (MPI_ANY_TAG takes tags >= 0 only: the library's
/// own negative tags never match it).
inline bool accepts(int want_source, int want_tag, int source, int tag) {
  return (want_source == MPI_ANY_SOURCE || want_source == source) && (want_tag == MPI_ANY_TAG ? tag >= 0 : want_tag == tag);
}

/// The same rule over the envelope's words, for a transport that matches the next record itself
/// (Transport::take_next): a receive from one source (not MPI_ANY_SOURCE).
inline transport::EnvelopeMatch rule(std::uint64_t context, int source, int tag) {
  transport::EnvelopeMatch m;
  m.want[0] = context;
  m.mask[0] = ~std::uint64_t{0};
  m.want[1] = static_cast<std::uint32_t>(source) |
              (tag == MPI_ANY_TAG ? 0 : static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32);
  // MPI_ANY_TAG: the tag's sign bit must be clear.
  m.mask[1] = 0xffffffffull | (tag == MPI_ANY_TAG ? 1ull << 63 : 0xffffffffull << 32);
  return m;
}

}  // namespace tilempi::mpi::envelope
