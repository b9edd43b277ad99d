"""A pytest plugin is product code: it imports pytest but defines hooks, not
tests, and concurrent workers (pytest-xdist) share its state file."""
import json
from pathlib import Path

import pytest

STATE = Path(".pytest-durations.json")


def pytest_runtest_logreport(report):
    durations = json.loads(STATE.read_text())
    durations[report.nodeid] = report.duration
    STATE.write_text(json.dumps(durations))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    session.config.durations_file = str(STATE)
