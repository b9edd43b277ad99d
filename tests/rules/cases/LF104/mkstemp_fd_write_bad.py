"""A hook's usage counter, read, bumped and saved through a writer that
opens the mkstemp descriptor with open(fd, "w") and moves the temp into
place: atomic, but nothing serialises two hooks' read-modify-writes."""
import json
import os
import tempfile
from pathlib import Path

STATS = Path.home() / ".claude" / "router-stats.json"


class Stats:
    def __init__(self, path=STATS):
        self._path = path

    def read(self):
        if not self._path.exists():
            return {"total": 0}
        return json.loads(self._path.read_text(encoding="utf-8"))

    def record(self):
        data = self.read()
        data["total"] += 1
        self._write(data)

    def _write(self, data):
        fd, tmp = tempfile.mkstemp(dir=self._path.parent, suffix=".tmp")
        with open(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        Path(tmp).replace(self._path)
