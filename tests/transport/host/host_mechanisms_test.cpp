// The host transport's mechanisms one at a time, inside one process (no job, no forked ranks):
// the eager ring's invariants, the control ring, the two-core copy's claim protocol, arena
// streaming, and the doorbell. Two threads stand in for two ranks where it takes two sides.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "host/arena_stream.h"
#include "host/control_ring.h"
#include "host/eager_ring.h"
#include "host/shared_copy.h"
#include "host/waiting.h"

namespace tilempi::transport::host {
namespace {

// Zeroed, line-aligned memory, as a fresh tmpfs segment is.
struct Lines {
  // aligned_alloc wants a multiple of the alignment.
  explicit Lines(std::size_t bytes)
      : p(static_cast<unsigned char*>(std::aligned_alloc(kPage, round_up(bytes, kPage)))), n(bytes) {
    std::memset(p, 0, bytes);
  }
  ~Lines() { std::free(p); }
  unsigned char* p;
  std::size_t n;
};

struct Ring {
  explicit Ring(std::uint64_t lines) : lines(lines), mem(kChannelCtlBytes + lines * kLine) {}
  ChannelCtl* ctl() { return reinterpret_cast<ChannelCtl*>(mem.p); }
  unsigned char* ring() { return mem.p + kChannelCtlBytes; }
  RingWriter writer() { return RingWriter(ring(), lines, &ctl()->tail); }
  RingReader reader() { return RingReader(ring(), lines, &ctl()->tail); }
  std::uint64_t lines;
  Lines mem;
};

Envelope env_of(std::uint64_t v) { return Envelope{{v, ~v, v * 3, 7}}; }

std::vector<unsigned char> payload(std::size_t len, std::uint64_t seed) {
  std::vector<unsigned char> v(len);
  for (std::size_t i = 0; i < len; ++i) v[i] = static_cast<unsigned char>(seed * 31 + i * 7);
  return v;
}

TEST(EagerRing, RecordLinesCountTheHeaderLine) {
  EXPECT_EQ(record_lines(0), 1u);
  EXPECT_EQ(record_lines(16), 1u);  // 48 header bytes + 16: one line
  EXPECT_EQ(record_lines(17), 2u);
  EXPECT_EQ(record_lines(64 + 16), 2u);
  EXPECT_EQ(record_lines(sizeof(RtsBody)), 2u);
}

TEST(EagerRing, RecordsComeOutInOrderWithEnvelopeAndPayload) {
  Ring r(64);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  const std::size_t sizes[] = {0, 1, 8, 16, 17, 100, 500};
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    auto data = payload(sizes[i], i);
    ASSERT_TRUE(w.write_eager(env_of(i), data.data(), data.size()));
  }
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    EXPECT_EQ(rec.kind, kSlotEager);
    EXPECT_EQ(rec.header->envelope.word[0], i);
    EXPECT_EQ(rec.header->envelope.word[1], ~static_cast<std::uint64_t>(i));
    ASSERT_EQ(rec.header->len, sizes[i]);
    auto want = payload(sizes[i], i);
    if (!want.empty()) {
      EXPECT_EQ(std::memcmp(rd.payload(rec.pos, want.size()), want.data(), want.size()), 0);
    }
    rd.consume(rec.pos);
  }
  RingReader::Record rec;
  EXPECT_FALSE(rd.next(rec));
  EXPECT_FALSE(rd.ready());
}

// From kAlignedPayloadFrom on, the payload starts on the record's second line (aligned copies
// in and out); below it, right after the header fields. Sizes on both sides of the limit.
TEST(EagerRing, LargePayloadsStartOnTheSecondLine) {
  EXPECT_EQ(eager_record_lines(16), 1u);
  EXPECT_EQ(eager_record_lines(kAlignedPayloadFrom - 1), record_lines(kAlignedPayloadFrom - 1));
  EXPECT_EQ(eager_record_lines(kAlignedPayloadFrom), 1 + kAlignedPayloadFrom / kLine);
  EXPECT_EQ(eager_record_lines(8192), record_lines(8192));  // a power of two: no extra line
  EXPECT_EQ(eager_record_lines(8192 + 1), 1 + 8192 / kLine + 1);
  Ring r(1024);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  const std::size_t sizes[] = {kAlignedPayloadFrom - 1, kAlignedPayloadFrom, 5000, 16, 8192, 100};
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    auto data = payload(sizes[i], i + 7);
    ASSERT_TRUE(w.write_eager(env_of(i), data.data(), data.size()));
  }
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    ASSERT_EQ(rec.header->len, sizes[i]);
    EXPECT_EQ(rec.header->kind_lines >> 8, eager_record_lines(sizes[i]));
    const unsigned char* p = rd.payload(rec.pos, sizes[i]);
    const auto* line0 = reinterpret_cast<const unsigned char*>(rec.header);
    EXPECT_EQ(p - line0, sizes[i] >= kAlignedPayloadFrom ? 64 : 48) << sizes[i];
    auto want = payload(sizes[i], i + 7);
    EXPECT_EQ(std::memcmp(p, want.data(), want.size()), 0) << sizes[i];
    rd.consume(rec.pos);
  }
}

TEST(EagerRing, OnlyTheSequenceWordPublishesARecord) {
  Ring r(16);
  RingReader rd = r.reader();
  // Fields of a record without its sequence word: nothing to see.
  auto* h = reinterpret_cast<SlotHeader*>(r.ring());
  h->kind_lines = kSlotEager | (1u << 8);
  h->len = 4;
  EXPECT_FALSE(rd.ready());
  RingReader::Record rec;
  EXPECT_FALSE(rd.next(rec));
  h->seq = 1;
  EXPECT_TRUE(rd.ready());
  EXPECT_TRUE(rd.next(rec));
}

TEST(EagerRing, AFullRingRefusesUntilTheReaderReleases) {
  Ring r(64);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  const auto data = payload(64 + 16, 1);  // two lines a record: 32 fit
  int written = 0;
  while (w.write_eager(env_of(written), data.data(), data.size())) ++written;
  EXPECT_EQ(written, 32);
  EXPECT_FALSE(w.space_released());
  RingReader::Record first;
  ASSERT_TRUE(rd.next(first));
  EXPECT_FALSE(w.write_eager(env_of(99), data.data(), data.size()));  // held, not released
  rd.consume(first.pos);
  EXPECT_FALSE(w.space_released());  // consumed, released lazily
  rd.flush();
  EXPECT_TRUE(rd.take_released());
  EXPECT_TRUE(w.space_released());
  EXPECT_TRUE(w.write_eager(env_of(32), data.data(), data.size()));
  EXPECT_FALSE(w.write_eager(env_of(33), data.data(), data.size()));
}

TEST(EagerRing, OutOfOrderConsumptionReleasesOnlyTheConsumedPrefix) {
  Ring r(64);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(w.write_eager(env_of(i), nullptr, 0));
  RingReader::Record a, b, c;
  ASSERT_TRUE(rd.next(a) && rd.next(b) && rd.next(c));
  rd.consume(b.pos);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 0u);
  EXPECT_FALSE(rd.take_released());
  rd.consume(c.pos);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 0u);
  rd.consume(a.pos);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 3u);
  EXPECT_TRUE(rd.take_released());
  EXPECT_EQ(rd.held(), 0u);
}

// Consumed lines go back to the writer once an eighth of the ring waits while records keep
// coming, or half of it when none does, or at a flush: not one record at a time (the scrub and
// the tail store stay off the path between messages).
TEST(EagerRing, ReleaseWaitsForAnEighthOfTheRingOrAFlush) {
  Ring r(64);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  // One record at a time, none waiting behind it: half the ring (32 lines).
  for (int i = 0; i < 32; ++i) {
    ASSERT_TRUE(w.write_eager(env_of(i), nullptr, 0));
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    rd.consume(rec.pos);
    EXPECT_EQ(r.ctl()->tail, i < 31 ? 0u : 32u) << "after record " << i;
  }
  // Records waiting behind the consumed one: an eighth (8 lines).
  for (int i = 0; i < 16; ++i) ASSERT_TRUE(w.write_eager(env_of(100 + i), nullptr, 0));
  for (int i = 0; i < 8; ++i) {
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    rd.consume(rec.pos);
    EXPECT_EQ(r.ctl()->tail, i < 7 ? 32u : 40u) << "after streamed record " << i;
  }
  for (int i = 0; i < 8; ++i) {
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    rd.consume(rec.pos);
  }
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 48u);
  EXPECT_FALSE(rd.deferred());
  ASSERT_TRUE(w.write_eager(env_of(8), nullptr, 0));
  RingReader::Record rec;
  ASSERT_TRUE(rd.next(rec));
  rd.consume(rec.pos);
  EXPECT_TRUE(rd.deferred());
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 49u);
  EXPECT_FALSE(rd.deferred());
}

TEST(EagerRing, ARecordNeverWrapsAPadSkipsToTheStart) {
  Ring r(16);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  const auto big = payload(5 * 64 - 48, 2);  // five lines
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(w.write_eager(env_of(i), big.data(), big.size()));
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    rd.consume(rec.pos);
  }
  rd.flush();
  // Head at line 15: five more lines would run past 16, so a one-line pad goes first.
  ASSERT_TRUE(w.write_eager(env_of(3), big.data(), big.size()));
  EXPECT_EQ(w.head(), 16u + 5u);
  RingReader::Record rec;
  ASSERT_TRUE(rd.next(rec));
  EXPECT_EQ(rec.pos, 16u);  // the pad never comes out
  EXPECT_EQ(rec.header->envelope.word[0], 3u);
  EXPECT_EQ(reinterpret_cast<const unsigned char*>(rec.header), r.ring());
  EXPECT_EQ(std::memcmp(rd.payload(rec.pos, big.size()), big.data(), big.size()), 0);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 16u);  // pad released with the records before it
}

// Payload lines of one lap are header lines of the next; payload that holds exactly the
// sequence word the reader will expect there in the next lap must not look like a record.
TEST(EagerRing, StalePayloadNeverLooksLikeANewRecord) {
  constexpr std::uint64_t kLines = 32, kRecord = 4, kPayload = kRecord * 64 - 48;
  Ring r(kLines);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  std::vector<std::uint64_t> words(kPayload / 8);
  for (std::uint64_t i = 0; i < kLines / kRecord; ++i) {
    for (std::uint64_t j = 0; j < words.size(); ++j) {
      const std::uint64_t line = i * kRecord + (48 + 8 * j) / 64;
      words[j] = (48 + 8 * j) % 64 == 0 ? line + kLines + 1 : j;  // next lap's seq of that line
    }
    ASSERT_TRUE(w.write_eager(env_of(i), words.data(), kPayload));
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    rd.consume(rec.pos);
    rd.flush();
  }
  // Next lap, one-line records: the reader must see exactly those, never an old payload word.
  for (std::uint64_t m = 0; m < kLines; ++m) {
    EXPECT_FALSE(rd.ready()) << "line " << m;
    ASSERT_TRUE(w.write_eager(env_of(1000 + m), &m, sizeof m));
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    EXPECT_EQ(rec.header->envelope.word[0], 1000 + m);
    std::uint64_t v = 0;
    std::memcpy(&v, rd.payload(rec.pos, sizeof v), sizeof v);
    EXPECT_EQ(v, m);
    rd.consume(rec.pos);
    rd.flush();
  }
}

// A payload word meant for two laps later, on a line the lap between leaves unwritten (inside a
// pad): still never taken for a record.
TEST(EagerRing, StalePayloadForALaterLapNeverLooksLikeARecord) {
  constexpr std::uint64_t kLines = 32;
  Ring r(kLines);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  auto pass = [&](std::uint64_t id, const void* data, std::size_t len) {
    ASSERT_TRUE(w.write_eager(env_of(id), data, len));
    RingReader::Record rec;
    ASSERT_TRUE(rd.next(rec));
    EXPECT_EQ(rec.header->envelope.word[0], id);
    rd.consume(rec.pos);
    rd.flush();
  };
  // Lap 1: 24 one-line records, then one of 8 lines (offsets 24..31) whose payload lines hold
  // the sequence words of lap 3.
  for (std::uint64_t m = 0; m < 24; ++m) pass(m, &m, sizeof m);
  std::vector<std::uint64_t> words((8 * 64 - 48) / 8, 0);
  for (std::uint64_t line = 25; line < 32; ++line) words[(line - 24) * 8 - 6] = line + 2 * kLines + 1;
  pass(100, words.data(), words.size() * 8);
  // Lap 2: 25 one-line records, then one of 8 lines: it pads offsets 25..31 (only 25 written).
  for (std::uint64_t m = 0; m < 25; ++m) pass(200 + m, &m, sizeof m);
  pass(300, words.data(), 8 * 64 - 48);
  // Lap 3 (it started on that 8-line record): one-line records up to offset 31.
  for (std::uint64_t m = 8; m < kLines; ++m) {
    EXPECT_FALSE(rd.ready()) << "offset " << m;
    pass(400 + m, &m, sizeof m);
  }
}

// peek() and take_peeked(): the next record taken and consumed at once, also while an earlier
// one is still out (its lines and the later ones are released only once it is consumed).
TEST(EagerRing, TakenRecordsReleaseOnlyBehindTheOnesStillOut) {
  Ring r(64);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  EXPECT_EQ(rd.peek(), nullptr);
  const std::uint64_t a = 1, b = 2;
  ASSERT_TRUE(w.write_eager(env_of(1), &a, sizeof a));
  ASSERT_TRUE(w.write_eager(env_of(2), &b, sizeof b));
  RingReader::Record first;
  ASSERT_TRUE(rd.next(first));  // out, not consumed
  const SlotHeader* h = rd.peek();
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->envelope.word[0], 2u);
  rd.take_peeked(h);
  EXPECT_EQ(rd.peek(), nullptr);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 0u);  // the first record holds both back
  rd.consume(first.pos);
  rd.flush();
  EXPECT_EQ(r.ctl()->tail, 2u);
}

TEST(EagerRing, RendezvousRequestCarriesItsBody) {
  Ring r(16);
  RingWriter w = r.writer();
  RingReader rd = r.reader();
  ASSERT_TRUE(w.write_rts(env_of(5), RtsBody{1u << 20, 0x1234, 77}));
  RingReader::Record rec;
  ASSERT_TRUE(rd.next(rec));
  EXPECT_EQ(rec.kind, kSlotRts);
  RtsBody body;
  std::memcpy(&body, rd.body(rec.pos), sizeof body);
  EXPECT_EQ(body.size, 1u << 20);
  EXPECT_EQ(body.addr, 0x1234u);
  EXPECT_EQ(body.send_id, 77u);
}

// A writer thread and a reader thread through a small ring: many laps, every size class, the
// reader holding a few records and consuming them out of order.
TEST(EagerRing, TwoThreadsManyLapsContentAndOrder) {
  Ring r(64);
  constexpr std::uint64_t kMessages = 20000;
  std::thread writer([&] {
    RingWriter w = r.writer();
    std::mt19937 rng(1);
    std::vector<unsigned char> buf(1024);
    for (std::uint64_t i = 0; i < kMessages; ++i) {
      const std::size_t len = rng() % 700;
      for (std::size_t k = 0; k < len; ++k) buf[k] = static_cast<unsigned char>(i + k);
      Envelope e = env_of(i);
      e.word[3] = len;
      while (!w.write_eager(e, buf.data(), len)) cpu_relax();
    }
  });
  RingReader rd = r.reader();
  std::vector<RingReader::Record> held;
  std::uint64_t next = 0, bad = 0;
  while (next < kMessages || !held.empty()) {
    RingReader::Record rec;
    if (next < kMessages && held.size() < 3 && rd.next(rec)) {
      if (rec.header->envelope.word[0] != next) ++bad;
      const std::size_t len = rec.header->envelope.word[3];
      if (rec.header->len != len) ++bad;
      const unsigned char* b = rd.payload(rec.pos, len);
      for (std::size_t k = 0; k < len; ++k)
        if (b[k] != static_cast<unsigned char>(next + k)) {
          ++bad;
          break;
        }
      held.push_back(rec);
      ++next;
      continue;
    }
    if (!held.empty()) {  // newest first: out of order
      rd.consume(held.back().pos);
      held.pop_back();
    } else {
      rd.flush();  // idle: hand lines back
      cpu_relax();
    }
  }
  writer.join();
  EXPECT_EQ(bad, 0u);
  EXPECT_FALSE(rd.ready());
}

TEST(ControlRing, EntriesInOrderFullUntilReleased) {
  Lines mem(kChannelCtlBytes + 4 * kLine);
  auto* ctl = reinterpret_cast<ChannelCtl*>(mem.p);
  auto* slots = reinterpret_cast<CtrlSlot*>(mem.p + kChannelCtlBytes);
  CtrlWriter w(slots, 4, &ctl->ctrl_tail);
  CtrlReader rd(slots, 4, &ctl->ctrl_tail);
  for (std::uint64_t i = 0; i < 4; ++i) ASSERT_TRUE(w.write(CtrlMsg{kCtrlFin, i, i * 10}));
  EXPECT_FALSE(w.write(CtrlMsg{kCtrlFin, 4, 0}));
  CtrlMsg m;
  ASSERT_TRUE(rd.ready());
  ASSERT_TRUE(rd.next(m));
  EXPECT_EQ(m.send_id, 0u);
  EXPECT_FALSE(w.write(CtrlMsg{kCtrlFin, 4, 0}));  // read but not released
  rd.release();
  EXPECT_TRUE(w.space_released());
  EXPECT_TRUE(w.write(CtrlMsg{kCtrlCts, 4, 40}));
  for (std::uint64_t i = 1; i <= 4; ++i) {
    ASSERT_TRUE(rd.next(m));
    EXPECT_EQ(m.send_id, i);
    EXPECT_EQ(m.bytes, i * 10);
  }
  EXPECT_EQ(m.kind, kCtrlCts);
  EXPECT_FALSE(rd.next(m));
}

TEST(SharedCopy, PieceSizesAndClaimWord) {
  EXPECT_EQ(coop_piece(256u << 10), 64u << 10);
  EXPECT_EQ(coop_piece(1u << 20), 64u << 10);
  EXPECT_EQ(coop_piece(4u << 20), 128u << 10);
  EXPECT_EQ(coop_pieces(256u << 10), 4u);
  EXPECT_EQ(coop_pieces((256u << 10) + 1), 5u);
  const std::uint64_t w = CoopWord::make(5, 12, 3);
  EXPECT_EQ(CoopWord::gen(w), 5u);
  EXPECT_EQ(CoopWord::pieces(w), 12u);
  EXPECT_EQ(CoopWord::next(w), 3u);
}

// Both sides copy; every piece is copied exactly once; a HELP for an old generation does nothing.
TEST(SharedCopy, TwoSidesCopyEveryPieceOnce) {
  Lines ctl_mem(kChannelCtlBytes);
  auto* c = reinterpret_cast<ChannelCtl*>(ctl_mem.p);
  const std::uint64_t len = (3u << 20) + 12345;
  std::vector<unsigned char> src(len), dst(len, 0);
  for (std::uint64_t i = 0; i < len; ++i) src[i] = static_cast<unsigned char>(i * 13 + 1);
  const std::uint64_t pieces = coop_pieces(len);
  std::vector<std::atomic<int>> copied(pieces);
  auto copy = [&](std::uint64_t to, std::uint64_t from, std::uint64_t n) {
    std::memcpy(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), n);
    copied[(from - reinterpret_cast<std::uint64_t>(src.data())) / coop_piece(len)].fetch_add(1);
    return true;
  };
  // The receiver already copied piece 0 (the probe read).
  std::memcpy(dst.data(), src.data(), coop_piece(len));
  copied[0] = 1;
  announce_copy(c, 7, reinterpret_cast<std::uint64_t>(dst.data()), reinterpret_cast<std::uint64_t>(src.data()), len, 1);
  bool helper_any = false;
  std::thread sender([&] { EXPECT_TRUE(copy_pieces(c, 7, copy, &helper_any)); });
  EXPECT_TRUE(copy_pieces(c, 7, copy));
  sender.join();
  EXPECT_EQ(copy_progress(c), pieces);
  for (std::uint64_t i = 0; i < pieces; ++i) EXPECT_EQ(copied[i].load(), 1) << "piece " << i;
  EXPECT_EQ(std::memcmp(src.data(), dst.data(), len), 0);
  // A late HELP of generation 6, and one of 7 after everything is claimed, claim nothing.
  std::uint64_t piece = 0;
  EXPECT_FALSE(claim_piece(c, 6, piece));
  EXPECT_FALSE(claim_piece(c, 7, piece));
}

TEST(ArenaStream, PieceIsAnEighthWithinFourKiBAndTheChunk) {
  EXPECT_EQ(arena_piece(1000, 65536), 4096u);
  EXPECT_EQ(arena_piece(256u << 10, 65536), 32768u);
  EXPECT_EQ(arena_piece(4u << 20, 65536), 65536u);
  EXPECT_EQ(arena_piece(1000, 2048), 2048u);
}

// A producer and a consumer thread stream three transfers back to back through a small arena.
TEST(ArenaStream, TransfersStreamInOrderThroughASmallArena) {
  constexpr std::uint64_t kChunk = 8192, kChunks = 4;
  Lines mem(kChannelCtlBytes + kChunk * kChunks);
  ArenaView a{reinterpret_cast<ChannelCtl*>(mem.p), mem.p + kChannelCtlBytes, kChunk, kChunk * kChunks};
  const std::uint64_t sizes[] = {100000, 5000, 300001};
  std::vector<std::vector<unsigned char>> src, dst;
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    src.push_back(payload(sizes[i], i + 3));
    dst.emplace_back(sizes[i], 0);
  }
  std::thread producer([&] {
    std::uint64_t produced = 0;
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
      ArenaTransfer t = ArenaTransfer::of(sizes[i], kChunk);
      while (!t.finished()) {
        if (!produce_pieces(a, produced, t, src[i].data())) cpu_relax();
      }
    }
  });
  std::uint64_t consumed = 0;
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    ArenaTransfer t = ArenaTransfer::of(sizes[i], kChunk);
    while (!t.finished()) {
      if (!consume_pieces(a, consumed, t, dst[i].data())) cpu_relax();
    }
  }
  producer.join();
  for (std::size_t i = 0; i < std::size(sizes); ++i) EXPECT_EQ(src[i], dst[i]) << "transfer " << i;
  EXPECT_FALSE(arena_has_data(a, consumed));
}

// Pieces follow each other in the arena, each aligned to its own size, and wrap round to its
// start; the sender stops where the next piece would overwrite one not yet emptied.
TEST(ArenaStream, PiecesFollowEachOtherAndWrap) {
  constexpr std::uint64_t kChunk = 65536, kBytes = 256u << 10;
  Lines mem(kChannelCtlBytes + kBytes);
  ArenaView a{reinterpret_cast<ChannelCtl*>(mem.p), mem.p + kChannelCtlBytes, kChunk, kBytes};
  const std::uint64_t sizes[] = {32768, 100000, 256u << 10};
  std::vector<std::vector<unsigned char>> src, dst;
  std::vector<ArenaTransfer> tx, rx;
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    src.push_back(payload(sizes[i], i + 11));
    dst.emplace_back(sizes[i], 0);
    tx.push_back(ArenaTransfer::of(sizes[i], kChunk));
    rx.push_back(ArenaTransfer::of(sizes[i], kChunk));
  }
  std::uint64_t produced = 0, consumed = 0;
  // 32 KiB in 4 KiB pieces from offset 0, then 100 000 bytes in 8 KiB pieces right after it.
  ASSERT_TRUE(produce_pieces(a, produced, tx[0], src[0].data()));
  EXPECT_TRUE(tx[0].finished());
  EXPECT_EQ(produced, 32768u);
  EXPECT_EQ(std::memcmp(a.arena, src[0].data(), 32768), 0);
  ASSERT_TRUE(produce_pieces(a, produced, tx[1], src[1].data()));
  EXPECT_TRUE(tx[1].finished());
  EXPECT_EQ(produced, 32768u + 13 * 8192);
  EXPECT_EQ(std::memcmp(a.arena + 32768, src[1].data(), 100000), 0);
  // 256 KiB in 32 KiB pieces: the first starts at 160 KiB (aligned to 32 KiB), three fit.
  ASSERT_TRUE(produce_pieces(a, produced, tx[2], src[2].data()));
  EXPECT_EQ(tx[2].done, 3u);
  EXPECT_EQ(produced, 256u << 10);
  EXPECT_EQ(std::memcmp(a.arena + (160u << 10), src[2].data(), 96u << 10), 0);
  EXPECT_FALSE(arena_has_room(a, produced, tx[2]));
  EXPECT_FALSE(produce_pieces(a, produced, tx[2], src[2].data()));
  // Emptying the first transfer frees exactly the room of one 32 KiB piece, at the arena's start.
  ASSERT_TRUE(consume_pieces(a, consumed, rx[0], dst[0].data()));
  EXPECT_TRUE(rx[0].finished());
  EXPECT_EQ(dst[0], src[0]);
  EXPECT_TRUE(arena_has_room(a, produced, tx[2]));
  ASSERT_TRUE(produce_pieces(a, produced, tx[2], src[2].data()));
  EXPECT_EQ(tx[2].done, 4u);
  EXPECT_EQ(std::memcmp(a.arena, src[2].data() + (96u << 10), 32768), 0);
  // The rest, alternating until both sides are done.
  for (int guard = 0; guard < 100 && !(rx[1].finished() && rx[2].finished()); ++guard) {
    if (!rx[1].finished()) consume_pieces(a, consumed, rx[1], dst[1].data());
    else consume_pieces(a, consumed, rx[2], dst[2].data());
    produce_pieces(a, produced, tx[2], src[2].data());
  }
  EXPECT_TRUE(tx[2].finished());
  EXPECT_EQ(dst[1], src[1]);
  EXPECT_EQ(dst[2], src[2]);
  EXPECT_EQ(consumed, produced);
  EXPECT_FALSE(arena_has_data(a, consumed));
}

TEST(Waiting, SpinPolicyYieldsOnlyWhenOversubscribed) {
  const SpinPolicy alone = spin_policy(false), shared_core = spin_policy(true);
  EXPECT_FALSE(alone.yield_while_spinning);
  EXPECT_TRUE(shared_core.yield_while_spinning);
  EXPECT_LT(shared_core.spin_ns, alone.spin_ns);
  EXPECT_GT(shared_core.yields_before_sleep, 0);
}

TEST(Waiting, AnAwakeOwnerCostsTheWriterNoWakeUp) {
  RankSlot slot{};
  ring_doorbell(&slot);
  EXPECT_EQ(slot.bell, 0u);
  slot.sleeping = 1;
  ring_doorbell(&slot);
  EXPECT_EQ(slot.bell, 1u);
}

TEST(Waiting, WorkFoundWhileSpinningReturnsWithoutSleeping) {
  RankSlot slot{};
  int calls = 0;
  EXPECT_EQ(wait_for_work(&slot, spin_policy(false), 1000000000ull, 1000000000ull, [&] { return ++calls > 3; }),
            WaitEnd::Work);
  EXPECT_EQ(slot.sleeping, 0u);
}

TEST(Waiting, NoWorkEndsAtTheDeadline) {
  RankSlot slot{};
  EXPECT_EQ(wait_for_work(&slot, SpinPolicy{1000000000ull, false, 0}, 100000, 1000000000ull, [] { return false; }),
            WaitEnd::Timeout);
}

// The sleeper's flag and the writer's store: a writer that publishes after the sleeper has
// announced itself must find the flag and ring. The nap is 100 s, longer than the test's time
// limit: a lost wake-up fails the test instead of passing late.
// light: the writer skips its fence and the sleeper fences for it (membarrier), as between
// ranks where the kernel allows it; otherwise both sides fence.
class WaitingFence : public ::testing::TestWithParam<bool> {};

TEST_P(WaitingFence, ASleeperIsWokenByTheWriterWhoseStoreItMissed) {
  const bool light = GetParam();
  if (light && !register_light_fence()) GTEST_SKIP() << "membarrier(GLOBAL_EXPEDITED) not allowed here";
  for (int round = 0; round < 20; ++round) {
    RankSlot slot{};
    slot.heavy_fence = light ? 1 : 0;
    std::uint64_t word = 0;
    std::atomic<bool> asleep{false};
    std::thread writer([&] {
      while (!asleep.load()) cpu_relax();
      while (!shared(slot.sleeping).load(std::memory_order_seq_cst)) cpu_relax();
      shared(word).store(1, std::memory_order_release);
      ring_doorbell(&slot, light);
    });
    const WaitEnd end = wait_for_work(&slot, SpinPolicy{0, false, 0}, 200000000000ull, 100000000000ull, [&] {
      asleep.store(true);
      return shared(word).load(std::memory_order_seq_cst) != 0;
    });
    writer.join();
    EXPECT_EQ(end, WaitEnd::Slept);
    EXPECT_EQ(shared(word).load(), 1u);
    EXPECT_EQ(slot.sleeping, 0u);
  }
}
INSTANTIATE_TEST_SUITE_P(Fence, WaitingFence, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Asymmetric" : "Symmetric"; });

}  // namespace
}  // namespace tilempi::transport::host
