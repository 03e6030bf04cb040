// Unit tests of the declared settings (tilempi/settings.h): checked conversions, the listings,
// and that the chip's and the adapters' declarations agree with what their parsers accept.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/settings.h"
#include "tilempi/transport/job_settings.h"
#include "tilempi/transport/transport_settings.h"

namespace st = tilempi::settings;
namespace hw = tilempi::hwmodel;
namespace ts = tilempi::transport::settings;

namespace {

/// The message of the Error that `f` throws ("" when it throws none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const st::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Settings, IntegerIsCheckedAndNamesTheRange) {
  const st::Setting s = st::integer("TILEMPI_TEST_N", st::Source::environment, 2, 10, "4", "a test");
  EXPECT_EQ(st::to_integer(s, "2"), 2);
  EXPECT_EQ(st::to_integer(s, "10"), 10);
  for (const char* bad : {"abc", "", "1", "11", "5x", " 5", "-3", "0x5"}) {
    const std::string m = error_of([&] { st::to_integer(s, bad); });
    EXPECT_EQ(m, "environment variable TILEMPI_TEST_N: bad value '" + std::string(bad) +
                     "': expected an integer in [2, 10]")
        << bad;
  }
  // A narrower range known at run time is the one the message gives.
  EXPECT_TRUE(contains(error_of([&] { st::to_integer(s, "9", 2, 8); }), "expected an integer in [2, 8]"));
}

TEST(Settings, BooleanAndChoice) {
  const st::Setting b = st::boolean("sim.flag", st::Source::sim, "true", "");
  for (const char* t : {"1", "true", "yes", "on"}) EXPECT_TRUE(st::to_boolean(b, t));
  for (const char* f : {"0", "false", "no", "off"}) EXPECT_FALSE(st::to_boolean(b, f));
  EXPECT_TRUE(contains(error_of([&] { st::to_boolean(b, "maybe"); }),
                       "config key 'sim.flag': bad value 'maybe': expected a boolean"));
  const st::Setting c = st::choice("mode", st::Source::chip, {"a", "b"}, "a", "");
  EXPECT_EQ(st::to_choice(c, "b"), "b");
  EXPECT_EQ(error_of([&] { st::to_choice(c, "A"); }), "config key 'mode': bad value 'A': expected one of a, b");
}

TEST(Settings, EnvironmentUnsetSetAndBad) {
  const st::Setting s = st::integer("TILEMPI_SETTINGS_UNIT_TEST", st::Source::environment, 0, 100, "", "");
  ::unsetenv(s.name.c_str());
  EXPECT_FALSE(st::env_integer(s).has_value());
  ::setenv(s.name.c_str(), "", 1);
  EXPECT_FALSE(st::env_integer(s).has_value());  // empty counts as unset
  ::setenv(s.name.c_str(), "42", 1);
  EXPECT_EQ(st::env_integer(s).value(), 42);
  ::setenv(s.name.c_str(), "abc", 1);
  EXPECT_THROW(st::env_integer(s), st::Error);
  ::unsetenv(s.name.c_str());
}

TEST(Settings, HostChunkIsAPowerOfTwoWithinTheArena) {
  ::setenv("TILEMPI_HOST_CHUNK", "8192", 1);
  EXPECT_EQ(ts::host_chunk(1 << 20).value(), 8192u);
  ::setenv("TILEMPI_HOST_CHUNK", "12288", 1);
  EXPECT_TRUE(contains(error_of([] { ts::host_chunk(1 << 20); }), "expected a power of two in [4096, 524288]"));
  ::setenv("TILEMPI_HOST_CHUNK", "131072", 1);
  EXPECT_TRUE(contains(error_of([] { ts::host_chunk(128 << 10); }), "expected a power of two in [4096, 65536]"));
  ::unsetenv("TILEMPI_HOST_CHUNK");
  EXPECT_FALSE(ts::host_chunk(1 << 20).has_value());
}

TEST(Settings, MarkdownEscapesCells) {
  const st::Setting s = st::text("k", st::Source::chip, "a|b", "x", "one | two");
  const std::string md = st::format_markdown({s});
  EXPECT_TRUE(contains(md, "| `k` | a\\|b | x | one \\| two |")) << md;
}

// One source of truth: every chip key is declared, and each integer key's declared range is
// exactly what Config::set accepts.
TEST(Settings, ChipDeclarationsMatchTheParser) {
  const hw::Config base = hw::Config::preset_named("default");
  const auto decls = base.declarations();
  ASSERT_EQ(decls.size(), hw::Config::keys().size());
  for (const st::Setting& d : decls) {
    EXPECT_EQ(d.source, st::Source::chip);
    EXPECT_FALSE(d.description.empty()) << d.name;
    EXPECT_EQ(d.default_value, base.get(d.name)) << d.name;
    hw::Config c = base;
    if (d.type == st::Type::integer) {
      EXPECT_NO_THROW(c.set(d.name, std::to_string(d.lo))) << d.name;
      c = base;
      EXPECT_NO_THROW(c.set(d.name, std::to_string(d.hi))) << d.name;
      for (std::int64_t out : {d.lo - 1, d.hi + 1}) {
        c = base;
        try {
          c.set(d.name, std::to_string(out));
          ADD_FAILURE() << d.name << "=" << out << " was accepted";
        } catch (const hw::ConfigError& e) {
          EXPECT_EQ(e.key(), d.name);
          EXPECT_TRUE(contains(e.what(), "[" + std::to_string(d.lo) + ", " + std::to_string(d.hi) + "]")) << e.what();
        }
      }
    } else if (d.type == st::Type::boolean || d.type == st::Type::choice) {
      const std::vector<std::string> values =
          d.type == st::Type::boolean ? std::vector<std::string>{"true", "false"} : d.choices;
      for (const std::string& v : values) {
        c = base;
        EXPECT_NO_THROW(c.set(d.name, v)) << d.name << "=" << v;
      }
      EXPECT_THROW(c.set(d.name, "no-such-value"), hw::ConfigError) << d.name;
    }
  }
}

TEST(Settings, AdapterDeclarationsMatchTheParser) {
  const hw::Config chip = hw::Config::preset_named("tilepro64");
  for (const std::string& name : hw::adapter::Adapter::names()) {
    const auto decls = hw::adapter::Adapter::declarations(name, chip);
    ASSERT_FALSE(decls.empty()) << name;
    for (const st::Setting& d : decls) {
      EXPECT_EQ(d.source, st::Source::adapter);
      EXPECT_TRUE(d.name.rfind("adapter." + name + ".", 0) == 0) << d.name;
      hw::Config c = chip;
      if (d.type != st::Type::integer) {
        // A choice takes each of its words, a text its default; both refuse nonsense, naming the key.
        for (const std::string& v : d.type == st::Type::choice ? d.choices : std::vector<std::string>{d.default_value}) {
          c.set(d.name, v);
          EXPECT_NO_THROW(hw::adapter::Adapter::create(name, c)) << d.name << "=" << v;
        }
        c.set(d.name, "no-such-value");
        try {
          hw::adapter::Adapter::create(name, c);
          ADD_FAILURE() << d.name << " accepted no-such-value";
        } catch (const hw::ConfigError& e) {
          EXPECT_EQ(e.key(), d.name);
          if (d.type == st::Type::choice) {
            EXPECT_TRUE(contains(e.what(), "expected one of")) << e.what();
          }
        }
        continue;
      }
      c.set(d.name, std::to_string(d.hi));
      EXPECT_NO_THROW(hw::adapter::Adapter::create(name, c)) << d.name;
      c.set(d.name, std::to_string(d.hi + 1));
      try {
        hw::adapter::Adapter::create(name, c);
        ADD_FAILURE() << d.name << " accepted " << d.hi + 1;
      } catch (const hw::ConfigError& e) {
        EXPECT_EQ(e.key(), d.name);
        EXPECT_TRUE(contains(e.what(), "expected an integer in [0, " + std::to_string(d.hi) + "]")) << e.what();
      }
    }
  }
  // The listing shows the defaults, not overrides.
  hw::Config c = chip;
  c.set("adapter.udn.poll_cycles", "99");
  for (const st::Setting& d : hw::adapter::Adapter::declarations("udn", c)) {
    if (d.name == "adapter.udn.poll_cycles") {
      EXPECT_EQ(d.default_value, "4");
    }
  }
}

TEST(Settings, SimKeysAreFound) {
  for (const st::Setting& d : ts::sim_keys()) {
    EXPECT_EQ(d.source, st::Source::sim);
    ASSERT_NE(ts::find_sim_key(d.name), nullptr) << d.name;
    EXPECT_EQ(ts::find_sim_key(d.name)->name, d.name);
  }
  EXPECT_EQ(ts::find_sim_key("sim.nothing"), nullptr);
  for (const st::Setting& d : ts::environment()) EXPECT_EQ(d.source, st::Source::environment);
}

// One default per knob: a job's sim settings start at their declarations' defaults, parsed by the
// same parser as a user's value.
TEST(Settings, SimSettingsStartAtTheirDeclaredDefaults) {
  const tilempi::transport::SimSettings s;
  EXPECT_EQ(s.preset, ts::sim_preset().default_value);
  EXPECT_EQ(s.adapter, ts::sim_adapter().default_value);
  EXPECT_EQ(s.compute.text, ts::sim_compute().default_value);
  EXPECT_EQ(s.compute.kind, tilempi::transport::ComputeMode::Kind::model);
  EXPECT_EQ(std::to_string(s.stack_kib), ts::sim_stack_kib().default_value);
  EXPECT_TRUE(s.summary);
  EXPECT_EQ(ts::sim_summary().default_value, "true");
  EXPECT_EQ(s.progress, tilempi::transport::ProgressMode::automatic);
  EXPECT_EQ(ts::sim_progress().default_value, "auto");
  EXPECT_TRUE(s.given.empty());
  EXPECT_TRUE(s.chip_keys.empty() && s.migrations.empty() && s.report.empty() && s.trace.empty());
}

// Every sim key goes through its declaration: a bad value is an Error naming the key and the
// value; a chip key is checked when it is set; an unknown sim key names the known ones.
TEST(Settings, SimSettingsCheckEveryValueByItsDeclaration) {
  tilempi::transport::SimSettings s;
  for (const auto& [key, value] : {std::pair{"sim.compute", "fast"}, std::pair{"sim.compute", "scale:"},
                                   std::pair{"sim.stack_kib", "12"}, std::pair{"sim.summary", "maybe"},
                                   std::pair{"sim.ranks", "threads"}, std::pair{"sim.progress", "loud"},
                                   std::pair{"sim.migrate", "1:2"}, std::pair{"sim.arena_mib", "0"}}) {
    const std::string e = error_of([&, key = key, value = value] { s.set(key, value); });
    EXPECT_TRUE(contains(e, std::string("config key '") + key + "': bad value '" + value + "'")) << e;
  }
  EXPECT_TRUE(contains(error_of([&] { s.set("sim.preset", "nochip"); }), "unknown preset 'nochip'"));
  EXPECT_TRUE(contains(error_of([&] { s.set("sim.adapter", "none"); }), "unknown adapter 'none'"));
  EXPECT_TRUE(contains(error_of([&] { s.set("sim.nothing", "1"); }), "unknown config key 'sim.nothing' (sim keys: "));
  EXPECT_TRUE(contains(error_of([&] { s.set("width", "0"); }), "config key 'width': bad value '0'"));
  EXPECT_TRUE(s.chip_keys.empty());
  s.set("sim.compute", "scale:0.5");
  EXPECT_EQ(s.compute.kind, tilempi::transport::ComputeMode::Kind::scale);
  EXPECT_DOUBLE_EQ(s.compute.factor, 0.5);
  s.set("sim.migrate", "1:5@100,2:6@200");
  s.set("sim.migrate", "0:7@300");
  EXPECT_EQ(tilempi::transport::migrations_text(s.migrations), "1:5@100,2:6@200,0:7@300");
  s.set("width", "4");
  ASSERT_EQ(s.chip_keys.size(), 1u);
  EXPECT_EQ(s.chip_keys[0].first, "width");
}

// Every sim key with a flag names it, and a flag names one setting only.
TEST(Settings, SimFlagsAreUnique) {
  std::map<std::string, std::string> owner;
  for (const st::Setting& d : ts::sim_keys())
    for (const std::string& f : d.flags) {
      const std::string flag = f.substr(0, f.find(' '));
      if (flag == "--quiet") continue;  // one flag, two settings (sim.progress=off, sim.summary=false)
      EXPECT_TRUE(owner.emplace(flag, d.name).second) << flag << " names " << owner[flag] << " and " << d.name;
    }
  EXPECT_EQ(owner.count("--adapter"), 1u);
}
