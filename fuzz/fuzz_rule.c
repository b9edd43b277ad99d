/* Target (d): rule documents through the loader (lf_rule_parse: strict JSON
 * validation, tree-sitter query compilation per grammar, predicates and their
 * regexes, prefilter groups, inline test cases). The input is passed exactly as
 * given, not NUL-terminated: the API takes a length. A rule that loads is then
 * put to work on a small source in each of its languages, so the compiled
 * query and predicates run too. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "lf_rule.h"

static const char *const k_sample[LF_LANG_COUNT] = {
    "import fcntl\ntry:\n    import fcntl\nexcept ImportError:\n    fcntl = None\n"
    "def f(p):\n    tmp = p + '.tmp'\n    with open(tmp, 'w') as fh:\n        fh.write('x')\n    os.replace(tmp, p)\n",
    "import * as fs from 'fs';\nfunction f(p: string) { const t = `${p}.tmp`; fs.renameSync(t, p); "
    "try { process.kill(pid, 0) } catch {} }\n",
    "const A = () => <div onClick={() => fs.unlinkSync('x.lock')}>{lock(p)}</div>;\n",
};
static const char *const k_path[LF_LANG_COUNT] = {"/nonexistent-lockfix-fuzz/a.py", "/nonexistent-lockfix-fuzz/a.ts",
                                                  "/nonexistent-lockfix-fuzz/a.tsx"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lf_rule *r = NULL;
    char *err = NULL;
    if (!lf_rule_parse((const char *)data, size, "fuzz.json", &r, &err)) {
        if (!err || strncmp(err, "fuzz.json", 9) != 0)
            lf_fuzz_fail("a refused rule document must name its origin: %s", err ? err : "(no message)");
        free(err);
        return 0;
    }
    lf_ruleset set = {lf_xcalloc(1, sizeof(lf_rule *)), 1};
    set.rules[0] = r;
    lf_engine_options opts = {.rules = &set, .want_fixes = 1, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        if (!(r->languages & LF_LANG_BIT(l)))
            continue;
        lf_source src;
        lf_source_from_text(&src, k_path[l], (lf_lang)l, k_sample[l], strlen(k_sample[l]));
        lf_finding *f = NULL;
        size_t n = 0;
        if (lf_engine_analyze(eng, &src, &f, &n, &err) != 0)
            free(err);
        lf_fuzz_findings_free(f, n);
        lf_source_free(&src);
    }
    lf_engine_free(eng);
    lf_ruleset_free(&set);
    return 0;
}
