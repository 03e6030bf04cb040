// The config keys energy.*: declarations (with each parameter's source), setters and getters.
#pragma once

#include <string>
#include <vector>

#include "tilempi/hwmodel/energy_parameters.h"
#include "tilempi/settings.h"

namespace tilempi::hwmodel {

struct EnergyKey {
  settings::Setting decl;  // default_value empty: the config's value is the default
  void (*set)(EnergyParameters&, const settings::Setting&, const std::string&);
  std::string (*get)(const EnergyParameters&);
};

// Every energy.* key, in the order `--set help` lists them.
const std::vector<EnergyKey>& energy_keys();

}  // namespace tilempi::hwmodel
