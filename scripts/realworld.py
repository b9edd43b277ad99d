#!/usr/bin/env python3
"""The fan-out fix on the real target: vectorize-io/hindsight's hindsight-integrations.

    realworld.py SOURCE [--work DIR] [--commit C] [--sizes 6x40,8x200] [--backends native,python]

SOURCE is a checkout of the hindsight repository (or its hindsight-integrations
directory), or a git directory (bare or not) from which --commit (default
da9a588c7) is exported. The tree is copied to a scratch directory; nothing of it
enters this repository. Then:

 1. each integration that ships a state.py runs its own pytest suite (Debian's
    python3-pytest, /usr/bin/python3): the baseline;
 2. `lockfix fix --apply` runs once over the whole copy; its fixes are counted
    per rule (scan before and after);
 3. the suites run again: nothing may newly fail;
 4. lost updates: N real processes x M calls of each integration's own
    increment_turn_count(key), with sys.platform forced to "win32" (the path
    that ran unlocked), one key per process, all imported before any starts.
    The unpatched copy is the control (it must lose updates); the patched copy
    must lose none, on each backend of the vendored binding.
Exit status 0 only when every check holds. Not part of CI (it needs the tree).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
DEFAULT_COMMIT = "da9a588c7"

# Run by each contender: import the integration's state module on the Windows
# path, wait for the start byte, call increment_turn_count(KEY) ITERS times.
CONTENDER = r"""
import importlib, json, sys
sys.platform = "win32"
sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[2])
key, iters = sys.argv[3], int(sys.argv[4])
binding = sys.modules.get(sys.argv[2].rsplit(".", 1)[0] + ".lockrt")
print(json.dumps({"ready": True, "backend": getattr(binding, "BACKEND", "unpatched")}), flush=True)
sys.stdin.read(1)
errors = 0
for _ in range(iters):
    try:
        m.increment_turn_count(key)
    except Exception:
        errors += 1
print(json.dumps({"errors": errors}), flush=True)
"""

# Read each key's count back through the module's own API: one more increment.
READBACK = r"""
import importlib, json, sys
sys.platform = "win32"
sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[2])
print(json.dumps({k: m.increment_turn_count(k) - 1 for k in sys.argv[3:]}))
"""


def log(msg):
    print(msg, flush=True)


def export_tree(source, commit, dest):
    """Copy hindsight-integrations from SOURCE into dest; return its path."""
    os.makedirs(dest, exist_ok=True)
    target = os.path.join(dest, "hindsight-integrations")
    for cand in (os.path.join(source, "hindsight-integrations"), source):
        if os.path.isdir(cand) and os.path.basename(os.path.normpath(cand)) == "hindsight-integrations":
            shutil.copytree(cand, target, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "node_modules"))
            return target
    git_dir = source if os.path.exists(os.path.join(source, "HEAD")) else os.path.join(source, ".git")
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", commit, "hindsight-integrations"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    return target


def state_modules(root):
    """{integration: (sys.path entry, module name, state.py path)} for every
    integration shipping a lib/state.py."""
    out = {}
    for name in sorted(os.listdir(root)):
        top = os.path.join(root, name)
        if not os.path.isdir(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in ("node_modules", "tests", ".git", "__pycache__")]
            if "state.py" in filenames and os.path.basename(dirpath) == "lib":
                out[name] = (os.path.dirname(dirpath), "lib.state", os.path.join(dirpath, "state.py"))
                break
    return out


def clean_env(home):
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("PLUGIN_DATA") and not k.startswith("LOCKRT_") and k != "LD_PRELOAD"}
    env.update(HOME=home, PYTHONDONTWRITEBYTECODE="1")
    return env


def run_suite(integration_dir, scratch):
    """(passed, failed, skipped, set of failing test ids) of the integration's own pytest run."""
    home = tempfile.mkdtemp(prefix="home-", dir=scratch)
    proc = subprocess.run([PYTHON, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider"], cwd=integration_dir,
                          env=clean_env(home), capture_output=True, text=True, timeout=1800)
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|skipped|errors?)", tail)}
    failing = set(re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, re.M))
    return counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0), \
        counts.get("skipped", 0), failing


def contend(path_entry, module, procs, iters, scratch, env_extra):
    home = tempfile.mkdtemp(prefix="home-", dir=scratch)
    env = clean_env(home)
    env.update(env_extra)
    keys = ["k%d" % i for i in range(procs)]
    workers = [subprocess.Popen([PYTHON, "-c", CONTENDER, path_entry, module, k, str(iters)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for k in keys]
    backends = set()
    for w in workers:
        backends.add(json.loads(w.stdout.readline())["backend"])
    for w in workers:
        w.stdin.write("g")
        w.stdin.flush()
    errors = 0
    for w in workers:
        w.stdin.close()
        errors += json.loads(w.stdout.readline())["errors"]
        if w.wait(timeout=900) != 0:
            raise SystemExit("a contender exited %d" % w.returncode)
    back = subprocess.run([PYTHON, "-c", READBACK, path_entry, module] + keys, env=env, capture_output=True,
                          text=True, timeout=300)
    if back.returncode != 0:
        raise SystemExit("read-back failed: " + back.stderr)
    counts = json.loads(back.stdout)
    return sum(counts.values()), procs * iters, errors, sorted(backends)


def scan_counts(lockfix, root):
    proc = subprocess.run([lockfix, "scan", ".", "--format", "json", "--select", "LF101,LF201,LF401"], cwd=root,
                          capture_output=True, text=True)
    doc = json.loads(proc.stdout)
    counts = {}
    for f in doc.get("findings", []):
        counts[f["rule_id"]] = counts.get(f["rule_id"], 0) + 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source")
    ap.add_argument("--work", help="scratch directory (default: a new temporary one, kept)")
    ap.add_argument("--commit", default=DEFAULT_COMMIT)
    ap.add_argument("--sizes", default="6x40,8x200")
    ap.add_argument("--backends", default="native,python")
    ap.add_argument("--lockfix", default=os.environ.get("LOCKFIX_BIN", os.path.join(SRC, "build", "analyzer", "lockfix")))
    ap.add_argument("--library", default=os.environ.get("LOCKFIX_LOCKRT_LIBRARY",
                                                        os.path.join(SRC, "build", "runtime", "liblockrt.so")))
    args = ap.parse_args()
    scratch = os.path.abspath(args.work or tempfile.mkdtemp(prefix="lockfix-realworld-"))
    os.makedirs(scratch, exist_ok=True)
    ok = True

    before_root = export_tree(os.path.abspath(args.source), args.commit, os.path.join(scratch, "before"))
    after_root = export_tree(os.path.abspath(args.source), args.commit, os.path.join(scratch, "after"))
    modules = state_modules(after_root)
    log("tree: %s (commit %s); integrations with a state.py: %s" % (after_root, args.commit, ", ".join(modules)))

    log("\n== 1. each integration's own pytest suite, before the fix")
    baseline = {}
    for name in modules:
        baseline[name] = run_suite(os.path.join(before_root, name), scratch)
        log("  %-12s %4d passed, %d failed, %d skipped" % ((name,) + baseline[name][:3]))

    log("\n== 2. lockfix fix --apply over the whole tree")
    found = scan_counts(args.lockfix, after_root)
    started = time.monotonic()
    fix = subprocess.run([args.lockfix, "fix", ".", "--apply"], cwd=after_root, capture_output=True, text=True)
    log("  %s" % "\n  ".join(l for l in fix.stderr.splitlines() if l.startswith(("lockfix:", "fan-out"))))
    left = scan_counts(args.lockfix, after_root)
    for rule in ("LF101", "LF201", "LF401"):
        fixed = found.get(rule, 0) - left.get(rule, 0)
        log("  %s: %d of %d fixed" % (rule, fixed, found.get(rule, 0)))
        ok &= fixed == found.get(rule, 0) and found.get(rule, 0) > 0
    log("  (%.1f s; exit %d)" % (time.monotonic() - started, fix.returncode))
    if fix.returncode >= 2:
        log(fix.stderr)
        ok = False

    log("\n== 3. the suites again, after the fix")
    total_before = total_after = 0
    for name in modules:
        after = run_suite(os.path.join(after_root, name), scratch)
        new = sorted(after[3] - baseline[name][3])
        total_before += baseline[name][0]
        total_after += after[0]
        log("  %-12s %4d passed, %d failed, %d skipped%s" % ((name,) + after[:3] + (
            "; NEWLY FAILING: " + ", ".join(new) if new else "",)))
        ok &= not new and after[0] >= baseline[name][0]
    log("  total passed: %d before, %d after" % (total_before, total_after))

    log("\n== 4. lost updates through increment_turn_count, Windows path forced")
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    backends = {"native": {"LOCKRT_LIBRARY": args.library}, "python": {"LOCKRT_PURE_PYTHON": "1"}}
    patched = [n for n in modules if "lockrt.exclusive_lock" in open(modules[n][2], encoding="utf-8").read()]
    log("  patched integrations: %s" % ", ".join(patched))
    for name in patched:
        entry, module, _ = modules[name]
        before_entry = os.path.join(before_root, os.path.relpath(entry, after_root))
        for procs, iters in sizes:
            kept, want, errors, _ = contend(before_entry, module, procs, iters, scratch, {})
            log("  %-12s %dx%-4d unpatched: kept %4d of %4d (%d errors)" % (name, procs, iters, kept, want, errors))
            for b in args.backends.split(","):
                kept, want, errors, seen = contend(entry, module, procs, iters, scratch, backends[b])
                good = kept == want and errors == 0 and seen == [b]
                ok &= good
                log("  %-12s %dx%-4d patched (%s): kept %4d of %4d (%d errors)%s" % (
                    name, procs, iters, b, kept, want, errors, "" if good else "  <-- FAIL %s" % seen))
    log("\nscratch kept in %s" % scratch)
    log("RESULT: %s" % ("all checks hold" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
