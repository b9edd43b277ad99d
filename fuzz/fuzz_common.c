#include "fuzz_common.h"
#include "lf_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lf_ruleset g_rules;
static lf_engine_shared *g_shared;
static lf_engine *g_engine;
static lf_engine *g_unfiltered; /* prefilters and gates off, no fixes */

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
        /* The built-ins compile their queries on first use: all of them now,
         * so no input is charged with it (see lf_fuzz_engine). */
        for (size_t i = 0; i < g_rules.n_rules; i++)
            if (!lf_rule_compile_all(g_rules.rules[i], &err))
                lf_fuzz_fail("rule does not compile: %s", err ? err : "?");
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

/* The findings of one engine; an engine error aborts (`what` names the engine). */
static lf_finding *analyze_with(lf_engine *eng, lf_source *src, size_t *n, const char *what) {
    lf_finding *f = NULL;
    char *err = NULL;
    *n = 0;
    if (lf_engine_analyze(eng, src, &f, n, &err) != 0)
        lf_fuzz_fail("engine error%s: %s", what, err ? err : "?");
    return f;
}

/* Did the finding's rule have a gate that skipped this text? */
static int gated_out(const lf_finding *f, const lf_source *src) {
    const lf_check *c = f->rule->check;
    return c && c->gate && !lf_check_gate(c, src->path, src->text, src->len, src->lang);
}

void lf_fuzz_same_without_prefilters(lf_source *src, const lf_finding *f, size_t n) {
    if (!g_unfiltered) {
        lf_fuzz_engine();
        lf_engine_options opts = {
            .rules = lf_fuzz_rules(), .shared = g_shared, .config = NULL, .want_fixes = 0, .use_prefilter = 0};
        g_unfiltered = lf_engine_new(&opts);
    }
    size_t m;
    lf_finding *g = analyze_with(g_unfiltered, src, &m, " without prefilters");
    /* A gate reads the text; on text that does not parse, the checks read the
     * grammar's recovery, which may differ (a receiver dropped, `js.replace(a,
     * b)` read as a bare `replace(a, b)`): there, a finding of a rule whose
     * gate skipped the file is not compared (rules/README.md, "Check gates").
     * Every other finding, and every finding of text that parses, must match. */
    int lenient = !lf_engine_parses_cleanly(src->lang, src->text, src->len);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (lenient && j < m && gated_out(&g[j], src) &&
            (i >= n || f[i].rule != g[j].rule || f[i].line != g[j].line || f[i].col != g[j].col)) {
            j++;
            continue;
        }
        if (i >= n || j >= m)
            lf_fuzz_fail("%zu findings with prefilters, %zu without: a prefilter or gate hid one", n, m);
        if (f[i].rule != g[j].rule || f[i].line != g[j].line || f[i].col != g[j].col)
            lf_fuzz_fail("finding %zu differs without prefilters: %s at %u:%u, %s at %u:%u", i, f[i].rule->id,
                         f[i].line, f[i].col, g[j].rule->id, g[j].line, g[j].col);
        i++;
        j++;
    }
    lf_fuzz_findings_free(g, m);
}

lf_finding *lf_fuzz_analyze(lf_source *src, size_t *n) { return analyze_with(lf_fuzz_engine(), src, n, ""); }

void lf_fuzz_findings_free(lf_finding *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
    free(f);
}

/* The fixed text of one pass over text, or NULL when there is nothing to apply
 * or the set is refused. *n_fixed = findings whose fix landed. */
static char *fix_pass(const char *text, size_t len, lf_lang lang, const char *path, size_t *out_len, size_t *n_fixed) {
    lf_source src;
    lf_source_from_text(&src, path, lang, text, len);
    size_t n;
    lf_finding *f = lf_fuzz_analyze(&src, &n);
    lf_fixed_file ff;
    memset(&ff, 0, sizeof ff);
    char *err = NULL;
    char *fixed = NULL;
    *n_fixed = 0;
    if (lf_fix_apply(&src, f, n, &ff, &err)) {
        if (ff.text) {
            if (ff.len == len && memcmp(ff.text, text, len) == 0)
                lf_fuzz_fail("fix set of %zu findings leaves the text as it was", ff.n_fixed);
            fixed = ff.text;
            *out_len = ff.len;
            *n_fixed = ff.n_fixed;
            ff.text = NULL;
        }
        lf_fixed_file_free(&ff);
    } else {
        free(err);
    }
    lf_fuzz_findings_free(f, n);
    lf_source_free(&src);
    return fixed;
}

/* Does the text parse cleanly as the language reads it? Python and JS end a
 * line at a lone CR, the grammars do not (`f()\r    (p).unlink()` is two
 * statements to CPython, one chained call to the grammar): read a lone CR as
 * LF first, as lf_source does for analysis and lf_fix for its own check. */
static int parses_as_the_language(lf_lang lang, const char *text, size_t len) {
    char *copy = malloc(len ? len : 1);
    if (!copy)
        lf_fuzz_fail("out of memory");
    memcpy(copy, text, len);
    for (size_t i = 0; i < len; i++)
        if (copy[i] == '\r' && (i + 1 == len || copy[i + 1] != '\n'))
            copy[i] = '\n';
    int clean = lf_engine_parses_cleanly(lang, copy, len);
    free(copy);
    return clean;
}

void lf_fuzz_fix_round_trip(const char *text, size_t size, lf_lang lang, const char *path) {
    size_t len1 = 0, n1 = 0;
    char *once = fix_pass(text, size, lang, path, &len1, &n1);
    if (!once)
        return;
    /* The promise is "never a file that no longer parses". The engine makes
     * no fixes for an input that already has ERROR nodes, so one fixed here
     * parsed cleanly; the check stays in the weaker form lf_fix uses. */
    if (parses_as_the_language(lang, text, size) && !parses_as_the_language(lang, once, len1))
        lf_fuzz_fail("the fixed text (%zu fixes) does not parse cleanly", n1);
    if (lf_source_first_bad_byte(once, len1) < len1)
        lf_fuzz_fail("the fixed text has a NUL or invalid UTF-8 byte");
    size_t len2 = 0, n2 = 0;
    char *twice = fix_pass(once, len1, lang, path, &len2, &n2);
    if (twice)
        lf_fuzz_fail("applying the fixes twice changes the file again (%zu more fixes, %zu -> %zu bytes)", n2, len1,
                     len2);
    free(once);
}
