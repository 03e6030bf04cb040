#!/usr/bin/env bash
# Tests of tilempirun, one case per CTest test:
#   launcher_test.sh CASE TILEMPIRUN PROBE [more...]
# PROBE is launcher_probe (see launcher_probe.c). Some cases take more arguments (see below).
# Every case checks what the launcher printed and returned, and for jobs that end early that
# no rank process and no shared-memory object of the job is left.
set -u

case_name=$1
run=$2
probe=$3
shift 3

work=$(mktemp -d "${TMPDIR:-/tmp}/tilempirun-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A word no other process has on its command line: given to the ranks as a last, unused
# argument, so that pgrep finds exactly this test's ranks.
token="tilempirun-test-$$-$RANDOM$RANDOM"
failures=0

fail() {
  echo "FAIL [$case_name]: $*"
  failures=$((failures + 1))
}

# launch ARGS...: runs the launcher; sets status, and leaves stdout and stderr in files.
launch() {
  "$run" "$@" >"$work/out" 2>"$work/err" </dev/null
  status=$?
}

expect_status() {
  [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}

expect_out() {  # expect_out FILE ERE
  grep -Eq -- "$2" "$work/$1" || fail "$1 does not match: $2"
}

expect_no_out() {
  ! grep -Eq -- "$2" "$work/$1" || fail "$1 should not match: $2"
}

# No rank of this test may still run, and the job's shared memory must be gone.
expect_clean() {
  local left i
  # A rank the launcher killed may still be on its way out on a loaded machine: give it up to
  # 5 s to be gone before calling it left behind.
  for i in $(seq 1 50); do
    left=$(pgrep -f -- "$token" || true)
    [ -z "$left" ] && break
    sleep 0.1
  done
  [ -z "$left" ] || fail "rank processes left behind: $(ps -o pid=,stat=,args= -p "$(echo $left | tr ' ' ',')")"
  local job
  # The ranks print job=NAME; with --verbose the launcher says TILEMPI_JOB=NAME itself.
  job=$(grep -Eoh '(job|TILEMPI_JOB)=/[^ ]+' "$work/out" "$work/err" | head -n 1 | cut -d= -f2)
  if [ -z "$job" ]; then
    fail "no rank reported its job name"
  elif [ "$job" != "(none)" ]; then
    local shm="/dev/shm/${job#/}"
    if compgen -G "$shm*" >/dev/null; then fail "shared memory left behind: $(ls "$shm"*)"; fi
  fi
}

show_output() {
  echo "---- stdout"; cat "$work/out"
  echo "---- stderr"; cat "$work/err"
}

# Waits (bounded) until FILE has N lines matching ERE.
wait_for_lines() {
  local file=$1 n=$2 ere=$3 i
  for i in $(seq 1 600); do
    [ "$(grep -Ec -- "$ere" "$file" 2>/dev/null || true)" -ge "$n" ] && return 0
    sleep 0.1
  done
  return 1
}

case $case_name in
  help)
    launch --help
    expect_status 0
    for opt in -np --transport --bind --tag-output --timeout --deadlock-after --mesh --coll --preset --adapter \
               --compute --report --trace --set --config -x --verbose --version; do
      expect_out out "(^|[ ,(])$opt([ ,)]|$)"
    done
    expect_out out "Usage: tilempirun"
    expect_out out "--transport host\|sim=host"
    expect_out out "--bind core\|none=core"
    launch --version
    expect_status 0
    expect_out out "^tilempirun .*[0-9]+\.[0-9]+"
    # What each preset and adapter models, from their registries.
    launch --preset help
    expect_status 0
    expect_out out "^  tilepro64  Tilera TilePro64"
    launch --adapter help
    expect_status 0
    expect_out out "^  namp  "
    ;;

  bad-options)
    launch --no-such-option -n 2 "$probe" args
    expect_status 2
    expect_out err "--no-such-option"
    launch --transport carrier-pigeon -n 2 "$probe" args
    expect_status 2
    expect_out err "transport.*carrier-pigeon|carrier-pigeon.*transport"
    launch -n two "$probe" args
    expect_status 2
    expect_out err "-n two"
    launch -n 0 "$probe" args
    expect_status 2
    launch -n 5 --mesh 2x2 "$probe" args
    expect_status 2
    expect_out err "mesh 2x2"
    launch -n 2 --mesh 3by3 "$probe" args
    expect_status 2
    expect_out err "mesh 3by3"
    launch -n 2 --timeout soon "$probe" args
    expect_status 2
    expect_out err "timeout soon"
    launch -n 2 --compute fast "$probe" args
    expect_status 2
    expect_out err "compute fast"
    launch -n 2 --set nokey "$probe" args
    expect_status 2
    expect_out err "set nokey"
    launch -n 2 --bind sometimes "$probe" args
    expect_status 2
    expect_out err "bind"
    launch -n 2
    expect_status 2
    expect_out err "no program"
    ;;

  bad-program)
    launch -n 2 "$work/does-not-exist"
    expect_status 127
    expect_out err "does-not-exist"
    launch -n 2 no-such-program-in-path-$token
    expect_status 127
    expect_out err "no-such-program-in-path"
    printf 'not a program\n' >"$work/plain.txt"
    launch -n 2 "$work/plain.txt"
    expect_status 126
    expect_out err "plain.txt.*not executable"
    ;;

  args)
    # Everything after the program is the program's, even options the launcher also has.
    launch -n 2 "$probe" args -n 5 --foo --help -- --timeout 1
    expect_status 0
    for r in 0 1; do
      expect_out out "^rank $r argc=9$"
      expect_out out "^rank $r arg2=-n$"
      expect_out out "^rank $r arg3=5$"
      expect_out out "^rank $r arg4=--foo$"
      expect_out out "^rank $r arg5=--help$"
      expect_out out "^rank $r arg6=--$"
      expect_out out "^rank $r arg7=--timeout$"
      expect_out out "^rank $r arg8=1$"
    done
    # The -np spelling, and "--" before the program.
    launch -np 3 --transport host -- "$probe" args 'two words' ''
    expect_status 0
    expect_out out "^rank 2 arg2=two words$"
    expect_out out "^rank 2 arg3=$"
    [ "$(grep -c 'argc=4' "$work/out")" -eq 3 ] || fail "expected 3 ranks with argc=4"
    ;;

  env)
    export TILEMPIRUN_TEST_INHERITED=yes
    launch -n 3 -x TILEMPIRUN_TEST_X=set-by-x -x TILEMPIRUN_TEST_INHERITED --mesh 3x1 \
      "$probe" env TILEMPI_RANK TILEMPI_SIZE TILEMPI_MESH TILEMPI_LAUNCHER_PID TILEMPI_JOB \
      TILEMPIRUN_TEST_X TILEMPIRUN_TEST_INHERITED
    expect_status 0
    for r in 0 1 2; do
      expect_out out "^rank $r TILEMPI_RANK=$r$"
      expect_out out "^rank $r TILEMPI_SIZE=3$"
      expect_out out "^rank $r TILEMPI_MESH=3x1$"
      expect_out out "^rank $r TILEMPI_LAUNCHER_PID=[0-9]+$"
      expect_out out "^rank $r TILEMPI_JOB=."
      expect_out out "^rank $r TILEMPIRUN_TEST_X=set-by-x$"
      expect_out out "^rank $r TILEMPIRUN_TEST_INHERITED=yes$"
    done
    # Rank 0 reads the launcher's stdin; the others read /dev/null.
    echo "hello rank zero" | "$run" -n 2 "$probe" stdin >"$work/out" 2>"$work/err"
    status=$?
    expect_status 0
    expect_out out "^rank 0 stdin=hello rank zero$"
    expect_out out "^rank 1 stdin=<eof>$"
    # A chip config file that gives the mesh size also gives the number of ranks.
    printf '# a 2x3 chip\nwidth = 2\nheight=3\n' >"$work/chip.cfg"
    launch --config "$work/chip.cfg" "$probe" env TILEMPI_SIZE
    expect_status 0
    [ "$(grep -c 'TILEMPI_SIZE=6' "$work/out")" -eq 6 ] || fail "--config with a 2x3 mesh: expected 6 ranks"
    ;;

  status)
    launch -n 4 "$probe" exit -1 0
    expect_status 0
    expect_no_out err "tilempirun:"
    # Every rank fails with the same status: that status, said once.
    launch -n 2 "$probe" exit -1 5 "$token"
    expect_status 5
    [ "$(grep -c 'ending the job' "$work/err")" -eq 1 ] || fail "expected one message for the failed job"
    expect_clean
    ;;

  exit-others-killed)
    # Rank 1 exits with 3 while the others wait forever: the launcher must end them.
    launch -n 4 "$probe" exit 1 3 "$token"
    expect_status 3
    expect_out err "^tilempirun: rank 1 \(pid [0-9]+\) exited with status 3; ending the job$"
    expect_out err "^rank 1 exits with 3$"
    expect_clean
    ;;

  segv)
    launch -n 3 "$probe" segv 2 "$token"
    expect_status 139
    expect_out err "^tilempirun: rank 2 \(pid [0-9]+\) killed by signal 11 \(SIGSEGV[^)]*\).*; ending the job$"
    expect_out err "^rank 2 about to crash$"
    # The crashing rank's last words come before the launcher's message.
    [ "$(grep -n 'about to crash' "$work/err" | cut -d: -f1)" -lt \
      "$(grep -n 'killed by signal' "$work/err" | cut -d: -f1)" ] || fail "message order"
    expect_clean
    ;;

  timeout)
    launch --verbose --timeout 2 -n 2 "$probe" sleep 600 "$token"
    expect_status 124
    expect_out err "^tilempirun: timeout"
    expect_clean
    ;;

  tag-output)
    launch --tag-output -n 3 "$probe" lines 400
    expect_status 0
    total=$(wc -l <"$work/out")
    [ "$total" -eq 1200 ] || fail "expected 1200 lines, got $total"
    bad=$(grep -Evc '^\[([0-2])\] rank \1 line [0-9]+ of 400: some text to make it longer$' "$work/out")
    [ "$bad" -eq 0 ] || fail "$bad lines are not whole, tagged lines of one rank"
    # Without tags the lines are whole too.
    launch -n 3 "$probe" lines 400
    bad=$(grep -Evc '^rank [0-2] line [0-9]+ of 400: some text to make it longer$' "$work/out")
    [ "$bad" -eq 0 ] || fail "$bad untagged lines are not whole"
    # stderr is tagged as well.
    launch --tag-output -n 2 "$probe" exit 1 4 "$token"
    expect_status 4
    expect_out err "^\[1\] rank 1 exits with 4$"
    expect_out out "^\[1\] rank 1 ready job="  # rank 0 may be ended before it says anything
    expect_clean
    ;;

  tag-output-sim)
    # On the sim, ranks as contexts share the simulator's one stdout: asked for explicitly,
    # --tag-output is refused by name (it ran untagged before); auto runs the ranks as processes
    # and tags every line. PROBE here is an MPI program linking libtilempi.so, as contexts need.
    launch --tag-output --transport sim --compute none --set sim.ranks=contexts -n 2 "$probe"
    [ "$status" -ne 0 ] || fail "--tag-output with sim.ranks=contexts ran (untagged)"
    # (A sanitized build's program cannot run as contexts in any case, and says that reason.)
    why="(--tag-output needs a process per rank|it is built with a sanitizer)"
    expect_out err "sim.ranks=contexts: .* cannot run as contexts: $why"
    launch --tag-output --transport sim --compute none -n 2 "$probe"
    expect_status 0
    expect_out out "^\[1\] "
    expect_out err "ranks run as processes: $why"
    ;;

  signal)
    # SIGINT (Ctrl-C) and SIGTERM to the launcher end the whole job: exit 130 / 143.
    for sig in INT TERM; do
      "$run" -n 3 "$probe" sleep 600 "$token" >"$work/out" 2>"$work/err" </dev/null &
      pid=$!
      if ! wait_for_lines "$work/out" 3 "ready"; then
        fail "the ranks did not start"
        kill -KILL "$pid" 2>/dev/null
      fi
      kill -"$sig" "$pid"
      wait "$pid"
      status=$?
      if [ "$sig" = INT ]; then expect_status 130; else expect_status 143; fi
      expect_out err "^tilempirun: interrupted by SIG$sig; ending the job$"
      expect_clean
    done
    ;;

  many-ranks)
    # Far more ranks than cores.
    launch -n 24 "$probe" exit -1 0
    expect_status 0
    launch -n 24 "$probe" segv 17 "$token"
    expect_status 139
    expect_out err "rank 17 .*signal 11"
    expect_clean
    ;;

  stdin-ranks)
    # launcher_test.sh stdin-ranks TILEMPIRUN MPI_STDIN [launcher args...]: the launcher's stdin
    # goes to rank 0 only, also where the ranks share one process (ranks as contexts), where
    # rank 1 used to read what rank 0 had not read yet.
    seq 1 50 | "$run" "$@" -n 3 --timeout 60 "$probe" >"$work/out" 2>"$work/err"
    status=$?
    expect_status 0
    expect_out out "^rank 0 read 50 lines$"
    expect_out out "^rank 1 read 0 lines$"
    expect_out out "^rank 2 read 0 lines$"
    ;;

  report-bindings)
    # launcher_test.sh report-bindings TILEMPIRUN MPI_PROGRAM: each host rank names its core;
    # on the sim a note says the ranks are tiles.
    launch -n 3 --report-bindings "$probe"
    expect_status 0
    for r in 0 1 2; do expect_out err "rank $r \(pid [0-9]+\) (bound to core [0-9]+ of [0-9]+|not bound)"; done
    # A rank of OpenMP threads gets as many cores (pinned to one, its threads shared it).
    if [ "$(nproc)" -ge 2 ]; then
      OMP_NUM_THREADS=2 launch -n 1 --report-bindings "$probe"
      expect_status 0
      expect_out err "rank 0 \(pid [0-9]+\) bound to cores 0-1 of [0-9]+"
    fi
    launch -n 2 --bind none -report-bindings "$probe"
    expect_status 0
    expect_out err "rank 1 \(pid [0-9]+\) not bound \(--bind none\)"
    launch -n 2 --transport sim --report-bindings "$probe"
    expect_status 0
    expect_out err "note: --report-bindings: on the sim the ranks run on the modeled chip's tiles"
    ;;

  wrapper-show)
    # launcher_test.sh wrapper-show - - TILEMPICC
    cc=$1
    out=$("$cc" -show hello.c -o hello)
    echo "$out" | grep -Eq -- '-I[^ ]*include' || fail "-show: no include flag: $out"
    echo "$out" | grep -Eq -- ' hello\.c -o hello ' || fail "-show: arguments not passed in order: $out"
    echo "$out" | grep -Eq -- '-ltilempi' || fail "-show: library not linked: $out"
    echo "$out" | grep -Eq -- '-Wl,-rpath,' || fail "-show: no rpath: $out"
    out=$("$cc" -show -c hello.c)
    echo "$out" | grep -Eq -- '-ltilempi' && fail "-show -c must not link: $out"
    out=$("$cc" -show -DNAME='a b' x.c)
    echo "$out" | grep -Fq -- "'-DNAME=a b'" || fail "-show must quote arguments with spaces: $out"
    # Open MPI's -showme variants, which build systems (CMake's FindMPI first of all) ask before
    # MPICH's: flags only, no compiler word, and nothing passed to the compiler.
    for dash in - --; do
      out=$("$cc" ${dash}showme:compile) || fail "${dash}showme:compile failed"
      case $out in -*) ;; *) fail "${dash}showme:compile must be flags only: $out" ;; esac
      echo "$out" | grep -Eq -- '-I[^ ]*include' || fail "${dash}showme:compile: no include flag: $out"
      echo "$out" | grep -Eq -- '-ltilempi' && fail "${dash}showme:compile must not link: $out"
      out=$("$cc" ${dash}showme:link) || fail "${dash}showme:link failed"
      case $out in -*) ;; *) fail "${dash}showme:link must be flags only: $out" ;; esac
      echo "$out" | grep -Eq -- '-ltilempi( |$)' || fail "${dash}showme:link: library not linked: $out"
    done
    [ -d "$("$cc" -showme:incdirs)" ] || fail "-showme:incdirs is not a directory: $("$cc" -showme:incdirs)"
    "$cc" -showme:libdirs | grep -q /lib || fail "-showme:libdirs: $("$cc" -showme:libdirs)"
    "$cc" -showme:libs | grep -Eq '(^| )tilempi( |$)' || fail "-showme:libs: $("$cc" -showme:libs)"
    [ -x "$("$cc" -showme:command | cut -d' ' -f1)" ] || command -v "$("$cc" -showme:command)" >/dev/null ||
      fail "-showme:command is not a compiler: $("$cc" -showme:command)"
    "$cc" -showme:version | grep -q "tilempi [0-9]" || fail "-showme:version: $("$cc" -showme:version)"
    if err=$("$cc" -showme:nonsense 2>&1); then fail "-showme:nonsense succeeded"; fi
    echo "$err" | grep -q "showme:nonsense" || fail "-showme:nonsense: the message does not name it: $err"
    ;;

  wrapper-hello)
    # launcher_test.sh wrapper-hello TILEMPIRUN - WRAPPER [FLAGS...] SOURCE
    # Compile SOURCE with WRAPPER, run it through the launcher on 3 ranks and alone (singleton).
    wrapper=$1
    shift
    cd "$work" || exit 1
    if ! "$wrapper" "$@" -o hello >"$work/build.log" 2>&1; then
      cat "$work/build.log"
      fail "$wrapper $* failed"
    else
      launch --timeout 60 -n 3 ./hello
      expect_status 0
      for r in 0 1 2; do expect_out out "hello from rank $r of 3"; done
      ./hello >"$work/out" 2>"$work/err" </dev/null
      status=$?
      expect_status 0
      expect_out out "hello from rank 0 of 1"
      # A wrapper that loads the opcount plugin builds a counted program (exported counter),
      # which the simulator charges by its operations; TILEMPI_OPCOUNT=no builds an uncounted one.
      if "$wrapper" -show "$@" | grep -q -- "-fplugin="; then
        nm -D ./hello | grep -q " tilempi_op_counts$" || fail "$wrapper: the program has no exported tilempi_op_counts"
        case $wrapper in
          *f77 | *f90) "$wrapper" -show "$@" | grep -q -- "-finline-matmul-limit=" ||
                         fail "$wrapper: a counted Fortran program does not inline MATMUL (libgfortran's is not counted)" ;;
        esac
        launch --timeout 60 -n 2 --transport sim --compute model ./hello
        expect_status 0
        expect_out err "counted operations"
        TILEMPI_OPCOUNT=no "$wrapper" "$@" -o hello-uncounted >"$work/build.log" 2>&1 || fail "TILEMPI_OPCOUNT=no $wrapper failed"
        nm -D ./hello-uncounted | grep -q " tilempi_op_counts$" && fail "TILEMPI_OPCOUNT=no: the program still counts"
        TILEMPI_OPCOUNT=no "$wrapper" -show "$@" | grep -q -- "-fplugin=" && fail "TILEMPI_OPCOUNT=no: -show still loads the plugin"
      fi
    fi
    ;;

  coll)
    # --coll needs the MPI library's collective registry.
    launch --coll help
    expect_status 0
    expect_out out "alltoall"
    expect_out out "barrier"
    launch --coll alltoall=no-such-algorithm -n 2 "$probe" args
    expect_status 2
    expect_out err "no-such-algorithm"
    launch --coll barrier=linear -n 2 "$probe" env TILEMPI_COLL
    expect_status 0
    expect_out out "^rank 1 TILEMPI_COLL=barrier=linear$"
    ;;

  wrapper-installed)
    # launcher_test.sh wrapper-installed - - BUILD_DIR SOURCE: install into a scratch prefix,
    # then build with the installed tilempicc and run with the installed tilempirun.
    build=$1 src=$2
    if ! cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
      cat "$work/install.log"
      fail "cmake --install failed"
    else
      out=$("$work/prefix/bin/tilempicc" -show "$src" -o "$work/hello")
      echo "$out" | grep -Fq -- "-I$work/prefix/include" || fail "installed tilempicc: include dir: $out"
      echo "$out" | grep -Fq -- "-Wl,-rpath,$work/prefix/" || fail "installed tilempicc: rpath: $out"
      if ! "$work/prefix/bin/tilempicc" "$src" -o "$work/hello" >"$work/build.log" 2>&1; then
        cat "$work/build.log"
        fail "installed tilempicc failed"
      else
        run="$work/prefix/bin/tilempirun"
        launch --timeout 60 -n 2 "$work/hello"
        expect_status 0
        expect_out out "hello from rank 1 of 2"
      fi
    fi
    ;;

  mpi-abort)
    # launcher_test.sh mpi-abort TILEMPIRUN PROGRAM: rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7)
    # while the others wait in MPI_Recv.
    launch --timeout 60 -n 3 "$probe" 7 "$token"
    expect_status 7
    expect_out err "^tilempirun: rank 1 called MPI_Abort with code 7"
    expect_clean
    ;;

  lost-output)
    # launcher_test.sh lost-output TILEMPIRUN PROGRAM [FORTRAN_PROGRAM|-] [launcher args...]:
    # whatever ends the job (an abort, a fatal error, a rank leaving without MPI_Finalize),
    # every line each rank printed reaches the output, which is a file here (stdio buffers it).
    fprog=$1
    shift
    all_lines() {  # every rank's three lines
      local r k
      for r in 0 1 2; do for k in 0 1 2; do expect_out out "^rank $r line $k$"; done; done
    }
    launch "$@" -n 3 --timeout 60 "$probe" abort
    expect_status 3
    expect_out err "rank 1 called MPI_Abort with code 3"
    all_lines
    launch "$@" -n 3 --timeout 60 "$probe" fatal
    expect_status 6
    expect_out err "rank 1: fatal error in MPI_Send"
    all_lines
    # A rank that leaves main without MPI_Finalize while the others wait for it ends the job
    # (on host it hung until --timeout), and so does a job whose ranks all leave without it.
    launch "$@" -n 3 --timeout 60 "$probe" no-finalize
    expect_status 1
    expect_out err "rank 1:? exited without MPI_Finalize"
    expect_no_out err "timeout"
    all_lines
    # A crashing rank's own buffer dies with its process where ranks are processes (as with
    # MPICH), but the others' lines must not: with ranks as contexts they share the simulator's
    # stdio buffer, which the crash lost.
    launch "$@" -n 3 --timeout 60 "$probe" crash
    if grep -Eq "AddressSanitizer: SEGV|runtime error:" "$work/err"; then
      expect_status 1  # a sanitized rank reports the fault itself and exits 1
    else
      expect_status 139
      expect_out err "rank 1 .*(signal 11|SIGSEGV)"
    fi
    for r in 0 2; do for k in 0 1 2; do expect_out out "^rank $r line $k$"; done; done
    # --timeout (SIGTERM) while every rank is inside MPI: every line is kept; while rank 1 runs
    # its own code: the others' lines are (ranks as contexts lost them all: one process).
    launch "$@" -n 3 --timeout 2 "$probe" mpi-loop
    expect_status 124
    all_lines
    # ... and says where the ranks were, on every transport and process model; the ranks it ended
    # did not "exit without MPI_Finalize" (the sim's ranks as processes said so).
    expect_out err "rank [0-2] .*in MPI_Allreduce"
    expect_no_out err "without MPI_Finalize"
    # Ctrl-C (SIGINT to tilempirun): 130, and the ranks it ended did not "exit without
    # MPI_Finalize" (the sim's ranks as processes said so).
    "$run" "$@" -n 3 --timeout 60 "$probe" mpi-loop >"$work/out" 2>"$work/err" </dev/null &
    lp=$!
    sleep 2
    kill -INT "$lp"
    wait "$lp"
    status=$?
    expect_status 130
    expect_no_out err "without MPI_Finalize"
    launch "$@" -n 3 --timeout 2 "$probe" spin
    expect_status 124
    for r in 0 2; do for k in 0 1 2; do expect_out out "^rank $r line $k$"; done; done
    launch "$@" -n 3 --timeout 60 "$probe" none-finalize
    expect_status 1
    expect_out err "exited without MPI_Finalize"
    all_lines
    # A nonzero status after MPI_Finalize fails the job with that status without ending it: the
    # other ranks finish and nothing they print is lost (they were killed before, their output
    # with them), as with MPICH.
    launch "$@" -n 3 --timeout 60 "$probe" fail-after-finalize
    expect_status 3
    expect_out err "rank 1 (\(pid [0-9]+\) )?exited with status 3 after MPI_Finalize"
    expect_no_out err "ending the job"
    expect_no_out err "without MPI_Finalize"
    all_lines
    expect_out out "^rank 0 after finalize$"
    expect_out out "^rank 2 after finalize$"
    if [ "$fprog" != - ]; then
      launch "$@" -n 3 --timeout 60 "$fprog"
      expect_status 3
      all_lines
    fi
    ;;

  mpmd)
    # launcher_test.sh mpmd TILEMPIRUN PROGRAM [launcher args...]: mpiexec's colon (MPI-3.1
    # §10.5.1): one MPI_COMM_WORLD over several programs, each with its own arguments and rank
    # count, MPI_APPNUM their number. (A lone ':' was passed to the first program as an argument:
    # a one-rank job that silently ran the wrong thing.)
    cp "$probe" "$work/second"
    launch "$@" -n 2 "$probe" one : -n 3 "$work/second" two extra : -np 1 "$probe" three
    expect_status 0
    for r in 0 1; do expect_out out "^mpi_appnum rank $r of 6 app 0 word one sum 15$"; done
    for r in 2 3 4; do expect_out out "^second rank $r of 6 app 1 word two sum 15$"; done
    expect_out out "^mpi_appnum rank 5 of 6 app 2 word three sum 15$"
    [ "$(wc -l <"$work/out")" -eq 6 ] || fail "expected six lines"
    # One program: MPI_APPNUM is 0.
    launch "$@" -n 2 "$probe" alone
    expect_out out "^mpi_appnum rank 1 of 2 app 0 word alone sum 1$"
    # What a colon needs after it, refused before anything starts.
    launch "$@" -n 1 "$probe" : "$work/second"
    expect_status 2
    expect_out err "after ':' each program needs its rank count first"
    launch "$@" -n 1 "$probe" : -n 0 "$work/second"
    expect_status 2
    expect_out err "after ':', -n 0: expected a positive rank count"
    launch "$@" -n 1 "$probe" : -n 2
    expect_status 2
    expect_out err "a program must follow"
    launch "$@" -n 1 "$probe" : -n 2 "$work/missing"
    expect_status 127
    # The sim's contexts hold one program: auto runs such a job as processes (saying so), and
    # sim.ranks=contexts is refused with the reason.
    if printf '%s\n' "$@" | grep -qx sim; then
      # (A sanitized build gives its own reason first: ranks run as processes there anyway.)
      launch "$@" -n 1 "$probe" a : -n 1 "$probe" b
      expect_status 0
      expect_out err "ranks run as processes: (the job runs several programs|it is built with a sanitizer)"
      launch "$@" --set sim.ranks=contexts -n 1 "$probe" a : -n 1 "$probe" b
      expect_status 1
      expect_out err "cannot run as contexts: (the job runs several programs|it is built with a sanitizer)"
    fi
    ;;

  compat-options)
    # The spellings of MPICH's mpiexec and Open MPI's mpirun (launcher_test.sh compat-options
    # TILEMPIRUN PROBE): each runs the job with its meaning, or is refused in one line.
    self=$(hostname)
    printf 'localhost slots=4\n# a comment\n%s:2\n' "$self" >"$work/hosts"
    printf 'node-that-is-not-here-%s\n' "$RANDOM" >"$work/far-hosts"
    for spelling in "-host localhost" "--host localhost:4" "-hosts localhost,$self" "-H 127.0.0.1" \
                    "-hostfile $work/hosts" "--hostfile $work/hosts" "-machinefile $work/hosts" "-f $work/hosts"; do
      # shellcheck disable=SC2086
      launch -n 2 $spelling "$probe" args
      expect_status 0
      [ "$(grep -c 'argc=2' "$work/out")" -eq 2 ] || fail "$spelling: expected 2 ranks"
      expect_out err "note: every rank runs on this host"
    done
    launch -n 2 -host far-away-node.example "$probe" args
    expect_status 2
    expect_out err "far-away-node.example is not this host"
    launch -n 2 -hostfile "$work/far-hosts" "$probe" args
    expect_status 2
    expect_out err "node-that-is-not-here"
    # No option is read as a prefix of another (-host was -h: the help, and exit 0).
    launch -n 2 -hostx localhost "$probe" args
    expect_status 2
    expect_out err "unknown option: -hostx"
    expect_no_out out "Usage"
    # Without -n: one rank, as mpiexec; -ppn gives the count on one host.
    launch "$probe" args
    expect_status 0
    [ "$(grep -c 'argc=2' "$work/out")" -eq 1 ] || fail "no -n: expected 1 rank"
    launch -ppn 3 "$probe" args
    expect_status 0
    [ "$(grep -c 'argc=2' "$work/out")" -eq 3 ] || fail "-ppn 3: expected 3 ranks"
    launch -N 2 "$probe" args
    expect_status 0
    [ "$(grep -c 'argc=2' "$work/out")" -eq 2 ] || fail "-N 2: expected 2 ranks"
    launch -n 2 -ppn 1 "$probe" args
    expect_status 0
    expect_out err "ppn 1 ignored"
    # Environment: -genv/-env VAR VALUE, -x VAR=VALUE, -genvall.
    launch -n 2 -genv TILEMPIRUN_TEST_G one -env TILEMPIRUN_TEST_E two -x TILEMPIRUN_TEST_X=three -genvall \
      "$probe" env TILEMPIRUN_TEST_G TILEMPIRUN_TEST_E TILEMPIRUN_TEST_X
    expect_status 0
    for r in 0 1; do
      expect_out out "^rank $r TILEMPIRUN_TEST_G=one$"
      expect_out out "^rank $r TILEMPIRUN_TEST_E=two$"
      expect_out out "^rank $r TILEMPIRUN_TEST_X=three$"
    done
    # Binding, oversubscription, tagging, Open MPI's component parameters, the working directory.
    mkdir -p "$work/wd"
    launch -n 3 --bind-to none --oversubscribe --allow-run-as-root -l --mca btl self -wdir "$work/wd" "$probe" env PWD
    expect_status 0
    expect_out out "^\[2\] "
    expect_out err "mca btl self ignored"
    launch -n 2 -bind-to core -tag-output "$probe" args
    expect_status 0
    expect_out out "^\[1\] "
    launch -n 2 --bind-to socket "$probe" args
    expect_status 2
    expect_out err "bind-to socket"
    launch -n 2 -wdir "$work/no-such-dir" "$probe" args
    expect_status 2
    expect_out err "wdir"
    # Each rank's output to files of its own: Open MPI's --output-filename DIR, MPICH's
    # -outfile-pattern/-errfile-pattern (%r the rank; ranks with the same path share the file).
    launch -n 3 --output-filename "$work/of" "$probe" args
    expect_status 0
    expect_no_out out "argc"
    for r in 0 1 2; do
      grep -q "argc=2" "$work/of/1/rank.$r/stdout" 2>/dev/null || fail "--output-filename: rank $r's stdout file"
      [ -f "$work/of/1/rank.$r/stderr" ] || fail "--output-filename: rank $r's stderr file"
    done
    launch -n 3 -outfile-pattern "$work/o.%r.%%" -errfile-pattern "$work/e.all" "$probe" args
    expect_status 0
    for r in 0 1 2; do grep -q "argc=2" "$work/o.$r.%" 2>/dev/null || fail "-outfile-pattern: rank $r's file"; done
    [ -f "$work/e.all" ] || fail "-errfile-pattern: no shared file"
    launch -n 2 -outfile-pattern "$work/o.%q" "$probe" args
    expect_status 2
    expect_out err "%q"
    : >"$work/a-file"
    launch -n 2 -outfile-pattern "$work/a-file/o.%r" "$probe" args
    expect_status 1
    expect_out err "cannot write rank 0's stdout"
    # --map-by: core, slot and hwthread are what binding does; anything else gets a note.
    launch -n 2 --map-by core "$probe" args
    expect_status 0
    expect_no_out err "map-by"
    launch -n 2 -map-by ppr:2:socket "$probe" args
    expect_status 0
    expect_out err "map-by ppr:2:socket ignored"
    # MPIEXEC_TIMEOUT, as mpiexec reads it.
    MPIEXEC_TIMEOUT=1 launch -n 2 "$probe" sleep 30 "$token"
    expect_status 124
    expect_clean
    ;;

  startup-kill)
    # SIGKILL of the launcher while ranks are still starting leaves no shared memory and no
    # rank behind (the segment's watchdog removes the name; ranks end with their parent).
    "$run" -n 120 "$probe" sleep 60 "$token" >"$work/out" 2>"$work/err" </dev/null &
    lpid=$!
    wait_for_lines "$work/out" 1 "ready" || fail "no rank started"
    kill -KILL $lpid
    wait $lpid 2>/dev/null
    for i in $(seq 1 100); do
      left=$(ls /dev/shm 2>/dev/null | grep -E -- "-$lpid-" || true)
      [ -z "$left" ] && [ -z "$(pgrep -f -- "$token" || true)" ] && break
      sleep 0.1
    done
    [ -z "$left" ] || fail "shared memory left behind after SIGKILL: $left"
    [ -z "$(pgrep -f -- "$token" || true)" ] || fail "ranks left behind after SIGKILL"
    [ -z "$(pgrep -f -- "segment-watchdog /tilempi-$lpid-" || true)" ] || fail "the watchdog outlived its job"
    # SIGTERM during the start stops it at once, not after the last fork: the launcher starts
    # with a SIGTERM already pending (blocked, then exec), so the start loop is sure to see it.
    if command -v python3 >/dev/null; then
      python3 -c 'import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
os.kill(os.getpid(), signal.SIGTERM)
os.execv(sys.argv[1], sys.argv[1:])' "$run" -n 400 "$probe" sleep 60 "$token" >"$work/out" 2>"$work/err" </dev/null
      status=$?
      expect_status 143
      expect_out err "interrupted by SIGTERM"
      started=$(grep -c ready "$work/out")
      [ "$started" -lt 400 ] || fail "all 400 ranks were started before SIGTERM was acted on"
      expect_clean
    fi
    # A job the machine cannot hold is refused before the first fork, in one line.
    launch -n 100000 "$probe" args
    expect_status 1
    expect_out err "100000 host ranks need a [0-9]+ GiB shared segment"
    [ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected one line"
    expect_no_out out "argc"
    ;;

  no-progress)
    # launcher_test.sh no-progress TILEMPIRUN PROGRAM (mpi_no_progress.c), more ranks than cores.
    np=$(( $(nproc) * 2 + 1 ))
    [ "$np" -ge 5 ] || np=5
    # Deadlocked: every rank waits in MPI_Recv for its right neighbour. Reported after the set
    # time, not before, naming each rank's receive; the job ends with status 1, leaving nothing.
    launch -n "$np" --deadlock-after 2 --timeout 120 "$probe" deadlock "$token"
    expect_status 1
    expect_out err "^tilempirun: host: no progress for [0-9.]+ s: $np rank\\(s\\) wait and nothing is in flight"
    for ((r = 0; r < np; r++)); do
      expect_out err "^  rank $r \\(waiting for [0-9.]+ s\\): in MPI_Recv: receive from $(((r + 1) % np)) tag 7 on MPI_COMM_WORLD$"
    done
    idle=$(sed -n 's/^tilempirun: host: no progress for \([0-9.]*\) s.*/\1/p' "$work/err")
    awk -v t="${idle:-0}" 'BEGIN { exit !(t >= 2) }' || fail "reported after ${idle:-?} s of no progress, before --deadlock-after 2"
    expect_no_out err "timeout"
    expect_clean
    # The same through the environment variable; 0 turns the watch off (then --timeout ends it).
    TILEMPI_HOST_DEADLOCK_AFTER=1 launch -n 3 --timeout 120 "$probe" deadlock "$token"
    expect_status 1
    expect_out err "no progress for"
    expect_clean
    launch -n 3 --deadlock-after 0 --timeout 4 "$probe" deadlock "$token"
    expect_status 124
    expect_no_out err "no progress"
    expect_clean
    TILEMPI_HOST_DEADLOCK_AFTER=soon launch -n 2 "$probe" deadlock "$token"
    expect_status 2
    expect_out err "TILEMPI_HOST_DEADLOCK_AFTER 'soon'"
    # Slow but progressing: rank 0 computes for 3 s while the others wait in MPI_Recv, then
    # sends a message every 0.3 s; waits of up to 3 s against --deadlock-after 1 are no deadlock.
    launch -n "$np" --deadlock-after 1 --timeout 120 "$probe" slow 3 "$token"
    expect_status 0
    expect_no_out err "no progress"
    [ "$(grep -c ' done$' "$work/out")" -eq "$np" ] || fail "not every rank finished the slow job"
    # A rank that finalized and left while the others wait for it: they are reported, and so is it.
    launch -n 4 --deadlock-after 1 --timeout 120 "$probe" finalized "$token"
    expect_status 1
    expect_out err "no progress for [0-9.]+ s: 3 rank\\(s\\) wait"
    for r in 1 2 3; do expect_out err "^  rank $r \\(waiting for [0-9.]+ s\\): in MPI_Recv: receive from 0 tag 9"; done
    expect_out err "^  ended after MPI_Finalize: rank 0$"
    expect_clean
    # --timeout says where each rank is: rank 0 runs its own code, rank 1 waits in MPI_Recv,
    # the others in MPI_Barrier.
    launch -n 4 --timeout 3 "$probe" stuck "$token"
    expect_status 124
    expect_out err "^tilempirun: timeout: the job ran longer than 3 s"
    expect_out err "^  rank 0: running \\(not waiting in MPI\\)$"
    expect_out err "^  rank 1 \\(waiting for [0-9.]+ s\\): in MPI_Recv: receive from 0 tag 5 on MPI_COMM_WORLD"
    expect_out err "^  rank 2 \\(waiting for [0-9.]+ s\\): in MPI_Barrier"
    expect_out err "^  rank 3 \\(waiting for [0-9.]+ s\\): in MPI_Barrier"
    expect_no_out err "no progress"
    expect_clean
    ;;

  tools-bad-option)
    # launcher_test.sh tools-bad-option TILEMPIRUN PROBE TOOL...: every tool exits 2 on a bad option
    # with a message naming it, and 0 on --help; tilempirun's bad preset or --set key is 2 too.
    for tool in "$@"; do
      "$tool" --bogus-option >"$work/out" 2>"$work/err" </dev/null
      status=$?
      [ "$status" -eq 2 ] || fail "$(basename "$tool") --bogus-option: exit status $status, expected 2"
      grep -q -- "--bogus-option" "$work/err" || fail "$(basename "$tool") --bogus-option: the message does not name it"
      "$tool" --help >"$work/out" 2>"$work/err" </dev/null
      status=$?
      [ "$status" -eq 0 ] || fail "$(basename "$tool") --help: exit status $status"
    done
    launch -n 2 --transport sim --preset no-such-chip "$probe"
    expect_status 2
    expect_out err "unknown preset 'no-such-chip'"
    launch -n 2 --transport sim --set no.such.key=1 "$probe"
    expect_status 2
    expect_out err "unknown config key 'no.such.key'"
    ;;

  report-unwritable)
    # --report and --trace to a path that cannot be written fail before any rank starts.
    launch -n 2 --transport sim --report "$work/no-such-dir/report.json" "$probe" lines 1
    expect_status 2
    expect_out err "report.*no-such-dir"
    expect_no_out out "line"
    launch -n 2 --transport sim --trace /proc/no-trace-here.json "$probe" lines 1
    expect_status 2
    expect_out err "trace"
    expect_no_out out "line"
    # A writable path that did not exist is not left behind by the check.
    launch -n 2 --report "$work/fresh.json" --no-such-option "$probe" lines 1
    expect_status 2
    [ ! -e "$work/fresh.json" ] || fail "the writability check left $work/fresh.json behind"
    ;;

  singleton-refusal)
    # launcher_test.sh singleton-refusal - PROGRAM: a tilempi program started by another MPI's
    # launcher as one of several refuses to run as a singleton.
    for sign in PMI_SIZE=4 OMPI_COMM_WORLD_SIZE=2 PMIX_RANK=1 "SLURM_NTASKS=4 SLURM_PROCID=0 SLURM_STEP_ID=0"; do
      # shellcheck disable=SC2086
      env $sign "$probe" >"$work/out" 2>"$work/err" </dev/null
      status=$?
      [ "$status" -ne 0 ] || fail "$sign: a singleton ran (exit 0)"
      expect_out err "another MPI's launcher"
    done
    # One of one, or a whole Slurm allocation (no step), runs as a singleton.
    env PMI_SIZE=1 SLURM_NTASKS=8 "$probe" >"$work/out" 2>"$work/err" </dev/null
    status=$?
    expect_status 0
    ;;

  *)
    echo "launcher_test.sh: unknown case $case_name"
    exit 2
    ;;
esac

if [ "$failures" -ne 0 ]; then
  show_output
  exit 1
fi
echo "PASS [$case_name]"
exit 0
