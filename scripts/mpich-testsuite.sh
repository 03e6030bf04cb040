#!/usr/bin/env bash
# MPICH's own test suite (test/mpi of the MPICH source, from Debian's archive) against tilempi:
# every listed test of the chosen areas compiled with tilempicc / tilempif77 / tilempif90 and run
# through tilempirun on the host and the sim transport, with a timeout per test. An outside
# conformance check: none of the suite's code or text enters the project; it is fetched into the
# work directory at run time.
#
#   scripts/mpich-testsuite.sh [BUILD_DIR] [--area A]... [--transport T]... [--timeout S]
#                              [--cap S] [--jobs N] [--work DIR] [--resume] [--rebuild] [--list]
#
# BUILD_DIR: tilempi's build directory (default build/); the script builds the wrappers,
#   the launcher and the simulator host there (-j2).
# --area A: one area of test/mpi (repeatable, or comma-separated): pt2pt coll datatype comm
#   group init info attr errhan rma topo io f77 f90 (the default: all of these), or errors,
#   mpi_t, part, threads. Not run by default: threads (tilempi's sim gives FUNNELED at most),
#   spawn and ft (dynamic processes and fault tolerance, which tilempi does not have), impls
#   (MPICH's own internals), cxx and f08 (the suite's C++ and mpi_f08 builds are MPICH-specific
#   configure work, not attempted here).
# --transport T: host, sim (ranks as contexts) or sim.processes (--set sim.ranks=processes);
#   repeatable (default: host and sim).
# --timeout S: seconds per run (default 180, as MPICH's runtests; the test's own timeLimit
#   when larger); a run that takes longer is a "timeout".
# --cap S: no run longer than S seconds, whatever its timeLimit (rma's atomic_get_* ask for 300).
# --jobs N: tests built and run at once (default 2, the most this shared machine takes);
#   everything runs under nice 5.
# --work DIR: where the suite is fetched, configured and built, and where results go
#   (default BUILD_DIR/mpich-testsuite).
# --resume: keep the rows already in the CSV and run only what is missing; without it the
#   chosen areas' rows (for the chosen transports) are replaced.
# --rebuild: recompile every test (after a library change that needs it: the tests link the
#   shared libtilempi, so a library fix alone needs no rebuild).
# --list: print the tests the chosen areas would run, and stop.
#
# Writes WORK/results.csv (test,area,ranks,transport,result,seconds,note; result is pass, fail,
# timeout, build-error or unsupported: the test calls a function or uses a constant that mpi.h
# does not declare, named in the note), WORK/summary.md (per area and transport) and one log per
# build and run under WORK/logs/. A test passes as it does in MPICH's runtests: exit status 0,
# a " No Errors" line and no other output (resultTest=TestStatus and friends: a nonzero status).
# Variants of a test line that differ only in MPICH's MPIR_CVAR_ settings run once.
# Needs network access once (apt-get source mpich; the deb-src line for Debian bookworm is added
# to /etc/apt/sources.list.d/debian.sources when missing, as root or with sudo).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
work=""
runner_args=()
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --area|--transport|--timeout|--cap|--jobs) [ $# -ge 2 ] || { echo "mpich-testsuite.sh: $1 wants a value (see --help)" >&2; exit 2; }
      runner_args+=("$1" "$2"); shift 2 ;;
    --work) [ $# -ge 2 ] || { echo "mpich-testsuite.sh: --work wants a directory" >&2; exit 2; }
      work=$2; shift 2 ;;
    --resume|--rebuild|--list) runner_args+=("$1"); shift ;;
    -*) echo "mpich-testsuite.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -d "$1" ] || { echo "mpich-testsuite.sh: build directory $1 does not exist" >&2; exit 2; }
       build=$(cd "$1" && pwd); shift ;;
  esac
done
[ -f "$build/CMakeCache.txt" ] || { echo "mpich-testsuite.sh: $build is not a configured tilempi build (cmake -S . -B build first)" >&2; exit 2; }
work=${work:-$build/mpich-testsuite}
mkdir -p "$work"
work=$(cd "$work" && pwd)
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo

# ---- tilempi: the wrappers, the launcher, the simulator host, the Fortran module, the opcount plugin
targets="tilempi tilempirun tilempi-simhost tilempi_fortran_module"
grep -q '^TILEMPI_OPCOUNT_PLUGIN:INTERNAL=.\+' "$build/CMakeCache.txt" && targets="$targets tilempi-opcount tilempi_opcount"
# shellcheck disable=SC2086
nice -n 5 cmake --build "$build" -j2 --target $targets >&2

# ---- the suite's source: Debian bookworm's mpich source package, test/mpi only
srcs=("$work"/src/mpich-*/test/mpi)
src=${srcs[0]}
if [ ! -d "$src" ]; then
  mkdir -p "$work/src"
  if ! (cd "$work/src" && apt-get source --download-only mpich >&2); then
    echo "# adding deb-src to Debian's sources to fetch the mpich source package" >&2
    f=/etc/apt/sources.list.d/debian.sources
    if [ -f "$f" ]; then
      $sudo sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
    else
      echo "deb-src http://deb.debian.org/debian bookworm main" | $sudo tee /etc/apt/sources.list.d/mpich-src.list >/dev/null
    fi
    $sudo apt-get update >&2
    (cd "$work/src" && apt-get source --download-only mpich >&2)
  fi
  if ! command -v make >/dev/null || ! command -v perl >/dev/null; then
    $sudo apt-get install -y --no-install-recommends make perl >&2
  fi
  tarballs=("$work"/src/mpich_*.orig.tar.*)
  tarball=${tarballs[0]}
  dir=$(basename "$tarball" | sed 's/_/-/; s/\.orig\.tar\..*//')   # mpich_4.0.2.orig.tar.xz: mpich-4.0.2
  (cd "$work/src" && tar xf "$tarball" "$dir/test/mpi")
  src=$work/src/$dir/test/mpi
fi
version=$(basename "$(dirname "$(dirname "$src")")")

# ---- configure it once against tilempi's wrappers (again when the wrappers changed)
suite=$work/suite
bin=$build/bin
stamp="$bin/tilempicc $bin/tilempif77 $bin/tilempif90 $version"
if [ ! -f "$suite/.configured" ] || [ "$(cat "$suite/.configured")" != "$stamp" ]; then
  rm -rf "$suite"
  cp -a "$src" "$suite"   # -a: keeps the timestamps, so make does not want to rerun autotools
  echo "# configuring $version's test/mpi against tilempi (a minute)" >&2
  (cd "$suite" && nice -n 5 ./configure CC="$bin/tilempicc" CXX="$bin/tilempicxx" F77="$bin/tilempif77" \
     FC="$bin/tilempif90" MPICC="$bin/tilempicc" MPICXX="$bin/tilempicxx" MPIF77="$bin/tilempif77" \
     MPIFC="$bin/tilempif90" MPIEXEC="$bin/tilempirun" --disable-maintainer-mode --disable-spawn \
     --disable-cxx --enable-fortran=f77,f90 --enable-romio --enable-rma --disable-ft-tests \
     --with-pm=no > "$work/configure.log" 2>&1) \
    || { echo "mpich-testsuite.sh: configure failed, see $work/configure.log" >&2; exit 1; }
  (cd "$suite" && nice -n 5 make -j2 -C util > "$work/util.log" 2>&1 && nice -n 5 make -j2 -C dtpools >> "$work/util.log" 2>&1) \
    || { echo "mpich-testsuite.sh: the suite's helper libraries did not build, see $work/util.log" >&2; exit 1; }
  echo "$stamp" > "$suite/.configured"
fi

exec nice -n 5 python3 "$root/scripts/mpich_testsuite_run.py" --suite "$suite" --work "$work" \
  --bin "$bin" --version "$version" "${runner_args[@]}"
