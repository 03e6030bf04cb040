#include "watchdog.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace tilempirun {

bool start_segment_watchdog(const std::string& name) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return false;
  // Everything the child needs, made before fork (async-signal-safe calls only after it).
  const std::string fd_text = "3";
  const char* argv[] = {"tilempirun", kWatchdogArgument, fd_text.c_str(), name.c_str(), nullptr};
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(p[0]);
    ::close(p[1]);
    errno = e;
    return false;
  }
  if (pid == 0) {
    ::setsid();
    ::dup2(p[0], 3);  // (dup2 clears close-on-exec on the copy; p[1] closes at exec)
    const int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      // It must not hold the launcher's output open after the launcher ends.
      for (int fd = 0; fd < 3; ++fd) ::dup2(devnull, fd);
    }
    ::execv("/proc/self/exe", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(p[0]);
  // p[1] stays open, close-on-exec, for the launcher's whole life: its only writer.
  return true;
}

int run_segment_watchdog(int fd, const char* name) {
  // (The launcher's blocked signals are inherited: SIGINT, SIGTERM, SIGHUP do not end us.)
  char byte;
  for (;;) {
    const ssize_t n = ::read(fd, &byte, 1);
    if (n == 0) break;
    if (n < 0 && errno != EINTR) break;
  }
  ::shm_unlink(name);  // (already gone when the job ended normally: nothing to do)
  return 0;
}

}  // namespace tilempirun
