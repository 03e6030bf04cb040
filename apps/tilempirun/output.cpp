#include "output.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tilempirun {

namespace {
// Fds whose reader has gone; at most the launcher's stdout and stderr.
bool sink_broken_flag[3] = {false, false, false};
// A line longer than this is written in pieces rather than held without bound.
constexpr std::size_t kMaxHeld = 64 * 1024;
}  // namespace

bool sink_broken(int fd) { return fd >= 0 && fd < 3 && sink_broken_flag[fd]; }

bool write_all(int fd, const char* buf, std::size_t len) {
  if (fd >= 0 && fd < 3 && sink_broken_flag[fd]) return false;
  while (len > 0) {
    ssize_t n = ::write(fd, buf, len);
    if (n > 0) {
      buf += n;
      len -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, 100);
      continue;
    }
    if (fd >= 0 && fd < 3) sink_broken_flag[fd] = true;
    return false;
  }
  return true;
}

void LineForwarder::emit(const char* data, std::size_t len) {
  if (prefix_.empty()) {
    write_all(sink_, data, len);
    at_line_start_ = len > 0 ? data[len - 1] == '\n' : at_line_start_;
    return;
  }
  scratch_.clear();
  const char* end = data + len;
  while (data < end) {
    if (at_line_start_) scratch_ += prefix_;
    const void* nl = std::memchr(data, '\n', static_cast<std::size_t>(end - data));
    const char* stop = nl ? static_cast<const char*>(nl) + 1 : end;
    scratch_.append(data, stop);
    at_line_start_ = nl != nullptr;
    data = stop;
  }
  write_all(sink_, scratch_.data(), scratch_.size());
}

void LineForwarder::feed(const char* data, std::size_t len) {
  if (len == 0) return;
  // Everything up to the last newline goes out now, in one write.
  const char* last_nl = nullptr;
  for (const char* p = data + len; p > data; --p) {
    if (p[-1] == '\n') {
      last_nl = p - 1;
      break;
    }
  }
  if (!last_nl) {
    if (partial_.empty()) held_since_ = Clock::now();
    partial_.append(data, len);
    if (partial_.size() >= kMaxHeld) flush_partial(false);
    return;
  }
  std::size_t complete = static_cast<std::size_t>(last_nl - data) + 1;
  if (!partial_.empty()) {
    partial_.append(data, complete);
    emit(partial_.data(), partial_.size());
    partial_.clear();
  } else {
    emit(data, complete);
  }
  if (complete < len) {
    held_since_ = Clock::now();
    partial_.assign(data + complete, len - complete);
  }
}

void LineForwarder::flush_partial(bool at_eof) {
  if (partial_.empty()) return;
  if (at_eof && !prefix_.empty()) partial_ += '\n';
  emit(partial_.data(), partial_.size());
  partial_.clear();
}

}  // namespace tilempirun
