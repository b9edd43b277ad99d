/* Runs every builtin rule's inline test cases (rules/<ID>-*.json "tests"):
 * valid code must give no finding of that rule, invalid code exactly the listed
 * [line, col] findings. Each case runs with and without the prefilter, so a
 * prefilter that hides a real finding fails here. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_engine.h"
#include "lf_rule.h"
#include "lf_rules_builtin.h"
#include "lf_util.h"

static int g_failures;
static int g_cases;

static char *case_code(const cJSON *v) {
    if (cJSON_IsObject(v))
        v = cJSON_GetObjectItemCaseSensitive(v, "code");
    if (cJSON_IsString(v))
        return lf_xstrdup(v->valuestring);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        lf_strbuf_puts(&sb, e->valuestring);
        lf_strbuf_putc(&sb, '\n');
    }
    return lf_strbuf_detach(&sb);
}

static lf_lang case_lang(const cJSON *c, const lf_rule *r) {
    const cJSON *l = cJSON_IsObject(c) ? cJSON_GetObjectItemCaseSensitive(c, "language") : NULL;
    unsigned mask = l ? lf_lang_mask_from_name(l->valuestring) : r->languages;
    for (int i = 0; i < LF_LANG_COUNT; i++)
        if (mask & LF_LANG_BIT(i))
            return (lf_lang)i;
    return LF_LANG_PYTHON;
}

/* Findings of rule r on code, as "line:col" lines. */
static char *run(const lf_rule *r, lf_lang lang, const char *code, int prefilter) {
    lf_rule *one[1] = {(lf_rule *)r};
    lf_ruleset set = {one, 1};
    lf_engine_options opts = {.rules = &set, .config = NULL, .want_fixes = 0, .use_prefilter = prefilter};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, "case.py", lang, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    char *err = NULL;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (lf_engine_analyze(eng, &src, &f, &n, &err) != 0) {
        lf_strbuf_printf(&sb, "engine error: %s\n", err);
        free(err);
    }
    for (size_t i = 0; i < n; i++) {
        lf_strbuf_printf(&sb, "%u:%u\n", f[i].line, f[i].col);
        lf_finding_free_contents(&f[i]);
    }
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    return lf_strbuf_detach(&sb);
}

static void check_case(const lf_rule *r, const char *kind, size_t idx, const cJSON *c, const char *want) {
    char *code = case_code(c);
    lf_lang lang = case_lang(c, r);
    for (int pf = 1; pf >= 0; pf--) {
        char *got = run(r, lang, code, pf);
        g_cases++;
        if (strcmp(got, want) != 0) {
            g_failures++;
            fprintf(stderr, "FAIL %s tests.%s[%zu] (prefilter %s)\n--- code\n%s--- want\n%s--- got\n%s\n", r->id, kind,
                    idx, pf ? "on" : "off", code, want, got);
        }
        free(got);
    }
    free(code);
}

int main(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    if (!lf_ruleset_load_builtin(&set, &err)) {
        fprintf(stderr, "builtin rules do not load: %s\n", err);
        return 1;
    }
    /* Built-in queries compile on first use (lf_rule_query), where a broken one
     * would abort a scan: every one of them must compile here, for every grammar. */
    for (size_t i = 0; i < set.n_rules; i++) {
        if (!lf_rule_compile_all(set.rules[i], &err)) {
            fprintf(stderr, "FAIL %s: %s\n", set.rules[i]->id, err);
            free(err);
            g_failures++;
        }
    }
    for (size_t b = 0; b < lf_builtin_rules_count; b++) {
        cJSON *doc = cJSON_ParseWithLength(lf_builtin_rules[b].text, lf_builtin_rules[b].len);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");
        const lf_rule *r = lf_ruleset_find(&set, id->valuestring);
        char *cerr = NULL;
        if (!lf_rule_compile_all(r, &cerr)) { /* reported above; its cases would abort */
            free(cerr);
            cJSON_Delete(doc);
            continue;
        }
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
        const cJSON *valid = cJSON_GetObjectItemCaseSensitive(tests, "valid");
        const cJSON *invalid = cJSON_GetObjectItemCaseSensitive(tests, "invalid");
        if (cJSON_GetArraySize(valid) < 1 || cJSON_GetArraySize(invalid) < 1) {
            fprintf(stderr, "FAIL %s: a rule needs at least one valid and one invalid test case\n", r->id);
            g_failures++;
        }
        size_t i = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, valid) check_case(r, "valid", i++, c, "");
        i = 0;
        cJSON_ArrayForEach(c, invalid) {
            lf_strbuf want;
            lf_strbuf_init(&want);
            const cJSON *p;
            cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "findings"))
                lf_strbuf_printf(&want, "%d:%d\n", cJSON_GetArrayItem(p, 0)->valueint, cJSON_GetArrayItem(p, 1)->valueint);
            check_case(r, "invalid", i++, c, want.data ? want.data : "");
            lf_strbuf_free(&want);
        }
        cJSON_Delete(doc);
    }
    lf_ruleset_free(&set);
    printf("%d rule test runs, %d failures\n", g_cases, g_failures);
    return g_failures ? 1 : 0;
}
