"""A lock taken in one method and released in another (borg's Lock and its
roster): the roster is read, changed and written back only between the two,
from methods of the class that holds the lock and from the roster's own
methods those call. Also a nested function of such a method."""
import json
import os
import threading


class Roster:
    def __init__(self, path, ident):
        self.path = path
        self.id = ident

    def load(self):
        try:
            with open(self.path) as f:
                return json.load(f)
        except FileNotFoundError:
            return {}

    def save(self, data):
        with open(self.path, "w") as f:
            json.dump(data, f)

    def modify(self, key, add):
        roster = self.load()
        members = set(roster.get(key, []))
        if add:
            members.add(self.id)
        else:
            members.discard(self.id)
        roster[key] = sorted(members)
        self.save(roster)

    def migrate(self, key, new_id):
        self.modify(key, False)
        self.id = new_id
        self.modify(key, True)


class SharedLock:
    def __init__(self, path, ident):
        self._mutex = threading.Lock()
        self._roster = Roster(path + ".roster", ident)

    def acquire(self):
        self._mutex.acquire()
        self._roster.modify("holders", True)
        return self

    def release(self):
        self._roster.modify("holders", False)
        self._mutex.release()

    def migrate(self, new_id):
        # Only called on a held lock: this class holds its mutex from acquire() to release().
        self._roster.migrate("holders", new_id)

    def bump(self, path):
        def update():
            with open(path) as f:
                counts = json.load(f)
            counts["n"] = counts.get("n", 0) + 1
            with open(path, "w") as f:
                json.dump(counts, f)

        update()
        os.sync()
