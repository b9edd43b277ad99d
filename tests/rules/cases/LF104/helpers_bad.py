from .store import load_json, save_json, read_state, write_state


def add_tag(cfg_path, tag):
    data = load_json(cfg_path)
    data.setdefault("tags", []).append(tag)
    save_json(cfg_path, data)


class Sessions:
    def touch(self, sid, now):
        sessions = read_state(self.name, {})
        sessions[sid] = now
        write_state(self.name, sessions)
