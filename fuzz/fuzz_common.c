#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        lf_engine_options opts = {
            .rules = rules, .shared = g_shared, .config = NULL, .want_fixes = 1, .use_prefilter = 1};
        g_engine = lf_engine_new(&opts);
        /* Compile every language's combined query now (a throwaway engine
         * without prefilters shares them), so the first input is not charged
         * with the compile: seconds under the sanitizers, enough for a loaded
         * machine to report the first unit (often the empty input) as a
         * timeout. */
        lf_engine_options warm_opts = opts;
        warm_opts.use_prefilter = 0;
        lf_engine *warm = lf_engine_new(&warm_opts);
        static const struct {
            lf_lang lang;
            const char *path, *text;
        } k_warm[] = {{LF_LANG_PYTHON, "/nonexistent-lockfix-fuzz/w.py", "x = 1\n"},
                      {LF_LANG_TYPESCRIPT, "/nonexistent-lockfix-fuzz/w.ts", "let x = 1;\n"},
                      {LF_LANG_TSX, "/nonexistent-lockfix-fuzz/w.tsx", "let x = 1;\n"}};
        for (size_t i = 0; i < sizeof k_warm / sizeof k_warm[0]; i++) {
            lf_source src;
            lf_source_from_text(&src, k_warm[i].path, k_warm[i].lang, k_warm[i].text, strlen(k_warm[i].text));
            lf_finding *f = NULL;
            size_t n = 0;
            char *err = NULL;
            if (lf_engine_analyze(warm, &src, &f, &n, &err) != 0)
                lf_fuzz_fail("warm-up analysis failed: %s", err ? err : "?");
            lf_fuzz_findings_free(f, n);
            lf_source_free(&src);
        }
        lf_engine_free(warm);
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
