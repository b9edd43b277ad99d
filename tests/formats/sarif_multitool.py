"""Microsoft's SARIF multitool (npm @microsoft/sarif-multitool-linux, pinned in
deps/tools, installed into the build tree by the formats.tools_setup fixture),
shared by the suites that validate lockfix's SARIF."""
import json
import os
import pathlib
import stat
import subprocess

import pytest

from lfcli import SOURCE_DIR

TOOLS = pathlib.Path(os.environ.get("LOCKFIX_TOOLS_DIR", SOURCE_DIR / "build" / "tools"))
PKG = TOOLS / "node_modules" / "@microsoft" / "sarif-multitool-linux"


def multitool():
    exe = PKG / "Sarif.Multitool"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: run `ctest -R formats.tools_setup` (npm ci of deps/tools)")
    # npm ci --ignore-scripts does not mark the single-file .NET app executable.
    if not os.access(exe, os.X_OK):
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return exe


def problems(sarif_path, tmp_path):
    """Errors and warnings the validator reports (its exit status is 0 either way)."""
    schema = PKG / "sarif-2.1.0.json"
    assert schema.exists()
    log = tmp_path / (pathlib.Path(sarif_path).stem + ".validation.sarif")
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    p = subprocess.run([str(multitool()), "validate", str(sarif_path), "--json-schema", str(schema),
                        "--level", "Error;Warning;Note", "--output", str(log)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    results = json.loads(log.read_text())["runs"][0].get("results", [])
    return [(r.get("level", "warning"), r["ruleId"]) for r in results if r.get("level", "warning") in ("error", "warning")]


def validate(sarif_path, tmp_path):
    assert problems(sarif_path, tmp_path) == []
