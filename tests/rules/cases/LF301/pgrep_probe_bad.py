import os
import subprocess
import sys


class Lockfile:
    def __init__(self, path):
        self.path = path

    def create(self):
        with open(self.path, "w") as f:
            print(sys.argv[0], os.getpid(), file=f)

    def remove(self):
        if os.path.exists(self.path):
            os.remove(self.path)

    def is_valid(self):
        if not os.path.exists(self.path):
            return False
        with open(self.path) as f:
            name, pid = f.read().split()
        running = subprocess.getoutput("pgrep {0}".format(name)).split()
        if pid in running:
            return True
        self.remove()
        return False
