/* The Python semantic model: qualified names through every import and alias
 * form, scopes, optional modules and flags, presence tests in every polarity,
 * value types, name uses, and hostile nesting (the model never recurses). */
#include <stdlib.h>
#include <string.h>

#include "../engine/lf_test_check.h"
#include "sem_fixture.h"
#include "lf_lang.h"
#include "lf_pysem.h"
#include "lf_source.h"
#include "lf_tree.h"
#include "lf_util.h"

typedef struct parsed {
    sem_fixture t;
    lf_pysem *m;
} parsed;

static void parse(parsed *p, const char *text) {
    sem_fixture_parse(&p->t, text, "t.py", LF_LANG_PYTHON);
    p->m = lf_pysem_build(&p->t.src, ts_tree_root_node(p->t.tree));
}

static void done(parsed *p) {
    lf_pysem_free(p->m);
    sem_fixture_free(&p->t);
}

static TSNode find(parsed *p, const char *type, const char *text, int nth) {
    return sem_fixture_find(&p->t, type, text, nth);
}

/* The callee of the last call in the snippet whose text is `call`. */
static void check_callee(int line, const char *code, const char *call, const char *want) {
    parsed p;
    parse(&p, code);
    TSNode n = find(&p, "call", call, 0);
    const char *got = ts_node_is_null(n) ? "<no such call>" : lf_pysem_callee(p.m, n);
    if (!streq(got, want)) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: callee of `%s`: want %s, got %s\n", __FILE__, line, call, want ? want : "NULL",
                got ? got : "NULL");
    }
    g_run++;
    done(&p);
}
#define CALLEE(code, call, want) check_callee(__LINE__, code, call, want)

static void test_qualnames(void) {
    CALLEE("import os as _os\n_os.replace(a, b)\n", "_os.replace(a, b)", "os.replace");
    CALLEE("from os import replace as r\nr(a, b)\n", "r(a, b)", "os.replace");
    CALLEE("from os import path\npath.realpath(x)\n", "path.realpath(x)", "os.path.realpath");
    CALLEE("import os.path\nos.path.realpath(x)\n", "os.path.realpath(x)", "os.path.realpath");
    CALLEE("import os.path as osp\nosp.join(a)\n", "osp.join(a)", "os.path.join");
    CALLEE("import os\nrep = os.replace\nrep(a, b)\n", "rep(a, b)", "os.replace");
    CALLEE("import os\nosp = os.path\nosp.realpath(x)\n", "osp.realpath(x)", "os.path.realpath");
    CALLEE("open(p)\n", "open(p)", "open");
    CALLEE("def open(x):\n    pass\nopen(p)\n", "open(p)", NULL);
    CALLEE("import os\ndef f(os):\n    os.replace(a, b)\n", "os.replace(a, b)", NULL);
    CALLEE("import os\ndef f():\n    os.replace(a, b)\n", "os.replace(a, b)", "os.replace");
    CALLEE("import os\ndef f():\n    global os\n    os.replace(a, b)\n", "os.replace(a, b)", "os.replace");
    CALLEE("import os\nclass A:\n    os = 1\n    def f(self):\n        os.replace(a, b)\n", "os.replace(a, b)",
           "os.replace");
    CALLEE("def g():\n    import os as o\n    def h():\n        o.unlink(p)\n", "o.unlink(p)", "os.unlink");
    CALLEE("from pathlib import Path\nPath(p).write_text(s)\n", "Path(p).write_text(s)", "pathlib.Path.write_text");
    CALLEE("import pathlib\ndef f(p: pathlib.Path):\n    p.with_suffix('.tmp').write_text(s)\n",
           "p.with_suffix('.tmp').write_text(s)", "pathlib.Path.write_text");
    CALLEE("from pathlib import Path\ndef f(d):\n    p = Path(d) / 'x'\n    p.parent.mkdir()\n", "p.parent.mkdir()",
           "pathlib.Path.mkdir");
    CALLEE("from pathlib import Path\ndef f(d):\n    t = Path(d).with_suffix('.tmp')\n    t.replace(d)\n",
           "t.replace(d)", "pathlib.Path.replace");
    CALLEE("def f(d):\n    t = d + '.tmp'\n    t.replace('a', 'b')\n", "t.replace('a', 'b')", "str.replace");
    CALLEE("import importlib\nfcntl = importlib.import_module('fcntl')\nfcntl.flock(f, 2)\n", "fcntl.flock(f, 2)",
           "fcntl.flock");
    CALLEE("def f(p):\n    x = open(p)\n    x.close()\n", "x.close()", "io.IOBase.close");
    CALLEE("def f(p):\n    with open(p) as fh:\n        fh.fileno()\n", "fh.fileno()", "io.IOBase.fileno");
    CALLEE("from . import state\nstate.read_state(x)\n", "state.read_state(x)", ".state.read_state");
    CALLEE("from ..lib import state as s\ns.read_state(x)\n", "s.read_state(x)", "..lib.state.read_state");
    CALLEE("from a.b import (c as d, e)\nd(1)\ne(2)\n", "e(2)", "a.b.e");
    CALLEE("import fcntl as _f\ndef f(fd):\n    _f.flock(fd, _f.LOCK_EX)\n", "_f.flock(fd, _f.LOCK_EX)", "fcntl.flock");
    CALLEE("from fcntl import flock, LOCK_EX\nflock(fd, LOCK_EX)\n", "flock(fd, LOCK_EX)", "fcntl.flock");
    CALLEE("a = b\nb = a\na(1)\n", "a(1)", NULL); /* an alias cycle ends, unresolved */
    CALLEE("import os\nf = lambda p: os.unlink(p)\n", "os.unlink(p)", "os.unlink");
    CALLEE("import os\nx = [os.unlink(p) for p in ps]\n", "os.unlink(p)", "os.unlink");
    /* the same module imported twice is still that module inside functions */
    CALLEE("import os\ndef f(p):\n    os.open(p, 0)\nimport os\n", "os.open(p, 0)", "os.open");
    /* two different modules under one name: unknown inside functions */
    CALLEE("import os\ndef f(p):\n    os.open(p, 0)\nimport posix as os\n", "os.open(p, 0)", NULL);
}

static void test_qualname_of_expressions(void) {
    parsed p;
    parse(&p, "import sys\nimport os\nif sys.platform != 'win32':\n    pass\nx = os.sep\n");
    CHECK(streq(lf_pysem_qualname(p.m, find(&p, "attribute", "sys.platform", 0)), "sys.platform"), "sys.platform");
    CHECK(streq(lf_pysem_qualname(p.m, find(&p, "attribute", "os.sep", 0)), "os.sep"), "os.sep");
    done(&p);
}

/* ---- optional modules and presence ---- */

static int presence(parsed *p, const char *cond_text, const char **module) {
    const char *types[] = {"comparison_operator", "not_operator", "identifier", "call", "boolean_operator",
                           "parenthesized_expression", NULL};
    /* The condition of the first `if` whose condition reads cond_text. */
    for (int k = 0;; k++) {
        TSNode ifs = find(p, "if_statement", NULL, k);
        if (ts_node_is_null(ifs))
            break;
        TSNode c = lf_tree_field(ifs, "condition");
        if (!lf_tree_text_eq(&p->t.src, c, cond_text))
            continue;
        (void)types;
        const lf_pyoptional *o = NULL;
        int s = lf_pysem_presence_test(p->m, c, &o);
        *module = o ? o->module : NULL;
        return s;
    }
    *module = "<no such if>";
    return 99;
}

static void check_presence(int line, parsed *p, const char *cond, int want, const char *want_mod) {
    const char *mod = NULL;
    int got = presence(p, cond, &mod);
    g_run++;
    if (got != want || (want && !streq(mod, want_mod))) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: presence of `%s`: want %d (%s), got %d (%s)\n", __FILE__, line, cond, want,
                want_mod ? want_mod : "-", got, mod ? mod : "NULL");
    }
}
#define PRESENCE(p, cond, want, mod) check_presence(__LINE__, p, cond, want, mod)

static void test_platform_if_else(void) {
    parsed p;
    parse(&p, "import os, sys\n"
              "if sys.platform != 'win32':\n    import fcntl\nelse:\n    fcntl = None\n"
              "HAS_FCNTL = fcntl is not None\n"
              "def f():\n"
              "    if fcntl is not None: pass\n"
              "    if None is not fcntl: pass\n"
              "    if not (fcntl is None): pass\n"
              "    if fcntl: pass\n"
              "    if not fcntl: pass\n"
              "    if fcntl is None: pass\n"
              "    if fcntl == None: pass\n"
              "    if fcntl != None: pass\n"
              "    if bool(fcntl): pass\n"
              "    if sys.platform != 'win32': pass\n"
              "    if sys.platform == 'win32': pass\n"
              "    if os.name == 'nt': pass\n"
              "    if os.name != 'nt': pass\n"
              "    if os.name == 'posix': pass\n"
              "    if sys.platform.startswith('win'): pass\n"
              "    if HAS_FCNTL: pass\n"
              "    if not HAS_FCNTL: pass\n"
              "    if fcntl is not None and x: pass\n"
              "    if x: pass\n"
              "    have = fcntl is not None\n"
              "    if have: pass\n");
    CHECK(p.m->n_optionals == 1, "one optional module, got %zu", p.m->n_optionals);
    if (p.m->n_optionals == 1) {
        const lf_pyoptional *o = &p.m->optionals[0];
        CHECK(streq(o->name, "fcntl") && streq(o->module, "fcntl"), "fcntl");
        CHECK(o->fallback_kind == LF_PYFALLBACK_NONE_VALUE, "None fallback");
        CHECK(o->import_in_then == 1 && !ts_node_is_null(o->guard_condition), "guard condition");
    }
    PRESENCE(&p, "fcntl is not None", 1, "fcntl");
    PRESENCE(&p, "None is not fcntl", 1, "fcntl");
    PRESENCE(&p, "not (fcntl is None)", 1, "fcntl");
    PRESENCE(&p, "fcntl", 1, "fcntl");
    PRESENCE(&p, "not fcntl", -1, "fcntl");
    PRESENCE(&p, "fcntl is None", -1, "fcntl");
    PRESENCE(&p, "fcntl == None", -1, "fcntl");
    PRESENCE(&p, "fcntl != None", 1, "fcntl");
    PRESENCE(&p, "bool(fcntl)", 1, "fcntl");
    PRESENCE(&p, "sys.platform != 'win32'", 1, "fcntl");
    PRESENCE(&p, "sys.platform == 'win32'", -1, "fcntl");
    PRESENCE(&p, "os.name == 'nt'", -1, "fcntl");
    PRESENCE(&p, "os.name != 'nt'", 1, "fcntl");
    PRESENCE(&p, "os.name == 'posix'", 1, "fcntl");
    PRESENCE(&p, "sys.platform.startswith('win')", -1, "fcntl");
    PRESENCE(&p, "HAS_FCNTL", 1, "fcntl");
    PRESENCE(&p, "not HAS_FCNTL", -1, "fcntl");
    PRESENCE(&p, "fcntl is not None and x", 0, NULL);
    PRESENCE(&p, "x", 0, NULL);
    PRESENCE(&p, "have", 1, "fcntl");
    done(&p);
}

static void test_import_forms(void) {
    parsed p;
    parse(&p, "try:\n    import json\n    import fcntl\n    HAVE_LOCK = True\nexcept ImportError:\n"
              "    fcntl = None\n    HAVE_LOCK = False\n"
              "def f():\n    if HAVE_LOCK: pass\n    if fcntl: pass\n");
    CHECK(p.m->n_optionals == 1 && streq(p.m->optionals[0].module, "fcntl"), "try/except import");
    PRESENCE(&p, "HAVE_LOCK", 1, "fcntl");
    PRESENCE(&p, "fcntl", 1, "fcntl");
    done(&p);

    parse(&p, "fcntl = None\ntry:\n    import fcntl\nexcept ImportError:\n    pass\n"
              "def f():\n    if fcntl is not None: pass\n");
    CHECK(p.m->n_optionals == 1, "pre-bound None then try-import");
    PRESENCE(&p, "fcntl is not None", 1, "fcntl");
    done(&p);

    parse(&p, "import os\nif os.name == 'nt':\n    fcntl = None\nelse:\n    import fcntl\n"
              "def f():\n    if os.name != 'nt': pass\n");
    CHECK(p.m->n_optionals == 1 && p.m->optionals[0].import_in_then == 0, "import in else");
    PRESENCE(&p, "os.name != 'nt'", 1, "fcntl");
    done(&p);

    parse(&p, "import importlib\ntry:\n    fcntl = importlib.import_module('fcntl')\nexcept ImportError:\n"
              "    fcntl = None\ndef f():\n    if fcntl: pass\n");
    CHECK(p.m->n_optionals == 1 && streq(p.m->optionals[0].module, "fcntl"), "importlib");
    PRESENCE(&p, "fcntl", 1, "fcntl");
    done(&p);

    parse(&p, "try:\n    from filelock import FileLock\nexcept ImportError:\n    class FileLock:\n"
              "        def __init__(self, p): pass\n");
    CHECK(p.m->n_optionals == 1 && p.m->optionals[0].fallback_kind == LF_PYFALLBACK_STANDIN &&
              streq(p.m->optionals[0].module, "filelock.FileLock"),
          "stand-in class");
    done(&p);

    parse(&p, "try:\n    import fcntl as _fcntl\nexcept ModuleNotFoundError:\n    _fcntl = None\n"
              "NO_LOCKS = _fcntl is None\ndef f():\n    if not NO_LOCKS: pass\n");
    CHECK(p.m->n_optionals == 1 && streq(p.m->optionals[0].name, "_fcntl"), "aliased optional");
    PRESENCE(&p, "not NO_LOCKS", 1, "fcntl");
    done(&p);

    parse(&p, "import fcntl\ndef f():\n    if fcntl: pass\n");
    CHECK(p.m->n_optionals == 0, "an unconditional import is not optional");
    PRESENCE(&p, "fcntl", 0, NULL);
    done(&p);

    parse(&p, "if x:\n    import fcntl\n    fcntl = None\n");
    CHECK(p.m->n_optionals == 0, "import and None in one branch are not alternatives");
    done(&p);
}

/* ---- statements, scopes, uses ---- */

static void test_statements(void) {
    parsed p;
    parse(&p, "def f():\n    try:\n        a = 1\n        b = 2\n    except OSError:\n        pass\n    c = 3\n");
    int32_t sa = lf_pysem_stmt_of(p.m, find(&p, "integer", "1", 0));
    int32_t sb = lf_pysem_stmt_of(p.m, find(&p, "integer", "2", 0));
    int32_t sc = lf_pysem_stmt_of(p.m, find(&p, "integer", "3", 0));
    int32_t sp = lf_pysem_stmt_of(p.m, find(&p, "pass_statement", NULL, 0));
    CHECK(sa >= 0 && p.m->stmts[sa].clause == LF_PYCLAUSE_TRY_BODY, "a in the try body");
    CHECK(lf_pysem_next_sibling(p.m, sa) == sb, "b follows a");
    CHECK(lf_pysem_next_sibling(p.m, sb) == -1, "nothing after b in the try");
    CHECK(sp >= 0 && p.m->stmts[sp].clause == LF_PYCLAUSE_EXCEPT_BODY, "pass in the handler");
    int32_t tr = p.m->stmts[sa].parent;
    CHECK(tr >= 0 && lf_tree_is(p.m->stmts[tr].node, "try_statement"), "parent is the try");
    CHECK(lf_pysem_next_sibling(p.m, tr) == sc, "c follows the try");
    CHECK(p.m->scopes[p.m->stmts[sc].scope].kind == LF_PYSCOPE_FUNCTION, "c in f's scope");
    CHECK(lf_pysem_module_def(p.m, "f") >= 0, "f is a module-level def");
    done(&p);
}

static void test_name_uses(void) {
    parsed p;
    parse(&p, "import sys\nif sys.platform != 'win32':\n    import fcntl\nelse:\n    fcntl = None\n"
              "def a():\n    if fcntl is not None:\n        fcntl.flock(1, fcntl.LOCK_EX)\n"
              "def b(x):\n    return x.fcntl\n"
              "def c(fcntl):\n    return fcntl\n"
              "def d():\n    f(fcntl=1)\n");
    CHECK(lf_pysem_module_name_uses(p.m, "fcntl", NULL, 0) == 3, "three reads in a(), got %zu",
          lf_pysem_module_name_uses(p.m, "fcntl", NULL, 0));
    TSNode fa = find(&p, "function_definition", NULL, 0);
    lf_byte_range skip = {ts_node_start_byte(fa), ts_node_end_byte(fa)};
    CHECK(lf_pysem_module_name_uses(p.m, "fcntl", &skip, 1) == 0, "none outside a()");
    done(&p);

    parse(&p, "try:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n__all__ = ['fcntl']\n");
    CHECK(lf_pysem_module_name_uses(p.m, "fcntl", NULL, 0) == 1, "exported in __all__");
    done(&p);
}

/* A use inside the value a name is being bound from sees the binding before:
 * `fh = lock(fh)` reads the handle opened on the line above. */
static void test_binding_in_own_value(void) {
    parsed p;
    parse(&p, "def f(path):\n    fh = open(path)\n    fh = lock(fh)\n    x = h()\n    for x in g(x):\n        pass\n    return fh\n");
    TSNode arg = find(&p, "identifier", "fh", 2); /* the `fh` inside lock(fh) */
    const lf_pybinding *b = lf_pysem_binding_at(p.m, lf_pysem_scope_of(p.m, arg), "fh", ts_node_start_byte(arg));
    CHECK(b && b->kind == LF_PYBIND_ASSIGN && lf_tree_text_eq(&p.t.src, b->value, "open(path)"),
          "fh in lock(fh) sees fh = open(path)");
    TSNode ret = find(&p, "identifier", "fh", 3); /* the `fh` returned */
    b = lf_pysem_binding_at(p.m, lf_pysem_scope_of(p.m, ret), "fh", ts_node_start_byte(ret));
    CHECK(b && lf_tree_text_eq(&p.t.src, b->value, "lock(fh)"), "the return sees fh = lock(fh)");
    TSNode x = find(&p, "identifier", "x", 2); /* the `x` in g(x) */
    b = lf_pysem_binding_at(p.m, lf_pysem_scope_of(p.m, x), "x", ts_node_start_byte(x));
    CHECK(b && b->kind == LF_PYBIND_ASSIGN, "x in the loop's own iterable is x = h(), not the loop variable");
    done(&p);
}

static void test_types(void) {
    parsed p;
    parse(&p, "from pathlib import Path\nimport os\n"
              "def f(d, name: str, q: Path):\n"
              "    a = d + '.tmp'\n    b = f'{d}.tmp'\n    c = '%s.tmp' % d\n    e = os.path.join(d, name)\n"
              "    g = Path(d) / name\n    h = g.with_suffix('.tmp')\n    i = q.parent\n    j = os.open(d, 0)\n"
              "    k = open(d)\n    z = (a, b, c, e, g, h, i, j, k, name)\n");
    TSNode tuple = find(&p, "tuple", NULL, 0);
    lf_pytype want[] = {LF_PYTYPE_STR,  LF_PYTYPE_STR, LF_PYTYPE_STR, LF_PYTYPE_STR,  LF_PYTYPE_PATH,
                        LF_PYTYPE_PATH, LF_PYTYPE_PATH, LF_PYTYPE_FD, LF_PYTYPE_FILE, LF_PYTYPE_STR};
    for (uint32_t i = 0; i < 10; i++) {
        lf_pytype t = lf_pysem_type_of(p.m, lf_tree_child(tuple, i));
        CHECK(t == want[i], "type of element %u: want %d, got %d", i, want[i], t);
    }
    done(&p);
}

/* ---- hostile nesting: linear, no recursion ---- */

static char *repeat(const char *head, const char *unit, size_t n, const char *mid, const char *unit2, size_t n2,
                    const char *tail) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, head);
    for (size_t i = 0; i < n; i++)
        lf_strbuf_puts(&sb, unit);
    lf_strbuf_puts(&sb, mid);
    for (size_t i = 0; i < n2; i++)
        lf_strbuf_puts(&sb, unit2);
    lf_strbuf_puts(&sb, tail);
    return lf_strbuf_detach(&sb);
}

static void test_deep(void) {
    enum { N = 100000 };
    const char *prefix = "import os\ntry:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n";
    char *parens = repeat("", ")", N, "\n", "", 0, "");
    char *cases[] = {
        repeat(prefix, "", 0, "x = ", "(", N, "os.replace(a, b)"),
        repeat(prefix, "", 0, "x = ", "-", N, "1\n"),
        repeat(prefix, "", 0, "x = 1", "+1", N, "\n"),
        repeat(prefix, "", 0, "x = os", ".a", N, "\n"),
        repeat(prefix, "", 0, "t = p + '.tmp'\nx = t", ".strip()", N, "\n"),
        repeat(prefix, "", 0, "x = ", "not ", N, "fcntl\n"),
    };
    {
        char *c0 = lf_xasprintf("%s%s", cases[0], parens);
        free(cases[0]);
        cases[0] = c0;
        free(parens);
    }
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        parsed p;
        parse(&p, cases[k]);
        CHECK(p.m->n_optionals == 1, "case %zu: the optional import is still seen", k);
        for (size_t i = 0; i < p.m->n_calls; i++)
            (void)lf_pysem_type_of(p.m, p.m->calls[i].node);
        TSNode x = find(&p, "assignment", NULL, 0);
        for (int i = 1; !ts_node_is_null(find(&p, "assignment", NULL, i)); i++)
            x = find(&p, "assignment", NULL, i);
        TSNode v = lf_tree_field(x, "right");
        (void)lf_pysem_type_of(p.m, v);
        (void)lf_pysem_qualname(p.m, v);
        const lf_pyoptional *o;
        (void)lf_pysem_presence_test(p.m, v, &o);
        CHECK(lf_tree_equal(&p.t.src, v, &p.t.src, v, LF_TREE_EQ_IGNORE_ANNOTATION), "case %zu: equal to itself", k);
        done(&p);
        free(cases[k]);
    }
    /* Statements nested 3000 deep (the indentation alone is 4.5 MB). */
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import os\n");
    for (size_t i = 0; i < 3000; i++) {
        for (size_t s = 0; s < i; s++)
            lf_strbuf_putc(&sb, ' ');
        lf_strbuf_puts(&sb, "if x:\n");
    }
    for (size_t s = 0; s < 3000; s++)
        lf_strbuf_putc(&sb, ' ');
    lf_strbuf_puts(&sb, "os.replace(a, b)\n");
    parsed p;
    parse(&p, sb.data);
    TSNode call = find(&p, "call", NULL, 0);
    CHECK(streq(lf_pysem_callee(p.m, call), "os.replace"), "callee 3000 statements deep");
    CHECK(lf_pysem_stmt_of(p.m, call) >= 0, "statement of the deep call");
    done(&p);
    lf_strbuf_free(&sb);
}

int main(void) {
    test_qualnames();
    test_qualname_of_expressions();
    test_platform_if_else();
    test_import_forms();
    test_statements();
    test_name_uses();
    test_binding_in_own_value();
    test_types();
    test_deep();
    return lf_test_check_summary();
}
