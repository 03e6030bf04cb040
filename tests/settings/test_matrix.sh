#!/usr/bin/env bash
# Every family of tests made over everything registered (tilempi_add_test_matrix with the default
# transports or ADAPTERS ALL) has a test for each transport, adapter and process model the
# launcher knows: a registered entry that CMake's lists miss, or a family written by hand over a
# fixed list, fails here.
#   test_matrix.sh TILEMPIRUN CTEST BUILD_DIR MATRIX_FILE SANITIZED(0|1)
# MATRIX_FILE (written by tests/CMakeLists.txt): one family per line,
#   TEMPLATE TRANSPORTS ADAPTERS MODELS [EXCEPT_ADAPTERS]
# (ALL: everything registered; lists joined by commas; - for none).
set -u

run=$1
ctest=$2
build=$3
matrix=$4
sanitized=$5

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# What the launcher offers: --transport A|B=default, --adapter NAME ...: a, b, c (default ...),
# sim.ranks=auto|contexts|processes.
help=$("$run" --help 2>&1)
read -r -a transports <<<"$(sed -n 's/^ *--transport \([a-z|]*\)=.*/\1/p' <<<"$help" | tr '|' ' ')"
read -r -a adapters <<<"$(sed -n 's/^ *--adapter NAME .*model: \([a-z0-9_, ]*\) (default.*/\1/p' <<<"$help" | tr -d ',')"
read -r -a models <<<"$("$run" --set help=sim 2>&1 | sed -n 's/^ *sim\.ranks=auto|\([a-z|]*\) .*/\1/p' | tr '|' ' ')"
[ ${#transports[@]} -gt 0 ] || fail "no transport in tilempirun --help"
[ ${#adapters[@]} -gt 0 ] || fail "no adapter in tilempirun --help"
[ ${#models[@]} -gt 0 ] || fail "no process model in tilempirun --set help=sim"
[ -s "$matrix" ] || fail "no family in $matrix"

tests=$("$ctest" --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
has() { grep -Fxq -- "$1" <<<"$tests" || fail "$2: no test $1"; }

families=0
checked=0
while read -r template family_transports family_adapters family_models except; do
  [ -n "$template" ] || continue
  families=$((families + 1))
  read -r -a ts <<<"${family_transports//,/ }"
  [ "$family_transports" = ALL ] && ts=("${transports[@]}")
  for t in "${ts[@]}"; do
    as=("-")
    if [ "$t" = sim ]; then
      read -r -a as <<<"${family_adapters//,/ }"
      [ "$family_adapters" = ALL ] && as=("${adapters[@]}")
    fi
    for a in "${as[@]}"; do
      [[ ",$except," == *,"$a",* ]] && continue
      name=${template//<transport>/$t}
      name=${name//<adapter>/$a}
      # <T:text>: the text on transport T only.
      name=$(sed -E "s/<$t:([^>]*)>/\\1/g; s/<[a-z]+:[^>]*>//g" <<<"$name")
      ms=("-")
      [ "$t" = sim ] && ms=("${models[@]}")
      for m in "${ms[@]}"; do
        [[ ",$family_models," == *,"$m",* || "$m" = - ]] || continue
        if [[ "$name" == *"<process_model>"* ]]; then
          # (A sanitized program cannot run as contexts.)
          [ "$sanitized" = 1 ] && [ "$m" = contexts ] && continue
          has "${name//<process_model>/$m}" "$template"
        elif [ "$m" = processes ]; then
          # (No twin under sanitizers, where the default runs ranks as processes.)
          [ "$sanitized" = 1 ] && continue
          has "$name.processes" "$template"
        else
          has "$name" "$template"
        fi
        checked=$((checked + 1))
      done
    done
  done
done <"$matrix"

[ "$failures" -eq 0 ] || exit 1
echo "ok: $families families, $checked tests over ${transports[*]} / ${adapters[*]} / ${models[*]}"
