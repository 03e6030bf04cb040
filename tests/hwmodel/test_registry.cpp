// The registries of presets and network models (hwmodel/include/tilempi/hwmodel/registry.h): what
// a user sees of them (the key network_model's choices and description, the error for an unknown
// name) is read from them, and every registered network model runs on every registered preset.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/config.h"

using namespace tilempi::hwmodel;

namespace {

const tilempi::settings::Setting& network_model_setting() {
  static const std::vector<tilempi::settings::Setting> decls = Config().declarations();
  const auto it = std::find_if(decls.begin(), decls.end(), [](const auto& d) { return d.name == "network_model"; });
  if (it == decls.end()) throw std::logic_error("no network_model key");
  return *it;
}

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(PresetRegistry, UnknownPresetNamesEveryRegisteredOneInOrder) {
  std::string list;
  for (const std::string& n : Config::preset_names()) list += (list.empty() ? "" : ", ") + n;
  EXPECT_EQ(error_of([] { Config::preset_named("bogus"); }), "unknown preset 'bogus' (" + list + ")");
  EXPECT_EQ(Config::preset_names().front(), "default");
}

TEST(PresetRegistry, EveryPresetHasHelpAndNamesItself) {
  for (const PresetEntry* e : Config::presets().entries()) {
    EXPECT_STRNE(e->help, "") << e->name;
    EXPECT_EQ(Config::preset_named(e->name).preset, e->name);
  }
}

TEST(NetworkModelRegistry, TheKeysChoicesAndDescriptionComeFromIt) {
  const tilempi::settings::Setting& s = network_model_setting();
  ASSERT_FALSE(s.choices.empty());
  EXPECT_EQ(s.choices.front(), "flit");  // the default, Config::network_model
  for (const std::string& m : s.choices) {
    EXPECT_NE(s.description.find(m + ": "), std::string::npos) << m << " not described: " << s.description;
    Config c;
    EXPECT_NO_THROW(c.set("network_model", m));
  }
  Config c;
  EXPECT_THROW(c.set("network_model", "bogus"), ConfigError);
  // A name set directly (not through set()) is checked when the chip is built.
  c.network_model = "bogus";
  EXPECT_THROW(Chip{c}, ConfigError);
}

// Every registered model on every registered preset: a packet alone takes the model's zero-load
// latency, as Chip::zero_load_latency computes it from the model's terms. The packet fits every
// preset's buffers (a longer one waits for credits where the credit loop is long, as on booksim).
TEST(NetworkModelRegistry, EveryModelRunsEveryPresetAtItsZeroLoadLatency) {
  for (const std::string& model : network_model_setting().choices) {
    for (const std::string& preset : Config::preset_names()) {
      SCOPED_TRACE(model + " on " + preset);
      Config c = Config::preset_named(preset);
      c.set("network_model", model);
      Chip chip(c);
      Cycle delivered = kNever;
      chip.on_delivered([&](const PacketEvent& e) { delivered = e.cycle; });
      const TileId far = static_cast<TileId>(c.num_tiles() - 1);
      chip.inject(0, 0, far, 2, 2, 1);
      chip.run_to_idle();
      EXPECT_EQ(delivered - 2, chip.zero_load_latency(0, far, 2));
    }
  }
}
