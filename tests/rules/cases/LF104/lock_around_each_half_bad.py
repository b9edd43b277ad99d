"""The reader and the writer each take the file's lock (another module's
file_lock, which opens the file and hands over the handle) and give it back:
add_entry() reads, appends and saves under two separate acquisitions, so a
writer in between is lost. The saver wraps the (trimmed) list in a record
and writes it with another module's atomic_write."""
import json

from utils.file_lock import atomic_write, file_lock

MEMORY_FILE = "/tmp/memory.json"
MAX_ENTRIES = 1000


def load_entries():
    with file_lock(MEMORY_FILE, timeout=10.0) as f:
        content = f.read()
        return json.loads(content)["entries"] if content.strip() else []


def save_entries(entries):
    if len(entries) > MAX_ENTRIES:
        entries = entries[-MAX_ENTRIES:]
    record = {"version": 2, "entries": entries}
    atomic_write(MEMORY_FILE, json.dumps(record, indent=2))


def add_entry(entry):
    entries = load_entries()
    entries.append(entry)
    save_entries(entries)
