// Unit tests of the mmachine adapter ([Lee 1999]'s message interface) on a bare chip: exact
// cycles on the zero-latency network, the GTLB's miss path, return-to-sender flow control.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "tilempi/hwmodel/adapter.h"

using namespace tilempi::hwmodel;
using namespace tilempi::hwmodel::adapter;

namespace {

struct Recorder : Listener {
  std::map<MsgId, Cycle> arrived_at, sent_at, data_at;
  std::vector<MsgId> order;  // arrivals, in the order reported
  std::map<MsgId, int> arrivals;
  void arrived(MsgId id, Cycle at, Cycle cc) override {
    arrived_at[id] = at + cc;
    order.push_back(id);
    ++arrivals[id];
  }
  void send_done(MsgId id, Cycle at, Cycle cc) override { sent_at[id] = at + cc; }
  void data_done(MsgId id, Cycle at, Cycle cc) override { data_at[id] = at + cc; }
};

struct Rig {
  Config cfg;
  std::unique_ptr<Chip> chip;
  std::unique_ptr<Adapter> ad;
  Recorder rec;
  explicit Rig(const std::vector<std::string>& sets = {}) {
    cfg = Config::preset_named("mmachine");
    cfg.apply("network_model=ideal");
    cfg.apply_all(sets);
    chip = std::make_unique<Chip>(cfg);
    ad = Adapter::create("mmachine", cfg);
    ad->attach(*chip, rec);
    chip->on_delivered([this](const PacketEvent& e) { ad->delivered(e); });
    chip->on_injected([this](const PacketEvent& e) { ad->injected(e); });
  }
  void run() { chip->run_to_idle(); }
  std::uint64_t stat(const char* k) const { return ad->stats()[k].get<std::uint64_t>(); }
  std::uint64_t param(const std::string& n) const {
    for (const Param& p : ad->params())
      if (p.name == n) return p.value;
    ADD_FAILURE() << "no parameter " << n;
    return 0;
  }
};

}  // namespace

// [Lee 1999] §6.4 Table 6.4: PING takes 38 cycles on the zero-latency network (MM). One way is
// the sum of the adapter's costs: the SEND (5), the 3 words streaming out after the first (2),
// the dispatch (3), the handler (4), then the MPI receive's poll (1) and take (4).
TEST(MMachine, PingOnZeroLatencyNetworkIsTheSumOfTheCosts) {
  Rig r;
  r.ad->start(Message{1, 0, 1, 0, false}, 0);
  r.run();
  const Cycle one_way_net = r.param("send_overhead") + (3 - 1) + r.param("dispatch_cycles") +
                            r.param("handler_overhead");
  EXPECT_EQ(r.rec.arrived_at.at(1), one_way_net);
  EXPECT_EQ(r.rec.sent_at.at(1), r.param("send_overhead"));
  const Cycle one_way = r.rec.arrived_at.at(1) + r.ad->poll_cost() + r.ad->recv_cost(0, false);
  EXPECT_EQ(one_way, 19u);
  EXPECT_EQ(2 * one_way, 38u);
  EXPECT_EQ(r.ad->send_cost(0, false), 5u);  // the null SEND's occupancy (§7.2.2: k_o = 5)
  r.ad->accept(1, r.chip->now());
  r.run();
  EXPECT_EQ(r.ad->active(), 0u);
  EXPECT_EQ(r.stat("gtlb_misses"), 0u);  // 8x8 nodes: one GTLB entry maps them all
}

// An MPI message longer than a body goes as 10-word messages, the first with the length.
TEST(MMachine, LongMessagesAreSplitIntoTenWordMessages) {
  Rig r;
  EXPECT_EQ(r.ad->send_cost(80, false), 5u + 10u);         // 10 words: one message
  EXPECT_EQ(r.ad->send_cost(88, false), 2 * 5u + 12u);     // 11 words + length: two
  EXPECT_EQ(r.ad->send_cost(8192, false), 103 * 5u + 1025u);  // BLKW: 103 messages ([Lee 1999] §6.5.4)
  r.ad->start(Message{1, 0, 1, 8192, false}, 0);
  r.run();
  ASSERT_TRUE(r.rec.arrived_at.count(1));
  EXPECT_EQ(r.stat("messages"), 103u);
  EXPECT_EQ(r.stat("bounces"), 0u);
}

// [Lee 1999] §4.2.3: a GTLB miss is resolved in software; §6.4: the lookup costs 20 cycles and
// 16 more per table entry passed. On 7x7 nodes the mailboxes need 9 regions; the GTLB holds 4.
TEST(MMachine, GtlbMissCostsTheSoftwareLookupOnce) {
  Rig r({"width=7", "height=7"});
  r.ad->start(Message{1, 0, 1, 0, false}, 0);    // region 0 (4x4 at the origin): a hit
  r.ad->start(Message{2, 9, 48, 0, false}, 0);   // node (6,6): region 8, the last: a miss
  r.run();
  const Cycle miss = r.param("gtlb_miss_cycles") + 8 * r.param("gtlb_miss_cycles_per_entry");
  EXPECT_EQ(miss, 148u);
  EXPECT_EQ(r.rec.arrived_at.at(2) - r.rec.arrived_at.at(1), miss);
  EXPECT_EQ(r.rec.sent_at.at(2) - r.rec.sent_at.at(1), miss);  // the SEND completes after the handler
  EXPECT_EQ(r.stat("gtlb_misses"), 1u);
  // The entry is now cached: the next message to that region is a hit.
  const Cycle t = r.chip->now();
  r.ad->start(Message{3, 9, 48, 0, false}, t);
  r.run();
  EXPECT_EQ(r.rec.arrived_at.at(3) - t, r.rec.arrived_at.at(1));
  EXPECT_EQ(r.stat("gtlb_misses"), 1u);
  EXPECT_EQ(r.stat("gtlb_hits"), 2u);
}

// Return-to-sender ([Lee 1999] §3.3.2): a receiver with room for two 10-word messages gets
// twenty at once, takes each only a while after it arrived; the rest come back and are sent
// again. Every message arrives once, in the order sent, and the output queue (16 words, 13
// free to issue, §4.2) held the sender up on the way.
TEST(MMachine, BounceAndRetryDeliverEveryMessageOnceInOrder) {
  Rig r({"adapter.mmachine.recv_buffer_words=20", "adapter.mmachine.retry_cycles=50"});
  const int n = 20;
  for (int i = 1; i <= n; ++i) r.ad->start(Message{static_cast<MsgId>(i), 0, 1, 80, false}, 0);
  std::size_t taken = 0;
  for (int guard = 0; guard < 100000 && taken < static_cast<std::size_t>(n); ++guard) {
    const Cycle next = r.chip->next_event_cycle();
    if (taken < r.rec.order.size()) {
      // The receiver's MPI takes the oldest arrival 200 cycles after it came.
      const Cycle due = r.rec.arrived_at.at(r.rec.order[taken]) + 200;
      if (next == kNever || next > due) {
        r.chip->run_until(std::max(due, r.chip->now()));
        r.ad->accept(r.rec.order[taken++], r.chip->now());
        continue;
      }
    }
    ASSERT_NE(next, kNever) << "stuck with " << r.rec.order.size() << " of " << n << " arrived";
    r.chip->run_until(next);
  }
  r.run();
  ASSERT_EQ(r.rec.order.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) EXPECT_EQ(r.rec.order[static_cast<std::size_t>(i)], static_cast<MsgId>(i + 1));
  for (const auto& [id, count] : r.rec.arrivals) EXPECT_EQ(count, 1) << "message " << id;
  EXPECT_EQ(r.rec.sent_at.size(), static_cast<std::size_t>(n));
  EXPECT_GT(r.stat("bounces"), 0u);
  EXPECT_EQ(r.stat("retries"), r.stat("bounces"));
  EXPECT_GT(r.stat("queue_stalls"), 0u);
  EXPECT_EQ(r.ad->active(), 0u);
}

// [Lee 1999] §3.3.2: with every bounce buffer promised, SENDs wait for acknowledgements.
TEST(MMachine, SendsWaitForAnAcknowledgementWhenTheOmbcIsZero) {
  Rig r({"adapter.mmachine.bounce_buffers=1"});
  r.ad->start(Message{1, 0, 1, 0, false}, 0);
  r.ad->start(Message{2, 0, 1, 0, false}, 5);
  r.run();
  EXPECT_GT(r.stat("ombc_stalls"), 0u);
  // The second SEND issues only once the first message's acknowledgement came back.
  EXPECT_GT(r.rec.sent_at.at(2), r.rec.arrived_at.at(1));
  EXPECT_EQ(r.rec.arrivals.at(2), 1);
}

TEST(MMachine, RendezvousAboveEagerWordsAndForSynchronousSends) {
  Rig r;
  EXPECT_FALSE(r.ad->rendezvous(8192, false));
  EXPECT_TRUE(r.ad->rendezvous(8200, false));
  EXPECT_TRUE(r.ad->rendezvous(8, true));
  r.ad->start(Message{1, 0, 1, 16384, false}, 0);
  r.run();
  ASSERT_TRUE(r.rec.arrived_at.count(1));
  EXPECT_FALSE(r.rec.sent_at.count(1));
  r.ad->accept(1, r.chip->now());
  r.run();
  ASSERT_TRUE(r.rec.sent_at.count(1));
  ASSERT_TRUE(r.rec.data_at.count(1));
  EXPECT_GE(r.rec.data_at.at(1), r.rec.sent_at.at(1));
  EXPECT_EQ(r.stat("go_aheads"), 1u);
  EXPECT_EQ(r.ad->active(), 0u);
}

TEST(MMachine, ParametersAreDeclaredAndChecked) {
  Config c = Config::preset_named("mmachine");
  c.set("adapter.mmachine.nope", "1");
  EXPECT_THROW(Adapter::create("mmachine", c), ConfigError);
  Rig r({"adapter.mmachine.send_overhead=9"});
  EXPECT_EQ(r.ad->send_cost(0, false), 9u);
  for (const Param& p : r.ad->params()) EXPECT_FALSE(p.source.empty()) << p.name;
}

// The zero-latency network: a packet of L flits takes L - 1 cycles whatever the distance, and a
// destination reads one flit per cycle.
TEST(IdealNetwork, NoLatencyOneFlitPerCycleAtEachEnd) {
  Config c = Config::preset_named("mmachine");
  c.apply("network_model=ideal");
  Chip chip(c);
  std::map<std::uint64_t, Cycle> at;
  chip.on_delivered([&](const PacketEvent& e) { at[e.tag] = e.cycle; });
  chip.inject(0, 0, 63, 4, 10, 1);  // 5 flits, opposite corners
  chip.inject(0, 8, 63, 0, 10, 2);  // 1 flit, same destination, same cycle: read after the first
  chip.run_to_idle();
  EXPECT_EQ(at.at(1), 14u);
  EXPECT_EQ(at.at(2), 15u);
  EXPECT_EQ(chip.zero_load_latency(0, 63, 4), 4u);
}

// [Lee 1999] §6.6: PING's chain from an interrupt-driven, memory-mapped, buffered interface with
// software translation to the M-Machine's: thesis 476 -> 219 -> 79 -> 38 cycles; the model adds
// each mechanism's calibrated costs (docs/EXPERIMENTS.md).
TEST(MMachine, DesignSpaceModelsGivePingsChain) {
  const std::vector<std::pair<std::string, Cycle>> chain = {
      {"SWX_IMB_EMB_INT", 468}, {"SWX_IMB_EMB", 214}, {"SWX", 78}, {"MM", 38}, {"SWX_IRB_ERB", 100}};
  for (const auto& [model, want] : chain) {
    Rig r({"adapter.mmachine.model=" + model});
    r.ad->start(Message{1, 0, 1, 0, false}, 0);
    r.run();
    const Cycle one_way = r.rec.arrived_at.at(1) + r.ad->poll_cost() + r.ad->recv_cost(0, false);
    EXPECT_EQ(2 * one_way, want) << model;
  }
  // The four choices one by one are the same as the code.
  Rig a({"adapter.mmachine.injection=imb", "adapter.mmachine.extraction=emb", "adapter.mmachine.translation=swx",
         "adapter.mmachine.dispatch=int"});
  a.ad->start(Message{1, 0, 1, 0, false}, 0);
  a.run();
  EXPECT_EQ(2 * (a.rec.arrived_at.at(1) + a.ad->poll_cost() + a.ad->recv_cost(0, false)), 468u);
  // A bad code names the key.
  Config c = Config::preset_named("mmachine");
  c.set("adapter.mmachine.model", "SWX_XYZ");
  try {
    Adapter::create("mmachine", c);
    ADD_FAILURE() << "SWX_XYZ accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "adapter.mmachine.model");
  }
}

// [Lee 1999] §6.4, §6.5.4, Figure 6-10: polled dispatch. Table 6.4's POL (76 cycles) is the best
// case (POL_MIN), the message arriving as the poll runs; one that barely misses a poll pays 121
// cycles more (POL_MAX); with polls every 120 cycles, a message waits for the next one.
TEST(MMachine, PolledDispatchBestWorstAndPeriodic) {
  auto one_way = [](const std::vector<std::string>& sets) {
    Rig r(sets);
    r.ad->start(Message{1, 0, 1, 0, false}, 0);
    r.run();
    return r.rec.arrived_at.at(1) + r.ad->poll_cost() + r.ad->recv_cost(0, false);
  };
  const Cycle best = one_way({"adapter.mmachine.model=POL"});
  EXPECT_EQ(2 * best, 76u);
  EXPECT_EQ(one_way({"adapter.mmachine.dispatch=pol_max"}), best + 121);
  // The empty message's DestAddr (its last word) is in at cycle 7 (the SEND's 5, 2 words behind
  // the first): the next poll is at 120.
  EXPECT_EQ(one_way({"adapter.mmachine.dispatch=pol_periodic"}), best + (120 - 7));
  EXPECT_EQ(one_way({"adapter.mmachine.dispatch=pol_periodic",
                     "adapter.mmachine.poll_period_cycles=7"}),
            best);
  // The model's dispatch can be overridden: SWX_IMB_EMB_POL at its worst.
  EXPECT_EQ(one_way({"adapter.mmachine.model=SWX_IMB_EMB_POL", "adapter.mmachine.dispatch=pol_max"}),
            one_way({"adapter.mmachine.model=SWX_IMB_EMB_POL"}) + 121);
  Config c = Config::preset_named("mmachine");
  c.set("adapter.mmachine.dispatch", "pol_periodic");
  c.set("adapter.mmachine.poll_period_cycles", "0");
  try {
    Adapter::create("mmachine", c);
    ADD_FAILURE() << "a poll every 0 cycles accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "adapter.mmachine.poll_period_cycles");
  }
}

// [Lee 1999] §7.2.2 (Figures 7-11, 7-13): latency added to every message delays its dispatch by
// exactly that much and costs no core any cycle; a stall after each SEND adds to the sender's
// occupancy and to the latency.
TEST(MMachine, AddedLatencyAndSendStallAddExactly) {
  auto ping = [](const std::vector<std::string>& sets, Cycle& sent, std::uint64_t& occ) {
    Rig r(sets);
    r.ad->start(Message{1, 0, 1, 16, false}, 0);  // LIFE's 2-word update
    r.run();
    sent = r.rec.sent_at.at(1);
    r.ad->accept(1, r.chip->now());
    r.run();
    occ = r.stat("occupancy_cycles");
    return r.rec.arrived_at.at(1);
  };
  Cycle sent0, sent1, sent2;
  std::uint64_t occ0, occ1, occ2;
  const Cycle base = ping({}, sent0, occ0);
  EXPECT_EQ(ping({"adapter.mmachine.added_latency_cycles=40"}, sent1, occ1), base + 40);
  EXPECT_EQ(sent1, sent0);
  EXPECT_EQ(occ1, occ0);
  EXPECT_EQ(ping({"adapter.mmachine.send_stall_cycles=25"}, sent2, occ2), base + 25);
  EXPECT_EQ(sent2, sent0 + 25);
  EXPECT_EQ(occ2, occ0 + 25);
  Rig r({"adapter.mmachine.send_stall_cycles=25"});
  EXPECT_EQ(r.ad->send_cost(16, false), 5u + 25u + 2u);  // k_o + stall + 2 v_o
}

// [Lee 1999] §6.5.4, Figure 6-10: the interrupt handler checks for new messages before it
// returns, so a burst pays one interrupt (INT_MIN, how Table 6.4 derives BLKW for INT: BLKW_MM +
// 127, note b); int_max pays one per message; polling drains alike (note a: BLKW_MM + 19).
TEST(MMachine, ABurstPaysOneInterruptOrPollUnlessEachMisses) {
  auto last = [](const std::string& dispatch) {
    Rig r({"adapter.mmachine.dispatch=" + dispatch});
    for (MsgId i = 1; i <= 5; ++i) r.ad->start(Message{i, 0, 1, 80, false}, 0);  // five 10-word messages
    r.run();
    EXPECT_EQ(r.rec.arrived_at.size(), 5u);
    Cycle at = 0;
    for (const auto& [id, t] : r.rec.arrived_at) at = std::max(at, t);
    return at;
  };
  const Cycle thread = last("thread");
  EXPECT_EQ(last("int"), thread + 127);
  EXPECT_EQ(last("int_max"), thread + 5 * 127);
  EXPECT_EQ(last("pol"), thread + 19);
  EXPECT_EQ(last("pol_max"), thread + 5 * (19 + 121));
}
