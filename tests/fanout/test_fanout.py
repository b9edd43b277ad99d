"""Issue 4 acceptance: the one-shot LF101 fan-out stops the lost updates.

Real hook processes call each fixture integration's own state functions with
the Windows path forced (sys.platform = "win32" before the import; see
worker.py), N processes x M calls, released together. On a copy of the
unpatched fixtures they must lose updates (the harness has teeth); after one
`lockfix fix --apply` over the copy (LF101 + LF201 + LF401 in one run, lockrt
vendored beside each patched module) they must lose nothing: with the native
library, without it (pure-Python fallback), and with the lockfile strategy
forced. Each integration's own pytest suite passes on the Windows path before
and after the fix (tests/fix/test_fix_tree.py runs them on the Linux path)."""
import json
import os
import subprocess

import pytest

import fanout

SIZES = [(3, 50), (6, 40), (8, 200)]
SIZE_IDS = ["%dx%d" % s for s in SIZES]
# A second LF101 site per shape that has one: codex's inlined retention tracker
# (B), claude-code's generic helper behind mark_retained (B), omo's
# _locked_update behind record_tool_use (C).
SECOND_SITES = [("codex", "retention"), ("claude-code", "retained"), ("omo", "tools")]
FIXED_RULES = ("LF101", "LF201", "LF401")


@pytest.fixture(scope="module")
def unpatched(tmp_path_factory):
    return fanout.copy_fixtures(str(tmp_path_factory.mktemp("unpatched") / "repo"))


@pytest.fixture(scope="module")
def patched(tmp_path_factory):
    root = fanout.copy_fixtures(str(tmp_path_factory.mktemp("patched") / "repo"))
    proc = fanout.lockfix(["fix", "fixtures", "--exclude", "node", "--apply"], root)
    if proc.returncode not in (0, 1):
        pytest.fail("lockfix fix --apply exited %d:\n%s" % (proc.returncode, proc.stderr.decode(errors="replace")))
    return root, proc


def assert_loses(run, windows_branch=True):
    for f in run.facts:
        assert not f["state_uses_lockrt"], "%s: lib.state uses lockrt: %s" % (run.name, f)
        # The fixture's own `fcntl = None` branch is what sys.platform selected.
        assert f["fcntl"] == ("None" if windows_branch else "<absent>"), \
            "%s: the worker did not take the unpatched Windows branch: %s" % (run.name, f)
    lost, lost_keys = run.lost()
    assert lost > 0 or lost_keys, "the unlocked control lost nothing, the harness has no teeth: " + run.describe()


def assert_no_loss(run, root, mode):
    _, backend, library = fanout.MODES[mode]
    vendored = os.path.join(fanout.integration_dir(root, run.name), "lib", "lockrt.py")
    for f in run.facts:
        assert f["fcntl"] == "<absent>", "%s: the conditional fcntl import is still there: %s" % (run.name, f)
        assert f["state_uses_lockrt"] and f["lockrt_file"] == vendored, \
            "%s: lib.state does not use the vendored lockrt: %s" % (run.name, f)
        assert f["backend"] == backend, "%s: lockrt backend %s, wanted %s (%s)" % (
            run.name, f["backend"], backend, f["load_error"])
        if library:
            assert os.path.realpath(f["library"]) == os.path.realpath(library), f
    assert run.errors == 0, run.describe()
    for key, r in zip(run.keys, run.results):
        entered, not_acquired = r["locks"]["entered"], r["locks"]["not_acquired"]
        assert (entered, not_acquired) == (run.iters, 0), (
            "%s worker %s: %d lock entries for %d calls, %d not acquired within lockrt's bounded wait "
            "(the fix then proceeds unlocked); %s; slowest waits of each worker: %s"
            % (run.name, key, entered, run.iters, not_acquired, run.describe(),
               [x["locks"]["slowest_waits"] for x in run.results]))
    assert run.final == run.expected, run.describe()
    want = fanout.returns_without_loss(run.call, run.keys, run.iters)
    if isinstance(want, dict):
        got = {k: r["returns"] for k, r in zip(run.keys, run.results)}
    else:
        got = sorted(v for r in run.results for v in r["returns"])
    assert got == want, "%s %s: the calls returned %s" % (run.name, run.call, got)
    temps = [n for n in os.listdir(run.state_dir) if n.endswith(".tmp")]
    assert temps == [], "%s: temp files left behind: %s" % (run.name, temps)


# ---------------------------------------------------------------- the fix itself


def test_fix_applies_lf101_lf201_lf401_in_one_run_and_vendors_lockrt(patched):
    root, proc = patched
    err = proc.stderr.decode(errors="replace")
    left = [line for line in err.splitlines() if " not fixed: " in line]
    assert not [line for line in left if line.split(": ")[1].split()[0] in FIXED_RULES], err
    assert proc.returncode == (1 if left else 0), err
    with open(fanout.LOCKRT_PY, "rb") as fh:
        binding = fh.read()
    for name in fanout.LF101_INTEGRATIONS:
        path = os.path.join(fanout.integration_dir(root, name), "lib", "lockrt.py")
        assert os.path.isfile(path), "%s: no vendored lib/lockrt.py\n%s" % (name, err)
        with open(path, "rb") as fh:
            assert fh.read() == binding, "%s: lib/lockrt.py differs from runtime/python/lockrt.py" % name
    # cline has no LF101 site: nothing to vendor there.
    assert not os.path.exists(os.path.join(fanout.integration_dir(root, "cline"), "lib", "lockrt.py"))
    scan = fanout.lockfix(["scan", "fixtures", "--exclude", "node", "--select", ",".join(FIXED_RULES)], root)
    assert scan.returncode == 0, scan.stdout.decode(errors="replace")


# ---------------------------------------------------------------- the integrations' own suites


@pytest.mark.parametrize("which", ["unpatched", "patched"])
def test_own_suites_pass_on_the_windows_path(request, tmp_path, which):
    """Every integration's own pytest suite, run with sys.platform = "win32"
    (tests/fix runs them on the Linux path), passes before and after the fix;
    and the suite really imported lib.state on that path."""
    root = request.getfixturevalue(which)
    root = root[0] if which == "patched" else root
    env = {k: v for k, v in os.environ.items() if not k.endswith("_STATE_DIR") and not k.startswith("LOCKRT_")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    procs = {}
    for name in fanout.LF101_INTEGRATIONS + ["cline"]:
        procs[name] = subprocess.Popen(
            [fanout.PYTHON, os.path.join(fanout.HERE, "windows_suite.py"), str(tmp_path / (name + ".json")),
             "-q", "-p", "no:cacheprovider", os.path.join("fixtures", "integrations", name)],
            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for name, proc in procs.items():
        out = proc.communicate(timeout=300)[0].decode(errors="replace")
        assert proc.returncode == 0, "%s suite (%s, Windows path) failed:\n%s" % (name, which, out)
        with open(str(tmp_path / (name + ".json"))) as fh:
            facts = json.load(fh)
        assert facts["imported"] and facts["platform"] == "win32", (name, facts)
        if name == "cline":
            assert facts["fcntl"] == "<absent>" and not facts["uses_lockrt"], (name, facts)
        elif which == "unpatched":
            assert facts["fcntl"] == "None" and not facts["uses_lockrt"], (name, facts)
        else:
            assert facts["fcntl"] == "<absent>" and facts["uses_lockrt"], (name, facts)


# ---------------------------------------------------------------- controls: unpatched loses


@pytest.mark.parametrize("procs,iters", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", fanout.LF101_INTEGRATIONS)
def test_unpatched_loses(unpatched, tmp_path, name, procs, iters):
    assert_loses(fanout.run(unpatched, name, "turns", procs, iters, str(tmp_path / "state")))


@pytest.mark.parametrize("name,call", SECOND_SITES, ids=["%s-%s" % s for s in SECOND_SITES])
def test_unpatched_second_site_loses(unpatched, tmp_path, name, call):
    assert_loses(fanout.run(unpatched, name, call, 6, 40, str(tmp_path / "state")))


def test_cline_takes_no_lock_and_still_loses_after_the_fix(unpatched, patched, tmp_path):
    # Shape D: no lock at all, so no LF101 fix (only LF104, a suggestion); the
    # fan-out leaves it as it was.
    for label, root in (("before", unpatched), ("after", patched[0])):
        assert_loses(fanout.run(root, "cline", "turns", 3, 50, str(tmp_path / label)), windows_branch=False)


# ---------------------------------------------------------------- patched loses nothing


# The three modes of issue 4 at every size; the C library's OS lock (an extra
# mode, same flock as native_oslock) at one.
PATCHED_RUNS = [(mode, name, p, m) for mode in fanout.MODES for name in fanout.LF101_INTEGRATIONS
                for p, m in SIZES if mode != "native_c_oslock" or (p, m) == (6, 40)]


@pytest.mark.parametrize("mode,name,procs,iters", PATCHED_RUNS, ids=["%s-%s-%dx%d" % r for r in PATCHED_RUNS])
def test_patched_no_loss(patched, tmp_path, mode, name, procs, iters):
    root = patched[0]
    assert_no_loss(fanout.run(root, name, "turns", procs, iters, str(tmp_path / "state"), mode), root, mode)


SECOND_SITE_RUNS = [(mode, name, call, p, m) for mode in fanout.MODES if mode != "native_c_oslock"
                    for name, call in SECOND_SITES for p, m in SIZES
                    if (p, m) != (8, 200) or mode == "native_oslock"]


@pytest.mark.parametrize("mode,name,call,procs,iters", SECOND_SITE_RUNS,
                         ids=["%s-%s-%s-%dx%d" % r for r in SECOND_SITE_RUNS])
def test_patched_second_site_no_loss(patched, tmp_path, mode, name, call, procs, iters):
    root = patched[0]
    assert_no_loss(fanout.run(root, name, call, procs, iters, str(tmp_path / "state"), mode), root, mode)
