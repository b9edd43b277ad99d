"""Look-alike of a lock held across methods that is not one: the mutex is
taken and released inside one method, so another method's update of the
roster runs with nothing held."""
import json
import threading


class Registry:
    def __init__(self, path):
        self.path = path
        self._mutex = threading.Lock()

    def locked_add(self, name):
        self._mutex.acquire()
        try:
            self._add(name)
        finally:
            self._mutex.release()

    def _add(self, name):
        with open(self.path) as f:
            names = json.load(f)
        names[name] = True
        with open(self.path, "w") as f:
            json.dump(names, f)

    def add_unlocked(self, name):
        with open(self.path) as f:
            names = json.load(f)
        names[name] = True
        with open(self.path, "w") as f:
            json.dump(names, f)
