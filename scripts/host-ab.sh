#!/usr/bin/env bash
# Side by side, alternating: one program of apps/hostbench run on 2 ranks bound to cores under
# several configurations in turn, ROUNDS times (A B C A B C ...), then per size the median of
# each configuration, its ratio to the first one and the range of its runs. On a shared or
# virtual machine, where a single run can be off by 2x, this is how a change to the host
# transport is measured against the library before it (docs/HOST_TRANSPORT.md, "The seventh
# pass").
#
#   scripts/host-ab.sh [--rounds N] [--build DIR] CONFIG [CONFIG...] -- PROGRAM [ARGS...]
#
# CONFIG is one of
#   .                   the build of --build (default: build/) as it is
#   DIR                 another build tree (its bin/tilempirun and lib/libtilempi.so), e.g. the
#                       library before a change, built with cmake -S <old checkout> -B DIR
#   VAR=VALUE[,...]     the default build with these environment settings (TILEMPI_HOST_CMA=0)
#   mpich               the same program built with Debian's MPICH (mpicc -O2), run by mpirun
# PROGRAM is latency, bandwidth or msgrate (hostbench-PROGRAM); ARGS go to it (-m 8192 -M 65536,
# -b for bidirectional bandwidth). Example: the arena against cross-memory attach, 12 rounds:
#   scripts/host-ab.sh --rounds 12 . TILEMPI_HOST_CMA=0 mpich -- bandwidth -b -m 65536 -M 131072
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
rounds=8
configs=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) configs+=("$1"); shift ;;
  esac
done
case $rounds in ''|*[!0-9]*|0) echo "host-ab.sh: --rounds wants a positive number, not '$rounds'" >&2; exit 2 ;; esac
[ ${#configs[@]} -ge 1 ] || { echo "host-ab.sh: no configuration given (see --help)" >&2; exit 2; }
[ $# -ge 1 ] || { echo "host-ab.sh: no program after -- (latency, bandwidth or msgrate)" >&2; exit 2; }
prog=$1; shift
case $prog in latency|bandwidth|msgrate) ;; *) echo "host-ab.sh: unknown program '$prog' (latency, bandwidth or msgrate)" >&2; exit 2 ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for c in "${configs[@]}"; do
  if [ "$c" = mpich ] && [ ! -x "$work/mpich-$prog" ]; then
    command -v mpicc >/dev/null || { echo "host-ab.sh: mpich wanted but mpicc is missing (apt-get install mpich libmpich-dev)" >&2; exit 2; }
    mpicc -O2 -Wno-stringop-overflow -o "$work/mpich-$prog" "$root/apps/hostbench/$prog.c"
  elif [ "$c" != mpich ] && [ "$c" != . ] && [[ $c != *=* ]] && [ ! -x "$c/bin/tilempirun" ]; then
    echo "host-ab.sh: '$c' is neither '.', mpich, VAR=VALUE nor a build tree with bin/tilempirun" >&2; exit 2
  fi
done
[ -x "$build/bin/hostbench-$prog" ] || { echo "host-ab.sh: $build/bin/hostbench-$prog is missing (cmake --build $build)" >&2; exit 2; }

run() {  # run CONFIG: one run of the program, its "<bytes> <figure>" lines on stdout
  local c=$1
  if [ "$c" = mpich ]; then
    mpirun -n 2 -bind-to core "$work/mpich-$prog" "${@:2}"
  elif [ "$c" = . ]; then
    "$build/bin/tilempirun" -n 2 --bind core "$build/bin/hostbench-$prog" "${@:2}"
  elif [[ $c == *=* ]]; then
    env ${c//,/ } "$build/bin/tilempirun" -n 2 --bind core "$build/bin/hostbench-$prog" "${@:2}"
  else
    LD_LIBRARY_PATH=$c/lib "$c/bin/tilempirun" -n 2 --bind core "$build/bin/hostbench-$prog" "${@:2}"
  fi
}
for ((i = 1; i <= rounds; i++)); do
  echo "# round $i of $rounds (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  for k in "${!configs[@]}"; do
    run "${configs[$k]}" "$@" | grep -v '^#' >> "$work/out.$k" || true
  done
done
python3 - "$work" "${configs[@]}" <<'PY'
import collections, statistics, sys
work, names = sys.argv[1], sys.argv[2:]
runs = []
for k in range(len(names)):
    m = collections.defaultdict(list)
    try:
        for line in open(f"{work}/out.{k}"):
            f = line.split()
            if len(f) >= 2:
                m[int(f[0])].append(float(f[1]))
    except FileNotFoundError:
        pass
    runs.append(m)
for k, n in enumerate(names):
    print(f"# {chr(65 + k)}: {n}")
print("# per size: median of each (ratio to A) [range of its runs]")
for size in sorted(runs[0]):
    cells = []
    base = statistics.median(runs[0][size])
    for k in range(len(names)):
        v = runs[k].get(size)
        if not v:
            cells.append(f"{chr(65 + k)} -")
            continue
        med = statistics.median(v)
        ratio = f"{med / base:.2f}" if base else "-"  # (a figure printed as 0 at this precision)
        cells.append(f"{chr(65 + k)} {med:.3f} ({ratio}) [{min(v):.3f}-{max(v):.3f}]")
    print(f"{size:>8}  " + "  ".join(cells))
PY
