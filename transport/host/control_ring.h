// The control ring of one ordered pair: the receiver of rendezvous messages answers the sender
// (FIN: done; CTS: stream through the arena; HELP: claim pieces of a shared copy). One line
// per entry, sequence word (position + 1) written last, a release store of the tail after a
// batch. The same single-producer single-consumer scheme as the eager ring, without payload.
#pragma once

#include <cstdint>

#include "host/shm_layout.h"

namespace tilempi::transport::host {

struct CtrlMsg {
  std::uint32_t kind;  ///< CtrlKind
  std::uint64_t send_id;
  std::uint64_t bytes;
};

class CtrlWriter {
 public:
  CtrlWriter() = default;
  CtrlWriter(CtrlSlot* slots, std::uint64_t nslots, std::uint64_t* tail) : slots_(slots), n_(nslots), tail_(tail) {}

  /// False, writing nothing, when every entry is still unread.
  bool write(const CtrlMsg& m) {
    if (head_ - tail_seen_ >= n_) {
      tail_seen_ = shared(*tail_).load(std::memory_order_acquire);
      if (head_ - tail_seen_ >= n_) return false;
    }
    CtrlSlot* c = slots_ + (head_ % n_);
    c->kind = m.kind;
    c->send_id = m.send_id;
    c->bytes = m.bytes;
    shared(c->seq).store(head_ + 1, std::memory_order_seq_cst);  // against the sleeper's flag
    ++head_;
    return true;
  }

  bool space_released() const { return shared(*tail_).load(std::memory_order_seq_cst) != tail_seen_; }
  /// Entries written so far.
  std::uint64_t written() const { return head_; }

 private:
  CtrlSlot* slots_ = nullptr;
  std::uint64_t n_ = 1;
  std::uint64_t* tail_ = nullptr;
  std::uint64_t head_ = 0;
  std::uint64_t tail_seen_ = 0;
};

class CtrlReader {
 public:
  CtrlReader() = default;
  CtrlReader(CtrlSlot* slots, std::uint64_t nslots, std::uint64_t* tail) : slots_(slots), n_(nslots), tail_(tail) {}

  /// The next entry, if written. Its slot is handed back by release().
  bool next(CtrlMsg& out) {
    CtrlSlot* c = slots_ + (read_ % n_);
    if (shared(c->seq).load(std::memory_order_acquire) != read_ + 1) return false;
    out = CtrlMsg{c->kind, c->send_id, c->bytes};
    ++read_;
    return true;
  }

  bool ready() const {
    return shared(slots_[read_ % n_].seq).load(std::memory_order_seq_cst) == read_ + 1;
  }

  /// Entries read so far.
  std::uint64_t read_count() const { return read_; }

  /// Hands every entry read so far back to the writer.
  void release() { shared(*tail_).store(read_, std::memory_order_release); }

 private:
  CtrlSlot* slots_ = nullptr;
  std::uint64_t n_ = 1;
  std::uint64_t* tail_ = nullptr;
  std::uint64_t read_ = 0;
};

}  // namespace tilempi::transport::host
