"""Load/save helpers of the module itself, called in one function."""
import json
from pathlib import Path

INDEX_PATH = Path.home() / ".cache" / "tool" / "index.json"


def load_index():
    try:
        return json.loads(INDEX_PATH.read_text())
    except FileNotFoundError:
        return {}


def save_index(index):
    INDEX_PATH.parent.mkdir(parents=True, exist_ok=True)
    INDEX_PATH.write_text(json.dumps(index, indent=2))


def remember(name, digest):
    index = load_index()
    index[name] = digest
    save_index(index)


def _read_doc(where):
    with open(where, encoding="utf-8") as fh:
        return json.load(fh)


def _write_doc(where, doc):
    with open(where, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)


def bump_counter(counter_file):
    doc = _read_doc(counter_file)
    doc["runs"] = doc.get("runs", 0) + 1
    _write_doc(counter_file, doc)


class Ledger:
    def __init__(self, root):
        self.file = Path(root) / "ledger.json"

    def _load(self):
        return json.loads(self.file.read_text())

    def _store(self, entries):
        self.file.write_text(json.dumps(entries))

    def credit(self, account, amount):
        entries = self._load()
        entries[account] = entries.get(account, 0) + amount
        self._store(entries)
