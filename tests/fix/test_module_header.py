"""New imports go after the module header, in every spelling of it (issue 20,
item 4). A fix that imports `uuid`, `os` or the vendored `lockrt` must not put
the import above the module docstring (`__doc__` would become None) or above
`from __future__` imports (the module would no longer compile), nor between a
shebang and the rest, nor above a TS/JS directive prologue ("use strict").

For each header spelling and each import style of the module body, the patched
module must:
  - start with the original header byte for byte (nothing inserted inside it);
  - compile (`py_compile`), keep `__doc__` identical when both modules are
    imported by a real interpreter, and keep its `from __future__` imports
    first and unchanged;
  - need no second fix.
TS/JS: the header is kept as a prefix, the directives stay the first
statements, and `node --check` passes.

Byte-for-byte patches for a representative few are golden cases:
tests/fix/cases/lf401_header_*.py.in, tests/fix/ts/cases/lf401_header_*.in."""

import json
import os
import shutil
import subprocess

import pytest

from conftest import SRC, lockfix, need_tool

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"

# Module headers: the text before the module's first import or definition.
PY_HEADERS = {
    "none": "",
    "shebang": "#!/usr/bin/env python3\n",
    "shebang_doc": '#!/usr/bin/env python3\n"""Save things.\n\nUsage: save PATH\n"""\n',
    "encoding_doc": '# -*- coding: utf-8 -*-\n"""Save things."""\n',
    "shebang_encoding_licence_doc": "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n#\n"
    "# Copyright (c) 2024 Example Authors\n# SPDX-License-Identifier: MIT\n\n"
    '"""Save things."""\n\n',
    "licence_doc_future": '# Licensed under the Apache License 2.0\n"""Loaders."""\n'
    "from __future__ import annotations\n",
    "single_quote_doc": "'Save things.'\n",
    "raw_doc": 'r"""Save \\d+ things."""\n',
    "unicode_doc": "u'''Save things.'''\n",
    "concat_doc": '"Save " "things."\n',
    "concat_backslash_doc": '"Save " \\\n    "things."\n',
    "parenthesised_doc": '("Save "\n "things.")\n',
    "doc_then_comments": '"""Save things."""\n# Author: someone\n# vim: set ts=4:\n\n',
    "doc_trailing_comment": '"""Save things."""  # shown by --help\n',
    "futures_parenthesised": '"""Doc."""\nfrom __future__ import (\n    absolute_import,  # py2 callers\n'
    "    division,\n)\n# between the two\nfrom __future__ import annotations\n",
    "future_only": "# licence\nfrom __future__ import annotations\n\n",
    "comment_only": "# Copyright (c) 2024\n# All rights reserved.\n\n",
}

SITE = '''

def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data)
    {replace}(tmp, path)
'''
# How the module body imports: plain imports the fix adds `import uuid` among,
# from-imports (`from uuid import uuid4`), or none at all at the top level.
PY_BODIES = {
    "plain": "import json\nimport os\n" + SITE.format(replace="os.replace"),
    "from": "from os import replace\n" + SITE.format(replace="replace"),
    "none": SITE.format(replace="__import__('os').replace").lstrip("\n"),
}

CHECK = r'''
import ast, importlib.util, json, py_compile, sys

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

def futures(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    out, first = [], True
    for s in body:
        if isinstance(s, ast.ImportFrom) and s.module == "__future__":
            out.append(([a.name for a in s.names], first))
        else:
            first = False
    return out

before, after = sys.argv[1], sys.argv[2]
py_compile.compile(after, cfile=after + "c", doraise=True)
print(json.dumps({"doc": [load(before, "before").__doc__, load(after, "after").__doc__],
                  "future": [futures(before), futures(after)]}))
'''


def header_prefix(header):
    """The header up to its last line (the blank lines after it are not part of it)."""
    return header.rstrip("\n") + "\n" if header else ""


def python_facts(before, after):
    proc = subprocess.run([PYTHON, "-c", CHECK, str(before), str(after)], capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)


@pytest.mark.parametrize("body", sorted(PY_BODIES))
@pytest.mark.parametrize("header", sorted(PY_HEADERS))
def test_python_import_goes_after_the_header(tmp_path, header, body):
    text = PY_HEADERS[header] + PY_BODIES[body]
    orig = tmp_path / "orig" / "mod.py"
    work = tmp_path / "work" / "mod.py"
    for p in (orig, work):
        p.parent.mkdir()
        p.write_text(text)
    lockfix(["fix", "--no-config", "--select", "LF401", "--apply", "mod.py"], work.parent, 0)
    patched = work.read_text()
    assert "uuid" in patched and patched != text
    assert patched.startswith(header_prefix(PY_HEADERS[header])), patched
    facts = python_facts(orig, work)
    assert facts["doc"][0] == facts["doc"][1]
    assert facts["future"][0] == facts["future"][1]
    assert all(first for _, first in facts["future"][1])
    if "doc" in header:
        assert facts["doc"][1], "the header variant has a docstring: %r" % PY_HEADERS[header]
    again = lockfix(["fix", "--no-config", "--select", "LF401", "--diff", "mod.py"], work.parent, 0)
    assert again.stdout == b""


# LF101's fix imports the vendored binding (`from . import lockrt`): the
# fixture module of one integration, under other headers.
LF101_HEADERS = ["shebang_doc", "shebang_encoding_licence_doc", "licence_doc_future", "raw_doc",
                 "futures_parenthesised", "comment_only"]


@pytest.mark.parametrize("header", LF101_HEADERS)
def test_python_lockrt_import_goes_after_the_header(tmp_path, header):
    fixture = os.path.join(SRC, "fixtures", "integrations", "cursor", "lib")
    with open(os.path.join(fixture, "state.py"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[0].startswith('"""') and lines[0].endswith('"""')  # the fixture's one-line docstring
    text = PY_HEADERS[header] + "\n".join(lines[1:])
    for name in ("orig", "work"):
        shutil.copytree(fixture, tmp_path / name / "lib", ignore=shutil.ignore_patterns("__pycache__"))
        (tmp_path / name / "lib" / "state.py").write_text(text)
    work = tmp_path / "work" / "lib" / "state.py"
    lockfix(["fix", "--no-config", "--select", "LF101", "--apply", "lib/state.py"], tmp_path / "work", 0)
    patched = work.read_text()
    assert "from . import lockrt" in patched
    assert patched.startswith(header_prefix(PY_HEADERS[header])), patched
    # The package-relative import needs the package: compile and read __doc__
    # and the future imports from the source.
    proc = subprocess.run([PYTHON, "-c", r'''
import ast, json, py_compile, sys
out = []
for p in sys.argv[1:]:
    py_compile.compile(p, cfile=p + "c", doraise=True)
    code = compile(open(p, encoding="utf-8").read(), p, "exec")
    tree = ast.parse(open(p, encoding="utf-8").read())
    out.append([ast.get_docstring(tree, clean=False),
                [[a.name for a in s.names] for s in tree.body if isinstance(s, ast.ImportFrom) and s.module == "__future__"],
                code.co_flags])
print(json.dumps(out))
''', str(tmp_path / "orig" / "lib" / "state.py"), str(work)], capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    before, after = json.loads(proc.stdout)
    assert before == after
    assert before[0] or "doc" not in header


TS_HEADERS = {
    "shebang_strict": "#!/usr/bin/env node\n\"use strict\";\n",
    "ts_check_licence_directives": "// @ts-check\n/*\n * Copyright (c) 2024. MIT licence.\n */\n"
    "\"use strict\"\n'use client';\n\n",
    "reference_nocheck": "/// <reference types=\"node\" />\n// @ts-nocheck\n'use strict';\n",
    "shebang_comment": "#!/usr/bin/env node\n// A CLI that saves things.\n\n",
}
TS_BODIES = {
    ".cjs": 'const fs = require("fs");\n\nfunction save(final, text) {\n  const tmp = final + ".tmp";\n'
    "  fs.writeFileSync(tmp, text);\n  fs.renameSync(tmp, final);\n}\nmodule.exports = { save };\n",
    ".mjs": 'import fs from "node:fs";\n\nexport function save(final, text) {\n  const tmp = `${final}.tmp`;\n'
    "  fs.writeFileSync(tmp, text);\n  fs.renameSync(tmp, final);\n}\n",
}


@pytest.mark.parametrize("ext", sorted(TS_BODIES))
@pytest.mark.parametrize("header", sorted(TS_HEADERS))
def test_ts_import_goes_after_the_header(tmp_path, header, ext):
    node = need_tool("node")
    text = TS_HEADERS[header] + TS_BODIES[ext]
    mod = tmp_path / ("mod" + ext)
    mod.write_text(text)
    lockfix(["fix", "--no-config", "--select", "LF401", "--apply", mod.name], tmp_path, 0)
    patched = mod.read_text()
    assert "randomUUID" in patched and patched != text
    assert patched.startswith(header_prefix(TS_HEADERS[header])), patched
    proc = subprocess.run([node, "--check", str(mod)], capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    # The directives are still the first statements: node reports strict mode
    # from "use strict" only there.
    if "use strict" in TS_HEADERS[header] and ext == ".cjs":
        probe = subprocess.run([node, "-e", "const m = require(process.argv[1]); "
                                "const src = require('fs').readFileSync(process.argv[1], 'utf8'); "
                                "new Function(src.replace(/^#!.*\\n/, '') + '\\n;return (function(){return this})()')"
                                "() === undefined ? process.exit(0) : process.exit(3)", str(mod)],
                               capture_output=True)
        assert probe.returncode == 0, probe.stderr.decode()
    assert lockfix(["fix", "--no-config", "--select", "LF401", "--diff", mod.name], tmp_path, 0).stdout == b""
