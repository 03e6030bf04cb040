#!/usr/bin/env bash
# install_check.sh BUILD_DIR SOURCE_DIR: installs tilempi into a scratch prefix, then builds a
# program against it with pkg-config, with find_package (shared and static), and runs them.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/mpi.h"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
cc "$src/hello.c" $(pkg-config --cflags --libs tilempi) -o "$work/hello_pc"
"$work/hello_pc" | grep -q "hello from 0 of 1"
cmake -S "$src/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/consumer.log"
cmake --build "$work/consumer" > "$work/consumer-build.log"
"$work/consumer/hello_shared" | grep -q "hello from 0 of 1"
"$work/consumer/hello_static" | grep -q "hello from 0 of 1"
"$work/prefix/bin/tilempirun" -n 3 "$work/consumer/hello_static" | grep -c hello | grep -q 3
# On the modeled chip the installed launcher finds its simulator process beside it: programs built
# with find_package and with the installed wrapper run as contexts (which `--set sim.ranks=contexts`
# demands), a program with the static library as processes, with a notice saying why.
"$work/prefix/bin/tilempirun" -n 4 --transport sim --set sim.ranks=contexts "$work/consumer/hello_shared" \
  > "$work/sim.out" 2>&1 || { cat "$work/sim.out"; exit 1; }
grep -c "hello from" "$work/sim.out" | grep -q 4
grep -q "ranks as contexts" "$work/sim.out"
"$work/prefix/bin/tilempicc" "$src/hello.c" -o "$work/hello_wrapped"
"$work/prefix/bin/tilempirun" -n 4 --transport sim --set sim.ranks=contexts "$work/hello_wrapped" | grep -c hello | grep -q 4
"$work/prefix/bin/tilempirun" -n 2 --transport sim "$work/consumer/hello_static" > "$work/static.out" 2>&1
grep -q "ranks run as processes: it does not link libtilempi.so" "$work/static.out"
echo "install check: pkg-config, find_package (shared and static), the wrapper and tilempirun (host, and sim as contexts) work"
