"""Tests in a module whose name pytest's default pattern does not give away
(collected through python_files or a runner's own list): it imports pytest
and defines tests at top level, so it is test code, helpers included."""
import json
from pathlib import Path

import pytest

REGISTRY = Path("state") / "registry.json"


def register(name):
    data = json.loads(REGISTRY.read_text())
    data[name] = 1
    REGISTRY.write_text(json.dumps(data))


@pytest.fixture
def empty_registry():
    REGISTRY.write_text("{}")


def test_register(empty_registry):
    register("a")
    assert json.loads(REGISTRY.read_text()) == {"a": 1}
