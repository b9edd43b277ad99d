import sys
import pathlib

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import lfcli  # noqa: E402


@pytest.fixture
def project(tmp_path):
    """A small tree with findings: pkg/state.py (3 findings) and pkg/clean.py."""
    lfcli.write(tmp_path / "pkg" / "state.py", lfcli.STATE_PY)
    lfcli.write(tmp_path / "pkg" / "clean.py", lfcli.CLEAN_PY)
    return tmp_path
