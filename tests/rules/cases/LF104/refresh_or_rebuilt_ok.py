"""Not lost updates: what is written does not carry what was read."""
import json
import time


def latest_release(cache_file, fetch):
    # A version-check cache refreshed whole: every run stores the same two keys
    # with values it computed itself, so any interleaving equals some serial order.
    state = {}
    try:
        state = json.loads(cache_file.read_text())
    except OSError:
        pass
    if state.get("checked") and time.time() - state["checked"] < 86400:
        return state["version"]
    version = fetch()
    state.update({"version": version, "checked": time.time()})
    cache_file.write_text(json.dumps(state))
    return version


def stamp(path):
    with open(path) as fh:
        meta = json.load(fh)
    meta["format"] = 2
    with open(path, "w") as fh:
        json.dump(meta, fh)


def rebuild(path, entries):
    with open(path) as fh:
        doc = json.load(fh)
    if doc.get("frozen"):
        return
    doc = {"entries": sorted(entries)}
    with open(path, "w") as fh:
        json.dump(doc, fh)


def normalise(path):
    # read and written back unchanged but re-indented
    data = json.loads(path.read_text())
    path.write_text(json.dumps(data, indent=2))
