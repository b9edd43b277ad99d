"""TS/JS fixes (LF401 unique temp, LF303 EPERM as alive) on the cases in
tests/fix/ts/cases/<case>.<ext>.in, one or more per extension (.ts .mts .cts
.js .mjs .cjs .tsx):

- `lockfix fix --diff` emits exactly tests/fix/ts/golden/<case>.diff (reviewed
  by hand; LOCKFIX_REGEN_GOLDEN=1 writes .new files as for the Python goldens),
  or declines with the reason the finding carries;
- the patch applies with `git apply` and `patch -p1`, equals what --apply
  writes, and fixing again changes nothing; the fixed file scans clean for the
  fixed rule and, where it is JavaScript, passes `node --check`;
- the patched module runs under `node --test` (tests/fix/ts/node/*.test.mjs),
  and the same test fails on the unpatched module: the tests tell the two
  apart. TypeScript cases are plain JavaScript apart from the one construct
  the LF303 fix writes for TypeScript (`(err as { code?: unknown })`), which
  is stripped before node runs them;
- real processes: six node writers publishing through one target at once
  lose writes (ENOENT) or publish torn documents before the LF401 fix, and
  never after it, leaving no temp behind."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import split_vendored, read, SRC, check_golden, lockfix, need_tool, run

TS_DIR = os.path.join(SRC, "tests", "fix", "ts")
CASES_DIR = os.path.join(TS_DIR, "cases")
GOLDEN_DIR = os.path.join(TS_DIR, "golden")
NODE_DIR = os.path.join(TS_DIR, "node")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
EXTS = {".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".tsx"}

NO_FIX = {
    "lf401_inline_moved_decline.mjs": "LF401 not fixed: a name the temp is built from is assigned between the write "
    "and the rename: one variable would not name the same file at each use",
    "lf401_inline_cleanup_decline.cjs": "LF401 not fixed: the temp is also spelled outside the write and the rename (a "
    "cleanup, say), which would keep the old name",
    "lf401_append_decline.cjs": "LF401 not fixed: the temp is used by `fs.copyFileSync(file, tmp)`, which the fix "
    "cannot see into (it must only be created, written and renamed)",
    "lf401_shadow_decline.mjs": "LF401 not fixed: the file already uses the name `randomUUID` for something else, so "
    'the fix cannot import `randomUUID` from "crypto" under it',
    "lf401_nomodule_decline.js": "LF401 not fixed: the file has no import, export or require: whether it is an ES "
    "module or CommonJS depends on package.json, so the fix cannot import `randomUUID`",
    "lf401_callback_decline.js": "LF401 not fixed: the rename is neither renameSync nor an awaited promise rename (a "
    "callback or an unawaited promise): the fix cannot clean up after it in order",
    "lf401_hidden_decline.ts": "LF401 not fixed: `fd`, declared between the write and the rename, is used after the "
    "rename: wrapping them in a try would hide it",
    "lf401_multiline_decline.mjs": "LF401 not fixed: the write spans a multi-line string that re-indenting it into a "
    "try would change",
    # its catch answers `true` (stale) to every error, EPERM included: that is
    # the finding now, and the fix does not rewrite a `true` verdict
    "lf303_more_decline.js": "LF303 not fixed: the catch answers with a verdict the fix does not rewrite (a `true` "
    "or a callback's argument)",
}

# Cases node runs after the fix, and the module system they run as.
RUNNABLE = {
    "lf401_template_plain.ts": ".mjs",
    "lf401_join_async.cjs": ".cjs",
    "lf401_named_promises.mjs": ".mjs",
    "lf401_reuse_alias.mts": ".mjs",
    "lf401_require_var.js": ".cjs",
    "lf401_require_semi.cts": ".cjs",
    "lf401_inline.mjs": ".mjs",
    "lf401_inline_join.cjs": ".cjs",
    "lf303_plain.ts": ".mjs",
    "lf303_oneline.mjs": ".mjs",
    "lf303_arrow.cts": ".cjs",
    "lf303_method.js": ".cjs",
    "lf303_assign.mts": ".mjs",
    "lf303_fallthrough.cjs": ".cjs",
    "lf303_read_first.cjs": ".cjs",
}


def rule_of(case):
    return case[:5].upper()


def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def test_every_extension_has_a_fixed_case_per_rule():
    for rule in ("lf401", "lf303"):
        exts = {os.path.splitext(c)[1] for c in CASES if c.startswith(rule) and c not in NO_FIX}
        assert exts == EXTS, (rule, EXTS - exts)


@pytest.mark.parametrize("case", CASES)
def test_golden_patch(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"], work)
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), proc.stdout)
    if case in NO_FIX:
        assert proc.stdout == b""
        assert proc.returncode == 1
        assert NO_FIX[case] in proc.stderr.decode()
        return
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.startswith(b"--- a/%s\n+++ b/%s\n@@ " % (case.encode(), case.encode()))


@pytest.mark.parametrize("case", [c for c in CASES if c not in NO_FIX])
def test_patch_applies_once_and_parses(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff"], work, 0).stdout)
    run(["git", "apply", "--check", "--unsafe-paths", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    patched = (work / case).read_bytes()
    assert lockfix(["fix", case, "--diff"], work, 0).stdout == b""
    applied = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"], applied, 0)
    assert (applied / case).read_bytes() == patched
    scan = lockfix(["scan", "--format", "json", "--select", rule_of(case), case], work)
    doc = json.loads(scan.stdout)
    assert doc["findings"] == [] and doc["partial"] == [], scan.stdout.decode()
    ext = os.path.splitext(case)[1]
    if ext in (".js", ".mjs", ".cjs"):
        run([need_tool("node"), "--check", str(work / case)], work, 0)


def runnable_copy(src, dest_dir, case):
    text = src.read_text()
    if os.path.splitext(case)[1] in (".ts", ".mts", ".cts", ".tsx"):
        text = re.sub(r"\((\w+) as \{ code\?: unknown \}\)", r"(\1)", text)
    out = dest_dir / (os.path.splitext(case)[0] + RUNNABLE[case])
    out.write_text(text)
    return out


def node_test(module, case):
    node = need_tool("node")
    test = os.path.join(NODE_DIR, case[:5] + ".test.mjs")
    env = dict(os.environ, LF_MODULE=str(module), LF_CASE=os.path.splitext(case)[0])
    return subprocess.run([node, "--test", test], capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("case", sorted(RUNNABLE))
def test_patched_code_runs_under_node_test(tmp_path, case):
    work = stage(tmp_path, case)
    lockfix(["fix", case, "--apply"], work, 0)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    proc = node_test(runnable_copy(work / case, run_dir, case), case)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    # the same test fails on the code before the fix
    before_dir = tmp_path / "before"
    before_dir.mkdir()
    proc = node_test(runnable_copy(stage(tmp_path, case, "orig") / case, before_dir, case), case)
    assert proc.returncode != 0, proc.stdout.decode()


def contend(module, target, writers=6, rounds=150):
    node = need_tool("node")
    script = os.path.join(NODE_DIR, "contend.mjs")
    procs = [subprocess.Popen([node, script, str(module), str(target), str(i + 1), str(rounds)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(writers)]
    errors, torn = {}, 0
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
        res = json.loads(out)
        torn += res["torn"]
        for k, v in res["errors"].items():
            errors[k] = errors.get(k, 0) + v
    return errors, torn


def test_lf401_fix_under_real_contention(tmp_path):
    case = "lf401_template_plain.ts"
    orig = runnable_copy(stage(tmp_path, case, "orig") / case, tmp_path / "orig", "lf401_template_plain.ts")
    work = stage(tmp_path, case)
    lockfix(["fix", case, "--apply"], work, 0)
    fixed = runnable_copy(work / case, work, case)

    before = tmp_path / "before"
    before.mkdir()
    errors, torn = {}, 0
    for _ in range(5):  # the race shows within one round in practice; allow a few
        errors, torn = contend(orig, before / "doc.json")
        if errors or torn:
            break
    assert errors or torn, "the unpatched writers never collided"
    print("unpatched:", errors, "torn:", torn, file=sys.stderr)

    after = tmp_path / "after"
    after.mkdir()
    errors, torn = contend(fixed, after / "doc.json")
    assert errors == {} and torn == 0
    assert os.listdir(after) == ["doc.json"]  # every temp was renamed or removed
    doc = json.loads((after / "doc.json").read_text())
    assert doc["pad"] == doc["writer"] * 200000


# What is left of the TS/JS fixture tree after the fixes: the sites they
# decline, with the reason, and the pid-reuse findings of probes whose EPERM
# misread was fixed but whose pid file the probe cannot name (the check
# reports one problem per probe: with the catch fixed, the reuse shows).
REUSE = ("the pid is read from a file whose path the probe cannot name again (a parameter of another function, a "
         "computed path): the fix compares the process's start with that file's last write")
NODE_LEFT = [
    ("fixtures/node/fill-cache/lib/cache-lock.cjs", 35, "LF303", REUSE),
    ("fixtures/node/pidfile/lib/pidfile.cts", 28, "LF303",
     "the probe is part of a larger expression: the fix cannot give EPERM the path a successful probe takes"),
    ("fixtures/node/session-journal/src/session-store.ts", 52, "LF303", REUSE),
    ("fixtures/node/state-sidecar/src/state-lock.mts", 49, "LF303", REUSE),
]


def test_fixture_tree_node(tmp_path):
    """fixtures/node (one module per extension): the diff of its LF401 and LF303
    fixes is the reviewed golden one, applies with patch -p1, equals --apply,
    a second run has nothing to do, and what is left are the declined sites."""
    need_tool("patch")
    root = tmp_path / "repo"
    shutil.copytree(os.path.join(SRC, "fixtures", "node"), root / "fixtures" / "node")
    first = lockfix(["fix", "fixtures/node", "--select", "LF401,LF303", "--diff"], root, 1)
    rewrite, created = split_vendored(first.stdout)
    check_golden(os.path.join(GOLDEN_DIR, "fixtures_node.diff"), rewrite)
    for name, content in created.items():  # the vendored lockrt.cjs of LF303's killProbeSync, whole
        assert os.path.basename(name) in ("lockrt.cjs", "lockrt.d.cts"), name
        assert content == read(os.path.join(SRC, "runtime", "node", "vendor", os.path.basename(name)))
    applied = tmp_path / "applied"
    shutil.copytree(root, applied)
    lockfix(["fix", "fixtures/node", "--select", "LF401,LF303", "--apply"], applied, 1)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(first.stdout)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], root, 0)
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as a, open(os.path.join(applied, os.path.relpath(p, root)), "rb") as b:
                assert a.read() == b.read(), p
            if f.endswith((".js", ".mjs", ".cjs")):
                run([need_tool("node"), "--check", p], root, 0)
    assert lockfix(["fix", "fixtures/node", "--select", "LF401,LF303", "--diff"], root, 1).stdout == b""
    doc = json.loads(lockfix(["scan", "fixtures/node", "--select", "LF401,LF303", "--format", "json"], root).stdout)
    left = sorted((f["path"], f["line"], f["rule_id"], f["fix"]["reason"]) for f in doc["findings"])
    assert left == NODE_LEFT
    assert all(f["fix"]["available"] is False for f in doc["findings"])
