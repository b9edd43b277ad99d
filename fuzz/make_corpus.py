#!/usr/bin/env python3
"""Build the fuzz targets' seed corpora into the build tree (never committed).

    make_corpus.py SOURCE_DIR OUT_DIR

OUT_DIR/<target>/ gets one file per distinct seed (named by its SHA-1), from:
  python, fix  every .py under fixtures/ and tests/, the code of every rule's
               inline test case, and the generated structure-aware seeds below
  ts, fix_ts   the project's own .js/.ts files (fixtures, runtime/node, bench,
               tests: the TS/JS rule cases among them) and the TS snippets below
  rule         rules/*.json, the test rule documents under tests/, fuzz/rules/
  config       a few .lockfix.json documents in every shape the loader knows
  record       the bytes of every record in runtime/tests/vectors/records.json
fuzz/seeds/<target>/ (small hand-picked seeds) is passed to the fuzzer beside
this directory, not copied into it.
"""
import hashlib
import json
import os
import sys

SKIP_DIRS = {".git", "node_modules", "__pycache__"}


def walk(root, exts):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(filenames):
            if name.endswith(exts):
                yield os.path.join(dirpath, name)


def text_of(v):
    if isinstance(v, dict):
        v = v.get("code", "")
    if isinstance(v, list):
        return "".join(line + "\n" for line in v)
    return v


def lf101_site(body_extra=""):
    """A fixable LF101 site, our own words: a platform-conditional fcntl import
    with a None fallback, a lock-file descriptor flocked in a try whose
    `except OSError: pass` falls through to an unlocked copy of the body."""
    return (
        "import json\n"
        "import os\n"
        "import sys\n"
        "\n"
        "if sys.platform != 'win32':\n"
        "    import fcntl\n"
        "else:\n"
        "    fcntl = None\n"
        "\n"
        "\n"
        "def load(p):\n"
        "    with open(p) as fh:\n"
        "        return json.load(fh)\n"
        "\n"
        "\n"
        "def store(p, v):\n"
        "    with open(p, 'w') as fh:\n"
        "        json.dump(v, fh)\n"
        "\n"
        "\n"
        "def bump(path):\n"
        "    if fcntl is not None:\n"
        "        try:\n"
        "            fd = os.open(path + '.lock', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "            fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "            try:\n"
        "                n = load(path) + 1\n"
        "                store(path, n)\n"
        "                return n\n"
        "            finally:\n"
        "                fcntl.flock(fd, fcntl.LOCK_UN)\n"
        "                os.close(fd)\n"
        "        except OSError:\n"
        "            pass\n"
        "    n = load(path) + 1\n"
        "    store(path, n)\n"
        "    return n\n"
        + body_extra
    )


def lf401_site(extra=""):
    return (
        "import os\n"
        "\n"
        "\n"
        "def save(path, data):\n"
        "    tmp = path + '.tmp'\n"
        "    with open(tmp, 'w') as fh:\n"
        "        fh.write(data)\n" + extra +
        "    os.replace(tmp, path)\n"
    )


def python_generated():
    """Structure-aware seeds: random mutation alone never builds a fixable site
    next to deep nesting (issue 11), so these start there. Depths stay modest so
    a smoke run stays fast; the campaign's mutations grow them."""
    out = {}
    for depth in (50, 500, 3000):
        out[f"lf101_unary_{depth}"] = lf101_site() + "X = " + "-" * depth + "1\n"
        out[f"lf101_plus_{depth}"] = lf101_site() + "Y = " + "+".join(["1"] * depth) + "\n"
        out[f"lf101_parens_{depth}"] = lf101_site() + "Z = " + "(" * depth + "1" + ")" * depth + "\n"
        out[f"lf101_lists_{depth}"] = lf101_site() + "W = " + "[" * depth + "]" * depth + "\n"
        ind = "".join("    " * i + "if x:\n" for i in range(1, min(depth, 90)))
        out[f"lf101_ifs_{depth}"] = lf101_site() + ind + "    " * min(depth, 90) + "pass\n"
        out[f"lf401_nested_{depth}"] = lf401_site("        v = " + "(" * depth + "1" + ")" * depth + "\n")
    out["lf101_and_lf401"] = lf101_site() + "\n\n" + lf401_site().split("\n", 1)[1]
    out["lf101_crlf"] = lf101_site().replace("\n", "\r\n")
    out["lf101_cr"] = lf101_site().replace("\n", "\r")
    out["lf101_tabs"] = lf101_site().replace("    ", "\t")
    out["lf101_suppressed"] = lf101_site().replace(
        "fcntl.flock(fd, fcntl.LOCK_EX)", "fcntl.flock(fd, fcntl.LOCK_EX)  # lockfix: ignore[LF101]")
    return out


TS_SNIPPETS = {
    "renames": "import * as fs from 'fs';\nexport function save(p: string, d: string): void {\n"
               "  const tmp = `${p}.tmp`;\n  fs.writeFileSync(tmp, d);\n  fs.renameSync(tmp, p);\n}\n",
    "kill_probe": "function alive(pid: number): boolean {\n  try { process.kill(pid, 0); return true; } catch {}\n"
                  "  return false;\n}\n",
    "suppressed": "fs.unlinkSync('x.lock'); // lockfix: ignore[LF991]\n",
    "jsx": "const A = (p: {n: string}) => <div onClick={() => fs.unlinkSync(p.n + '.lock')}>{lock(p)}</div>;\n",
    "generics": "class Q<T extends {id: number}> { private m = new Map<number, T>();\n"
                "  async take(): Promise<T | undefined> { for await (const x of this.src()) return x; } }\n",
    "decorators": "@Injectable()\nexport class S { constructor(@Inject(T) private t: T) {} }\n",
    "regex_template": "const r = /[/]+\\.tmp$/g; const s = `a${`b${c}`}d`; x = a < b > c;\n",
    "deep": "const v = " + "(" * 400 + "1" + ")" * 400 + ";\nconst w = " + "[" * 400 + "]" * 400 + ";\n",
}

CONFIGS = {
    "full": {"select": ["LF1", "LF201"], "ignore": ["LF104"], "exclude": ["vendor/**", "*.min.js", "a/*/b?.py"],
             "severity": {"LF302": "error", "unlocked-fallback": "off"}, "fail_on": "error"},
    "empty": {},
    "all": {"select": ["ALL"], "fail_on": "info"},
    "globs": {"exclude": ["**/x/**", "[ab]*", "!(x)", "src/**/*.py", "\\*"]},
    "unknown": {"selct": []},
}


def main():
    src, out = sys.argv[1], sys.argv[2]
    corpora = {t: {} for t in ("python", "fix", "ts", "fix_ts", "rule", "config", "record")}

    def add(target, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        corpora[target][hashlib.sha1(data).hexdigest()] = data

    for sub in ("fixtures", "tests"):
        for p in walk(os.path.join(src, sub), (".py", ".py.in")):  # .py.in: the fix cases
            with open(p, "rb") as f:
                data = f.read()
            if len(data) <= 256 * 1024:
                add("python", data)
                add("fix", data)
    rule_files = sorted(walk(os.path.join(src, "rules"), (".json",)))
    rule_files += [p for p in walk(os.path.join(src, "tests"), (".json",)) if os.sep + "rules" + os.sep in p]
    rule_files += sorted(walk(os.path.join(src, "fuzz", "rules"), (".json",)))
    for p in rule_files:
        with open(p, "rb") as f:
            data = f.read()
        add("rule", data)
        try:
            doc = json.loads(data)
        except ValueError:
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("tests"), dict):
            continue
        for kind in ("valid", "invalid"):
            for case in doc["tests"].get(kind, []):
                code = text_of(case)
                if isinstance(code, str):
                    add("python", code)
                    add("fix", code)
    for name, text in python_generated().items():
        add("python", text)
        add("fix", text)
    for sub in ("fixtures", "runtime", "bench", "tests", "scripts"):
        for p in walk(os.path.join(src, sub), (".js", ".ts", ".mts", ".cts", ".mjs", ".cjs", ".tsx", ".jsx", ".js.in",
                                               ".ts.in", ".mts.in", ".cts.in", ".mjs.in", ".cjs.in")):
            with open(p, "rb") as f:
                data = f.read()
            if len(data) <= 256 * 1024:
                add("ts", data)
                add("fix_ts", data)
    for text in TS_SNIPPETS.values():
        add("ts", text)
        add("fix_ts", text)
    for doc in CONFIGS.values():
        add("config", json.dumps(doc, indent=2) + "\n")
    with open(os.path.join(src, "runtime", "tests", "vectors", "records.json"), encoding="utf-8") as f:
        vectors = json.load(f)
    for rec in vectors["records"]:
        add("record", rec["bytes"].encode("latin-1"))

    for target, seeds in corpora.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        have = set(os.listdir(d))
        for h, data in seeds.items():
            if h not in have:
                with open(os.path.join(d, h), "wb") as f:
                    f.write(data)
        print(f"{target}: {len(seeds)} seeds in {d}")


if __name__ == "__main__":
    main()
