#!/usr/bin/env bash
# install_check.sh BUILD_DIR SOURCE_DIR: installs tilempi into a scratch prefix and moves the prefix
# elsewhere (an installation is relocatable), then, with LD_LIBRARY_PATH unset throughout:
#  1. every program in the prefix's bin/ runs from there. The list is the bin/ directory itself:
#     each ELF program must find its libraries (its RUNPATH, see cmake/TilempiInstall.cmake);
#     tools answer --help; MPI programs run as 2-rank jobs of the installed tilempirun on the host
#     and on the sim; the wrapper compilers build programs that run. A program this script has no
#     recipe for fails the check, so a newly installed program must be added here;
#  2. programs built against the prefix with pkg-config and find_package (shared and static) run,
#     on the host and on the sim (ranks as contexts, and as processes for the static one).
set -euo pipefail
unset LD_LIBRARY_PATH
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/staging" > "$work/install.log"
mv "$work/staging" "$work/prefix"
prefix=$work/prefix
bin=$prefix/bin
run=$bin/tilempirun
test -f "$prefix/include/mpi.h"
test -x "$run"

fail() {
  echo "install check: $*" >&2
  exit 1
}

# check PATTERN COMMAND...: COMMAND must exit 0 and print a line matching the extended regex PATTERN.
n=0
check() {
  local pattern=$1
  shift
  n=$((n + 1))
  local out=$work/out.$n
  if ! "$@" > "$out" 2>&1; then
    cat "$out" >&2
    fail "'$*' failed"
  fi
  grep -qE -- "$pattern" "$out" || { cat "$out" >&2; fail "'$*' does not print /$pattern/"; }
}

# mpi2 PATTERN PROGRAM ARGS...: PROGRAM as a 2-rank job of the installed launcher, on the host and
# on the modeled chip.
mpi2() {
  local pattern=$1
  shift
  check "$pattern" "$run" -n 2 --transport host "$@"
  check "$pattern" "$run" -n 2 --transport sim "$@"
}

# hello2 PROGRAM: a hello-world program prints one line per rank, alone and as 2-rank jobs.
hello2() {
  check "^hello from 0 of 1$" "$1"
  local t
  for t in host sim; do
    "$run" -n 2 --transport "$t" "$1" > "$work/hello.out" 2>&1 || { cat "$work/hello.out" >&2; fail "$1 on $t failed"; }
    [ "$(grep -c "^hello from [01] of 2$" "$work/hello.out")" = 2 ] || { cat "$work/hello.out" >&2; fail "$1 on $t: not 2 greetings"; }
  done
}

# wrapper NAME SOURCE: the installed wrapper compiler builds SOURCE into a program that runs from
# the prefix. Skipped (with a notice) when the wrapper's underlying compiler is not installed.
wrapper() {
  local compiler
  compiler=$("$bin/$1" -show | cut -d' ' -f1)
  if ! command -v "$compiler" > /dev/null; then
    echo "install check: $1 skipped: its compiler $compiler is not installed"
    return 0
  fi
  "$bin/$1" "$src/$2" -o "$work/$1.hello" > "$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; fail "$1 $2 failed"; }
  hello2 "$work/$1.hello"
}

# 1. Every installed program, from the list in bin/.
programs=0
for f in "$bin"/*; do
  name=${f##*/}
  programs=$((programs + 1))
  case $name in
    tilempi*|npb-*) ;;
    mpiexec|mpirun)
      # The names MPI scripts use, installed unless TILEMPI_INSTALL_MPIEXEC=OFF: links to tilempirun.
      [ "$(readlink "$f")" = tilempirun ] || fail "bin/$name is not a link to tilempirun"
      check "^tilempi-demo: 2 ranks" "$f" -n 2 "$bin/tilempi-demo"
      continue ;;
    *) fail "bin/$name: a generic name in a shared prefix's bin/ collides; installed programs are named tilempi-*" ;;
  esac
  if [ "$(head -c 4 "$f" | tail -c 3)" = ELF ]; then
    if ldd "$f" | grep -q "not found"; then
      ldd "$f" >&2
      fail "bin/$name does not find its libraries without LD_LIBRARY_PATH (install it with tilempi_install_programs, cmake/TilempiInstall.cmake)"
    fi
  fi
  case $name in
    tilempirun | tilempi-noc | tilempi-coll-check | tilempi-bench | tilempi-sweep)
      check "[Uu]sage" "$f" --help ;;
    tilempi-simhost)
      # The simulator process the launcher starts when ranks run as contexts: a 2-rank job that
      # demands contexts runs each rank in it.
      check "ranks as contexts" "$run" -n 2 --transport sim --set sim.ranks=contexts "$bin/tilempi-demo" ;;
    tilempi-demo)
      mpi2 "^tilempi-demo: 2 ranks" "$f" ;;
    tilempi-bench-mpi)
      mpi2 "^tilempi-bench: rank=1 size=2 " "$f" bcast 64 3 ;;
    tilempi-pingpong)
      check "^usage: " "$f" --help
      mpi2 "^  *1024 " "$f" -m 1024 -i 20 -x 2 ;;
    npb-*)
      check "^usage: " "$f" --help
      mpi2 "Verification *= *SUCCESSFUL" "$f" -c S ;;
    tilempicc) wrapper "$name" hello.c ;;
    tilempicxx) wrapper "$name" hello.cpp ;;
    tilempif77) wrapper "$name" hello.f ;;
    tilempif90)
      wrapper "$name" hello.f90
      if [ -f "$prefix/include/mpi_f08.mod" ]; then wrapper "$name" hello_f08.f90; fi ;;
    *) fail "bin/$name: no recipe to run it in tests/install/install_check.sh (--help, or a 2-rank job); add one" ;;
  esac
done

# 2. Programs built against the installation.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc "$src/hello.c" $(pkg-config --cflags --libs tilempi) -o "$work/hello_pc"
hello2 "$work/hello_pc"
cmake -S "$src/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
cmake --build "$work/consumer" > "$work/consumer-build.log"
hello2 "$work/consumer/hello_shared"
hello2 "$work/consumer/hello_static"
# On the modeled chip the installed launcher finds its simulator process beside it: programs built
# with find_package and with the installed wrapper run as contexts (which `--set sim.ranks=contexts`
# demands), a program with the static library as processes, with a notice saying why.
"$run" -n 4 --transport sim --set sim.ranks=contexts "$work/consumer/hello_shared" \
  > "$work/sim.out" 2>&1 || { cat "$work/sim.out"; exit 1; }
grep -c "hello from" "$work/sim.out" | grep -q 4
grep -q "ranks as contexts" "$work/sim.out"
"$run" -n 4 --transport sim --set sim.ranks=contexts "$work/tilempicc.hello" | grep -c hello | grep -q 4
"$run" -n 2 --transport sim "$work/consumer/hello_static" > "$work/static.out" 2>&1
grep -q "ranks run as processes: it does not link libtilempi.so" "$work/static.out"
# Counted compute outside the wrappers: tilempi::opcount, tilempi_count_ops() and pkg-config
# tilempi-opcount build programs the sim charges by their counted operations; an uncounted
# program gets a note of its own line in the run summary.
if [ -e "$prefix/lib/tilempi/tilempi-opcount.so" ]; then
  cc "$src/hello.c" $(pkg-config --cflags --libs tilempi-opcount) -o "$work/hello_pc_counted"
  for p in "$work/consumer/hello_counted" "$work/consumer/hello_counted_fn" "$work/hello_pc_counted"; do
    "$run" -n 2 --transport sim "$p" > "$work/counted.out" 2>&1 || { cat "$work/counted.out"; fail "$p on sim failed"; }
    ! grep -q "did not count their operations" "$work/counted.out" || { cat "$work/counted.out"; fail "$p: not counted"; }
  done
  "$run" -n 2 --transport sim "$work/consumer/hello_shared" > "$work/uncounted.out" 2>&1
  grep -q "note: 2 of 2 ranks did not count their operations" "$work/uncounted.out" ||
    { cat "$work/uncounted.out"; fail "an uncounted program got no note"; }
fi
# tilempicc -static refuses in one line (a static libtilempi program cannot be linked).
if "$bin/tilempicc" -static "$src/hello.c" -o "$work/hello_static_wrapper" > "$work/static-wrapper.out" 2>&1; then
  fail "tilempicc -static succeeded"
fi
[ "$(wc -l < "$work/static-wrapper.out")" -eq 1 ] && grep -q -- "-static is not supported" "$work/static-wrapper.out" ||
  { cat "$work/static-wrapper.out"; fail "tilempicc -static: expected one line saying it is not supported"; }
echo "install check: all $programs programs in bin/ run from a moved prefix without LD_LIBRARY_PATH;" \
  "pkg-config, find_package (shared and static) and the wrappers build programs that run on host and sim"
