#!/usr/bin/env python3
"""Fail when any function in analyzer/src can call itself, directly or through others.

Syntax trees from hostile input can be 100k levels deep; a recursive walk over one
overflows the C stack (SIGSEGV, no report). Directory trees and JSON documents are
no different. So the analyzer has no recursion at all: every walk keeps an explicit
stack or uses a tree cursor.

How: every analyzer/src/**/*.c is compiled again at -O0 (no inlining, every call
kept) with GCC's -fcallgraph-info, using the flags from compile_commands.json. The
.ci files give the direct call edges (static functions are named "file.c:name",
external ones by their name). We compute the strongly connected components of the
whole-program graph and report every component with a cycle (including a function
calling itself).

Limits, on purpose: calls through function pointers are not in the graph (check
and fix registries, qsort comparators, tree-sitter callbacks). None of those call
back into the analyzer's walks recursively today; a new one that did would be
missed here, which is why reviews still look for it.

Usage: check_no_recursion.py BUILD_DIR SOURCE_DIR [--keep DIR]
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

NODE_RE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"\\]+)\\n([^"]+)"')
EDGE_RE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)" label: "([^"]+)"')


def compile_units(build_dir, src_dir, out_dir):
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        cmds = json.load(f)
    src_root = os.path.realpath(os.path.join(src_dir, "analyzer", "src")) + os.sep
    seen = set()
    units = []
    for entry in cmds:
        path = os.path.realpath(entry["file"])
        if not path.startswith(src_root) or path in seen or not path.endswith(".c"):
            continue
        seen.add(path)
        argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        # Keep the compiler, defines, includes and the language standard; drop the
        # output, optimisation, sanitizer and warning-as-error flags.
        keep = [argv[0]]
        i = 1
        while i < len(argv):
            a = argv[i]
            if a in ("-o", "-c"):
                i += 2 if a == "-o" else 1
                continue
            if a in ("-isystem", "-I", "-D", "-include"):
                keep += [a, argv[i + 1]]
                i += 2
                continue
            if a.startswith(("-I", "-D", "-std=")):
                keep.append(a)
            i += 1
        rel = path[len(src_root):]
        obj = os.path.join(out_dir, rel.replace(os.sep, "__") + ".o")
        keep = [k for k in keep if k != path]
        keep += ["-O0", "-fno-inline", "-w", "-fcallgraph-info", "-c", path, "-o", obj]
        units.append((rel, keep, entry["directory"], obj[:-2] + ".ci"))
    return units


def tarjan(nodes, succ):
    """Iterative Tarjan SCC (the checker practises what it checks)."""
    index = {}
    low = {}
    on_stack = set()
    stack = []
    sccs = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                sccs.append(comp)
    return sccs


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir, src_dir = sys.argv[1], sys.argv[2]
    keep_dir = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--keep" else None
    out_dir = keep_dir or tempfile.mkdtemp(prefix="lf-cg-")
    os.makedirs(out_dir, exist_ok=True)
    if not os.path.exists(os.path.join(build_dir, "compile_commands.json")):
        print("check_no_recursion: no compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS)", file=sys.stderr)
        return 1
    units = compile_units(build_dir, src_dir, out_dir)
    if units:
        probe = subprocess.run([units[0][1][0], "-fcallgraph-info", "-x", "c", "-c", "-o", os.devnull, "-"],
                               input="int x;\n", capture_output=True, text=True)
        if probe.returncode != 0:
            print(f"check_no_recursion: {units[0][1][0]} has no -fcallgraph-info (GCC >= 10 needed): skipped")
            return 77
        # The checker must see recursion where there is some: a mutual pair and a
        # self-call in a probe file, or the test proves nothing.
        probe_c = os.path.join(out_dir, "probe_recursion.c")
        with open(probe_c, "w") as f:
            f.write("static int f(int);\nstatic int g(int x) { return f(x); }\n"
                    "static int f(int x) { return x ? g(x - 1) : 0; }\n"
                    "int lf_probe_h(int x) { return x ? lf_probe_h(x - 1) + f(x) : 0; }\n")
        r = subprocess.run([units[0][1][0], "-O0", "-fno-inline", "-fcallgraph-info", "-c", probe_c,
                            "-o", probe_c[:-2] + ".o"], cwd=out_dir, capture_output=True, text=True)
        ptext = open(probe_c[:-2] + ".ci").read() if r.returncode == 0 else ""
        psucc = {}
        for m in EDGE_RE.finditer(ptext):
            psucc.setdefault(m.group(1), set()).add(m.group(2))
        pcycles = [c for c in tarjan(sorted(psucc), psucc) if len(c) > 1 or c[0] in psucc.get(c[0], ())]
        if sorted(len(c) for c in pcycles) != [1, 2]:
            print(f"check_no_recursion: the probe's two cycles were not found ({pcycles})", file=sys.stderr)
            return 1
    if len(units) < 20:
        print(f"check_no_recursion: only {len(units)} analyzer sources in compile_commands.json", file=sys.stderr)
        return 1
    succ = {}
    where = {}
    edge_at = {}
    for rel, argv, cwd, ci in units:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"check_no_recursion: cannot compile {rel}:\n{r.stderr}", file=sys.stderr)
            return 1
        with open(ci, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in NODE_RE.finditer(text):
            where.setdefault(m.group(1), m.group(3))
            succ.setdefault(m.group(1), set())
        for m in EDGE_RE.finditer(text):
            succ.setdefault(m.group(1), set()).add(m.group(2))
            edge_at.setdefault((m.group(1), m.group(2)), m.group(3))
    # Report paths relative to the source tree.
    prefix = os.path.realpath(src_dir) + os.sep
    short = lambda n: n.replace(prefix, "")
    succ = {short(k): {short(t) for t in v} for k, v in succ.items()}
    where = {short(k): short(v) for k, v in where.items()}
    edge_at = {(short(a), short(b)): short(v) for (a, b), v in edge_at.items()}
    if not keep_dir:
        shutil.rmtree(out_dir, ignore_errors=True)
    nodes = sorted(set(succ) | {t for s in succ.values() for t in s})
    cycles = []
    for comp in tarjan(nodes, succ):
        if len(comp) > 1 or comp[0] in succ.get(comp[0], ()):
            cycles.append(sorted(comp))
    print(f"check_no_recursion: {len(units)} files, {len(nodes)} functions, "
          f"{sum(len(s) for s in succ.values())} call edges")
    if not cycles:
        print("check_no_recursion: no recursion")
        return 0
    for comp in sorted(cycles):
        members = set(comp)
        print(f"RECURSION: {' <-> '.join(comp)}")
        for fn in comp:
            for t in sorted(succ.get(fn, ())):
                if t in members:
                    print(f"    {fn} ({where.get(fn, '?')}) calls {t} at {edge_at.get((fn, t), '?')}")
    print(f"check_no_recursion: {len(cycles)} recursive cycle(s)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
