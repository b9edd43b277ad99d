#!/usr/bin/env python3
"""Run the composite action in action.yml locally, the way a GitHub runner does.

Reads action.yml itself (so what is tested is the action as shipped): input
defaults and overrides, `${{ }}` expressions, step `if:` conditions with the
implicit success(), `run:` steps under `bash --noprofile --norc -eo pipefail`
with the step's env and the GITHUB_OUTPUT / GITHUB_ENV / GITHUB_PATH /
GITHUB_STEP_SUMMARY files, and the composite outputs. The `uses:` steps it
knows are stood in for on the local disk:

- actions/cache/restore, actions/cache/save: a cache directory per key under
  RUNNER_DIR/cache (restore copies it to `path` and sets cache-hit);
- github/codeql-action/upload-sarif: checks that `sarif_file` names an existing
  SARIF 2.1.0 file (relative to the workspace, as the real one resolves it) and
  copies it to RUNNER_DIR/uploads, recording what was sent.

Any other `uses:` fails the run. Writes a JSON record of the run (steps,
outputs, uploads, conclusion) to --result; exits 0 when the job succeeded, 1
when it failed.

    run_action.py --action-dir SRC --workspace WS --runner-dir DIR \\
        [--input name=value ...] --result run.json
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


# ---- expressions -----------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||!|\(|\)|,)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_*][A-Za-z0-9_\-]*)*))")


class Expr:
    """GitHub Actions expressions: literals, context paths, == != && || !,
    parentheses and the status functions. Strings compare case-insensitively."""

    def __init__(self, text, ctx, status):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot parse expression {text!r} at {pos}")
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0
        self.ctx = ctx
        self.status = status
        self.uses_status = False

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise ValueError(f"expected {value!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise ValueError(f"trailing tokens: {self.toks[self.i:]}")
        return v

    def or_(self):
        v = self.and_()
        while self.peek()[1] == "||":
            self.take()
            r = self.and_()
            v = v if truthy(v) else r
        return v

    def and_(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            r = self.cmp()
            v = r if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek()[1] in ("==", "!="):
            op = self.take()[1]
            r = self.unary()
            eq = loose_eq(v, r)
            v = eq if op == "==" else not eq
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, val = self.take()
        if kind == "op" and val == "(":
            v = self.or_()
            self.take(")")
            return v
        if kind == "str":
            return val[1:-1].replace("''", "'")
        if kind == "num":
            return float(val)
        if kind == "name":
            if self.peek()[1] == "(":
                self.take("(")
                args = []
                while self.peek()[1] != ")":
                    args.append(self.or_())
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                return self.call(val, args)
            if val in ("true", "false"):
                return val == "true"
            if val == "null":
                return None
            return self.lookup(val)
        raise ValueError(f"unexpected token {val!r}")

    def call(self, name, args):
        if name in ("success", "failure", "always", "cancelled"):
            self.uses_status = True
            return {"success": not self.status["failed"], "failure": self.status["failed"],
                    "always": True, "cancelled": False}[name]
        if name == "format":
            out = args[0]
            for n, a in enumerate(args[1:]):
                out = out.replace("{%d}" % n, to_str(a))
            return out
        raise ValueError(f"unsupported function {name}()")

    def lookup(self, path):
        cur = self.ctx
        for part in path.split("."):
            if isinstance(cur, dict) and part in cur:
                cur = cur[part]
            else:
                return None
        return cur


def truthy(v):
    return v not in (None, False, "", 0, 0.0)


def to_str(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def loose_eq(a, b):
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return to_str(a).lower() == to_str(b).lower()


def evaluate(text, ctx, status):
    e = Expr(text, ctx, status)
    return e.parse(), e.uses_status


def substitute(value, ctx, status):
    if not isinstance(value, str):
        return value
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: to_str(evaluate(m.group(1), ctx, status)[0]), value)


def condition(text, ctx, status):
    if text is None:
        return not status["failed"]
    text = str(text).strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    v, uses_status = evaluate(text, ctx, status)
    return truthy(v) if uses_status else (not status["failed"] and truthy(v))


# ---- the stand-ins for the actions the composite uses ------------------------

def cache_dir(runner_dir, key):
    return os.path.join(runner_dir, "cache", re.sub(r"[^A-Za-z0-9._-]", "_", key))


def cache_restore(w, runner_dir, record):
    stored = cache_dir(runner_dir, w["key"])
    if os.path.isdir(stored):
        shutil.rmtree(w["path"], ignore_errors=True)
        shutil.copytree(stored, w["path"], symlinks=True)
        record["note"] = f"restored {w['key']}"
        return {"cache-hit": "true", "cache-primary-key": w["key"], "cache-matched-key": w["key"]}
    record["note"] = f"no cache for {w['key']}"
    return {"cache-hit": "false", "cache-primary-key": w["key"], "cache-matched-key": ""}


def cache_save(w, runner_dir, record):
    stored = cache_dir(runner_dir, w["key"])
    if not os.path.isdir(w["path"]):
        raise RuntimeError(f"actions/cache/save: {w['path']} does not exist")
    if os.path.isdir(stored):
        record["note"] = f"cache {w['key']} exists already: not saved"
        return {}
    shutil.copytree(w["path"], stored, symlinks=True)
    record["note"] = f"saved {w['key']}"
    return {}


def upload_sarif(w, runner_dir, workspace, uploads, record):
    given = w.get("sarif_file") or "../results"
    path = given if os.path.isabs(given) else os.path.join(workspace, given)
    if not os.path.isfile(path):
        raise RuntimeError(f"upload-sarif: sarif_file {given!r} is not a file (resolved: {path})")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("version") != "2.1.0" or not isinstance(doc.get("runs"), list):
        raise RuntimeError(f"upload-sarif: {given} is not a SARIF 2.1.0 log")
    dest = os.path.join(runner_dir, "uploads", f"{len(uploads) + 1}.sarif")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(path, dest)
    uploads.append({"sarif_file": given, "resolved": os.path.realpath(path), "copy": dest,
                    "category": w.get("category", "")})
    record["note"] = f"uploaded {given}"
    return {"sarif-id": f"local-{len(uploads)}"}


# ---- the runner --------------------------------------------------------------

def read_kv_file(path):
    """name=value lines and name<<DELIM heredocs, as the runner reads GITHUB_OUTPUT."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            value = []
            while i < len(lines) and lines[i] != delim:
                value.append(lines[i])
                i += 1
            i += 1
            out[name] = "\n".join(value)
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out


def run(action_dir, workspace, runner_dir, inputs_given):
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    assert action["runs"]["using"] == "composite", "not a composite action"
    declared = action.get("inputs", {})
    unknown = set(inputs_given) - set(declared)
    if unknown:
        raise SystemExit(f"run_action: inputs not declared by the action: {sorted(unknown)}")
    inputs = {k: str(v.get("default", "")) for k, v in declared.items()}
    inputs.update(inputs_given)

    tool_cache = os.path.join(runner_dir, "tool-cache")
    temp = os.path.join(runner_dir, "temp")
    os.makedirs(tool_cache, exist_ok=True)
    os.makedirs(temp, exist_ok=True)
    ctx = {
        "inputs": inputs,
        "github": {"action_path": action_dir, "workspace": workspace},
        "runner": {"os": "Linux", "arch": "X64", "temp": temp, "tool_cache": tool_cache},
        "steps": {},
        "env": {},
    }
    status = {"failed": False}
    job_env = {}
    extra_path = []
    uploads = []
    records = []
    for n, step in enumerate(action["runs"]["steps"]):
        record = {"name": step.get("name", step.get("uses", f"step {n}")), "id": step.get("id")}
        records.append(record)
        if not condition(step.get("if"), ctx, status):
            record["outcome"] = "skipped"
            continue
        outputs = {}
        try:
            if "uses" in step:
                uses = step["uses"].split("@")[0]
                w = {k: substitute(v, ctx, status) for k, v in (step.get("with") or {}).items()}
                record["with"] = w
                if uses == "actions/cache/restore":
                    outputs = cache_restore(w, runner_dir, record)
                elif uses == "actions/cache/save":
                    outputs = cache_save(w, runner_dir, record)
                elif uses == "github/codeql-action/upload-sarif":
                    outputs = upload_sarif(w, runner_dir, workspace, uploads, record)
                else:
                    raise RuntimeError(f"run_action: no stand-in for {step['uses']}")
                record["outcome"] = "success"
            else:
                assert step.get("shell") == "bash", "run steps must say shell: bash"
                files = {k: os.path.join(temp, f"{k.lower()}-{n}") for k in
                         ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")}
                for p in files.values():
                    open(p, "w").close()
                env = dict(os.environ)
                env.update(job_env)
                env.update(files)
                env.update({"GITHUB_ACTION_PATH": action_dir, "GITHUB_WORKSPACE": workspace, "GITHUB_ACTIONS": "true",
                            "CI": "true", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_TEMP": temp,
                            "RUNNER_TOOL_CACHE": tool_cache})
                if extra_path:
                    env["PATH"] = os.pathsep.join(extra_path + [env["PATH"]])
                env.update({k: substitute(str(v), ctx, status) for k, v in (step.get("env") or {}).items()})
                script = substitute(step["run"], ctx, status)
                with tempfile.NamedTemporaryFile("w", suffix=".sh", dir=temp, delete=False) as f:
                    f.write(script)
                p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", f.name],
                                   cwd=step.get("working-directory", workspace), env=env,
                                   capture_output=True, text=True, timeout=1800)
                record.update(rc=p.returncode, stdout=p.stdout, stderr=p.stderr)
                outputs = read_kv_file(files["GITHUB_OUTPUT"])
                job_env.update(read_kv_file(files["GITHUB_ENV"]))
                extra_path = [line for line in open(files["GITHUB_PATH"]).read().splitlines() if line] + extra_path
                record["summary"] = open(files["GITHUB_STEP_SUMMARY"]).read()
                record["outcome"] = "success" if p.returncode == 0 else "failure"
        except Exception as exc:  # a stand-in refused: the step fails, as the real action would
            record.update(outcome="failure", error=str(exc))
        if record["outcome"] == "failure":
            status["failed"] = True
        if step.get("id"):
            ctx["steps"][step["id"]] = {"outputs": outputs, "outcome": record["outcome"],
                                        "conclusion": record["outcome"]}
    outputs = {k: substitute(v.get("value", ""), ctx, status) for k, v in (action.get("outputs") or {}).items()}
    return {"steps": records, "outputs": outputs, "uploads": uploads,
            "conclusion": "failure" if status["failed"] else "success"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--action-dir", required=True)
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--runner-dir", required=True)
    ap.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--result", required=True)
    a = ap.parse_args()
    inputs = dict(i.split("=", 1) for i in a.input)
    result = run(os.path.abspath(a.action_dir), os.path.abspath(a.workspace), os.path.abspath(a.runner_dir), inputs)
    with open(a.result, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
    for s in result["steps"]:
        print(f"{s.get('outcome', '?'):8} {s['name']}" + (f"  ({s['note']})" if s.get("note") else ""))
        for stream in ("stdout", "stderr"):
            if s.get(stream):
                print("  | " + s[stream].rstrip("\n").replace("\n", "\n  | "))
        if s.get("error"):
            print(f"  ! {s['error']}")
    print(f"job: {result['conclusion']}")
    return 0 if result["conclusion"] == "success" else 1


if __name__ == "__main__":
    sys.exit(main())
