"""lockrt.py as a fixer vendors it: one file inside a package, imported
relatively, on Python 3.8+ and on Windows (no fcntl)."""
import ast
import ctypes.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import contention

SOURCE = os.path.join(contention.PY_DIR, "lockrt.py")


def _make_package(root, with_library):
    lib = root / "integration" / "lib"
    lib.mkdir(parents=True)
    (root / "integration" / "__init__.py").write_text("")
    (lib / "__init__.py").write_text("")
    shutil.copy(SOURCE, str(lib / "lockrt.py"))
    if with_library:
        shutil.copy(contention.LIBRARY, str(lib / "liblockrt.so"))
    (lib / "state.py").write_text(textwrap.dedent("""\
        from . import lockrt

        def bump(path):
            with lockrt.exclusive_lock(path + ".lock") as acquired:
                data = open(path).read() if __import__("os").path.exists(path) else "0"
                lockrt.write_atomic(path, str(int(data) + 1))
                return acquired
        """))
    return root


def _run_in(root, code, env):
    return subprocess.run([sys.executable, "-c", code], cwd=str(root), env=env, check=True,
                          stdout=subprocess.PIPE).stdout.decode().split()


def test_vendored_beside_the_library_uses_it(tmp_path):
    if not contention.LIBRARY:
        pytest.skip("LOCKRT_TEST_LIBRARY is not set")
    root = _make_package(tmp_path, with_library=True)
    env = contention.base_env("native")
    env.pop("LOCKRT_LIBRARY")
    out = _run_in(root, "from integration.lib import state, lockrt; import os; "
                        "print(lockrt.BACKEND, os.path.basename(lockrt.LIBRARY), state.bump('c'), state.bump('c'))",
                  env)
    assert out == ["native", "liblockrt.so", "True", "True"]
    assert (root / "c").read_text() == "2"


def test_vendored_without_a_library_falls_back_to_pure_python(tmp_path):
    if ctypes.util.find_library("lockrt"):
        pytest.skip("a lockrt library is installed on this machine")
    root = _make_package(tmp_path, with_library=False)
    env = contention.base_env("native")
    env.pop("LOCKRT_LIBRARY", None)
    out = _run_in(root, "from integration.lib import state, lockrt; print(lockrt.BACKEND, state.bump('c'))", env)
    assert out == ["python", "True"]
    assert (root / "c").read_text() == "1"


def test_explicit_library_that_fails_to_load_falls_back(tmp_path):
    env = contention.base_env("native")
    env["LOCKRT_LIBRARY"] = str(tmp_path / "nope.so")
    code = "import sys; sys.path.insert(0, %r); import lockrt; print(lockrt.BACKEND, 'nope.so' in lockrt.LOAD_ERROR)" \
        % contention.PY_DIR
    assert _run_in(tmp_path, code, env) == ["python", "True"]


def test_import_has_no_side_effects(tmp_path):
    env = contention.base_env("python")
    code = "import sys; sys.path.insert(0, %r); import lockrt" % contention.PY_DIR
    _run_in(tmp_path, code, env)
    assert os.listdir(str(tmp_path)) == []


def test_source_is_python38_syntax():
    with open(SOURCE) as fh:
        ast.parse(fh.read(), feature_version=(3, 8))


def _old_pythons():
    found = []
    for version in ("3.8", "3.9"):
        exe = shutil.which("python" + version)
        if exe is None:
            candidates = [os.path.expanduser("~/.pyenv/versions/%s" % d) for d in
                          (os.listdir(os.path.expanduser("~/.pyenv/versions"))
                           if os.path.isdir(os.path.expanduser("~/.pyenv/versions")) else [])
                          if d.startswith(version + ".")]
            exe = next((os.path.join(c, "bin", "python") for c in candidates
                        if os.path.exists(os.path.join(c, "bin", "python"))), None)
        if exe:
            found.append(exe)
    return found


@pytest.mark.parametrize("backend", ["native", "python"])
def test_runs_on_old_pythons(tmp_path, backend):
    pythons = _old_pythons()
    if not pythons:
        pytest.skip("no python3.8/3.9 interpreter on this machine (syntax is checked by the test above)")
    if backend == "native" and not contention.LIBRARY:
        pytest.skip("LOCKRT_TEST_LIBRARY is not set")
    code = ("import sys; sys.path.insert(0, %r); import lockrt, os; "
            "l = lockrt.acquire(%r); lockrt.write_atomic(%r, 'x'); "
            "print(lockrt.BACKEND, l is not None, lockrt.process_alive(os.getpid()), "
            "lockrt.confined_path(%r, 'a.json') == %r)"
            % (contention.PY_DIR, str(tmp_path / "l"), str(tmp_path / "w"), str(tmp_path),
               os.path.join(str(tmp_path), "a.json")))
    for exe in pythons:
        out = _run_in(tmp_path, code, contention.base_env(backend))
        assert out == [backend, "True", "alive", "True"], exe


# A Windows interpreter is simulated: sys.platform is "win32", os.name is "nt"
# while lockrt is imported (it goes by os.name, which a program that fakes
# sys.platform leaves alone), fcntl cannot be
# imported, and msvcrt.locking is backed by POSIX record locks (per process, so
# exclusion is checked between two processes).
FAKE_WINDOWS = textwrap.dedent("""\
    import sys, os, subprocess, tempfile
    import ctypes  # imported for real first: it picks its platform code by os.name
    sys.platform = "win32"
    sys.path.insert(0, %r)
    import fake_msvcrt
    fake_msvcrt.install()
    sys.path.insert(0, %r)
    os.name = "nt"  # only while lockrt decides its platform: ctypes reads it on every load
    import lockrt
    os.name = "posix"
    assert lockrt.BACKEND == "python", lockrt.LOAD_ERROR
    """) % (os.path.dirname(os.path.abspath(__file__)), contention.PY_DIR)


def test_imports_and_locks_without_fcntl_as_on_windows(tmp_path):
    env = contention.base_env("native")
    env.pop("LOCKRT_LIBRARY", None)  # on "win32" the .so must not be what is tried
    env["LOCKRT_LIBRARY"] = str(tmp_path / "absent.dll")
    env["LOCKRT_PURE_PYTHON"] = "1"  # no lockrt.dll can load here
    lock = str(tmp_path / "l")
    holder = subprocess.Popen([sys.executable, "-c", FAKE_WINDOWS + textwrap.dedent("""\
        l = lockrt.acquire(%r, timeout=1)
        print("held", l is not None, flush=True)
        sys.stdin.read()
        l.release()
        """) % lock], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        assert holder.stdout.readline().split() == [b"held", b"True"]
        probe = FAKE_WINDOWS + textwrap.dedent("""\
            with lockrt.exclusive_lock(%r, timeout=float(sys.argv[1])) as acquired:
                print(acquired)
            """) % lock
        out = subprocess.run([sys.executable, "-c", probe, "0.2"], env=env, check=True,
                             stdout=subprocess.PIPE).stdout.split()
        assert out == [b"False"]
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
        out = subprocess.run([sys.executable, "-c", probe, "5"], env=env, check=True,
                             stdout=subprocess.PIPE).stdout.split()
        assert out == [b"True"]
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_the_windows_os_lock_waits_while_a_lockfile_record_names_a_live_owner(tmp_path):
    # As the C library's Windows OS lock: a record of another host holds (its
    # processes cannot be seen); bytes that are not a record do not.
    env = contention.base_env("python")
    env["LOCKRT_LIBRARY"] = str(tmp_path / "absent.dll")
    lock = tmp_path / "l"
    probe = FAKE_WINDOWS + textwrap.dedent("""\
        with lockrt.exclusive_lock(%r, timeout=float(sys.argv[1])) as acquired:
            print(acquired)
        """) % str(lock)
    lock.write_bytes(b'{"pid":4,"start_time":0,"host":"elsewhere.invalid","token":"ab12%s"}\n' % (b"0" * 28))
    out = subprocess.run([sys.executable, "-c", probe, "0.2"], env=env, check=True,
                         stdout=subprocess.PIPE).stdout.split()
    assert out == [b"False"]
    lock.write_bytes(b"stray bytes\n")
    out = subprocess.run([sys.executable, "-c", probe, "5"], env=env, check=True,
                         stdout=subprocess.PIPE).stdout.split()
    assert out == [b"True"]
    assert lock.read_bytes() == b"stray bytes\n"
