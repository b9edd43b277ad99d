import importlib.util
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import contention  # noqa: E402

# "native": the library, with exclusive_lock's inline fast path on an empty
# lock file (the default on Linux); every wait and judgement is the library's;
# "native-c": the library for every acquisition (LOCKRT_PY_OSLOCK=native);
# "python": no library (LOCKRT_PURE_PYTHON=1).
BACKENDS = ["native", "native-c", "python"]


def load_lockrt(backend, monkeypatch, name=None):
    """Execute lockrt.py afresh under the environment of `backend`."""
    for var in ("LOCKRT_LIBRARY", "LOCKRT_PURE_PYTHON", "LOCKRT_STRATEGY", "LOCKRT_PY_OSLOCK"):
        monkeypatch.delenv(var, raising=False)
    if backend == "native-c":
        monkeypatch.setenv("LOCKRT_PY_OSLOCK", "native")
    if backend in ("native", "native-c"):
        if not contention.LIBRARY:
            pytest.skip("LOCKRT_TEST_LIBRARY is not set (run through ctest to test the native backend)")
        monkeypatch.setenv("LOCKRT_LIBRARY", contention.LIBRARY)
    else:
        monkeypatch.setenv("LOCKRT_PURE_PYTHON", "1")
    spec = importlib.util.spec_from_file_location(name or "lockrt_" + backend.replace("-", "_"),
                                                  os.path.join(contention.PY_DIR, "lockrt.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.BACKEND == backend.split("-")[0], module.LOAD_ERROR
    module.TEST_BACKEND = backend
    return module


@pytest.fixture(params=BACKENDS)
def lockrt(request, monkeypatch):
    return load_lockrt(request.param, monkeypatch)


@pytest.fixture
def native(monkeypatch):
    return load_lockrt("native", monkeypatch)
