"""A job store guarded by a threading lock: it keeps the server's own
threads apart, but another server process updating the same job file reads
and writes it at the same time, and one update is lost."""
import json
import threading
from pathlib import Path


class JobStore:
    def __init__(self, root: Path):
        self.root = root
        self._lock = threading.RLock()

    def _path(self, job_id: str) -> Path:
        return self.root / f"{job_id}.job.json"

    def read(self, job_id: str) -> dict:
        return json.loads(self._path(job_id).read_text())

    def _write(self, record: dict) -> None:
        self._path(record["id"]).write_text(json.dumps(record))

    def add_child(self, job_id: str, pid: int) -> None:
        with self._lock:
            record = self.read(job_id)
            record.setdefault("children", []).append(pid)
            self._write(record)
