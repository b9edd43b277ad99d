# The reader and the writer each lock around their own half and give the lock
# back before they return: between the read and the write nothing is held.
import fcntl
import json

from filelock import FileLock

PRD = "/srv/app/prd.json"
MAP = "/srv/app/map.json"
MAP_LOCK = "/srv/app/map.lock"


class Store:
    def read_prd(self):
        with FileLock(PRD + ".lock"):
            with open(PRD) as f:
                return json.load(f)

    def write_prd(self, prd):
        with FileLock(PRD + ".lock"):
            with open(PRD, "w") as f:
                json.dump(prd, f)

    def set_status(self, story_id, status):
        prd = self.read_prd()
        for story in prd["stories"]:
            if story["id"] == story_id:
                story["status"] = status
        self.write_prd(prd)


def read_map():
    with open(MAP_LOCK, "w") as lock_f:
        fcntl.flock(lock_f, fcntl.LOCK_SH)
        with open(MAP) as f:
            return json.load(f)


def write_map(data):
    with open(MAP_LOCK, "w") as lock_f:
        fcntl.flock(lock_f, fcntl.LOCK_EX)
        with open(MAP, "w") as f:
            json.dump(data, f)


def drop_stale(live):
    data = read_map()
    for k in list(data):
        if k not in live:
            del data[k]
    write_map(data)
