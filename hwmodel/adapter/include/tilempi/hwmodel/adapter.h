// Network-adapter models: how a message becomes protocol packets on the modeled chip, and
// what the cores pay for sending and receiving it.
//
// An adapter has two halves. The core side is a set of pure cost functions of the config
// (the ranks of the sim transport call them without a chip). The network side injects the
// protocol's packets into a Chip and reports, through a Listener, when a message becomes
// visible at its receiver, when the sender's send completes and, for rendezvous messages,
// when the data has reached the receiver.
//
// Timing rule shared with the simulation engine: a core call made at cycle t affects the
// network no earlier than t + lookahead(); the engine calls start() and accept() with that
// call time once the chip has reached t + lookahead().
//
// Adapters know nothing of MPI: a message is (id, source tile, destination tile, bytes).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/registry.h"

namespace tilempi::hwmodel::adapter {

using MsgId = std::uint64_t;

struct Message {
  MsgId id = 0;
  TileId src = kNoTile;
  TileId dst = kNoTile;
  std::uint64_t bytes = 0;
  bool synchronous = false;  ///< completes only once the receiver took it
};

/// Collective transfers of one adapter slot ([Wallentowitz 2018] §3.3, NAMP-CC).
enum class CollKind : std::uint8_t {
  Multicast,  ///< the root's buffer to every destination of a list
  Scatter,    ///< the root's buffer, one part (base, size, count, stride) per destination
  Gather,     ///< every sender's buffer into one slot of the root's endpoint
  Reduce,     ///< every sender's buffer combined into the root's endpoint by the data path
};

/// A one-sided operation (remote memory access): the origin's core writes put_bytes into memory
/// that the target exposed, or reads get_bytes of it (one of the two is 0). How it travels is the
/// adapter's: RDMA packets served by the target's adapter (namp), the same with software steps
/// (rdma), or packets that an interrupt handler on the target's core serves (udn, ilib).
struct Remote {
  MsgId id = 0;
  TileId origin = kNoTile;
  TileId target = kNoTile;
  std::uint64_t put_bytes = 0;
  std::uint64_t get_bytes = 0;
};

/// A task's move from one tile to another during a run ([Wallentowitz 2018] §3.6.1, task
/// migration): the OS on `from` starts it at the cycle migrate() is called with. The adapter
/// moves the task's communication (its endpoint, the messages in flight to and from it) by the
/// method its config names, and says through the Listener when the task stops on `from` and when
/// it runs on `to`. Every message is delivered once and the messages between two tasks keep
/// their order.
struct Migration {
  MsgId id = 0;
  TileId from = kNoTile;
  TileId to = kNoTile;
};

/// Where an adapter reports protocol progress (the simulation engine implements it).
/// core_cycles: cycles that interrupt or handler code took from that core for this step.
class Listener {
 public:
  virtual ~Listener() = default;
  /// The receiver's core can now see the message (eager: data in its buffer; rendezvous: the request).
  virtual void arrived(MsgId id, Cycle at, Cycle core_cycles) = 0;
  /// The sender's send has completed.
  virtual void send_done(MsgId id, Cycle at, Cycle core_cycles) = 0;
  /// Rendezvous only: the data has reached the receiver (its fetch can complete).
  virtual void data_done(MsgId id, Cycle at, Cycle core_cycles) = 0;
  /// One-sided: the operation is complete at the target and known at the origin (a get's data
  /// is in the origin's memory); core_cycles: the origin core's work at the end (reading data).
  virtual void remote_done(MsgId id, Cycle at, Cycle core_cycles) {
    (void)id, (void)at, (void)core_cycles;
  }
  /// One-sided: the target's core spent core_cycles serving the operation, from cycle at.
  virtual void remote_served(MsgId id, Cycle at, Cycle core_cycles) {
    (void)id, (void)at, (void)core_cycles;
  }
  /// Task migration: the OS took core_cycles from the migrating task's core at `at` (phase I
  /// work on the old tile, [Wallentowitz 2018] Table 3.3).
  virtual void migration_work(MsgId id, Cycle at, Cycle core_cycles) { (void)id, (void)at, (void)core_cycles; }
  /// Task migration: the task stops on its old tile at `stop` and runs on the new one from
  /// `resume` (the switchover, phase II). Messages to it that arrive in between are seen from
  /// `resume` on.
  virtual void migration_switch(MsgId id, Cycle stop, Cycle resume) { (void)id, (void)stop, (void)resume; }
};

/// A documented tunable of an adapter: config key "adapter.<adapter>.<name>", a count of cycles,
/// words or bytes in [0, kParamMax].
struct Param {
  std::string name;
  std::uint64_t value = 0;
  std::string source;  ///< where the default comes from (a section of a docs/REFERENCES.md document, or a calibration note)
  std::uint64_t default_value = 0;
  /// A choice among names (value and default_value are indices into it); empty for a number.
  std::vector<std::string> choices;
  bool is_text = false;              ///< a text the adapter parses itself (text_param)
  std::string text{}, default_text{};  ///< a text parameter's value and default
  std::string range{};               ///< a text parameter's accepted values, in words
};
constexpr std::uint64_t kParamMax = 1ull << 40;

class Adapter;

/// A registered adapter (hwmodel/adapter/registered_adapters.h lists them; each adapter's file
/// defines its entry with TILEMPI_REGISTER_ADAPTER).
struct AdapterEntry {
  const char* name;
  const char* help;  ///< one line: what the adapter models, after which source
  /// The adapter on `config` (parameters from config.adapter, read by its constructor's param()
  /// calls, which are also its settings declarations: Adapter::declarations()).
  std::unique_ptr<Adapter> (*create)(const Config& config);
};

class Adapter {
 public:
  /// The registered adapters, in registration order (--adapter's help and every list of adapters).
  static const registry::Registry<AdapterEntry>& registry();
  /// A registered adapter by name; parameters from config.adapter. Throws ConfigError naming a
  /// bad key (unknown parameter of this adapter, malformed value) or an unknown adapter.
  static std::unique_ptr<Adapter> create(const std::string& name, const Config& config);
  /// The registered adapters' names, in registration order.
  static std::vector<std::string> names();
  /// The declaration of every key of adapter `name` (type, valid values, default for `config`,
  /// description and source of the default): `tilempirun --adapter NAME --set help` and the
  /// adapter tables of docs/SIM.md. Throws ConfigError for an unknown adapter.
  static std::vector<settings::Setting> declarations(const std::string& name, const Config& config);
  virtual ~Adapter() = default;

  virtual const char* name() const = 0;
  const std::vector<Param>& params() const { return params_; }

  // ---- core side (pure functions of the config)
  /// Does the data wait for the receiver's accept()?
  virtual bool rendezvous(std::uint64_t bytes, bool synchronous) const = 0;
  /// Cycles the sender's core spends inside the send call.
  virtual Cycle send_cost(std::uint64_t bytes, bool rendezvous) const = 0;
  /// True when the send is complete as soon as the call returns (no send_done follows).
  virtual bool send_completes_at_once(std::uint64_t bytes, bool rendezvous) const = 0;
  /// Cycles the receiver's core spends taking a message. Eager: charged in the fetch call.
  /// Rendezvous: the fetch completes at max(data_done, fetch call + recv_cost) (the core reads
  /// the data as it arrives).
  virtual Cycle recv_cost(std::uint64_t bytes, bool rendezvous) const = 0;
  /// Cycles of the fetch call of a rendezvous message (sending the go-ahead).
  virtual Cycle accept_cost() const = 0;
  /// Cycles of a poll that finds nothing.
  virtual Cycle poll_cost() const = 0;
  /// Cycles an event (an arrival, a completion) takes from the core before the waiting code
  /// runs again: an interrupt handler and the scheduler's path, say. They delay what the core
  /// learns, and the run report counts them per rank (handler_cycles).
  virtual Cycle wake_cycles() const { return 0; }
  /// Minimum cycles from a core call to its first effect on the network (>= 1).
  virtual Cycle lookahead() const = 0;

  /// Cycles the origin's core spends inside the call that starts a one-sided operation. The
  /// default: software on both cores over the adapter's message path (udn, ilib).
  virtual Cycle remote_issue_cost(std::uint64_t put_bytes, std::uint64_t get_bytes) const;

  // ---- network side
  /// The origin's core started a one-sided operation at `at` (as start()).
  virtual void remote_start(const Remote& r, Cycle at);
  void attach(Chip& chip, Listener& listener) {
    chip_ = &chip;
    out_ = &listener;
  }
  /// The sender's core called send at `at` (chip.now() <= at + lookahead()).
  virtual void start(const Message& m, Cycle at) = 0;
  /// The receiver's core took the message at `at` (rendezvous: go ahead; eager: buffer freed).
  virtual void accept(MsgId id, Cycle at) = 0;
  virtual void delivered(const PacketEvent& e) = 0;
  virtual void injected(const PacketEvent& e) = 0;
  /// What a delivered packet works for, by the id the transport gave it: the transport's run
  /// report charges each packet's energy to the MPI call its message belongs to
  /// (transport/sim/energy_account.h). Only the adapter can tell: its tags carry its own packet
  /// kinds and, for some, its own numbers (a slot, a fragment) rather than the id, and the ids of
  /// the families may coincide. Asked before delivered(e), while the adapter still holds the
  /// packet's message. Default: the tag's id field, one-sided from kind kRemoteFirst on.
  enum class TagFamily : std::uint8_t {
    message,    ///< a message or an offloaded collective transfer (start, start_spread, start_collect)
    one_sided,  ///< a one-sided operation (remote_start)
    migration,  ///< the adapter's own task-migration protocol (migrate)
  };
  struct PacketOwner {
    TagFamily family = TagFamily::message;
    MsgId id = 0;
    bool known = false;  ///< false: the packet serves no one message (flow control)
  };
  virtual PacketOwner packet_owner(const PacketEvent& e) const;
  // ---- collective offload (NAMP-CC): adapters without it keep these defaults.
  // Ids: a spread's group and parts, and a collect's group and parts, are message ids like any
  // other. The Listener hears: spread part -> arrived(part) at its destination; spread group ->
  // send_done(group) at the root once every part has left; collect part -> send_done(part) at its
  // sender; collect group -> arrived(group) at the root once every slot is complete.
  virtual bool collective_offload() const { return false; }
  /// Core cycles of the call that starts a collective transfer (root: configures the slot with
  /// the list; others: a sender's slot, or nothing for a receiver, which pays recv_cost() once
  /// its part is complete).
  virtual Cycle coll_call_cost(CollKind kind, bool root) const {
    (void)kind;
    (void)root;
    return 0;
  }
  /// The root (parts[i].src) sends parts[i].bytes to each parts[i].dst.
  virtual void start_spread(MsgId group, CollKind kind, const std::vector<Message>& parts, Cycle at) {
    (void)group, (void)kind, (void)parts, (void)at;
  }
  /// One sender's part of a gather or reduction into part.dst's endpoint of `slots` slots.
  virtual void start_collect(MsgId group, CollKind kind, const Message& part, int slots, Cycle at) {
    (void)group, (void)kind, (void)part, (void)slots, (void)at;
  }

  // ---- task migration ([Wallentowitz 2018] §3.6): adapters without it keep these defaults.
  /// Can a task move to another tile during the run?
  virtual bool migration() const { return false; }
  /// The method's name ("pause", "ps", ...), for reports.
  virtual std::string migration_method() const { return {}; }
  /// The OS starts moving the task on m.from to m.to at `at` (chip.now() <= at). The engine
  /// keeps giving m.from as the task's tile until the Listener hears migration_switch().
  virtual void migrate(const Migration& m, Cycle at) { (void)m, (void)at; }

  /// Protocol counters (retries, NACKs, ...).
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }
  /// Messages the adapter still tracks (for the engine's idle test).
  virtual std::size_t active() const = 0;

 protected:
  Adapter(std::string name, const Config& config) : config_(config), adapter_name_(std::move(name)) {}
  /// Declares a parameter with its default and source, reading an override from the config.
  std::uint64_t param(const std::string& name, std::uint64_t def, const std::string& source);
  /// Declares a parameter that names one of `choices` ("adapter.namp.wakeup=osqm"); returns the
  /// index of the configured one.
  std::size_t choice_param(const std::string& name, std::vector<std::string> choices, std::size_t def,
                           const std::string& source);
  /// Declares a text parameter (the adapter checks it and throws ConfigError naming the key).
  std::string text_param(const std::string& name, const std::string& def, const std::string& range,
                         const std::string& source);
  /// Throws ConfigError if the config names a parameter of this adapter that was not declared.
  void check_unknown() const;

  /// Payload flits of a message of `bytes` bytes.
  std::uint64_t flits_of(std::uint64_t bytes) const {
    const std::uint64_t fb = static_cast<std::uint64_t>(config_.flit_bytes);
    return (bytes + fb - 1) / fb;
  }
  /// Splits `flits` payload flits into packets and injects them; returns how many.
  std::uint32_t inject_stream(int channel, TileId src, TileId dst, std::uint64_t flits, Cycle at,
                              std::uint64_t tag);
  /// Channel c (a protocol's class of traffic) -> (network, vc class) of the chip.
  void channel_of(int c, int& network, int& vc) const;

  /// The default one-sided protocol (remote_start): true if the packet was one of its own
  /// (packet kinds kRemoteFirst..15, which no adapter's own protocol uses). Each adapter's
  /// delivered() and injected() ask it first.
  bool remote_delivered(const PacketEvent& e);
  static constexpr unsigned kRemoteFirst = 12;
  /// Operations of the default one-sided protocol in flight (part of active()).
  std::size_t remote_active() const { return remotes_.size(); }
  /// Words of address and length ahead of a one-sided operation's data.
  static constexpr std::uint64_t kRemoteHeaderBytes = 8;

 private:
  struct RemoteState {
    Remote r;
    std::uint32_t to_deliver = 0;
    Cycle first = 0;  ///< arrival of the first packet of the current stream
  };
  std::map<MsgId, RemoteState> remotes_;

 protected:

  Config config_;
  std::string adapter_name_;
  std::vector<Param> params_;
  Chip* chip_ = nullptr;
  Listener* out_ = nullptr;
};

/// A packet's tag, the one layout every adapter uses:
///
///   bits 60-63: the adapter's own (namp: a migration packet's sub-kind)
///   bits  4-59: the message id, as the transport gave it (below kMsgIdLimit, opaque here)
///   bits  0-3:  the packet kind (the adapter's own numbering)
///
/// The transport owns every bit of an id (transport/sim/sim_ids.h lays them out); an adapter
/// adds its own bits around it, never inside it.
inline constexpr unsigned kTagKindBits = 4;
inline constexpr unsigned kMsgIdBits = 56;
inline constexpr unsigned kTagOwnBits = 64 - kMsgIdBits - kTagKindBits;
inline constexpr MsgId kMsgIdLimit = MsgId{1} << kMsgIdBits;
static_assert(kTagOwnBits == 4);
/// The id field of a tag with the adapter's own bits in it: (own << kMsgIdBits) | id.
inline MsgId with_own_bits(MsgId id, unsigned own) { return (id & (kMsgIdLimit - 1)) | (MsgId{own} << kMsgIdBits); }
inline unsigned own_bits(MsgId field) { return static_cast<unsigned>(field >> kMsgIdBits); }
inline std::uint64_t make_tag(MsgId id, unsigned kind) { return (id << kTagKindBits) | (kind & 0xF); }
/// The id field (the message id, with the adapter's own bits if it set any).
inline MsgId tag_msg(std::uint64_t tag) { return tag >> kTagKindBits; }
inline unsigned tag_kind(std::uint64_t tag) { return static_cast<unsigned>(tag & 0xF); }

}  // namespace tilempi::hwmodel::adapter
