#!/bin/sh
# Builds the NPB kernels against the system MPI (MPICH from Debian) and, with
# --check, verifies class S on 1, 2 and 4 ranks with mpirun. This is the
# check that the kernels are honest MPI codes using only mpi.h.
#
# usage: npb/build-with-mpich.sh [--check] [--ranks "1 2 4"] [--class S] [BUILD_DIR]
# (default BUILD_DIR: build-npb-mpich next to the source checkout)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
check=0
ranks="1 2 4"
class=S
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --ranks) shift; ranks=$1 ;;
    --class) shift; class=$1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) build=$1 ;;
  esac
  shift
done
[ -n "$build" ] || build="$here/../../build-npb-mpich"
# Debian's MPICH names: mpicc.mpich and mpirun.mpich (mpicc/mpirun may point
# at another MPI through the alternatives system). Override with MPICC/MPIRUN.
if [ -z "${MPICC:-}" ]; then
  if command -v mpicc.mpich >/dev/null 2>&1; then MPICC=$(command -v mpicc.mpich); else MPICC=$(command -v mpicc); fi
fi
if [ -z "${MPIRUN:-}" ]; then
  if command -v mpirun.mpich >/dev/null 2>&1; then MPIRUN=$(command -v mpirun.mpich); else MPIRUN=$(command -v mpirun); fi
fi
mpirun=$MPIRUN

cmake -S "$here" -B "$build" -DNPB_WITH_SYSTEM_MPI=ON -DNPB_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
  -DMPI_C_COMPILER="$MPICC" >/dev/null
cmake --build "$build" -j 2

[ "$check" -eq 1 ] || exit 0
fail=0
for k in is ep cg mg ft lu; do
  exe="$build/npb-$k"
  [ -x "$exe" ] || { echo "missing $exe"; fail=1; continue; }
  for n in $ranks; do
    out=$("$mpirun" -n "$n" "$exe" -c "$class" 2>&1) && rc=0 || rc=$?
    t=$(printf '%s\n' "$out" | sed -n 's/^ Time in seconds = *//p')
    if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "VERIFICATION SUCCESSFUL"; then
      echo "npb-$k class $class ranks $n: VERIFICATION SUCCESSFUL (time $t s)"
    else
      echo "npb-$k class $class ranks $n: FAILED (exit $rc)"
      printf '%s\n' "$out" | tail -30
      fail=1
    fi
  done
done
exit $fail
