/* TEST ONLY: `lockfix-testhooks` is lockfix (the same main and core library)
 * plus one deliberately broken fix generator, `test_off_by_one`, installed
 * through the lf_rule_test_fixer_find seam before main runs. It turns the
 * integer literal a rule flags into the next one: the file still parses, its
 * behaviour is wrong, and `fix --verify` must roll it back. Built only with
 * the tests and never installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_rule.h"
#include "lf_util.h"

static lf_fix *off_by_one_at(const lf_fix_ctx *ctx, TSNode at, char **no_fix_reason) {
    if (strcmp(ts_node_type(at), "integer") != 0) {
        *no_fix_reason = lf_xstrdup("test_off_by_one only rewrites integer literals");
        return NULL;
    }
    char *text = lf_node_text(ctx->src, at);
    char *next = lf_xasprintf("%ld", strtol(text, NULL, 10) + 1);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    fix->title = lf_xstrdup("TEST ONLY: off by one");
    lf_fix_add_edit(fix, ts_node_start_byte(at), ts_node_end_byte(at), next);
    free(next);
    free(text);
    return fix;
}

static void off_by_one(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = off_by_one_at(ctx, reqs[i].at, &reqs[i].no_fix_reason);
}

static const lf_fixer k_off_by_one = {"test_off_by_one", off_by_one, 0};

static const lf_fixer *find_test_fixer(const char *name) {
    return strcmp(name, k_off_by_one.name) == 0 ? &k_off_by_one : NULL;
}

__attribute__((constructor)) static void install_test_fixers(void) { lf_rule_test_fixer_find = find_test_fixer; }
