// Creating, attaching to and removing a job's POSIX shared-memory segment, the same way for
// both transports: the launcher creates `/tilempi-...-<pid>-<random>`, every rank maps it and
// counts itself in, and the last rank to attach removes the name, so that from then on the
// memory lives only as long as some process maps it (a crash leaves nothing in /dev/shm).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tilempi::transport::shm {

/// A fresh name: "/<prefix>-<pid>-<64 random bits in hex>".
std::string unique_name(const char* prefix);

/// Creates `name` (exclusively) with `bytes` bytes and maps its first `map_bytes` shared,
/// read-write. Throws std::runtime_error naming the object and the reason; on failure nothing
/// is left behind.
void* create_segment(const std::string& name, std::uint64_t bytes, std::uint64_t map_bytes);

/// Maps the first `bytes` of an existing `name` shared, read-write. Throws std::runtime_error
/// (an unknown name says the rank was probably not started by tilempirun).
void* open_segment(const char* name, std::uint64_t bytes);

/// Removes `name` unless someone already did: `unlinked` is a word of the segment itself,
/// exchanged to 1 first, so that exactly one process unlinks.
void unlink_once(std::uint32_t& unlinked, const char* name);

/// A rank has mapped the segment: count it in `attached`; the last of `nranks` removes the name.
void count_attach(std::uint32_t& attached, std::uint32_t& unlinked, int nranks, const char* name);

}  // namespace tilempi::transport::shm
