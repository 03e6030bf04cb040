// Futex sleep and wake on words of a segment shared between processes (both transports wait
// this way: the host transport's doorbells, the sim engine's and its ranks' bells).
#pragma once

#include <cstdint>

namespace tilempi::transport::shm {

/// Sleeps while *word == expected, at most timeout_ns (0: returns at once). A shared (not
/// process-private) futex: the word may be mapped at different addresses in other processes.
void futex_wait(std::uint32_t* word, std::uint32_t expected, std::uint64_t timeout_ns);

/// Wakes every sleeper on word.
void futex_wake_all(std::uint32_t* word);

}  // namespace tilempi::transport::shm
