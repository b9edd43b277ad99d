/* The control-flow graphs (lf_cfg_build with its Python and TS/JS front ends,
 * lf_pycfg and lf_tscfg) and the lock state over them (lf_cfg_lockstate_run):
 * exact edges for every construct of both languages, held / not held / maybe
 * held at marked statements, hostile nesting, and step counts that grow
 * linearly with the function's size and its nesting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/lf_test_check.h"
#include "sem_fixture.h"
#include "lf_cfg.h"
#include "lf_pycfg.h"
#include "lf_tscfg.h"
#include "lf_util.h"

/* A node's name in the rendering: its first line, and a letter for the kind
 * (S statement, C clause, W with-exit, D dispatch, F finally-exit); ENTRY is
 * "in", EXIT "out". An edge is "a>b", an exceptional one "a~b". */
static void node_name(const lf_cfg *g, uint32_t id, char *out, size_t cap) {
    const lf_cfg_node *n = lf_cfg_node_at(g, id);
    static const char kinds[] = "??SCWDF";
    if (n->kind == LF_CFG_ENTRY)
        snprintf(out, cap, "in");
    else if (n->kind == LF_CFG_EXIT)
        snprintf(out, cap, "out");
    else
        snprintf(out, cap, "%u%c", ts_node_start_point(n->stmt).row + 1, kinds[n->kind]);
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The graph of the snippet's first function (or of the module when it has
 * none), as its edges sorted and joined by spaces. */
static char *render(const char *code, lf_lang lang) {
    sem_fixture fx;
    int py = lang == LF_LANG_PYTHON;
    sem_fixture_parse(&fx, code, py ? "t.py" : "t.ts", lang);
    TSNode fn = sem_fixture_find(&fx, py ? "function_definition" : "function_declaration", NULL, 0);
    if (ts_node_is_null(fn))
        fn = ts_tree_root_node(fx.tree);
    lf_cfg *g = py ? lf_pycfg_build(&fx.src, fn) : lf_tscfg_build(&fx.src, fn);
    LF_VEC(char *) edges = {0};
    for (uint32_t v = 0; v < lf_cfg_size(g); v++) {
        const lf_cfg_edge *e = lf_cfg_edges_of(g, v);
        for (uint32_t k = 0; k < lf_cfg_node_at(g, v)->n_succ; k++) {
            char a[32], b[32], *s = lf_xmalloc(80);
            node_name(g, v, a, sizeof a);
            node_name(g, e[k].to, b, sizeof b);
            snprintf(s, 80, "%s%s%s", a, e[k].exceptional ? "~" : ">", b);
            LF_VEC_PUSH(&edges, s);
        }
    }
    qsort(edges.items, edges.len, sizeof *edges.items, str_cmp);
    size_t len = 1;
    for (size_t i = 0; i < edges.len; i++)
        len += strlen(edges.items[i]) + 1;
    char *out = lf_xcalloc(len, 1);
    for (size_t i = 0; i < edges.len; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, edges.items[i]);
        free(edges.items[i]);
    }
    LF_VEC_FREE(&edges);
    lf_cfg_free(g);
    sem_fixture_free(&fx);
    return out;
}

static void check_graph(int line, lf_lang lang, const char *code, const char *want) {
    char *got = render(code, lang);
    g_run++;
    if (strcmp(got, want) != 0) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: graph\n  want: %s\n  got:  %s\n", __FILE__, line, want, got);
    }
    free(got);
}
#define GRAPH(code, want) check_graph(__LINE__, LF_LANG_PYTHON, code, want)
#define TSGRAPH(code, want) check_graph(__LINE__, LF_LANG_TYPESCRIPT, code, want)

static void test_sequence_and_branches(void) {
    GRAPH("def f():\n"
          "    a()\n"
          "    b()\n",
          "2S>3S 3S>out in>2S");
    GRAPH("def f():\n"
          "    pass\n", "2S>out in>2S");
    /* if / elif / else: each condition falls to the next clause */
    GRAPH("def f(x):\n"
          "    if x:\n"
          "        a()\n"
          "    elif y:\n"
          "        b()\n"
          "    else:\n"
          "        c()\n"
          "    d()\n",
          "2S>3S 2S>4C 3S>8S 4C>5S 4C>6C 5S>8S 6C>7S 7S>8S 8S>out in>2S");
    /* an if without else also goes straight on */
    GRAPH("def f(x):\n"
          "    if x:\n"
          "        a()\n"
          "    d()\n",
          "2S>3S 2S>4S 3S>4S 4S>out in>2S");
    /* match: any case, or on when none matched */
    GRAPH("def f(x):\n"
          "    match x:\n"
          "        case 1:\n"
          "            a()\n"
          "        case _:\n"
          "            b()\n"
          "    c()\n",
          "2S>3C 2S>5C 2S>7S 3C>4S 4S>7S 5C>6S 6S>7S 7S>out in>2S");
}

static void test_loops(void) {
    /* the body loops back to the header; else runs when the loop ends, not on break */
    GRAPH("def f(r):\n"
          "    for i in r:\n"
          "        if i:\n"
          "            break\n"
          "        continue\n"
          "    else:\n"
          "        e()\n"
          "    g()\n",
          "2S>3S 2S>6C 3S>4S 3S>5S 4S>8S 5S>2S 6C>7S 7S>8S 8S>out in>2S");
    /* a while whose body ends in a nested if returns to its header */
    GRAPH("def f():\n"
          "    while x:\n"
          "        if y:\n"
          "            a()\n"
          "    b()\n",
          "2S>3S 2S>5S 3S>2S 3S>4S 4S>2S 5S>out in>2S");
    /* `while True` only ends by a break (or return, raise) */
    GRAPH("def f():\n"
          "    while True:\n"
          "        if p:\n"
          "            break\n"
          "    z()\n",
          "2S>3S 3S>2S 3S>4S 4S>5S 5S>out in>2S");
    /* break in a loop's else leaves the loop around it */
    GRAPH("def f():\n"
          "    while p:\n"
          "        for i in r:\n"
          "            a()\n"
          "        else:\n"
          "            break\n"
          "    z()\n",
          "2S>3S 2S>7S 3S>4S 3S>5C 4S>3S 5C>6S 6S>7S 7S>out in>2S");
}

static void test_try(void) {
    /* a try body's statements raise into the dispatch (carrying the state
     * from before them), which tries each handler and, with no catch-all, the
     * finally; the finally's end goes on, out (a raise), or out (a return) */
    GRAPH("def f():\n"
          "    try:\n"
          "        a()\n"
          "    except ValueError:\n"
          "        b()\n"
          "    else:\n"
          "        c()\n"
          "    finally:\n"
          "        d()\n"
          "    e()\n",
          "10S>out 2D>4C 2D>8C 2F>10S 2F>out 2S>3S 3S>6C 3S~2D 4C>5S 5S>8C 5S~8C 6C>7S 7S>8C 7S~8C 8C>9S "
          "9S>2F in>2S");
    /* a bare except catches everything: the dispatch does not go on */
    GRAPH("def f():\n"
          "    try:\n"
          "        a()\n"
          "    except:\n"
          "        pass\n"
          "    b()\n",
          "2D>4C 2S>3S 3S>6S 3S~2D 4C>5S 5S>6S 6S>out in>2S");
    /* return and raise in a try pass through its finally */
    GRAPH("def f():\n"
          "    try:\n"
          "        return 1\n"
          "    finally:\n"
          "        c()\n",
          "2D>4C 2F>out 2S>3S 3S>4C 3S~2D 4C>5S 5S>2F in>2S");
    GRAPH("def f():\n"
          "    try:\n"
          "        raise E\n"
          "    except E:\n"
          "        pass\n",
          "2D>4C 2D>out 2S>3S 3S~2D 4C>5S 5S>out in>2S");
    /* break inside a try with finally inside a loop: through the finally, then out of the loop
       (a break evaluates nothing, so it has no exceptional edge: a lock taken just before a
       `break` in a retry loop is not held in the loop's handler) */
    GRAPH("def f():\n"
          "    while p:\n"
          "        try:\n"
          "            break\n"
          "        finally:\n"
          "            c()\n"
          "    z()\n",
          "2S>3S 2S>7S 3D>5C 3F>2S 3F>7S 3F>out 3S>4S 4S>5C 5C>6S 6S>3F 7S>out in>2S");
    /* an ImportError handler is reached from the import only, not from every statement of
       the try body (the state there is the state before the import); a general handler
       beside it still sees every statement */
    GRAPH("def f():\n"
          "    try:\n"
          "        import fcntl\n"
          "        a()\n"
          "    except ImportError:\n"
          "        b()\n"
          "    except OSError:\n"
          "        c()\n",
          "2D>7C 2D>out 2S>3S 3S>4S 3S~2D 3S~5C 4S>out 4S~2D 5C>6S 6S>out 7C>8S 8S>out in>2S");
}

static void test_with_and_nesting(void) {
    /* a with's body ends at its exit; a raise in it leaves through the exit */
    GRAPH("def f():\n"
          "    with lock:\n"
          "        a()\n"
          "    b()\n",
          "2S>3S 2W>4S 2W>out 3S>2W 3S~2W 4S>out in>2S");
    /* nested functions and classes are single statements */
    GRAPH("def f():\n"
          "    def g():\n"
          "        if x:\n"
          "            return\n"
          "    class C:\n"
          "        pass\n"
          "    g()\n",
          "2S>5S 5S>7S 7S>out in>2S");
    /* the module's top level */
    GRAPH("import os\n"
          "if os.name:\n"
          "    x = 1\n",
          "1S>2S 2S>3S 2S>out 3S>out in>1S");
    /* comments are not statements */
    GRAPH("def f():\n"
          "    # a\n"
          "    a()  # b\n"
          "    # c\n",
          "3S>out in>3S");
}

static void test_typescript(void) {
    /* if / else if / else: an else-if is an if inside the else clause; a
     * single-statement branch is its own block */
    TSGRAPH("function f(x) {\n"
            "  if (x) a();\n"
            "  else if (y) { b(); }\n"
            "  else c();\n"
            "  d();\n"
            "}\n",
            "2S>2S 2S>3C 2S>5S 3C>3S 3S>3S 3S>4C 3S>5S 4C>4S 4S>5S 5S>out in>2S");
    /* loops: the body goes back to the header; break leaves, continue goes back */
    TSGRAPH("function f() {\n"
            "  for (const k of ks) {\n"
            "    if (k) break;\n"
            "    continue;\n"
            "  }\n"
            "  do { x--; } while (x);\n"
            "  z();\n"
            "}\n",
            "2S>3S 2S>6S 3S>3S 3S>4S 3S>6S 4S>2S 6S>6S 6S>6S 6S>7S 7S>out in>2S");
    /* `for (;;)` and `while (true)` only end by a break */
    TSGRAPH("function f() {\n"
            "  for (;;) { if (p) break; }\n"
            "  while (true) { if (q) break; }\n"
            "  z();\n"
            "}\n",
            "2S>2S 2S>2S 2S>2S 2S>3S 3S>3S 3S>3S 3S>3S 3S>4S 4S>out in>2S");
    /* try/catch/finally: a catch takes every exception, so the dispatch goes
     * nowhere else; a throw in the body reaches it */
    TSGRAPH("function f() {\n"
            "  try {\n"
            "    throw new Error('x');\n"
            "  } catch (e) {\n"
            "    g();\n"
            "  } finally {\n"
            "    h();\n"
            "  }\n"
            "  return 1;\n"
            "}\n",
            "2D>4C 2F>9S 2F>out 2S>3S 3S~2D 4C>5S 5S>6C 5S~6C 6C>7S 7S>2F 9S>out in>2S");
    /* switch: any case, a case's end falls into the next, break leaves */
    TSGRAPH("function f(x) {\n"
            "  switch (x) {\n"
            "    case 1: p();\n"
            "    case 2: q(); break;\n"
            "    default: r();\n"
            "  }\n"
            "  s();\n"
            "}\n",
            "2S>3C 2S>4C 2S>5C 2S>7S 3C>3S 3S>4S 4C>4S 4S>4S 4S>7S 5C>5S 5S>7S 7S>out in>2S");
    /* the program's top level */
    TSGRAPH("const k = 1;\n"
            "if (k) { go(); }\n",
            "1S>2S 2S>2S 2S>out 2S>out in>1S");
    /* an arrow function's block body; an expression body has no statements */
    TSGRAPH("const g = async () => { await z(); };\n"
            "function f() { return 1; }\n",
            "2S>out in>2S");
}

/* ---- lock state ---- */

/* Runs the dataflow on the snippet's first function (or arrow function): a
 * simple statement whose text contains "acquire" takes slot 0 and one
 * containing "release" frees it; a Python `with lock` holds slot 0 in its
 * body. Returns the state at the first statement whose text is `probe`: 'H'
 * held on every path, 'M' on some, 'N' on none, '?' not found. */
static char state_at_in(lf_lang lang, const char *fn_type, const char *code, const char *probe) {
    sem_fixture fx;
    int py = lang == LF_LANG_PYTHON;
    sem_fixture_parse(&fx, code, py ? "t.py" : "t.ts", lang);
    TSNode fn = sem_fixture_find(&fx, fn_type, NULL, 0);
    lf_cfg *g = py ? lf_pycfg_build(&fx.src, fn) : lf_tscfg_build(&fx.src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    int32_t at = -1;
    for (uint32_t v = 0; v < n; v++) {
        const lf_cfg_node *nd = lf_cfg_node_at(g, v);
        if (nd->kind == LF_CFG_WITH_EXIT) {
            kill[v] = 1;
            continue;
        }
        if (nd->kind != LF_CFG_STMT)
            continue;
        char *text = lf_tree_text(&fx.src, nd->stmt);
        if (lf_tree_is(nd->stmt, "with_statement")) {
            if (strstr(text, "with lock"))
                gen[v] = 1;
        } else if (lf_tree_is(nd->stmt, "expression_statement") || lf_tree_is(nd->stmt, "lexical_declaration")) {
            if (strstr(text, "acquire"))
                gen[v] = 1;
            if (strstr(text, "release"))
                kill[v] = 1;
        }
        if (at < 0 && strcmp(text, probe) == 0)
            at = (int32_t)v;
        free(text);
    }
    lf_cfg_lockstate st;
    lf_cfg_lockstate_run(g, gen, kill, 0, &st);
    char r = at < 0 ? '?' : (st.must_in[at] & 1) ? 'H' : (st.may_in[at] & 1) ? 'M' : 'N';
    lf_cfg_lockstate_free(&st);
    free(gen);
    free(kill);
    lf_cfg_free(g);
    sem_fixture_free(&fx);
    return r;
}

static char state_at(const char *code, const char *probe) {
    return state_at_in(LF_LANG_PYTHON, "function_definition", code, probe);
}

static void check_got(int line, const char *probe, char want, char got) {
    g_run++;
    if (got != want) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: lock state at `%s`: want %c, got %c\n", __FILE__, line, probe, want, got);
    }
}
#define STATE(code, probe, want) check_got(__LINE__, probe, want, state_at(code, probe))
#define TSSTATE(fn_type, code, probe, want)                                                                            \
    check_got(__LINE__, probe, want, state_at_in(LF_LANG_TYPESCRIPT, fn_type, code, probe))

static void test_lockstate(void) {
    const char *seq = "def f():\n"
                      "    before()\n"
                      "    lock.acquire()\n"
                      "    inside()\n"
                      "    lock.release()\n"
                      "    after()\n";
    STATE(seq, "before()", 'N');
    STATE(seq, "inside()", 'H');
    STATE(seq, "after()", 'N');
    /* taken on one branch only */
    const char *branch = "def f(x):\n"
                         "    if x:\n"
                         "        lock.acquire()\n"
                         "    work()\n";
    STATE(branch, "work()", 'M');
    /* the try/finally idiom: held in the body, released after */
    const char *fin = "def f():\n"
                      "    lock.acquire()\n"
                      "    try:\n"
                      "        work()\n"
                      "    finally:\n"
                      "        lock.release()\n"
                      "    after()\n";
    STATE(fin, "work()", 'H');
    STATE(fin, "after()", 'N');
    /* an acquire that raises took nothing: the handler and what follows it
     * may run without the lock (the swallowed-failure fallback) */
    const char *swallow = "def f():\n"
                          "    try:\n"
                          "        lock.acquire()\n"
                          "    except OSError:\n"
                          "        warn()\n"
                          "    work()\n";
    STATE(swallow, "warn()", 'N');
    STATE(swallow, "work()", 'M');
    /* a with over a lock: held inside, not after (nor in a handler after a raise) */
    const char *with = "def f():\n"
                       "    try:\n"
                       "        with lock:\n"
                       "            work()\n"
                       "        after()\n"
                       "    except E:\n"
                       "        handler()\n";
    STATE(with, "work()", 'H');
    STATE(with, "after()", 'N');
    STATE(with, "handler()", 'N');
    /* released in a loop's body, taken again at its top */
    const char *loop = "def f(r):\n"
                       "    for i in r:\n"
                       "        lock.acquire()\n"
                       "        step()\n"
                       "        lock.release()\n"
                       "    done()\n";
    STATE(loop, "step()", 'H');
    STATE(loop, "done()", 'N');
    /* an early return of the unlocked path */
    const char *early = "def f(x):\n"
                        "    if not lock.acquire(timeout=1):\n"
                        "        return\n"
                        "    work()\n";
    (void)early; /* the condition is a header: it is not counted as an acquire here */
    const char *early2 = "def f(x):\n"
                         "    ok = lock.acquire(timeout=1)\n"
                         "    if not ok:\n"
                         "        return\n"
                         "    work()\n";
    STATE(early2, "work()", 'H');
    /* unreachable code holds nothing */
    const char *dead = "def f():\n"
                       "    return\n"
                       "    lock.acquire()\n"
                       "    dead()\n";
    STATE(dead, "dead()", 'N');
}

static void test_ts_lockstate(void) {
    /* the try/finally idiom, and a catch that swallows a failed acquire */
    const char *fin = "function f() {\n"
                      "  lock.acquire();\n"
                      "  try {\n"
                      "    work();\n"
                      "  } finally {\n"
                      "    lock.release();\n"
                      "  }\n"
                      "  after();\n"
                      "}\n";
    TSSTATE("function_declaration", fin, "work();", 'H');
    TSSTATE("function_declaration", fin, "after();", 'N');
    const char *swallow = "const f = async () => {\n"
                          "  try {\n"
                          "    await lock.acquire();\n"
                          "  } catch (e) {\n"
                          "    warn(e);\n"
                          "  }\n"
                          "  await work();\n"
                          "};\n";
    TSSTATE("arrow_function", swallow, "warn(e);", 'N');
    TSSTATE("arrow_function", swallow, "await work();", 'M');
    /* a switch case that releases falls into the next one */
    const char *sw = "function f(x) {\n"
                     "  lock.acquire();\n"
                     "  switch (x) {\n"
                     "    case 1: lock.release();\n"
                     "    case 2: two(); break;\n"
                     "  }\n"
                     "  lock.release();\n"
                     "}\n";
    TSSTATE("function_declaration", sw, "two();", 'M');
}

/* ---- cost ---- */

static char *repeat(const char *head, const char *unit, size_t n, const char *tail) {
    size_t len = strlen(head) + strlen(unit) * n + strlen(tail) + 1;
    char *s = lf_xmalloc(len), *p = s;
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s", unit);
    sprintf(p, "%s", tail);
    return s;
}

/* nested ifs, each one level (one space) deeper */
static char *nested(size_t depth) {
    size_t cap = (depth + 1) * (depth + 2) / 2 + 8 * (depth + 1) + 64;
    char *s = lf_xmalloc(cap), *p = s;
    p += sprintf(p, "def f():\n");
    for (size_t i = 0; i < depth; i++) {
        memset(p, ' ', i + 1);
        p += i + 1;
        p += sprintf(p, "if x:\n");
    }
    memset(p, ' ', depth + 1);
    p += depth + 1;
    sprintf(p, "a()\n");
    return s;
}

static unsigned long long steps_in(lf_lang lang, const char *code) {
    sem_fixture fx;
    int py = lang == LF_LANG_PYTHON;
    sem_fixture_parse(&fx, code, py ? "t.py" : "t.ts", lang);
    TSNode fn = sem_fixture_find(&fx, py ? "function_definition" : "function_declaration", NULL, 0);
    unsigned long long before = lf_work_steps;
    lf_cfg *g = py ? lf_pycfg_build(&fx.src, fn) : lf_tscfg_build(&fx.src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    for (size_t i = 2; i < n; i += 3)
        gen[i] = (uint64_t)1 << (i % 64); /* many slots: the worst case for the sets */
    for (size_t i = 3; i < n; i += 5)
        kill[i] = ~(uint64_t)0;
    lf_cfg_lockstate st;
    lf_cfg_lockstate_run(g, gen, kill, 0, &st);
    unsigned long long steps = lf_work_steps - before;
    lf_cfg_lockstate_free(&st);
    free(gen);
    free(kill);
    lf_cfg_free(g);
    sem_fixture_free(&fx);
    return steps;
}

static unsigned long long steps_for(const char *code) { return steps_in(LF_LANG_PYTHON, code); }

static void check_linear(int line, const char *what, unsigned long long small, unsigned long long big) {
    g_run++;
    /* twice the input: at most a little over twice the steps */
    if (big > small * 2 + small / 4 + 64) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: %s: %llu steps, then %llu for twice the size\n", __FILE__, line, what, small,
                big);
    }
}

static void test_cost(void) {
    const char *unit = "    try:\n"
                       "        with lock:\n"
                       "            if a:\n"
                       "                b()\n"
                       "            else:\n"
                       "                break\n"
                       "    except E:\n"
                       "        pass\n"
                       "    finally:\n"
                       "        c()\n";
    char *loop_a = repeat("def f():\n  while p:\n", unit, 2000, "");
    char *loop_b = repeat("def f():\n  while p:\n", unit, 4000, "");
    /* the units sit in a loop body: re-indent them one level deeper is not
     * needed, tree-sitter accepts the body at any consistent indentation */
    check_linear(__LINE__, "statements", steps_for(loop_a), steps_for(loop_b));
    free(loop_a);
    free(loop_b);
    char *deep_a = nested(400), *deep_b = nested(800);
    check_linear(__LINE__, "nesting", steps_for(deep_a), steps_for(deep_b));
    free(deep_a);
    free(deep_b);
    /* TS/JS: a switch, try and loop per unit; nested blocks */
    const char *tsunit = "    try { switch (a) { case 1: b(); case 2: break; default: c(); } }\n"
                         "    catch (e) { continue; } finally { d(); }\n";
    char *ts_a = repeat("function f() {\n  while (p) {\n", tsunit, 2000, "  }\n}\n");
    char *ts_b = repeat("function f() {\n  while (p) {\n", tsunit, 4000, "  }\n}\n");
    check_linear(__LINE__, "TS statements", steps_in(LF_LANG_TYPESCRIPT, ts_a), steps_in(LF_LANG_TYPESCRIPT, ts_b));
    free(ts_a);
    free(ts_b);
    char *tsd_a = repeat("function f() {\n", "if (x) {\n", 400, ""), *tsd_b = repeat("function f() {\n", "if (x) {\n", 800, "");
    char *tsd_a2 = repeat(tsd_a, "}\n", 401, ""), *tsd_b2 = repeat(tsd_b, "}\n", 801, "");
    check_linear(__LINE__, "TS nesting", steps_in(LF_LANG_TYPESCRIPT, tsd_a2), steps_in(LF_LANG_TYPESCRIPT, tsd_b2));
    free(tsd_a);
    free(tsd_b);
    free(tsd_a2);
    free(tsd_b2);
    /* hostile nesting: no recursion, so it only costs time */
    char *deep = nested(3000);
    g_run++;
    if (steps_for(deep) == 0) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: deep nesting built nothing\n", __FILE__, __LINE__);
    }
    free(deep);
}

int main(void) {
    test_sequence_and_branches();
    test_loops();
    test_try();
    test_with_and_nesting();
    test_typescript();
    test_lockstate();
    test_ts_lockstate();
    test_cost();
    return lf_test_check_summary();
}
