"""Fan-out harness: real hook processes calling a fixture integration's own state
functions on the Windows code path, N processes x M calls, started together.

A run returns the final state normalised to {unit: value} next to what a run
that lost nothing must leave, so the same run can assert "loses" (unpatched
fixture) or "loses nothing" (fixture patched by `lockfix fix --apply`).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("LOCKFIX_SRC") or os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.environ.get("LOCKFIX_BIN") or os.path.join(SRC, "build", "analyzer", "lockfix")
LIBRARY = os.environ.get("LOCKFIX_FANOUT_LIBRARY") or os.path.join(SRC, "build", "runtime", "liblockrt.so")
# Sanitizer builds: an ASan-instrumented liblockrt only loads into python with
# the ASan runtime preloaded (python itself leaks by design, hence no leak check).
WORKER_PRELOAD = os.environ.get("LOCKFIX_FANOUT_PRELOAD") or None
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
WORKER = os.path.join(HERE, "worker.py")
LOCKRT_PY = os.path.join(SRC, "runtime", "python", "lockrt.py")

# The seven integrations with an LF101 site (BRIEF §1 shapes A-C); cline (D) has none.
LF101_INTEGRATIONS = ["claude-code", "codex", "copilot-cli", "cursor", "cursor-cli", "omo", "zcode"]

# mode -> (environment of the workers, expected lockrt.BACKEND, expected library).
# With the library loaded, lockrt.py takes Linux OS locks itself (the same flock
# the C library takes); native_c_oslock sends them through the C library too.
MODES = {
    "native_oslock": ({"LOCKRT_LIBRARY": LIBRARY}, "native", LIBRARY),
    "native_c_oslock": ({"LOCKRT_LIBRARY": LIBRARY, "LOCKRT_PY_OSLOCK": "native"}, "native", LIBRARY),
    "pure_python": ({"LOCKRT_PURE_PYTHON": "1"}, "python", None),
    "native_lockfile": ({"LOCKRT_LIBRARY": LIBRARY, "LOCKRT_STRATEGY": "lockfile"}, "native", LIBRARY),
}

# Where each integration keeps its turn counter, and how a session's count is stored.
TURNS_FILE = {"codex": "turn_count", "zcode": "sessions"}
TOOLS = ("read", "edit", "bash")
COUNTERS = ("turns", "tools")


def copy_fixtures(root):
    """A repository-shaped copy: <root>/fixtures/... (never the repo's own files)."""
    os.makedirs(root)
    shutil.copytree(os.path.join(SRC, "fixtures"), os.path.join(root, "fixtures"),
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return root


def lockfix(args, cwd):
    return subprocess.run([BIN] + list(args), cwd=cwd, capture_output=True)


def integration_dir(root, name):
    return os.path.join(root, "fixtures", "integrations", name)


def worker_env(state_dir, mode):
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("_STATE_DIR") and not k.startswith("LOCKRT_") and k not in ("LD_PRELOAD",)}
    env["LOCKFIX_FIXTURE_STATE_DIR"] = state_dir
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if mode is not None:
        env.update(MODES[mode][0])
    if WORKER_PRELOAD and "LOCKRT_LIBRARY" in env:
        env["LD_PRELOAD"] = WORKER_PRELOAD
        env["ASAN_OPTIONS"] = "detect_leaks=0:verify_asan_link_order=0"
    return env


class Run(object):
    """The outcome of one run: per-worker facts and results, and the final state."""

    def __init__(self, name, call, keys, iters, state_dir, facts, results, final, expected):
        self.name, self.call, self.keys, self.iters, self.state_dir = name, call, keys, iters, state_dir
        self.facts, self.results = facts, results
        self.final, self.expected = final, expected

    @property
    def errors(self):
        return sum(r["errors"] for r in self.results)

    @property
    def first_errors(self):
        return [e for r in self.results for e in r["first_errors"]][:3]

    def lost(self):
        """(lost updates, lost units). A counter unit ("turns", "tools") lost
        as many updates as it falls short; a session entry ("retention",
        "retained") is one update, lost when missing or wrong."""
        lost, lost_units = 0, []
        for unit, want in self.expected.items():
            got = self.final.get(unit)
            if got is None:
                lost_units.append(unit)
            if self.call in COUNTERS:
                lost += max(0, want - (got if isinstance(got, int) else 0))
            elif got != want:
                lost += 1
        return lost, lost_units

    def updates(self):
        """How many updates the run made (N x M)."""
        return len(self.keys) * self.iters

    def describe(self):
        lost, lost_units = self.lost()
        return ("%s %s %dx%d: lost %d of %d updates, %d lost keys %s; %d calls raised %s"
                % (self.name, self.call, len(self.keys), self.iters, lost, self.updates(), len(lost_units),
                   lost_units[:6], self.errors, self.first_errors))


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return {}
    except ValueError:
        return {}  # torn by an unlocked writer: everything in it is lost


def _final_state(state_dir, name, call):
    if call == "turns":
        doc = _read_json(os.path.join(state_dir, TURNS_FILE.get(name, "turns")))
        if name == "zcode":  # {session: {"turns": n, "last_seen": t}}
            return {k: v.get("turns") for k, v in doc.items() if isinstance(v, dict)}
        return doc
    if call == "retention":
        return {k: 1 for k in _read_json(os.path.join(state_dir, "retention"))}
    if call == "retained":
        return _read_json(os.path.join(state_dir, "retained"))
    if call == "tools":
        doc = _read_json(os.path.join(state_dir, "tools"))
        return {"%s/%s" % (k, tool): n for k, tools in doc.items() if isinstance(tools, dict)
                for tool, n in tools.items()}
    raise ValueError(call)


def _expected_state(keys, iters, call):
    if call == "turns":
        return {k: iters for k in keys}
    if call == "retention":
        return {"%s.%d" % (k, i): 1 for k in keys for i in range(1, iters + 1)}
    if call == "retained":
        return {"%s.%d" % (k, i): i for k in keys for i in range(1, iters + 1)}
    if call == "tools":
        out = {}
        for k in keys:
            for i in range(1, iters + 1):
                unit = "%s/%s" % (k, TOOLS[i % len(TOOLS)])
                out[unit] = out.get(unit, 0) + 1
        return out
    raise ValueError(call)


def returns_without_loss(call, keys, iters):
    """What the calls return when nothing is lost: per worker (in call order),
    or, for "retention" (the tracker's size after each call, in whatever order
    the workers got the lock), the sorted list of all of them."""
    if call in ("turns", "retained"):
        return {k: list(range(1, iters + 1)) for k in keys}
    if call == "tools":
        seen, out = {}, []
        for i in range(1, iters + 1):
            tool = TOOLS[i % len(TOOLS)]
            seen[tool] = seen.get(tool, 0) + 1
            out.append(seen[tool])
        return {k: list(out) for k in keys}
    if call == "retention":
        return list(range(1, len(keys) * iters + 1))
    raise ValueError(call)


def run(root, name, call, procs, iters, state_dir, mode=None, timeout=240):
    """Start `procs` workers on integration `name` under `root`, release them
    together, and collect what they did and the state they left."""
    os.makedirs(state_dir, exist_ok=True)
    env = worker_env(state_dir, mode)
    keys = ["w%d" % i for i in range(procs)]
    workers = []
    try:
        for key in keys:
            workers.append(subprocess.Popen(
                [PYTHON, WORKER, integration_dir(root, name), call, key, str(iters)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=state_dir))
        facts = []
        for key, proc in zip(keys, workers):
            line = proc.stdout.readline()
            if not line:
                _, err = proc.communicate(timeout=timeout)
                raise AssertionError("%s worker %s died before the start barrier (exit %s):\n%s"
                                     % (name, key, proc.returncode, err.decode(errors="replace")))
            facts.append(json.loads(line))
        for proc in workers:  # go: all of them at once
            proc.stdin.write(b"g")
            proc.stdin.flush()
        results = []
        for key, proc in zip(keys, workers):
            out, err = proc.communicate(timeout=timeout)
            if proc.returncode != 0:
                raise AssertionError("%s worker %s exited %d:\n%s%s" % (name, key, proc.returncode,
                                     out.decode(errors="replace"), err.decode(errors="replace")))
            results.append(json.loads(out.decode().strip().splitlines()[-1]))
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return Run(name, call, keys, iters, state_dir, facts, results,
               _final_state(state_dir, name, call), _expected_state(keys, iters, call))
