// Fuzz target: the chip configuration as users give it (hwmodel/src/config.cpp): a preset name,
// then key=value text (--config FILE, --set, tilempi-noc --set), validation, the adapter
// models' own keys, and the round trip through to_text(). A bad value must throw ConfigError (or
// settings::Error) naming the key; anything else (a crash, another exception, a round trip that
// changes the configuration) is a bug.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_input.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/settings.h"

namespace hw = tilempi::hwmodel;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  // First line: the preset (an unknown one must be a ConfigError naming it); the rest: a file.
  const std::size_t nl = text.find('\n');
  const std::string preset = text.substr(0, nl);
  const std::string body = nl == std::string::npos ? "" : text.substr(nl + 1);
  hw::Config c;
  try {
    c = hw::Config::preset_named(preset);
  } catch (const hw::ConfigError&) {
    c = hw::Config::preset_named("default");
  }
  try {
    c.apply_text(body, "fuzz");
  } catch (const hw::ConfigError&) {
    return 0;
  } catch (const tilempi::settings::Error&) {
    return 0;
  }
  try {
    c.validate();
  } catch (const hw::ConfigError&) {
    return 0;
  }
  (void)c.ignored_settings();
  (void)c.declarations();
  for (const std::string& name : hw::adapter::Adapter::names()) {
    try {
      (void)hw::adapter::Adapter::create(name, c);
    } catch (const hw::ConfigError&) {
    }
  }
  // A valid configuration reads back as itself.
  const std::string once = c.to_text();
  hw::Config again = hw::Config::preset_named("default");
  again.apply_text(once, "round trip");
  if (again.to_text() != once) std::abort();
  return 0;
}
