// Fuzz target: the sim transport's request decoding (transport/sim/*_messages.h, taken by
// transport/sim/sim_engine.cpp). Ranks post
// requests (send, fetch, block, finish, static broadcast part, note, collective offload part)
// that the engine decodes and times on the modeled chip; with ranks as processes they travel
// through shared memory that a faulty program can overwrite. Here an engine with ranks as
// contexts (a RankSink, as context_job.cpp drives it) takes requests whose fields come from the
// input: destinations, message ids, sizes, arena offsets, static routes in the root's arena,
// kinds. The engine must time the valid ones and turn a malformed one into an error that names
// it (an exception the job reports), never crash or read outside the arenas.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "sim/sim_engine.h"
#include "sim/sim_shm.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"

namespace sim = tilempi::transport::sim;
namespace hw = tilempi::hwmodel;

namespace {

constexpr int kRanks = 4;
constexpr std::size_t kArena = 1 << 16;

class Sink final : public sim::RankSink {
 public:
  Sink() : arenas_(kRanks, std::vector<unsigned char>(kArena)) {}
  void deliver(int r, const sim::EngineEvent& e) override {
    if (r < 0 || r >= kRanks || e.kind < sim::kEvArrival || e.kind >= sim::kEvKinds) std::abort();
    ++events;
  }
  void woken(int r, std::uint64_t) override {
    if (r < 0 || r >= kRanks) std::abort();
  }
  const unsigned char* arena(int r) const override { return arenas_.at(static_cast<std::size_t>(r)).data(); }
  std::uint64_t arena_bytes() const override { return kArena; }
  std::uint64_t clock_of(int) const override { return 0; }
  std::string describe(int) override { return "fuzz"; }
  std::vector<std::vector<unsigned char>> arenas_;
  std::uint64_t events = 0;
};

std::uint64_t field(tilempi::fuzz::Bytes& in) {
  switch (in.below(4)) {
    case 0: return in.below(4);
    case 1: return in.below(256);
    case 2: return in.below(kArena + 64);
    default: return in.take<std::uint64_t>();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > 8192) return 0;
  tilempi::fuzz::Bytes in(data, size);
  hw::Config cfg = hw::Config::preset_named("tilepro64");
  cfg.set("width", "2");
  cfg.set("height", "2");
  cfg.validate();
  const auto adapters = hw::adapter::Adapter::names();
  const std::string adapter = adapters[in.below(static_cast<std::uint32_t>(adapters.size()))];
  std::vector<hw::TileId> tiles;
  for (int r = 0; r < kRanks; ++r) tiles.push_back(static_cast<hw::TileId>(r));
  Sink sink;
  // The root's arena may hold a static route list ([count][hops...]): from the input.
  const std::string route = in.text(255);
  std::memcpy(sink.arenas_[0].data(), route.data(), route.size());
  sim::EngineOptions eo;
  eo.compute = "none";  // the ranks here charge no compute
  eo.summary = false;
  sim::SimEngine engine(kRanks, cfg, adapter, tiles, eo, sink);
  std::uint64_t clock[kRanks] = {};
  try {
    for (int i = 0; i < 64 && !in.empty(); ++i) {
      const int r = static_cast<int>(in.below(kRanks));
      sim::EngineRequest q{};
      q.kind = in.below(sim::kReqKinds);  // every kind, and 0 (none)
      clock[r] += in.below(64);
      q.time = clock[r];
      q.msg = field(in);
      q.a = field(in);
      q.b = in.below(kArena + 1);
      q.c = field(in);
      q.d = field(in);
      q.op = field(in);
      for (auto& w : q.env.word) w = field(in);
      q.e = field(in);
      q.f = field(in);
      q.g = field(in);
      // A one-sided request's sizes (b written, c read) are the window's business, checked by the
      // MPI layer; bounded here like a send's, or one request of 2^60 bytes streams for ever.
      if (q.kind == sim::kReqRemote) q.c %= kArena + 1;
      engine.take(r, q);
      if (in.below(2)) {
        std::uint64_t low = clock[0];
        for (std::uint64_t c : clock) low = std::min(low, c);
        engine.advance_to(low + engine.lookahead() - 1);
      }
    }
    std::uint64_t high = 0;
    for (std::uint64_t c : clock) high = std::max(high, c);
    engine.advance_to(high + 200000);  // bounded: a message of 64 KiB is delivered well before
  } catch (const std::runtime_error&) {
    // a malformed request, reported
  }
  return 0;
}
