#!/usr/bin/env bash
# ThreadSanitizer where threads meet: builds the library, the launcher and the tests with
# -fsanitize=thread (build-tsan/) and runs the tests in which threads share memory: the sim
# engine's thread beside the launcher's (ranks as processes; under a sanitizer sim.ranks=auto
# runs them so), the host transport with its launcher, ranks that start OpenMP threads, and the
# fault and random-argument tests. A data race makes the test fail (TSAN_OPTIONS halt_on_error).
#
#   scripts/tsan.sh [BUILD_DIR] [CTEST_REGEX]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-tsan}
regex=${2:-'^(transport\.|sim\.|reliability\.|launcher\.(signal|status|exit-others-killed|timeout|many-ranks))'}
mkdir -p "$build"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                                            -DCMAKE_Fortran_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEMPI_BUILD_TESTS=ON -DTILEMPI_WERROR=ON \
  -DTILEMPI_SANITIZE=thread -DTILEMPI_BUILD_BENCH=OFF "${launcher[@]}" > "$build/tsan-configure.log"
cmake --build "$build" -j"$(nproc)" > "$build/tsan-build.log" 2>&1 || { tail -40 "$build/tsan-build.log"; exit 1; }
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
cd "$build"
ctest --output-on-failure --no-tests=error -j"$(nproc)" --timeout 600 -R "$regex"
