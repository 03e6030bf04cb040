#!/bin/sh
# Builds tilempi's NPB kernels against MPICH (the system MPI) and verifies
# class S of every kernel on 1 and 4 ranks: the kernels must be honest MPI
# codes that need nothing but mpi.h.
# usage: tests/npb/mpich_check.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${TMPDIR:-/tmp}/tilempi-npb-mpich-check}
exec "$here/../../npb/build-with-mpich.sh" --check --ranks "1 4" --class S "$build"
