/* One combined query per language: a file is walked once whatever the number of
 * rules, and each match reaches the rule owning its pattern. Usage:
 * lf_engine_routing <dir with rules/ and t.py> (tests/engine/routing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"

#include "lf_test_check.h"

/* "line:col id message;" for every finding of rules LF9xx, and the walk count. */
static char *scan(const lf_ruleset *set, int use_prefilter, const char *code, size_t *walks) {
    lf_engine_options opts = {.rules = set, .use_prefilter = use_prefilter};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, "t.py", LF_LANG_PYTHON, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    char *err = NULL;
    int rc = lf_engine_analyze(eng, &src, &f, &n, &err);
    CHECK(rc == 0, "analyze: %s", err ? err : "");
    free(err);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (strncmp(f[i].rule->id, "LF9", 3) == 0)
            lf_strbuf_printf(&sb, "%u:%u %s %s;", f[i].line, f[i].col, f[i].rule->id, f[i].message);
        lf_finding_free_contents(&f[i]);
    }
    free(f);
    *walks = lf_engine_query_walks(eng);
    lf_source_free(&src);
    lf_engine_free(eng);
    return lf_strbuf_detach(&sb);
}

/* A check as the C checks see matches: the rule's own pattern index and the
 * captures by name. */
static void report_pattern_and_captures(lf_check_ctx *ctx) {
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode fn, at;
        if (!lf_ctx_capture(ctx, i, "fn", &fn) || !lf_ctx_capture(ctx, i, "finding", &at))
            continue;
        char *fn_text = lf_node_text(lf_ctx_source(ctx), fn);
        char *msg = lf_xasprintf("pattern %u fn=%s", lf_ctx_match_pattern(ctx, i), fn_text);
        lf_ctx_emit(ctx, at, msg, i);
        free(msg);
        free(fn_text);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: lf_engine_routing DIR\n");
        return 2;
    }
    lf_ruleset set = {0};
    char *err = NULL;
    char *rules = lf_xasprintf("%s/rules", argv[1]);
    /* The builtin rules come first in the combined query: LF9xx patterns are not at 0. */
    if (!lf_ruleset_load_builtin(&set, &err) || !lf_ruleset_load_dir(&set, rules, &err)) {
        fprintf(stderr, "rules: %s\n", err ? err : "?");
        return 1;
    }
    free(rules);
    const char *code = "lock(a)\nunlock(b)\nlkx = y\nq = z\nother(c)\nunlock(lkw)\n";
    size_t walks = 0;

    char *got = scan(&set, 1, code, &walks);
    const char *want = "1:6 LF901 A lock(a);2:8 LF902 B unlock(b);3:1 LF901 A y(lkx);4:1 LF902 B z(q);"
                       "6:8 LF902 B unlock(lkw);";
    CHECK(strcmp(got, want) == 0, "prefilter on\n  want: %s\n  got:  %s", want, got);
    CHECK(walks == 1, "two rules pass their prefilters, one walk of the tree (got %zu)", walks);
    free(got);

    /* Without prefilters every rule runs, LF903 included, still in one walk. */
    got = scan(&set, 0, code, &walks);
    want = "1:1 LF903 C lock;1:6 LF901 A lock(a);1:6 LF903 C a;2:1 LF903 C unlock;2:8 LF902 B unlock(b);"
           "2:8 LF903 C b;3:1 LF901 A y(lkx);3:1 LF903 C lkx;3:7 LF903 C y;4:1 LF902 B z(q);4:1 LF903 C q;"
           "4:5 LF903 C z;5:1 LF903 C other;5:7 LF903 C c;6:1 LF903 C unlock;6:8 LF902 B unlock(lkw);"
           "6:8 LF903 C lkw;";
    CHECK(strcmp(got, want) == 0, "prefilter off\n  want: %s\n  got:  %s", want, got);
    CHECK(walks == 1, "every rule, one walk of the tree (got %zu)", walks);
    free(got);

    /* Each rule alone gives exactly its share of the combined findings. */
    const char *alone[2][2] = {{"LF901", "1:6 LF901 A lock(a);3:1 LF901 A y(lkx);"},
                               {"LF902", "2:8 LF902 B unlock(b);4:1 LF902 B z(q);6:8 LF902 B unlock(lkw);"}};
    for (int i = 0; i < 2; i++) {
        lf_rule *one[1] = {(lf_rule *)lf_ruleset_find(&set, alone[i][0])};
        lf_ruleset just = {one, 1};
        got = scan(&just, 1, code, &walks);
        CHECK(strcmp(got, alone[i][1]) == 0, "%s alone\n  want: %s\n  got:  %s", alone[i][0], alone[i][1], got);
        CHECK(walks == 1, "%s alone: one walk, with its own query (got %zu)", alone[i][0], walks);
        free(got);
    }
    /* With a C check: LF902's patterns are 0 and 1 of LF902, not of the combined query. */
    static const lf_check test_check = {"test-pattern-and-captures", report_pattern_and_captures,
                                        LF_LANG_BIT(LF_LANG_PYTHON) | LF_LANG_BIT(LF_LANG_TYPESCRIPT) |
                                            LF_LANG_BIT(LF_LANG_TSX),
                                        0, NULL};
    lf_rule *b = (lf_rule *)lf_ruleset_find(&set, "LF902");
    b->check = &test_check;
    got = scan(&set, 1, code, &walks);
    want = "1:6 LF901 A lock(a);2:8 LF902 pattern 1 fn=unlock;3:1 LF901 A y(lkx);4:1 LF902 pattern 0 fn=z;"
           "6:8 LF902 pattern 1 fn=unlock;";
    CHECK(strcmp(got, want) == 0, "check sees rule-relative patterns\n  want: %s\n  got:  %s", want, got);
    CHECK(walks == 1, "with a C check, one walk (got %zu)", walks);
    free(got);
    b->check = NULL;
    lf_ruleset_free(&set);
    return lf_test_check_summary();
}
