#!/usr/bin/env python3
"""Check every finding's witness against the source (issue 22).

    scripts/witness_check.py [--lockfix BIN] TREE...

Scans TREE with `lockfix scan --format json` and checks, for every finding:
  - it carries a witness with a platform, an outcome and at least one step;
  - every step's path is the finding's file, and its line and columns exist
    in that file;
  - the source text at the step is the kind of event the step names (a read
    call for "read", a removal for "remove", a kill(pid, 0) for "probe", ...),
    and the step's message ends with that very text (it describes the node
    it points at);
  - some step lies within the flagged code (its lines): the interleaving runs
    through what the analysis flagged.
Prints one line per problem and a summary; exit 0 when there is none, 1 when
there is, 2 when lockfix fails. tests/formats/test_witness.py runs it on
fixtures/; it is not run on other trees by CI.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys

# What the source text at a step must look like, per event (case-insensitive).
KINDS = {
    "read": r"read|load|parse|get|entries|Bun\.file|\bopen\b",
    "write": r"write|dump|save|store|rename|replace|set|=|utime|touch",
    "append": r"append|\"a\"|'a'|\"a\+\"|ax|write",
    "create": r"mkdir|makedirs|O_EXCL|[\"']x|wx|ax|link|create|open|LockFile",
    "lock": r"flock|lockf|locking|lock|mkdir|makedirs|open|acquire|excl|write",
    # (a look at the record opens the lock to read it: `with open(path) as f:`)
    "judge": r"stat|exist|mtime|ctime|access|read|time|now|age|lstat|\bopen\b",
    "probe": r"kill\s*\(.*\b0\s*\)|/proc|pid_exists|process_iter|psutil\.pids|psutil\.Process|OpenProcess|\bpgrep\b|\bpidof\b"
    # another module's liveness predicate, read by its name (`isProcessAlive(pid)` imported)
    r"|\b(?:is|check|has)?(?:Process|Pid|Proc|Owner|Holder)(?:Is)?(?:Alive|Running|Exists|Active|Live)\s*\("
    r"|\bis(?:Alive|Running|Exists|Active|Live)\s*\(",
    "misread": r"^(except|catch)\b",
    "remove": r"remove|unlink|rmdir|\brm|rmtree|rimraf|rename|replace|\bmove|delete|release|unlock|break_lock",
    "rename": r"rename|replace|move",
    # the temp name derived from the target, any affix (LF401): `p + ".new"`, f"{p}~", `"tmp_" + name`
    "open-temp": r"tmp|temp|\+|\$\{|%|\bformat\b|with_suffix|with_name|join|\bf[\"']",
    "resolve": r"realpath|resolve",
    # the test of the lock module or flag, or the `else:` of a chain testing each provider
    # (or the handler of a function-local `import fcntl` that runs the work without it)
    "unlocked-entry": r"\bNone\b|\bnot\b|\bis\b|==|!=|\bHAS_|^[A-Za-z_][\w.]*$|lock|^else\b|^except\b|^[\w.]+( and [\w.]+)+$",
    # (or the `break` / the loop of a retry that gives up and runs the work anyway,
    # or the no-op release a lock helper hands back when it gives up: `return () => {}`)
    "acquire-fails": r"^except\b|^catch\b|lock|acquire|mkdir|open|excl|create|link|^break\b|^(for|while)\b"
                     r"|^return\b[^;]*\{\s*\}",
    "critical-section": r"\S",
}


def span_text(lines, st):
    """The source between (line, column) and (end_line, end_column), columns in code points."""
    l0, c0, l1, c1 = st["line"], st["column"], st["end_line"], st["end_column"]
    if not (1 <= l0 <= len(lines) and 1 <= l1 <= len(lines)) or (l0, c0) > (l1, c1):
        return None
    if c0 - 1 > len(lines[l0 - 1]) or c1 - 1 > len(lines[l1 - 1]):
        return None
    if l0 == l1:
        return lines[l0 - 1][c0 - 1:c1 - 1]
    return "\n".join([lines[l0 - 1][c0 - 1:]] + lines[l0:l1 - 1] + [lines[l1 - 1][:c1 - 1]])


def defined_names(text):
    """Functions and methods the file defines: a call of one is the module's own helper."""
    ident = r"[A-Za-z_$#][\w$]*"
    return (set(re.findall(rf"(?:def|function\*?)\s+({ident})", text)) |
            # methods, with TS modifiers and a return type: `private isStale(): boolean {`
            set(re.findall(rf"^\s*(?:(?:public|private|protected|static|async|override|readonly)\s+)*"
                           rf"(?:get\s+|set\s+)?({ident})\s*\([^)]*\)\s*(?::\s*[^{{;=]+)?\{{",
                           text, re.M)) |
            set(re.findall(rf"(?:const|let|var)\s+({ident})\s*=\s*(?:async\s+)?(?:function|\([^)]*\)\s*=>|{ident}\s*=>)",
                           text)) |
            # X.prototype.name = function (...), and methods assigned to this.name = function
            set(re.findall(rf"\.({ident})\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)", text)))


def callee(text):
    """The called (or, for `this.data`, accessed) function's last name."""
    m = re.match(r"(?:await\s+|yield\s+)?([\w$.#]+)\s*(?:\(|$)", text)
    return m.group(1).rsplit(".", 1)[-1] if m else None


def check_step(f, st, lines, helpers):
    """The problems of one step (empty when it holds)."""
    if st["path"] != f["path"]:
        return [f"step on {st['path']}, not the finding's file"]
    text = span_text(lines, st)
    if text is None:
        return [f"L{st['line']}:{st['column']}-L{st['end_line']}:{st['end_column']} is not in the file"]
    problems = []
    first = text.split("\n", 1)[0]
    # The message ends with ": " and the step's own source (its first line,
    # cut with "..." when long); the code may itself hold ": ".
    msg = st["message"][:-3] if st["message"].endswith("...") else st["message"]
    tails = [msg[i + 2:] for i in range(len(msg)) if msg.startswith(": ", i)]
    if not any(t and first.startswith(t) for t in tails):
        problems.append(f"message {st['message']!r} does not show the step's source {first!r}")
    kind = KINDS.get(st["event"])
    if kind is None:
        problems.append(f"unknown event {st['event']!r}")
    elif not re.search(kind, text, re.I | re.M) and callee(text) not in helpers:
        problems.append(f"{st['event']} step at L{st['line']} is {first!r}, not a {st['event']}")
    return problems


def check(findings, read=lambda p: pathlib.Path(p).read_text(encoding="utf-8")):
    """(number of findings, [problem lines])."""
    out = []
    cache = {}
    for f in findings:
        where = f"{f['path']}:{f['line']}:{f['column']}: {f['rule_id']}"
        w = f.get("witness")
        if not w or not w.get("steps"):
            out.append(f"{where}: no witness")
            continue
        if not w.get("platform") or not w.get("outcome"):
            out.append(f"{where}: witness without platform or outcome")
        if f["path"] not in cache:
            text = read(f["path"])
            cache[f["path"]] = (text.split("\n"), defined_names(text))
        lines, helpers = cache[f["path"]]
        for i, st in enumerate(w["steps"], 1):
            out += [f"{where}: step {i}: {p}" for p in check_step(f, st, lines, helpers)]
        if not any(f["line"] <= st["line"] <= f["end_line"] for st in w["steps"]):
            out.append(f"{where}: no step within the flagged code (lines {f['line']}-{f['end_line']})")
    return len(findings), out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lockfix", default=os.environ.get("LOCKFIX_BIN", "lockfix"))
    ap.add_argument("trees", nargs="+")
    a = ap.parse_args(argv)
    if os.sep in a.lockfix:
        a.lockfix = os.path.abspath(a.lockfix)
    total, problems, steps = 0, [], 0
    for tree in a.trees:
        p = subprocess.run([a.lockfix, "scan", "--no-config", "--format", "json", "."], cwd=tree,
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            print(f"lockfix failed on {tree} (exit {p.returncode}): {p.stderr.strip()}", file=sys.stderr)
            return 2
        findings = json.loads(p.stdout)["findings"]
        n, probs = check(findings, read=lambda rel, t=tree: (pathlib.Path(t) / rel).read_text(encoding="utf-8"))
        total += n
        steps += sum(len(f.get("witness", {}).get("steps", [])) for f in findings)
        problems += [f"{tree}: {x}" for x in probs]
    for x in problems:
        print(x)
    print(f"{total} findings, {steps} witness steps checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
