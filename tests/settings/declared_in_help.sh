#!/usr/bin/env bash
# Every setting declared in the sources is listed by `tilempirun --set help`, and every flag of
# `tilempirun --help` is an alias of a declared setting (or one of the few options that are not
# knobs, listed below with the reason):
#   declared_in_help.sh SOURCE_DIR TILEMPIRUN
# The declarations are found where they are written: the builders of tilempi/settings.h
# (settings::integer("NAME", ...), ...), the chip key table (int_key("NAME", ...), ...), the energy
# keys (TILEMPI_ENERGY_NUMBER(field, "NAME", ...)) and the adapters' param("NAME", ...).
set -u
src=$1
run=$2
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

work=$(mktemp -d "${TMPDIR:-/tmp}/tilempi-declared.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$run" --set help >"$work/help" 2>"$work/err" || fail "tilempirun --set help failed: $(cat "$work/err")"
# Every adapter's keys (--set help lists the chosen adapter's only).
adapters=$("$run" --adapter help | awk 'NR > 1 { print $1 }')
[ -n "$adapters" ] || fail "tilempirun --adapter help lists no adapter"
: >"$work/adapter_help"
for a in $adapters; do
  "$run" --adapter "$a" --set help=adapter >>"$work/adapter_help" 2>&1 || fail "--adapter $a --set help=adapter failed"
done

files=$(find "$src/hwmodel" "$src/transport" "$src/mpi" "$src/apps/tilempirun" \( -name '*.cpp' -o -name '*.h' \) -not -path '*/tests/*')
# shellcheck disable=SC2086
perl -0777 -ne '
  while (/(?:st|settings)::(?:integer|boolean|choice|text)\(\s*"([^"]+)"/g) { print "$1\n" unless $1 =~ /\.$/ }
  while (/\b(?:int_key|bool_key|text_key)\(\s*"([^"]+)"/g) { print "$1\n" }
  while (/TILEMPI_ENERGY_(?:NUMBER|BOOL)\(\s*\w+\s*,\s*"([^"]+)"/g) { print "energy.$1\n" }
' $files | sort -u >"$work/declared"
[ "$(wc -l <"$work/declared")" -gt 50 ] || fail "found only $(wc -l <"$work/declared") declarations in $src: the patterns are stale"
while read -r name; do
  grep -Fq -- "  $name=" "$work/help" || fail "declared setting $name is not listed by tilempirun --set help"
done <"$work/declared"

# shellcheck disable=SC2086
perl -0777 -ne 'while (/\bparam\(\s*"([^"]+)"/g) { print "$1\n" }' $(find "$src/hwmodel/adapter" -name '*.cpp') |
  sort -u >"$work/params"
[ -s "$work/params" ] || fail "found no adapter param() in $src/hwmodel/adapter"
while read -r key; do
  grep -Eq -- "^  adapter\.[a-z0-9_]+\.$key=" "$work/adapter_help" ||
    fail "adapter key $key is not listed by any --adapter NAME --set help=adapter"
done <"$work/params"

# The flags: every option of --help, against the [flag ...] notes of --set help.
"$run" --help >"$work/usage" 2>&1 || fail "tilempirun --help failed"
grep -Eo '^ +(-[A-Za-z0-9],)?--?[A-Za-z][-A-Za-z0-9]*' "$work/usage" | tr ',' '\n' | tr -d ' ' | sort -u >"$work/flags"
[ "$(wc -l <"$work/flags")" -gt 10 ] || fail "found only $(wc -l <"$work/flags") flags in tilempirun --help"
# Options that are not knobs of a job: they ask for help, name a setting to set, or pass
# variables to the program; and mpiexec spellings that tilempi accepts and ignores.
not_knobs=" -h --help --version --set --format -x --genv --genvall --host --hostfile --oversubscribe --allow-run-as-root --mca --map-by "
while read -r flag; do
  case "$not_knobs" in *" $flag "*) continue ;; esac
  grep -Eq -- "\[flag (.*, )?$flag( \([^)]*\))?(,|\])" "$work/help" ||
    fail "flag $flag of tilempirun --help is not the alias of a declared setting ([flag $flag] in --set help)"
done <"$work/flags"
# A flag named as an alias exists.
grep -Eo '\[flag [^]]*\]' "$work/help" | sed 's/^\[flag //; s/\]$//' | tr ',' '\n' | sed 's/ (.*//; s/^ *//' | sort -u |
  while read -r flag; do
    grep -Fxq -- "$flag" "$work/flags" || echo "FAIL: --set help names flag $flag, which tilempirun --help does not have"
  done >"$work/stale"
if [ -s "$work/stale" ]; then
  cat "$work/stale"
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "--- declared"; tr '\n' ' ' <"$work/declared"; echo
  echo "--- flags"; tr '\n' ' ' <"$work/flags"; echo
  exit 1
fi
echo "PASS: $(wc -l <"$work/declared") declarations, $(wc -l <"$work/params") adapter keys, $(wc -l <"$work/flags") flags"
