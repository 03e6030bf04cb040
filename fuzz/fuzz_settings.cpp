// Fuzz target: every declared setting's value parser (tilempi/settings.h): chip keys, sim.* keys,
// adapter keys and the environment variables of every layer, through to_integer, to_boolean,
// to_choice and check, as --set, --config and the variables reach them. A bad value must be a
// settings::Error naming the setting; a value accepted must lie in the declared range or choice.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../mpi/mpi_settings.h"
#include "fuzz_input.h"
#include "tilempi/hwmodel/adapter.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/heatmap.h"
#include "tilempi/settings.h"
#include "tilempi/transport/transport_settings.h"

namespace st = tilempi::settings;
namespace hw = tilempi::hwmodel;

namespace {

const std::vector<st::Setting>& every_setting() {
  static const std::vector<st::Setting> all = [] {
    std::vector<st::Setting> v;
    const hw::Config c = hw::Config::preset_named("tilepro64");
    for (auto& s : c.declarations()) v.push_back(s);
    for (auto& s : tilempi::transport::settings::sim_keys()) v.push_back(s);
    for (auto& s : tilempi::transport::settings::environment()) v.push_back(s);
    for (auto& s : tilempi::mpi::environment_settings()) v.push_back(s);
    v.push_back(hw::gnuplot_variable());
    for (const std::string& a : hw::adapter::Adapter::names())
      for (auto& s : hw::adapter::Adapter::declarations(a, c)) v.push_back(s);
    return v;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 1024) return 0;
  const auto& all = every_setting();
  const st::Setting& s = all[data[0] % all.size()];
  const std::string value(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (s.type) {
      case st::Type::integer: {
        const std::int64_t v = st::to_integer(s, value);
        if (v < s.lo || v > s.hi) std::abort();
        break;
      }
      case st::Type::boolean:
        (void)st::to_boolean(s, value);
        break;
      case st::Type::choice: {
        const std::string v = st::to_choice(s, value);
        bool listed = false;
        for (const std::string& c : s.choices) listed = listed || c == v;
        if (!listed) std::abort();
        break;
      }
      case st::Type::text:
        break;
    }
    st::check(s, value);
  } catch (const st::Error& e) {
    if (std::string(e.what()).empty()) std::abort();
  }
  // The sim.* keys as --set gives them: unknown ones are found by name.
  (void)tilempi::transport::settings::find_sim_key(value);
  return 0;
}
