// Unit tests of the adapter models on a bare chip (no processes, no MPI).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"

using namespace tilempi::hwmodel;
using namespace tilempi::hwmodel::adapter;

namespace {

struct Recorder : Listener {
  std::map<MsgId, Cycle> arrived_at, sent_at, data_at;
  void arrived(MsgId id, Cycle at, Cycle cc) override { arrived_at[id] = at + cc; }
  void send_done(MsgId id, Cycle at, Cycle cc) override { sent_at[id] = at + cc; }
  void data_done(MsgId id, Cycle at, Cycle cc) override { data_at[id] = at + cc; }
};

struct Rig {
  Config cfg;
  std::unique_ptr<Chip> chip;
  std::unique_ptr<Adapter> ad;
  Recorder rec;
  Rig(const std::string& adapter, const std::string& preset = "tilepro64",
      const std::vector<std::string>& sets = {}) {
    cfg = Config::preset_named(preset);
    cfg.apply_all(sets);
    chip = std::make_unique<Chip>(cfg);
    ad = Adapter::create(adapter, cfg);
    ad->attach(*chip, rec);
    chip->on_delivered([this](const PacketEvent& e) { ad->delivered(e); });
    chip->on_injected([this](const PacketEvent& e) { ad->injected(e); });
  }
  void run() { chip->run_to_idle(); }
};

}  // namespace

TEST(Udn, EagerArrivesAfterOverheadPlusZeroLoad) {
  Rig r("udn");
  r.ad->start(Message{1, 0, 1, 8, false}, 0);
  r.run();
  // 3 envelope + 2 data words; injected at send_overhead (20).
  EXPECT_EQ(r.rec.arrived_at.at(1), 20 + r.chip->zero_load_latency(0, 1, 5));
  EXPECT_FALSE(r.ad->rendezvous(8, false));
  EXPECT_TRUE(r.ad->rendezvous(8, true));
  EXPECT_TRUE(r.ad->rendezvous(4096, false));
  EXPECT_EQ(r.ad->send_cost(8, false), 25u);
}

TEST(Udn, RendezvousWaitsForAccept) {
  Rig r("udn");
  r.ad->start(Message{7, 0, 63, 4096, false}, 0);
  r.run();
  ASSERT_TRUE(r.rec.arrived_at.count(7));
  EXPECT_FALSE(r.rec.sent_at.count(7));
  r.ad->accept(7, r.chip->now());
  r.run();
  ASSERT_TRUE(r.rec.sent_at.count(7));
  ASSERT_TRUE(r.rec.data_at.count(7));
  EXPECT_GT(r.rec.data_at.at(7), r.rec.sent_at.at(7));
  EXPECT_EQ(r.ad->active(), 0u);
}

TEST(Udn, UnknownParameterIsAnError) {
  Config c = Config::preset_named("tilepro64");
  c.set("adapter.udn.nope", "1");
  EXPECT_THROW(Adapter::create("udn", c), ConfigError);
  EXPECT_THROW(Adapter::create("bogus", c), ConfigError);
}

TEST(Namp, PacketsPerMessageFollowWallentowitzFormula) {
  // optimsoc: l = 32, h = 2: P = ceil(S / (l - h)) data packets of 4-byte flits.
  Rig r("namp", "optimsoc");
  std::uint64_t data_packets = 0;
  r.chip->on_delivered([&](const PacketEvent& e) {
    if (tag_kind(e.tag) == 4) ++data_packets;
    r.ad->delivered(e);
  });
  r.ad->start(Message{3, 0, 5, 1000, false}, 0);
  r.run();
  EXPECT_EQ(data_packets, (250u + 29u) / 30u);  // 250 words over 30-word payloads
  EXPECT_TRUE(r.rec.arrived_at.count(3));
  EXPECT_TRUE(r.rec.sent_at.count(3));
}

TEST(Namp, FullBufferNacksAndRetries) {
  Rig r("namp", "optimsoc", {"adapter.namp.rx_buffer_bytes=100"});
  r.ad->start(Message{1, 0, 5, 80, false}, 0);
  r.ad->start(Message{2, 1, 5, 80, false}, 0);
  r.chip->run_until(3000);
  // Only one fits; the other keeps being refused until the first is taken.
  EXPECT_EQ(r.rec.arrived_at.size(), 1u);
  const MsgId first = r.rec.arrived_at.begin()->first;
  r.ad->accept(first, r.chip->now());
  r.run();
  EXPECT_EQ(r.rec.arrived_at.size(), 2u);
  EXPECT_GE(r.ad->stats()["retries"].get<std::uint64_t>(), 1u);
}

TEST(Namp, SenderOverheadAgainstRdmaMatchesWallentowitz) {
  // [Wallentowitz 2018] (abstract): NAMP cuts the sender overhead by 48 % against RDMA with a software protocol.
  Rig n("namp"), r("rdma");
  n.ad->start(Message{1, 0, 1, 64, false}, 0);
  r.ad->start(Message{1, 0, 1, 64, false}, 0);
  n.run();
  r.run();
  // Sender overhead = core cycles in the call + handler/completion cycles on the sender.
  auto params_of = [](Rig& g) {
    std::map<std::string, std::uint64_t> p;
    for (const Param& q : g.ad->params()) p[q.name] = q.value;
    return p;
  };
  auto pn = params_of(n), pr = params_of(r);
  const double namp = static_cast<double>(n.ad->send_cost(64, false) + pn["completion_cycles"]);
  const double rdma = static_cast<double>(r.ad->send_cost(64, false) + pr["irq_cycles"] + pr["dma_setup"] +
                                          pr["fin_cycles"] + pr["completion_cycles"]);
  EXPECT_NEAR(1.0 - namp / rdma, 0.48, 0.01);
}
