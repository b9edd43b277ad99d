/* Target (b): TS/JS source through the same path as Python, once with the
 * TypeScript grammar (.ts .js ...) and once with TSX (.tsx .jsx). Every
 * builtin TS/JS rule runs, and fuzz/rules/ adds two TS rules that use every
 * predicate kind, a prefilter and @finding captures: the grammars, the query
 * engine, predicates, suppressions and fingerprints all run on the input,
 * and the findings must be the same without prefilters. */
#include <string.h>

#include "fuzz_common.h"

static void run_as(const char *text, size_t size, lf_lang lang, const char *path) {
    lf_source src;
    lf_source_from_text(&src, path, lang, text, size);
    size_t n;
    lf_finding *f = lf_fuzz_analyze(&src, &n);
    for (size_t i = 0; i < n; i++) {
        if (f[i].start_byte > f[i].end_byte || f[i].end_byte > src.len)
            lf_fuzz_fail("%s finding bytes [%u, %u) outside the %zu-byte file", f[i].rule->id, f[i].start_byte,
                         f[i].end_byte, src.len);
        if (f[i].line < 1 || f[i].line > lf_source_n_lines(&src) || !f[i].message)
            lf_fuzz_fail("%s finding at line %u of %zu, message %p", f[i].rule->id, f[i].line, lf_source_n_lines(&src),
                         (void *)f[i].message);
    }
    lf_fuzz_same_without_prefilters(&src, f, n);
    lf_fuzz_findings_free(f, n);
    lf_source_free(&src);
}

LF_FUZZ_ENGINE_AT_START

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (lf_source_first_bad_byte(text, size) < size)
        return -1;
    run_as(text, size, LF_LANG_TYPESCRIPT, "/nonexistent-lockfix-fuzz/pkg/mod.ts");
    run_as(text, size, LF_LANG_TSX, "/nonexistent-lockfix-fuzz/pkg/mod.tsx");
    return 0;
}
