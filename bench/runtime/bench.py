"""bench/runtime driver (a benchmark, not a test): lockrt against raw flock and
the common lock libraries, side by side in one run. Called by run.sh.

Uncontended: mean ns per acquire+release cycle; every method runs ROUNDS
time-bounded rounds, interleaved (round 1 of every method, then round 2, ...)
so that load drift on a shared machine hits all of them alike; the best round
counts. Contended: PROCS processes x OPS locked read-modify-write increments
of one counter file; ops/s over the span from the first start to the last
end, and the final counter checked (lost increments are reported).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PY_METHODS = ["raw-flock", "raw-flock-checked", "raw-flock-kept", "lockrt", "lockrt-nokeep", "lockrt-c", "lockrt-pure", "lockrt-lockfile",
              "filelock", "portalocker"]
NODE_METHODS = ["lockrt", "lockrt-promise", "lockrt-lockfile", "proper-lockfile", "proper-lockfile-async", "lockfile"]


class Env(object):
    def __init__(self, args):
        self.library = args.library
        self.addon = args.addon
        self.tools = args.tools
        self.cbench = args.cbench

    def py(self, method):
        env = dict(os.environ)
        for var in ("LOCKRT_LIBRARY", "LOCKRT_PURE_PYTHON", "LOCKRT_PY_OSLOCK", "LOCKRT_PY_KEEP_FD", "LOCKRT_STRATEGY"):
            env.pop(var, None)
        if method == "lockrt-pure":
            env["LOCKRT_PURE_PYTHON"] = "1"
        else:
            env["LOCKRT_LIBRARY"] = self.library
        if method == "lockrt-c":
            env["LOCKRT_PY_OSLOCK"] = "native"
        if method == "lockrt-nokeep":
            env["LOCKRT_PY_KEEP_FD"] = "0"
        return [sys.executable, os.path.join(HERE, "py_bench.py")], env

    def node(self, method):
        env = dict(os.environ)
        env.pop("LOCKRT_STRATEGY", None)
        env["LOCKRT_NODE_ADDON"] = self.addon
        env["NODE_PATH"] = os.path.join(self.tools, "node_modules")
        return ["node", os.path.join(HERE, "node_bench.js")], env


def run_json(cmd, env):
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE).stdout.decode()
    return json.loads(out.strip().splitlines()[-1])


def uncontended(env, work, rounds, seconds):
    """Python methods in one process, Node methods in another, each alternating
    short batches for rounds*seconds*len(methods) seconds; fastest batch counts."""
    best = {}
    base, e = env.py("lockrt")
    e["LOCKRT_BENCH_LIBRARY"] = env.library
    total = rounds * seconds * len(PY_METHODS)
    res = run_json(base + ["uncontended-all", "--method", ",".join(PY_METHODS), "--lock",
                           os.path.join(work, "u-py"), "--seconds", str(total)], e)
    best.update({("py", m): v for m, v in res["ns_per_op"].items()})
    sys.stderr.write("  uncontended Python done\n")
    base, e = env.node("lockrt")
    total = rounds * seconds * len(NODE_METHODS)
    res = run_json(base + ["uncontended-all", "--method", ",".join(NODE_METHODS), "--lock",
                           os.path.join(work, "u-node"), "--seconds", str(total)], e)
    best.update({("node", m): v for m, v in res["ns_per_op"].items()})
    sys.stderr.write("  uncontended Node done\n")
    return best


def contended_one(env, work, lang, method, procs, ops):
    d = tempfile.mkdtemp(dir=work)
    counter = os.path.join(d, "counter")
    with open(counter, "wb") as fh:
        fh.write(b"%020d" % 0)
    lock = os.path.join(d, "lock")
    go = os.path.join(d, "go")
    base, e = env.py(method) if lang == "py" else env.node(method)
    children = [subprocess.Popen(base + ["contended", "--method", method, "--lock", lock, "--counter", counter,
                                         "--ops", str(ops), "--go", go], env=e, stdout=subprocess.PIPE)
                for _ in range(procs)]
    time.sleep(0.5 if lang == "py" else 1.0)  # let every worker reach the barrier
    open(go, "w").close()
    spans = []
    for child in children:
        out, _ = child.communicate(timeout=900)
        if child.returncode != 0:
            raise SystemExit("contended %s %s: worker exited %d" % (lang, method, child.returncode))
        spans.append(json.loads(out.decode().strip().splitlines()[-1]))
    with open(counter, "rb") as fh:
        final = int(fh.read(32))
    span = max(s["end"] for s in spans) - min(s["start"] for s in spans)
    shutil.rmtree(d, ignore_errors=True)
    return {"ops_per_sec": procs * ops / span, "lost": procs * ops - final}


def contended(env, work, procs, ops, repeats):
    slow = {"proper-lockfile", "lockfile", "lockrt-lockfile"}
    plan = ([("py", m) for m in PY_METHODS if m != "raw-flock-kept"]  # (an uncontended floor only)
            + [("node", m) for m in ["lockrt", "lockrt-promise", "lockrt-lockfile", "proper-lockfile", "lockfile"]])
    results = {}
    for r in range(repeats):  # interleaved repeats; the best run of each counts
        for lang, method in plan:
            n = max(ops // 10, 20) if method == "proper-lockfile" else max(ops // 5, 20) if method in slow else ops
            res = dict(contended_one(env, work, lang, method, procs, n), ops=n)
            prev = results.get((lang, method))
            if prev is None or res["ops_per_sec"] > prev["ops_per_sec"] or res["lost"]:
                if prev is not None and prev["lost"]:
                    res["lost"] = max(res["lost"], prev["lost"])
                results[(lang, method)] = res
        sys.stderr.write("  contended repeat %d/%d done\n" % (r + 1, repeats))
    return results


def c_bench(env, work, procs, ops, repeats):
    """lockrt_bench `repeats` times; per method the fastest uncontended mean and
    the best contended throughput count (lost increments: the worst)."""
    os.makedirs(os.path.join(work, "c"), exist_ok=True)
    best = None
    for _ in range(repeats):
        out = subprocess.run([env.cbench, "--json", "--procs", str(procs), "--ops", str(ops), "--iters", "20000",
                              "--dir", os.path.join(work, "c")], check=True, stdout=subprocess.PIPE).stdout
        run = json.loads(out.decode().strip().splitlines()[-1])
        if best is None:
            best = run
            continue
        for mine, theirs in zip(best["uncontended"], run["uncontended"]):
            mine["ns_per_op"] = min(mine["ns_per_op"], theirs["ns_per_op"])
        for mine, theirs in zip(best["contended"], run["contended"]):
            mine["ops_per_sec"] = max(mine["ops_per_sec"], theirs["ops_per_sec"])
            mine["lost"] = max(mine["lost"], theirs["lost"])
    return best


def fmt_ns(ns):
    return "%.1f us" % (ns / 1000.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--addon", required=True)
    ap.add_argument("--cbench", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--ops", type=int, default=500)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json-out")
    args = ap.parse_args()
    env = Env(args)
    work = tempfile.mkdtemp(prefix="lockrt-bench-")
    try:
        with open("/proc/loadavg") as fh:
            load_before = fh.read().split()[:3]
        sys.stderr.write("C benchmark (runtime/bench/lockrt_bench)...\n")
        c = c_bench(env, work, args.procs, args.ops, args.repeats)
        sys.stderr.write("uncontended...\n")
        unc = uncontended(env, work, args.rounds, args.seconds)
        sys.stderr.write("contended (%d processes)...\n" % args.procs)
        con = contended(env, work, args.procs, args.ops, args.repeats)
        with open("/proc/loadavg") as fh:
            load_after = fh.read().split()[:3]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    c_unc = {m["name"]: m["ns_per_op"] for m in c["uncontended"]}
    c_con = {m["name"]: m for m in c["contended"]}
    print("lockrt benchmark  (%d cores; load average before %s, after %s)" % (os.cpu_count(), " ".join(load_before),
                                                                             " ".join(load_after)))
    print("\nUncontended acquire+release (C: lockrt_bench; Python and Node: fastest of many short "
          "batches alternating between methods)")
    print("  %-6s %-24s %12s" % ("lang", "method", "per cycle"))
    for name in ("raw-flock-open", "raw-flock-checked", "raw-flock-held", "raw-flock-kept-checked", "lockrt-oslock",
                 "lockrt-oslock-nokeep", "lockrt-lockfile"):
        print("  %-6s %-24s %12s" % ("C", name, fmt_ns(c_unc[name])))
    for (lang, method), ns in unc.items():
        print("  %-6s %-24s %12s" % ({"py": "Python", "node": "Node"}[lang], method, fmt_ns(ns)))

    print("\nContended read-modify-write, %d processes (best of %d repeats; Python and Node interleaved)"
          % (args.procs, args.repeats))
    print("  %-6s %-24s %12s %8s %6s" % ("lang", "method", "ops/s", "ops/proc", "lost"))
    for name, m in c_con.items():
        print("  %-6s %-24s %12.0f %8d %6d" % ("C", name, m["ops_per_sec"], c["ops"], m["lost"]))
    for (lang, method), m in con.items():
        print("  %-6s %-24s %12.0f %8d %6d" % ({"py": "Python", "node": "Node"}[lang], method, m["ops_per_sec"],
                                               m["ops"], m["lost"]))

    py, node = (lambda m: unc[("py", m)]), (lambda m: unc[("node", m)])
    pyc, nodec = (lambda m: con[("py", m)]["ops_per_sec"]), (lambda m: con[("node", m)]["ops_per_sec"])
    ratios = [
        ("Python binding / raw Python flock cycle (target <= 1.5x)", py("lockrt") / py("raw-flock"), "x"),
        ("Python binding, no kept descriptor (LOCKRT_PY_KEEP_FD=0) / raw flock", py("lockrt-nokeep") / py("raw-flock"), "x"),
        ("Python binding / flock+unlock on a kept descriptor (no checks; floor)", py("lockrt") / py("raw-flock-kept"), "x"),
        ("Python binding via C (LOCKRT_PY_OSLOCK=native) / raw Python flock", py("lockrt-c") / py("raw-flock"), "x"),
        ("Python pure-Python fallback / raw Python flock", py("lockrt-pure") / py("raw-flock"), "x"),
        ("filelock / Python binding (target > 1: binding faster)", py("filelock") / py("lockrt"), "x"),
        ("portalocker / Python binding", py("portalocker") / py("lockrt"), "x"),
        ("proper-lockfile (lockSync) / Node binding sync (target >= 20x)", node("proper-lockfile") / node("lockrt"), "x"),
        ("proper-lockfile (async) / Node binding promise (target >= 20x)",
         node("proper-lockfile-async") / node("lockrt-promise"), "x"),
        ("lockrt C oslock / raw C open+flock cycle", c_unc["lockrt-oslock"] / c_unc["raw-flock-open"], "x"),
        ("contended: Python binding / raw Python flock throughput", pyc("lockrt") / pyc("raw-flock"), "x"),
        ("contended: Python binding / filelock throughput", pyc("lockrt") / pyc("filelock"), "x"),
        ("contended: Python binding / portalocker throughput", pyc("lockrt") / pyc("portalocker"), "x"),
        ("contended: Node binding / proper-lockfile throughput", nodec("lockrt") / nodec("proper-lockfile"), "x"),
        ("contended: Python via C (lockrt-c) / raw Python flock throughput", pyc("lockrt-c") / pyc("raw-flock"), "x"),
        ("contended: raw Python flock + lockrt's two checks / raw Python flock",
         pyc("raw-flock-checked") / pyc("raw-flock"), "x"),
        ("contended: lockrt C oslock (bounded) / raw C flock, held fd (floor)",
         c_con["lockrt-oslock"]["ops_per_sec"] / c_con["raw-flock-held"]["ops_per_sec"], "x"),
        ("contended: lockrt C oslock (bounded) / raw C open+flock (blocking)",
         c_con["lockrt-oslock"]["ops_per_sec"] / c_con["raw-flock-open"]["ops_per_sec"], "x"),
        ("contended: lockrt C oslock (bounded) / raw C flock, kept descriptor + two checks",
         c_con["lockrt-oslock"]["ops_per_sec"] / c_con["raw-flock-kept-checked"]["ops_per_sec"], "x"),
        ("contended: lockrt C oslock, no kept descriptor / raw C open+flock (blocking)",
         c_con["lockrt-oslock-nokeep"]["ops_per_sec"] / c_con["raw-flock-open"]["ops_per_sec"], "x"),
        ("contended: lockrt C oslock (bounded) / raw C open+flock + two checks",
         c_con["lockrt-oslock"]["ops_per_sec"] / c_con["raw-flock-checked"]["ops_per_sec"], "x"),
        ("contended: lockrt C oslock bounded / unbounded (timeout -1)",
         c_con["lockrt-oslock"]["ops_per_sec"] / c_con["lockrt-oslock-forever"]["ops_per_sec"], "x"),
    ]
    print("\nRatios")
    for label, value, unit in ratios:
        print("  %-72s %8.2f%s" % (label, value, unit))
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump({"load_before": load_before, "load_after": load_after, "c": c,
                       "uncontended_ns": {"%s:%s" % k: v for k, v in unc.items()},
                       "contended": {"%s:%s" % k: v for k, v in con.items()},
                       "ratios": {label: value for label, value, _ in ratios}}, fh, indent=1)
        print("\nfigures written to %s" % args.json_out)


if __name__ == "__main__":
    main()
