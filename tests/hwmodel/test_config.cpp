#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tilempi/hwmodel/config.h"

using namespace tilempi::hwmodel;

namespace {
// The exception's message must name the key.
void expect_error_naming(const std::function<void()>& f, const std::string& key) {
  try {
    f();
    ADD_FAILURE() << "no error for " << key;
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), key);
    EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(Config, PresetsCarryTheValuesOfTheirSources) {
  Config t = Config::preset_named("tilepro64");
  EXPECT_EQ(t.width, 8);
  EXPECT_EQ(t.height, 8);
  EXPECT_DOUBLE_EQ(t.clock_hz, 700e6);
  EXPECT_EQ(t.flit_bytes, 4);
  EXPECT_EQ(t.max_payload_flits(), 128);
  EXPECT_EQ(t.ejection_buffer_flits, 118);
  EXPECT_TRUE(t.static_network);
  EXPECT_FALSE(t.torus);

  Config o = Config::preset_named("optimsoc");
  EXPECT_EQ(o.width, 4);
  EXPECT_EQ(o.height, 4);
  EXPECT_EQ(o.flit_bytes, 4);
  EXPECT_EQ(o.input_buffer_flits, 4);
  EXPECT_EQ(o.output_buffer_flits, 4);
  EXPECT_EQ(o.vcs, 4);
  EXPECT_EQ(o.header_flits, 2);
  EXPECT_EQ(o.max_packet_flits, 32);

  Config m = Config::preset_named("mmachine");
  EXPECT_EQ(m.input_buffer_flits, 6);
  EXPECT_EQ(m.credit_delay, 5);
  EXPECT_EQ(m.vcs, 4);

  for (const std::string& name : Config::preset_names()) EXPECT_NO_THROW(Config::preset_named(name).validate());
  expect_error_naming([] { Config::preset_named("tilepro65"); }, "tilepro65");
}

TEST(Config, OverridesAndErrorsNameTheKey) {
  Config c = Config::preset_named("tilepro64");
  c.apply("router_delay=2");
  c.apply(" width = 7 ");
  c.set("clock_hz", "1.2G");
  c.set("torus", "yes");
  c.set("mapping", "list:3,2,1,0");
  EXPECT_EQ(c.router_delay, 2);
  EXPECT_EQ(c.width, 7);
  EXPECT_DOUBLE_EQ(c.clock_hz, 1.2e9);
  EXPECT_TRUE(c.torus);
  EXPECT_EQ(c.get("router_delay"), "2");
  expect_error_naming([&] { c.apply("routr_delay=2"); }, "routr_delay");
  expect_error_naming([&] { c.apply("router_delay=fast"); }, "router_delay");
  expect_error_naming([&] { c.apply("router_delay=0"); }, "router_delay");
  expect_error_naming([&] { c.apply("width=2x"); }, "width");
  expect_error_naming([&] { c.apply("torus=maybe"); }, "torus");
  expect_error_naming([&] { c.apply("clock_hz=-5"); }, "clock_hz");
  expect_error_naming([&] { c.apply("mapping=diagonal"); }, "mapping");
  expect_error_naming([&] { c.apply("novalue"); }, "novalue");
  // Adapter keys are kept for the adapter models.
  c.apply("adapter.kind=namp");
  EXPECT_EQ(c.adapter.at("adapter.kind"), "namp");
  EXPECT_EQ(c.get("adapter.kind"), "namp");
}

TEST(Config, ValidateChecksConsistency) {
  Config c;
  c.max_packet_flits = 1;
  expect_error_naming([&] { c.validate(); }, "max_packet_flits");
  Config t;
  t.torus = true;
  t.vcs = 3;
  expect_error_naming([&] { t.validate(); }, "vcs");
}

TEST(Config, FileWithCommentsAndRoundTrip) {
  const std::string path = ::testing::TempDir() + "/hwmodel_cfg_test.cfg";
  {
    std::ofstream f(path);
    f << "# a test chip\nwidth=5   # columns\n\nheight = 3\nrouter_delay=4\n";
  }
  Config c;
  c.apply_file(path);
  EXPECT_EQ(c.width, 5);
  EXPECT_EQ(c.height, 3);
  EXPECT_EQ(c.router_delay, 4);
  {
    std::ofstream f(path);
    f << "width=5\nbogus_key=1\n";
  }
  try {
    c.apply_file(path);
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "bogus_key");
    EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();
  }
  expect_error_naming([&] { c.apply_file("/nonexistent/x.cfg"); }, "/nonexistent/x.cfg");
  // to_text() loads back to the same values.
  Config a = Config::preset_named("optimsoc");
  a.apply("adapter.channels=4");
  Config b;
  b.apply_text(a.to_text());
  EXPECT_EQ(a.to_text(), b.to_text());
  std::remove(path.c_str());
  for (const std::string& k : Config::keys()) EXPECT_FALSE(Config::describe(k).empty());
}
