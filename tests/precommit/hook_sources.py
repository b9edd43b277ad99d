"""What the pre-commit hook tests commit: a module the hook must reject (one
LF401 at 5:11) and its safe version, the same pair in TS/JS (one LF401 at 4:15,
ES module or CommonJS as the extension wants); and git in a scratch repository."""
import subprocess

UNSAFE = '''import os


def write_state(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
'''

SAFE = '''import os
import tempfile


def write_state(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
'''

# TS/JS: the same shared temp name, as an ES module and as CommonJS.
UNSAFE_ESM = '''import { renameSync, writeFileSync } from "node:fs";

export function writeState(file, text) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
'''

UNSAFE_CJS = '''const fs = require("fs");

function writeState(file, text) {
  const tmp = file + ".tmp";
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}
module.exports = { writeState };
'''

SAFE_ESM = '''import { renameSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

export function writeState(file, text) {
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(tmp, text, { flag: "wx" });
  renameSync(tmp, file);
}
'''

# extension -> (unsafe, safe) source for that module style
TS_SOURCES = {
    "ts": (UNSAFE_ESM, SAFE_ESM),
    "mts": (UNSAFE_ESM, SAFE_ESM),
    "tsx": (UNSAFE_ESM, SAFE_ESM),
    "mjs": (UNSAFE_ESM, SAFE_ESM),
    "js": (UNSAFE_CJS, SAFE_ESM),
    "cjs": (UNSAFE_CJS, SAFE_ESM.replace("import { renameSync, writeFileSync } from \"node:fs\";", "const { renameSync, writeFileSync } = require(\"node:fs\");").replace("import { randomUUID } from \"node:crypto\";", "const { randomUUID } = require(\"node:crypto\");").replace("export function", "function")),
    "cts": (UNSAFE_CJS, SAFE_ESM),
}


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)
