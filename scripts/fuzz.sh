#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, AddressSanitizer + UBSan, fuzz/CMakeLists.txt) and runs
# each for SECONDS (default 10) from its seed corpus (fuzz/corpus/<target>) and its regressions.
# A crash leaves its input in WORK/crashes/<target>/ and makes the script fail; add that file to
# fuzz/regressions/<target>/ when the bug is fixed, so the normal test suite replays it.
#
#   scripts/fuzz.sh [-t SECONDS] [-b BUILD_DIR] [-w WORK_DIR] [TARGET...]
#
# CI runs it with -t 5 (every target, 40 s of fuzzing in all); a long campaign:
#   nice -n 10 scripts/fuzz.sh -t 3600 config
# Prints per target: executions, new corpus entries, crashes; and one closing line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=10
build=$root/build-fuzz
work=""
while getopts "t:b:w:" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    b) build=$OPTARG ;;
    w) work=$OPTARG ;;
    *) echo "usage: $0 [-t SECONDS] [-b BUILD_DIR] [-w WORK_DIR] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(config settings coll_spec tilempirun_options noc_options bench fortran sim_requests)
fi
mkdir -p "$build"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Fortran stays out of this build: gfortran's sanitizer runtime is not clang's, and the Fortran
# bindings under test are C++.
# Debug configuration with -O0, NDEBUG (asserts as in the released build) and line tables only:
# quickest to compile (CI builds it from scratch; 5 s per target need no speed), symbolized
# stacks. Long campaigns: FUZZ_BUILD_TYPE=RelWithDebInfo (optimized).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${FUZZ_BUILD_TYPE:-Debug}" -DCMAKE_C_FLAGS_DEBUG="-O0 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_DEBUG="-O0 -gline-tables-only -DNDEBUG" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_Fortran_COMPILER=NOTFOUND -DTILEMPI_FUZZ=ON -DTILEMPI_BUILD_TESTS=OFF -DTILEMPI_BUILD_BENCH=OFF \
  "${launcher[@]}" > "$build/fuzz-configure.log" 2>&1 || { cat "$build/fuzz-configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target tilempi_fuzz > "$build/fuzz-build.log" 2>&1 || { tail -50 "$build/fuzz-build.log"; exit 1; }

keep=1
[ -n "$work" ] || { work=$(mktemp -d "${TMPDIR:-/tmp}/tilempi-fuzz.XXXXXX"); keep=0; }
mkdir -p "$work"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
unset TILEMPI_COLL TILEMPI_SIM_RANKS
failed=0
total_runs=0
printf '%-20s %12s %8s %8s\n' target executions corpus crashes
for t in "${targets[@]}"; do
  exe=$build/bin/fuzz_$t
  [ -x "$exe" ] || { echo "fuzz.sh: no target $t" >&2; exit 2; }
  corpus=$work/corpus/$t
  mkdir -p "$corpus" "$work/crashes/$t"
  cp -n "$root/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true
  seeds=()
  [ -d "$root/fuzz/regressions/$t" ] && seeds+=("$root/fuzz/regressions/$t")
  before=$(ls "$corpus" | wc -l)
  set +e
  (cd "$work" && "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
     -print_final_stats=1 -close_fd_mask=3 -artifact_prefix="$work/crashes/$t/" "$corpus" "${seeds[@]}") \
     > "$work/$t.log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$' || echo 0)
  total_runs=$((total_runs + ${runs:-0}))
  crashes=$(ls "$work/crashes/$t" | wc -l)
  printf '%-20s %12s %8s %8s\n' "$t" "${runs:-0}" "$(( $(ls "$corpus" | wc -l) - before ))" "$crashes"
  if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ]; then
    failed=$((failed + 1))
    echo "fuzz.sh: $t failed (exit $rc); its log: $work/$t.log" >&2
    grep -m5 -E 'ERROR|SUMMARY|Test unit written' "$work/$t.log" >&2 || tail -20 "$work/$t.log" >&2
  fi
done
if [ $failed -eq 0 ] && [ $keep -eq 0 ]; then
  rm -rf "$work"
  where="(work directory removed)"
else
  where="work directory $work"
fi
echo "fuzz: $total_runs executions in ${#targets[@]} targets of ${seconds} s; $where"
echo "fuzz: $(( ${#targets[@]} - failed )) targets without a crash, $failed with one"
[ $failed -eq 0 ]
