#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static lf_ruleset g_rules;
static lf_engine_shared *g_shared;
static lf_engine *g_engine;

void lf_fuzz_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("lockfix fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

const lf_ruleset *lf_fuzz_rules(void) {
    if (!g_rules.n_rules) {
        char *err = NULL;
        if (!lf_ruleset_load_builtin(&g_rules, &err) || !lf_ruleset_load_dir(&g_rules, LF_FUZZ_RULES_DIR, &err))
            lf_fuzz_fail("rules do not load: %s", err ? err : "?");
    }
    return &g_rules;
}

lf_engine *lf_fuzz_engine(void) {
    if (!g_engine) {
        const lf_ruleset *rules = lf_fuzz_rules();
        g_shared = lf_engine_shared_new(rules);
        /* Compiled now, so the first input is not charged with it: seconds under
         * the sanitizers, enough for a loaded machine to report that input
         * (often the empty one) as a timeout. */
        lf_engine_shared_prepare(g_shared);
        lf_engine_options opts = {
            .rules = rules, .shared = g_shared, .config = NULL, .want_fixes = 1, .use_prefilter = 1};
        g_engine = lf_engine_new(&opts);
    }
    return g_engine;
}

lf_finding *lf_fuzz_analyze(lf_source *src, size_t *n) {
    lf_finding *f = NULL;
    char *err = NULL;
    *n = 0;
    if (lf_engine_analyze(lf_fuzz_engine(), src, &f, n, &err) != 0)
        lf_fuzz_fail("engine error: %s", err ? err : "?");
    return f;
}

void lf_fuzz_findings_free(lf_finding *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
    free(f);
}
