"""pytest plugin: write every skipped test case of this repository's suites to
the file named by LOCKFIX_SKIP_LOG, one `SKIPPED [1] nodeid: reason` line each
(scripts/count-skips reads it: ctest shows a passing test's output to nobody,
so a skip inside a pytest run that ctest drives would otherwise go unseen).

scripts/test.sh loads it into every pytest the tests start (PYTEST_PLUGINS,
PYTHONPATH, LOCKFIX_SKIP_ROOT: the checkout). Not logged: suites outside its tests/ and
runtime/ (a fixture integration's own suite, run on a copy), and, when the
run is root's, the cases marked `unprivileged`: root bypasses the permission
checks they need, and scripts/test-unprivileged.sh runs them again as uid
65534, where a skip is counted from its own output."""
import fcntl
import os

_LOG = os.environ.get("LOCKFIX_SKIP_LOG")
_SRC = os.environ.get("LOCKFIX_SKIP_ROOT")
_ours = set()


def _append(path, line):
    try:
        with open(path, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.write(line)
    except OSError as e:  # a run as another user (setpriv) cannot write root's log: say so where it runs
        print("lockfix_skiplog: %s not logged (%s)" % (line.strip(), e))


def pytest_sessionstart(session):
    # one line per pytest run, so scripts/test.sh can tell the plugin was loaded at all
    if _LOG:
        _append(_LOG + ".runs", "%d\n" % os.getpid())


def pytest_collection_modifyitems(items):
    if not _LOG or not _SRC:
        return
    roots = tuple(os.path.join(os.path.abspath(_SRC), d) + os.sep for d in ("tests", "runtime"))
    for item in items:
        path = os.path.abspath(str(getattr(item, "path", None) or item.fspath))
        if not path.startswith(roots):
            continue
        if item.get_closest_marker("unprivileged") is not None and os.geteuid() == 0:
            continue
        _ours.add(item.nodeid)


def pytest_runtest_logreport(report):
    if not report.skipped or report.nodeid not in _ours or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    line = "SKIPPED [1] %s: %s\n" % (report.nodeid, str(reason).replace("\n", " "))
    _append(_LOG, line)  # several pytest processes append at once (ctest -j): one locked write each
