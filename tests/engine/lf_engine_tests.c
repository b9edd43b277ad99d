/* Engine unit tests: source loading (FIFO, symlink, binary, UTF-8, columns),
 * rule validation messages, text predicates, fixes/no-fix reasons, --rules DIR
 * loading, and the clean-parse check. Each check prints what it expected. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_anchor.h"
#include "lf_engine_internal.h"
#include "lf_lang.h"
#include "lf_pymask.h"
#include "lf_queryshape.h"
#include "lf_rule.h"
#include "lf_rules_builtin.h"
#include "lf_source.h"
#include "lf_tree.h"
#include "lf_tsarena.h"
#include "lf_util.h"

#include "lf_test_check.h"

static char g_dir[256];

static char *write_file(const char *name, const char *data, size_t len) {
    char *p = lf_xasprintf("%s/%s", g_dir, name);
    FILE *f = fopen(p, "wb");
    fwrite(data, 1, len, f);
    fclose(f);
    return p;
}

/* ---- lf_source ---- */

static void test_source(void) {
    lf_source s;
    char *err = NULL;

    char *p = write_file("ok.py", "a = 1\r\nb = 'é'\n", 16);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_OK, "regular file loads");
    CHECK(lf_source_n_lines(&s) == 3 && lf_source_line_start(&s, 1) == 7, "line index: %zu lines", lf_source_n_lines(&s));
    size_t len;
    const char *l1 = lf_source_line(&s, 1, &len);
    CHECK(len == 5 && memcmp(l1, "a = 1", 5) == 0, "line 1 without CR: %.*s", (int)len, l1);
    uint32_t line, col;
    lf_source_position(&s, 7 + 7, &line, &col); /* the byte after 'é' (2 bytes) is "'" */
    CHECK(line == 2 && col == 7, "code-point column after a 2-byte char: %u:%u", line, col);
    lf_source_free(&s);
    free(p);

    p = write_file("bin.py", "a\0b", 3);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_BINARY, "NUL byte = binary");
    CHECK(err && strstr(err, "binary"), "binary message: %s", err ? err : "(null)");
    free(err);
    free(p);

    p = write_file("bad.py", "x = 1\ny = '\xc3\x28'\n", 12);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_BAD_UTF8, "invalid UTF-8 refused");
    CHECK(err && strstr(err, "line 2: invalid UTF-8"), "bad UTF-8 names the line: %s", err ? err : "(null)");
    free(err);
    free(p);

    /* Past the 8-byte ASCII fast path: the stray byte is still found exactly. */
    p = write_file("late.py", "# comment text here\nz = 'ok \xe2\x82\xac' + '\xff'\n", 39);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_BAD_UTF8, "late invalid byte refused");
    CHECK(err && strstr(err, "line 2: invalid UTF-8 (byte offset 36)"), "exact offset: %s", err ? err : "(null)");
    free(err);
    free(p);

    p = write_file("surrogate.py", "x = '\xed\xa0\x80'\n", 9);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_BAD_UTF8, "UTF-16 surrogate refused");
    free(err);
    free(p);

    p = write_file("overlong.py", "x = '\xc0\xaf'\n", 8);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_BAD_UTF8, "overlong encoding refused");
    free(err);
    free(p);

    /* A FIFO with no writer: opening must not block, and it is not read. */
    p = lf_xasprintf("%s/fifo.py", g_dir);
    CHECK(mkfifo(p, 0600) == 0, "mkfifo: %s", strerror(errno));
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_NOT_REGULAR, "FIFO refused without blocking");
    free(err);
    free(p);

    /* A symlink is never followed. */
    char *target = write_file("target.py", "x = 1\n", 6);
    p = lf_xasprintf("%s/link.py", g_dir);
    CHECK(symlink(target, p) == 0, "symlink: %s", strerror(errno));
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_NOT_REGULAR, "symlink refused");
    free(err);
    free(p);
    free(target);

    CHECK(lf_source_load(g_dir, LF_LANG_PYTHON, &s, &err) == LF_LOAD_NOT_REGULAR, "directory refused");
    free(err);
    p = lf_xasprintf("%s/missing.py", g_dir);
    CHECK(lf_source_load(p, LF_LANG_PYTHON, &s, &err) == LF_LOAD_IO_ERROR, "missing file is an I/O error");
    free(err);
    free(p);

    /* 4-byte characters count as one column each. */
    lf_source_from_text(&s, "m.py", LF_LANG_PYTHON, "s = '\xf0\x9f\x94\x92\xf0\x9f\x94\x92' + x\n", 20);
    lf_source_position(&s, 14, &line, &col);
    CHECK(line == 1 && col == 9, "column after two 4-byte chars: %u:%u", line, col);
    lf_source_free(&s);
}

/* ---- rule validation ---- */

static const char *k_docs = "\"docs\": {\"what\": \"w\", \"why\": \"y\", \"example\": \"e\", \"use_instead\": \"u\", "
                            "\"fix_safety\": \"f\"}";

static char *rule_json(const char *extra, const char *query) {
    return lf_xasprintf("{\n\"id\": \"LF999\",\n\"name\": \"test-rule\",\n\"summary\": \"s\",\n\"severity\": "
                        "\"warning\",\n\"languages\": [\"python\"],\n\"message\": \"m {{finding}}\",\n%s,\n\"fix\": "
                        "{\"safety\": \"none\"},\n%s\"queries\": {\"python\": %s}\n}\n",
                        k_docs, extra, query);
}

static void expect_rule_error(const char *json, const char *want) {
    lf_rule *r = NULL;
    char *err = NULL;
    int ok = lf_rule_parse(json, strlen(json), "t.json", &r, &err);
    CHECK(!ok && err && strcmp(err, want) == 0, "rule error\n  want: %s\n  got:  %s", want, err ? err : "(none)");
    free(err);
}

static void test_rule_errors(void) {
    char *j;
    expect_rule_error("{\"id\": \"LF1\",\n\"name\" \"x\"}", "t.json: line 2: invalid JSON near \"\"x\"}\"");
    expect_rule_error("[1]", "t.json: line 1: a rule file must hold one JSON object");

    j = rule_json("\"bogus\": 1,\n", "\"(identifier) @finding\"");
    expect_rule_error(j, "t.json: line 10: unknown key \"bogus\" in the rule (allowed: id, name, summary, severity, "
                         "languages, message, docs, fix, prefilter, queries, check, tests)");
    free(j);

    j = rule_json("", "\"(identifier @finding\"");
    expect_rule_error(j, "t.json: line 10: queries.python: syntax error at query line 1 col 13 (for python grammar), "
                         "near \"@finding\"");
    free(j);

    /* Shapes tree-sitter 0.25's query compiler reads one step past its array
     * on (lf_queryshape.h): refused with the pattern's position, before the
     * compiler sees them. */
    j = rule_json("", "\"(call function: (#eq? @f \\\"x\\\")) @finding\"");
    expect_rule_error(j, "t.json: line 10: queries.python: a field whose value is a predicate (a field must name a "
                         "node pattern) at query line 1 col 7");
    free(j);
    j = rule_json("", "[\"(call) @finding\", \"  ((#eq? @finding \\\"x\\\")) @y\"]");
    expect_rule_error(j, "t.json: line 10: queries.python: a group of predicates only (a group must hold a node "
                         "pattern) at query line 2 col 3");
    free(j);
    j = rule_json("", "\"[(identifier) (#eq? @a \\\"b\\\")] @finding\"");
    expect_rule_error(j, "t.json: line 10: queries.python: an alternation branch that is a predicate (each branch "
                         "must be a node pattern) at query line 1 col 15");
    free(j);
    j = rule_json("", "\"(identifier) @finding (#eq? @finding \\\"x\\\")\"");
    expect_rule_error(j, "t.json: line 10: queries.python: a predicate outside any pattern (it must follow a node "
                         "pattern inside a group or node) at query line 1 col 23");
    free(j);
    j = rule_json("", "\"(identifier) @finding \u00e9\"");
    expect_rule_error(j, "t.json: line 10: queries.python: a non-ASCII byte outside a string or comment at query "
                         "line 1 col 23");
    free(j);

    j = rule_json("", "[\"(identifier) @x\", \"(no_such_node) @finding\"]");
    expect_rule_error(j, "t.json: line 10: queries.python: unknown node type at query line 2 col 2 (for python "
                         "grammar), near \"no_such_node) @finding\"");
    free(j);

    j = rule_json("", "\"((identifier) @finding (#frob? @finding))\"");
    expect_rule_error(j, "t.json: line 10: queries.python: unknown predicate #frob? (supported: #eq? #not-eq? "
                         "#match? #not-match? #any-of? #not-any-of? #qualname? #not-qualname? and the any- forms)");
    free(j);

    j = rule_json("", "\"((identifier) @finding (#match? @finding \\\"a(\\\"))\"");
    expect_rule_error(j, "t.json: line 10: queries.python: #match?: bad regex \"a(\": unmatched (");
    free(j);

    j = rule_json("", "\"(identifier) @x\"");
    expect_rule_error(j, "t.json: line 10: queries.python: a rule without a \"check\" must capture @finding");
    free(j);
    j = rule_json("", "\"(identifier) @finding\"");
    char *k = strstr(j, "m {{finding}}");
    memcpy(k, "m {{x}}      ", 13); /* same length: only the capture name changes */
    expect_rule_error(j, "t.json: line 7: message uses {{x}} but queries.python has no @x capture");
    free(j);

    j = rule_json("\"check\": \"no_such_check\",\n", "\"(identifier) @finding\"");
    expect_rule_error(j, "t.json: line 10: unknown check \"no_such_check\"");
    free(j);

    j = rule_json("\"prefilter\": [\"\"],\n", "\"(identifier) @finding\"");
    expect_rule_error(j, "t.json: line 10: \"prefilter\" entries must be non-empty strings");
    free(j);

    /* A regex habit in a literal (`\.`, an inner `\b`) would never match. */
    j = rule_json("\"prefilter\": [\"\\\\bBun\\\\.file\\\\b\"],\n", "\"(identifier) @finding\"");
    expect_rule_error(j, "t.json: line 10: \"prefilter\" literal \"\\bBun\\.file\\b\": a backslash is markup only as "
                         "\\b at either end (a literal is plain bytes, so \\. or an inner \\b never matches)");
    free(j);
    j = rule_json("\"prefilter\": [[\"lock\"], [\"a\\\\bc\"]],\n", "\"(identifier) @finding\"");
    expect_rule_error(j, "t.json: line 10: \"prefilter\" literal \"a\\bc\": a backslash is markup only as \\b at "
                         "either end (a literal is plain bytes, so \\. or an inner \\b never matches)");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\",\n\"severity\": \"fatal\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 2: severity \"fatal\" is not one of \"info\", \"warning\", \"error\"");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"cobol\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 2: unknown language \"cobol\" (known: python, typescript, javascript, tsx)");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\",\n\"docs\": {\"what\": \"w\"},\n"
                     "\"fix\": {\"safety\": \"none\"}, \"queries\": {\"python\": \"(identifier) @finding\"}}");
    expect_rule_error(j, "t.json: line 3: missing required key \"docs.why\"");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s,\n"
                     "\"fix\": {\"safety\": \"safe\",\n \"generator\": \"no_such_fixer\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 4: unknown fix generator \"no_such_fixer\"");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\",\n\"name\": 5, \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 2: \"name\" must be a string");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\", \"typescript\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 3: queries: \"typescript\" is not one of the rule's \"languages\"");
    free(j);

    j = lf_xasprintf("{\"id\": \"XX1\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 1: id \"XX1\" must look like LF123");
    free(j);

    j = lf_xasprintf("{\"id\": \"LF999\", \"name\": \"x\", \"summary\": \"s\", \"severity\": \"info\",\n"
                     "\"languages\": [\"python\"], \"message\": \"m\", %s, \"fix\": {\"safety\": \"none\"},\n"
                     "\"queries\": {\"python\": \"(identifier) @finding\"},\n"
                     "\"tests\": {\"invalid\": [{\"code\": \"x\", \"findings\": [[0, 1]]}]}}",
                     k_docs);
    expect_rule_error(j, "t.json: line 4: tests.invalid[0].findings entries must be [line, col] (1-based)");
    free(j);
}

/* ---- engine: predicates, columns, fixes ---- */

static char *findings_of(const char *rule_text, const char *code, int want_fixes, char **reason) {
    lf_rule *r = NULL;
    char *err = NULL;
    if (!lf_rule_parse(rule_text, strlen(rule_text), "inline", &r, &err)) {
        char *msg = lf_xasprintf("rule error: %s", err);
        free(err);
        return msg;
    }
    lf_ruleset set = {lf_xmalloc(sizeof(lf_rule *)), 1};
    set.rules[0] = r;
    lf_engine_options opts = {.rules = &set, .want_fixes = want_fixes, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, "t.py", LF_LANG_PYTHON, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    lf_engine_analyze(eng, &src, &f, &n, &err);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        lf_strbuf_printf(&sb, "%u:%u %s;", f[i].line, f[i].col, f[i].message);
        if (reason && f[i].no_fix_reason && !*reason)
            *reason = lf_xstrdup(f[i].no_fix_reason);
        lf_finding_free_contents(&f[i]);
    }
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    lf_ruleset_free(&set);
    return lf_strbuf_detach(&sb);
}

static void expect_findings(const char *query, const char *code, const char *want) {
    char *q = lf_xasprintf("\"%s\"", query);
    char *rule = rule_json("", q);
    char *got = findings_of(rule, code, 0, NULL);
    CHECK(strcmp(got, want) == 0, "query %s\n  want: %s\n  got:  %s", query, want, got);
    free(got);
    free(rule);
    free(q);
}

/* The one-pass literal scan: one-byte literals, a literal ending at the last
 * byte, AND of groups, and a file missing one group. */
static void test_prefilter_scan(void) {
    const char *q = "\"((identifier) @finding (#eq? @finding \\\"b\\\"))\"";
    char *rule = rule_json("\"prefilter\": [[\"b\"], [\"qq\", \"zz\"]],\n", q);
    char *got = findings_of(rule, "b = 1  # zz", 0, NULL);
    CHECK(strcmp(got, "1:1 m b;") == 0, "literal at end of file found: %s", got);
    free(got);
    got = findings_of(rule, "b = 1  # z", 0, NULL);
    CHECK(strcmp(got, "") == 0, "second group missing: rule skipped: %s", got);
    free(got);
    free(rule);
}

/* lf_pymask: comments and string texts blanked byte for byte, f-string
 * replacement fields kept as code; NULL wherever the structure is unsure. */
static void test_pymask(void) {
    static const char *const ok[][2] = {
        {"x = 'a#b'  # c(", "x = '   '      "},
        {"s = \"\"\"doc\nreplace\"\"\"\ny", "s = \"\"\"   \n       \"\"\"\ny"},
        {"f'{a.replace(b, c)}x'", "f'{a.replace(b, c)} '"},
        {"f'{{no}} {d[\"k\"]:>{w}}'", "f'       {d[\" \"]: {w}}'"},
        {"rb'\\'' + x", "rb'  ' + x"},
        {"f\"\\N{DASH}{x}\"", "f\"        {x}\""},
        {"rf'\\{x}'", "rf' {x}'"},
        {"f'''{\nx}'''", "f'''{\nx}'''"},
        {"'a' \\\n'b'", "' ' \\\n' '"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char *m = lf_pymask_code(ok[i][0], strlen(ok[i][0]), NULL, NULL);
        CHECK(m && strcmp(m, ok[i][1]) == 0, "pymask %s: got [%s], want [%s]", ok[i][0], m ? m : "(unsure)", ok[i][1]);
        free(m);
    }
    static const char *const unsure[] = {
        "'abc\nd'",        /* a line end in a one-line string */
        "'''never closed", /* the end of the text in a string */
        "f'{x # c}'",      /* a comment in a field */
        "f'{x['a']}'",     /* the f-string's own quote in its field */
        "f'{x:'>3}'",      /* a quote in a format spec */
        "f'{x\n}'",        /* a line end in a field of a one-line f-string */
        "f'}'",            /* a lone closing brace */
        "f'{x'",           /* a field left open */
    };
    for (size_t i = 0; i < sizeof unsure / sizeof unsure[0]; i++) {
        char *m = lf_pymask_code(unsure[i], strlen(unsure[i]), NULL, NULL);
        CHECK(m == NULL, "pymask %s: want unsure, got [%s]", unsure[i], m);
        free(m);
    }
}

/* lf_tsarena: a tree parsed in the region is the same tree the C library's
 * allocator gives; the region is reused across parses, not grown; memory from
 * before the window is still freed by the C library. */
static void test_tsarena(void) {
    lf_tsarena *a = lf_tsarena_new();
    TSParser *outside = ts_parser_new(); /* the C library's, made before any window */
    ts_parser_set_language(outside, lf_lang_grammar(LF_LANG_PYTHON));
    lf_strbuf src;
    lf_strbuf_init(&src);
    for (int i = 0; i < 2000; i++)
        lf_strbuf_printf(&src, "def f%d(x):\n    return [y * %d for y in x if y]\n", i, i);
    TSTree *want = ts_parser_parse_string(outside, NULL, src.data, (uint32_t)src.len);
    char *want_s = ts_node_string(ts_tree_root_node(want));
    size_t first = 0;
    for (int round = 0; round < 3; round++) {
        lf_tsarena_enter(a);
        TSParser *p = ts_parser_new();
        ts_parser_set_language(p, lf_lang_grammar(LF_LANG_PYTHON));
        TSTree *t = ts_parser_parse_string(p, NULL, src.data, (uint32_t)src.len);
        ts_parser_delete(p);
        lf_tsarena_leave();
        CHECK(t != NULL, "parsed in the region");
        char *got = ts_node_string(ts_tree_root_node(t)); /* outside the window: the C library's */
        CHECK(strcmp(got, want_s) == 0, "the region's tree is the same tree (round %d)", round);
        free(got);
        size_t used = lf_tsarena_used(a);
        CHECK(used > src.len, "the region holds the parse (%zu bytes)", used);
        if (round == 0)
            first = used;
        CHECK(used == first, "each parse takes the same memory from a reset region (%zu, then %zu)", first, used);
        lf_tree_forget(t);
        lf_tsarena_reset(a);
        CHECK(lf_tsarena_used(a) == 0, "reset empties the region");
    }
    free(want_s);
    ts_tree_delete(want);
    ts_parser_delete(outside);
    lf_strbuf_free(&src);
    lf_tsarena_free(a);
}

/* The Python gates of one file mask its text once (lf_pygate_masked): the
 * second gate reads the copy the first made. */
static void test_gates_share_mask(void) {
    const lf_check *c301 = lf_check_find("lf301_lock_removal"), *c302 = lf_check_find("lf302_mtime_staleness");
    if (!c301 || !c302 || !c301->gate || !c302->gate)
        return;
    const char *text = "import time\nitems.remove(x)\ntime.sleep(1)\n";
    lf_gate_text in = {text, strlen(text), LF_LANG_PYTHON, NULL, NULL, NULL};
    CHECK(!c301->gate(&in), "LF301's gate skips a list's remove");
    const void *first = in.shared;
    CHECK(first != NULL, "the first gate leaves the masked text for the others");
    CHECK(!c302->gate(&in), "LF302's gate skips time.sleep");
    CHECK(in.shared == first, "the second gate reads the same masked text");
    lf_gate_text_release(&in);
    CHECK(in.shared == NULL, "released");
}

/* LF103's gate (checks/lf103_unlocked_append.c): a file whose 'a' and 'x'
 * literals are all arguments of calls that are no open() is skipped; a mode
 * that may reach an open(), directly or through a name, is let through. */
static void test_lf103_gate(void) {
    const lf_check *c = lf_check_find("lf103_unlocked_append");
    CHECK(c && c->gate, "lf103_unlocked_append has a gate");
    if (!c || !c->gate)
        return;
    static const char *const skipped[] = {
        "x = Symbol('x')\ny = symbols('a')\nf = open(p)\n",
        "f = open(p, 'a')\ng = label(v, 'x')\n",
        "f = open(p, 'x')\nd = dict(k='a')\n",
        "f = open(p, 'a')  # open(p, 'x')\n",
        "f = open(p, 'a')\ns = g('x').upper()\n",
        "x = 'a'\ny = 'x'\n" /* no open() at all */,
        "f = open(p, 'a')\nh = g(\n    'x',\n)\n",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        CHECK(!lf_check_gate(c, NULL, skipped[i], strlen(skipped[i]), LF_LANG_PYTHON), "gate lets through: %s", skipped[i]);
    static const char *const through[] = {
        "open(p, 'x')\nopen(p, 'a')\n",
        "open(p, 'xb')\nopen(p, mode='a+')\n",
        "p.open('x')\np.open('at')\n",
        "import os\nos.open(p, os.O_CREAT | os.O_EXCL)\nos.open(p, os.O_APPEND)\n",
        "import os\nos.open(p, os.O_CREAT | os.O_EXCL)\nopen(p, 'a')\n",
        "MODE = 'x'\nopen(p, MODE)\nopen(p, 'a')\n",
        "modes = ('x', 'a')\nopen(p, modes[0])\n",
        "def f(p, mode='x'):\n    open(p, mode)\nopen(p, 'a')\n",
        "g(lambda mode='x': open(p, mode))\nopen(p, 'a')\n",
        "open(p, 'a')\nm = 'x' if excl else 'w'\n",
        "open(p, 'a')\nif (m := 'x'):\n    open(p, m)\n",
        "open(p, 'a')\nh = (g)('x')\n",
        "open(p, 'a')\nh = g(*'x')\n",
        "open(p, 'a')\nx = f(b'x')\nopen(p, 'x'\n" /* unbalanced: unsure */,
        "open(p, 'a')\nx = \xc3\xa9" "f('x')\n",
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++)
        CHECK(lf_check_gate(c, NULL, through[i], strlen(through[i]), LF_LANG_PYTHON), "gate skips: %s", through[i]);
    CHECK(lf_check_gate(c, NULL, "x = 1\n", 6, LF_LANG_TYPESCRIPT), "gate is Python only");
}

/* LF401's gate (checks/lf401_shared_temp.c): a file whose replace, rename and
 * move are all str.replace-like is skipped; every spelling the check could
 * read as a rename, and every unsure shape, is let through. */
static void test_lf401_gate(void) {
    const lf_check *c = lf_check_find("lf401_shared_temp");
    CHECK(c && c->gate, "lf401_shared_temp has a gate");
    if (!c || !c->gate)
        return;
    static const char *const skipped[] = {
        "import os\nx = s.replace('a', 'b')\n",
        "import os, sys\nos.getcwd()\nx = a.b.replace(p, q, 1)  # os.replace(tmp, p)\n",
        "'''Replace and rename: os.replace(a) in a docstring.'''\nx = f(y).replace('\\\\', '/')\n",
        "shutil_like = t.move(a, b)\n",
        "y = f'{s.replace(\"a\", \"b\")}'\n",
        "def replace(a, b): pass\n", /* a definition calls nothing */
        "from shutil_like import move\nmove(a, b)\n", /* a bare move is shutil's only through an alias */
        "from dataclasses import replace\nc = replace(c)\nd = replace(c, a=1, b=2)\n",
        "from libfoo import (\n    replace,\n    rename,\n)\n", /* named, not called */
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        CHECK(!lf_check_gate(c, NULL, skipped[i], strlen(skipped[i]), LF_LANG_PYTHON), "gate lets through: %s", skipped[i]);
    static const char *const through[] = {
        "import os\nos.replace(a, b)\n",
        "import os\nos . rename(a, b)\n",
        "import shutil\nshutil.move(a, b)\n",
        "import os as o\nx = s.replace('a', 'b')\n",
        "from os import replace\nreplace(a, b)\n",
        "from os import rename as mv\nmv(a, b)\n",
        "import os\no = os\nx = s.replace('a', 'b')\n",
        "import os\nmv = os.replace\n",
        "m = __import__('os')\nx = s.replace('a', 'b')\n",
        "x = p.replace(target)\n",
        "x = p.replace(*args)\n",
        "x = p.replace(a, **kw)\n",
        "mv = p.replace\nmv(q)\n",
        "def replace(a, b): pass\nreplace(x, y)\n", /* LF401's query takes any bare replace(a, b) */
        "from dataclasses import replace\nc = replace(c, x=3)\n",
        "def f(rename):\n    return rename(a, b)\n",
        "x = (replace\n     (a, b))\n",
        "x = replace(*args)\n",
        "x = s.rename\n", /* a method taken as a value may be bound to a bare name */
        "replace = Path.replace\nreplace(p, q)\n",
        "import os\nx = os.\nreplace(a, b)\n", /* recovery may read one attribute across the line end */
        "x = s.replace('a',\n 'b'\n",
        "x = s.\\\n  replace(a, b) + p.rename(q)\n",
        "y = f'{p.replace(q)}'\n",
        "x = s.replace('a', 'b')  # f'{\nz = '\n",
        "x = \xc2\xa0replace(a, b)\n",
        "if x: import os\nx = s.replace('a', 'b')\n",
        /* syntax errors: the grammar's recovery may drop the receiver */
        "with [.replace(tmp, p)]\n",
        "x = .replace(tmp, p)\n",
        "x = s\n.replace(tmp, p)\n",
        "return .replace(tmp, p)\n",
        "x = s.replace(a, b))\n",
        "x = 1.x.replace(a, b)\n",
        "x = (s\n     .replace(a, b))\n", /* a line end before the dot: a hit, even inside brackets */
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++)
        CHECK(lf_check_gate(c, NULL, through[i], strlen(through[i]), LF_LANG_PYTHON), "gate skips: %s", through[i]);
    CHECK(lf_check_gate(c, NULL, "x = s.replace('a', 'b')\n", 24, LF_LANG_TYPESCRIPT), "gate is Python only");
}

/* LF301's gate (checks/lf301_lock_removal.c): a file whose every `remove` is
 * a list's or a widget's, with no other removal word and no rename, is
 * skipped; any spelling of a file removal or a rename aside is let through. */
static void test_lf301_gate(void) {
    const lf_check *c = lf_check_find("lf301_lock_removal");
    CHECK(c && c->gate, "lf301_lock_removal has a gate");
    if (!c || !c->gate)
        return;
    static const char *const skipped[] = {
        "import os, threading\nlock = threading.Lock()\nitems.remove(x)\n",
        "import os\nos.getpid()\nself.handlers.remove(h)  # os.remove(p)\n",
        "class Box:\n    def remove(self, item):\n        self.items.remove(item)\n",
        "def remove(p):\n    pass\nremove(p)\n",
        "from .store import remove\nremove(key)\n",
        "'''os.unlink(p) in a docstring'''\nf = a.b.remove\n",
        /* a removal, and no lock: nothing says lock at a word's start, nor an exclusive create, a pid, fcntl */
        "import os\nos.unlink(p)\n",
        "import os, shutil\n# the block, the clock\nos.remove(blocks)\nshutil.rmtree(build_dir)\n",
        "os.unlink(tmp)\nprint('unlinked', mylock)\nos.makedirs(d, exist_ok=True)\n",
        "os.unlink(p)\nx = v2lock\n",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        CHECK(!lf_check_gate(c, NULL, skipped[i], strlen(skipped[i]), LF_LANG_PYTHON), "gate lets through: %s", skipped[i]);
    /* every lock use the model reads, beside a removal */
    static const char *const locks[] = {
        "fd = os.open(p, os.O_CREAT | os.O_EXCL)\n", "open(p, 'x')\n", "open(p, mode=\"xb\")\n", "os.mkdir(d)\n",
        "os.link(a, b)\n", "os.symlink(a, b)\n", "q.hardlink_to(p)\n", "q.symlink_to(p)\n",
        "f.write(str(os.getpid()))\n", "fcntl.flock(fd, fcntl.LOCK_EX)\n", "import fcntl\n",
        "msvcrt.locking(fd, 1, 1)\n", "L = FileLock(p)\n", "L = InterProcessLock(p)\n", "P = '/tmp/app.lck'\n",
        "self._lock_path = p\n", "P = 'app\\nlock'\n", "P = '\\x41lock'\n", "import lockrt\n",
    };
    for (size_t i = 0; i < sizeof locks / sizeof locks[0]; i++) {
        char *text = lf_xasprintf("import os\nos.unlink(p)\n%s", locks[i]);
        CHECK(lf_check_gate(c, NULL, text, strlen(text), LF_LANG_PYTHON), "gate skips: %s", text);
        free(text);
    }
    static const char *const through[] = {
        "import os\nos.remove(p)\n",
        "import os\nos . remove(p)\n",
        "from os import remove\nremove(p)\n",
        "from os import remove as rm\nrm(p)\n",
        "import os as o\nitems.remove(x)\n",
        "import os\nrm = os.remove\n",
        "m = __import__('os')\nitems.remove(x)\n",
        "p.unlink()\n",
        "p.unlink(missing_ok=True)\n",
        "os.rmdir(d)\n",
        "shutil.rmtree(d)\n",
        "os.removedirs(d)\n",
        "import os\nos.rename(lock, lock + '.old')\n",
        "p.replace(aside)\n",
        "import os\nx = os.\nremove(p)\n",
        "x = items.remove(a\n",
        "x = \xc2\xa0remove(p)\n",
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++) {
        char *text = lf_xasprintf("LOCK = 'run.lock'\n%s", through[i]); /* a lock to remove */
        CHECK(lf_check_gate(c, NULL, text, strlen(text), LF_LANG_PYTHON), "gate skips: %s", text);
        free(text);
    }
    CHECK(lf_check_gate(c, NULL, "items.remove(x)\n", 16, LF_LANG_TYPESCRIPT), "gate is Python only");
}

/* LF302's gate (checks/lf302_mtime_staleness.c): a file that imports time to
 * sleep, with no mtime and no clock call, is skipped; every way of reading an
 * mtime or a clock is let through. */
static void test_lf302_gate(void) {
    const lf_check *c = lf_check_find("lf302_mtime_staleness");
    CHECK(c && c->gate, "lf302_mtime_staleness has a gate");
    if (!c || !c->gate)
        return;
    static const char *const skipped[] = {
        "import time\nimport threading\nlock = threading.Lock()\ntime.sleep(1)\n",
        "from time import sleep, monotonic\nt0 = monotonic()  # time.time()\n",
        "import os, threading\nx = 'time.time()'\nlock = threading.Lock()\n",
        "import datetime\nd = datetime.timedelta(1)\n",
        "from time import time\nstart = 0\n",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        CHECK(!lf_check_gate(c, NULL, skipped[i], strlen(skipped[i]), LF_LANG_PYTHON), "gate lets through: %s", skipped[i]);
    static const char *const through[] = {
        "import os\nage = os.path.getmtime(p)\n",
        "st = os.stat(p)\nx = st.st_mtime\n",
        "'''st_mtime in a docstring still passes: asked of the raw text'''\n",
        "import time\nnow = time.time()\n",
        "import time\nnow = time . time ()\n",
        "from time import time\nnow = time()\n",
        "from time import time as wall\nnow = wall()\n",
        "from time import sleep, time\n",
        "import time\nclock = time.time\n",
        "import time as t\nnow = t.time_ns()\n",
        "from datetime import datetime\nnow = datetime.now()\n",
        "import datetime\nnow = datetime.datetime.utcnow()\n",
        "from datetime import date\nd = date.today()\n",
        "def f(time):\n    return time\n",
        "x = (time.time()\n",
        "x = \xc2\xa0time.sleep(1)\n",
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++) {
        char *text = lf_xasprintf("import fcntl\n%s", through[i]); /* a lock to judge */
        CHECK(lf_check_gate(c, NULL, text, strlen(text), LF_LANG_PYTHON), "gate skips: %s", text);
        free(text);
    }
    /* an age, and no lock in the module: nothing to judge stale */
    static const char *const no_lock[] = {
        "import os, time\nif time.time() - os.path.getmtime(cache) > 60:\n    refresh()\n",
        "st = os.stat(p)\nold = st.st_mtime < time.time() - 3600  # the block's clock\n",
    };
    for (size_t i = 0; i < sizeof no_lock / sizeof no_lock[0]; i++)
        CHECK(!lf_check_gate(c, NULL, no_lock[i], strlen(no_lock[i]), LF_LANG_PYTHON), "gate lets through: %s", no_lock[i]);
    const char *locked = "import os, time\nif time.time() - os.path.getmtime(LOCK_PATH) > 60:\n    os.unlink(LOCK_PATH)\n";
    CHECK(lf_check_gate(c, NULL, locked, strlen(locked), LF_LANG_PYTHON), "gate skips: %s", locked);
    CHECK(lf_check_gate(c, NULL, "time.sleep(1)\n", 14, LF_LANG_TYPESCRIPT), "gate is Python only");
}

/* lf_queryshape: every shape the compiler handles passes, and each that it
 * reads past its steps on is refused at its pattern; what passes the check
 * and compiles agrees with ts_query_new on the Python grammar. */
static void test_query_shapes(void) {
    static const char *const pass[] = {
        "(identifier) @a",
        "((identifier) @a (#eq? @a \"x\"))",
        "(call function: (identifier) @f (#any-of? @f \"open\" \"mkdir\")) @c",
        "(call function: [(identifier) (attribute)] @f . (argument_list) !type) @c",
        "(call arguments: (argument_list . (_) @first (_)* @rest .)) @c",
        "; a comment with ( #eq? and ) and \"\n(identifier) @a ; trailing (#x)\n",
        "((string) @s (#match? @s \"[)(]#eq?\\\\\\\"\\n\"))",
        "(ERROR (MISSING identifier) @m) @e",
        "(MISSING \")\") @m",
        "(expression_statement (_)? @x (comment)+ @c) @s",
        "((identifier) @a . (identifier) @b (#not-eq? @a @b))",
        "\"def\" @kw _ @any",
        "(call function: (attribute object: (identifier) @o attribute: (identifier) @n) (#eq? @o \"os\")) @c",
        "(identifier @finding",      /* the compiler's own syntax error */
        "(call function: ",          /* ends inside a field: the compiler's */
        "(call (#eq? @nope \"x\"))", /* unknown capture: the compiler's */
    };
    static const struct {
        const char *text;
        size_t at;
        const char *why;
    } refuse[] = {
        {"(call function: (#eq? @f \"x\")) @c", 6, "a field whose value"},
        {"(call function: ((#eq? @f \"x\"))) @c", 16, "a group of predicates only"},
        {"(call function: [(#eq? @f \"x\")]) @c", 17, "an alternation branch"},
        {"((#eq? @a \"b\")) @c", 0, "a group of predicates only"},
        {"(call ((#eq? @a \"b\") (#eq? @a \"c\"))? (identifier) @a)", 6, "a group of predicates only"},
        {"[(identifier) (#eq? @a \"b\")] @c", 14, "an alternation branch"},
        {"(#eq? @a \"b\")", 0, "a predicate outside"},
        {"(identifier) @a\n  (.eq? @a \"b\")", 18, "a predicate outside"},
        {"(identifier) @a \xc2\xa0", 16, "a non-ASCII byte"},
        {"(identifier\xc3\xa9) @a", 11, "a non-ASCII byte"},
    };
    for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++) {
        size_t at = 0;
        const char *why = NULL;
        CHECK(lf_queryshape_check(pass[i], strlen(pass[i]), &at, &why), "shape passes: %s (refused at %zu: %s)", pass[i],
              at, why ? why : "");
    }
    for (size_t i = 0; i < sizeof refuse / sizeof refuse[0]; i++) {
        size_t at = 99;
        const char *why = NULL;
        int ok = lf_queryshape_check(refuse[i].text, strlen(refuse[i].text), &at, &why);
        CHECK(!ok && at == refuse[i].at && why && strncmp(why, refuse[i].why, strlen(refuse[i].why)) == 0,
              "shape refused: %s (got %d at %zu: %s)", refuse[i].text, ok, at, why ? why : "");
    }
    /* Nesting past 256 is refused at the innermost pattern it reached. */
    lf_strbuf deep = {0};
    for (int i = 0; i < 300; i++)
        lf_strbuf_puts(&deep, "(call ");
    size_t at = 0;
    const char *why = NULL;
    CHECK(!lf_queryshape_check(deep.data, deep.len, &at, &why) && at == 255 * 6 && why && strstr(why, "256"),
          "deep nesting refused at %zu: %s", at, why ? why : "");
    lf_strbuf_free(&deep);
    /* The passing shapes that are whole queries compile; the compiler and the
     * check agree on them (the three the compiler refuses are its own errors). */
    int compiled = 0;
    for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++) {
        uint32_t off = 0;
        TSQueryError qe = TSQueryErrorNone;
        TSQuery *q = ts_query_new(lf_lang_grammar(LF_LANG_PYTHON), pass[i], (uint32_t)strlen(pass[i]), &off, &qe);
        compiled += q != NULL;
        if (q)
            ts_query_delete(q);
        else if (i + 3 < sizeof pass / sizeof pass[0]) /* the last three are the compiler's errors */
            fprintf(stderr, "  not compiled (error %d at %u): %s\n", (int)qe, off, pass[i]);
    }
    CHECK(compiled == (int)(sizeof pass / sizeof pass[0]) - 3, "passing shapes that compile: %d", compiled);
}

/* The TS/JS gates of LF101 and LF104: a bundle's loaders, shaders and
 * blocks are skipped; every spelling the checks resolve goes through, in
 * code, strings and next to a non-ASCII space. */
static void test_ts_gates(void) {
    static const struct {
        const char *check, *code;
        int through;
    } cases[] = {
        {"lf104_unlocked_rmw", "loader.load(url, (gltf) => { writer.write(gltf); fs.compile(); });", 0},
        {"lf104_unlocked_rmw", "const s = loadTexture(u); saveImage(s); readPixels(); writeBuffer();", 0},
        {"lf104_unlocked_rmw", "const v = JSON.parse(fs.readFileSync(p)); v.n++; fs.writeFileSync(p, JSON.stringify(v));", 1},
        {"lf104_unlocked_rmw", "const v = await readJson(p); await outputJson(p, v);", 1},
        {"lf104_unlocked_rmw", "const v = readJSON(p); fs['rename'](t, p);", 1},
        {"lf104_unlocked_rmw", "const v = readFile(p); await fsx.moveSync(t, p);", 1},
        {"lf104_unlocked_rmw", "const v = readFile(p); const w = require('write-file-atomic');", 1},
        {"lf104_unlocked_rmw", "const v = readFile(p); const m = require('@npmcli/move-file');", 1},
        {"lf104_unlocked_rmw", "import { loadSessionIndex, saveSessionIndex } from './idx';", 1},
        {"lf104_unlocked_rmw", "const s = st.loadState(); st.storeState(s);", 1},
        {"lf104_unlocked_rmw", "const s = st.loadState(); st.storeImage(s);", 0},
        /* U+00A0 before the name: whitespace to JS */
        {"lf104_unlocked_rmw", "const s =\xc2\xa0loadState(); x.y =\xc2\xa0rename;", 1},
        /* a non-ASCII letter in the stem: may name a document */
        {"lf104_unlocked_rmw", "const s = loadSÉtat(); saveSÉtat(s);", 1},
        {"lf101_unlocked_fallback", "try { block(); clock.tick(); } catch (e) { rapid(); }", 0},
        {"lf101_unlocked_fallback", "try { fs.mkdirSync(lockDir); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { fs.linkSync(tmp, lock); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { fs.symlinkSync(pid, lock); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { fd = fs.openSync(lock, flags); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { fs.writeFileSync(lock, pid, { flag: 'wx' }); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { h = await open(lock, \"ax\"); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { fs.openSync(lock, O_CREAT | O_EXCL); } catch {}", 1},
        {"lf101_unlocked_fallback", "const lf = require('proper-lockfile'); try { lf.lockSync(p); } catch {}", 1},
        {"lf101_unlocked_fallback", "import AsyncLock from 'async-lock'; try { x(); } catch {}", 1},
        {"lf101_unlocked_fallback", "try { x.y(\xc2\xa0link); } catch {}", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const lf_check *c = lf_check_find(cases[i].check);
        CHECK(c && c->gate, "%s has a gate", cases[i].check);
        if (!c || !c->gate)
            continue;
        int got = lf_check_gate(c, "src/mod.ts", cases[i].code, strlen(cases[i].code), LF_LANG_TYPESCRIPT);
        CHECK(got == cases[i].through, "%s gate: %d for %s", cases[i].check, got, cases[i].code);
    }
}

/* LF104's gate: a file is skipped only when no read and no write of a
 * document can be spelled in its code; every spelling of one is let through. */
static void test_lf104_gate(void) {
    const lf_check *c = lf_check_find("lf104_unlocked_rmw");
    CHECK(c && c->gate, "lf104_unlocked_rmw has a gate");
    if (!c || !c->gate)
        return;
    static const char *const skipped[] = {
        /* the prefilter's words in prose, strings and look-alikes */
        "\"\"\"Load the json, dump it back.\"\"\"\nx = read_bytes(sock)\nwrite_line(x)\n",
        "import marshal\ncode = marshal.load(f)\nmarshal.dump(code, g)\n",
        "import json\ntext = json.dumps(v)  # load it later\nsave_report(text)\n",
        "import json\nv = json.loads(s)\nprint(v)  # json.dump(v, f)\n",
        "x = read_text(p)\nwrite_text(p, x)\n",
        "mime = 'application/json'\nv = load(f)\ndump(v, g)\n",
        "v = read_config(p)\nv['n'] = 1\n",
        /* a dumps that no call naming write takes is a text, not a document write */
        "import pickle\nv = pickle.loads(b)\nout = pickle.dumps(v)\n",
        "import json\nv = json.load(f)\nx = f'{json.dumps(v)}'\n",
        "import json\ndef handle(self):\n    req = json.loads(self.body)\n    return json.dumps(req)\n",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        CHECK(!lf_check_gate(c, "pkg/mod.py", skipped[i], strlen(skipped[i]), LF_LANG_PYTHON), "gate lets through: %s",
              skipped[i]);
    static const char *const through[] = {
        "import json\nv = json.load(f)\njson.dump(v, g)\n",
        "import json as j\nv = j.loads(s)\nj.dump(v, g)\n",
        "from json import load as rd, dump as wr\n",
        "import pickle\nv = pickle.loads(b)\nout = pickle.dumps(v)\nf.write(out)\n",
        "import importlib\nm = importlib.import_module('json')\nm.load(f)\nm.dump(v, g)\n",
        "from lib.tasks import load_task_state, save_task_state\ns = load_task_state()\nsave_task_state(s)\n",
        "v = read_state(p)\nwrite_state(p, v)\n",
        "v = self.load_json(p)\nself.store_json(p, v)\n",
        "doc: 'TOMLFile' = None  # an annotation in a string\n",
        "f = TOMLFile(p)\n",
        "x = (json.load(f)\njson.dump(x, g)\n",
        "import json\nv = json.load(f)\np.write_text(f'{json.dumps(v)}')\n",
        "import json\nv = json.loads(p.read_text())\natomic_write(p, json.dumps(v))\n",
        /* U+00A0 is whitespace to tree-sitter: the name after it is a name of its own */
        "count =\xc2\xa0read_state(key)\nwrite_state(key, count)\n",
        "s = load_task_state\xc2\xa0()\nsave_task_state(s)\n",
        "s =\xc2\xa0load_state()\n\xc2\xa0save_state(s)\n",
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++)
        CHECK(lf_check_gate(c, "pkg/mod.py", through[i], strlen(through[i]), LF_LANG_PYTHON), "gate skips: %s",
              through[i]);
    /* per function: a read and a write must meet in one function, itself or
     * through the module's functions it names */
    static const char *const apart[] = {
        "import json\ndef load_it(p):\n    with open(p) as f:\n        return json.load(f)\n\n"
        "def dump_it(p, v):\n    with open(p, 'w') as f:\n        json.dump(v, f)\n",
        "import json\nclass Doc:\n    def to_text(self):\n        return json.dumps(self.v)\n\n"
        "    @classmethod\n    def from_text(cls, s):\n        return cls(json.loads(s))\n",
        "import json\nMODE = 'json'\nv = json.loads(s)\ndef out(v):\n    return json.dumps(v)\n",
        /* an import calls nothing */
        "from json import load, dump\nimport os\ndef a(p):\n    return load(open(p))\ndef b(p, v):\n    dump(v, open(p, 'w'))\n",
        "from lib.tasks import load_task_state, save_task_state\n",
    };
    for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++)
        CHECK(!lf_check_gate(c, "pkg/mod.py", apart[i], strlen(apart[i]), LF_LANG_PYTHON), "gate lets through: %s",
              apart[i]);
    static const char *const together[] = {
        /* a caller of both helpers */
        "import json\ndef load_it(p):\n    with open(p) as f:\n        return json.load(f)\n\n"
        "def dump_it(p, v):\n    with open(p, 'w') as f:\n        json.dump(v, f)\n\n"
        "def bump(p):\n    v = load_it(p)\n    v['n'] += 1\n    dump_it(p, v)\n",
        /* methods through self, one-line bodies, a chain of helpers */
        "import json\nclass S:\n    def _raw(self): return json.load(open(self.p))\n"
        "    def _read(self):\n        return self._raw()\n"
        "    def _write(self, v): json.dump(v, open(self.p, 'w'))\n"
        "    def bump(self):\n        v = self._read()\n        self._write(v)\n",
        /* a class called for its __init__ */
        "import json\nclass Doc:\n    def __init__(self, p):\n        self.v = json.load(open(p))\n"
        "def save(p):\n    d = Doc(p)\n    json.dump(d.v, open(p, 'w'))\n",
        /* the module's level */
        "import json\nv = json.load(open(P))\nv['n'] += 1\njson.dump(v, open(P, 'w'))\n",
        /* async, nested and decorated defs */
        "import json\nasync def bump(p):\n    def inner():\n        return json.load(open(p))\n"
        "    v = inner()\n    json.dump(v, open(p, 'w'))\n",
        /* load or dump as a value: a call under another name may be anywhere */
        "import json\nrd = json.load\ndef a(p):\n    return rd(open(p))\ndef b(p, v):\n    json.dump(v, open(p, 'w'))\n",
        "from json import load as rd, dump\ndef a(p):\n    return rd(open(p))\ndef b(p, v):\n    dump(v, open(p, 'w'))\n",
        /* layouts not followed: U+00A0 before a def, a def split by a backslash */
        "import json\n\xc2\xa0" "def a(p):\n    return json.load(open(p))\ndef b(p, v):\n    json.dump(v, open(p, 'w'))\n",
        "import json\ndef \\\n  a(p):\n    return json.load(open(p))\ndef b(p, v):\n    json.dump(v, open(p, 'w'))\n",
        /* after a `;`, an import line may call */
        "from json import load, dump; v = load(open(P)); dump(v, open(P, 'w'))\n",
        /* a string "json" where importlib may import it */
        "import importlib\nm = importlib.import_module('json')\ndef a(p):\n    return m.load(p)\ndef b(v, p):\n    m.dump(v, p)\n",
    };
    for (size_t i = 0; i < sizeof together / sizeof together[0]; i++)
        CHECK(lf_check_gate(c, "pkg/mod.py", together[i], strlen(together[i]), LF_LANG_PYTHON), "gate skips: %s",
              together[i]);
    /* `from . import load` in a package named json is json.load to the check */
    const char *rel = "from . import load, dump\nv = load(f)\ndump(v, g)\n";
    CHECK(lf_check_gate(c, "lib/json/tool.py", rel, strlen(rel), LF_LANG_PYTHON), "gate skips json's own module");
    CHECK(lf_check_gate(c, "pickle/x.py", rel, strlen(rel), LF_LANG_PYTHON), "gate skips pickle's own module");
    CHECK(!lf_check_gate(c, "lib/jsonx/tool.py", rel, strlen(rel), LF_LANG_PYTHON), "gate lets through: %s", rel);
    CHECK(!lf_check_gate(c, "tool.py", rel, strlen(rel), LF_LANG_PYTHON), "gate lets through a path with no directory");
    CHECK(!lf_check_gate(c, NULL, "x = 1\n", 6, LF_LANG_TYPESCRIPT), "a TS/JS text with no read is skipped");
}

/* LF201's gate (Python): a finding needs the resolved file replaced or
 * deleted by the module, and never comes from a module that imports a
 * POSIX-only module at its top level. */
static void test_lf201_gate(void) {
    const lf_check *c = lf_check_find("lf201_realpath_missing");
    CHECK(c && c->gate, "lf201_realpath_missing has a gate");
    if (!c || !c->gate)
        return;
    const char *guard = "def safe(root, name):\n    p = os.path.realpath(os.path.join(root, name))\n"
                        "    if not p.startswith(os.path.realpath(root)):\n        raise ValueError(name)\n    return p\n";
    static const char *const skipped[] = {
        "import os\n%s",                                        /* nothing replaced or removed */
        "import os\nitems.remove(x)\ns = s.replace('a', 'b')\n%s", /* look-alikes */
        "import fcntl\nimport os\n%sos.replace(tmp, p)\n",      /* POSIX only */
        "import os\nfrom fcntl import flock\n%sos.unlink(p)\n",
        "import os, sys\nimport pwd\n%sos.unlink(p)\n",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
        char *text = lf_xasprintf(skipped[i], guard);
        CHECK(!lf_check_gate(c, NULL, text, strlen(text), LF_LANG_PYTHON), "gate lets through: %s", text);
        free(text);
    }
    static const char *const through[] = {
        "import os\n%sos.replace(tmp, p)\n",
        "import os\n%sos.unlink(p)\n",
        "import shutil\n%sshutil.move(tmp, p)\n",
        "from pathlib import Path\n%sPath(tmp).replace(p)\n",
        "import os\ntry:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n%sos.replace(tmp, p)\n",
        "import os\nif os.name == 'posix':\n    import fcntl\n%sos.replace(tmp, p)\n",
        "import fcntlx\nimport os\n%sos.replace(tmp, p)\n",
        "import os\n# import fcntl\n%sos.replace(tmp, p)\n",
    };
    for (size_t i = 0; i < sizeof through / sizeof through[0]; i++) {
        char *text = lf_xasprintf(through[i], guard);
        CHECK(lf_check_gate(c, NULL, text, strlen(text), LF_LANG_PYTHON), "gate skips: %s", text);
        free(text);
    }
    CHECK(lf_check_gate(c, NULL, "x = 1\n", 6, LF_LANG_TYPESCRIPT), "gate is Python only");
}

/* Is code parsed at all under prefilter pf (a JSON array)? The query reports
 * every `b`, so a parsed file gives "1:1 m b;" and a skipped one "". */
static int parsed_under(const char *pf, const char *code) {
    const char *q = "\"((identifier) @finding (#eq? @finding \\\"b\\\"))\"";
    char *extra = lf_xasprintf("\"prefilter\": %s,\n", pf);
    char *rule = rule_json(extra, q);
    char *got = findings_of(rule, code, 0, NULL);
    int parsed = strncmp(got, "1:1 m b;", 8) == 0;
    CHECK(parsed || got[0] == '\0', "prefilter %s on %s: unexpected result %s", pf, code, got);
    free(got);
    free(rule);
    free(extra);
    return parsed;
}

#define EXPECT_PARSED(pf, code, want)                                                                                  \
    CHECK(parsed_under(pf, code) == (want), "prefilter %s on \"%s\": want %s", pf, code,                               \
          (want) ? "parsed" : "skipped")

/* The refined literal forms (rules/README.md): `\b` identifier boundaries and
 * `CALL(…WORD` (WORD inside that call). Each must skip the look-alikes it
 * exists for, and let through every shape it cannot bound. */
static void test_prefilter_forms(void) {
    const char *start = "[\"\\\\bqq\"]", *end = "[\"qq\\\\b\"]";
    EXPECT_PARSED(start, "b = 1  # qq", 1);
    EXPECT_PARSED(start, "b = 1\nqq = 2", 1);
    EXPECT_PARSED(start, "b = 1  # xqq", 0);
    EXPECT_PARSED(start, "b = 1  # _qq", 0);
    /* Non-ASCII before or after: tree-sitter may end an identifier there (U+00A0
     * is whitespace to it), so the boundary may hold. */
    EXPECT_PARSED(start, "b = 1  # \xc2\xa0qq", 1);
    EXPECT_PARSED(end, "b = 1  # qq\xc2\xa0", 1);
    EXPECT_PARSED(start, "b = 1  # 1qq", 1);        /* a digit may end another token */
    EXPECT_PARSED(start, "b = 1  # .qq", 1);
    EXPECT_PARSED(start, "b = 1  # xqq qq", 1); /* a later occurrence still counts */
    EXPECT_PARSED(end, "b = 1  # qqx", 0);
    EXPECT_PARSED(end, "b = 1  # qq1", 0);
    EXPECT_PARSED(end, "b = 1  # qq.x", 1);
    EXPECT_PARSED(end, "b = 1  # qq", 1); /* at the end of the file */
    EXPECT_PARSED("[\"\\\\bqq\\\\b\"]", "b = 1  # qqq", 0);
    EXPECT_PARSED("[\"\\\\bqq\\\\b\"]", "b = 1  # qqq qq", 1);
    /* Markup alone is a plain literal. */
    EXPECT_PARSED("[\"\\\\b\"]", "b = 1  # \\b", 1);

    const char *call = "[\"\\\\bf(\xe2\x80\xa6lock\"]";
    EXPECT_PARSED(call, "b = 1\nf(x)\nlock = 2\n", 0);
    EXPECT_PARSED(call, "b = 1\nf(x)  # lock\n", 0);
    EXPECT_PARSED(call, "b = 1\nf(lock)\n", 1);
    EXPECT_PARSED(call, "b = 1\nf(a,\n  g(h[1], {2: 3}),\n  lockname)\n", 1);
    EXPECT_PARSED(call, "b = 1\nf(')', lock)\n", 1);       /* a ')' in a string does not close the call */
    EXPECT_PARSED(call, "b = 1\nf(x  # )\n  , lock)\n", 1); /* nor one in a comment */
    EXPECT_PARSED(call, "b = 1\nf('\\')', x)\nlock\n", 0);  /* an escaped quote does not end the string */
    EXPECT_PARSED(call, "b = 1\nf(x, \\\n  lock)\n", 1);
    EXPECT_PARSED(call, "b = 1\nelf(lock)\n", 0); /* \b: `elf(` is another call */
    /* tree-sitter's extras may sit between callee and '(' */
    EXPECT_PARSED(call, "b = 1\nf (lock)\n", 1);
    EXPECT_PARSED(call, "b = 1\n(f  # c\n  (lock))\n", 1);
    EXPECT_PARSED(call, "b = 1\nf \\\n (lock)\n", 1);
    EXPECT_PARSED(call, "b = 1\nf = lock\n", 0); /* not a call */
    EXPECT_PARSED(call, "b = 1\nf\xc2\xa0(x)\nlock\n", 1); /* non-ASCII after the callee: unsure */
    /* Through a receiver: lock_path.f() */
    EXPECT_PARSED(call, "b = 1\nlock_path.f()\n", 1);
    EXPECT_PARSED(call, "b = 1\nself . lockp . f()\n", 1);
    EXPECT_PARSED(call, "b = 1\nx.f()\nlock = 1\n", 0);
    EXPECT_PARSED(call, "b = 1\nlock = x.f()\n", 0); /* left of the receiver: another expression */
    EXPECT_PARSED(call, "b = 1\ng(lock).f()\n", 1);  /* a call as receiver: not bounded, let through */
    EXPECT_PARSED(call, "b = 1\nd[lock].f()\n", 1);
    EXPECT_PARSED(call, "b = 1\n'lock'.f()\n", 1);
    EXPECT_PARSED(call, "b = 1\nlock \\\n  .f()\n", 1);
    EXPECT_PARSED(call, "b = 1\n(lock\n  .f())\n", 1);
    /* Shapes the lexical scan cannot bound are let through. */
    EXPECT_PARSED(call, "b = 1\nf('''x''')\nlock\n", 1);
    EXPECT_PARSED(call, "b = 1\nf(f'{x}')\nlock\n", 1);
    EXPECT_PARSED(call, "b = 1\nf(x]\nlock\n", 1);
    EXPECT_PARSED(call, "b = 1\nlock = 2\nf(x\n", 1);
    EXPECT_PARSED(call, "b = 1\nf('x\nlock')\n", 1);
    /* Every occurrence counts, not only the first. */
    EXPECT_PARSED(call, "b = 1\nf(x)\nf(y, lock)\n", 1);
}

/* Needles shorter than 4 bytes are found by their first byte pair (1-byte
 * ones by the byte): at the start, in the middle, in the last 3 bytes (past
 * the 4-byte loop) and as the last byte; a look-alike with the same first
 * byte is no match. */
static void test_prefilter_short_needles(void) {
    static const struct {
        const char *pf, *code;
        int parsed;
    } cases[] = {
        {"[\"lck\"]", "b = 1  # lck", 1},     {"[\"lck\"]", "b = 1  # lcx lk l", 0},
        {"[\"lck\"]", "b = 1  # lck x", 1},   {"[\"lck\"]", "b = 1  # lc", 0},
        {"[\"lk\"]", "b = 1  # lk", 1},       {"[\"lk\"]", "b = 1  # l k", 0},
        {"[\"lk\"]", "b = 1  # ml kl", 0},    {"[\"lk\"]", "b = 1  # lkxx", 1},
        {"[\"@\"]", "b = 1  # @", 1},         {"[\"@\"]", "b = 1  # x", 0},
        {"[\"@\"]", "b = 1  # @ xxxx", 1},    {"[\"'a'\"]", "b = 1  # 'a'", 1},
        {"[\"'a'\"]", "b = 1  # 'b' 'ax'", 0}, {"[[\"'x'\"], [\"lk\"]]", "b = 'x' or lk", 1},
        {"[[\"'x'\"], [\"lk\"]]", "b = 'x' or l", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        EXPECT_PARSED(cases[i].pf, cases[i].code, cases[i].parsed);
}

static void test_predicates(void) {
    const char *code = "alpha = 1\nbeta = 2\ngamma = alpha\n";
    expect_findings("((identifier) @finding (#eq? @finding \\\"beta\\\"))", code, "2:1 m beta;");
    expect_findings("((assignment left: (identifier) @finding right: (identifier) @r) (#not-eq? @finding @r))", code,
                    "3:1 m gamma;");
    expect_findings("((assignment left: (identifier) @finding right: (identifier) @r) (#eq? @finding @r))", code, "");
    expect_findings("((identifier) @finding (#match? @finding \\\"^[ab]\\\"))", code,
                    "1:1 m alpha;2:1 m beta;3:9 m alpha;");
    expect_findings("((assignment left: (identifier) @finding) (#not-match? @finding \\\"a$\\\"))", code, "");
    expect_findings("((assignment left: (identifier) @finding) (#any-of? @finding \\\"beta\\\" \\\"gamma\\\"))", code,
                    "2:1 m beta;3:1 m gamma;");
    /* Columns count code points: the finding after "é" is at column 8, not 9. */
    expect_findings("((identifier) @finding (#eq? @finding \\\"x\\\"))", "s = 'é'; x = 1\n", "1:10 m x;");
    /* Message capture text is one line, bounded. */
    expect_findings("(call) @finding", "f(a,\n  b)\n", "1:1 m f(a,...;");
}

/* ---- anchored query sites (lf_anchor) ---- */

/* The regex's word set, sorted and joined with ',' ("" when it has none). */
static char *regex_words(const char *re) {
    char **w;
    size_t n = lf_anchor_regex_words(re, &w);
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful of words */
        for (size_t j = i; j > 0 && strcmp(w[j - 1], w[j]) > 0; j--) {
            char *t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        lf_strbuf_printf(&sb, "%s%s", i ? "," : "", w[i]);
        free(w[i]);
    }
    free(w);
    return lf_strbuf_detach(&sb);
}

static void expect_regex_words(const char *re, const char *want) {
    char *got = regex_words(re);
    CHECK(strcmp(got, want) == 0, "words of /%s/\n  want: %s\n  got:  %s", re, want, got);
    free(got);
}

static void test_anchor_regex_words(void) {
    /* the rules' own shapes */
    expect_regex_words("^(appendFile|appendFileSync)$", "appendFile,appendFileSync");
    expect_regex_words("^realpath(Sync)?$", "realpath,realpathSync");
    expect_regex_words("^([mc]time(Ms)?|getTime)$", "ctime,ctimeMs,getTime,mtime,mtimeMs");
    expect_regex_words("(rm|unlink)", "rm,unlink");
    expect_regex_words("^[._-](tmp|TMP)", "-TMP,-tmp,.TMP,.tmp,_TMP,_tmp");
    expect_regex_words("[.]resolve[(][)]$", ".resolve()");
    expect_regex_words("^%s[.]x", "%s.x");
    expect_regex_words("a\\$", "a$");           /* an escaped '$' is a byte */
    expect_regex_words("^[{][}][._-]t", "{}-t,{}.t,{}_t");
    expect_regex_words("[a-c]x", "ax,bx,cx"); /* a short range */
    /* no finite, small, non-empty language: the pattern keeps the full walk */
    const char *none[] = {"a*", "a+", "a.b", "[^a]b", "(a|)", "a?", "a{2}", "(?i)a", "[a-z]x", "\\dx",
                          "[[:alpha:]]", "(ab", "ab)", "a^b", "a$b", "x(a|b)*", "", "^$",
                          "(a|b)(c|d)(e|f)(g|h)(i|j)(k|l)(m|n)"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        expect_regex_words(none[i], "");
}

static void test_anchor_roots(void) {
    /* Every node containing an occurrence, outer first, each once; overlapping
     * occurrences ("aa" twice in "aaa") and one outside any named leaf. */
    const char *code = "x = f(g(aaa))\ny = 1\n";
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lf_lang_grammar(LF_LANG_PYTHON));
    TSTree *t = ts_parser_parse_string(p, NULL, code, (uint32_t)strlen(code));
    const char *words[] = {"aa", "g("};
    lf_anchor_node *nodes;
    size_t n = lf_anchor_roots(ts_tree_root_node(t), code, strlen(code), words, 2, &nodes);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++)
        lf_strbuf_printf(&sb, "%s@%u/%u;", ts_node_type(nodes[i].node), ts_node_start_byte(nodes[i].node),
                         nodes[i].depth);
    char *got = lf_strbuf_detach(&sb);
    const char *want = "module@0/0;expression_statement@0/1;assignment@0/2;call@4/3;argument_list@5/4;call@6/5;"
                       "argument_list@7/6;identifier@8/7;";
    CHECK(strcmp(got, want) == 0, "anchor roots\n  want: %s\n  got:  %s", want, got);
    free(got);
    free(nodes);
    /* no occurrence: no site at all */
    const char *absent[] = {"zzz"};
    n = lf_anchor_roots(ts_tree_root_node(t), code, strlen(code), absent, 1, &nodes);
    CHECK(n == 0 && nodes == NULL, "a word that does not occur gives no site (%zu)", n);
    lf_tree_delete(t);
    /* occurrences past the budget (here a one-letter word at every byte of a
     * long string): give up, the caller walks the whole tree */
    char big[4096];
    memset(big, 'a', sizeof big);
    big[0] = big[sizeof big - 2] = '"';
    big[sizeof big - 1] = '\0';
    t = ts_parser_parse_string(p, NULL, big, (uint32_t)strlen(big));
    const char *one[] = {"a"};
    n = lf_anchor_roots(ts_tree_root_node(t), big, strlen(big), one, 1, &nodes);
    CHECK(n == LF_ANCHOR_WALK_ALL && nodes == NULL, "too many occurrences: walk the whole tree (%zu)", n);
    lf_tree_delete(t);
    ts_parser_delete(p);

    /* The engine, through rules: the same findings as a whole-tree walk. */
    /* a capture bigger than the word's token: every call containing it */
    expect_findings("((call) @finding (#match? @finding \\\"kill\\\"))", "g(f(kill))\nh(1)\nos.kill(p)\n",
                    "1:1 m g(f(kill));1:3 m f(kill);3:1 m os.kill(p);");
    /* #eq? on a capture that may match no node holds vacuously: no anchor */
    expect_findings("((call function: (identifier) @finding (argument_list (identifier)* @a)) (#eq? @a \\\"zz\\\"))",
                    "f()\ng(x)\n", "1:1 m f;");
    /* a negative predicate anchors nothing */
    expect_findings("((identifier) @finding (#not-eq? @finding \\\"x\\\"))", "x = y\n", "1:5 m y;");
    /* a supertype root: a cursor started at the site does not know its supertypes,
     * so such a pattern keeps the full walk */
    expect_findings("((expression) @finding (#eq? @finding \\\"beta\\\"))", "f(beta)\n", "1:3 m beta;");
    expect_findings("((primary_expression/identifier) @finding (#eq? @finding \\\"beta\\\"))", "f(beta)\n",
                    "1:3 m beta;");
    /* the grammar's start symbol, childless: its one site is the root; a
     * childless pattern of another type keeps the walk */
    expect_findings("(module) @finding", "x = 1\n", "1:1 m x = 1...;");
    expect_findings("(expression_statement) @finding", "x = 1\ny = 2\n", "1:1 m x = 1;2:1 m y = 2;");
    /* a word spanning two tokens */
    expect_findings("((attribute) @finding (#match? @finding \\\"[.]res\\\"))", "p.resolve()\nq.other\n",
                    "1:1 m p.resolve;");
}

/* The findings of code at path (lang) under the rules in set: how many; the
 * first one's severity and line when asked. */
static size_t run_at(const lf_ruleset *set, const lf_config *cfg, const char *path, lf_lang lang, const char *code,
                     lf_severity *sev, uint32_t *line) {
    lf_engine_options opts = {.rules = set, .config = cfg, .want_fixes = 0, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, path, lang, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    char *err = NULL;
    lf_engine_analyze(eng, &src, &f, &n, &err);
    free(err);
    if (n && sev)
        *sev = f[0].severity;
    if (n && line)
        *line = f[0].line;
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    return n;
}

/* Test code and TS declaration files get no built-in check, decided from the
 * path before the parse; a rule document without a check still matches there. */
static void test_no_checks_by_path(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin rules load: %s", err ? err : "");
    const char *ts = "import fs from \"node:fs\";\n"
                     "export function readPid(p: string) { return Number(fs.readFileSync(p, \"utf-8\")); }\n"
                     "export function isPidRunning(pid: number): boolean {\n"
                     "  try {\n    process.kill(pid, 0);\n    return true;\n  } catch {\n    return false;\n  }\n}\n";
    CHECK(run_at(&set, NULL, "src/pid.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 1, "LF303 in src/pid.ts");
    CHECK(run_at(&set, NULL, "src/pid.d.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 0, "no check in a declaration file");
    CHECK(run_at(&set, NULL, "src/pid.d.mts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 0, "no check in a .d.mts file");
    CHECK(run_at(&set, NULL, "src/pid.test.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 0, "no check in test code");
    CHECK(run_at(&set, NULL, "src/__tests__/pid.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 0, "no check under __tests__");
    CHECK(run_at(&set, NULL, "src/d.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 1, "d.ts alone is a name, not a declaration file");
    lf_ruleset_free(&set);
    /* A rule document without a check matches in both. */
    char *doc = lf_xasprintf("{\n\"id\": \"LF999\",\n\"name\": \"test-rule\",\n\"summary\": \"s\",\n\"severity\": "
                             "\"warning\",\n\"languages\": [\"typescript\"],\n\"message\": \"m\",\n%s,\n\"fix\": "
                             "{\"safety\": \"none\"},\n\"queries\": {\"typescript\": \"((identifier) @finding (#eq? "
                             "@finding \\\"isPidRunning\\\"))\"}\n}\n",
                             k_docs);
    lf_rule *r = NULL;
    CHECK(lf_rule_parse(doc, strlen(doc), "inline", &r, &err), "doc rule parses: %s", err ? err : "");
    free(err);
    if (r) {
        lf_ruleset just = {lf_xmalloc(sizeof(lf_rule *)), 1};
        just.rules[0] = r;
        CHECK(run_at(&just, NULL, "src/pid.d.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 1, "a check-less rule runs in .d.ts");
        CHECK(run_at(&just, NULL, "src/pid.test.ts", LF_LANG_TYPESCRIPT, ts, NULL, NULL) == 1, "a check-less rule runs in tests");
        lf_ruleset_free(&just);
    }
    free(doc);
}

static void test_builtin_fix_reason(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin rules load: %s", err ? err : "");
    const lf_rule *r = lf_ruleset_find(&set, "LF101");
    CHECK(r && r->fix_safety == LF_FIX_SAFE && r->fixer != NULL, "LF101 is fixable-safe with a generator");
    const char *code = "import os, sys\n"
                       "if sys.platform != 'win32':\n    import fcntl\nelse:\n    fcntl = None\n"
                       "def bump(p):\n    if fcntl is not None:\n        fcntl.flock(3, fcntl.LOCK_EX)\n"
                       "        write(p, read(p) + 1)\n        return\n    write(p, read(p) + 1)\n";
    lf_rule *one[1] = {(lf_rule *)r};
    lf_ruleset just = {one, 1};
    lf_engine_options opts = {.rules = &just, .want_fixes = 1, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, "t.py", LF_LANG_PYTHON, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    lf_engine_analyze(eng, &src, &f, &n, &err);
    CHECK(n == 1 && f[0].line == 7 && f[0].col == 5, "LF101 at 7:5 (n=%zu)", n);
    CHECK(n == 1 && !f[0].fix && f[0].no_fix_reason &&
              strcmp(f[0].no_fix_reason, "the lock is taken on an expression, not on a handle opened in this function") == 0,
          "LF101 no_fix_reason: %s", n ? f[0].no_fix_reason : "(no finding)");
    CHECK(n == 1 && strstr(f[0].message, "the locked path (line 8) has an unlocked copy starting at line 11"),
          "LF101 message names both paths: %s", n ? f[0].message : "");
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    lf_ruleset_free(&set);
}


/* Severity overrides, "off", and suppression comments are applied by the engine,
 * so every front end sees the same findings. */
static size_t run_builtin(const lf_ruleset *set, const lf_config *cfg, const char *code, lf_severity *sev,
                          uint32_t *line) {
    return run_at(set, cfg, "t.py", LF_LANG_PYTHON, code, sev, line);
}

static void test_config_and_suppression(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    const char *probe = "import os\ndef alive(pid):\n    try:\n        os.kill(pid, 0)\n    except OSError:\n"
                        "        return False\n    return True\n";
    lf_severity sev = LF_SEV_NONE;
    uint32_t line = 0;
    CHECK(run_builtin(&set, NULL, probe, &sev, &line) == 1 && sev == LF_SEV_WARNING && line == 4,
          "LF303 fires with its default severity");
    lf_severity_override ov = {"LF303", LF_SEV_ERROR};
    lf_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.severity = &ov;
    cfg.n_severity = 1;
    CHECK(run_builtin(&set, &cfg, probe, &sev, NULL) == 1 && sev == LF_SEV_ERROR, "severity override applied");
    ov.severity = LF_SEV_NONE;
    CHECK(run_builtin(&set, &cfg, probe, NULL, NULL) == 0, "rule set \"off\" does not run");
    char *ign[] = {"LF303"};
    memset(&cfg, 0, sizeof cfg);
    cfg.ignore = ign;
    cfg.n_ignore = 1;
    CHECK(run_builtin(&set, &cfg, probe, NULL, NULL) == 0, "ignored rule does not run");
    const char *same_line = "import os\ndef alive(pid):\n    try:\n        os.kill(pid, 0)  # lockfix: ignore[LF303]\n"
                            "    except OSError:\n        return False\n    return True\n";
    CHECK(run_builtin(&set, NULL, same_line, NULL, NULL) == 0, "suppressed on the flagged line");
    const char *line_above = "import os\ndef alive(pid):\n    try:\n        # lockfix: ignore[LF303]\n"
                             "        os.kill(pid, 0)\n    except OSError:\n        return False\n    return True\n";
    CHECK(run_builtin(&set, NULL, line_above, NULL, NULL) == 0, "suppressed from the line above");
    const char *other_rule = "import os\ndef alive(pid):\n    try:\n        os.kill(pid, 0)  # lockfix: ignore[LF101]\n"
                             "    except OSError:\n        return False\n    return True\n";
    CHECK(run_builtin(&set, NULL, other_rule, NULL, NULL) == 1, "another rule's suppression does not apply");
    lf_ruleset_free(&set);
}

/* LF401's TS/JS temp patterns have no anchor word, so the engine walks its
 * query only when the check asks (matches on demand), and the check asks only
 * in a file whose model holds a rename: the same findings, one walk fewer. */
static void test_matches_on_demand(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    char *only[] = {"LF401"};
    lf_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.select = only;
    cfg.n_select = 1;
    static const char *const codes[] = {
        /* no rename: the temp name pairs with nothing, the query is never walked */
        "const fs = require('fs');\nfunction save(p, d) {\n  fs.writeFileSync(p + '.tmp', d);\n}\n",
        /* a rename of the shared temp: walked, and reported */
        "const fs = require('fs');\nfunction save(p, d) {\n  fs.writeFileSync(p + '.tmp', d);\n"
        "  fs.renameSync(p + '.tmp', p);\n}\n",
    };
    for (size_t k = 0; k < 2; k++) {
        lf_engine_options opts = {.rules = &set, .config = &cfg, .use_prefilter = 0};
        lf_engine *eng = lf_engine_new(&opts);
        lf_source src;
        lf_source_from_text(&src, "t.js", LF_LANG_TYPESCRIPT, codes[k], strlen(codes[k]));
        lf_finding *f = NULL;
        size_t n = 0;
        CHECK(lf_engine_analyze(eng, &src, &f, &n, &err) == 0, "analyze");
        CHECK(n == k && lf_engine_query_walks(eng) == k, "file %zu: %zu finding(s), %zu query walk(s)", k, n,
              lf_engine_query_walks(eng));
        CHECK(k == 0 || (n == 1 && f[0].line == 3 && !strcmp(f[0].rule->id, "LF401")), "the shared temp reported");
        for (size_t i = 0; i < n; i++)
            lf_finding_free_contents(&f[i]);
        free(f);
        lf_source_free(&src);
        lf_engine_free(eng);
    }
    lf_ruleset_free(&set);
}

/* Fix generators run on every finding of a fixable rule, including shapes they
 * do not rewrite: they must fix or decline with a reason, never crash
 * (tarfile.py's commonpath guard brought this up). LF201's fix rewrites only
 * the resolving call, so the commonpath and prefix spellings are fixed; a
 * target computed by an arbitrary call is declined. */
static void test_fixers_decline_unknown_shapes(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    const char *code = "import os\n"
                       "def target(dest_path, name):\n"
                       "    dest_path = os.path.realpath(dest_path)\n"
                       "    target_path = os.path.join(dest_path, name)\n"
                       "    target_path = os.path.realpath(target_path)\n"
                       "    if os.path.commonpath([target_path, dest_path]) != dest_path:\n"
                       "        raise ValueError(name)\n"
                       "    direct = os.path.realpath(os.path.join(dest_path, name))\n"
                       "    if not direct.startswith(dest_path):\n"
                       "        raise ValueError(name)\n"
                       "    made = os.path.realpath(make(name))\n"
                       "    if not made.startswith(dest_path + os.sep):\n"
                       "        raise ValueError(name)\n"
                       "def publish(dest_path, name, tmp):\n" /* LF201: files the module replaces */
                       "    os.replace(tmp, os.path.join(dest_path, name))\n"
                       "    os.replace(tmp, make(name))\n";
    lf_engine_options opts = {.rules = &set, .want_fixes = 1, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, "t.py", LF_LANG_PYTHON, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    CHECK(lf_engine_analyze(eng, &src, &f, &n, &err) == 0, "analyze with fixes");
    CHECK(n == 3 && f[0].line == 5 && f[1].line == 8 && f[2].line == 11 && strcmp(f[0].rule->id, "LF201") == 0,
          "LF201 at lines 5, 8 and 11 (n=%zu)", n);
    for (size_t i = 0; i < n && i < 2; i++)
        CHECK(f[i].fix && f[i].fix->n_edits == 1 && f[i].fix->edits[0].start == f[i].start_byte &&
                  f[i].fix->edits[0].end == f[i].end_byte,
              "fixed by rewriting the resolving call alone");
    if (n == 3)
        CHECK(!f[2].fix && f[2].no_fix_reason && strstr(f[2].no_fix_reason, "side effects"),
              "declined with a reason: %s", f[2].no_fix_reason ? f[2].no_fix_reason : "(none)");
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    lf_ruleset_free(&set);
}

/* Hostile nesting: the checks climb and walk trees without recursion or
 * unbounded climbs, so a deeply nested file is analyzed, not crashed on. */
static void test_deep_nesting(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    enum { DEPTH = 3000 };
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import fcntl, os\ndef f(path, d):\n    x = ");
    for (int i = 0; i < DEPTH; i++)
        lf_strbuf_putc(&sb, '(');
    lf_strbuf_puts(&sb, "os.path.realpath(path)");
    for (int i = 0; i < DEPTH; i++)
        lf_strbuf_putc(&sb, ')');
    lf_strbuf_puts(&sb, ".startswith(os.path.realpath(d))\n    fcntl.flock(open(path + '.lock', 'a'), fcntl.LOCK_EX)\n"
                       "    os.unlink(path + '.lock')\n");
    size_t n = run_builtin(&set, NULL, sb.data, NULL, NULL);
    CHECK(n == 1, "deeply nested file analyzed: %zu finding(s) (the flocked lock's removal)", n);
    lf_strbuf_free(&sb);
    lf_ruleset_free(&set);
}

/* Built-in rules compile a language's query on first use: a Python file never
 * needs a TypeScript or TSX query, and a rule no file reaches compiles nothing. */
static void test_builtin_queries_lazy(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    size_t compiled = 0;
    for (size_t i = 0; i < set.n_rules; i++)
        for (int l = 0; l < LF_LANG_COUNT; l++)
            compiled += (size_t)lf_rule_query_is_compiled(set.rules[i], (lf_lang)l);
    CHECK(compiled == 0, "no built-in query compiled at load (%zu were)", compiled);
    const char *probe = "import os\ndef alive(pid):\n    try:\n        os.kill(pid, 0)\n    except OSError:\n"
                        "        return False\n    return True\n";
    CHECK(run_builtin(&set, NULL, probe, NULL, NULL) == 1, "LF303 fires from a lazily compiled query");
    const lf_rule *lf303 = lf_ruleset_find(&set, "LF303");
    CHECK(lf303 && !lf_rule_query_is_compiled(lf303, LF_LANG_PYTHON),
          "LF303's Python query never compiled: its check asks the model, not the matches");
    const char *real = "import os\ndef save(p, d):\n    os.unlink(p)\n"
                       "    return os.path.realpath(p).startswith(os.path.realpath(d))\n";
    (void)run_builtin(&set, NULL, real, NULL, NULL);
    const lf_rule *lf201 = lf_ruleset_find(&set, "LF201");
    CHECK(lf201 && lf_rule_query_is_compiled(lf201, LF_LANG_PYTHON), "LF201's Python query compiled on use");
    for (size_t i = 0; i < set.n_rules; i++) {
        const lf_rule *r = set.rules[i];
        CHECK(!lf_rule_query_is_compiled(r, LF_LANG_TYPESCRIPT) && !lf_rule_query_is_compiled(r, LF_LANG_TSX),
              "%s: a Python file compiled no TypeScript/TSX query", r->id);
        CHECK(lf_rule_compile_all(r, &err), "%s compiles: %s", r->id, err ? err : "");
        for (int l = 0; l < LF_LANG_COUNT; l++)
            CHECK(!(r->languages & LF_LANG_BIT(l)) ||
                      (lf_rule_query_is_compiled(r, (lf_lang)l) && lf_rule_query(r, (lf_lang)l)),
                  "%s: %s query compiled", r->id, lf_lang_name((lf_lang)l));
    }
    lf_ruleset_free(&set);
}

/* Threads asking for the same built-in queries at once (a scan's workers) get
 * one compile each: the same query and predicates, whoever asked first. */
#define LAZY_THREADS 4
typedef struct lazy_probe {
    const lf_ruleset *set;
    const TSQuery *got[16][LF_LANG_COUNT];
} lazy_probe;

static void *lazy_ask(void *arg) {
    lazy_probe *p = arg;
    for (size_t i = 0; i < p->set->n_rules && i < 16; i++)
        for (int l = 0; l < LF_LANG_COUNT; l++)
            p->got[i][l] = lf_rule_query(p->set->rules[i], (lf_lang)l);
    return NULL;
}

static void test_builtin_queries_threads(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    static lazy_probe probes[LAZY_THREADS];
    pthread_t t[LAZY_THREADS];
    for (int k = 0; k < LAZY_THREADS; k++) {
        probes[k].set = &set;
        CHECK(pthread_create(&t[k], NULL, lazy_ask, &probes[k]) == 0, "thread %d starts", k);
    }
    for (int k = 0; k < LAZY_THREADS; k++)
        pthread_join(t[k], NULL);
    for (size_t i = 0; i < set.n_rules && i < 16; i++)
        for (int l = 0; l < LF_LANG_COUNT; l++) {
            int has = (set.rules[i]->languages & LF_LANG_BIT(l)) != 0;
            for (int k = 0; k < LAZY_THREADS; k++)
                CHECK((probes[k].got[i][l] != NULL) == has && probes[k].got[i][l] == probes[0].got[i][l],
                      "%s %s: thread %d got the one compiled query", set.rules[i]->id, lf_lang_name((lf_lang)l), k);
        }
    lf_ruleset_free(&set);
}

static void test_rules_dir(void) {
    char *dir = lf_xasprintf("%s/rules", g_dir);
    mkdir(dir, 0700);
    char *q = rule_json("", "\"((identifier) @finding (#eq? @finding \\\"zz\\\"))\"");
    char *p = lf_xasprintf("%s/LF999-test.json", dir);
    FILE *f = fopen(p, "w");
    fputs(q, f);
    fclose(f);
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err), "builtin load");
    size_t before = set.n_rules;
    CHECK(lf_ruleset_load_dir(&set, dir, &err), "--rules dir loads: %s", err ? err : "");
    CHECK(set.n_rules == before + 1 && lf_ruleset_find(&set, "LF999"), "extra rule added");
    CHECK(strcmp(set.rules[set.n_rules - 1]->id, "LF999") == 0, "rules stay sorted by id");
    lf_ruleset_free(&set);
    free(p);
    p = lf_xasprintf("%s/LF998-broken.json", dir);
    f = fopen(p, "w");
    fputs("{\n  \"id\": \"LF998\",\n  \"oops\": true\n}\n", f);
    fclose(f);
    CHECK(!lf_ruleset_load_dir(&set, dir, &err) && err && strstr(err, "LF998-broken.json: line 3: unknown key \"oops\""),
          "broken rule file named with line: %s", err ? err : "(none)");
    free(err);
    lf_ruleset_free(&set);
    unlink(p);
    free(p);
    /* A --rules DIR rule's queries compile at load, unlike the built-ins': a
     * broken one fails the load with the line and the query's position. */
    p = lf_xasprintf("%s/LF996-badquery.json", dir);
    f = fopen(p, "w");
    char *bad = rule_json("", "\"(identifier @finding\"");
    fputs(bad, f);
    fclose(f);
    free(bad);
    CHECK(!lf_ruleset_load_dir(&set, dir, &err) && err &&
              strstr(err, "LF996-badquery.json: line 10: queries.python: syntax error at query line 1 col 13 (for "
                          "python grammar), near \"@finding\""),
          "broken query in a rules dir fails the load: %s", err ? err : "(none)");
    free(err);
    lf_ruleset_free(&set);
    unlink(p);
    free(p);
    /* A FIFO named like a rule file is refused, not waited on. */
    p = lf_xasprintf("%s/LF997-fifo.json", dir);
    CHECK(mkfifo(p, 0600) == 0, "mkfifo");
    CHECK(!lf_ruleset_load_dir(&set, dir, &err) && err && strstr(err, "LF997-fifo.json: not a regular file"),
          "FIFO rule file refused: %s", err ? err : "(none)");
    free(err);
    lf_ruleset_free(&set);
    free(p);
    free(q);
    free(dir);
}

/* The built-in rule file of id `id`, its message prefixed by `prefix` (none: as is). */
static void write_builtin_copy(const char *dir, const char *id, const char *prefix) {
    for (size_t i = 0; i < lf_builtin_rules_count; i++) {
        const lf_builtin_rule *b = &lf_builtin_rules[i];
        if (!strstr(b->origin, id))
            continue;
        const char *msg = strstr(b->text, "\"message\": \"");
        CHECK(msg != NULL, "%s has a message", id);
        char *path = lf_xasprintf("%s/%s.json", dir, id);
        FILE *f = fopen(path, "w");
        size_t head = (size_t)(msg - b->text) + strlen("\"message\": \"");
        fwrite(b->text, 1, head, f);
        fputs(prefix, f);
        fputs(b->text + head, f);
        fclose(f);
        free(path);
        return;
    }
    CHECK(0, "no built-in rule %s", id);
}

/* A rules-dir rule whose query, message and check are the rule it replaces
 * (a copy of the built-ins, as the benchmark's no-prefilter row loads) compiles
 * on first use as the built-in does; one that differs compiles at load, and
 * its errors fail the load. */
static void test_rules_dir_twins(void) {
    char *dir = lf_xasprintf("%s/rules-twins", g_dir);
    mkdir(dir, 0700);
    write_builtin_copy(dir, "LF201", "");
    write_builtin_copy(dir, "LF401", "changed: ");
    lf_ruleset set = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&set, &err) && lf_ruleset_load_dir(&set, dir, &err), "twins load: %s",
          err ? err : "");
    const lf_rule *same = lf_ruleset_find(&set, "LF201"), *changed = lf_ruleset_find(&set, "LF401");
    CHECK(same && strstr(same->origin, "rules-twins/LF201.json"), "the rule file replaced the built-in LF201");
    CHECK(same && !lf_rule_query_is_compiled(same, LF_LANG_PYTHON) &&
              !lf_rule_query_is_compiled(same, LF_LANG_TYPESCRIPT),
          "a copy of a built-in compiles nothing at load");
    CHECK(changed && lf_rule_query_is_compiled(changed, LF_LANG_PYTHON) &&
              lf_rule_query_is_compiled(changed, LF_LANG_TYPESCRIPT) &&
              !strncmp(changed->message, "changed: ", 9),
          "a changed message compiles at load");
    const char *real = "import os\ndef save(p, d):\n    os.unlink(p)\n"
                       "    return os.path.realpath(p).startswith(os.path.realpath(d))\n";
    (void)run_builtin(&set, NULL, real, NULL, NULL);
    CHECK(lf_rule_query_is_compiled(same, LF_LANG_PYTHON) && lf_rule_query(same, LF_LANG_PYTHON),
          "the copy's Python query compiles on use");
    lf_ruleset_free(&set);
    write_builtin_copy(dir, "LF101", "{{nope}} ");
    CHECK(lf_ruleset_load_builtin(&set, &err) && !lf_ruleset_load_dir(&set, dir, &err) && err &&
              strstr(err, "LF101.json: line 7: message uses {{nope}} but queries.python has no @nope capture"),
          "a broken message in a copy fails the load: %s", err ? err : "(none)");
    free(err);
    lf_ruleset_free(&set);
    free(dir);
}

static void test_parses_cleanly(void) {
    const char *ok = "def f(x):\n    return x + 1\n";
    const char *bad = "def f(:\n    return\n";
    const char *missing = "x = (1 + 2\n";
    CHECK(lf_engine_parses_cleanly(LF_LANG_PYTHON, ok, strlen(ok)), "valid Python parses cleanly");
    CHECK(!lf_engine_parses_cleanly(LF_LANG_PYTHON, bad, strlen(bad)), "syntax error detected");
    CHECK(!lf_engine_parses_cleanly(LF_LANG_PYTHON, missing, strlen(missing)), "missing token detected");
    const char *ts = "const x: number = 1;\n";
    CHECK(lf_engine_parses_cleanly(LF_LANG_TYPESCRIPT, ts, strlen(ts)), "valid TypeScript parses cleanly");
}

static void cleanup(const char *dir) {
    char *cmd = lf_xasprintf("rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup of %s failed\n", dir);
    free(cmd);
}

int main(void) {
    snprintf(g_dir, sizeof g_dir, "/tmp/lf-engine-test-XXXXXX");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_source();
    test_rule_errors();
    test_predicates();
    test_anchor_regex_words();
    test_anchor_roots();
    test_prefilter_scan();
    test_prefilter_forms();
    test_prefilter_short_needles();
    test_pymask();
    test_tsarena();
    test_lf401_gate();
    test_lf301_gate();
    test_lf302_gate();
    test_lf104_gate();
    test_ts_gates();
    test_query_shapes();
    test_lf201_gate();
    test_lf103_gate();
    test_gates_share_mask();
    test_no_checks_by_path();
    test_builtin_fix_reason();
    test_config_and_suppression();
    test_fixers_decline_unknown_shapes();
    test_deep_nesting();
    test_builtin_queries_lazy();
    test_rules_dir_twins();
    test_matches_on_demand();
    test_builtin_queries_threads();
    test_rules_dir();
    test_parses_cleanly();
    cleanup(g_dir);
    return lf_test_check_summary();
}
