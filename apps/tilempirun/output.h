// Forwarding of the ranks' stdout and stderr: whole lines at a time, so that lines from
// different ranks never interleave mid-line, optionally prefixed with the rank.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace tilempirun {

/// Writes all of buf to fd, retrying on EINTR and waiting on EAGAIN. Returns false once the
/// reader has gone (EPIPE); later writes to that fd are then dropped.
bool write_all(int fd, const char* buf, std::size_t len);
/// Whether the reader of the launcher's stdout (1) or stderr (2) has gone.
bool sink_broken(int fd);

class LineForwarder {
 public:
  using Clock = std::chrono::steady_clock;

  LineForwarder(int sink_fd, std::string prefix) : sink_(sink_fd), prefix_(std::move(prefix)) {}

  /// Bytes read from the rank: every complete line is written now, a trailing partial line is
  /// held until its newline arrives (or flush_partial()).
  void feed(const char* data, std::size_t len);
  /// Write a held partial line: at the rank's EOF, or when it has waited long enough (a prompt).
  /// With a prefix, the line is ended so the next rank's line starts on a fresh one.
  void flush_partial(bool at_eof);
  bool holding() const { return !partial_.empty(); }
  Clock::time_point holding_since() const { return held_since_; }

 private:
  void emit(const char* data, std::size_t len);

  int sink_;
  std::string prefix_;
  std::string partial_;
  std::string scratch_;
  bool at_line_start_ = true;
  Clock::time_point held_since_{};
};

}  // namespace tilempirun
