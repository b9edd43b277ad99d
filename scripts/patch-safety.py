#!/usr/bin/env python3
"""Patch safety at scale: does any patch lockfix writes break what held before?

    scripts/patch-safety.py ROOT --work DIR [--lockfix BIN] [--typescript NODE_MODULES]
                            [--unsafe-fixes] [--headers] [--json OUT]

ROOT holds whole repositories (public code: WORK must be outside this tree). Every
file lockfix reports a finding in is copied to WORK/<variant>/, once as it is and,
with --headers, once per module header added to it (issue 20, "module headers as
a mutation dimension"):

  Python: shebang, PEP 263 encoding line, licence comments, a module docstring,
          `from __future__ import annotations`, and all of them together;
  TS/JS:  shebang, a licence block comment, a leading `// @ts-nocheck`,
          a "use strict" directive, and all of them together.

A variant that did not compile before is left out (it proves nothing). Then
`lockfix fix --apply` runs on each variant tree, and every file it changed must:

  1. still compile: Python compile() (not just a parse), so a new import above
     `from __future__` fails; JS `node --check`; TS transpiled with the
     TypeScript package at --typescript (syntax diagnostics fail) then
     `node --check` (TS is skipped, and counted, without --typescript);
  2. keep its module header byte for byte at the top: Python up to the end of
     the shebang, encoding line, docstring and `__future__` imports (and the
     module's __doc__ is unchanged); TS/JS up to the end of the leading
     comments, shebang and directive prologue;
  3. be left alone by a second run (`lockfix fix --diff` prints nothing).

Exit 0 when every patched file passes, 1 when one fails (each failure is
listed), 2 on a usage or tool error. A script, not a test: it needs ROOT.
"""
import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NODE = shutil.which("node") or "node"
PY_EXT = (".py",)
TS_EXT = (".ts", ".mts", ".cts", ".tsx")
JS_EXT = (".js", ".mjs", ".cjs", ".jsx")

TS_TRANSPILE = r'''
const fs = require("fs");
const ts = require(process.argv[1]);
let bad = 0;
for (const file of process.argv.slice(2)) {
  const out = ts.transpileModule(fs.readFileSync(file, "utf8"), {
    fileName: file, reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022,
                       jsx: ts.JsxEmit.React, esModuleInterop: true },
  });
  const d = (out.diagnostics || []).map((x) => ts.flattenDiagnosticMessageText(x.messageText, " "));
  if (d.length) { bad = 1; console.log(file + "\t" + d[0]); continue; }
  fs.writeFileSync(file + ".transpiled.js", out.outputText);
  console.log(file + "\tok");
}
process.exit(0);
'''

PY_SHEBANG = "#!/usr/bin/env python3\n"
PY_CODING = "# -*- coding: utf-8 -*-\n"
PY_LICENCE = "# Copyright (c) 2026 Example Authors\n# SPDX-License-Identifier: MIT\n"
PY_DOC = '"""Module docstring added by patch-safety."""\n'
PY_FUTURE = "from __future__ import annotations\n"
TS_SHEBANG = "#!/usr/bin/env node\n"
TS_LICENCE = "/*\n * Copyright (c) 2026 Example Authors\n * SPDX-License-Identifier: MIT\n */\n"
TS_NOCHECK = "// @ts-nocheck\n"
TS_STRICT = '"use strict";\n'


# ---------------------------------------------------------------- Python headers

def py_module(text):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def py_lead_lines(lines):
    """Number of leading lines that are a shebang or an encoding declaration."""
    n = 0
    if lines and lines[0].startswith("#!"):
        n = 1
    if len(lines) > n and n < 2 and lines[n].startswith("#") and "coding" in lines[n]:
        n += 1
    return n


def py_header_end(text):
    """0-based line index just past the module header: shebang, encoding line,
    docstring, __future__ imports (None if the text does not parse)."""
    mod = py_module(text)
    if mod is None:
        return None
    end = py_lead_lines(text.split("\n"))
    body = list(mod.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        end = max(end, body[0].end_lineno)
        body = body[1:]
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            end = max(end, stmt.end_lineno)
        else:
            break
    return end


def py_insert_at(text, line, add):
    lines = text.split("\n")
    return "\n".join(lines[:line] + add.rstrip("\n").split("\n") + lines[line:])


def py_add(text, what):
    """text with one header element added where it belongs, or None when the
    file already has it (the variant would be the file itself)."""
    lines = text.split("\n")
    lead = py_lead_lines(lines)
    has_shebang = bool(lines) and lines[0].startswith("#!")
    if what == "shebang":
        return None if has_shebang else PY_SHEBANG + text
    if what == "encoding":
        return None if lead > (1 if has_shebang else 0) else py_insert_at(text, lead, PY_CODING)
    if what == "licence":
        return py_insert_at(text, lead, PY_LICENCE)
    mod = py_module(text)
    if mod is None:
        return None
    if what == "docstring":
        if ast.get_docstring(mod, clean=False) is not None:
            return None
        first = mod.body[0].lineno - 1 if mod.body else len(lines)
        # After the leading comment block, before the first statement (and any
        # comment lines right above it, which may belong to it).
        at = lead
        while at < first and (lines[at].startswith("#") or not lines[at].strip()):
            at += 1
        return py_insert_at(text, min(at, first), PY_DOC)
    if what == "future":
        return py_insert_at(text, py_header_end(text), PY_FUTURE)
    raise ValueError(what)


PY_VARIANTS = {
    "shebang": ["shebang"],
    "encoding": ["encoding"],
    "licence": ["licence"],
    "docstring": ["docstring"],
    "future": ["future"],
    "all": ["shebang", "encoding", "licence", "docstring", "future"],
}


# ----------------------------------------------------------------- TS/JS headers

def ts_header_len(text):
    """Length of the leading shebang, comments and directive prologue."""
    i, n = 0, len(text)
    if text.startswith("#!"):
        i = text.find("\n") + 1 or n
    while i < n:
        j = i
        while j < n and text[j] in " \t\r\n":
            j += 1
        if text.startswith("//", j):
            i = text.find("\n", j) + 1 or n
        elif text.startswith("/*", j):
            k = text.find("*/", j + 2)
            if k < 0:
                return i
            i = k + 2
        elif j < n and text[j] in "'\"":
            q = text[j]
            k = text.find(q, j + 1)
            nl = text.find("\n", j + 1)
            if k < 0 or (0 <= nl < k):
                return i
            k += 1
            while k < n and text[k] in " \t":
                k += 1
            if k < n and text[k] == ";":
                k += 1
            elif k < n and text[k] not in "\r\n":
                return i  # a string expression, not a directive
            i = k
        else:
            return i
    return i


def ts_add(text, what):
    has_shebang = text.startswith("#!")
    at = (text.find("\n") + 1) if has_shebang else 0
    if what == "shebang":
        return None if has_shebang else TS_SHEBANG + text
    add = {"licence": TS_LICENCE, "nocheck": TS_NOCHECK, "strict": TS_STRICT}[what]
    if what == "strict":
        at = ts_header_len(text)
        if at and text[at - 1] != "\n":
            add = "\n" + add
    return text[:at] + add + text[at:]


TS_VARIANTS = {
    "shebang": ["shebang"],
    "licence": ["licence"],
    "nocheck": ["nocheck"],
    "strict": ["strict"],
    "all": ["shebang", "licence", "nocheck", "strict"],
}


def make_variant(lang, text, steps):
    for step in steps:
        text = (py_add if lang == "py" else ts_add)(text, step)
        if text is None:
            return None
    return text


# --------------------------------------------------------------------- checking

def lang_of(path):
    if path.endswith(PY_EXT):
        return "py"
    if path.endswith(TS_EXT):
        return "ts"
    if path.endswith(JS_EXT):
        return "js"
    return None


def py_compiles(text, path):
    try:
        compile(text, path, "exec", dont_inherit=True)
        return True, ""
    except (SyntaxError, ValueError) as e:
        return False, "%s: %s" % (type(e).__name__, e)


def js_compile_many(paths):
    """{path: (ok, detail)} by node --check, one process per file (node has no batch mode)."""
    out = {}
    for p in paths:
        probe = p
        proc = subprocess.run([NODE, "--check", probe], capture_output=True, text=True)
        if proc.returncode != 0 and probe.endswith(".js"):
            # An ES module in a package without "type": "module": check it as .mjs.
            probe = p + ".check.mjs"
            shutil.copyfile(p, probe)
            proc = subprocess.run([NODE, "--check", probe], capture_output=True, text=True)
            os.unlink(probe)
        lines = [l for l in proc.stderr.splitlines() if "Error" in l]
        out[p] = (proc.returncode == 0, (lines[0] if lines else proc.stderr.strip()[-200:]))
    return out


def ts_compile_many(paths, typescript):
    if not typescript:
        return {p: (None, "no --typescript") for p in paths}
    out = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start:start + 200]
        proc = subprocess.run([NODE, "-e", TS_TRANSPILE, os.path.join(typescript, "typescript")] + chunk,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit("patch-safety: the TypeScript transpiler failed: " + proc.stderr[-500:])
        for line in proc.stdout.splitlines():
            f, _, detail = line.partition("\t")
            out[f] = (detail == "ok", detail)
        emitted = [p + ".transpiled.js" for p in chunk if out.get(p, (False,))[0]]
        for js, res in js_compile_many(emitted).items():
            src = js[:-len(".transpiled.js")]
            if not res[0]:
                out[src] = (False, "transpiled output: " + res[1])
            os.unlink(js)
    return out


def compile_many(paths, typescript):
    res = {}
    for p in paths:
        if lang_of(p) == "py":
            with open(p, "rb") as f:
                data = f.read()
            res[p] = py_compiles(data, p)
    res.update(js_compile_many([p for p in paths if lang_of(p) == "js"]))
    res.update(ts_compile_many([p for p in paths if lang_of(p) == "ts"], typescript))
    return res


def header_prefix(lang, text):
    if lang == "py":
        end = py_header_end(text)
        if end is None:
            return None
        lines = text.split("\n")
        return "\n".join(lines[:end]) + ("\n" if end else "")
    return text[:ts_header_len(text)]


def py_doc(text):
    mod = py_module(text)
    return None if mod is None else ast.get_docstring(mod, clean=False)


def run_lockfix(args, *extra):
    cmd = [args.lockfix] + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--work", required=True)
    ap.add_argument("--lockfix", default=os.path.join(HERE, "..", "build", "analyzer", "lockfix"))
    ap.add_argument("--typescript", default=os.environ.get("LOCKFIX_TS_NODE_MODULES", ""),
                    help="a node_modules directory holding the typescript package")
    ap.add_argument("--unsafe-fixes", action="store_true")
    ap.add_argument("--headers", action="store_true", help="add the module-header variants")
    ap.add_argument("--report", help="a scan report of ROOT to reuse (JSON) instead of scanning")
    ap.add_argument("--json", help="write the per-file results here")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    work = os.path.abspath(args.work)
    repo_root = os.path.abspath(os.path.join(HERE, ".."))
    if work.startswith(repo_root + os.sep):
        print("patch-safety: --work must be outside the source tree (public code)", file=sys.stderr)
        return 2
    if os.path.exists(work) and os.listdir(work):
        print("patch-safety: --work must be empty or absent", file=sys.stderr)
        return 2

    if args.report:
        report = json.load(open(args.report))
    else:
        proc = run_lockfix(args, "scan", root, "--format", "json", "--no-cache", "--no-config")
        if proc.returncode >= 2:
            print("patch-safety: scan failed: " + proc.stderr[-500:], file=sys.stderr)
            return 2
        report = json.loads(proc.stdout)
    files = sorted({f["path"] for f in report["findings"]
                    if f.get("fix", {}).get("available") and lang_of(f["path"])})
    variants = {"asis": None}
    if args.headers:
        for name in sorted(set(PY_VARIANTS) | set(TS_VARIANTS)):
            variants[name] = name

    # Lay out the variant trees; keep what compiled before.
    before = {}          # copy path -> (variant, source, lang, text)
    for vname, vkey in variants.items():
        for src in files:
            with open(src, "rb") as f:
                raw = f.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            lang = lang_of(src)
            if vkey is not None:
                steps = (PY_VARIANTS if lang == "py" else TS_VARIANTS).get(vkey)
                if steps is None or text is None:
                    continue
                text = make_variant(lang, text, steps)
                if text is None:
                    continue
                raw = text.encode("utf-8")
            rel = os.path.relpath(src, root)
            dst = os.path.join(work, vname, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(raw)
            before[dst] = (vname, src, lang, raw)
    compiled_before = compile_many(list(before), args.typescript)

    fix_flags = ["--no-config"] + (["--unsafe-fixes"] if args.unsafe_fixes else [])
    for vname in variants:
        d = os.path.join(work, vname)
        if os.path.isdir(d):
            proc = run_lockfix(args, "fix", d, "--apply", *fix_flags)
            if proc.returncode >= 2:
                print("patch-safety: fix --apply failed on %s (exit %d): %s" % (d, proc.returncode, proc.stderr[-800:]),
                      file=sys.stderr)
                return 2

    patched = []
    for dst, (vname, src, lang, raw) in before.items():
        with open(dst, "rb") as f:
            now = f.read()
        if now != raw:
            patched.append(dst)
    compiled_after = compile_many(patched, args.typescript)

    results, failures = [], []
    counts = {}
    for dst in patched:
        vname, src, lang, raw = before[dst]
        with open(dst, "rb") as f:
            now = f.read()
        problems = []
        ok_before = compiled_before.get(dst, (None, ""))[0]
        ok_after, detail = compiled_after.get(dst, (None, ""))
        if ok_before and ok_after is False:
            problems.append("compiled before, not after: " + detail)
        old_t, new_t = raw.decode("utf-8", "replace"), now.decode("utf-8", "replace")
        prefix = header_prefix("py" if lang == "py" else "ts", old_t)
        if prefix and not new_t.startswith(prefix):
            problems.append("module header not kept at the top")
        if lang == "py" and ok_before and py_doc(old_t) != py_doc(new_t):
            problems.append("module docstring changed")
        c = counts.setdefault(vname, {"patched": 0, "compiled_before": 0, "failed": 0})
        c["patched"] += 1
        c["compiled_before"] += 1 if ok_before else 0
        entry = {"variant": vname, "source": src, "copy": dst, "compiled_before": ok_before,
                 "compiled_after": ok_after, "problems": problems}
        results.append(entry)
        if problems:
            c["failed"] += 1
            failures.append(entry)

    # A second run changes nothing.
    for vname in variants:
        d = os.path.join(work, vname)
        if not os.path.isdir(d):
            continue
        proc = run_lockfix(args, "fix", d, "--diff", *fix_flags)
        if proc.stdout.strip():
            touched = sorted({l[6:] for l in proc.stdout.splitlines() if l.startswith("+++ b/")})
            entry = {"variant": vname, "source": None, "copy": d, "problems":
                     ["a second run changes %d file(s): %s" % (len(touched), ", ".join(touched[:5]))]}
            failures.append(entry)
            counts.setdefault(vname, {"patched": 0, "compiled_before": 0, "failed": 0})["failed"] += 1

    ts_unchecked = sum(1 for d in patched if compiled_after.get(d, (None,))[0] is None)
    print("files with a fixable finding: %d; variant copies: %d; patched: %d" % (len(files), len(before), len(patched)))
    print("%-10s %8s %16s %7s" % ("variant", "patched", "compiled before", "failed"))
    for vname in variants:
        c = counts.get(vname, {"patched": 0, "compiled_before": 0, "failed": 0})
        print("%-10s %8d %16d %7d" % (vname, c["patched"], c["compiled_before"], c["failed"]))
    if ts_unchecked:
        print("TS files not compiled (no --typescript): %d" % ts_unchecked)
    for e in failures:
        print("FAIL [%s] %s: %s" % (e["variant"], e["source"] or e["copy"], "; ".join(e["problems"])))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"counts": counts, "results": results, "failures": failures}, f, indent=1)
    print("all patches hold" if not failures else "%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
