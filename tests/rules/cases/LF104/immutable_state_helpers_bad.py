"""Watermarks kept in a shared JSON file through load/save helpers: the
loader returns an immutable record (`State.from_dict(data)`), the saver
writes its serialised form (`state.to_dict()`) through a temp and
os.replace. advance() reads it (line 52), makes an updated copy
(`with_weekly`/`with_monthly`) and saves that with no lock held: two hook
processes advancing different scopes lose one of the two updates."""
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path


@dataclass(frozen=True)
class State:
    weekly: str = ""
    monthly: str = ""

    @classmethod
    def from_dict(cls, data):
        return cls(data.get("weekly", ""), data.get("monthly", ""))

    def to_dict(self):
        return {"weekly": self.weekly, "monthly": self.monthly}

    def with_weekly(self, stamp):
        return replace(self, weekly=stamp)

    def with_monthly(self, stamp):
        return replace(self, monthly=stamp)


def state_path(root):
    return Path(root) / "meta" / "state.json"


def load_state(root):
    path = state_path(root)
    if not path.exists():
        return State()
    return State.from_dict(json.loads(path.read_text(encoding="utf-8")))


def save_state(root, state):
    path = state_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("%s.%d.tmp" % (path.name, os.getpid()))
    tmp.write_text(json.dumps(state.to_dict()), encoding="utf-8")
    os.replace(tmp, path)


def advance(root, scope, stamp):
    previous = load_state(root)
    updated = previous.with_weekly(stamp) if scope == "weekly" else previous.with_monthly(stamp)
    save_state(root, updated)
    return updated
