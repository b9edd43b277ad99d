"""The mutation suite (issue 8, item 8): generate equivalent spellings of every
fixture site (gen.py), then for every case

  1. `lockfix scan` finds each site at exactly the line the generator put it;
  2. `lockfix fix --apply` (per rule, one run over all of its cases) never
     crashes; each site is either fixed or declined with a reason; the patched
     module parses and compiles, and keeps its __doc__ and its leading
     `from __future__` imports whatever its header (gen.MODULE_HEADERS); a second `fix` has nothing to do; a look-alike keeps its
     finding and its function is left byte for byte;
  3. the case's own fixture suite (the integration's tests plus the generated
     probe) passes on the unpatched module (else the case is a generator bug)
     and on the patched one, and the probe records the same behaviour before
     and after the patch (state bytes and permissions, what the guard accepts
     and rejects, what the locked functions return);
  4. for a sample of fixed LF101 cases, real processes with the Windows path
     forced (fcntl unavailable) lose no updates.

It prints the fix rate per rule and per dimension value, and fails when a rule
named by --enforce has a crash, a wrong or missing finding, a behaviour change
(a patched suite or probe that differs), or a fix rate below its --gate.

    mutate.py --work DIR [--enforce LF101] [--gate LF101=90] [--sample 8] [--jobs 2]
"""
import argparse
import ast
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("LOCKFIX_SRC") or os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.environ.get("LOCKFIX_BIN") or os.path.join(SRC, "build", "analyzer", "lockfix")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
sys.path.insert(0, HERE)
import gen  # noqa: E402

# The fixture tests that run real processes through the locked functions: on
# the unpatched module they exercise the bug itself (an msvcrt-spelled site runs
# unlocked on Linux), so the unpatched run leaves them out; the patched run
# keeps them.
CONCURRENCY_TESTS = "not concurrent and not parallel and not processes"
# Problems that fail the suite whatever --enforce says.
ALWAYS_FATAL = re.compile(r"BEHAVIOUR|GENERATOR|HEADER|crashed|does not parse|look-alike|second fix|lost-update")
NOT_FIXED = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):\d+: (?P<rule>LF\d+) not fixed: (?P<reason>.*)$")


REPORT = []


def log(msg):
    REPORT.append(msg)
    sys.stdout.write(msg + "\n")
    sys.stdout.flush()


def lockfix(args, cwd):
    proc = subprocess.run([BIN] + args, cwd=cwd, capture_output=True)
    return proc


def crashed(proc):
    """A signal, or an exit status outside lockfix's documented 0/1/2."""
    return proc.returncode < 0 or proc.returncode > 2


def functions(text):
    """{function or method name: source} of a module (nested classes too)."""
    tree = ast.parse(text)
    out = {}
    stack = list(tree.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.FunctionDef):
            out.setdefault(n.name, ast.get_source_segment(text, n))
        elif isinstance(n, ast.ClassDef):
            stack.extend(n.body)
    return out


def enclosing(text, line):
    """Name of the innermost top-level-or-method function holding `line`."""
    tree = ast.parse(text)
    best = None
    stack = list(tree.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.lineno <= line <= n.end_lineno:
            if isinstance(n, ast.FunctionDef):
                best = n.name
            stack.extend(n.body)
    return best


def module_facts(text):
    """(__doc__, the leading `from __future__` imports) as the compiler sees them."""
    tree = ast.parse(text)
    body = tree.body
    doc = ast.get_docstring(tree, clean=False)
    if doc is not None:
        body = body[1:]
    futures = []
    for s in body:
        if not (isinstance(s, ast.ImportFrom) and s.module == "__future__"):
            break
        futures.append([a.name for a in s.names])
    return doc, futures


def header_problems(before, after):
    """What a patch broke in the module header: it must still compile (a
    `from __future__` import that is no longer first is a SyntaxError of
    compile(), not of ast.parse), keep its __doc__ and its __future__ imports."""
    try:
        compile(after, "state.py", "exec")
    except SyntaxError as exc:
        return ["the patched module does not compile: %s" % exc]
    out = []
    (doc0, fut0), (doc1, fut1) = module_facts(before), module_facts(after)
    if doc0 != doc1:
        out.append("__doc__ changed from %r to %r" % ((doc0 or "")[:40], (doc1 or "")[:40]))
    if fut0 != fut1:
        out.append("the leading __future__ imports changed from %s to %s" % (fut0, fut1))
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def scan(root, rule, cases):
    proc = lockfix(["scan", "--no-config", "--select", rule, "--format", "json", "--jobs", "2"] + cases, root)
    if crashed(proc):
        return None, proc
    found = collections.defaultdict(list)
    for f in json.loads(proc.stdout.decode())["findings"]:
        if f["rule_id"] == rule:
            found[f["path"].split("/", 1)[0]].append(f)
    return found, proc


def run_suites(root, cases, args, jobs, probe_dir):
    out = os.path.join(root, "..", "suites-%s.json" % os.path.basename(root))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", MUTATION_PROBE_DIR=probe_dir)
    for k in list(env):
        if k.endswith("_STATE_DIR") or k.startswith("LOCKRT_"):
            del env[k]
    os.makedirs(probe_dir, exist_ok=True)
    proc = subprocess.run([PYTHON, os.path.join(HERE, "suites.py"), str(jobs), out] + args + ["--"]
                          + [os.path.join(root, c) for c in cases], env=env, capture_output=True)
    if proc.returncode != 0:
        raise SystemExit("suites.py failed:\n" + proc.stderr.decode(errors="replace"))
    with open(out) as f:
        res = json.load(f)
    return {os.path.basename(k): v for k, v in res.items()}


def load_probe(probe_dir, case):
    """The probe's record. Lock files are the lock's own artefact, left out:
    where the old lock module is missing on Linux (msvcrt) the unpatched code
    never creates its lock file there, the patched one does (as the old code
    did on Windows)."""
    path = os.path.join(probe_dir, case + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rec = json.load(f)
    rec["files"] = [n for n in rec.get("files", []) if not n.endswith(".lock")]
    return rec


# ------------------------------------------------------ lost updates ----

WORKER = r'''
import json, os, sys
case, key, iters, force = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
import importlib, io, json, pathlib, time, typing  # before os.name changes below
sys.path.insert(0, case)
if force:
    # The Windows path: no fcntl, sys.platform "win32", os.name "nt" while the
    # module is imported (the vendored lockrt, imported first, keeps Linux's).
    try:
        import lib.lockrt  # noqa: F401
    except ImportError:
        pass
    sys.modules["fcntl"] = None
    sys.platform = "win32"
    real_name, os.name = os.name, "nt"
    try:
        import lib.state as state
    finally:
        os.name = real_name
else:
    import lib.state as state
sys.stdout.write("ready\n")
sys.stdout.flush()
sys.stdin.buffer.read(1)
out = []
for _ in range(iters):
    out.append(state.increment_turn_count(key))
sys.stdout.write(json.dumps(out) + "\n")
'''
TURNS_FILE = {"codex": "turn_count", "zcode": "sessions"}


def lost_updates(case_dir, integ, procs, iters, force, state_dir):
    os.makedirs(state_dir, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_STATE_DIR") and not k.startswith("LOCKRT_")}
    env.update(LOCKFIX_FIXTURE_STATE_DIR=state_dir, PYTHONDONTWRITEBYTECODE="1", LOCKRT_PURE_PYTHON="1")
    keys = ["w%d" % i for i in range(procs)]
    ws = [subprocess.Popen([PYTHON, "-c", WORKER, case_dir, k, str(iters), "1" if force else "0"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
          for k in keys]
    try:
        for w in ws:
            if w.stdout.readline().strip() != b"ready":
                raise AssertionError("worker died: " + w.communicate()[1].decode(errors="replace")[-800:])
        for w in ws:
            w.stdin.write(b"g")
            w.stdin.flush()
        errors = []
        for w in ws:
            out, err = w.communicate(timeout=240)
            if w.returncode != 0:
                errors.append(err.decode(errors="replace")[-400:])
    finally:
        for w in ws:
            if w.poll() is None:
                w.kill()
                w.wait()
    try:
        doc = json.loads(read(os.path.join(state_dir, TURNS_FILE.get(integ, "turns"))))
    except (OSError, ValueError):
        doc = {}
    if integ == "zcode":
        doc = {k: v.get("turns") for k, v in doc.items() if isinstance(v, dict)}
    lost = sum(max(0, iters - (doc.get(k) or 0)) for k in keys)
    return lost, procs * iters, errors


# ------------------------------------------------------------ driver ----

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--rules", default="LF101,LF201,LF401")
    ap.add_argument("--enforce", default="LF101",
                    help="rules whose missing or misplaced findings fail the suite (crashes, behaviour changes, "
                         "unparsable or repeated patches and edited look-alikes fail it for every rule)")
    ap.add_argument("--gate", action="append", default=[], help="RULE=PERCENT minimum fix rate")
    ap.add_argument("--sample", type=int, default=8, help="fixed LF101 cases run by real processes")
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--combos", type=int, default=40)
    ap.add_argument("--no-suites", action="store_true", help="scan and fix only (quick iteration)")
    ap.add_argument("--json", help="write the per-case results here")
    opts = ap.parse_args()
    t0 = time.monotonic()
    rules = [r for r in opts.rules.split(",") if r]
    enforce = set(r for r in opts.enforce.split(",") if r)
    gates = {}
    for g in opts.gate:
        r, pct = g.split("=")
        gates[r] = float(pct)

    work = os.path.abspath(opts.work)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    orig, patched = os.path.join(work, "orig"), os.path.join(work, "patched")
    manifest = [m for m in gen.generate(SRC, orig, combos=opts.combos) if m["rule"] in rules]
    os.unlink(os.path.join(orig, "manifest.json"))
    shutil.copytree(orig, patched)
    by_id = {m["id"]: m for m in manifest}
    log("mutation: %d cases generated (%s), %d look-alikes, in %.1fs" % (
        len(manifest), ", ".join("%s %d" % (r, sum(m["rule"] == r for m in manifest)) for r in rules),
        sum(m["lookalike"] for m in manifest), time.monotonic() - t0))

    problems = collections.defaultdict(list)  # rule -> [message]
    for m in manifest:
        m.update(found=[], fixed=[], declined=[], problems=[])

    def problem(m, msg):
        m["problems"].append(msg)
        problems[m["rule"]].append("%s (%s=%s): %s" % (m["id"], m["dimension"], m["choice"].get(m["dimension"], ""),
                                                         msg))

    for rule in rules:
        ids = [m["id"] for m in manifest if m["rule"] == rule]
        if not ids:
            continue
        found, proc = scan(orig, rule, ids)
        if found is None:
            problems[rule].append("scan crashed (exit %d): %s" % (proc.returncode, proc.stderr.decode()[-400:]))
            continue
        fix = lockfix(["fix", "--no-config", "--select", rule, "--apply", "--jobs", "2"] + ids, patched)
        if crashed(fix):
            problems[rule].append("fix crashed (exit %d): %s" % (fix.returncode, fix.stderr.decode()[-400:]))
            continue
        declined = collections.defaultdict(dict)
        for l in fix.stderr.decode().splitlines():
            mm = NOT_FIXED.match(l)
            if mm and mm.group("rule") == rule:
                declined[mm.group("path").split("/", 1)[0]][int(mm.group("line"))] = mm.group("reason")
        again = lockfix(["fix", "--no-config", "--select", rule, "--diff", "--jobs", "2"] + ids, patched)
        if crashed(again):
            problems[rule].append("second fix crashed (exit %d)" % again.returncode)
        not_idem = set()
        for l in again.stdout.decode().splitlines():
            if l.startswith("+++ b/"):
                not_idem.add(l[len("+++ b/"):].split("/", 1)[0])
        after, _ = scan(patched, rule, ids)
        for cid in ids:
            m = by_id[cid]
            before_text = read(os.path.join(orig, cid, "lib", "state.py"))
            try:
                after_text = read(os.path.join(patched, cid, "lib", "state.py"))
                ast.parse(after_text)
            except (OSError, SyntaxError) as exc:
                problem(m, "patched state.py does not parse: %s" % exc)
                continue
            for msg in header_problems(before_text, after_text):
                problem(m, "HEADER (%s): %s" % (m["header"], msg))
            lines = sorted(f["line"] for f in found.get(cid, []))
            want = sorted(s["line"] for s in m["sites"])
            for s in m["sites"]:
                if s["line"] in lines:
                    m["found"].append(s["line"])
                else:
                    problem(m, "site %s expected at line %d, found at %s" % (s["function"], s["line"], lines))
            extra = [l for l in lines if l not in want]
            if extra:
                problem(m, "unexpected %s findings at lines %s" % (rule, extra))
            for s in m["sites"]:
                if s["line"] not in m["found"]:
                    continue
                reason = declined.get(cid, {}).get(s["line"])
                if reason is not None:
                    m["declined"].append([s["line"], reason])
                else:
                    m["fixed"].append(s["line"])
                if s["lookalike"]:
                    if reason is None:
                        problem(m, "look-alike %s was fixed" % s["function"])
                    elif functions(before_text).get(s["function"]) != functions(after_text).get(s["function"]):
                        problem(m, "look-alike %s was edited" % s["function"])
            left = len(after.get(cid, [])) if after is not None else -1
            if left != len(m["declined"]) + (len(lines) - len(m["found"])):
                problem(m, "%d findings after the fix, %d declined" % (left, len(m["declined"])))
            if cid in not_idem:
                problem(m, "a second fix run still changes the case")
            if (before_text != after_text) != bool(m["fixed"]):
                problem(m, "fixed %d sites but the module %s" % (len(m["fixed"]),
                                                                "changed" if before_text != after_text else "did not"))
    log("mutation: scan and fix done in %.1fs" % (time.monotonic() - t0))

    # The fixture suites, before and after.
    ids = [m["id"] for m in manifest]
    changed = [m["id"] for m in manifest if m["fixed"]]
    probe_orig, probe_patched = os.path.join(work, "probe-orig"), os.path.join(work, "probe-patched")
    if opts.no_suites:
        ids, changed = [], []
        opts.sample = 0
    res_orig = run_suites(orig, ids, ["-k", CONCURRENCY_TESTS], opts.jobs, probe_orig)
    log("mutation: unpatched suites done in %.1fs" % (time.monotonic() - t0))
    res_patched = run_suites(patched, changed, [], opts.jobs, probe_patched)
    log("mutation: patched suites done in %.1fs" % (time.monotonic() - t0))
    invalid = []
    for m in manifest:
        r = res_orig.get(m["id"])
        if opts.no_suites:
            continue
        if r is None or r["rc"] != 0:
            invalid.append(m["id"])
            problem(m, "GENERATOR: the unpatched case fails its own suite: %s" % (r or {}).get("tail", [])[-3:])
            continue
        if m["id"] not in res_patched:
            continue
        r = res_patched[m["id"]]
        if r["rc"] != 0:
            problem(m, "BEHAVIOUR: the patched case fails its own suite: %s" % "\n    ".join(r["tail"][-12:]))
            continue
        a, b = load_probe(probe_orig, m["id"]), load_probe(probe_patched, m["id"])
        if a != b:
            diff = sorted(k for k in set(a or {}) | set(b or {}) if (a or {}).get(k) != (b or {}).get(k))
            problem(m, "BEHAVIOUR: the probe differs after the patch in %s: %s -> %s" % (
                diff, [(a or {}).get(k) for k in diff][:2], [(b or {}).get(k) for k in diff][:2]))

    # Real processes, Windows path forced, on a sample of fixed LF101 cases
    # spread over the dimensions (and the unpatched twin as a control).
    sample = []
    seen_dims = set()
    import random
    candidates = list(manifest)
    random.Random(8).shuffle(candidates)
    for m in candidates:
        if m["rule"] != "LF101" or not m["fixed"] or m["problems"] or m["lookalike"]:
            continue
        key = (m["dimension"], m["choice"].get(m["dimension"]) if m["dimension"] in m["choice"] else "")
        if key in seen_dims:
            continue
        seen_dims.add(key)
        sample.append(m)
    sample = sample[:opts.sample]
    for m in sample:
        force = m["choice"]["lock"] != "msvcrt"  # msvcrt: Linux already has no msvcrt
        sd = os.path.join(work, "lost", m["id"])
        try:
            lost, total, errors = lost_updates(os.path.join(patched, m["id"]), m["integration"], opts.procs,
                                               opts.iters, force, os.path.join(sd, "patched"))
            lost0, _, _ = lost_updates(os.path.join(orig, m["id"]), m["integration"], opts.procs, opts.iters,
                                       force, os.path.join(sd, "orig"))
        except (AssertionError, subprocess.TimeoutExpired) as exc:
            problem(m, "lost-update run failed: %s" % exc)
            continue
        m["lost_updates"] = {"patched": lost, "unpatched": lost0, "of": total}
        log("mutation: lost updates %s (%s=%s) %dx%d, Windows path forced: unpatched lost %d, patched lost %d%s"
            % (m["id"], m["dimension"], m["choice"].get(m["dimension"], ""), opts.procs, opts.iters, lost0, lost,
               "; errors: %s" % errors[:1] if errors else ""))
        if lost or errors:
            problem(m, "BEHAVIOUR: patched processes lost %d of %d updates %s" % (lost, total, errors[:1]))

    # Report.
    log("")
    log("fix rate per rule and dimension (cases fixed / generated; declined sites counted per reason)")
    ok = True
    for rule in rules:
        ms = [m for m in manifest if m["rule"] == rule and m["id"] not in invalid]
        real = [m for m in ms if not m["lookalike"]]
        if not ms:
            continue
        fixed = [m for m in real if len(m["fixed"]) == len(m["sites"]) and not m["problems"]]
        rate = 100.0 * len(fixed) / max(1, len(real))
        sites = sum(len(m["sites"]) for m in real)
        fixed_sites = sum(len(m["fixed"]) for m in real if not m["problems"])
        log("%s: %d cases (%d sites), %d fixed = %.1f%% (sites %d/%d); %d look-alikes; %d problems" % (
            rule, len(real), sites, len(fixed), rate, fixed_sites, sites,
            len(ms) - len(real), sum(1 for m in ms if m["problems"])))
        table = collections.OrderedDict()
        for m in real:
            dims = [m["dimension"]] if m["dimension"] in ("base", "combination") else [m["dimension"]]
            for d in dims:
                v = "" if d in ("base", "combination") else m["choice"][d]
                k = "%s=%s" % (d, v) if v else d
                t = table.setdefault(k, [0, 0])
                t[0] += 1
                t[1] += m in fixed
        for k, (n, f) in table.items():
            log("  %-40s %3d/%-3d %5.1f%%" % (k, f, n, 100.0 * f / n))
        reasons = collections.Counter(re.sub(r"\(line \d+ vs line \d+\)", "(line N vs line M)", r)
                                      for m in real for _, r in m["declined"])
        for r, n in reasons.most_common():
            log("  declined x%d: %s" % (n, r))
        lal = [m for m in ms if m["lookalike"]]
        if lal:
            log("  look-alikes: %d, kept their finding without an edit: %d" % (
                len(lal), sum(1 for m in lal if not m["problems"])))
        fatal = [p for p in problems.get(rule, []) if rule in enforce or ALWAYS_FATAL.search(p)]
        for p in problems.get(rule, []):
            log("  %s %s" % ("PROBLEM" if p in fatal else "PROBLEM (reported; %s findings not enforced)" % rule, p))
        if fatal:
            ok = False
        if rule in gates:
            log("  gate: %.1f%% %s %.1f%%" % (rate, ">=" if rate >= gates[rule] else "is below", gates[rule]))
            if rate < gates[rule]:
                ok = False
    heads = collections.OrderedDict((h, [0, 0, 0]) for h, _ in gen.MODULE_HEADERS)
    for m in manifest:
        t = heads[m["header"]]
        t[0] += 1
        t[1] += bool(m["fixed"])
        t[2] += any(p.startswith("HEADER") for p in m["problems"])
    log("module headers (cases / patched / header broken): " +
        ", ".join("%s %d/%d/%d" % (h, n, f, b) for h, (n, f, b) in heads.items()))
    log("mutation: %d cases, %.1fs, %s" % (len(manifest), time.monotonic() - t0, "OK" if ok else "FAILED"))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
        with open(os.path.splitext(opts.json)[0] + ".txt", "w") as f:
            f.write("\n".join(REPORT) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
