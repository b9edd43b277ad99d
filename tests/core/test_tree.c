/* lf_tree's caches and sets: the per-thread memo of child-by-field answers must
 * never answer for a tree that was deleted (the next tree is often allocated at
 * the same addresses), and lf_node_set holds each node once. */
#include "lf_test.h"

#include <stdlib.h>
#include <tree_sitter/api.h>

#include "lf_lang.h"
#include "lf_source.h"
#include "lf_tree.h"

/* The text of the right-hand side of the first statement (`name = VALUE`). */
static char *first_value(TSParser *p, const char *code) {
    lf_source src;
    lf_source_from_text(&src, "t.py", LF_LANG_PYTHON, code, strlen(code));
    TSTree *t = ts_parser_parse_string(p, NULL, src.text, (uint32_t)src.len);
    TSNode assign = ts_node_named_child(ts_node_named_child(ts_tree_root_node(t), 0), 0);
    TSNode value = lf_tree_field(assign, "right");
    /* asked twice: the second answer comes from the memo */
    TSNode again = lf_tree_field(assign, "right");
    char *text = ts_node_eq(value, again) ? lf_tree_text(&src, value) : NULL;
    lf_tree_delete(t);
    lf_source_free(&src);
    return text;
}

static void field_memo_forgets_deleted_trees(void) {
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lf_lang_grammar(LF_LANG_PYTHON));
    /* same shapes and sizes, so the allocator hands the second tree the
     * first one's memory: a memo keyed by addresses alone would answer
     * with the first tree's node */
    static const char *const codes[][2] = {
        {"x = f(a)\n", "f(a)"},
        {"y = [1]\n", "[1]"},
        {"z = g(b)\n", "g(b)"},
        {"w = (2)\n", "(2)"},
    };
    for (int round = 0; round < 50; round++) {
        for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
            char *got = first_value(p, codes[i][0]);
            CHECK_STR(got, codes[i][1]);
            free(got);
        }
    }
    ts_parser_delete(p);
}

static void node_set_holds_each_node_once(void) {
    const char *code = "a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,\n"
                       "     21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]\n";
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lf_lang_grammar(LF_LANG_PYTHON));
    TSTree *t = ts_parser_parse_string(p, NULL, code, (uint32_t)strlen(code));
    TSNode list = lf_tree_field(ts_node_named_child(ts_node_named_child(ts_tree_root_node(t), 0), 0), "right");
    uint32_t n = ts_node_named_child_count(list);
    CHECK_INT(n, 40);
    lf_node_set s = {0};
    CHECK(!lf_node_set_add(&s, (TSNode){0}));
    /* past the first table's 64 slots: the set grows and keeps what it held */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < n; i++)
            CHECK(lf_node_set_add(&s, ts_node_named_child(list, i)) == (pass == 0));
        CHECK(lf_node_set_add(&s, list) == (pass == 0));
    }
    CHECK(s.len == n + 1);
    lf_node_set_free(&s);
    CHECK(s.len == 0 && !s.ids);
    lf_tree_delete(t);
    ts_parser_delete(p);
}

int main(void) {
    field_memo_forgets_deleted_trees();
    node_set_holds_each_node_once();
    return lf_test_failures ? 1 : 0;
}
