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
echo "install check: pkg-config, find_package (shared and static) and tilempirun work"
