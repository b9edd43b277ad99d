"""Each spelling of a JSON read-modify-write that real code uses, unlocked."""
import json as _json
import os
import tempfile
from json import dump, load


def add_member(group_file, member):
    members = _json.load(open(group_file))
    members.append(member)
    _json.dump(members, open(group_file, "w"))


def record_hit(stats_path, url):
    fh = open(stats_path)
    stats = _json.loads(fh.read())
    fh.close()
    stats[url] = stats.get(url, 0) + 1
    with open(stats_path, "w") as out:
        out.write(_json.dumps(stats))


def register(registry, name, port):
    with open(registry) as src:
        entries = load(src)
    entries[name] = {"port": port}
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(registry), delete=False) as out:
        dump(entries, out)
    os.replace(out.name, registry)


class Queue:
    def __init__(self, path):
        self.path = path

    def push(self, job):
        jobs = _json.loads(self.path.read_text(encoding="utf-8"))
        pending = jobs["pending"]
        pending.append(job)
        self.path.write_text(_json.dumps(jobs), encoding="utf-8")
