"""Mutation generator: equivalent spellings of every fixture site (issue 8, item 8).

Each case is a copy of one fixture integration (fixtures/integrations/<name>)
whose lib/state.py has one kind of site rewritten in another spelling:

  LF101  every lock-fallback function of the module, regenerated from the
         fixture's own lock path and locked statements along the dimensions of
         item 3 (handle, lock call, where the unlocked copy sits, how the lock
         module is imported, aliases, presence test, body, comments, hints);
  LF201  the `_state_file` confinement guard (item 5's spellings);
  LF401  the `write_state` temp write (item 6's spellings).

Every case also gets one module header (MODULE_HEADERS, in turn): the
fixture's docstring and leading comments replaced by a shebang, an encoding
line, licence comments, a docstring in another spelling, `from __future__`
imports... so that an import a fix adds in the wrong place (above the
docstring, or above `from __future__`) shows in every rule's cases.

A case varies one dimension from the fixture's spelling (every value of every
dimension for every site), and a seeded sample of combinations varies several.
Look-alikes (LF101) change what the unlocked copy or the handler does: they
must keep their finding and get no edit.

The generator only writes source text; it records for each site the line the
check must report, the function that holds it and whether it is a look-alike.
Nothing here runs lockfix (see mutate.py).
"""
import ast
import json
import os
import random
import re
import shutil
import textwrap

# Fixture integration -> its LF101 site functions (fixtures/integrations/README.md).
LF101_SITES = {
    "claude-code": ["increment_turn_count", "_locked_read_modify_write"],
    "codex": ["increment_turn_count", "track_retention"],
    "copilot-cli": ["increment_turn_count"],
    "cursor": ["increment_turn_count"],
    "cursor-cli": ["increment_turn_count"],
    "omo": ["_locked_update"],
    "zcode": ["increment_turn_count"],
}
ALL_INTEGRATIONS = sorted(list(LF101_SITES) + ["cline"])

# item 3's dimensions; the first value of each is the fixture's own spelling.
LF101_DIMS = {
    "handle": ["os_open", "with_open", "with_open_fileobj", "assign_open", "assign_open_acquire_in_try", "io_open", "path_open",
               "path_in_try"],
    "lock": ["flock", "lockf", "msvcrt", "nb_retry"],
    "place": ["after_if", "else", "early_out", "handler"],
    "import": ["platform", "platform_eq", "try_except", "try_except_mid", "none_then_try", "os_name",
               "flag", "flag_platform", "importlib", "platform_startswith", "try_with_other", "annotated_none"],
    "alias": ["plain", "module_as", "from_import"],
    "test": ["is_not_none", "truthy", "not_is_none", "none_is_not"],
    "body": ["value_return", "bare_return", "no_return", "callback", "method", "static_method"],
    "comments": ["none", "code_like", "differing"],
    "hints": ["none", "hints"],
}
LF101_BASE = {d: v[0] for d, v in LF101_DIMS.items()}
LF101_LOOKALIKES = ["copy_skips_write", "copy_other_key", "copy_extra_stmt", "copy_reordered", "handler_logs",
                    "finally_does_more", "work_uses_handle"]

LF201_DIMS = {
    "guard": ["inline", "intermediate", "and_ne_dir", "dirname_ne", "commonpath", "realpath_dir_func", "slash",
              "fstring_sep", "path_resolve_relative_to", "path_resolve_parents"],
    "alias": ["plain", "from_realpath", "ospath_as"],
    "comments": ["none", "code_like"],
}
LF201_BASE = {d: v[0] for d, v in LF201_DIMS.items()}

LF401_DIMS = {
    "temp": ["name_plus", "inline", "percent", "format", "fstring", "with_suffix_path"],
    "shape": ["plain", "try_unlink", "if_else"],
    "replace": ["os_replace", "os_rename", "from_replace", "from_replace_as", "os_as"],
    "comments": ["none", "code_like"],
}
LF401_BASE = {d: v[0] for d, v in LF401_DIMS.items()}

# Module headers, given to the cases in turn (issue 20, item 4): "fixture"
# keeps the fixture's own.
MODULE_HEADERS = [
    ("fixture", None),
    ("shebang_doc", '#!/usr/bin/env python3\n"""Hook state.\n\nUsage: state.py [--help]\n"""\n'),
    ("encoding_doc", '# -*- coding: utf-8 -*-\n"""Hook state."""\n'),
    ("shebang_encoding_licence_doc", "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n#\n"
     "# Copyright (c) 2024 Example Authors\n# SPDX-License-Identifier: MIT\n\n" + '"""Hook state."""\n'),
    ("licence_doc_future", '# Licensed under the Apache License 2.0\n"""Hook state."""\n'
     "from __future__ import annotations\n"),
    ("single_quote_doc", "'Hook state.'\n"),
    ("raw_doc", 'r"""Hook state under \\d+ directories."""\n'),
    ("unicode_doc", "u'''Hook state.'''\n"),
    ("concat_doc", '"Hook " \\\n    "state."  # help text\n'),
    ("parenthesised_doc", '("Hook "\n "state.")\n'),
    ("doc_then_comments", '"""Hook state."""\n# Author: someone\n# vim: set ts=4:\n'),
    ("futures_parenthesised", '"""Hook state."""\nfrom __future__ import (\n    absolute_import,  # py2 callers\n'
     "    division,\n)\n# between the two\nfrom __future__ import generator_stop\n"),
    ("future_only", "# licence\nfrom __future__ import annotations\n"),
    ("comment_only", "# Copyright (c) 2024\n# All rights reserved.\n"),
    ("shebang_only", "#!/usr/bin/env python3\n"),
]


def with_header(text, header):
    """text with its docstring and leading comments replaced by header:
    (new text, how many lines the rest moved)."""
    if header is None:
        return text, 0
    body = ast.parse(text).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    first = body[0].lineno - 1  # 0-based line of the first statement after the docstring
    lines = text.split("\n")
    head = header.rstrip("\n").split("\n") + [""]
    return "\n".join(head + lines[first:]), len(head) - first


class Skip(Exception):
    """A combination that has no meaningful spelling (e.g. msvcrt with LOCK_NB)."""


def indent(lines, n):
    pad = " " * n
    return [(pad + l) if l.strip() else "" for l in lines]


def block(text):
    """Statement source -> lines, dedented."""
    return textwrap.dedent(text).rstrip("\n").split("\n")


class Module(object):
    """A fixture state.py with its functions located."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.src = f.read()
        self.lines = self.src.split("\n")
        self.tree = ast.parse(self.src)
        self.funcs = {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}

    def seg(self, node):
        return ast.get_source_segment(self.src, node)

    def stmt_lines(self, node):
        """The statement's full lines, dedented (comments inside it kept)."""
        text = "\n".join(self.lines[node.lineno - 1: node.end_lineno])
        return block(text)

    def header(self, fn):
        """The `def` line(s), without the body."""
        return self.lines[fn.lineno - 1: fn.body[0].lineno - 1]

    def import_block(self):
        """(first, last) 0-based line indices of the fixture's conditional fcntl import."""
        for n in self.tree.body:
            if isinstance(n, ast.If) and "fcntl" in self.seg(n):
                return n.lineno - 1, n.end_lineno - 1
        return None


def strip_hint(lines):
    """`x: T = v` -> `x = v` for a one-line annotated assignment."""
    out = []
    for l in lines:
        m = re.match(r"^(\s*)([A-Za-z_][A-Za-z_0-9]*)\s*:\s*[^=]+?=\s*(.*)$", l)
        if m and "==" not in l and not l.strip().startswith(("if ", "return", "#")):
            out.append("%s%s = %s" % m.groups())
        else:
            out.append(l)
    return out


class Site(object):
    """One LF101 site of a fixture module, as its parts."""

    def __init__(self, mod, name):
        fn = mod.funcs[name]
        self.name = name
        self.fn = fn
        self.header = mod.header(fn)
        stmts = list(fn.body)
        self.doc = None
        if isinstance(stmts[0], ast.Expr) and isinstance(getattr(stmts[0], "value", None), ast.Constant):
            self.doc = mod.stmt_lines(stmts[0])
            stmts = stmts[1:]
        i = next(k for k, s in enumerate(stmts) if isinstance(s, ast.If))
        self.pre = [l for s in stmts[:i] for l in mod.stmt_lines(s)]
        outer = stmts[i].body[0]
        first = outer.body[0]
        if isinstance(first, ast.With):
            call = first.items[0].context_expr
            inner = first.body[1]
        else:
            call = first.value
            inner = outer.body[2]
        self.path = mod.seg(call.args[0])
        self.body = [l for s in inner.body for l in mod.stmt_lines(s)]
        last = inner.body[-1]
        assert isinstance(last, ast.Return) and last.value is not None, name
        self.ret = mod.seg(last.value)
        self.body_noret = [l for s in inner.body[:-1] for l in mod.stmt_lines(s)]
        a = fn.args
        self.params = [p.arg for p in a.args]
        self.kwonly = [p.arg for p in a.kwonlyargs]


# ---------------------------------------------------------------- LF101 ----

class Names(object):
    """How the lock module and its calls are spelled for one choice."""

    def __init__(self, c):
        lock, alias = c["lock"], c["alias"]
        self.modname = "msvcrt" if lock == "msvcrt" else "fcntl"
        self.flag = "HAS_MSVCRT" if lock == "msvcrt" else "HAS_FCNTL"
        if alias == "from_import":
            if lock == "msvcrt":
                self.names = ["LK_LOCK", "LK_UNLCK", "locking"]
                self.sentinel = "locking"
            else:
                fn = "lockf" if lock == "lockf" else "flock"
                self.names = ["LOCK_EX", "LOCK_UN"] + (["LOCK_NB"] if lock == "nb_retry" else []) + [fn]
                self.sentinel = fn
            self.imp = "from %s import %s" % (self.modname, ", ".join(sorted(self.names)))
            self.q = ""
        else:
            mod = ("_" + self.modname) if alias == "module_as" else self.modname
            self.sentinel = mod
            self.imp = "import %s" % self.modname + (" as %s" % mod if alias == "module_as" else "")
            self.q = mod + "."

    def importlib_lines(self, c):
        if c["alias"] == "from_import":
            raise Skip("importlib binds a module, not names")
        return ["%s = importlib.import_module(%r)" % (self.sentinel, self.modname)]

    def acquire(self, h, c):
        q = self.q
        if c["lock"] == "msvcrt":
            return ["%slocking(%s, %sLK_LOCK, 1)" % (q, h, q)]
        if c["lock"] == "lockf":
            return ["%slockf(%s, %sLOCK_EX)" % (q, h, q)]
        if c["lock"] == "nb_retry":
            return ["while True:",
                    "    try:",
                    "        %sflock(%s, %sLOCK_EX | %sLOCK_NB)" % (q, h, q, q),
                    "        break",
                    "    except BlockingIOError:",
                    "        time.sleep(0.005)"]
        return ["%sflock(%s, %sLOCK_EX)%s" % (q, h, q, "  # blocks until free; raise? never" if
                                             c["comments"] == "code_like" else "")]

    def release(self, h, c):
        q = self.q
        if c["lock"] == "msvcrt":
            return ["%slocking(%s, %sLK_UNLCK, 1)" % (q, h, q)]
        if c["lock"] == "lockf":
            return ["%slockf(%s, %sLOCK_UN)" % (q, h, q)]
        return ["%sflock(%s, %sLOCK_UN)" % (q, h, q)]


def import_block_lines(c, nm):
    """The module-level conditional import of the lock module."""
    imp, s, kind = nm.imp, nm.sentinel, c["import"]
    if nm.modname == "msvcrt" and kind in ("platform", "platform_eq", "os_name", "flag_platform",
                                           "platform_startswith"):
        # Spelled so that Linux (where the tests run) binds None.
        if kind == "platform_startswith":
            return ['if sys.platform.startswith("win"):', "    " + imp, "else:", "    %s = None" % s]
        if kind == "platform":
            return ['if sys.platform == "win32":', "    " + imp, "else:", "    %s = None" % s]
        if kind == "platform_eq":
            return ['if sys.platform != "win32":', "    %s = None" % s, "else:", "    " + imp]
        if kind == "os_name":
            return ['if os.name == "nt":', "    " + imp, "else:", "    %s = None" % s]
        return ['%s = sys.platform == "win32"' % nm.flag, "if %s:" % nm.flag, "    " + imp, "else:",
                "    %s = None" % s]
    if kind == "platform":
        return ['if sys.platform != "win32":', "    " + imp, "else:", "    %s = None" % s]
    if kind == "platform_eq":
        return ['if sys.platform == "win32":', "    %s = None" % s, "else:", "    " + imp]
    if kind in ("try_except", "try_except_mid"):
        return ["try:", "    " + imp, "except ImportError:  # not on Windows", "    %s = None" % s]
    if kind == "none_then_try":
        return ["%s = None" % s, "try:", "    " + imp, "except ImportError:", "    pass"]
    if kind == "os_name":
        return ['if os.name == "nt":', "    %s = None" % s, "else:", "    " + imp]
    if kind == "flag":
        return ["try:", "    " + imp, "    %s = True" % nm.flag, "except ImportError:", "    %s = None" % s,
                "    %s = False" % nm.flag]
    if kind == "flag_platform":
        return ['%s = sys.platform != "win32"' % nm.flag, "if %s:" % nm.flag, "    " + imp, "else:",
                "    %s = None" % s]
    if kind == "platform_startswith":
        return ['if sys.platform.startswith("win"):', "    %s = None" % s, "else:", "    " + imp]
    if kind == "try_with_other":
        return ["try:", "    import errno  # noqa: F401", "    " + imp, "except ImportError:", "    %s = None" % s]
    if kind == "annotated_none":
        return ['%s: "types.ModuleType | None" = None' % s, "try:", "    " + imp, "except ImportError:",
                "    pass"]
    if kind == "importlib":
        return ["try:"] + indent(nm.importlib_lines(c), 4) + ["except ImportError:", "    %s = None" % s]
    raise ValueError(kind)


def presence(c, nm, negative=False):
    s = nm.sentinel
    if c["import"] in ("flag", "flag_platform"):
        return ("not %s" % nm.flag) if negative else nm.flag
    t = c["test"]
    if not negative:
        return {"is_not_none": "%s is not None" % s, "truthy": s, "not_is_none": "not (%s is None)" % s,
                "none_is_not": "None is not %s" % s}[t]
    return {"is_not_none": "%s is None" % s, "truthy": "not %s" % s, "not_is_none": "not (%s is not None)" % s,
            "none_is_not": "None is %s" % s}[t]


def locked_region(c, nm, site, work, path_expr, lookalike):
    """The statements that open the lock file, lock, run `work` and release."""
    h_mode = '"w"' if c["lock"] == "msvcrt" else '"a+"'
    rel_extra = ['_LOG.append("unlocked")'] if lookalike == "finally_does_more" else []
    hint = c["hints"] == "hints"
    handle = c["handle"]
    if lookalike == "work_uses_handle":
        work = ["os.fsync(%s)" % ("fd" if handle in ("os_open", "path_in_try") else "lock_file.fileno()")] + work
    if handle in ("os_open", "path_in_try"):
        lines = []
        p = path_expr
        if handle == "path_in_try":
            lines.append("lock_path = %s" % path_expr)
            p = "lock_path"
        lines.append("fd%s = os.open(%s, os.O_CREAT | os.O_RDWR, 0o600)" % (": int" if hint else "", p))
        lines += nm.acquire("fd", c)
        lines += ["try:"] + indent(work, 4) + ["finally:"] + indent(nm.release("fd", c) + ["os.close(fd)"] +
                                                                    rel_extra, 4)
        return lines
    if handle in ("with_open", "with_open_fileobj"):
        # flock takes the file object itself as well as its descriptor.
        h = "lock_file" if handle == "with_open_fileobj" and c["lock"] != "msvcrt" else "lock_file.fileno()"
        lines = ["with open(%s, %s) as lock_file:" % (path_expr, h_mode)]
        inner = nm.acquire(h, c)
        inner += ["try:"] + indent(work, 4) + ["finally:"] + indent(nm.release(h, c) + rel_extra, 4)
        return lines + indent(inner, 4)
    opener = {"assign_open": "open(%s, %s)", "assign_open_acquire_in_try": "open(%s, %s)",
              "io_open": "io.open(%s, %s)", "path_open": "Path(%s).open(%s)"}[handle] % (path_expr, h_mode)
    lines = ["lock_file%s = %s" % (": typing.IO[str]" if hint else "", opener)]
    acq = nm.acquire("lock_file.fileno()", c)
    rel = nm.release("lock_file.fileno()", c) + ["lock_file.close()"] + rel_extra
    if handle == "assign_open_acquire_in_try":
        return lines + ["try:"] + indent(acq + work, 4) + ["finally:"] + indent(rel, 4)
    return lines + acq + ["try:"] + indent(work, 4) + ["finally:"] + indent(rel, 4)


def site_function(c, nm, site, lookalike=None):
    """The regenerated site: (lines of the function(s), index of the line the check reports)."""
    body_kind = c["body"]
    hint = c["hints"] == "hints"
    work = list(site.body)
    ret = site.ret
    if not hint:
        work = strip_hint(work)
    copy = strip_hint(list(site.body))
    tail = []
    if body_kind == "no_return":
        work = (strip_hint(site.body_noret) if not hint else list(site.body_noret)) + ["result = %s" % ret]
        copy = strip_hint(site.body_noret) + ["result = %s" % ret]
        tail = ["return result"]
    elif body_kind == "bare_return":
        work = (strip_hint(site.body_noret) if not hint else list(site.body_noret)) + ["out.append(%s)" % ret,
                                                                                          "return"]
        copy = strip_hint(site.body_noret) + ["out.append(%s)" % ret, "return"]
    elif body_kind == "callback":
        work = ["return _work()"]
        copy = ["return _work()"]
    if c["comments"] == "code_like":
        work = ["# raise here? no: block on the lock, then read st_ino-free state"] + work
        copy = ["# return early? never; this is the unlocked copy (raise, block)"] + copy
    elif c["comments"] == "differing":
        work = ["# under the lock"] + work
        copy = copy[:1] + ["# same update, no lock held"] + copy[1:]
    if lookalike == "copy_skips_write":
        copy = [l for l in copy if "write_state(" not in l]
    elif lookalike == "copy_extra_stmt":
        copy = ['_LOG.append("unlocked")'] + copy
    elif lookalike == "copy_reordered" and len(copy) >= 3:
        copy = [copy[1], copy[0]] + copy[2:] if not copy[1].startswith(("#", " ")) else copy
    elif lookalike == "copy_other_key":
        copy = [l.replace("read_state(", "read_state(\"unlocked-\" + ", 1) if "read_state(" in l else l
                for l in copy]
    place = c["place"]
    pre_src = list(site.pre)
    if body_kind == "no_return" and place in ("after_if", "early_out"):
        raise Skip("no return needs the copy in else or the handler")
    path_expr = site.path
    if c["handle"] == "path_in_try":
        for l in list(pre_src):
            if l.startswith("%s = " % path_expr):
                pre_src.remove(l)
                path_expr = l.split(" = ", 1)[1]
    region = locked_region(c, nm, site, work, path_expr, lookalike)
    handler = "pass"
    if lookalike == "handler_logs":
        handler = '_LOG.append("lock failed")'
    lines, anchor = [], 0
    if place == "after_if":
        anchor = 0
        lines = ["if %s:" % presence(c, nm)] + indent(["try:"] + indent(region, 4) +
                                                       ["except OSError:", "    " + handler], 4)
        if c["comments"] != "none":
            lines += ["# On Windows there is no lock; minor races are harmless (they are not)."]
        lines += copy
    elif place == "else":
        lines = ["if %s:" % presence(c, nm)] + indent(region, 4) + ["else:"] + indent(copy, 4)
    elif place == "early_out":
        lines = ["if %s:" % presence(c, nm, negative=True)] + indent(copy, 4) + region
    elif place == "handler":
        errs = "(TypeError, OSError)" if c["alias"] == "from_import" else "(AttributeError, OSError)"
        lines = ["try:"] + indent(region, 4) + ["except %s:" % errs] + indent(copy, 4)
    lines += tail
    pre = pre_src
    if c["hints"] == "none":
        pre = strip_hint(pre)
    if body_kind == "callback":
        inner = ["def _work():"] + indent(strip_hint(site.body) if not hint else site.body, 4)
        pre = pre + inner
    fn_body = (site.doc or []) + pre
    anchor += len(fn_body)
    fn_body += lines
    header = list(site.header)
    if body_kind == "bare_return":
        inner_name = "_%s_into" % site.name.lstrip("_")
        h0 = re.sub(r"def %s\(" % re.escape(site.name), "def %s(out, " % inner_name, header[0], count=1)
        h0 = re.sub(r"\)\s*->\s*[^:]+:\s*$", "):", h0)
        helper = [h0] + header[1:] + indent(fn_body, 4)
        args = ", ".join(site.params + ["%s=%s" % (k, k) for k in site.kwonly])
        wrapper = list(site.header) + indent((site.doc or []) + ["out = []", "%s(out, %s)" % (inner_name, args),
                                                                 "return out[0]"], 4)
        return helper + ["", ""] + wrapper, anchor + len(header)
    if body_kind == "method":
        h0 = re.sub(r"def %s\(" % re.escape(site.name), "def %s(self, " % site.name, header[0], count=1)
        cls = "_%sSite" % "".join(p.capitalize() for p in site.name.split("_"))
        meth = ["class %s(object):" % cls] + indent([h0] + header[1:] + indent(fn_body, 4), 4)
        args = ", ".join(site.params + ["%s=%s" % (k, k) for k in site.kwonly])
        wrapper = list(site.header) + indent(["return %s().%s(%s)" % (cls, site.name, args)], 4)
        return meth + ["", ""] + wrapper, anchor + 1 + len(header)
    if body_kind == "static_method":
        cls = "_%sSite" % "".join(p.capitalize() for p in site.name.split("_"))
        meth = ["class %s:" % cls] + indent(["@staticmethod"] + header + indent(fn_body, 4), 4)
        args = ", ".join(site.params + ["%s=%s" % (k, k) for k in site.kwonly])
        wrapper = list(site.header) + indent(["return %s.%s(%s)" % (cls, site.name, args)], 4)
        return meth + ["", ""] + wrapper, anchor + 2 + len(header)
    return header + indent(fn_body, 4), anchor + len(header)


def extra_imports(c):
    need = []
    if c["lock"] == "nb_retry":
        need.append("import time")
    if c["handle"] == "io_open":
        need.append("import io")
    if c["handle"] == "path_open":
        need.append("from pathlib import Path")
    if c["hints"] == "hints" and c["handle"] in ("assign_open", "assign_open_acquire_in_try", "io_open",
                                                 "path_open"):
        need.append("import typing")
    if c["import"] == "importlib":
        need.append("import importlib")
    if c["import"] == "annotated_none":
        need.append("import types")
    return need


def check_combo(c):
    if c["lock"] == "msvcrt" and c["handle"] == "with_open" and False:
        raise Skip("")
    if c["alias"] == "from_import" and c["import"] == "importlib":
        raise Skip("importlib binds a module")
    if c["alias"] == "from_import" and c["place"] == "handler":
        # `flock(fd, LOCK_EX)` with the names missing raises NameError before
        # the call: that spelling was never a working fallback.
        raise Skip("from-imported names in the handler shape")


def lf101_module(mod, sites, c, lookalike=None, lookalike_site=None):
    """(new state.py text, [(function, line, lookalike)])."""
    check_combo(c)
    nm = Names(c)
    first, last = mod.import_block()
    repl = {}  # first line -> (last line, new lines, anchors[(name, index, lookalike)])
    imp = import_block_lines(c, nm)
    lines = mod.lines
    # Extra imports go right after `import sys`; the try/except import sits
    # between other imports when asked to ("whatever other imports sit nearby").
    sys_at = lines.index("import sys")
    have = set(lines)
    extra = [l for l in extra_imports(c) if l not in have]
    if lookalike in ("handler_logs", "finally_does_more", "copy_extra_stmt"):
        imp = imp + ["", "_LOG = []"]
    if c["import"] == "try_except_mid":
        json_at = lines.index("import json")
        repl[json_at] = (json_at, ["import json"] + imp, [])
        repl[first] = (last, [], [])
    else:
        repl[first] = (last, imp, [])
    repl[sys_at] = (sys_at, ["import sys"] + extra, [])
    for name in sites:
        site = Site(mod, name)
        la = lookalike if (lookalike and name == lookalike_site) else None
        new, anchor = site_function(c, nm, site, la)
        repl[site.fn.lineno - 1] = (site.fn.end_lineno - 1, new, [(name, anchor, la)])
    out, expected = [], []
    i = 0
    while i < len(lines):
        if i in repl:
            end, new, anchors = repl[i]
            for name, idx, la in anchors:
                expected.append({"function": name, "line": len(out) + idx + 1, "lookalike": la})
            out.extend(new)
            i = end + 1
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out), expected


# ---------------------------------------------------------------- LF201 ----

def lf201_function(mod, c):
    fn = mod.funcs["_state_file"]
    guard = next(s for s in fn.body if isinstance(s, ast.If))
    raise_lines = mod.stmt_lines(guard.body[0])
    g, alias = c["guard"], c["alias"]
    rp = {"plain": "os.path.realpath", "from_realpath": "realpath", "ospath_as": "osp.realpath"}[alias]
    cp = {"plain": "os.path.commonpath", "from_realpath": "os.path.commonpath", "ospath_as": "osp.commonpath"}[alias]
    dn = {"plain": "os.path.dirname", "from_realpath": "os.path.dirname", "ospath_as": "osp.dirname"}[alias]
    pre = ["state_dir = _state_dir()", "path = os.path.join(state_dir, _safe_filename(name))"]
    if c["comments"] == "code_like":
        pre.append("# raise if it escapes (a symlink could block us; st_ino is not checked)")
    if g == "inline":
        cond = ["if not %s(path).startswith(%s(state_dir) + os.sep):" % (rp, rp)]
    elif g == "intermediate":
        pre += ["resolved = %s(path)" % rp, "root = %s(state_dir)" % rp]
        cond = ["if not resolved.startswith(root + os.sep):"]
    elif g == "and_ne_dir":
        pre += ["resolved = %s(path)" % rp, "expected_dir = %s(state_dir)" % rp]
        cond = ["if not resolved.startswith(expected_dir + os.sep) and resolved != expected_dir:"]
    elif g == "dirname_ne":
        cond = ["if %s(%s(path)) != %s(state_dir):" % (dn, rp, rp)]
    elif g == "commonpath":
        pre += ["root = %s(state_dir)" % rp]
        cond = ["if %s([root, %s(path)]) != root:" % (cp, rp)]
    elif g == "realpath_dir_func":
        cond = ["if not %s(path).startswith(%s(_state_dir()) + os.sep):" % (rp, rp)]
    elif g == "slash":
        cond = ['if not %s(path).startswith(%s(state_dir) + "/"):' % (rp, rp)]
    elif g == "fstring_sep":
        cond = ['if not %s(path).startswith(f"{%s(state_dir)}{os.sep}"):' % (rp, rp)]
    elif g == "path_resolve_relative_to":
        if alias != "plain":
            raise Skip("Path spelling has no realpath alias")
        cond = ["if not Path(path).resolve().is_relative_to(Path(state_dir).resolve()):"]
    elif g == "path_resolve_parents":
        if alias != "plain":
            raise Skip("Path spelling has no realpath alias")
        cond = ["if Path(state_dir).resolve() not in Path(path).resolve().parents:"]
    else:
        raise ValueError(g)
    hdr = mod.header(fn)
    body = pre + cond + indent(raise_lines, 4) + ["return path"]
    # The finding is at the resolution of the (maybe missing) target.
    at = next(i for i, l in enumerate(body) if re.search(r"realpath\(path\)|Path\(path\)\.resolve\(\)", l))
    return fn, hdr + indent(body, 4), len(hdr) + at


def lf201_module(mod, c):
    fn, new, anchor = lf201_function(mod, c)
    lines = list(mod.lines)
    extra = []
    if c["alias"] == "from_realpath":
        extra.append("from os.path import realpath")
    if c["alias"] == "ospath_as":
        extra.append("import os.path as osp")
    if c["guard"].startswith("path_resolve"):
        extra.append("from pathlib import Path")
    os_at = lines.index("import os")
    head = lines[:os_at + 1] + [e for e in extra if e not in lines]
    shift = len(head) - (os_at + 1)
    out = head + lines[os_at + 1: fn.lineno - 1]
    line = len(out) + anchor + 1
    out += new + lines[fn.end_lineno:]
    assert shift >= 0
    return "\n".join(out), [{"function": "_state_file", "line": line, "lookalike": None}]


# ---------------------------------------------------------------- LF401 ----

def lf401_module(mod, c):
    fn = mod.funcs["write_state"]
    wi = next((s for s in ast.walk(fn) if isinstance(s, ast.With)), None)
    if wi is not None:
        call = wi.items[0].context_expr
        open_args = [mod.seg(a) for a in call.args[1:]] + ["%s=%s" % (k.arg, mod.seg(k.value))
                                                           for k in call.keywords]
        fvar = wi.items[0].optional_vars.id
        wbody = [l for s in wi.body for l in mod.stmt_lines(s)]
    else:  # the fixture writes without a `with` (write_text): the usual write, in our words
        open_args, fvar, wbody = ['"w"', 'encoding="utf-8"'], "fh", ["json.dump(data, fh)"]
    t, shape, rep = c["temp"], c["shape"], c["replace"]
    pre = ["path = _state_file(name)"]
    if c["comments"] == "code_like":
        pre.append("# write the temp (raise on failure), then os.replace(tmp, path) over the target")
    tmp_expr = {"name_plus": 'path + ".tmp"', "percent": '"%s.tmp" % path', "format": '"{}.tmp".format(path)',
                "fstring": 'f"{path}.tmp"'}
    if t == "inline":
        tmp = 'path + ".tmp"'
    elif t == "with_suffix_path":
        pre += ["target = Path(path)", 'tmp = target.with_suffix(target.suffix + ".tmp")']
        tmp = "tmp"
    else:
        pre += ["tmp = %s" % tmp_expr[t]]
        tmp = "tmp"
    opener = ("%s.open(%s)" % (tmp, ", ".join(open_args))) if t == "with_suffix_path" else \
        "open(%s)" % ", ".join([tmp] + open_args)
    dst = "target" if t == "with_suffix_path" else "path"
    repl_call = {"os_replace": "os.replace(%s, %s)", "os_rename": "os.rename(%s, %s)",
                 "from_replace": "replace(%s, %s)", "from_replace_as": "_replace(%s, %s)",
                 "os_as": "_os.replace(%s, %s)"}[rep] % (tmp, dst)
    write = ["with %s as %s:" % (opener, fvar)] + indent(wbody, 4) + [repl_call]
    if shape == "plain":
        body = write
    elif shape == "try_unlink":
        body = ["try:"] + indent(write, 4) + ["except OSError:", "    if os.path.exists(%s):" % tmp,
                                              "        os.unlink(%s)" % tmp, "    raise"]
    elif shape == "if_else":
        body = ["if isinstance(data, dict):"] + indent(write, 4) + ["else:"] + indent(write, 4)
    hdr = mod.header(fn)
    new = hdr + indent(pre + body, 4)
    lines = list(mod.lines)
    extra = []
    if rep == "from_replace":
        extra.append("from os import replace")
    if rep == "from_replace_as":
        extra.append("from os import replace as _replace")
    if rep == "os_as":
        extra.append("import os as _os")
    if t == "with_suffix_path":
        extra.append("from pathlib import Path")
    os_at = lines.index("import os")
    out = lines[:os_at + 1] + [e for e in extra if e not in lines] + lines[os_at + 1: fn.lineno - 1]
    # The finding: where the temp name is made (the assignment, or the inline open).
    if t == "inline":
        idx = len(pre) + (1 if shape in ("try_unlink", "if_else") else 0)
    else:
        idx = len(pre) - 1
    line = len(out) + len(hdr) + idx + 1
    out += new + lines[fn.end_lineno:]
    return "\n".join(out), [{"function": "write_state", "line": line, "lookalike": None}]


# ---------------------------------------------------------------- cases ----

# What the probe calls in each integration's lib.state (the locked functions).
PROBE_CALLS = {
    "claude-code": [["increment_turn_count", ["s"]], ["increment_turn_count", ["s"]],
                    ["mark_retained", ["r", 3]], ["mark_retained", ["r", 1]], ["forget_session", ["r"]],
                    ["forget_session", ["r"]]],
    "codex": [["increment_turn_count", ["s"]], ["increment_turn_count", ["s"]], ["track_retention", ["a"]],
              ["track_retention", ["b", 1]]],
    "omo": [["increment_turn_count", ["s"]], ["record_tool_use", ["s", "x"]], ["record_tool_use", ["s", "x"]],
            ["end_session", ["s"]]],
    "cline": [],
}
HERE = os.path.dirname(os.path.abspath(__file__))


def write_probe(dst, integ):
    with open(os.path.join(dst, "conftest.py"), encoding="utf-8") as f:
        env = re.search(r'monkeypatch.setenv\("([A-Z_]+)"', f.read()).group(1)
    calls = PROBE_CALLS.get(integ, [["increment_turn_count", ["s"]], ["increment_turn_count", ["s"]],
                                    ["increment_turn_count", ["t"]]])
    with open(os.path.join(HERE, "probe_template.py"), encoding="utf-8") as f:
        text = f.read().replace("@ENV@", env).replace("@CALLS@", json.dumps(calls))
    with open(os.path.join(dst, "tests", "test_zz_mutation_probe.py"), "w", encoding="utf-8") as f:
        f.write(text)


def one_at_a_time(dims, base):
    for d, values in dims.items():
        for v in values[1:]:
            c = dict(base)
            c[d] = v
            yield d, c


def generate(src_root, out_root, combos=40, seed=8):
    """Write every case under out_root/<case>/ (a copy of its fixture
    integration); return the manifest (list of dicts)."""
    rng = random.Random(seed)
    fixtures = os.path.join(src_root, "fixtures", "integrations")
    if os.path.exists(out_root):
        shutil.rmtree(out_root)
    os.makedirs(out_root)
    manifest = []
    mods = {n: Module(os.path.join(fixtures, n, "lib", "state.py")) for n in ALL_INTEGRATIONS}

    def emit(rule, integ, dim, c, make):
        try:
            text, sites = make()
        except Skip:
            return
        header, header_text = MODULE_HEADERS[len(manifest) % len(MODULE_HEADERS)]
        text, shift = with_header(text, header_text)
        sites = [dict(s, line=s["line"] + shift) for s in sites]
        cid = "%s-%03d-%s" % (rule.lower(), len(manifest), integ)
        dst = os.path.join(out_root, cid)
        shutil.copytree(os.path.join(fixtures, integ), dst,
                        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        with open(os.path.join(dst, "lib", "state.py"), "w", encoding="utf-8") as f:
            f.write(text)
        compile(text, cid, "exec")  # a generator bug, not a lockfix one
        write_probe(dst, integ)
        manifest.append({"id": cid, "rule": rule, "integration": integ, "dimension": dim, "choice": c,
                         "header": header,
                         "sites": sites, "lookalike": any(s["lookalike"] for s in sites)})

    for integ, sites in sorted(LF101_SITES.items()):
        mod = mods[integ]
        emit("LF101", integ, "base", dict(LF101_BASE), lambda c=dict(LF101_BASE): lf101_module(mod, sites, c))
        for dim, c in one_at_a_time(LF101_DIMS, LF101_BASE):
            emit("LF101", integ, dim, c, lambda c=c: lf101_module(mod, sites, c))
        for la in LF101_LOOKALIKES:
            c = dict(LF101_BASE)
            c["handle"] = rng.choice(["os_open", "with_open", "assign_open"])
            c["import"] = rng.choice(["platform", "try_except", "flag"])
            emit("LF101", integ, "lookalike:" + la, c,
                 lambda c=c, la=la: lf101_module(mod, sites, c, la, sites[0]))
    integs = sorted(LF101_SITES)
    n = 0
    while n < combos:
        c = {d: rng.choice(v) for d, v in LF101_DIMS.items()}
        integ = integs[n % len(integs)]
        before = len(manifest)
        emit("LF101", integ, "combination", c, lambda c=c, integ=integ: lf101_module(mods[integ], LF101_SITES[integ], c))
        n += 1 if len(manifest) > before else 0
    for integ in ALL_INTEGRATIONS:
        mod = mods[integ]
        emit("LF201", integ, "base", dict(LF201_BASE), lambda c=dict(LF201_BASE): lf201_module(mod, c))
        for dim, c in one_at_a_time(LF201_DIMS, LF201_BASE):
            emit("LF201", integ, dim, c, lambda c=c: lf201_module(mod, c))
        emit("LF401", integ, "base", dict(LF401_BASE), lambda c=dict(LF401_BASE): lf401_module(mod, c))
        for dim, c in one_at_a_time(LF401_DIMS, LF401_BASE):
            emit("LF401", integ, dim, c, lambda c=c: lf401_module(mod, c))
    for k in range(combos // 3):
        integ = ALL_INTEGRATIONS[k % len(ALL_INTEGRATIONS)]
        c = {d: rng.choice(v) for d, v in LF201_DIMS.items()}
        emit("LF201", integ, "combination", c, lambda c=c, integ=integ: lf201_module(mods[integ], c))
        c = {d: rng.choice(v) for d, v in LF401_DIMS.items()}
        emit("LF401", integ, "combination", c, lambda c=c, integ=integ: lf401_module(mods[integ], c))
    with open(os.path.join(out_root, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return manifest


if __name__ == "__main__":
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    m = generate(os.path.abspath(os.path.join(here, "..", "..")), sys.argv[1])
    from collections import Counter
    print(len(m), Counter(x["rule"] for x in m), sum(x["lookalike"] for x in m))
