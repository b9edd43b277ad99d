"""Run many mini-integrations' own pytest suites from one interpreter.

    suites.py JOBS RESULT_JSON [PYTEST_ARG...] -- CASE_DIR...

pytest is imported once; each case runs in a forked child (its own `lib`
package, conftest and sys.modules, as a separate pytest process would), at most
JOBS at a time. RESULT_JSON gets {case_dir: {"rc": exit code, "tail": last
lines of output}}. The suite of a case is whatever its pytest.ini collects
(the fixture integration's tests/ plus the probe test the generator adds).
"""
import json
import os
import sys
import tempfile

import pytest  # noqa: F401  (imported before forking: the children share it)


def run_child(case, args, out_path):
    try:
        fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        os.chdir(case)
        sys.path.insert(0, case)
        rc = pytest.main(["-q", "-p", "no:cacheprovider", "-x", "--basetemp", os.path.join(case, ".tmp-pytest")]
                         + args)
    except BaseException as exc:  # a broken case must not take the batch down
        sys.stderr.write("runner: %r\n" % (exc,))
        rc = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(rc))


def main():
    jobs = int(sys.argv[1])
    result_path = sys.argv[2]
    rest = sys.argv[3:]
    sep = rest.index("--")
    args, cases = rest[:sep], rest[sep + 1:]
    logs = tempfile.mkdtemp(prefix="mutation-suites-")
    running, results, todo, started = {}, {}, list(cases), 0
    while todo or running:
        while todo and len(running) < jobs:
            case = todo.pop(0)
            started += 1
            log = os.path.join(logs, "%d.log" % started)
            pid = os.fork()
            if pid == 0:
                run_child(case, args, log)
            running[pid] = (case, log)
        pid, status = os.wait()
        if pid not in running:
            continue
        case, log = running.pop(pid)
        rc = os.waitstatus_to_exitcode(status)
        with open(log, errors="replace") as f:
            tail = f.read().splitlines()[-25:]
        os.unlink(log)
        results[case] = {"rc": rc, "tail": tail}
    os.rmdir(logs)
    with open(result_path, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
