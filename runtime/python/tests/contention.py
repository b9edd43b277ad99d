"""Real-process lost-update runs shared by the Python and mixed-language tests.

A run starts N worker processes (Python, Node or the C harness), each doing M
read-modify-write increments of its own key in one JSON counter file under one
lock, releases them together through a "go" file, and returns the final counts.
"""
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY_DIR = os.path.dirname(HERE)
RUNTIME_DIR = os.path.dirname(PY_DIR)
PYTHON = sys.executable
NODE = shutil.which("node")
NODE_WORKER = os.path.join(RUNTIME_DIR, "node", "test", "worker.js")

LIBRARY = os.environ.get("LOCKRT_TEST_LIBRARY") or None
HARNESS = os.environ.get("LOCKRT_TEST_HARNESS") or None
NODE_ADDON = os.environ.get("LOCKRT_TEST_NODE_ADDON") or None


def base_env(backend="native"):
    env = dict(os.environ)
    for var in ("LOCKRT_LIBRARY", "LOCKRT_PURE_PYTHON", "LOCKRT_STRATEGY", "LOCKRT_NODE_ADDON",
                "LOCKRT_PY_OSLOCK"):
        env.pop(var, None)
    if backend == "native-c":
        env["LOCKRT_PY_OSLOCK"] = "native"
    if backend == "python":
        env["LOCKRT_PURE_PYTHON"] = "1"
    elif LIBRARY:
        env["LOCKRT_LIBRARY"] = LIBRARY
    if NODE_ADDON:
        env["LOCKRT_NODE_ADDON"] = NODE_ADDON
    return env


def python_worker(backend="native"):
    def build(common, go):
        cmd = [PYTHON, os.path.join(HERE, "worker.py")] + common + ["--go", go]
        if "none" not in common:
            cmd += ["--expect-backend", backend.split("-")[0]]
        return cmd, base_env(backend)
    build.lang = "py"
    return build


def node_worker():
    def build(common, go):
        return [NODE, NODE_WORKER] + common + ["--go", go], base_env()
    build.lang = "node"
    return build


def c_worker():
    def build(common, go):
        return [HARNESS, "worker"] + common, base_env()
    build.lang = "c"
    return build


def _wait_ready(go, keys, procs, timeout=120):
    """Start barrier: wait until every worker that takes --go has said it is
    ready (interpreter start-up can outlast a whole run of increments on a
    loaded machine, and then the processes would not overlap at all)."""
    deadline = time.monotonic() + timeout
    while not all(os.path.exists("%s.ready.%s" % (go, k)) for k in keys):
        if any(p.poll() is not None for p in procs):
            return  # a worker failed early: the caller reports its exit
        assert time.monotonic() < deadline, "workers not ready after %ss" % timeout
        time.sleep(0.005)


def run(tmp_path, workers, iters, strategy, hold_us=0, timeout=300):
    """workers: list of builders (one per process). Returns (counts, keys)."""
    state = os.path.join(str(tmp_path), "counter.json")
    lock = os.path.join(str(tmp_path), "counter.json.lock")
    go = os.path.join(str(tmp_path), "go")
    procs, keys, barrier = [], [], []
    try:
        for i, build in enumerate(workers):
            key = "%s-%d" % (build.lang, i)
            keys.append(key)
            common = ["--file", state, "--lock", lock, "--key", key, "--iters", str(iters),
                      "--strategy", strategy]
            if hold_us:
                common += ["--hold-us", str(hold_us)]
            cmd, env = build(common, go)
            procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            if "--go" in cmd:
                barrier.append(key)
        _wait_ready(go, barrier, procs)
        with open(go, "w"):
            pass
        failures = []
        for key, proc in zip(keys, procs):
            out, err = proc.communicate(timeout=timeout)
            if proc.returncode != 0:
                failures.append("%s exited %d: %s %s" % (key, proc.returncode, out.decode(errors="replace"),
                                                         err.decode(errors="replace")))
        assert not failures, "\n".join(failures)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    with open(state) as fh:
        counts = json.load(fh)
    return counts, keys


def assert_no_loss(counts, keys, iters):
    expected = {key: iters for key in keys}
    lost_keys = sorted(set(keys) - set(counts))
    lost = sum(iters - counts.get(key, 0) for key in keys)
    assert counts == expected, "lost %d increments, lost keys %s: %s" % (lost, lost_keys, counts)


def loss(counts, keys, iters):
    """(lost increments, lost keys) of a run."""
    lost_keys = [key for key in keys if key not in counts]
    lost = sum(iters - counts.get(key, 0) for key in keys)
    return lost, lost_keys
