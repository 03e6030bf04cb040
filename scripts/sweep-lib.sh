# The experiment scripts' sweeps as plans (sourced; apps/bench/sweep.h, tilempi-sweep): a script
# runs its body twice, first to write down every configuration (phase "plan"), then, once
# `sweep_run` ran them all (here N at a time, or as one Slurm job array), to read their results
# (phase "merge"). A configuration with a result in the sweep directory is not run again: an
# interrupted script resumes, and the same command after a --slurm --no-wait merges.
#
#   sweep_args "$@"              takes the sweep options out of the script's arguments (the rest in
#                                sweep_rest): -j N, --rerun-failed, --slurm, --group N, --partition P,
#                                --time T, --account A, --sbatch-arg OPT, --no-wait
#   sweep_dir                    where the plans, logs and outputs go: $SWEEP_DIR, default
#                                BUILD_DIR/sweeps/<script> (set by sweep_init BUILD_DIR)
#   sweep_bench NAME ARGS...     plan: tilempi-bench ARGS --work-dir $sweep_dir/NAME --plan-only;
#                                merge: the same command, which finds every result and merges them
#   sweep_add NAME ID [OPTS] -- COMMAND...   plan: one configuration of plan NAME (tilempi-sweep add);
#                                its log is $(sweep_log NAME ID)
#   sweep_run [JOBS]             runs what is not done yet of every plan; exits the script after a
#                                --slurm --no-wait (the merge job runs the script again), or when a
#                                configuration did not run
#   sweep_slurm                  true with --slurm
#   sweep_building               true when the script may build (not in the merge job)
sweep_phase=plan
sweep_plans=()
sweep_opts=()
sweep_rest=()
sweep_no_wait=0
sweep_script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
sweep_cmdline=()

sweep_args() {
  sweep_cmdline=("$@")
  while [ $# -gt 0 ]; do
    case $1 in
      --slurm | --rerun-failed) sweep_opts+=("$1") ;;
      --no-wait) sweep_opts+=("$1"); sweep_no_wait=1 ;;
      -j | --jobs | --group | --partition | --time | --account | --sbatch-arg)
        [ $# -ge 2 ] || { echo "$(basename "$0"): $1 needs a value" >&2; exit 2; }
        sweep_opts+=("$1" "$2"); shift ;;
      --jobs=* | --group=* | --partition=* | --time=* | --account=* | --sbatch-arg=*) sweep_opts+=("$1") ;;
      *) sweep_rest+=("$1") ;;
    esac
    shift
  done
}

# sweep_init BUILD_DIR BIN_DIR: the sweep directory and the tools.
sweep_init() {
  sweep_dir=${SWEEP_DIR:-$1/sweeps/$(basename "$0" .sh)}
  sweep_bin=$2
  mkdir -p "$sweep_dir"
  sweep_dir=$(cd "$sweep_dir" && pwd)
}

sweep_slurm() { case " ${sweep_opts[*]} " in *" --slurm "*) return 0 ;; esac; return 1; }

sweep_building() { [ "${TILEMPI_SWEEP_MERGE_ONLY:-0}" != 1 ]; }

sweep_log() { echo "$sweep_dir/$1/runs/$2.log"; }

sweep_bench() {
  local name=$1
  shift
  if [ $sweep_phase = plan ]; then
    rm -f "$sweep_dir/$name/plan.json"
    "$sweep_bin/tilempi-bench" "$@" --work-dir "$sweep_dir/$name" --plan-only -q
    sweep_plans+=("$sweep_dir/$name")
  else
    "$sweep_bin/tilempi-bench" "$@" --work-dir "$sweep_dir/$name" -q
  fi
}

# sweep_plan NAME: a new (empty) plan NAME; sweep_add makes it on its first call, but not when it
# runs in a subshell ($(...), <(...)): such scripts call this first.
sweep_plan() {
  case " ${sweep_plans[*]} " in
    *" $sweep_dir/$1 "*) ;;
    *) rm -f "$sweep_dir/$1/plan.json"; sweep_plans+=("$sweep_dir/$1") ;;
  esac
}

sweep_add() {
  local name=$1 id=$2
  shift 2
  [ $sweep_phase = plan ] || return 0
  sweep_plan "$name"
  "$sweep_bin/tilempi-sweep" add "$sweep_dir/$name" --id "$id" "$@"
}

sweep_run() {
  local merge rc=0 jobs=()
  # JOBS (the scripts' parallelism) unless -j was given.
  case " ${sweep_opts[*]} " in *" -j "* | *" --jobs"*) ;; *) [ -n "${1:-}" ] && jobs=(-j "$1") ;; esac
  merge="cd $(printf '%q' "$PWD") && bash $(printf '%q ' "$sweep_script" "${sweep_cmdline[@]}")"
  "$sweep_bin/tilempi-sweep" run "${sweep_plans[@]}" "${jobs[@]}" "${sweep_opts[@]}" --merge-command "$merge" || rc=$?
  sweep_phase=merge
  if [ $rc -eq 130 ] || [ $rc -eq 2 ]; then exit $rc; fi  # interrupted; a bad option or plan (said)
  if [ $sweep_no_wait = 1 ] && sweep_building; then
    echo "$(basename "$0"): submitted; the merge job writes the results (or run the same command again)" >&2
    exit 0
  fi
  # Failed configurations are in the results as such (each script says what it does with them);
  # configurations that did not run at all (a cancelled task) leave nothing to merge.
  local pending
  pending=$("$sweep_bin/tilempi-sweep" status "${sweep_plans[@]}" | grep ' pending$' | grep -v ' 0 pending$' || true)
  if [ -n "$pending" ]; then
    echo "$pending" >&2
    echo "$(basename "$0"): not every configuration ran; the same command runs the rest" >&2
    exit 1
  fi
  return 0
}

# sweep_ok NAME ID: true when configuration ID of plan NAME ran and ended well (merge phase).
sweep_ok() { grep -q '"exit": 0,' "$sweep_dir/$1/runs/$2.status" 2>/dev/null; }
