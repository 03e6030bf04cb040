// The namp adapter's features beyond its base protocol, on a bare chip (no ranks, no MPI):
// NAMP-CC collective transfers ([Wallentowitz 2018] §3.3), NAMP-SV access costs (§3.4),
// HW-OSQM wake-up modes (§3.5) and NAMP-PS task migration (§3.6).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tilempi/hwmodel/adapter.h"

using namespace tilempi::hwmodel;
using namespace tilempi::hwmodel::adapter;

namespace {

struct Recorder : Listener {
  std::map<MsgId, Cycle> arrived_at, sent_at;
  std::map<MsgId, int> arrivals, sends;
  void arrived(MsgId id, Cycle at, Cycle cc) override {
    arrived_at[id] = at + cc;
    ++arrivals[id];
  }
  void send_done(MsgId id, Cycle at, Cycle cc) override {
    sent_at[id] = at + cc;
    ++sends[id];
  }
  void data_done(MsgId, Cycle, Cycle) override {}
};

struct Rig {
  Config cfg;
  std::unique_ptr<Chip> chip;
  std::unique_ptr<Adapter> ad;
  Recorder rec;
  explicit Rig(const std::vector<std::string>& sets = {}) {
    cfg = Config::preset_named("optimsoc");
    cfg.apply_all(sets);
    chip = std::make_unique<Chip>(cfg);
    ad = Adapter::create("namp", cfg);
    ad->attach(*chip, rec);
    chip->on_delivered([this](const PacketEvent& e) { ad->delivered(e); });
    chip->on_injected([this](const PacketEvent& e) { ad->injected(e); });
  }
  void run() { chip->run_to_idle(); }
};

std::vector<Message> parts_to(int n, std::uint64_t bytes, MsgId first) {
  std::vector<Message> p;
  for (int i = 1; i <= n; ++i) p.push_back(Message{first + static_cast<MsgId>(i), 0, static_cast<TileId>(i), bytes, false});
  return p;
}

}  // namespace

TEST(NampCc, MulticastProgressesItsDestinationsConcurrently) {
  // §3.3.1.1: one setup, every allocation in flight at once, against 8 sends one after the other.
  Rig hw, sw;
  ASSERT_TRUE(hw.ad->collective_offload());
  hw.ad->start_spread(100, CollKind::Multicast, parts_to(8, 4, 100), 0);
  for (const Message& m : parts_to(8, 4, 100)) sw.ad->start(m, 0);
  hw.run();
  sw.run();
  Cycle hw_last = 0, sw_last = 0;
  for (MsgId id = 101; id <= 108; ++id) {
    EXPECT_EQ(hw.rec.arrivals[id], 1) << id;
    hw_last = std::max(hw_last, hw.rec.arrived_at.at(id));
    sw_last = std::max(sw_last, sw.rec.arrived_at.at(id));
  }
  EXPECT_EQ(hw.rec.sends[100], 1);  // the root hears once
  EXPECT_LT(hw_last * 2, sw_last);  // the round trips overlap
  EXPECT_EQ(hw.ad->active(), 8u);   // the parts wait for their receivers to take them
  for (MsgId id = 101; id <= 108; ++id) hw.ad->accept(id, hw.chip->now());
  EXPECT_EQ(hw.ad->active(), 0u);
}

TEST(NampCc, GatherNotifiesTheRootOnceEverySlotIsComplete) {
  Rig r;
  for (int s = 1; s <= 4; ++s)
    r.ad->start_collect(50, CollKind::Gather, Message{50 + static_cast<MsgId>(s), static_cast<TileId>(s), 0, 256, false}, 4,
                        static_cast<Cycle>(100 * s));
  r.run();
  ASSERT_EQ(r.rec.arrivals[50], 1);
  for (MsgId id = 51; id <= 54; ++id) EXPECT_EQ(r.rec.sends[id], 1);  // each sender's data has left
  EXPECT_GT(r.rec.arrived_at.at(50), 400u);                             // after the last sender started
  EXPECT_EQ(r.ad->active(), 0u);
}

TEST(NampCc, ReductionPaysItsDataPath) {
  // §3.3.1.4: the root's DMA combines every word; slower data path, later completion.
  auto done = [](const std::vector<std::string>& sets, CollKind k) {
    Rig r(sets);
    for (int s = 1; s <= 4; ++s)
      r.ad->start_collect(9, k, Message{9 + static_cast<MsgId>(s), static_cast<TileId>(s), 0, 4096, false}, 4, 0);
    r.run();
    return r.rec.arrived_at.at(9);
  };
  // One word a cycle keeps up with the link: only the last packet's words come after its arrival.
  EXPECT_GE(done({}, CollKind::Reduce), done({}, CollKind::Gather));
  EXPECT_LE(done({}, CollKind::Reduce), done({}, CollKind::Gather) + 32);
  EXPECT_GT(done({"adapter.namp.reduce_cycles_per_word=3"}, CollKind::Reduce), done({}, CollKind::Gather) + 4096 / 4);
}

TEST(NampCc, OffWithCcZero) {
  Rig r({"adapter.namp.cc=0"});
  EXPECT_FALSE(r.ad->collective_offload());
  EXPECT_FALSE(Adapter::create("rdma", Config::preset_named("optimsoc"))->collective_offload());
}

TEST(NampSv, KernelAccessPaysTheSystemCallAndTranslation) {
  Rig bare, kern({"adapter.namp.access=kernel"}), vif({"adapter.namp.access=vif"});
  EXPECT_EQ(kern.ad->send_cost(4, false), bare.ad->send_cost(4, false) + 50 + 10);
  EXPECT_EQ(vif.ad->send_cost(4, false), bare.ad->send_cost(4, false));
  EXPECT_EQ(kern.ad->recv_cost(4, false), bare.ad->recv_cost(4, false) + 50);
  EXPECT_EQ(vif.ad->lookahead(), bare.ad->lookahead() + 2);  // the table read is the adapter's
  // [Wallentowitz 2018] abstract: NAMP-SV saves up to 62 % of the sender's overhead.
  const double saved = 1.0 - static_cast<double>(vif.ad->send_cost(4, false)) / static_cast<double>(kern.ad->send_cost(4, false));
  EXPECT_NEAR(saved, 0.61, 0.02);
}

TEST(NampOsqm, WakeUpModes) {
  EXPECT_EQ(Rig().ad->wake_cycles(), 0u);
  EXPECT_EQ(Rig({"adapter.namp.wakeup=interrupt"}).ad->wake_cycles(), 440u);
  EXPECT_EQ(Rig({"adapter.namp.wakeup=osqm"}).ad->wake_cycles(), 40u);
}

TEST(NampOptions, ABadChoiceNamesTheKeyAndTheValues) {
  Config c = Config::preset_named("optimsoc");
  c.set("adapter.namp.wakeup", "sometimes");
  try {
    Adapter::create("namp", c);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("adapter.namp.wakeup"), std::string::npos) << w;
    EXPECT_NE(w.find("poll, interrupt, osqm"), std::string::npos) << w;
  }
  const auto decl = Adapter::declarations("namp", Config::preset_named("optimsoc"));
  auto it = std::find_if(decl.begin(), decl.end(), [](const auto& s) { return s.name == "adapter.namp.access"; });
  ASSERT_NE(it, decl.end());
  EXPECT_EQ(it->choices, (std::vector<std::string>{"baremetal", "kernel", "vif"}));
}

// ---- NAMP-PS ([Wallentowitz 2018] §3.6): task migration

namespace {

struct MoveRecorder : Recorder {
  Cycle stop = 0, resume = 0, work = 0;
  void migration_work(MsgId, Cycle, Cycle cc) override { work += cc; }
  void migration_switch(MsgId, Cycle s, Cycle r) override {
    stop = s;
    resume = r;
  }
};

struct MoveRig {
  Config cfg;
  std::unique_ptr<Chip> chip;
  std::unique_ptr<Adapter> ad;
  MoveRecorder rec;
  explicit MoveRig(const std::string& method) {
    cfg = Config::preset_named("optimsoc");
    cfg.apply_all({"adapter.namp.migration=" + method});
    chip = std::make_unique<Chip>(cfg);
    ad = Adapter::create("namp", cfg);
    ad->attach(*chip, rec);
    chip->on_delivered([this](const PacketEvent& e) { ad->delivered(e); });
    chip->on_injected([this](const PacketEvent& e) { ad->injected(e); });
  }
};

}  // namespace

TEST(NampPs, DualcastsAConnectionOrientedPartBetweenRelocationAndStop) {
  // §3.6.4.2: tile 1's task moves to tile 10 while an 8 KiB message granted at tile 1 is still
  // arriving (the stop waits for it); a scatter part to tile 1 sent meanwhile goes to both tiles
  // and counts once, at tile 1, where the task still runs.
  MoveRig r("ps");
  r.ad->start(Message{1, 2, 1, 8192, false}, 0);
  r.chip->run_until(200);
  r.ad->migrate(Migration{1, 1, 10}, 200);
  r.chip->run_until(600);
  r.ad->start_spread(300, CollKind::Scatter, {Message{301, 0, 1, 64, false}}, 600);
  r.chip->run_to_idle();
  EXPECT_EQ(r.rec.arrivals[1], 1);
  EXPECT_EQ(r.rec.arrivals[301], 1);
  EXPECT_EQ(r.ad->stats()["dualcasts"], 1);
  EXPECT_GT(r.rec.stop, r.rec.arrived_at.at(301));  // the old tile's copy counted before the stop
  EXPECT_LT(r.rec.stop, r.rec.resume);
  EXPECT_EQ(r.rec.work, 100u);  // phase I: one OS step on the task's core
}

TEST(NampPs, PausingSuspendsASenderUntilTheResume) {
  // Table 3.3, pausing: a request to the suspended endpoint waits for RESUME from the new tile;
  // the message is seen there after the resume, once.
  MoveRig r("pause");
  r.ad->migrate(Migration{1, 1, 10}, 0);
  r.ad->start(Message{5, 2, 1, 64, false}, 10);
  r.chip->run_to_idle();
  EXPECT_EQ(r.rec.arrivals[5], 1);
  EXPECT_EQ(r.rec.stop, 100u);  // nothing was granted at tile 1: phase II starts after phase I's step
  EXPECT_GT(r.rec.arrived_at.at(5), r.rec.resume);
  EXPECT_EQ(r.ad->stats()["suspends"], 1);
  EXPECT_EQ(r.ad->stats()["nak_relocs"], 0);
}

TEST(NampPs, RelocationRestartsATransferAtTheNewTile) {
  // §3.6.4.1: after phase I a request to the old endpoint gets NAK_RELOC; the sender asks the
  // new tile, and later transfers go there at once.
  MoveRig r("ps");
  r.ad->migrate(Migration{1, 1, 10}, 0);
  r.chip->run_until(400);
  r.ad->start(Message{5, 2, 1, 64, false}, 400);
  r.ad->start(Message{6, 2, 1, 64, false}, 400);
  r.chip->run_to_idle();
  EXPECT_EQ(r.rec.arrivals[5], 1);
  EXPECT_EQ(r.rec.arrivals[6], 1);
  EXPECT_GE(r.rec.arrived_at.at(5), r.rec.resume);  // seen once the task runs there
  EXPECT_LE(r.rec.arrived_at.at(5), r.rec.arrived_at.at(6));
  EXPECT_EQ(r.ad->stats()["nak_relocs"], 1);
}
