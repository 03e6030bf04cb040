// Sleeping in virtual time: a sim rank that calls sleep, usleep, nanosleep or clock_nanosleep
// between MPI calls advances its clock by the slept time instead of stopping (docs/SIM.md
// "Sleeping"). With ranks as contexts a real sleep would stop every rank of the one simulator
// thread (19 ranks sleeping 10 s each took 190 s); with ranks as processes it would only waste
// wall time, since the rank's virtual clock does not see it.
//
// The four C library functions are defined in libtilempi (virtual_sleep.cpp), which a program
// and the simulator link before libc: each asks the running rank's sim transport, registered
// here, and otherwise sleeps for real (the host transport, the launcher, the library's own waits
// inside MPI calls, threads other than the rank's).
#pragma once

#include <cstdint>

namespace tilempi::transport::sim {

class VirtualSleeper {
 public:
  /// The application sleeps ns nanoseconds: advances the rank's clock by that time at the chip's
  /// clock rate and returns true, or returns false when the caller must sleep for real (the MPI
  /// library itself, inside a call).
  virtual bool sleep_virtual(std::uint64_t ns) = 0;

 protected:
  ~VirtualSleeper() = default;
};

/// The running rank's sleeper from now on (its sim transport, from its creation to MPI_Finalize),
/// for the calling thread; nullptr: none.
void set_virtual_sleeper(VirtualSleeper* sleeper);
/// Clears the running rank's sleeper if it is this one.
void forget_virtual_sleeper(VirtualSleeper* sleeper);

}  // namespace tilempi::transport::sim
