#!/usr/bin/env python3
"""Runs a configured copy of MPICH's test/mpi against tilempi (called by mpich-testsuite.sh,
which fetches and configures the suite; see its --help).

Reads each area's testlist (lines "program nprocs [key=value ...]", a directory name recursing
into that directory's testlist), builds each program with the suite's own Makefile (which uses
tilempi's wrappers), runs it through tilempirun on each transport and judges it as MPICH's
runtests does. Results go to WORK/results.csv and WORK/summary.md."""

import argparse
import concurrent.futures
import csv
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

DEFAULT_AREAS = ["pt2pt", "coll", "datatype", "comm", "group", "init", "info", "attr",
                 "errhan", "rma", "topo", "io", "f77", "f90"]
KNOWN_AREAS = DEFAULT_AREAS + ["errors", "mpi_t", "part", "threads"]
TRANSPORTS = {
    "host": ["--transport", "host"],
    "sim": ["--transport", "sim", "--quiet"],
    "sim.processes": ["--transport", "sim", "--quiet", "--set", "sim.ranks=processes"],
}
FIELDS = ["test", "area", "ranks", "transport", "result", "seconds", "note"]
RESULTS = ["pass", "fail", "timeout", "build-error", "unsupported"]


class Test:
    def __init__(self, area, directory, program, np, args, envs, opts, line):
        self.area = area
        self.directory = directory  # relative to the suite
        self.program = program
        self.np = np
        self.args = args
        self.envs = envs
        self.opts = opts
        self.line = line

    @property
    def name(self):
        """What identifies the test in the CSV: its directory, program and arguments."""
        label = f"{self.directory}/{self.program}"
        extra = self.args + [e for e in self.envs if not e.startswith("MPIR_")]
        return label + ("" if not extra else " " + " ".join(extra))


def read_testlist(suite, directory, area, tests, skipped):
    path = os.path.join(suite, directory, "testlist")
    if not os.path.exists(path):
        return
    seen = set()
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            program = words[0]
            if os.path.isdir(os.path.join(suite, directory, program)):
                read_testlist(suite, os.path.join(directory, program), area, tests, skipped)
                continue
            np = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
            args, envs, opts = [], [], {}
            for w in words[2:]:
                key, _, value = w.partition("=")
                if key == "arg":
                    args.append(value)
                elif key == "env":
                    envs.append(value)
                else:
                    opts.setdefault(key, []).append(value)
            # Variants that differ only in MPICH's own control variables are one run for tilempi.
            key = (program, np, tuple(args), tuple(e for e in envs if not e.startswith("MPIR_")))
            if key in seen:
                skipped.append(f"{directory}/{program} {np} (MPIR_CVAR variant)")
                continue
            seen.add(key)
            tests.append(Test(area, directory, program, np, args, envs, opts, line))


MISSING_PATTERNS = [
    re.compile(r"implicit declaration of function ['‘`]((?:P?MPIX?_|MPI_T_)\w+)"),
    re.compile(r"['‘`]((?:MPIX?)_\w+)['’`] undeclared"),
    re.compile(r"unknown type name ['‘`]((?:MPIX?)_\w+)"),
    re.compile(r"undefined reference to [`'‘]((?:P?MPIX?|p?mpix?)_\w+)"),
    re.compile(r"Symbol ['‘`]((?:mpix?)_\w+)['’`] at .* has no IMPLICIT type", re.I),
]


def missing_names(log):
    names = set()
    for pattern in MISSING_PATTERNS:
        names.update(m.group(1) for m in pattern.finditer(log))
    return sorted(names)


def build(suite, work, test, rebuild, lock):
    """Returns (ok, note). Builds once per program (a later line of the same program reuses it)."""
    directory = os.path.join(suite, test.directory)
    exe = os.path.join(directory, test.program)
    log_path = os.path.join(work, "logs", "build", test.directory, test.program + ".log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with lock(exe):
        if os.path.exists(exe) and not rebuild.pop(exe, False):
            return True, ""
        if os.path.exists(exe):
            os.remove(exe)
        out = subprocess.run(["make", "-C", directory, test.program], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace")
        with open(log_path, "w") as f:
            f.write(out.stdout)
        if out.returncode == 0 and os.path.exists(exe):
            return True, ""
        names = missing_names(out.stdout)
        if names:
            return False, "unsupported: " + " ".join(names)
        first = next((l for l in out.stdout.splitlines() if "error" in l.lower()), "")
        return False, "build-error: " + first.strip()[:200]


OK_LINE = re.compile(r"^\s*(No [Ee]rrors|Test Passed)\s*$")


def judge(test, status, output):
    """MPICH's runtests rules: the default wants status 0, ' No Errors' and nothing else;
    TestStatus and TestErrFatal want a nonzero status, whatever is printed; TestStatusNoErrors
    a nonzero status and ' No Errors'."""
    lines = [l for l in output.splitlines() if l.strip() and "FORTRAN STOP" not in l]
    result_test = test.opts.get("resultTest", [""])[0]
    unexpected = [l for l in lines if not OK_LINE.match(l)]
    no_errors = any(OK_LINE.match(l) and "rror" in l for l in lines)
    if result_test in ("TestStatus", "TestErrFatal"):  # (runtests reads no further than the first line)
        return status != 0, "status 0 where a failure was expected" if status == 0 else ""
    if result_test == "TestStatusNoErrors":
        ok = status != 0 and no_errors
        return ok, "status 0 where a failure was expected" if status == 0 else "no 'No Errors'"
    if status == 0 and no_errors and not unexpected:
        return True, ""
    if unexpected:
        return False, f"status {status}: " + unexpected[0].strip()[:200]
    return False, f"status {status}" + ("" if no_errors else ", no 'No Errors'")


def run(suite, work, binary_dir, test, transport, timeout_default, cap):
    directory = os.path.join(suite, test.directory)
    limit = timeout_default
    expects_failure = test.opts.get("resultTest", [""])[0] in ("TestStatus", "TestErrFatal")
    for value in test.opts.get("timeLimit", []):
        if value.isdigit():
            # A test that wants its job to fail may want the launcher's timeout to end it
            # (init/timeout): runtests passes timeLimit as MPIEXEC_TIMEOUT, and so does this.
            limit = int(value) if expects_failure else max(limit, int(value))
    if cap:
        limit = min(limit, cap)
    command = [os.path.join(binary_dir, "tilempirun"), "-n", str(test.np), "--timeout", str(limit)]
    command += TRANSPORTS[transport]
    for env in test.envs:
        command += ["-x", env]
    command += [os.path.join(directory, test.program)] + test.args
    label = re.sub(r"[^\w.=-]+", "_", f"{test.program}.{test.np}.{'_'.join(test.args)}")
    log_path = os.path.join(work, "logs", transport, test.directory, label + ".log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    # Each run in an empty directory of its own: the I/O tests write scratch files under fixed
    # names (iotest.txt), which two tests run at once in their source directory overwrote.
    scratch = os.path.join(work, "scratch", transport, test.directory, label)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    start = time.monotonic()
    proc = subprocess.Popen(command, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace", start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=limit + 30)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # our own job's process group, nobody else's
        output, _ = proc.communicate()
        status = 124
    seconds = time.monotonic() - start
    shutil.rmtree(scratch, ignore_errors=True)
    with open(log_path, "w") as f:
        f.write("$ cd " + scratch + " && " + " ".join(command) + "\n" + output + f"\n[status {status}]\n")
    if status == 124 and not expects_failure:
        return "timeout", seconds, f"no end within {limit} s"
    ok, why = judge(test, status, output)
    return ("pass" if ok else "fail"), seconds, why


def load_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_rows(path, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def summary(rows, version, skipped, areas_order):
    by = {}
    for r in rows:
        by.setdefault((r["area"], r["transport"]), {}).setdefault(r["result"], 0)
        by[(r["area"], r["transport"])][r["result"]] += 1
    out = [f"MPICH {version} test/mpi against tilempi, {datetime.date.today().isoformat()}", "",
           "| area | transport | pass | fail | timeout | build-error | unsupported | total | pass rate |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    totals = {}
    keys = sorted(by, key=lambda k: (areas_order.index(k[0]) if k[0] in areas_order else 99, k[0], k[1]))
    for key in keys:
        counts = by[key]
        total = sum(counts.values())
        t = totals.setdefault(key[1], {})
        for k, v in counts.items():
            t[k] = t.get(k, 0) + v
        out.append(f"| {key[0]} | {key[1]} | " + " | ".join(str(counts.get(r, 0)) for r in RESULTS)
                   + f" | {total} | {100.0 * counts.get('pass', 0) / total:.0f}% |")
    for transport, counts in sorted(totals.items()):
        total = sum(counts.values())
        out.append(f"| **all** | {transport} | " + " | ".join(str(counts.get(r, 0)) for r in RESULTS)
                   + f" | {total} | {100.0 * counts.get('pass', 0) / total:.0f}% |")
    if skipped:
        out += ["", f"{len(skipped)} test lines that differ from another only in MPICH's MPIR_CVAR_ "
                "settings were run once."]
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--suite", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--bin", required=True)
    p.add_argument("--version", default="mpich")
    p.add_argument("--area", action="append", default=[])
    p.add_argument("--transport", action="append", default=[])
    p.add_argument("--timeout", type=int, default=180)
    p.add_argument("--cap", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()

    areas = [x for v in a.area for x in v.split(",") if x] or DEFAULT_AREAS
    for area in areas:
        if not os.path.isdir(os.path.join(a.suite, area)):
            sys.exit(f"mpich-testsuite.sh: no area '{area}' in the suite (known: {' '.join(KNOWN_AREAS)})")
    transports = [x for v in a.transport for x in v.split(",") if x] or ["host", "sim"]
    for t in transports:
        if t not in TRANSPORTS:
            sys.exit(f"mpich-testsuite.sh: transport '{t}' is not one of {' '.join(TRANSPORTS)}")
    if a.jobs < 1:
        sys.exit("mpich-testsuite.sh: --jobs wants a positive number")

    tests, skipped = [], []
    for area in areas:
        read_testlist(a.suite, area, area, tests, skipped)
    if a.list:
        for t in tests:
            print(f"{t.area}\t{t.np}\t{t.name}")
        print(f"{len(tests)} tests, {len(skipped)} MPIR_CVAR variants left out", file=sys.stderr)
        return

    csv_path = os.path.join(a.work, "results.csv")
    rows = load_rows(csv_path)
    chosen = set(areas)
    if a.resume:
        done = {(r["test"], r["ranks"], r["transport"]) for r in rows}
    else:
        rows = [r for r in rows if not (r["area"] in chosen and r["transport"] in transports)]
        done = set()
    rows_lock = threading.Lock()
    exe_locks, exe_locks_lock = {}, threading.Lock()

    def lock(exe):
        with exe_locks_lock:
            return exe_locks.setdefault(exe, threading.Lock())

    rebuild = {}
    if a.rebuild:
        rebuild = {os.path.join(a.suite, t.directory, t.program): True for t in tests}

    def work_item(test):
        todo = [t for t in transports if (test.name, str(test.np), t) not in done]
        if not todo:
            return
        ok, note = build(a.suite, a.work, test, rebuild, lock)
        for transport in todo:
            if ok:
                result, seconds, why = run(a.suite, a.work, a.bin, test, transport, a.timeout, a.cap)
            else:
                result = "unsupported" if note.startswith("unsupported") else "build-error"
                seconds, why = 0.0, note.split(": ", 1)[1]
            row = {"test": test.name, "area": test.area, "ranks": test.np, "transport": transport,
                   "result": result, "seconds": f"{seconds:.1f}", "note": why}
            with rows_lock:
                rows.append(row)
                write_rows(csv_path, rows)
            print(f"{result:12s} {seconds:6.1f}s  {transport:13s} -n {test.np:<3d} {test.name}"
                  + (f"  ({why})" if why and result != "pass" else ""), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for f in concurrent.futures.as_completed([pool.submit(work_item, t) for t in tests]):
            f.result()

    text = summary(rows, a.version, skipped, KNOWN_AREAS)
    with open(os.path.join(a.work, "summary.md"), "w") as f:
        f.write(text)
    print()
    print(text, end="")
    print(f"results: {csv_path}; logs: {os.path.join(a.work, 'logs')}")


if __name__ == "__main__":
    main()
