// The eager ring of one ordered pair of ranks: a single-producer single-consumer ring of cache
// lines in the receiver's block (the ULTRA idea, [Fröning 2007] §3.5). A message is one record:
//
//   line 0: seq (8) | kind + length in lines (4) | payload bytes (4) | envelope (32) | payload...
//   line 1..: the rest of the payload, contiguous
//
// The writer fills header fields and payload, then stores seq = absolute line position + 1 last;
// the reader polls only that word. A record never wraps (a one-line pad record skips to the
// ring's start). Payload lines of one lap are header lines of the next and may hold anything,
// also the very sequence word the next lap expects there, so the reader zeroes the first word of
// every payload line before it releases a record, and never looks at a line it has not released
// yet. The reader may hold several records and consume them in any order; it releases the
// longest consumed prefix by one store of the tail word, which the writer reads only when the
// ring looks full. Releasing (and the scrubbing before it) waits until the owner has nothing
// else to do (flush()), or until an eighth of the ring is consumed while records keep coming (half
// of it while none does): a consumed record's lines are written again only a lap later, so
// neither belongs on the path from one message to the next.
//
// Header-only: these run once per message on both sides and must inline into the transport.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <vector>

#include "host/shm_layout.h"

namespace tilempi::transport::host {

/// Lines a record takes whose body (payload, or an RTS) has `body` bytes.
constexpr std::uint64_t record_lines(std::uint64_t body) {
  return (kSlotPayloadOffset + body + kLine - 1) / kLine;
}

/// Eager payloads of at least this size start on the record's second line, 64-byte aligned,
/// instead of right after the header fields: copying 4-32 KiB from an aligned buffer into the
/// ring at 48 bytes past a line, and out again, measured 7-16 % less bidirectional bandwidth
/// than aligned copies on the development VM (docs/HOST_TRANSPORT.md); smaller copies showed no
/// gain. A power-of-two payload from 64 B on takes the same number of lines either way.
inline constexpr std::uint64_t kAlignedPayloadFrom = 4096;

/// Where an eager record's payload of len bytes starts, from the record's first line.
constexpr std::uint64_t eager_payload_offset(std::uint64_t len) {
  return len >= kAlignedPayloadFrom ? kLine : kSlotPayloadOffset;
}

/// Lines an eager record of len payload bytes takes.
constexpr std::uint64_t eager_record_lines(std::uint64_t len) {
  return (eager_payload_offset(len) + len + kLine - 1) / kLine;
}

/// ring_lines is a power of two (shm_layout.h makes every ring one): a mask, not a division,
/// which the reader pays on every record and on every line it scrubs.
inline SlotHeader* line_at(unsigned char* ring, std::uint64_t ring_lines, std::uint64_t pos) {
  return reinterpret_cast<SlotHeader*>(ring + (pos & (ring_lines - 1)) * kLine);
}

/// The writing end (this rank sends to the ring's owner).
class RingWriter {
 public:
  RingWriter() = default;
  /// ring: ring_lines lines (a power of two); tail: the reader's release word.
  RingWriter(unsigned char* ring, std::uint64_t ring_lines, std::uint64_t* tail)
      : ring_(ring), lines_(ring_lines), tail_(tail) {
    assert(ring_lines != 0 && (ring_lines & (ring_lines - 1)) == 0);
  }

  /// Writes one record of `lines` lines at the head (after a pad record when it would run past
  /// the ring's end). fill(header) writes len, envelope and body; kind and the sequence word are
  /// stored after it, the sequence word last. False, writing nothing, when there is no room.
  template <class Fill>
  bool write(std::uint64_t lines, std::uint32_t kind, Fill&& fill) {
    std::uint64_t pos = head_;
    const std::uint64_t off = pos & (lines_ - 1);
    const std::uint64_t pad = off + lines > lines_ ? lines_ - off : 0;
    const std::uint64_t need = pad + lines;
    if (pos + need - tail_seen_ > lines_) {
      tail_seen_ = shared(*tail_).load(std::memory_order_acquire);
      if (pos + need - tail_seen_ > lines_) return false;
    }
    if (pad) {
      SlotHeader* h = line_at(ring_, lines_, pos);
      h->kind_lines = kSlotPad | static_cast<std::uint32_t>(pad << 8);
      h->len = 0;
      shared(h->seq).store(pos + 1, std::memory_order_release);
      pos += pad;
    }
    SlotHeader* h = line_at(ring_, lines_, pos);
    fill(h);
    h->kind_lines = kind | static_cast<std::uint32_t>(lines << 8);
    // The reader may be about to sleep: the owner of the ring is woken by ring_doorbell()
    // after this store, which orders it before the load of the sleeping flag (waiting.h).
    shared(h->seq).store(pos + 1, std::memory_order_release);
    head_ = pos + lines;
    return true;
  }

  /// (Not forced inline into the transport's send(): that saved 25 instructions per 8-byte send
  /// but cut the message rate of 128-byte messages from 8.7 to 7.0 million/s on separate cores.)
  bool write_eager(const Envelope& env, const void* buf, std::size_t len) {
    return write(eager_record_lines(len), kSlotEager, [&](SlotHeader* h) {
      h->len = static_cast<std::uint32_t>(len);
      h->envelope = env;
      unsigned char* out = reinterpret_cast<unsigned char*>(h) + eager_payload_offset(len);
      const auto* in = static_cast<const unsigned char*>(buf);
      if (len >= 8 && len <= 16) {
        // The commonest small sizes without a call: two 8-byte copies that may overlap.
        std::memcpy(out, in, 8);
        std::memcpy(out + len - 8, in + len - 8, 8);
      } else if (len) {
        std::memcpy(out, in, len);
      }
    });
  }

  /// An eager message of at most kLinePayload bytes: one line, no pad (a one-line record always
  /// fits before the ring's end), the header and payload stores then the sequence word, nothing
  /// else. Inline into the transport's fast send (eight-byte messages: about a third of
  /// write_eager()'s instructions).
  static constexpr std::size_t kLinePayload = kLine - kSlotPayloadOffset;
  [[gnu::always_inline]] bool write_line(const Envelope& env, const void* buf, std::size_t len) {
    const std::uint64_t pos = head_;
    if (pos + 1 - tail_seen_ > lines_) [[unlikely]] {
      tail_seen_ = shared(*tail_).load(std::memory_order_acquire);
      if (pos + 1 - tail_seen_ > lines_) return false;
    }
    SlotHeader* h = line_at(ring_, lines_, pos);
    h->len = static_cast<std::uint32_t>(len);
    h->envelope = env;
    unsigned char* out = reinterpret_cast<unsigned char*>(h) + kSlotPayloadOffset;
    const auto* in = static_cast<const unsigned char*>(buf);
    if (len >= 8) {
      std::memcpy(out, in, 8);
      std::memcpy(out + len - 8, in + len - 8, 8);
    } else if (len) {
      std::memcpy(out, in, len);
    }
    h->kind_lines = kSlotEager | (1u << 8);
    shared(h->seq).store(pos + 1, std::memory_order_release);  // (as write(): the doorbell follows)
    head_ = pos + 1;
    return true;
  }

  bool write_rts(const Envelope& env, const RtsBody& body) {
    return write(record_lines(sizeof(RtsBody)), kSlotRts, [&](SlotHeader* h) {
      h->len = sizeof(RtsBody);
      h->envelope = env;
      std::memcpy(reinterpret_cast<unsigned char*>(h) + kSlotPayloadOffset, &body, sizeof body);
    });
  }

  /// The reader released lines since the writer last looked (a full ring may have room now).
  bool space_released() const { return shared(*tail_).load(std::memory_order_seq_cst) != tail_seen_; }

  std::uint64_t head() const { return head_; }

 private:
  unsigned char* ring_ = nullptr;
  std::uint64_t lines_ = 1;
  std::uint64_t* tail_ = nullptr;
  std::uint64_t head_ = 0;       ///< next line to write (absolute)
  std::uint64_t tail_seen_ = 0;  ///< the reader's tail as last read
};

/// The reading end (the ring lives in this rank's block).
class RingReader {
 public:
  struct Record {
    std::uint64_t pos;        ///< absolute line position: the record's name for consume()
    const SlotHeader* header;
    std::uint32_t kind;       ///< kSlotEager or kSlotRts (pads never come out)
  };

  RingReader() = default;
  /// ring: ring_lines lines (a power of two); tail: the reader's release word.
  RingReader(unsigned char* ring, std::uint64_t ring_lines, std::uint64_t* tail)
      : ring_(ring), lines_(ring_lines), tail_(tail) {
    assert(ring_lines != 0 && (ring_lines & (ring_lines - 1)) == 0);
  }

  /// The next record, if one is complete. It stays in the ring until consume(pos); pads are
  /// consumed here.
  bool next(Record& out) {
    for (;;) {
      // The line still belongs to a record of the previous lap we have not released: the
      // writer cannot have written here yet (and the word may be that record's payload).
      if (read_pos_ >= released_ + lines_) return false;
      const SlotHeader* h = line_at(ring_, lines_, read_pos_);
      if (shared(const_cast<SlotHeader*>(h)->seq).load(std::memory_order_acquire) != read_pos_ + 1) return false;
      const std::uint32_t kind = h->kind_lines & 0xff;
      const std::uint64_t lines = h->kind_lines >> 8;
      const std::uint64_t pos = read_pos_;
      read_pos_ += lines;
      if (kind == kSlotPad) {
        // Lines after a pad's first were not written this lap: they were scrubbed a lap ago.
        done_lines_ += lines;
        continue;
      }
      // The record polled before this one is still unconsumed: it joins the held list.
      if (open_end_ != 0) [[unlikely]]
        held_.push(InFlight{open_start_, open_end_, false});
      open_start_ = pos;
      open_end_ = pos + lines;
      out = Record{pos, h, kind};
      return true;
    }
  }

  /// The header of the next record (a pad too) if it is complete, without taking it.
  const SlotHeader* peek() const {
    if (read_pos_ >= released_ + lines_) return nullptr;
    const SlotHeader* h = line_at(ring_, lines_, read_pos_);
    return shared(const_cast<SlotHeader*>(h)->seq).load(std::memory_order_acquire) == read_pos_ + 1 ? h : nullptr;
  }

  /// Takes the record peek() just returned (complete, not a pad) and is done with it at once:
  /// next() and consume() in one, without looking at the line again.
  void take_peeked(const SlotHeader* h) {
    const std::uint64_t lines = h->kind_lines >> 8;
    if (open_end_ != 0) [[unlikely]] {  // an earlier record is still out: it joins the held list
      held_.push(InFlight{open_start_, open_end_, false});
      open_end_ = 0;
    }
    read_pos_ += lines;
    done_lines_ += lines;
    release_if_due();
  }

  /// A complete record waits (seq_cst: the sleeper's re-check, see RingWriter::write).
  bool ready() const {
    if (read_pos_ >= released_ + lines_) return false;
    return shared(line_at(ring_, lines_, read_pos_)->seq).load(std::memory_order_seq_cst) == read_pos_ + 1;
  }

  /// The body of an RTS record (right after the header fields).
  const unsigned char* body(std::uint64_t pos) const {
    return reinterpret_cast<const unsigned char*>(line_at(ring_, lines_, pos)) + kSlotPayloadOffset;
  }

  /// The payload of an eager record of len bytes.
  const unsigned char* payload(std::uint64_t pos, std::uint64_t len) const {
    return reinterpret_cast<const unsigned char*>(line_at(ring_, lines_, pos)) + eager_payload_offset(len);
  }

  /// Done with the record at pos (in any order). Its lines go back to the writer with the
  /// longest consumed prefix, at flush() or once enough of the ring waits for that.
  void consume(std::uint64_t pos) {
    if (open_end_ != 0 && open_start_ == pos) [[likely]] {
      // The record polled last: the usual case, consumed before the next one is polled.
      done_lines_ += open_end_ - open_start_;
      open_end_ = 0;
    } else {
      consume_held(pos);
    }
    release_if_due();
  }

  /// Consumed lines not yet handed back.
  bool deferred() const { return done_lines_ != 0; }

  /// Hands back every consumed prefix now (the owner is idle, or the writer waits for space).
  void flush() { release(); }

  /// Whether the tail moved since the last call (then a writer waiting for space may need a
  /// wake-up).
  bool take_released() {
    const bool r = released_moved_;
    released_moved_ = false;
    return r;
  }

  std::uint64_t released() const { return released_; }
  /// The next line to look at (absolute): moves with every record polled or taken.
  std::uint64_t position() const { return read_pos_; }
  /// Records polled and not yet released (consumed or not).
  std::size_t held() const { return held_.size() + (open_end_ != 0 ? 1 : 0); }

 private:
  struct InFlight {
    std::uint64_t start;
    std::uint64_t end;
    bool consumed;
  };

  // While records keep coming (the next one is already there), hand lines back every eighth
  // of the ring; when the writer waits for an answer, the owner will be idle soon and flush()
  // then, so up to half the ring may wait, and the scrub stays off the reply's path. (ready()
  // reads the line the writer fills next: only when its answer matters.)
  void release_if_due() {
    if (done_lines_ >= lines_ / 8 && (done_lines_ >= lines_ / 2 || ready())) [[unlikely]]
      release();
  }

  // A record polled before the last one, consumed out of order: marked in the held list.
  void consume_held(std::uint64_t pos) {
    // Newest first: up to an eighth of the ring of consumed records may wait before it.
    for (std::size_t i = held_.size(); i-- > 0;) {
      InFlight& f = held_[i];
      if (f.start == pos) {
        if (!f.consumed) {
          f.consumed = true;
          done_lines_ += f.end - f.start;
        }
        return;
      }
      if (f.start < pos) return;
    }
  }

  // A payload line may hold anything, also what looks like a valid sequence word for a later
  // lap: zero the first word of each payload line before releasing. Header lines keep their old
  // sequence numbers, which never match again. (The reader does this, not the writer, to keep an
  // extra cache miss off the writer's critical path.) The records' headers are still intact
  // (the writer gets no line back before the tail store), so they tell where each record
  // starts; a pad's further lines were scrubbed a lap ago.
  void scrub(std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t pos = from; pos < to;) {
      const SlotHeader* h = line_at(ring_, lines_, pos);
      const std::uint64_t lines = h->kind_lines >> 8;
      if ((h->kind_lines & 0xff) != kSlotPad)
        for (std::uint64_t l = pos + 1; l < pos + lines; ++l)
          shared(line_at(ring_, lines_, l)->seq).store(0, std::memory_order_relaxed);
      pos += lines;
    }
  }

  // Hands back every line up to the first record polled and not consumed: every line before it
  // is a consumed record or a pad. (Out of line: once per eighth of the ring at most.)
  [[gnu::noinline]] void release() {
    while (!held_.empty() && held_.front().consumed) held_.pop_front();
    const std::uint64_t upto = !held_.empty() ? held_.front().start : open_end_ != 0 ? open_start_ : read_pos_;
    if (upto == released_) return;
    scrub(released_, upto);
    done_lines_ -= upto - released_;
    released_ = upto;
    shared(*tail_).store(upto, std::memory_order_release);
    released_moved_ = true;
  }

  unsigned char* ring_ = nullptr;
  std::uint64_t lines_ = 1;
  std::uint64_t* tail_ = nullptr;
  std::uint64_t read_pos_ = 0;  ///< next line to look at (absolute)
  std::uint64_t released_ = 0;  ///< lines handed back to the writer
  bool released_moved_ = false;
  std::uint64_t done_lines_ = 0;  ///< lines of consumed records and pads not yet released
  // The record polled last, while it is not consumed (open_end_ 0: none). The layer above
  // usually consumes each record before it polls the next, which then never touches the list.
  std::uint64_t open_start_ = 0;
  std::uint64_t open_end_ = 0;
  // Records polled before the last one and not yet released, oldest first: a growable
  // power-of-two ring (a deque costs several times more per record).
  class Held {
   public:
    bool empty() const { return head_ == tail_; }
    std::size_t size() const { return tail_ - head_; }
    InFlight& front() { return v_[head_ & mask_]; }
    InFlight& operator[](std::size_t i) { return v_[(head_ + i) & mask_]; }
    void pop_front() { ++head_; }
    void push(const InFlight& f) {
      if (tail_ - head_ == capacity_) [[unlikely]]
        grow();
      v_[tail_++ & mask_] = f;
    }

   private:
    void grow() {
      std::vector<InFlight> bigger(v_.empty() ? 64 : v_.size() * 2);
      for (std::size_t i = 0; i < size(); ++i) bigger[i] = (*this)[i];
      tail_ = size();
      head_ = 0;
      v_ = std::move(bigger);
      mask_ = v_.size() - 1;
      capacity_ = v_.size();
    }
    std::vector<InFlight> v_;
    std::size_t mask_ = 0;
    std::size_t capacity_ = 0;  // v_.size(), kept: the vector's size is a division by 24
    std::size_t head_ = 0, tail_ = 0;  // absolute counts
  };
  Held held_;
};

}  // namespace tilempi::transport::host
