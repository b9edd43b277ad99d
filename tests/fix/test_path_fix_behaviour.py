"""What the LF201 and LF401 fixes change, measured with real Python processes on
a real filesystem: each golden case before and after `lockfix fix --apply`.

LF201: the rewritten guard accepts and rejects exactly what the old one did,
over a table of names and layouts (plain, nested, `..`, absolute, symlink
inside, symlink escaping, missing file, state dir behind a symlink), for every
guard spelling among the cases.

LF401: the fixed write leaves the target with the same mode as the old one
(under two umasks), the same content and no temp behind; concurrent writers
through the fixed code never fail or publish a torn file."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import SRC, lockfix

CASES_DIR = os.path.join(SRC, "tests", "fix", "cases")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

# guard case -> how to call it with (state_dir, name); True = accepted.
LF201_CALLS = {
    "lf201_basic": "m.STATE_DIR = d\nok = call(lambda: m.state_file(name))",
    "lf201_intermediate": "os.environ['NOTES_HOME'] = d\nok = call(lambda: m.note_path(name))",
    "lf201_commonpath_alias": "ok = call(lambda: m.member(d, name))",
    "lf201_slash_fromimport": "ok = call(lambda: m.cache_entry(d, name)) and m.cache_entry(d, name) is not None",
    "lf201_pathlib": "from pathlib import Path\nok = call(lambda: m.upload_target(Path(d), name))",
    "lf201_nested_join": "ok = call(lambda: m.cache_entry(d, 'bucket', name))",
    "lf201_aliased_names": "m.SPOOL = d\nok = call(lambda: m.spool_entry(name))",
    "lf201_dirname_parent": "from pathlib import Path\n"
    "ok = call(lambda: m.slot_file(d, name))\n"
    "assert ok == call(lambda: m.attachment(Path(d), name))",
}

# row -> (state dir relative to the scratch root, name); layout built by LAYOUT.
LF201_ROWS = [
    ("plain name", "state", "a.json"),
    ("nested name", "state", "sub/name.json"),
    ("nested, missing directory", "state", "nosuch/name.json"),
    ("dot-dot", "state", ".."),
    ("dot-dot inside a name", "state", "sub/../../escape.json"),
    ("absolute path", "state", "/etc/passwd"),
    ("symlink inside", "state", "inner-link.json"),
    ("symlink escaping", "state", "escape-link.json"),
    ("dangling symlink escaping", "state", "dangling-link.json"),
    ("existing file", "state", "present.json"),
    ("missing file", "state", "missing.json"),
    ("state dir behind a symlink, missing file", "linked-state", "missing.json"),
    ("state dir behind a symlink, existing file", "linked-state", "present.json"),
    ("state dir behind a symlink, nested", "linked-state", "sub/name.json"),
]

DRIVER = r"""
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("guard", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
root = sys.argv[2]
rows = json.loads(sys.argv[3])
def call(f):
    try:
        f()
        return True
    except (ValueError, PermissionError):
        return False
out = []
for label, d, name in rows:
    d = os.path.join(root, d)
    exec(sys.argv[4], {"m": m, "d": d, "name": name, "call": call, "os": os, "out": out})
    out.append(label)
print(json.dumps(out))
"""


def build_layout(root):
    os.makedirs(root / "state" / "sub")
    os.makedirs(root / "outside")
    (root / "outside" / "secret.json").write_text("{}")
    (root / "state" / "present.json").write_text("{}")
    (root / "state" / "sub" / "name.json").write_text("{}")
    os.symlink(root / "state" / "present.json", root / "state" / "inner-link.json")
    os.symlink(root / "outside" / "secret.json", root / "state" / "escape-link.json")
    os.symlink(root / "outside" / "nothing.json", root / "state" / "dangling-link.json")
    os.symlink(root / "state", root / "linked-state")


def verdicts(module_path, root, call):
    # The call's code sets `ok`; the driver records it per row.
    code = call + "\nout.append(ok)"
    proc = subprocess.run(
        [PYTHON, "-c", DRIVER, str(module_path), str(root), json.dumps(LF201_ROWS), code],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    flat = json.loads(proc.stdout)
    return {flat[i + 1]: flat[i] for i in range(0, len(flat), 2)}


@pytest.mark.parametrize("case", sorted(LF201_CALLS))
def test_lf201_new_guard_accepts_and_rejects_what_the_old_one_did(tmp_path, case):
    old = tmp_path / "old"
    new = tmp_path / "new"
    old.mkdir()
    new.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), old / (case + ".py"))
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), new / (case + ".py"))
    lockfix(["fix", case + ".py", "--apply"], new, 0)
    assert (new / (case + ".py")).read_bytes() != (old / (case + ".py")).read_bytes()
    root = tmp_path / "fs"
    build_layout(root)
    before = verdicts(old / (case + ".py"), root, LF201_CALLS[case])
    after = verdicts(new / (case + ".py"), root, LF201_CALLS[case])
    assert after == before
    # The table is not trivially all-accept or all-reject (nested_join confines
    # to `root` one level above the names, where no link escapes).
    if case == "lf201_nested_join":
        assert before["missing file"] is True and before["absolute path"] is False
        return
    assert before["symlink escaping"] is False and before["missing file"] is True
    assert before["state dir behind a symlink, missing file"] is True


def test_lf201_nested_names_are_accepted_where_the_old_guard_accepted_them(tmp_path):
    """The fix before this one rejected `sub/name.json`; the table above covers
    every guard, this names the regression."""
    case = "lf201_commonpath_alias"
    new = tmp_path / "new"
    new.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), new / (case + ".py"))
    lockfix(["fix", case + ".py", "--apply"], new, 0)
    root = tmp_path / "fs"
    build_layout(root)
    after = verdicts(new / (case + ".py"), root, LF201_CALLS[case])
    assert after["nested name"] is True and after["state dir behind a symlink, nested"] is True


# LF401 case -> code that writes `data` to `target` through it.
LF401_CALLS = {
    "lf401_basic": "m.save(target, data)",
    "lf401_try_oserror": "m.save_profile(target, data)",
    "lf401_inline": "m.publish(target, json.dumps(data))",
    "lf401_percent_alias": "m.store(target, data)",
    "lf401_with_suffix": "from pathlib import Path\nm.save(Path(target), data)",
    "lf401_if_else_fromimport": "m.write_blob(target, json.dumps(data), False)",
    "lf401_format_handler_swallows": "m.save_text(target, json.dumps(data))",
    "lf401_from_os_names": "m.save_doc(target, data)",
    "lf401_os_open": "m.save_secret(str(target), data, 0o666)",
}

WRITER = r"""
import importlib.util, json, os, sys
os.umask(int(sys.argv[3], 8))
spec = importlib.util.spec_from_file_location("writer", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
target = sys.argv[2]
for i in range(int(sys.argv[5])):
    data = {"writer": os.getpid(), "i": i, "pad": "x" * 20000}
    exec(sys.argv[4])
"""


def write_with(module_path, target, umask, call, times=1):
    return subprocess.run(
        [PYTHON, "-c", WRITER, str(module_path), str(target), umask, call, str(times)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def staged(tmp_path, case):
    old = tmp_path / "old"
    new = tmp_path / "new"
    for d in (old, new):
        d.mkdir()
        shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), d / (case + ".py"))
    lockfix(["fix", case + ".py", "--apply"], new, 0)
    assert (new / (case + ".py")).read_bytes() != (old / (case + ".py")).read_bytes()
    return old / (case + ".py"), new / (case + ".py")


@pytest.mark.parametrize("case", sorted(LF401_CALLS))
@pytest.mark.parametrize("umask", ["022", "077"])
def test_lf401_target_keeps_the_mode_the_old_write_gave_it(tmp_path, case, umask):
    old, new = staged(tmp_path, case)
    modes = {}
    for label, module in (("old", old), ("new", new)):
        d = tmp_path / ("data-" + label)
        d.mkdir()
        target = d / "state.json"
        proc = write_with(module, target, umask, LF401_CALLS[case])
        assert proc.returncode == 0, proc.stderr
        modes[label] = os.stat(target).st_mode & 0o777
        assert json.loads(target.read_text())["i"] == 0
        assert os.listdir(d) == ["state.json"]  # no temp left behind
    assert modes["new"] == modes["old"] == (0o644 if umask == "022" else 0o600)


@pytest.mark.parametrize("case", ["lf401_try_oserror", "lf401_basic", "lf401_os_open"])
def test_lf401_concurrent_writers_never_share_a_temp(tmp_path, case):
    _, new = staged(tmp_path, case)
    d = tmp_path / "data"
    d.mkdir()
    target = d / "state.json"
    call = LF401_CALLS[case]
    procs = [
        subprocess.Popen(
            [PYTHON, "-c", WRITER, str(new), str(target), "022", call, "60"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    doc = json.loads(target.read_text())  # never torn
    # The last publish is some writer's last write: no replace failed.
    assert doc["i"] == 59 and len(doc["pad"]) == 20000
    assert os.listdir(d) == ["state.json"]


FAILING = r"""
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("writer", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
target = sys.argv[2]
data = json.loads(sys.argv[4]) if sys.argv[4] != "unserialisable" else {"x": object()}
try:
    exec(sys.argv[3])
    print("ok")
except BaseException as e:
    print(type(e).__name__)
"""

# case -> (call, bad payload for the write itself)
FAILURES = {
    "lf401_try_oserror": ("m.save_profile(target, data)", "unserialisable"),
    "lf401_basic": ("m.save(target, data)", "unserialisable"),
    "lf401_format_handler_swallows": ("m.save_text(target, data if isinstance(data, dict) else '')", "{}"),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
@pytest.mark.parametrize("failure", ["bad data", "target is a directory"])
def test_lf401_failed_writes_end_as_before_and_leave_no_temp(tmp_path, case, failure):
    """The same outcome (exception or not) as the old code; the old code left
    its fixed temp behind in some of these, the fixed one leaves none."""
    old, new = staged(tmp_path, case)
    call, bad = FAILURES[case]
    outcomes = {}
    for label, module in (("old", old), ("new", new)):
        d = tmp_path / ("data-" + label)
        d.mkdir()
        target = d / "state.json"
        if failure == "target is a directory":
            target.mkdir()
            payload = "{}"
        else:
            payload = bad
        proc = subprocess.run(
            [PYTHON, "-c", FAILING, str(module), str(target), call, payload], capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        outcomes[label] = proc.stdout.strip()
        if label == "new":
            assert sorted(os.listdir(d)) == (["state.json"] if failure == "target is a directory" else [])
    assert outcomes["new"] == outcomes["old"]
