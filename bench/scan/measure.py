#!/usr/bin/env python3
"""Time lockfix and ast-grep over one corpus, alternating, and report medians.

Called by bench/scan/run.sh, which builds/installs both tools first. This is a
benchmark, not a test: it asserts nothing about speed; it prints figures.

Each timed run is one child process. Wall time is measured around spawn..reap;
CPU time is the child's own user+sys from os.wait4's rusage (the tools'
threads are included, nothing else is). Every tool writes its JSON report to a
file, so both pay for formatting and writing their results.
"""
import argparse
import collections
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

# Directory names lockfix's walker prunes by default (analyzer/src/lf_walk.c),
# besides any directory holding a CMakeCache.txt or a pyvenv.cfg. ast-grep is
# told to prune the same ones so both tools read the same file set.
LOCKFIX_PRUNED_DIRS = [".git", ".hg", ".svn", "node_modules", "build", "build-*", "dist",
                       "__pycache__", ".venv", ".tox"]
PRUNE_MARKERS = ("CMakeCache.txt", "pyvenv.cfg")

# What each --lang scans: lockfix's extensions (analyzer/src/lf_lang.c), and the
# name of the language in rules/*.json's "languages" and "prefilter".
LANGS = {
    "py": {"exts": (".py",), "rule_lang": "python"},
    "ts": {"exts": (".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".tsx", ".jsx"), "rule_lang": "typescript"},
}


def pruned(name):
    return name in LOCKFIX_PRUNED_DIRS or name.startswith("build-")


def corpus_files(root, exclude_dirs, marked=None, exts=(".py",)):
    """The .py files both tools scan: lockfix's default pruning, plus the
    benchmark's own exclusions (directory names, e.g. site-packages).
    Directories pruned for holding a marker file are appended to `marked`."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        keep = []
        for d in sorted(dirnames):
            full = os.path.join(dirpath, d)
            if pruned(d) or d in exclude_dirs or os.path.islink(full):
                continue
            if any(os.path.exists(os.path.join(full, m)) for m in PRUNE_MARKERS):
                if marked is not None:
                    marked.append(os.path.relpath(full, root))
                continue
            keep.append(d)
        dirnames[:] = keep
        for f in filenames:
            full = os.path.join(dirpath, f)
            if f.endswith(exts) and os.path.isfile(full) and not os.path.islink(full):
                out.append(full)
    return sorted(out)


def load_prefilters(rules_dir, lang="python"):
    """{rule id: [[literal, ...], ...]} (AND of ORs) for the rules of lang in rules/*.json
    ("prefilter" is an array, or an object of arrays by language)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        with open(path, encoding="utf-8") as fh:
            rule = json.load(fh)
        if lang not in rule.get("languages", []):
            continue
        pf = rule.get("prefilter") or []
        if isinstance(pf, dict):
            pf = pf.get(lang) or []
        if pf and all(isinstance(x, str) for x in pf):
            pf = [pf]
        out[rule["id"]] = [[Literal(lit) for lit in grp] for grp in pf]
    return out


def _ident(c):
    return c == 0x5F or 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A or c >= 0x80


class Literal:
    """A prefilter literal as analyzer/src/lf_prefilter.c reads it (`\\bNAME\\b`
    identifier boundaries, `CALL(…WORD` WORD inside a call of CALL), for the pass
    figures the harness prints; lockfix itself decides what it parses."""

    def __init__(self, text):
        self.inside = None
        call, sep, word = text.partition("\u2026")
        if sep and len(call) >= 2 and call.endswith("(") and word:
            text, self.inside = call[:-1], word.encode()
        self.start = len(text) > 2 and text.startswith("\\b")
        if self.start:
            text = text[2:]
        self.end = len(text) > 2 and text.endswith("\\b")
        if self.end:
            text = text[:-2]
        self.bytes = text.encode()
        self.plain = not (self.start or self.end or self.inside)

    def found_in(self, data):
        if self.plain:
            return self.bytes in data
        i = data.find(self.bytes)
        while i >= 0:
            if self._holds(data, i):
                return True
            i = data.find(self.bytes, i + 1)
        return False

    def _holds(self, s, i):
        n = len(self.bytes)
        if self.start and i > 0 and (s[i - 1] == 0x5F or 0x41 <= s[i - 1] <= 0x5A or 0x61 <= s[i - 1] <= 0x7A):
            return False
        if self.end and i + n < len(s) and _ident(s[i + n]) and s[i + n] < 0x80:
            return False
        if self.inside is None:
            return True
        paren = self._call_paren(s, i + n)
        if paren is None:
            return True
        if paren < 0:
            return False
        start = i
        before = i
        while before > 0 and s[before - 1] in b" \t":
            before -= 1
        dot = i if s[i] == 0x2E else before - 1 if before > 0 and s[before - 1] == 0x2E else -1
        if dot >= 0:
            start = self._receiver_start(s, dot)
            if start < 0:
                return True
        end = self._group_end(s, paren)
        return end == 0 or self.inside in s[start:end]

    @staticmethod
    def _call_paren(s, j):
        while j < len(s):
            c = s[j]
            if c in b" \t\n\r\f\v\\":
                j += 1
            elif c == 0x23:
                nl = s.find(b"\n", j)
                j = len(s) if nl < 0 else nl
            elif c == 0x28:
                return j
            else:
                return None if c >= 0x80 else -1
        return -1

    @staticmethod
    def _receiver_start(s, j):
        while True:
            k = j
            while k > 0 and s[k - 1] in b" \t":
                k -= 1
            e = k
            while k > 0 and _ident(s[k - 1]):
                k -= 1
            if k == e or 0x30 <= s[k] <= 0x39:
                return -1
            m = k
            while m > 0 and s[m - 1] in b" \t":
                m -= 1
            if m > 0 and s[m - 1] == 0x2E:
                j = m - 1
                continue
            return k

    @staticmethod
    def _group_end(s, op):
        want = []
        limit = min(len(s), op + 65536)
        i = op
        while i < limit:
            c = s[i]
            if c in b"([{":
                if len(want) == 64:
                    return 0
                want.append(b")]}"[b"([{".index(c)])
            elif c in b")]}":
                if not want or want[-1] != c:
                    return 0
                want.pop()
                if not want:
                    return i + 1
            elif c == 0x23:
                nl = s.find(b"\n", i, limit)
                i = (limit if nl < 0 else nl) - 1
            elif c == 0x5C:
                i += 1
            elif c in b"'\"":
                p = i
                while p > 0 and 0x61 <= (s[p - 1] | 0x20) <= 0x7A:
                    if (s[p - 1] | 0x20) in (0x66, 0x74):
                        return 0
                    p -= 1
                if i + 2 < len(s) and s[i + 1] == c and s[i + 2] == c:
                    return 0
                j = i + 1
                while j < limit and s[j] != c:
                    if s[j] == 0x0A:
                        return 0
                    j += 2 if s[j] == 0x5C else 1
                if j >= limit:
                    return 0
                i = j
            i += 1
        return 0


def write_bench_rule_dirs(rules_dir, out_dir, lang="python"):
    """Two rule directories for `lockfix scan --rules DIR` (a rule file with an
    existing id replaces the built-in one):
      no-prefilter/: every rule without its "prefilter" (every file is parsed and
                     every query runs, as ast-grep does);
      noop/: one extra rule LF999 whose query never matches and has no prefilter,
             to run with --select LF999: lockfix's parse (+ one query) floor. Its
             #eq? word never occurs, so the query runs nowhere (lf_anchor); and a
             rule LF998, the same with a negative predicate, which anchors
             nothing: its query walks the whole tree (--select LF998)."""
    nopf = os.path.join(out_dir, "rules-no-prefilter")
    noop = os.path.join(out_dir, "rules-noop")
    os.makedirs(nopf, exist_ok=True)
    os.makedirs(noop, exist_ok=True)
    template = None
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        with open(path, encoding="utf-8") as fh:
            rule = json.load(fh)
        rule.pop("prefilter", None)
        with open(os.path.join(nopf, os.path.basename(path)), "w", encoding="utf-8") as fh:
            json.dump(rule, fh, indent=1)
        if template is None and lang in rule.get("languages", []):
            template = rule
    rule = dict(template)
    for k in ("check", "tests", "prefilter"):
        rule.pop(k, None)
    # a node type rare in real code, so the predicate (evaluated by lockfix) almost never runs
    query = {"python": '((pass_statement) @finding (#eq? @finding "__lockfix_bench_never__"))',
             "typescript": '((debugger_statement) @finding (#eq? @finding "__lockfix_bench_never__"))'}[lang]
    rule.update({"id": "LF999", "name": "bench-noop", "summary": "benchmark floor: matches nothing",
                 "severity": "info", "languages": [lang], "message": "never",
                 "fix": {"safety": "none"}, "queries": {lang: query}})
    with open(os.path.join(noop, "LF999-bench-noop.json"), "w", encoding="utf-8") as fh:
        json.dump(rule, fh, indent=1)
    # the node's text always starts with its keyword: never matches, and a negative
    # predicate gives the query no anchor word
    walk = {"python": '((pass_statement) @finding (#not-match? @finding "^pass"))',
            "typescript": '((debugger_statement) @finding (#not-match? @finding "^debugger"))'}[lang]
    rule = dict(rule, id="LF998", name="bench-noop-walk", queries={lang: walk},
                summary="benchmark floor: matches nothing, walks the whole tree")
    with open(os.path.join(noop, "LF998-bench-noop-walk.json"), "w", encoding="utf-8") as fh:
        json.dump(rule, fh, indent=1)
    return nopf, noop


def scan_corpus(paths, prefilters):
    """Line/byte counts, and how many files (and bytes) each rule's prefilter lets
    through, plus the union: the files lockfix must parse at all. Reading every
    file also warms the page cache."""
    lines = size = 0
    passed = collections.Counter()
    passed_bytes = collections.Counter()
    for p in paths:
        with open(p, "rb") as fh:
            data = fh.read()
        size += len(data)
        lines += data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
        any_rule = False
        for rid, groups in prefilters.items():
            if all(any(lit.found_in(data) for lit in grp) for grp in groups):
                passed[rid] += 1
                passed_bytes[rid] += len(data)
                any_rule = True
        if any_rule:
            passed["(any rule: parsed)"] += 1
            passed_bytes["(any rule: parsed)"] += len(data)
    return lines, size, passed, passed_bytes


def run_timed(cmd, stdout_path, ok_codes):
    with open(stdout_path, "wb") as out, open(stdout_path + ".stderr", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in ok_codes:
        with open(stdout_path + ".stderr", "rb") as fh:
            tail = fh.read()[-2000:].decode("utf-8", "replace")
        sys.exit(f"measure: {' '.join(cmd)} exited {proc.returncode}\n{tail}")
    return {"wall": wall, "user": ru.ru_utime, "sys": ru.ru_stime,
            "cpu": ru.ru_utime + ru.ru_stime, "maxrss_kb": ru.ru_maxrss,
            "exit": proc.returncode}


RULE_KEYS = ("rule_id", "ruleId", "rule", "id", "code")


def lockfix_findings(path):
    """Per-rule counts from `lockfix scan --format json`. Tolerates a top-level
    list or an object holding "findings"/"results"."""
    with open(path, "rb") as fh:
        doc = json.load(fh)
    items = doc
    meta = {}
    if isinstance(doc, dict):
        for key in ("findings", "results", "diagnostics"):
            if isinstance(doc.get(key), list):
                items = doc[key]
                break
        meta = {k: v for k, v in doc.items() if not isinstance(v, list)}
    counts = collections.Counter()
    for it in items if isinstance(items, list) else []:
        for k in RULE_KEYS:
            v = it.get(k) if isinstance(it, dict) else None
            if isinstance(v, dict):
                v = v.get("id")
            if isinstance(v, str):
                counts[v] += 1
                break
    return counts, meta


def astgrep_findings(path):
    counts = collections.Counter()
    with open(path, "rb") as fh:
        for line in fh:
            if line.strip():
                counts[json.loads(line)["ruleId"]] += 1
    return counts


def summarize(samples):
    def med(key):
        return statistics.median(s[key] for s in samples)
    return {"wall_median": med("wall"), "cpu_median": med("cpu"),
            "user_median": med("user"), "sys_median": med("sys"),
            "wall_min": min(s["wall"] for s in samples), "wall_max": max(s["wall"] for s in samples),
            "cpu_min": min(s["cpu"] for s in samples), "cpu_max": max(s["cpu"] for s in samples),
            "maxrss_kb_median": med("maxrss_kb"), "n": len(samples)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--exclude-dir", action="append", default=[],
                    help="directory name pruned for both tools (e.g. site-packages)")
    ap.add_argument("--lockfix", required=True)
    ap.add_argument("--ast-grep", required=True)
    ap.add_argument("--sg-config", required=True)
    ap.add_argument("--rules-dir", default="", help="lockfix rules/ (for the prefilter statistics)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--main-only", action="store_true", help="only lockfix and ast-grep, no diagnostic rows")
    ap.add_argument("--lang", choices=sorted(LANGS), default="py", help="which files of the corpus both tools scan")
    ap.add_argument("--bare-parse", default="", help="bench/scan/bare-parse binary: the parse-only baseline row")
    ap.add_argument("--skip", action="append", default=[], help="leave out a row by name (e.g. 'lockfix --jobs 1')")
    ap.add_argument("--no-warmup", action="store_true",
                    help="no untimed run of each row first (the ast-grep check run still reads every file)")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    corpus = os.path.realpath(a.corpus)

    marked = []
    lang = LANGS[a.lang]
    files = corpus_files(corpus, set(a.exclude_dir), marked, lang["exts"])
    prefilters = load_prefilters(a.rules_dir, lang["rule_lang"]) if a.rules_dir else {}
    lines, size, pf_files, pf_bytes = scan_corpus(files, prefilters)
    print(f"load average at the start: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"corpus: {corpus}" + (f" (excluding dirs: {', '.join(a.exclude_dir)})" if a.exclude_dir else ""))
    print(f"corpus: {len(files)} {'/'.join(lang['exts'])} files, {lines} lines, {size / 1e6:.1f} MB "
          f"(lockfix's default directory pruning applied to both tools)")
    if prefilters:
        print("lockfix prefilter (files whose text contains the rule's literals; only those are parsed):")
        for rid in sorted(pf_files):
            print(f"  {rid:<20} {pf_files[rid]:6d} files ({100.0 * pf_files[rid] / max(1, len(files)):5.1f}%), "
                  f"{100.0 * pf_bytes[rid] / max(1, size):5.1f}% of bytes")

    lf_excl = []
    for d in a.exclude_dir:
        lf_excl += ["--exclude", d]
    # Only this language's files, as ast-grep and the bare parse see them: a
    # corpus of whole repositories (the plugin-code corpus) holds both.
    for other in LANGS.values():
        for ext in other["exts"]:
            if ext not in lang["exts"]:
                lf_excl += ["--exclude", "*" + ext]
    sg_globs = []
    for ext in lang["exts"]:
        sg_globs += ["--globs", "*" + ext]
    for d in LOCKFIX_PRUNED_DIRS + a.exclude_dir:
        sg_globs += ["--globs", "!" + d]
    for d in marked:  # a build tree or virtualenv inside the corpus, anchored at its root
        sg_globs += ["--globs", "!/" + d.replace(os.sep, "/")]

    # Every lockfix row but the cached one runs without the result cache
    # (--no-cache): each measures a full scan.
    lf_excl += ["--no-cache"]
    variants = collections.OrderedDict()
    variants["lockfix"] = [a.lockfix, "scan", "--format", "json", *lf_excl, corpus]
    # An unchanged re-scan with the result cache: populated by an untimed run
    # below, then every timed run finds every file unchanged.
    cache_dir = os.path.join(a.out_dir, "lockfix-cache")
    variants["lockfix cached re-scan"] = [a.lockfix, "scan", "--format", "json", "--cache-dir", cache_dir,
                                          *[x for x in lf_excl if x != "--no-cache"], corpus]
    variants["lockfix --jobs 1"] = [a.lockfix, "scan", "--format", "json", "--jobs", "1", *lf_excl, corpus]
    if a.rules_dir:
        nopf, noop = write_bench_rule_dirs(a.rules_dir, a.out_dir, lang["rule_lang"])
        variants["lockfix no prefilter"] = [a.lockfix, "scan", "--format", "json", "--rules", nopf,
                                            *lf_excl, corpus]
        # the whole analysis after the parse, like for like with the one-thread
        # bare parse: two threads on this machine's two vCPUs cost about a sixth
        # more CPU for the same work (compare the two no-op rows)
        variants["lockfix no prefilter --jobs 1"] = [a.lockfix, "scan", "--format", "json", "--jobs", "1", "--rules",
                                                     nopf, *lf_excl, corpus]
        variants["lockfix no-op rule"] = [a.lockfix, "scan", "--format", "json", "--rules", noop,
                                          "--select", "LF999", *lf_excl, corpus]
        variants["lockfix no-op rule, whole-tree walk"] = [a.lockfix, "scan", "--format", "json", "--rules",
                                                           noop, "--select", "LF998", *lf_excl, corpus]
        # the bare parse runs on one thread: so does this, for a like-for-like floor
        variants["lockfix no-op rule --jobs 1"] = [a.lockfix, "scan", "--format", "json", "--jobs", "1",
                                                   "--rules", noop, "--select", "LF999", *lf_excl, corpus]
    if a.bare_parse:
        # read + parse of every corpus file and nothing else (no walk: the list is given)
        listing = os.path.join(a.out_dir, "files.txt")
        with open(listing, "w", encoding="utf-8") as fh:
            fh.writelines(p + "\n" for p in files)
        variants["bare tree-sitter parse"] = [a.bare_parse, listing]
    variants["ast-grep"] = [a.ast_grep, "scan", "-c", a.sg_config, "--json=stream", *sg_globs, corpus]
    # The same walk and parse with one rule that matches nothing: ast-grep's
    # floor on this corpus, i.e. how much of its time is parsing, not rules.
    # A project of its own, with the stand-ins' languageGlobs (TS/JS: .js with
    # the TypeScript grammar, as lockfix parses it).
    noop_proj = os.path.join(a.out_dir, "astgrep-noop")
    os.makedirs(os.path.join(noop_proj, "rules"), exist_ok=True)
    with open(a.sg_config, encoding="utf-8") as fh:
        globs = fh.read().split("languageGlobs:", 1)
    with open(os.path.join(noop_proj, "sgconfig.yml"), "w", encoding="utf-8") as fh:
        fh.write("ruleDirs:\n  - rules\n" + ("languageGlobs:" + globs[1] if len(globs) > 1 else ""))
    sg_lang = {"python": "python", "typescript": "typescript"}[lang["rule_lang"]]
    with open(os.path.join(noop_proj, "rules", "noop.yml"), "w", encoding="utf-8") as fh:
        fh.write(f"id: noop\nlanguage: {sg_lang}\nrule:\n  pattern: __lockfix_bench_never__($$$A)\n")
    variants["ast-grep no-op rule"] = [a.ast_grep, "scan", "-c", os.path.join(noop_proj, "sgconfig.yml"),
                                       "--json=stream", *sg_globs, corpus]
    if a.main_only:
        for name in list(variants):
            if name not in ("lockfix", "ast-grep", "lockfix cached re-scan"):
                del variants[name]
    for name in a.skip:
        if name in ("lockfix", "ast-grep") or name not in variants:
            sys.exit(f"measure: --skip {name!r}: not an optional row ({', '.join(variants)})")
        del variants[name]
    ok = {"lockfix": (0, 1), "ast-grep": (0, 1), "bare": (0,)}

    def tool_of(name):
        return "ast-grep" if name.startswith("ast-grep") else "bare" if name.startswith("bare") else "lockfix"

    def out_path(name):
        return os.path.join(a.out_dir, name.replace(" ", "_").replace("-", "") + ".out")

    # Check run (untimed, also warms the cache and each binary): ast-grep's own
    # count of the files it scanned must equal the corpus count.
    chk = os.path.join(a.out_dir, "astgrep_inspect.out")
    run_timed(variants["ast-grep"] + ["--inspect", "summary"], chk, ok["ast-grep"])
    with open(chk + ".stderr", encoding="utf-8", errors="replace") as fh:
        inspect = [l.strip() for l in fh if "scannedFileCount" in l]
    sg_files = None
    if inspect:
        part = inspect[0].split("scannedFileCount=")[1]
        sg_files = int(part.split(",")[0])
    print(f"ast-grep scanned files (--inspect summary): {sg_files}"
          + ("" if sg_files == len(files) else f"  ** differs from corpus count {len(files)} **"))
    if "lockfix cached re-scan" in variants:  # populate the cache (also under --no-warmup)
        shutil.rmtree(cache_dir, ignore_errors=True)
        run_timed(variants["lockfix cached re-scan"], out_path("lockfix cached re-scan"), ok["lockfix"])
    for name, cmd in variants.items():
        if name != "ast-grep" and not a.no_warmup:
            run_timed(cmd, out_path(name), ok[tool_of(name)])

    samples = {name: [] for name in variants}
    names = list(variants)
    for rep in range(a.reps):
        order = names[rep % len(names):] + names[:rep % len(names)]  # rotate: nobody always goes first
        for name in order:
            s = run_timed(variants[name], out_path(name), ok[tool_of(name)])
            samples[name].append(s)
            print(f"  rep {rep + 1}/{a.reps} {name:<28} wall {s['wall']:7.3f}s  cpu {s['cpu']:7.3f}s", flush=True)

    findings = {}
    meta = {}
    for name in variants:
        if name.startswith("ast-grep"):
            findings[name] = astgrep_findings(out_path(name))
        elif name.startswith("bare"):
            findings[name] = collections.Counter()
            with open(out_path(name), encoding="utf-8") as fh:
                meta[name] = {"output": fh.read().strip()}
        else:
            findings[name], meta[name] = lockfix_findings(out_path(name))

    summ = {name: summarize(samples[name]) for name in variants}
    rules = sorted(set().union(*[set(c) for c in findings.values()]))

    print()
    print(f"{'tool':<28} {'wall med':>9} {'(min..max)':>17} {'cpu med':>9} {'(min..max)':>17} {'maxrss':>8}  findings")
    for name in variants:
        s = summ[name]
        tot = sum(findings[name].values())
        print(f"{name:<28} {s['wall_median']:8.3f}s {s['wall_min']:7.3f}..{s['wall_max']:<7.3f}s "
              f"{s['cpu_median']:8.3f}s {s['cpu_min']:7.3f}..{s['cpu_max']:<7.3f}s "
              f"{s['maxrss_kb_median'] / 1024:6.0f}MB  {tot}")
    print()
    print("findings per rule: " + "  ".join(
        f"{r}: " + "/".join(str(findings[n].get(r, 0)) for n in variants) for r in rules)
        + "   (" + " / ".join(variants) + ")")
    for name, m in meta.items():
        if m:
            print(f"{name} report metadata: {json.dumps(m, sort_keys=True)[:400]}")

    lf = summ["lockfix"]
    ag = summ["ast-grep"]
    ratios = {"wall": ag["wall_median"] / lf["wall_median"], "cpu": ag["cpu_median"] / lf["cpu_median"]}
    print()
    print(f"RATIO ast-grep/lockfix: wall {ratios['wall']:.1f}x  cpu {ratios['cpu']:.1f}x  (goal >= 10x)")
    extra = {}
    for name in variants:
        if name.startswith("lockfix "):
            s = summ[name]
            extra["ast-grep/" + name] = {"wall": ag["wall_median"] / s["wall_median"],
                                         "cpu": ag["cpu_median"] / s["cpu_median"]}
    if "ast-grep no-op rule" in summ:
        floor = summ["ast-grep no-op rule"]
        extra["ast-grep no-op rule/lockfix"] = {"wall": floor["wall_median"] / lf["wall_median"],
                                                "cpu": floor["cpu_median"] / lf["cpu_median"]}
        if "lockfix no-op rule" in summ:
            s = summ["lockfix no-op rule"]
            extra["ast-grep no-op rule/lockfix no-op rule"] = {
                "wall": floor["wall_median"] / s["wall_median"], "cpu": floor["cpu_median"] / s["cpu_median"]}
    for row, label in (("lockfix no prefilter", "the analysis; goal <= 1.3x cpu"),
                       ("lockfix no prefilter --jobs 1", "the analysis, one thread each"),
                       ("lockfix no-op rule", "floor; goal <= 1.1x cpu"),
                       ("lockfix no-op rule --jobs 1", "floor, one thread each"),
                       ("lockfix no-op rule, whole-tree walk", None)):
        if "bare tree-sitter parse" in summ and row in summ:
            b, s = summ["bare tree-sitter parse"], summ[row]
            name = f"{row}/bare tree-sitter parse" + (f" ({label})" if label else "")
            extra[name] = {"wall": s["wall_median"] / b["wall_median"], "cpu": s["cpu_median"] / b["cpu_median"]}
    for k, v in extra.items():
        print(f"RATIO {k}: wall {v['wall']:.2f}x  cpu {v['cpu']:.2f}x")
    if "lockfix cached re-scan" in summ:
        c = summ["lockfix cached re-scan"]
        with open(out_path("lockfix"), "rb") as fh_a, open(out_path("lockfix cached re-scan"), "rb") as fh_b:
            same = fh_a.read() == fh_b.read()
        print(f"CACHED lockfix unchanged re-scan: wall {c['wall_median']:.3f}s  cpu {c['cpu_median']:.3f}s "
              f"(goal <= 0.1 s wall; ruff 0.05 s); report {'byte-identical to' if same else 'DIFFERS from'} "
              f"the uncached scan's")

    try:
        load = open("/proc/loadavg").read().split()[:3]
    except OSError:
        load = []
    print(f"load average at the end: {' '.join(load)}")
    result = {"label": a.label, "lang": a.lang, "load_end": load, "corpus": corpus, "exclude_dirs": a.exclude_dir, "files": len(files),
              "prefilter_passed_files": dict(pf_files), "prefilter_passed_bytes": dict(pf_bytes),
              "lines": lines, "bytes": size, "astgrep_scanned_files": sg_files,
              "commands": variants, "summary": summ, "samples": samples,
              "findings": {k: dict(v) for k, v in findings.items()},
              "ratios": ratios, "ratios_other_lockfix_modes": extra,
              "cpus": os.cpu_count(), "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    with open(os.path.join(a.out_dir, "results.json"), "w") as fh:
        json.dump(result, fh, indent=2)
    print(f"\nraw samples: {os.path.join(a.out_dir, 'results.json')}")


if __name__ == "__main__":
    main()
