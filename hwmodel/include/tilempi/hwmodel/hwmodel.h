// Everything of the chip model.
#pragma once

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/config.h"
#include "tilempi/hwmodel/heatmap.h"
#include "tilempi/hwmodel/stats.h"
#include "tilempi/hwmodel/topology.h"
