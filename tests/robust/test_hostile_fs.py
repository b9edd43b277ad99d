"""Item 7, the filesystem and names: FIFOs, devices behind symlinks, symlink
loops, unreadable files and directories, a 100,000-file directory, names with
newlines and bytes that are not UTF-8. Each pins its exit code and message."""
import base64
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from robust import BIN, LF401_PY, run  # noqa: E402


def test_fifo_in_the_tree_and_named_is_never_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_bytes(LF401_PY)
    r = run(["scan", "--no-config", "."], cwd=tmp_path, timeout=60)  # a blocking open would hang here
    assert r.returncode == 1
    assert r.stderr == b"lockfix: skipping pipe.py: not a regular file\n"
    r = run(["scan", "--no-config", "pipe.py"], cwd=tmp_path, timeout=60)
    assert (r.returncode, r.stderr) == (0, b"lockfix: skipping pipe.py: not a regular file\n")
    r = run(["fix", "--no-config", ".", "--apply"], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and b"lockfix: skipping pipe.py: not a regular file\n" in r.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_device_behind_a_symlink(tmp_path, device):
    os.symlink(device, tmp_path / "dev.py")
    # In the walk: links are never followed, so the device is never seen.
    r = run(["scan", "--no-config", "."], cwd=tmp_path, timeout=60)
    assert (r.returncode, r.stderr, r.stdout) == (0, b"", b"No findings in 0 files.\n")
    # Named: followed, found not to be a regular file, never opened.
    r = run(["scan", "--no-config", "dev.py"], cwd=tmp_path, timeout=60)
    assert (r.returncode, r.stderr) == (0, b"lockfix: skipping dev.py: not a regular file\n")


def test_symlink_loops(tmp_path):
    os.symlink("b.py", tmp_path / "a.py")
    os.symlink("a.py", tmp_path / "b.py")
    os.symlink(".", tmp_path / "self")
    (tmp_path / "ok.py").write_bytes(LF401_PY)
    r = run(["scan", "--no-config", "."], cwd=tmp_path, timeout=60)
    assert (r.returncode, r.stderr) == (1, b"")
    assert r.stdout.count(b"LF401") == 1
    r = run(["scan", "--no-config", "a.py"], cwd=tmp_path, timeout=60)
    assert r.returncode == 2
    assert r.stderr == b"lockfix: a.py: broken symbolic link (Too many levels of symbolic links)\n"
    r = run(["scan", "--no-config", "self/self/self/ok.py"], cwd=tmp_path, timeout=60)
    assert r.returncode == 1  # a named path through a directory link loop still names one file


def _unprivileged_run(args, cwd):
    if os.geteuid() != 0:
        return run(args, cwd=cwd, timeout=60)
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (Debian: util-linux) is needed to run this case as uid 65534"
    return subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", BIN] + args, cwd=cwd,
                          capture_output=True, timeout=60)


@pytest.mark.unprivileged
def test_unreadable_file_and_directory():
    """As root, lockfix runs as uid 65534 (setpriv): the case runs everywhere."""
    d = pathlib.Path(tempfile.mkdtemp(prefix="lockfix-unpriv-"))
    try:
        d.chmod(0o755)
        (d / "ok.py").write_bytes(LF401_PY)
        (d / "secret.py").write_bytes(LF401_PY)
        (d / "secret.py").chmod(0)
        (d / "closed").mkdir()
        (d / "closed" / "x.py").write_bytes(LF401_PY)
        (d / "closed").chmod(0)
        (d / "ok.py").chmod(0o644)
        # --no-cache: uid 65534 may not create the result cache here either (tests/cache covers that)
        r = _unprivileged_run(["scan", "--no-config", "--no-cache", "."], cwd=d)
        assert r.returncode == 1, r.stderr
        assert sorted(r.stderr.decode().splitlines()) == [
            "lockfix: skipping closed: cannot open directory: Permission denied",
            "lockfix: skipping secret.py: cannot open: Permission denied",
        ]
        r = _unprivileged_run(["scan", "--no-config", "--no-cache", "secret.py"], cwd=d)
        assert (r.returncode, r.stderr) == (0, b"lockfix: skipping secret.py: cannot open: Permission denied\n")
        # fix --apply cannot create its temp in a directory it may not write: the
        # file is left as it was, exit 2, and the temp is not left behind.
        (d / "ro").mkdir()
        (d / "ro" / "state.py").write_bytes(LF401_PY)
        (d / "ro" / "state.py").chmod(0o666)
        (d / "ro").chmod(0o555)
        r = _unprivileged_run(["fix", "--no-config", "ro", "--apply"], cwd=d)
        assert r.returncode == 2, r.stderr
        assert b"ro/state.py: not written: cannot create a temporary file beside it: Permission denied" in r.stderr
        assert (d / "ro" / "state.py").read_bytes() == LF401_PY
        assert os.listdir(d / "ro") == ["state.py"]
    finally:
        for p in (d / "closed", d / "ro"):
            if p.exists():
                p.chmod(0o755)
        shutil.rmtree(d)


def test_hundred_thousand_files_in_one_directory(tmp_path):
    """Memory stays bounded (the child's peak RSS, not a time) and the count is exact."""
    big = tmp_path / "big"
    big.mkdir()
    for i in range(100_000):
        with open(big / ("m%06d.py" % i), "wb") as f:
            f.write(b"x = 1\n")
    (big / "m050000.py").write_bytes(LF401_PY)
    r = run(["scan", "--no-config", "--format", "json", "big"], cwd=tmp_path, timeout=900)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert doc["summary"]["files_scanned"] == 100_000
    assert [f["path"] for f in doc["findings"]] == ["big/m050000.py"]
    # 100k paths and their results; a leak or a per-file copy of the tree would show.
    # Under ASan (scripts/test.sh sets ASAN_OPTIONS for that pass) the allocator's
    # quarantine and shadow memory multiply the footprint: 40 MB plain, ~450 MB there.
    limit_mb = 1024 if "ASAN_OPTIONS" in os.environ else 256
    assert peak_kb < limit_mb * 1024, "peak RSS %d KB (limit %d MB)" % (peak_kb, limit_mb)


ODD_NAMES = [b"new\nline.py", b"\x01ctl\x7f.py", b"-dash.py", b"sp ace.py", b"\xff\xfe.py", b"\xe2\x80\xae.py",
             b"latin1-caf\xe9.py"]


def test_odd_names_scan_fix_and_reports(tmp_path):
    root = os.fsencode(tmp_path)
    for n in ODD_NAMES:
        with open(os.path.join(root, n), "wb") as f:
            f.write(LF401_PY)
    r = run(["scan", "--no-config", "--format", "json", "."], cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout.decode("utf-8"))  # strict: the report is UTF-8 JSON
    got = {}
    for f in doc["findings"]:
        raw = base64.b64decode(f["path_base64"]) if "path_base64" in f else f["path"].encode("utf-8")
        got[raw] = f["path"]
    assert sorted(got) == sorted(ODD_NAMES)
    assert got[b"\xff\xfe.py"] == "\ufffd\ufffd.py"
    assert got[b"latin1-caf\xe9.py"] == "latin1-caf\ufffd.py"
    assert "path_base64" not in [f for f in doc["findings"] if f["path"] == "new\nline.py"][0]
    # Text: one line per finding, control bytes of a name escaped.
    lines = run(["scan", "--no-config", "."], cwd=tmp_path).stdout.splitlines()
    assert b"new\\nline.py:6:11: LF401 temp name path + \".tmp\" is fixed by the target path: concurrent writers" \
        b" share one temp file, so one writer's rename can publish another's half-written data or fail with a " \
        b"missing temp" in lines
    assert [l for l in lines if l.startswith(b"\\x01ctl\\x7f.py:6:11: LF401 ")]
    assert [l for l in lines if l.startswith(b"sp ace.py:6:11: LF401 ")]
    sarif = json.loads(run(["scan", "--no-config", "--format", "sarif", "."], cwd=tmp_path).stdout.decode("utf-8"))
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"])
    assert "%FF%FE.py" in uris and "new%0Aline.py" in uris and "latin1-caf%E9.py" in uris
    fx = run(["fix", "--no-config", ".", "--apply"], cwd=tmp_path)
    assert fx.returncode == 0, fx.stderr
    for n in ODD_NAMES:
        with open(os.path.join(root, n), "rb") as f:
            assert b"uuid.uuid4().hex" in f.read()
    # Nothing else but the result cache the scans keep in their current directory.
    assert sorted(os.listdir(root)) == sorted(ODD_NAMES + [b".lockfix_cache"])


def test_skipped_non_utf8_name_in_json(tmp_path):
    with open(os.path.join(os.fsencode(tmp_path), b"bin\xff.py"), "wb") as f:
        f.write(b"\0")
    r = run(["scan", "--no-config", "--format", "json", "."], cwd=tmp_path)
    assert r.returncode == 0
    doc = json.loads(r.stdout.decode("utf-8"))
    assert doc["skipped"] == [{"path": "bin\ufffd.py", "path_base64": base64.b64encode(b"bin\xff.py").decode(),
                               "kind": "binary", "reason": "binary file (NUL byte)"}]
