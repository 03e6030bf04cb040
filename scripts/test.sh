#!/usr/bin/env bash
# Builds tilempi and runs every test but the long ones: the README's test command.
#   scripts/test.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
bash "$root/scripts/install-deps.sh"
# Every option the tests need is set here: the build directory may have been configured by demo.sh.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEMPI_WERROR=ON -DTILEMPI_BUILD_TESTS=ON "$@"
cmake --build "$build" -j"$(nproc)"
cd "$build"
# The tests labelled "long" (collectives across 2 GiB: several minutes, one at a time) are left
# to CI, which runs them after this command: ctest --test-dir BUILD_DIR -L long
# TILEMPI_TEST_EXCLUDE (a CTest -E regular expression) leaves out more tests by name: CI's
# sanitizer stage uses it (.ci/run says which and why).
exclude=()
if [ -n "${TILEMPI_TEST_EXCLUDE:-}" ]; then exclude=(-E "$TILEMPI_TEST_EXCLUDE"); fi
ctest --output-on-failure --no-tests=error -j"$(nproc)" --timeout 600 -LE long "${exclude[@]}"
