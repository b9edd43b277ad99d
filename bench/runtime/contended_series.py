"""Contended throughput only, interleaved (a benchmark, not a test).

    contended_series.py --cbench B --library NAME=PATH [--library NAME=PATH ...]
                        [--procs 8|1,2,4,8] [--ops 500] [--rounds 7] [--methods M,...]

On a shared, noisy machine a run of bench/runtime/run.sh measures its methods
one after another, so load drift lands on some rows and not others. This runs
ROUNDS rounds; each round measures every method once, for every library given
(e.g. this tree's liblockrt and an older build's), in one order, and records
the 1-minute load average before it. It prints each row's median and the
ratios of medians that separate lockrt's wait from its checks. --procs takes a
list: the whole series runs at each number of contenders in turn (run.sh
--series: 1,2,4,8). Methods:

  C:raw-flock-held, C:raw-flock-open, C:raw-flock-checked,
  C:raw-flock-kept-checked, C:lockrt-oslock, C:lockrt-oslock-forever,
  C:lockrt-oslock-nokeep           lockrt_bench --contended (C workers)
  py:raw-flock, py:raw-flock-checked, py:lockrt-c, py:lockrt
                                   py_bench.py contended (Python workers)

Rows that do not use lockrt (raw-*) are measured once per round whatever the
number of libraries. lockrt_bench finds the library through LD_LIBRARY_PATH
(the directory of PATH). --json-out writes every figure.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (contended_one, Env)

DEFAULT_METHODS = ["C:raw-flock-open", "C:raw-flock-checked", "C:lockrt-oslock", "C:lockrt-oslock-forever",
                   "py:raw-flock", "py:raw-flock-checked", "py:lockrt-c", "py:lockrt"]


def load1():
    with open("/proc/loadavg") as fh:
        return float(fh.read().split()[0])


def c_contended(cbench, library, method, procs, ops, work):
    env = dict(os.environ)
    env.pop("LOCKRT_STRATEGY", None)
    env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.abspath(library))
    d = tempfile.mkdtemp(dir=work)
    try:
        out = subprocess.run([cbench, "--contended", method, "--procs", str(procs), "--ops", str(ops), "--dir", d],
                             env=env, check=True, stdout=subprocess.PIPE).stdout
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return json.loads(out.decode().strip().splitlines()[-1])


class _Args(object):
    def __init__(self, library, cbench):
        self.library, self.cbench = library, cbench
        self.addon, self.tools = "", ""


def py_contended(library, method, procs, ops, work):
    return bench.contended_one(bench.Env(_Args(library, "")), work, "py", method, procs, ops)


def series(args, libraries, methods, procs, work):
    plan = []
    for m in methods:
        raw = m.split(":", 1)[1].startswith("raw-")
        for name, path in libraries[:1] if raw else libraries:
            plan.append((m, name, path))
    figures = {}
    loads = []
    for r in range(args.rounds):
        loads.append(load1())
        for m, name, path in plan:
            lang, method = m.split(":", 1)
            if lang == "C":
                res = c_contended(args.cbench, path, method, procs, args.ops, work)
            else:
                res = py_contended(path, method, procs, args.ops, work)
            if res["lost"]:
                raise SystemExit("%s (%s): %d increments lost" % (m, name, res["lost"]))
            key = m if m.split(":", 1)[1].startswith("raw-") else "%s@%s" % (m, name)
            figures.setdefault(key, []).append(res["ops_per_sec"])
        sys.stderr.write("  %d processes: round %d/%d done (load %.2f)\n" % (procs, r + 1, args.rounds, loads[-1]))

    med = {k: statistics.median(v) for k, v in figures.items()}
    print("contended, %d processes x %d ops, %d interleaved rounds; 1-min load before each round: %s"
          % (procs, args.ops, args.rounds, " ".join("%.1f" % x for x in loads)))
    print("  %-34s %10s  %s" % ("row", "median", "rounds (ops/s)"))
    for k, v in figures.items():
        print("  %-34s %10.0f  %s" % (k, med[k], " ".join("%.0f" % x for x in v)))
    print("ratios of medians")
    for name, _ in libraries:
        pairs = [("C:lockrt-oslock@%s" % name, "C:raw-flock-open"),
                 ("C:lockrt-oslock@%s" % name, "C:raw-flock-held"),
                 ("C:lockrt-oslock@%s" % name, "C:raw-flock-checked"),
                 ("C:lockrt-oslock@%s" % name, "C:raw-flock-kept-checked"),
                 ("C:lockrt-oslock@%s" % name, "C:lockrt-oslock-forever@%s" % name),
                 ("C:lockrt-oslock-nokeep@%s" % name, "C:raw-flock-open"),
                 ("py:lockrt-c@%s" % name, "py:raw-flock"),
                 ("py:lockrt-c@%s" % name, "py:raw-flock-checked"),
                 ("py:lockrt@%s" % name, "py:raw-flock")]
        for a, b in pairs:
            if a in med and b in med:
                print("  %-34s / %-28s %6.2fx" % (a, b, med[a] / med[b]))
    for a, b in [("C:raw-flock-checked", "C:raw-flock-open"), ("C:raw-flock-kept-checked", "C:raw-flock-open"),
                 ("py:raw-flock-checked", "py:raw-flock")]:
        if a in med and b in med:
            print("  %-34s / %-28s %6.2fx" % (a, b, med[a] / med[b]))
    return {"procs": procs, "ops": args.ops, "loads": loads, "figures": figures, "medians": med}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cbench", required=True)
    ap.add_argument("--library", action="append", required=True, help="NAME=PATH of a liblockrt.so")
    ap.add_argument("--procs", default="8", help="contenders, or a comma-separated list of them")
    ap.add_argument("--ops", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--methods", default=",".join(DEFAULT_METHODS))
    ap.add_argument("--json-out")
    args = ap.parse_args()
    libraries = [tuple(spec.split("=", 1)) for spec in args.library]
    methods = args.methods.split(",")
    work = tempfile.mkdtemp(prefix="lockrt-series-")
    results = []
    try:
        for i, procs in enumerate(int(p) for p in args.procs.split(",")):
            if i:
                print()
            results.append(series(args, libraries, methods, procs, work))
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(results if len(results) > 1 else results[0], fh, indent=1)


if __name__ == "__main__":
    main()
