#include "shm/segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

namespace tilempi::transport::shm {

std::string unique_name(const char* prefix) {
  std::random_device rd;
  char name[128];
  std::snprintf(name, sizeof name, "/%s-%d-%08x%08x", prefix, static_cast<int>(::getpid()), rd(), rd());
  return name;
}

void* create_segment(const std::string& name, std::uint64_t bytes, std::uint64_t map_bytes) {
  int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) throw std::runtime_error("cannot create shared memory " + name + ": " + std::strerror(errno));
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int e = errno;
    ::close(fd);
    ::shm_unlink(name.c_str());
    throw std::runtime_error("cannot size shared memory " + name + ": " + std::strerror(e));
  }
  void* p = ::mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);
  if (p == MAP_FAILED) {
    ::shm_unlink(name.c_str());
    throw std::runtime_error("cannot map shared memory " + name + ": " + std::strerror(e));
  }
  return p;
}

void* open_segment(const char* name, std::uint64_t bytes) {
  int fd = ::shm_open(name, O_RDWR, 0);
  if (fd < 0)
    throw std::runtime_error(std::string("cannot open the job's shared memory ") + name + ": " +
                             std::strerror(errno) + " (was this rank started by tilempirun?)");
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);
  if (p == MAP_FAILED)
    throw std::runtime_error(std::string("cannot map the job's shared memory: ") + std::strerror(e));
  return p;
}

void unlink_once(std::uint32_t& unlinked, const char* name) {
  if (std::atomic_ref<std::uint32_t>(unlinked).exchange(1) == 0) ::shm_unlink(name);
}

void count_attach(std::uint32_t& attached, std::uint32_t& unlinked, int nranks, const char* name) {
  if (std::atomic_ref<std::uint32_t>(attached).fetch_add(1, std::memory_order_acq_rel) + 1 ==
      static_cast<std::uint32_t>(nranks))
    unlink_once(unlinked, name);
}

}  // namespace tilempi::transport::shm
