// The lengths of the rank's point-to-point queues (p2p.h: queue_lengths), read by the tool
// information interface's performance variables. Reading them changes nothing, so a tool may ask
// at any time, before MPI_Init and after MPI_Finalize too (then they are empty).
#include "p2p_state.h"

namespace tilempi::mpi {

QueueLengths queue_lengths() {
  pt2pt::ProgressEngine& e = pt2pt::engine();
  QueueLengths q;
  q.posted = e.posted.size() + (e.direct && !e.direct->matched ? 1 : 0);
  q.unexpected = e.unexpected.size();
  q.in_flight = e.in_flight.size();
  return q;
}

}  // namespace tilempi::mpi
