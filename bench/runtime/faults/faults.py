"""Fault comparison: lockrt against filelock, portalocker, proper-lockfile and
lockfile (npm) under the fault scenarios of issue 3. A comparison script, not a
test: it reports what each library does and prints a Markdown table (the one in
docs/lockrt-comparison.md). Run it through bench/runtime/faults/run.sh.

Scenarios (each with real processes):
  kill      holder SIGKILLed inside the critical section; 3 contenders race
            (TRIALS times). Reclaimed within the wait? Two live holders ever
            (an O_EXCL occupancy marker inside the critical section)?
  stop      holder SIGSTOPped for longer than the contenders' 5 s wait. Does a
            contender break the lock (two holders once the holder resumes)?
  reuse     the owner record names a live pid whose start time differs (pid
            reused). Reclaimed?
  eperm     the owner record names a live root process; the contender runs
            unprivileged (kill(pid, 0) = EPERM). Held, or stolen?
  symlink   a symlink planted at the lock path, to an existing file and dangling.
            Followed (target created/truncated)? Deleted? Acquired through it?
  successor a successor takes the lock between the stale judgement and the
            removal (driven deterministically: a lockrt test hook; an injected
            fs for proper-lockfile; a wrapped fs.unlink for lockfile). Survives?
"""
import argparse
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "runtime", "python"))

LIBS = ["lockrt-oslock", "lockrt-lockfile", "filelock", "filelock-soft", "portalocker", "proper-lockfile",
        "lockfile"]
NODE_LIBS = {"proper-lockfile", "lockfile"}
RECORD_LIBS = {"lockrt-lockfile"}


class Ctx(object):
    def __init__(self, args):
        self.library = args.library
        self.tools = args.tools
        self.trials = args.trials
        self.env = dict(os.environ)
        for var in ("LOCKRT_STRATEGY", "LOCKRT_PURE_PYTHON", "LOCKRT_PY_OSLOCK"):
            self.env.pop(var, None)
        self.env["LOCKRT_LIBRARY"] = args.library
        self.env["NODE_PATH"] = os.path.join(args.tools, "node_modules")

    def cmd(self, lib, *rest):
        if lib in NODE_LIBS:
            return ["node", os.path.join(HERE, "node_peer.js"), lib] + list(rest)
        return [sys.executable, os.path.join(HERE, "py_peer.py"), lib] + list(rest)

    def hold(self, lib, lock):
        proc = subprocess.Popen(self.cmd(lib, "hold", lock), env=self.env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE)
        line = proc.stdout.readline().decode().split()
        if not line or line[0] != "held":
            proc.kill()
            raise RuntimeError("%s: holder did not get the lock: %s" % (lib, line))
        return proc

    def try_(self, lib, lock, timeout, occ=None, preexec=None, wait=True):
        args = self.cmd(lib, "try", lock, str(timeout)) + (["--occ", occ] if occ else [])
        proc = subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE, preexec_fn=preexec)
        if not wait:
            return proc
        return finish(proc)


def finish(proc):
    out, _ = proc.communicate(timeout=120)
    words = out.decode().split()
    return words


def lock_object(lib, lock):
    return lock + ".lock" if lib == "proper-lockfile" else lock


def cell(ok, note):
    return {"ok": ok, "note": note}


# ---------------------------------------------------------------- scenarios

def scenario_kill(ctx, lib, work):
    waits, doubles, failed = [], 0, 0
    for trial in range(ctx.trials):
        d = tempfile.mkdtemp(dir=work)
        lock, occ = os.path.join(d, "lock"), os.path.join(d, "occ")
        holder = ctx.hold(lib, lock)
        holder.kill()
        holder.wait()
        contenders = [ctx.try_(lib, lock, 6, occ=occ, wait=False) for _ in range(3)]
        for c in contenders:
            words = finish(c)
            if words and words[0] == "acquired":
                waits.append(int(words[1]))
                doubles += "DOUBLE" in words
            else:
                failed += 1
    total = ctx.trials * 3
    if doubles:
        return cell(False, "TWO HOLDERS in %d of %d acquisitions" % (doubles, total))
    if failed == total:
        return cell(False, "never reclaimed: all %d contenders timed out (6 s); the dead holder's lock stays" % total)
    if failed:
        return cell(False, "%d of %d contenders timed out" % (failed, total))
    slowest = max(waits)
    how = "kernel drops the lock with the process" if lib in ("lockrt-oslock", "filelock", "portalocker") \
        else "reclaimed after %.1f s (mtime/ctime aged past stale)" % (slowest / 1000.0) \
        if lib in NODE_LIBS else "reclaimed at once (owner pid provably dead)"
    return cell(True, "%s; %d/%d acquired, slowest %d ms, never two holders" % (how, total, total, slowest))


def scenario_stop(ctx, lib, work):
    d = tempfile.mkdtemp(dir=work)
    lock = os.path.join(d, "lock")
    holder = ctx.hold(lib, lock)
    holder.send_signal(signal.SIGSTOP)
    try:
        words = ctx.try_(lib, lock, 5)
    finally:
        holder.send_signal(signal.SIGCONT)
        time.sleep(0.3)
        holder.stdin.close()
        try:
            holder.wait(timeout=10)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()
    if words and words[0] == "acquired":
        return cell(False, "BROKEN after %.1f s: the stopped (live) holder lost its lock; two holders on resume"
                    % (int(words[1]) / 1000.0))
    if words and words[0] == "timeout":
        return cell(True, "held: the contender timed out after %.1f s and said so" % (int(words[1]) / 1000.0))
    return cell(None, "contender: %s" % " ".join(words))


def _sleeper():
    return subprocess.Popen(["sleep", "600"])


def _record(pid, start_time, token="f" * 32):
    # Exactly the form lockrt writes (docs/lockrt.md section 2): anything else
    # at a lock path is not an owner record, and lockrt never removes it.
    return json.dumps({"pid": pid, "start_time": start_time, "host": _lockrt_host(), "token": token},
                      separators=(",", ":")) + "\n"


_HOST = []


def _lockrt_host():
    if not _HOST:
        import lockrt
        d = tempfile.mkdtemp()
        try:
            with lockrt.acquire(os.path.join(d, "l"), strategy="lockfile"):
                _HOST.append(lockrt.owner_read(os.path.join(d, "l"))["host"])
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return _HOST[0]


def scenario_reuse(ctx, lib, work):
    if lib not in RECORD_LIBS:
        return cell(None, NO_RECORD[lib])
    import lockrt
    d = tempfile.mkdtemp(dir=work)
    lock = os.path.join(d, "lock")
    sleeper = _sleeper()
    try:
        real = lockrt.process_start_time(sleeper.pid)
        with open(lock, "w") as fh:
            fh.write(_record(sleeper.pid, real + 12345))
        reused = ctx.try_(lib, lock, 3)
        with open(lock, "w") as fh:
            fh.write(_record(sleeper.pid, real))
        control = ctx.try_(lib, lock, 1)
    finally:
        sleeper.kill()
        sleeper.wait()
    if reused[0] == "acquired" and control[0] == "timeout":
        return cell(True, "reclaimed in %s ms (start time differs); the same pid with its own start time stays held"
                    % reused[1])
    return cell(False, "reused pid: %s; matching start time: %s" % (" ".join(reused), " ".join(control)))


def _drop_privileges():
    os.setgid(65534)
    os.setuid(65534)


def scenario_eperm(ctx, lib, work):
    if lib not in RECORD_LIBS:
        return cell(None, NO_RECORD[lib])
    if os.geteuid() != 0:
        return cell(None, "skipped: needs root to run the contender unprivileged")
    import lockrt
    d = tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o777)
    lock = os.path.join(d, "lock")
    with open(lock, "w") as fh:
        fh.write(_record(1, lockrt.process_start_time(1) or 0))
    os.chmod(lock, 0o666)
    words = ctx.try_(lib, lock, 1, preexec=_drop_privileges)
    if words and words[0] == "timeout":
        return cell(True, "held: EPERM from kill(1, 0) reads as alive; the unprivileged contender timed out")
    return cell(False, "contender as nobody: %s" % " ".join(words))


def scenario_symlink(ctx, lib, work):
    notes, ok = [], True
    for kind in ("existing", "dangling"):
        d = tempfile.mkdtemp(dir=work)
        lock = os.path.join(d, "lock")
        target = os.path.join(d, "victim")
        if kind == "existing":
            with open(target, "w") as fh:
                fh.write("precious")
            old = time.time() - 3600
            os.utime(target, (old, old))
        link = lock_object(lib, lock)
        os.symlink(target, link)
        words = ctx.try_(lib, lock, 3)
        after_link = os.path.islink(link)
        if kind == "existing":
            content = open(target).read() if os.path.exists(target) else None
            damage = [] if content == "precious" else ["victim %s" % ("deleted" if content is None
                                                                       else "truncated/changed to %r" % content)]
        else:
            damage = ["target file created through the link"] if os.path.exists(target) else []
        if not after_link:
            damage.append("symlink removed")
        outcome = words[0] if words else "?"
        if outcome == "error":
            outcome = "refused (%s)" % _short(" ".join(words[2:]))
        elif outcome == "acquired":
            outcome = "acquired through it" + (" (locked the link's target)" if kind == "existing"
                                               and os.path.exists(target) and after_link else "")
            ok = False
        if damage:
            ok = False
        notes.append("%s: %s%s" % (kind, outcome, ("; " + ", ".join(damage)) if damage else ", nothing touched"))
    return cell(ok, "; ".join(notes))


def _short(text):
    for code in ("LOCKRT_ESYMLINK", "ELOOP", "ENOTDIR", "EEXIST"):
        if code in text:
            return code
    if "Errno 40" in text:
        return "ELOOP: O_NOFOLLOW"
    return text[:60]


def scenario_successor(ctx, lib, work):
    if lib in NODE_LIBS:
        d = tempfile.mkdtemp(dir=work)
        lock = os.path.join(d, "lock")
        obj = lock_object(lib, lock)
        if lib == "proper-lockfile":
            os.mkdir(obj)
            old = time.time() - 3600
            os.utime(obj, (old, old))
        else:
            with open(obj, "w") as fh:
                fh.write("dead holder")
            time.sleep(2.2)  # npm lockfile ages a lock by ctime, which utime cannot set back
        out = subprocess.run(ctx.cmd(lib, "successor", lock, "5"), env=ctx.env, stdout=subprocess.PIPE,
                             timeout=120).stdout.decode().split()
        if len(out) >= 3 and out[2] == "successor-removed":
            return cell(False, "the successor's lock was deleted by name and taken over: two holders")
        if len(out) >= 3 and out[2] == "successor-kept":
            return cell(True, "successor kept")
        return cell(None, "outcome: %s" % " ".join(out))
    if lib == "lockrt-lockfile":
        return _lockrt_successor(ctx, work)
    return cell(None, NO_REMOVAL[lib])


def _lockrt_successor(ctx, work):
    import lockrt
    # The test seams live in the test build of the library (lockrt_testhooks,
    # beside the production one; src/lockrt_test_hooks.h), not in the public API.
    lib = ctypes.CDLL(os.path.join(os.path.dirname(ctx.library), "liblockrt_testhooks.so"))
    hook_t = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)

    class Hooks(ctypes.Structure):
        _fields_ = [("after_stale_judgement", hook_t), ("after_quarantine", hook_t), ("hook_arg", ctypes.c_void_p)]

    d = tempfile.mkdtemp(dir=work)
    lock = os.path.join(d, "lock")
    dead = subprocess.Popen(["true"])
    dead.wait()
    with open(lock, "w") as fh:
        fh.write(_record(dead.pid, 1))
    successor = []

    def after_judgement(path, arg):
        # The stale record is replaced by a live successor's lock.
        os.unlink(lock)
        successor.append(ctx.hold("lockrt-lockfile", lock))

    keep = hook_t(after_judgement)
    hooks = Hooks(keep, hook_t(), None)
    lib.lockrt_test_reclaim_if_stale.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    status = lib.lockrt_test_reclaim_if_stale(lock.encode(), ctypes.byref(hooks))
    try:
        if not successor:
            return cell(None, "the hook did not run (status %d)" % status)
        owner = lockrt.owner_read(lock)
        if status == lockrt.EMISMATCH and owner["pid"] == successor[0].pid:
            return cell(True, "identity-bound removal refused (LOCKRT_EMISMATCH); the successor's record survives")
        return cell(False, "status %d, record now %s" % (status, owner))
    finally:
        for s in successor:
            s.stdin.close()
            s.wait()


NO_RECORD = {
    "lockrt-oslock": "a kernel lock has no owner record; the kernel knows the holder",
    "filelock": "kernel flock, no owner record",
    "filelock-soft": "no owner record at all: a lock left by any holder, dead or alive, is never reclaimed",
    "portalocker": "kernel flock, no owner record",
    "proper-lockfile": "no owner identity: staleness is mtime only, so pid reuse cannot matter and liveness is never asked",
    "lockfile": "no owner identity: staleness is ctime only (with `stale`), liveness never asked",
}
NO_REMOVAL = {
    "lockrt-oslock": "the lock file is never removed",
    "filelock": "never removes the lock file",
    "filelock-soft": "never judges staleness (release unlinks its own file by name)",
    "portalocker": "never removes the lock file",
}

SCENARIOS = [
    ("kill", "holder SIGKILLed mid-critical-section", scenario_kill),
    ("stop", "holder SIGSTOPped past the timeout", scenario_stop),
    ("reuse", "pid alive, different start time", scenario_reuse),
    ("eperm", "owner alive, EPERM", scenario_eperm),
    ("symlink", "symlink planted at the lock path", scenario_symlink),
    ("successor", "successor between stale judgement and removal", scenario_successor),
]


def mark(c):
    return {True: "survives", False: "**fails**", None: "n/a"}[c["ok"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--only", nargs="*", default=None, help="scenario names")
    ap.add_argument("--libs", nargs="*", default=LIBS)
    ap.add_argument("--json-out")
    args = ap.parse_args()
    os.environ["LOCKRT_LIBRARY"] = args.library
    os.environ.pop("LOCKRT_PURE_PYTHON", None)
    ctx = Ctx(args)
    work = tempfile.mkdtemp(prefix="lockrt-faults-")
    os.chmod(work, 0o755)
    results = {}
    try:
        for key, title, fn in SCENARIOS:
            if args.only and key not in args.only:
                continue
            for lib in args.libs:
                sys.stderr.write("  %-10s %-16s ... " % (key, lib))
                sys.stderr.flush()
                try:
                    c = fn(ctx, lib, work)
                except Exception as exc:  # a comparison reports, it does not stop
                    c = cell(None, "scenario error: %s: %s" % (type(exc).__name__, exc))
                results[(key, lib)] = c
                sys.stderr.write("%s: %s\n" % (mark(c), c["note"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    shown = [(key, title) for key, title, _ in SCENARIOS if not args.only or key in args.only]
    print("| library | " + " | ".join("%s (`%s`)" % (title, key) for key, title in shown) + " |")
    print("|---|" + "---|" * len(shown))
    for lib in args.libs:
        print("| %s | %s |" % (lib, " | ".join(mark(results[(key, lib)]) for key, _ in shown)))
    for key, title in shown:
        print("\n**%s** (`%s`)\n" % (title, key))
        for lib in args.libs:
            c = results[(key, lib)]
            print("- %s: %s: %s" % (lib, mark(c), c["note"]))
    print("\n(run on %s, %s, trials=%d)" % (socket.gethostname(), time.strftime("%Y-%m-%d"), args.trials))
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump({"%s:%s" % k: v for k, v in results.items()}, fh, indent=1)


if __name__ == "__main__":
    main()
