/* lf_fingerprint: the enclosing-scope names it hashes (Python and TS/JS), and
 * what changes the hash and what does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "lf_fingerprint.h"
#include "lf_lang.h"
#include "lf_source.h"
#include "lf_tree.h"

#include "../engine/lf_test_check.h"

typedef struct parsed {
    lf_source src;
    TSParser *parser;
    TSTree *tree;
} parsed;

static void parse(parsed *p, const char *path, lf_lang lang, const char *text) {
    lf_source_from_text(&p->src, path, lang, text, strlen(text));
    p->parser = ts_parser_new();
    ts_parser_set_language(p->parser, lf_lang_grammar(lang));
    p->tree = ts_parser_parse_string(p->parser, NULL, p->src.text, (uint32_t)p->src.len);
}

static void done(parsed *p) {
    lf_tree_delete(p->tree);
    ts_parser_delete(p->parser);
    lf_source_free(&p->src);
}

/* The smallest named node spanning the first occurrence of `needle`. */
static TSNode node_at(const parsed *p, const char *needle) {
    const char *hit = strstr(p->src.text, needle);
    if (!hit) {
        fprintf(stderr, "test bug: '%s' not in the source\n", needle);
        exit(2);
    }
    uint32_t s = (uint32_t)(hit - p->src.text), e = s + (uint32_t)strlen(needle);
    return ts_node_named_descendant_for_byte_range(ts_tree_root_node(p->tree), s, e);
}

static void check_scope(const char *path, lf_lang lang, const char *text, const char *needle, const char *want) {
    parsed p;
    parse(&p, path, lang, text);
    char *got = lf_fingerprint_scope(&p.src, node_at(&p, needle));
    CHECK(strcmp(got, want) == 0, "%s: scope of '%s' is '%s', want '%s'", path, needle, got, want);
    free(got);
    done(&p);
}

static uint64_t hash_of(const char *path, lf_lang lang, const char *text, const char *needle, const char *rule) {
    parsed p;
    parse(&p, path, lang, text);
    uint64_t h = lf_fingerprint_node(&p.src, node_at(&p, needle), rule);
    done(&p);
    return h;
}

static void test_scopes(void) {
    const char *py = "import os\n"
                     "\n"
                     "class Store:\n"
                     "    def update(self, path):\n"
                     "        def inner():\n"
                     "            return read_nested(path)\n"
                     "        return read_method(path)\n"
                     "\n"
                     "handler = lambda p: read_bound(p)\n"
                     "run(lambda p: read_anon(p))\n"
                     "top = read_module('x')\n";
    check_scope("s.py", LF_LANG_PYTHON, py, "read_method(path)", "Store.update");
    check_scope("s.py", LF_LANG_PYTHON, py, "read_nested(path)", "Store.update.inner");
    check_scope("s.py", LF_LANG_PYTHON, py, "read_bound(p)", "handler");
    check_scope("s.py", LF_LANG_PYTHON, py, "read_anon(p)", "<lambda>");
    check_scope("s.py", LF_LANG_PYTHON, py, "read_module('x')", "");

    const char *ts = "class Queue {\n"
                     "  push(item: string) { readMethod(item); }\n"
                     "}\n"
                     "const onTurn = async () => { readArrow(); };\n"
                     "const hooks = { save: function () { readPair(); } };\n"
                     "function outer() { function inner() { readNested(); } }\n"
                     "export default function () { readDefault(); }\n"
                     "setTimeout(() => readCallback(), 1);\n";
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readMethod(item)", "Queue.push");
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readArrow()", "onTurn");
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readPair()", "save");
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readNested()", "outer.inner");
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readDefault()", "<anonymous>");
    check_scope("q.ts", LF_LANG_TYPESCRIPT, ts, "readCallback()", "<anonymous>");
}

static void test_hash(void) {
    const char *base = "def bump(path):\n"
                       "    data = load(path)\n"
                       "    save(path, data)\n";
    uint64_t h = hash_of("pkg/a.py", LF_LANG_PYTHON, base, "load(path)", "LF104");

    /* Moved down, re-indented inside a block, a comment inside the call, other
     * lines edited: the same identity. */
    const char *moved = "import sys\n"
                        "\n"
                        "\n"
                        "def bump(path):\n"
                        "    counter = 0  # renamed from data, unrelated\n"
                        "    if True:\n"
                        "        data = load(  # why\n"
                        "            path)\n"
                        "    save(path, counter)\n";
    CHECK(hash_of("pkg/a.py", LF_LANG_PYTHON, moved, "load(", "LF104") == h, "layout, comments, other lines");
    CHECK(hash_of("./pkg/a.py", LF_LANG_PYTHON, base, "load(path)", "LF104") == h, "a ./ prefix is the same path");

    /* Each component counts. */
    CHECK(hash_of("pkg/a.py", LF_LANG_PYTHON, base, "load(path)", "LF101") != h, "rule id");
    CHECK(hash_of("pkg/b.py", LF_LANG_PYTHON, base, "load(path)", "LF104") != h, "path");
    const char *renamed_fn = "def bump_all(path):\n"
                             "    data = load(path)\n"
                             "    save(path, data)\n";
    CHECK(hash_of("pkg/a.py", LF_LANG_PYTHON, renamed_fn, "load(path)", "LF104") != h, "enclosing function");
    const char *edited = "def bump(path):\n"
                         "    data = load(path + '.json')\n"
                         "    save(path, data)\n";
    CHECK(hash_of("pkg/a.py", LF_LANG_PYTHON, edited, "load(path + '.json')", "LF104") != h, "flagged code");
    /* Tokens, not characters: `ab` is not `a b`. */
    CHECK(hash_of("x.py", LF_LANG_PYTHON, "f(ab)\n", "f(ab)", "LF104") !=
              hash_of("x.py", LF_LANG_PYTHON, "f(a b)\n", "f(a b)", "LF104"),
          "token boundaries");
}

static void test_numbering(void) {
    lf_finding f[4];
    memset(f, 0, sizeof f);
    f[0].fingerprint_hash = 0xabc;
    f[1].fingerprint_hash = 0x123;
    f[2].fingerprint_hash = 0xabc;
    f[3].fingerprint_hash = 0xabc;
    lf_fingerprint_number(f, 4);
    CHECK(strcmp(f[0].fingerprint, "0000000000000abc:1") == 0, "first: %s", f[0].fingerprint);
    CHECK(strcmp(f[1].fingerprint, "0000000000000123:1") == 0, "other: %s", f[1].fingerprint);
    CHECK(strcmp(f[2].fingerprint, "0000000000000abc:2") == 0, "second: %s", f[2].fingerprint);
    CHECK(strcmp(f[3].fingerprint, "0000000000000abc:3") == 0, "third: %s", f[3].fingerprint);
}

int main(void) {
    test_scopes();
    test_hash();
    test_numbering();
    return lf_test_check_summary();
}
