"""`lockfix scan`'s result cache (issue 21, item 3), through real processes:
reports byte-identical with and without it in every format and with the
baseline options, each invalidation (content with the same size and mtime,
rules, configuration, the binary), corrupt and truncated indexes, symbolic
links at its paths, concurrent runs, and a cache that cannot be written."""
import os
import pathlib
import random
import re
import shutil
import stat
import struct
import subprocess
import time

import pytest

BIN = os.environ.get("LOCKFIX_BIN", "")
SOURCE_DIR = pathlib.Path(os.environ.get("LOCKFIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

OLD = time.time() - 2 * 86400  # mtimes outside the racy window: the stat alone decides

STATE_PY = b'''import json
import os


def write_state(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)
'''
# Same size, no finding: the cache must notice the bytes, not the stat.
STATE_PY_CLEAN = STATE_PY.replace(b"os.replace", b"no_replace")
assert len(STATE_PY_CLEAN) == len(STATE_PY)

SUPPRESSED_PY = STATE_PY.replace(b'tmp = path + ".tmp"', b'tmp = path + ".tmp"  # lockfix: ignore[LF401]')
# A finding in a file only partly analyzed (deeper than the engine's query limit).
DEEP_PY = (b'import os\n\ndef f(path):\n    tmp = path + ".tmp"\n    os.replace(tmp, path)\n    x = '
           + b"[" * 1200 + b"1" + b"]" * 1200 + b"\n")

STATS = re.compile(rb"lockfix: cache: (\d+) from the cache \((\d+) not read\), (\d+) analyzed \((\d+) not cacheable\); "
                   rb"index (written|unchanged|not written)\n")


def run(args, cwd, env=None, binary=None, timeout=300):
    e = dict(os.environ)
    e.pop("LOCKFIX_NO_CACHE", None)
    if env:
        e.update(env)
    return subprocess.run([binary or BIN] + [str(a) for a in args], cwd=cwd, env=e, capture_output=True,
                          timeout=timeout)


def stats(r):
    m = STATS.search(r.stderr)
    assert m, r.stderr
    hits, unread, analyzed, uncacheable, index = m.groups()
    return {"hits": int(hits), "unread": int(unread), "analyzed": int(analyzed), "uncacheable": int(uncacheable),
            "index": index.decode()}


def without_stats(stderr):
    return STATS.sub(b"", stderr)


def age(root):
    for dirpath, dirs, files in os.walk(root):
        for n in files + dirs:
            os.utime(os.path.join(dirpath, n), (OLD, OLD), follow_symlinks=False)


@pytest.fixture
def tree(tmp_path):
    """The bundled fixtures plus a suppressed finding, a partly analyzed file,
    a clean file and a TS finding, all with old mtimes; scans run from tmp_path."""
    t = tmp_path / "tree"
    shutil.copytree(SOURCE_DIR / "fixtures", t / "fixtures", symlinks=True)
    extra = t / "extra"
    extra.mkdir()
    (extra / "state.py").write_bytes(STATE_PY)
    (extra / "suppressed.py").write_bytes(SUPPRESSED_PY)
    (extra / "deep.py").write_bytes(DEEP_PY)
    (extra / "clean.py").write_bytes(b"def add(a, b):\n    return a + b\n")
    (extra / "app.ts").write_bytes(b'import { renameSync, writeFileSync } from "fs";\n'
                                   b'export function save(p: string, d: string) {\n'
                                   b'  const tmp = p + ".tmp";\n  writeFileSync(tmp, d);\n  renameSync(tmp, p);\n}\n')
    age(t)
    return t


def cache_files(d):
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


def index_of(d):
    names = [n for n in cache_files(d) if n.startswith("index-")]
    assert len(names) == 1, cache_files(d)
    return pathlib.Path(d) / names[0]


def check_same(uncached, cached):
    assert cached.returncode == uncached.returncode, cached.stderr
    assert cached.stdout == uncached.stdout
    assert without_stats(cached.stderr) == uncached.stderr


# ---- identical reports ----

FORMATS = ["text", "json", "sarif", "github"]
SELECTIONS = [[], ["--select", "LF401,LF201,LF303"], ["--ignore", "LF104,LF101"]]


@pytest.mark.parametrize("fmt", FORMATS)
def test_reports_identical_cold_and_warm_in_every_format(tree, fmt):
    for i, sel in enumerate(SELECTIONS):
        args = ["scan", "--format", fmt, *sel, "tree"]
        cache = tree.parent / f"cache-{i}"
        ref = run(args + ["--no-cache"], cwd=tree.parent)
        assert ref.returncode == 1, ref.stderr
        cold = run(args + ["--cache-dir", cache, "--cache-stats"], cwd=tree.parent)
        check_same(ref, cold)
        assert stats(cold)["hits"] == 0 and stats(cold)["index"] == "written"
        warm = run(args + ["--cache-dir", cache, "--cache-stats"], cwd=tree.parent)
        check_same(ref, warm)
        s = stats(warm)
        # Everything that could be kept came from the cache; the files with
        # findings were read (for their source lines) and checked by hash.
        assert s["analyzed"] == s["uncacheable"]
        assert s["hits"] > s["uncacheable"]
        assert 0 < s["unread"] < s["hits"]
        assert s["index"] == "unchanged"


def test_findings_with_fixes_and_partial_files_come_from_the_cache(tree):
    """extra/: LF401 with a fix (state.py), LF401 declined in a partly analyzed
    file (deep.py), a suppressed one, TS: all cacheable, all read back."""
    args = ["scan", "--format", "json", "--cache-stats", "tree/extra"]
    ref = run(["scan", "--format", "json", "--no-cache", "tree/extra"], cwd=tree.parent)
    assert b'"tree/extra/deep.py"' in ref.stdout and b'"edits"' in ref.stdout and b'"reason"' in ref.stdout
    run(args, cwd=tree.parent)
    warm = run(args, cwd=tree.parent)
    check_same(ref, warm)
    assert stats(warm) == {"hits": 5, "unread": 2, "analyzed": 0, "uncacheable": 0, "index": "unchanged"}


def test_baseline_options_identical(tree):
    cwd = tree.parent
    ref = run(["scan", "--no-cache", "--write-baseline", "base-ref.json", "tree"], cwd=cwd)
    cold = run(["scan", "--write-baseline", "base-cold.json", "tree"], cwd=cwd)
    warm = run(["scan", "--write-baseline", "base-warm.json", "tree"], cwd=cwd)
    assert ref.returncode == cold.returncode == warm.returncode == 0
    assert (cwd / "base-ref.json").read_bytes() == (cwd / "base-cold.json").read_bytes() \
        == (cwd / "base-warm.json").read_bytes()
    # One new finding beside the recorded ones, in every format.
    (tree / "extra" / "new.py").write_bytes(STATE_PY.replace(b"write_state", b"write_other"))
    for fmt in FORMATS:
        args = ["scan", "--format", fmt, "--baseline", "base-ref.json", "tree"]
        ref = run(args + ["--no-cache"], cwd=cwd)
        assert ref.returncode == 1 and b"write_other" not in ref.stderr
        check_same(ref, run(args, cwd=cwd))
        check_same(ref, run(args, cwd=cwd))


# ---- invalidation ----

def test_same_size_content_change_with_restored_mtime_is_seen(tree):
    cwd = tree.parent
    p = tree / "extra" / "state.py"
    args = ["scan", "--cache-stats", "tree/extra"]
    assert run(args, cwd=cwd).returncode == 1
    st = os.stat(p)
    p.write_bytes(STATE_PY_CLEAN)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = os.stat(p)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    r = run(args, cwd=cwd)
    check_same(run(["scan", "--no-cache", "tree/extra"], cwd=cwd), r)
    assert b"state.py" not in r.stdout
    assert stats(r)["analyzed"] == 1
    # And back: the finding returns.
    p.write_bytes(STATE_PY)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = run(args, cwd=cwd)
    check_same(run(["scan", "--no-cache", "tree/extra"], cwd=cwd), r)
    assert b"extra/state.py:6:11: LF401" in r.stdout


def test_racily_clean_entry_is_read_until_its_mtime_is_old(tmp_path):
    """A file modified within the racy window of the scan that cached it is
    read and hashed even though its stat matches; once its mtime is older than
    a scan that re-verified it, the stat alone is trusted."""
    (tmp_path / "fresh.py").write_bytes(b"def add(a, b):\n    return a + b\n")
    args = ["scan", "--cache-stats", "fresh.py"]
    assert stats(run(args, cwd=tmp_path))["hits"] == 0
    s = stats(run(args, cwd=tmp_path))
    assert (s["hits"], s["unread"], s["index"]) == (1, 0, "written")  # read, then re-recorded
    os.utime(tmp_path / "fresh.py", (OLD, OLD))
    s = stats(run(args, cwd=tmp_path))
    assert (s["hits"], s["unread"], s["index"]) == (1, 0, "written")  # the stat changed: hashed, refreshed
    s = stats(run(args, cwd=tmp_path))
    assert (s["hits"], s["unread"], s["index"]) == (1, 1, "unchanged")


def lf101_edits(stdout):
    """The LF101 fixes of a JSON report: (line, number of edits)."""
    import json
    return sorted((f["line"], len(f["fix"]["edits"]) if f.get("fix") else 0)
                  for f in json.loads(stdout)["findings"] if f["rule_id"] == "LF101")


def test_fix_that_looks_around_the_file_is_cached_with_what_it_looked_at(tmp_path):
    """LF101's fix drops the conditional `fcntl` import only when no other
    module of the project names it, and sniffs the package's import style: its
    result depends on files other than the one scanned. It comes from the cache
    while they are unchanged, and is made again when one appears, changes
    (same size, mtime restored) or goes."""
    shutil.copytree(SOURCE_DIR / "fixtures" / "integrations" / "codex", tmp_path / "codex")
    age(tmp_path)
    lib = tmp_path / "codex" / "lib"
    args = ["scan", "--format", "json", "--cache-stats", "codex"]

    def check(expect_analyzed):
        ref = run(["scan", "--format", "json", "--no-cache", "codex"], cwd=tmp_path)
        r = run(args, cwd=tmp_path)
        check_same(ref, r)
        assert stats(r)["analyzed"] == expect_analyzed, r.stderr
        return lf101_edits(r.stdout)

    run(args, cwd=tmp_path)
    alone = check(0)
    assert alone == [(73, 4), (97, 4)]  # the import goes with the two fallbacks
    # Another module names state.fcntl: the import must stay (other.py is
    # analyzed as a new file, state.py again). The directory changed within
    # the racy window of the scan that recorded it, so state.py is analyzed
    # until that change is old.
    (lib / "other.py").write_bytes(b"from .state import fcntl\n")
    named = check(2)
    assert named == [(73, 2), (97, 2)]  # the import and its `try` stay
    check(1)
    age(tmp_path)
    check(1)  # the stats recorded were the fresh ones
    check(0)
    # Same size, mtime restored: the ctime shows the change.
    st = os.stat(lib / "other.py")
    (lib / "other.py").write_bytes(b"from .state import fcntx\n")
    os.utime(lib / "other.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert check(2) == alone
    check(0)
    (lib / "other.py").write_bytes(b"from .state import fcntl\n")
    age(tmp_path)
    assert check(2) == named
    (lib / "other.py").unlink()
    age(tmp_path)
    assert check(1) == alone
    check(0)


def test_rule_selection_and_severity_change_select_another_index(tree):
    cwd = tree.parent
    run(["scan", "--select", "LF401", "tree"], cwd=cwd)
    for args in (["--select", "LF201"], ["--select", "LF401,LF201"], ["--ignore", "LF401"], []):
        ref = run(["scan", "--no-cache", *args, "tree"], cwd=cwd)
        r = run(["scan", "--cache-stats", *args, "tree"], cwd=cwd)
        check_same(ref, r)
        assert stats(r)["hits"] == 0, args
    assert len([n for n in cache_files(cwd / ".lockfix_cache") if n.startswith("index-")]) == 5


def test_config_change_invalidates(tree):
    cwd = tree.parent
    cfg = cwd / ".lockfix.json"
    args = ["scan", "--config", ".lockfix.json", "--format", "json", "tree"]
    for doc in ('{"severity": {"LF401": "error"}}', '{"severity": {"LF401": "info"}}', '{"ignore": ["LF401"]}',
                '{"select": ["LF4"]}', '{"fail_on": "error"}'):
        cfg.write_text(doc)
        os.utime(cfg, (OLD, OLD))  # the config's stat plays no part: its contents do
        ref = run(args + ["--no-cache"], cwd=cwd)
        first = run(args + ["--cache-stats"], cwd=cwd)
        check_same(ref, first)
        assert stats(first)["hits"] == 0, doc
        second = run(args + ["--cache-stats"], cwd=cwd)
        check_same(ref, second)
        assert stats(second)["hits"] > 0, doc


def build_id_offset(data):
    """File offset of the GNU build ID bytes of a 64-bit little-endian ELF."""
    assert data[:6] == b"\x7fELF\x02\x01"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    for i in range(shnum):
        sh = shoff + i * shentsize
        sh_type, = struct.unpack_from("<I", data, sh + 4)
        off, size = struct.unpack_from("<QQ", data, sh + 0x18)
        pos = off
        while sh_type == 7 and pos + 12 <= off + size:  # SHT_NOTE
            namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
            name = pos + 12
            desc = name + ((namesz + 3) & ~3)
            if ntype == 3 and data[name:name + 4] == b"GNU\0":
                return desc, descsz
            pos = desc + ((descsz + 3) & ~3)
    raise AssertionError("no build ID note")


def test_other_binary_never_trusts_the_index(tree, tmp_path):
    """A copy of lockfix whose build ID differs (one byte): another key."""
    data = bytearray(pathlib.Path(BIN).read_bytes())
    off, n = build_id_offset(data)
    assert n >= 8
    data[off] ^= 0xFF
    other = tmp_path / "lockfix-other"
    other.write_bytes(bytes(data))
    other.chmod(0o755)
    cwd = tree.parent
    ref = run(["scan", "--no-cache", "tree"], cwd=cwd)
    run(["scan", "tree"], cwd=cwd)
    assert stats(run(["scan", "--cache-stats", "tree"], cwd=cwd))["hits"] > 0
    r = run(["scan", "--cache-stats", "tree"], cwd=cwd, binary=other)
    check_same(ref, r)
    assert stats(r)["hits"] == 0
    assert len([n for n in cache_files(cwd / ".lockfix_cache") if n.startswith("index-")]) == 2
    # The same copy of the same build is the same binary.
    same = tmp_path / "lockfix-copy"
    shutil.copy(BIN, same)
    assert stats(run(["scan", "--cache-stats", "tree"], cwd=cwd, binary=same))["hits"] > 0


# ---- damaged indexes ----

def damage_cases(good):
    rnd = random.Random(21)
    fmt_changed = bytearray(good)
    fmt_changed[8] ^= 1  # the format version field
    key_changed = bytearray(good)
    key_changed[20] ^= 1
    payload_flip = bytearray(good)
    payload_flip[len(good) // 2] ^= 0x40
    count_huge = bytearray(good)
    count_huge[56:60] = b"\xff\xff\xff\x7f"
    return {
        "random bytes": bytes(rnd.randrange(256) for _ in range(len(good))),
        "zero length": b"",
        "half": good[:len(good) // 2],
        "header only": good[:64],
        "one byte short": good[:-1],
        "trailing byte": good + b"\0",
        "format version": bytes(fmt_changed),
        "key": bytes(key_changed),
        "payload bit": bytes(payload_flip),
        "entry count": bytes(count_huge),
    }


def test_corrupt_truncated_or_foreign_index_is_a_miss(tree):
    cwd = tree.parent
    args = ["scan", "--format", "sarif", "--cache-stats", "tree"]
    ref = run(["scan", "--format", "sarif", "--no-cache", "tree"], cwd=cwd)
    run(args, cwd=cwd)
    index = index_of(cwd / ".lockfix_cache")
    good = index.read_bytes()
    for name, bad in damage_cases(good).items():
        index.write_bytes(bad)
        r = run(args, cwd=cwd)
        check_same(ref, r)
        assert stats(r)["hits"] == 0, name
        assert stats(r)["index"] == "written", name  # repaired
        warm = run(args, cwd=cwd)
        assert stats(warm)["hits"] > 0 and stats(warm)["index"] == "unchanged", name
        good = index.read_bytes()


def test_damaged_finding_inside_a_valid_index_is_a_miss(tree):
    """A checksum that matches bytes whose findings do not decode (a rule the
    ruleset lacks): the entry is a miss, the file analyzed, the report right."""
    cwd = tree.parent
    args = ["scan", "--format", "json", "--cache-stats", "tree/extra"]
    ref = run(["scan", "--format", "json", "--no-cache", "tree/extra"], cwd=cwd)
    run(args, cwd=cwd)
    index = index_of(cwd / ".lockfix_cache")
    data = bytearray(index.read_bytes())
    pos = data.find(b"\x05\x00\x00\x00LF401")
    assert pos > 0
    data[pos + 4:pos + 9] = b"LF999"
    key0, = struct.unpack_from("<Q", data, 16)
    struct.pack_into("<Q", data, 48, xxh64(bytes(data[64:]), key0))
    index.write_bytes(bytes(data))
    r = run(args, cwd=cwd)
    check_same(ref, r)
    assert stats(r)["analyzed"] == 1


def xxh64(data, seed):
    """The XXH64 of lf_hash.c, to re-seal a payload edited on purpose."""
    M = (1 << 64) - 1
    P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x85EBCA77C2B2AE63,
                          0x27D4EB2F165667C5)

    def rotl(x, r):
        return ((x << r) | (x >> (64 - r))) & M

    def rnd(acc, v):
        return (rotl((acc + v * P2) & M, 31) * P1) & M

    p, n = 0, len(data)
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while n - p >= 32:
            for k in range(4):
                v[k] = rnd(v[k], int.from_bytes(data[p + 8 * k:p + 8 * k + 8], "little"))
            p += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for k in range(4):
            h = ((h ^ rnd(0, v[k])) * P1 + P4) & M
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while n - p >= 8:
        h = (rotl(h ^ rnd(0, int.from_bytes(data[p:p + 8], "little")), 27) * P1 + P4) & M
        p += 8
    if n - p >= 4:
        h = (rotl(h ^ (int.from_bytes(data[p:p + 4], "little") * P1 & M), 23) * P2 + P3) & M
        p += 4
    while p < n:
        h = (rotl(h ^ (data[p] * P5 & M), 11) * P1) & M
        p += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    return h ^ (h >> 32)


# ---- symbolic links ----

def test_symlink_at_the_cache_directory_is_not_followed(tree, tmp_path):
    cwd = tree.parent
    target = tmp_path / "elsewhere"
    target.mkdir()
    (cwd / ".lockfix_cache").symlink_to(target)
    ref = run(["scan", "--no-cache", "tree"], cwd=cwd)
    r = run(["scan", "tree"], cwd=cwd)
    assert (r.returncode, r.stdout) == (ref.returncode, ref.stdout)
    # Said when the cache is opened, before the scan's own messages.
    assert r.stderr == (b"lockfix: warning: cache .lockfix_cache not used: it is a symbolic link, which lockfix never "
                        b"follows; the scan goes on without it (--no-cache turns it off)\n") + ref.stderr
    assert os.listdir(target) == []


def test_symlink_at_the_index_is_neither_read_nor_written_through(tree, tmp_path):
    cwd = tree.parent
    run(["scan", "tree"], cwd=cwd)
    index = index_of(cwd / ".lockfix_cache")
    victim = tmp_path / "victim"
    good = index.read_bytes()
    victim.write_bytes(good)  # a valid index: following the link would make hits
    index.unlink()
    index.symlink_to(victim)
    ref = run(["scan", "--no-cache", "tree"], cwd=cwd)
    r = run(["scan", "--cache-stats", "tree"], cwd=cwd)
    check_same(ref, r)
    assert stats(r)["hits"] == 0
    assert victim.read_bytes() == good  # not written through
    assert not index.is_symlink() and stat.S_ISREG(os.lstat(index).st_mode)  # the link itself was replaced


# ---- concurrency ----

def test_concurrent_runs_all_correct_and_leave_a_valid_cache(tree):
    cwd = tree.parent
    ref = {fmt: run(["scan", "--format", fmt, "--no-cache", "tree"], cwd=cwd) for fmt in FORMATS}
    for round_ in range(3):
        if round_ == 2:  # a change between rounds: some runs see it in the cache, all report it
            (tree / "extra" / "clean.py").write_bytes(STATE_PY)
            ref = {fmt: run(["scan", "--format", fmt, "--no-cache", "tree"], cwd=cwd) for fmt in FORMATS}
        procs = []
        for i in range(8):
            fmt = FORMATS[i % 4]
            procs.append((fmt, subprocess.Popen([BIN, "scan", "--format", fmt, "--jobs", "1", "tree"], cwd=cwd,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)))
        for fmt, p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == ref[fmt].returncode, err
            assert out == ref[fmt].stdout
            assert err == ref[fmt].stderr
        names = cache_files(cwd / ".lockfix_cache")
        assert [n for n in names if not n.startswith("index-")] == [".gitignore", "CACHEDIR.TAG"]  # no temps left
        warm = run(["scan", "--cache-stats", "tree"], cwd=cwd)
        check_same(ref["text"], warm)
        s = stats(warm)
        assert s["analyzed"] == s["uncacheable"] and s["hits"] > 0


# ---- a cache that cannot be used ----

def test_cache_dir_that_cannot_be_created_warns_once(tree):
    cwd = tree.parent
    (cwd / "afile").write_bytes(b"")
    for fmt in FORMATS:
        ref = run(["scan", "--format", fmt, "--no-cache", "tree"], cwd=cwd)
        r = run(["scan", "--format", fmt, "--cache-dir", "afile/cache", "tree"], cwd=cwd)
        assert (r.returncode, r.stdout) == (ref.returncode, ref.stdout)
        assert r.stderr == ref.stderr + (b"lockfix: warning: cache afile/cache not written: cannot create it: Not a "
                                         b"directory; the scan goes on without it (--no-cache turns it off)\n")
    clean = run(["scan", "--cache-dir", "afile/cache", "tree/extra/clean.py"], cwd=cwd)
    assert clean.returncode == 0  # exit status unchanged by the warning


@pytest.mark.unprivileged
def test_unwritable_cache_dir_warns_and_scan_is_unchanged(tree):
    """As root, lockfix runs as uid 65534 (setpriv) so the permission check is real."""
    import tempfile
    d = pathlib.Path(tempfile.mkdtemp(prefix="lockfix-unpriv-"))
    try:
        d.chmod(0o755)
        shutil.copytree(tree / "extra", d / "extra")
        (d / ".lockfix_cache").mkdir(mode=0o755)
        os.chmod(d / ".lockfix_cache", 0o755)
        for p in d.rglob("*"):
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        ref = run(["scan", "--no-cache", "extra"], cwd=d)
        prefix = []
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            assert setpriv, "setpriv (Debian: util-linux) is needed to run this case as uid 65534"
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        else:
            os.chmod(d / ".lockfix_cache", 0o555)
        r = subprocess.run(prefix + [BIN, "scan", "extra"], cwd=d, capture_output=True, timeout=60)
        assert (r.returncode, r.stdout) == (ref.returncode, ref.stdout)
        assert r.stderr == ref.stderr + (b"lockfix: warning: cache .lockfix_cache not written: Permission denied; "
                                         b"the scan goes on without it (--no-cache turns it off)\n")
    finally:
        os.chmod(d / ".lockfix_cache", 0o755)
        shutil.rmtree(d)


# ---- where it lives, and when it is off ----

def test_default_location_and_its_contents(tree):
    cwd = tree.parent
    run(["scan", "tree"], cwd=cwd)
    d = cwd / ".lockfix_cache"
    assert (d / ".gitignore").read_bytes() == b"# Automatically created by lockfix.\n*\n"
    assert (d / "CACHEDIR.TAG").read_bytes().startswith(b"Signature: 8a477f597d28d172789f06886806bc55\n")
    index = index_of(d)
    assert index.read_bytes()[:12] == b"LFCACHE\n\x04\x00\x00\x00"  # format 4: a fix's own unsafe flag
    # git sees nothing of it.
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(cwd)], check=True)
        st = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=cwd, capture_output=True,
                            check=True).stdout
        assert b".lockfix_cache" not in st


def test_no_cache_option_and_environment(tree):
    cwd = tree.parent
    for args, env in ((["--no-cache"], None), ([], {"LOCKFIX_NO_CACHE": "1"})):
        r = run(["scan", "--cache-stats", *args, "tree"], cwd=cwd, env=env)
        assert r.returncode == 1
        assert b"lockfix: cache:" not in r.stderr
        assert not (cwd / ".lockfix_cache").exists()
    r = run(["scan", "--cache-stats", "tree"], cwd=cwd, env={"LOCKFIX_NO_CACHE": "0"})
    assert (cwd / ".lockfix_cache").is_dir()


def test_fix_does_not_use_the_cache(tree):
    cwd = tree.parent
    r = run(["fix", "tree/extra", "--diff"], cwd=cwd)
    assert r.returncode in (0, 1), r.stderr
    assert not (cwd / ".lockfix_cache").exists()
    r = run(["fix", "--no-cache", "tree/extra"], cwd=cwd)
    assert r.returncode == 2 and b"unknown option" in r.stderr


def test_deleted_file_leaves_the_index_and_other_roots_are_kept(tree):
    cwd = tree.parent
    run(["scan", "tree/extra"], cwd=cwd)
    run(["scan", "tree/fixtures/negative"], cwd=cwd)  # another root: extra's entries are kept
    s = stats(run(["scan", "--cache-stats", "tree/extra"], cwd=cwd))
    assert (s["analyzed"], s["index"]) == (0, "unchanged")
    (tree / "extra" / "clean.py").unlink()
    run(["scan", "tree/fixtures/negative"], cwd=cwd)
    data = index_of(cwd / ".lockfix_cache").read_bytes()
    assert b"tree/extra/clean.py" not in data and b"tree/extra/state.py" in data


def test_old_indexes_and_abandoned_temps_are_pruned(tree):
    """Other keys' indexes: the 7 newest are kept beside the current one;
    temps a killed run left: removed after an hour, a recent one (a live
    writer's) kept."""
    cwd = tree.parent
    d = cwd / ".lockfix_cache"
    run(["scan", "tree/extra"], cwd=cwd)
    ours = index_of(d).name
    now = time.time()
    for i in range(10):
        p = d / f"index-{i:032x}"
        p.write_bytes(b"old")
        os.utime(p, (now - 1000 + i, now - 1000 + i))
    stale = [d / ".index-0123.4242.abcdef", d / ".CACHEDIR.TAG.4242.abcdef", d / "..gitignore.4242.abcdef"]
    for p in stale:
        p.write_bytes(b"partial")
        os.utime(p, (now - 7200, now - 7200))
    live = d / ".index-0123.4343.ghijkl"
    live.write_bytes(b"partial")
    (tree / "extra" / "clean.py").write_bytes(b"x = 2\n")  # something to write
    run(["scan", "tree/extra"], cwd=cwd)
    assert sorted(os.listdir(d)) == sorted([".gitignore", "CACHEDIR.TAG", ours, live.name]
                                           + [f"index-{i:032x}" for i in range(3, 10)])
