// The core model of --compute model: the tile/host ratio from the measured host speed and the
// chip's cycles per reference-kernel element.
#include <gtest/gtest.h>

#include <cmath>

#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/core_model.h"

namespace tilempi::hwmodel {
namespace {

TEST(CoreModel, RatioMixesTheKernelsByTheFloatingPointShare) {
  Config c = Config::preset_named("tilepro64");
  c.core_int_cycles = 7;
  c.core_fp_cycles = 140;
  c.core_fp_percent = 25;
  // Host: 1 ns per integer element, 2 ns per floating-point element; tile at 700 MHz.
  const CoreRatio r = core_ratio(c, HostSpeed{1e-9, 2e-9});
  EXPECT_NEAR(r.int_ratio, 7.0 / 700e6 / 1e-9, 1e-9);   // 10x
  EXPECT_NEAR(r.fp_ratio, 140.0 / 700e6 / 2e-9, 1e-9);  // 100x
  EXPECT_NEAR(r.ratio, 0.25 * 100.0 + 0.75 * 10.0, 1e-9);
  EXPECT_NE(describe(r).find("a tile takes 32.5x this host's time"), std::string::npos) << describe(r);
}

TEST(CoreModel, ClockAndCyclesScaleTheTileSide) {
  Config c = Config::preset_named("default");
  c.core_fp_percent = 100;
  const HostSpeed h{1e-9, 1e-9};
  const double base = core_ratio(c, h).ratio;
  c.clock_hz *= 2;
  EXPECT_NEAR(core_ratio(c, h).ratio, base / 2, 1e-12);
  c.core_fp_cycles *= 3;
  EXPECT_NEAR(core_ratio(c, h).ratio, base * 1.5, 1e-12);
}

TEST(CoreModel, HostSpeedIsMeasuredAndPlausible) {
  const HostSpeed h = measure_host_speed();
  // A host core does one element of either kernel in well under a microsecond and in more than
  // a picosecond (the floor for a clock that could not see a run).
  for (double s : {h.int_s, h.fp_s}) {
    EXPECT_TRUE(std::isfinite(s));
    EXPECT_GT(s, 1e-12);
    EXPECT_LT(s, 1e-6);
  }
}

TEST(CoreModel, TheTilePro64HasNoFloatingPointHardware) {
  // [Yagna 2013] §2.1: no native floating point: a floating-point element costs the tile many
  // times an integer one; the presets with hardware floating point do not show that gap.
  const Config t = Config::preset_named("tilepro64");
  EXPECT_GE(t.core_fp_cycles, 10 * t.core_int_cycles);
  const Config m = Config::preset_named("mmachine");
  EXPECT_LT(m.core_fp_cycles, 2 * m.core_int_cycles);
}

}  // namespace
}  // namespace tilempi::hwmodel
