import fcntl

from .store import load_json, save_json, read_state, write_state


def add_tag(cfg_path, tag):
    with open(cfg_path + ".lock", "a") as lk:
        fcntl.flock(lk.fileno(), fcntl.LOCK_EX)
        data = load_json(cfg_path)
        data.setdefault("tags", []).append(tag)
        save_json(cfg_path, data)


def snapshot(name):
    state = read_state(name, {})
    write_state(name + ".bak", state)


def reset(name):
    state = read_state(name, {})
    write_state(name, {"version": state.get("version", 1)})
