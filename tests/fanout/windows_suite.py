"""Run an integration's own pytest suite with the Windows path forced.

    windows_suite.py FACTS_JSON PYTEST_ARGS...

``sys.platform`` becomes "win32" once pytest itself is set up (pytest's own
start-up takes Windows-only branches under that value) and before the suite's
modules are collected, so ``lib.state`` is imported as on Windows. At the end,
what the imported ``lib.state`` looked like is written to FACTS_JSON, so the
caller can tell the Windows branch really ran.
"""
import json
import sys

import pytest


class ForceWindows(object):
    def __init__(self, facts_path):
        self.facts_path = facts_path

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        sys.platform = "win32"

    def pytest_sessionfinish(self, session, exitstatus):
        state = sys.modules.get("lib.state")
        facts = {
            "platform": sys.platform,
            "imported": state is not None,
            "fcntl": repr(state.fcntl) if hasattr(state, "fcntl") else "<absent>",
            "uses_lockrt": state is not None and getattr(state, "lockrt", None) is sys.modules.get("lib.lockrt")
            and "lib.lockrt" in sys.modules,
        }
        with open(self.facts_path, "w") as fh:
            json.dump(facts, fh)


if __name__ == "__main__":
    sys.exit(pytest.main(sys.argv[2:], plugins=[ForceWindows(sys.argv[1])]))
