"""Generators for hostile nesting: one recognised site of every rule, each with a
100k-deep construct placed where the rule's check and fix walk.

Every case is a (name, text) pair; the text parses (tree-sitter's own parser keeps
its stack on the heap), and lockfix must neither crash nor take long on it."""

DEPTH = 100_000

# Deep expressions, Python spelling. Each is a single expression.
PY_DEEP = {
    "parens": lambda n: "(" * n + "1" + ")" * n,
    "unary_minus": lambda n: "-" * n + "1",
    "not_chain": lambda n: "not " * n + "x",
    "plus_chain": lambda n: "+".join(["1"] * n),
    "plus_chain_40k": lambda n: "+".join(["1"] * 40_000),
    "method_chain": lambda n: "x" + ".f()" * n,
    "nested_lists": lambda n: "[" * n + "]" * n,
    "nested_dicts": lambda n: "{'a': " * n + "1" + "}" * n,
    "nested_calls": lambda n: "f(" * n + ")" * n,
    "subscripts": lambda n: "x" + "[0]" * n,
}

# One site per rule, in the spellings the checks recognise and (where a fix exists)
# fix. {DEEP} marks where the deep expression goes: inside the function the check
# walks, between the statements the fix relates.
PY_SITES = {
    "LF101": '''import os, sys
if sys.platform != "win32":
    import fcntl
else:
    fcntl = None


def bump(path):
    if fcntl is not None:
        fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            x = {DEEP}
            d = read(path)
            write(path, d + 1)
            return d
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
    x = {DEEP}
    d = read(path)
    write(path, d + 1)
    return d
''',
    "LF104": '''def increment_turn_count(session_id):
    counts = read_state("turns", {})
    x = {DEEP}
    counts[session_id] = counts.get(session_id, 0) + 1
    write_state("turns", counts)
''',
    "LF201": '''import os


def state_file(state_dir, name):
    path = os.path.join(state_dir, name)
    x = {DEEP}
    if not os.path.realpath(path).startswith(os.path.realpath(state_dir) + os.sep):
        raise ValueError(name)
    return path


def publish(tmp, state_dir, name):
    os.replace(tmp, state_file(state_dir, name))
''',
    "LF301": '''import os, shutil, time


class DirLock:
    def acquire(self):
        try:
            os.mkdir(self.lock_dir)
        except FileExistsError:
            x = {DEEP}
            if time.time() - os.path.getmtime(self.lock_dir) > 60:
                shutil.rmtree(self.lock_dir, ignore_errors=True)
''',
    "LF302": '''import os, time
STALE = 30
LOCK = "/tmp/job.lock"


def is_stale():
    x = {DEEP}
    return time.time() - os.path.getmtime(LOCK) > STALE


def acquire():
    try:
        return os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return None
''',
    "LF303": '''import os


def owner_alive(pid):
    try:
        x = {DEEP}
        os.kill(pid, 0)
    except OSError:
        return False
    return True
''',
    "LF401": '''import json, os


def write_state(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        x = {DEEP}
        json.dump([data, {DEEP}], f)
    y = {DEEP}
    os.replace(tmp, path)
''',
}

# The rule each site is reported under (the LF101 site also has the unlocked
# read-modify-write that LF104 reports; only the named rule is asserted).
TS_DEEP = {
    "parens": lambda n: "(" * n + "1" + ")" * n,
    "unary_minus": lambda n: "- " * n + "1",
    "not_chain": lambda n: "!" * n + "x",
    "plus_chain": lambda n: "+".join(["1"] * n),
    "method_chain": lambda n: "x" + ".f()" * n,
    "nested_arrays": lambda n: "[" * n + "]" * n,
    "nested_objects": lambda n: "{a: " * n + "1" + "}" * n,
    "nested_calls": lambda n: "f(" * n + ")" * n,
}

TS_SITE = '''import * as fs from "fs";

export function bump(path: string): number {
  const x = {DEEP};
  const fd = fs.openSync(path + ".lock", "wx");
  const d = JSON.parse(fs.readFileSync(path, "utf8"));
  fs.writeFileSync(path, JSON.stringify(d + 1));
  fs.unlinkSync(path + ".lock");
  return d;
}
'''


def py_cases(depth=DEPTH):
    for rule, site in PY_SITES.items():
        for kind, make in PY_DEEP.items():
            yield f"{rule}_{kind}.py", rule, site.replace("{DEEP}", make(depth))
    # A 200k-deep expression in both copies of an LF101 site (the fix compares the
    # locked body with the unlocked copy node by node).
    deep = PY_DEEP["parens"](2 * depth)
    yield "LF101_both_copies_200k.py", "LF101", PY_SITES["LF101"].replace("{DEEP}", deep)


def ts_cases(depth=DEPTH):
    for kind, make in TS_DEEP.items():
        text = TS_SITE.replace("{DEEP}", make(depth))
        yield f"ts_{kind}.ts", None, text
        yield f"tsx_{kind}.tsx", None, text.replace("(path: string): number", "(path: string)")
