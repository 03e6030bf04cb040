#!/usr/bin/env bash
# Every registered adapter, preset and network model appears, in registration order, in every
# list derived from the registries: CMake's lists (read from the registration lines, which the
# tests that run for each entry loop over), tilempirun's --help, the unknown-name errors,
# `--set help`'s choices of network_model, each adapter's `--set help=adapter` and tilempi-noc's
# --preset. A list written by hand, or a registration CMake misreads, fails here.
#   registry_lists.sh TILEMPIRUN TILEMPI-NOC|- "ADAPTERS" "PRESETS" "NETWORK_MODELS"
# (the last three: CMake's lists, names separated by spaces).
set -u

run=$1
noc=$2
read -r -a adapters <<<"$3"
read -r -a presets <<<"$4"
read -r -a models <<<"$5"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
joined() {  # joined SEPARATOR NAME...
  local sep=$1 out=""
  shift
  for n in "$@"; do out+="${out:+$sep}$n"; done
  printf '%s' "$out"
}
expect_in() {  # expect_in WHAT TEXT FIXED-STRING
  grep -Fq -- "$3" <<<"$2" || fail "$1 does not contain: $3"
}

[ ${#adapters[@]} -gt 0 ] && [ ${#presets[@]} -gt 0 ] && [ ${#models[@]} -gt 0 ] || fail "an empty list from CMake"

help=$("$run" --help 2>&1)
expect_in "tilempirun --help" "$help" "$(joined ", " "${adapters[@]}")"
expect_in "tilempirun --help" "$help" "$(joined ", " "${presets[@]}")"

err=$("$run" --adapter bogus --set help 2>&1)
expect_in "the unknown-adapter error" "$err" "unknown adapter 'bogus' ($(joined ", " "${adapters[@]}"))"
err=$("$run" --preset bogus --set help 2>&1)
expect_in "the unknown-preset error" "$err" "unknown preset 'bogus' ($(joined ", " "${presets[@]}"))"

chip=$("$run" --set help=chip 2>&1)
expect_in "--set help=chip" "$chip" "network_model=$(joined "|" "${models[@]}") "
for m in "${models[@]}"; do expect_in "network_model's description" "$chip" "$m: "; done

for a in "${adapters[@]}"; do
  keys=$("$run" --adapter "$a" --set help=adapter 2>&1)
  expect_in "--adapter $a --set help=adapter" "$keys" "Keys of adapter $a "
  expect_in "--adapter $a --set help=adapter" "$keys" "adapter.$a."
done
for p in "${presets[@]}"; do
  keys=$("$run" --preset "$p" --set help=chip 2>&1)
  expect_in "--preset $p --set help=chip" "$keys" "defaults of --preset $p,"
done

if [ "$noc" != "-" ]; then
  noc_help=$("$noc" --help 2>&1)
  expect_in "tilempi-noc --help" "$noc_help" "$(joined ", " "${presets[@]}")"
fi

[ "$failures" -eq 0 ] || exit 1
echo "ok: ${#adapters[@]} adapters, ${#presets[@]} presets, ${#models[@]} network models in every derived list"
