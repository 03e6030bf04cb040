#!/usr/bin/env bash
# findmpi_check.sh BUILD_DIR SOURCE_DIR: a project using CMake's FindMPI (tests/install/findmpi)
# with tilempi's wrappers builds and its MPI tests really run 4 ranks through the mpiexec beside
# the wrappers. And given the wrappers alone, with another MPI's mpiexec on the machine, a test
# that runs a tilempi program through that mpiexec fails rather than passing as 4 singletons.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$build/bin
fail() {
  echo "findmpi check: $*" >&2
  exit 1
}

cmake -S "$src/findmpi" -B "$work/ours" -DMPI_HOME="$build" -DMPI_C_COMPILER="$bin/tilempicc" \
  -DMPI_Fortran_COMPILER="$bin/tilempif90" > "$work/ours.log" 2>&1 || { cat "$work/ours.log"; fail "configure failed"; }
grep -q "MPIEXEC_EXECUTABLE=$bin/mpiexec$" "$work/ours.log" || { cat "$work/ours.log"; fail "FindMPI did not take tilempi's mpiexec"; }
cmake --build "$work/ours" > "$work/ours-build.log" 2>&1 || { cat "$work/ours-build.log"; fail "build failed"; }
(cd "$work/ours" && ctest --output-on-failure -V) > "$work/ours-test.log" 2>&1 || { cat "$work/ours-test.log"; fail "the project's tests failed"; }
for lang in c f; do
  n=$(grep -c "size_$lang: rank [0-3] of 4, sum of ranks 6" "$work/ours-test.log" || true)
  [ "$n" -eq 4 ] || { cat "$work/ours-test.log"; fail "size_$lang: expected 4 ranks of one job, saw $n"; }
done

# Another MPI's launcher (found by FindMPI when only the wrappers are given): its ranks refuse.
cmake -S "$src/findmpi" -B "$work/theirs" -DMPI_C_COMPILER="$bin/tilempicc" -DMPI_Fortran_COMPILER="$bin/tilempif90" \
  > "$work/theirs.log" 2>&1 || { cat "$work/theirs.log"; fail "configure with the wrappers alone failed"; }
other=$(sed -n 's/.*findmpi_check: MPIEXEC_EXECUTABLE=//p' "$work/theirs.log")
if [ -z "$other" ] || [ "$other" = "$bin/mpiexec" ] || [ "$(readlink -f "$other")" = "$(readlink -f "$bin/tilempirun")" ]; then
  echo "findmpi check: no other MPI's mpiexec on this machine; its half skipped"
else
  cmake --build "$work/theirs" > "$work/theirs-build.log" 2>&1 || { cat "$work/theirs-build.log"; fail "build failed"; }
  if (cd "$work/theirs" && ctest -R size_c --output-on-failure) > "$work/theirs-test.log" 2>&1; then
    cat "$work/theirs-test.log"
    fail "a tilempi program run by $other passed: it ran as singletons"
  fi
  grep -q "another MPI's launcher" "$work/theirs-test.log" || { cat "$work/theirs-test.log"; fail "no message naming the cause"; }
fi
echo "findmpi check: FindMPI with tilempi's wrappers and mpiexec runs 4-rank C and Fortran tests; another MPI's mpiexec fails them"
