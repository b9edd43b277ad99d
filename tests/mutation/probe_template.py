"""Added to every generated case by tests/mutation/gen.py (not a fixture test).

Records what the module does, so that mutate.py can compare the unpatched and
the patched module: the state written (bytes, permissions, files left), what
the confinement guard accepts and rejects (item 5's table: plain, nested, ..,
absolute, symlink inside, symlink escaping, missing file, state dir behind a
symlink) and what the locked functions return."""
import json
import os
import stat

from lib import state

ENV = "@ENV@"
CALLS = @CALLS@


def _outcome(fn, *args, **kwargs):
    try:
        return ["ok", fn(*args, **kwargs)]
    except Exception as exc:
        return ["raise", type(exc).__name__]


def _where(root):
    def where(name):
        return os.path.relpath(state._state_file(name), str(root))
    return where


def test_mutation_probe(state_dir, tmp_path, monkeypatch):
    out_dir = os.environ.get("MUTATION_PROBE_DIR")
    out = {}
    os.makedirs(str(state_dir), exist_ok=True)
    out["write"] = _outcome(state.write_state, "probe", {"a": [1, 2], "b": "x"})
    target = os.path.join(str(state_dir), "probe")
    with open(target, "rb") as f:
        out["bytes"] = f.read().decode()
    out["mode"] = oct(stat.S_IMODE(os.stat(target).st_mode))
    out["read"] = state.read_state("probe")
    out["read_missing"] = state.read_state("never-written", {"d": 1})
    where = _where(state_dir)
    names = ["plain.json", "sub/name.json", "..", "/abs/path", "x\\y", ".hidden"]
    inside = state_dir / "real-target"
    inside.write_text("{}")
    os.symlink(str(inside), str(state_dir / "link-in"))
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    os.symlink(str(outside), str(state_dir / "link-out"))
    out["names"] = {n: _outcome(where, n) for n in names + ["link-in", "link-out", "missing-file"]}
    out["write_link_out"] = _outcome(state.write_state, "link-out", {"x": 1})
    out["outside_after"] = outside.read_text()
    real = tmp_path / "real-dir"
    real.mkdir()
    os.symlink(str(real), str(tmp_path / "link-dir"))
    monkeypatch.setenv(ENV, str(tmp_path / "link-dir"))
    behind = _where(tmp_path / "link-dir")
    out["behind"] = {n: _outcome(behind, n) for n in ["plain", "missing"]}
    out["behind_write"] = _outcome(state.write_state, "w", {"k": 1})
    out["behind_files"] = sorted(os.listdir(str(real)))
    monkeypatch.setenv(ENV, str(state_dir))
    out["calls"] = [[fn, _outcome(getattr(state, fn), *args)] for fn, args in CALLS]
    out["files"] = sorted(os.listdir(str(state_dir)))
    if out_dir:
        with open(os.path.join(out_dir, os.path.basename(os.getcwd()) + ".json"), "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
