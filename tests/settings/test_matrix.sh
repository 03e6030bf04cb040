#!/usr/bin/env bash
# Every family of tests made over everything registered (tilempi_add_test_matrix with the default
# transports, or ADAPTERS, PRESETS or NETWORK_MODELS ALL) has a test for each transport, adapter,
# preset, network model and process model the launcher offers: a registered entry that CMake's
# lists miss, or a family written by hand over a fixed list, fails here.
#   test_matrix.sh TILEMPIRUN CTEST BUILD_DIR MATRIX_FILE SANITIZED(0|1)
# MATRIX_FILE (written by tests/CMakeLists.txt): one family per line,
#   TEMPLATE TRANSPORTS ADAPTERS PRESETS NETWORK_MODELS PROCESS_MODELS [EXCEPT_ADAPTERS]
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

# What the launcher offers: --transport A|B=default; --adapter NAME and --preset NAME: "...: a, b,
# c (default ..."; network_model=a|b|c; sim.ranks=auto|contexts|processes.
help=$("$run" --help 2>&1)
chip=$("$run" --set help=chip 2>&1)
read -r -a transports <<<"$(sed -n 's/^ *--transport \([a-z|]*\)=.*/\1/p' <<<"$help" | tr '|' ' ')"
read -r -a adapters <<<"$(sed -n 's/^ *--adapter NAME .*: \([a-z0-9_, ]*\) (default.*/\1/p' <<<"$help" | tr -d ',')"
read -r -a presets <<<"$(sed -n 's/^ *--preset NAME .*: \([a-z0-9_, ]*\) (default.*/\1/p' <<<"$help" | tr -d ',')"
read -r -a networks <<<"$(sed -n 's/^ *network_model=\([a-z0-9_|]*\) .*/\1/p' <<<"$chip" | tr '|' ' ')"
read -r -a models <<<"$("$run" --set help=sim 2>&1 | sed -n 's/^ *sim\.ranks=auto|\([a-z|]*\) .*/\1/p' | tr '|' ' ')"
for list in transports adapters presets networks models; do
  declare -n l=$list
  [ ${#l[@]} -gt 0 ] || fail "no $list in what tilempirun shows"
done
[ -s "$matrix" ] || fail "no family in $matrix"

tests=$("$ctest" --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
has() { grep -Fxq -- "$1" <<<"$tests" || fail "$2: no test $1"; }
# entries FIELD ALL-LIST...: the family's entries of one dimension (ALL: the launcher's list).
entries() {
  local field=$1
  shift
  case $field in
    ALL) echo "$*" ;;
    -) echo "-" ;;
    *) echo "${field//,/ }" ;;
  esac
}

families=0
checked=0
while read -r template f_transports f_adapters f_presets f_networks f_models except; do
  [ -n "$template" ] || continue
  families=$((families + 1))
  for t in $(entries "$f_transports" "${transports[@]}"); do
    as="-" ps="-" ns="-" ms="-"
    if [ "$t" = sim ]; then
      as=$(entries "$f_adapters" "${adapters[@]}")
      ps=$(entries "$f_presets" "${presets[@]}")
      ns=$(entries "$f_networks" "${networks[@]}")
      ms=$(entries "$f_models" "${models[@]}")
    fi
    for a in $as; do
      [[ ",$except," == *,"$a",* ]] && continue
      for p in $ps; do
        for n in $ns; do
          name=${template//<transport>/$t}
          name=${name//<adapter>/$a}
          name=${name//<preset>/$p}
          name=${name//<network_model>/$n}
          # <T:text>: the text on transport T only.
          name=$(sed -E "s/<$t:([^>]*)>/\\1/g; s/<[a-z]+:[^>]*>//g" <<<"$name")
          for m in $ms; do
            if [[ "$name" == *"<process_model>"* ]]; then
              # (A sanitized program cannot run as contexts.)
              [ "$sanitized" = 1 ] && [ "$m" = contexts ] && continue
              has "${name//<process_model>/$m}" "$template"
            elif [ "$m" = contexts ] || [ "$m" = - ]; then
              has "$name" "$template"  # (the default, sim.ranks=auto)
            else
              # (No twin under sanitizers, where the default runs ranks as processes.)
              [ "$sanitized" = 1 ] && continue
              has "$name.$m" "$template"
            fi
            checked=$((checked + 1))
          done
        done
      done
    done
  done
done <"$matrix"

[ "$failures" -eq 0 ] || exit 1
echo "ok: $families families, $checked tests over ${transports[*]} / ${adapters[*]} / ${presets[*]} / ${networks[*]} / ${models[*]}"
