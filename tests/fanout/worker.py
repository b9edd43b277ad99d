"""One hook process of the fan-out harness, on the Windows code path.

    worker.py INTEGRATION_DIR CALL KEY ITERS

It fakes ``sys.platform = "win32"`` before the integration's ``lib`` package is
imported, so an unpatched ``state.py`` takes its Windows branch (no fcntl, the
unlocked read-modify-write) while the vendored lockrt still takes the real Linux
lock: it decides by ``os.name``. State goes where the environment says
(``LOCKFIX_FIXTURE_STATE_DIR``; the caller clears the per-integration variables).

Protocol on stdout, one JSON object per line:
  1. after the import: {"ready": ..., facts about what was imported}; then the
     worker blocks until one byte arrives on stdin (the start barrier: every
     process of a run is imported and waiting before any of them starts, so
     interpreter start-up never serialises the run);
  2. at the end: {"returns": [value of every call], "errors": count,
     "first_errors": [...], "locks": {"entered": n, "not_acquired": n,
     "slowest_waits": [s, ...]}} (the patched module's lockrt.exclusive_lock
     entries, counted and timed by a pass-through wrapper). A call that raises is counted, not fatal: on the
     unlocked path a hook process that crashes mid-update is one more lost
     update, and the run goes on as real hooks would.

CALL names the fixture function under test, called ITERS times:
  turns      increment_turn_count(KEY)                (lib.turns for cline)
  retention  codex track_retention("KEY.i", max_sessions=10**6): one new session each call
  retained   claude-code mark_retained("KEY.i", i):   one new session each call
  tools      omo record_tool_use(KEY, TOOLS[i % 3])
"""
import json
import sys
import time

TOOLS = ("read", "edit", "bash")


def count_lock_entries(lockrt, locks):
    """Count, without changing them, the patched module's lock entries and the
    ones that ended without the lock (the fix then proceeds unlocked, by design,
    so a timeout would show up as loss; this says why)."""
    real = lockrt.exclusive_lock
    waits = []
    locks["waits"] = waits

    class Counted(object):
        def __init__(self, inner):
            self.inner = inner

        def __enter__(self):
            start = time.monotonic()
            acquired = self.inner.__enter__()
            waited = time.monotonic() - start
            locks["entered"] += 1
            locks["not_acquired"] += 0 if acquired else 1
            waits.append(waited)
            return acquired

        def __exit__(self, *exc):
            return self.inner.__exit__(*exc)

    lockrt.exclusive_lock = lambda *args, **kwargs: Counted(real(*args, **kwargs))


def main():
    integration, call, key, iters = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sys.platform = "win32"  # before anything of the integration is imported
    sys.path.insert(0, integration)
    import lib.state as state

    if call == "turns":
        if hasattr(state, "increment_turn_count"):
            fn = state.increment_turn_count
        else:  # shape D (cline) keeps its counter in lib/turns.py
            import lib.turns

            fn = lib.turns.increment_turn_count

        def one(i):
            return fn(key)
    elif call == "retention":
        def one(i):
            return state.track_retention("%s.%d" % (key, i), max_sessions=10 ** 6)
    elif call == "retained":
        def one(i):
            return state.mark_retained("%s.%d" % (key, i), i)
    elif call == "tools":
        def one(i):
            return state.record_tool_use(key, TOOLS[i % len(TOOLS)])
    else:
        raise SystemExit("worker: unknown call %r" % call)

    lockrt = sys.modules.get("lib.lockrt")
    locks = {"entered": 0, "not_acquired": 0}
    if lockrt is not None:
        count_lock_entries(lockrt, locks)
    facts = {
        "ready": key,
        "fcntl": repr(state.fcntl) if hasattr(state, "fcntl") else "<absent>",
        "state_uses_lockrt": getattr(state, "lockrt", None) is lockrt and lockrt is not None,
        "lockrt_file": getattr(lockrt, "__file__", None),
        "backend": getattr(lockrt, "BACKEND", None),
        "library": getattr(lockrt, "LIBRARY", None),
        "load_error": getattr(lockrt, "LOAD_ERROR", None),
    }
    sys.stdout.write(json.dumps(facts) + "\n")
    sys.stdout.flush()
    if sys.stdin.buffer.read(1) != b"g":
        raise SystemExit("worker %s: no go" % key)

    returns, errors, first = [], 0, []
    for i in range(1, iters + 1):
        try:
            returns.append(one(i))
        except Exception as exc:  # the unlocked path's torn files and vanished temps
            errors += 1
            if len(first) < 3:
                first.append("%s: %s" % (type(exc).__name__, exc))
    waits = sorted(locks.pop("waits", []))
    # Reported, never asserted: how long the slowest acquisitions took.
    locks_seen = dict(locks, slowest_waits=[round(w, 3) for w in waits[-3:]])
    sys.stdout.write(json.dumps({"returns": returns, "errors": errors, "first_errors": first,
                                 "locks": locks_seen}) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
