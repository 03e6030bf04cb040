#!/usr/bin/env bash
# Builds tilempi and runs the main job: MPI programs as 49 ranks on 7x7 tiles of the modeled 8x8 tilepro64 chip.
#   scripts/demo.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bash "$root/scripts/install-deps.sh"
# Warnings are not errors here (a build directory the tests configured with -Werror is reused).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTILEMPI_BUILD_TESTS=OFF -DTILEMPI_WERROR=OFF
cmake --build "$build" -j"$(nproc)"
bin=$build/bin
mkdir -p "$root/out"
echo
echo "== tilempi demo: 49 ranks on 7x7 tiles of the modeled TilePro64 (an 8x8 chip, 700 MHz, UDN adapter)"
"$bin/tilempirun" -n 49 --transport sim --preset tilepro64 --compute none \
  --report "$root/out/demo-report.json" "$bin/tilempi-demo"
if [ -x "$bin/tilempi-bench" ]; then
  echo
  echo "== Collective algorithms on the same mesh (virtual microseconds)"
  "$bin/tilempi-bench" --quick --plot "$root/out/demo-bench.png"
fi
echo
echo "Run report: $root/out/demo-report.json"
