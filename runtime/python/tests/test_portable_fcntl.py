"""lockrt.fcntl: the real fcntl module on Unix; on Windows a stand-in whose
flock() takes lockrt's OS lock byte. Windows is simulated as in test_import
(msvcrt.locking backed by POSIX record locks, so exclusion is between
processes); every check runs real processes."""
import fcntl
import json
import os
import subprocess
import sys
import textwrap

import contention
from test_import import FAKE_WINDOWS


def _env(tmp_path):
    env = contention.base_env("python")
    env["LOCKRT_LIBRARY"] = str(tmp_path / "absent.dll")  # no lockrt.dll loads here
    env["LOCKRT_PURE_PYTHON"] = "1"
    return env


def test_on_unix_it_is_the_real_fcntl_module():
    sys.path.insert(0, contention.PY_DIR)
    try:
        import lockrt
    finally:
        sys.path.pop(0)
    assert lockrt.fcntl is fcntl


HOLDER = FAKE_WINDOWS + textwrap.dedent("""\
    f = open(sys.argv[1], "a+")
    f.write("x")
    lockrt.fcntl.flock(f, lockrt.fcntl.LOCK_EX)
    print("held", f.tell(), flush=True)
    sys.stdin.readline()
    lockrt.fcntl.flock(f.fileno(), lockrt.fcntl.LOCK_UN)
    print("released", flush=True)
    sys.stdin.read()
    """)

PROBE = FAKE_WINDOWS + textwrap.dedent("""\
    out = {}
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
    try:
        lockrt.fcntl.flock(fd, lockrt.fcntl.LOCK_EX | lockrt.fcntl.LOCK_NB)
        out["nb"] = "locked"
        lockrt.fcntl.flock(fd, lockrt.fcntl.LOCK_UN)
    except BlockingIOError:
        out["nb"] = "BlockingIOError"
    os.close(fd)
    with lockrt.exclusive_lock(sys.argv[1], timeout=0.2) as acquired:
        out["lockrt"] = acquired
    print(json.dumps(out))
    """).replace("out = {}", "import json\nout = {}")


def test_flock_excludes_other_processes_and_lockrt_itself_as_on_windows(tmp_path):
    env = _env(tmp_path)
    lock = str(tmp_path / "state.lock")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, lock], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=env)
    try:
        held = holder.stdout.readline().split()
        assert held == [b"held", b"1"], held  # the file position is kept
        probe = lambda: json.loads(subprocess.run([sys.executable, "-c", PROBE, lock], env=env, check=True,
                                                  stdout=subprocess.PIPE).stdout)
        # LOCK_NB on a held lock raises BlockingIOError, as fcntl.flock does;
        # lockrt's own lock on the same file waits for the same byte.
        assert probe() == {"nb": "BlockingIOError", "lockrt": False}
        holder.stdin.write(b"\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == b"released\n"
        assert probe() == {"nb": "locked", "lockrt": True}
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def test_unlocking_an_unlocked_file_succeeds_and_lock_sh_is_exclusive(tmp_path):
    code = FAKE_WINDOWS + textwrap.dedent("""\
        f = open(sys.argv[1], "w")
        lockrt.fcntl.flock(f, lockrt.fcntl.LOCK_UN)
        lockrt.fcntl.flock(f, lockrt.fcntl.LOCK_SH)
        try:
            lockrt.fcntl.flock(f, lockrt.fcntl.LOCK_NB)
        except OSError as exc:
            print("einval", exc.errno == __import__("errno").EINVAL)
        print(sorted(n for n in dir(lockrt.fcntl) if not n.startswith("_")))
        sys.stdout.flush()
        sys.stdin.read()
        """)
    env = _env(tmp_path)
    lock = str(tmp_path / "l")
    holder = subprocess.Popen([sys.executable, "-c", code, lock], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=env)
    try:
        assert holder.stdout.readline() == b"einval True\n"
        assert holder.stdout.readline().decode().strip() == str(["LOCK_EX", "LOCK_NB", "LOCK_SH", "LOCK_UN", "flock"])
        probe = json.loads(subprocess.run([sys.executable, "-c", PROBE, lock], env=env, check=True,
                                          stdout=subprocess.PIPE).stdout)
        assert probe == {"nb": "BlockingIOError", "lockrt": False}  # the LOCK_SH holder excludes
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


WORKER = FAKE_WINDOWS + textwrap.dedent("""\
    state, lock, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fcntl = lockrt.fcntl
    print("ready", flush=True)
    sys.stdin.read(1)
    for _ in range(n):
        with open(lock, "a") as lf:
            fcntl.flock(lf, fcntl.LOCK_EX)
            try:
                try:
                    with open(state) as f:
                        count = int(f.read() or 0)
                except FileNotFoundError:
                    count = 0
                with open(state, "w") as f:
                    f.write(str(count + 1))
            finally:
                fcntl.flock(lf, fcntl.LOCK_UN)
    """)


def test_no_update_is_lost_between_processes_as_on_windows(tmp_path):
    procs, iters = 4, 60
    env = _env(tmp_path)
    state, lock = tmp_path / "count", tmp_path / "count.lock"
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(state), str(lock), str(iters)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) for _ in range(procs)]
    for w in workers:
        assert w.stdout.readline() == b"ready\n"
    for w in workers:
        w.stdin.write(b"g")
        w.stdin.flush()
    for w in workers:
        w.stdin.close()
        assert w.wait(timeout=120) == 0
    assert int(state.read_text()) == procs * iters
