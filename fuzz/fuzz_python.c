/* Target (a): Python source through the whole engine, as `lockfix fix` runs it:
 * every builtin rule, prefilter on, fix generators on, then again with the
 * prefilters and check gates off (the findings must not change). Input that lockfix would
 * refuse to read (NUL bytes, invalid UTF-8) is refused here too. Besides the
 * sanitizers, it checks what the engine promises of every finding: positions
 * inside the file, start before end, and edits inside the file and in order. */
#include <stdlib.h>

#include "fuzz_common.h"

static void check_findings(const lf_source *src, const lf_finding *f, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (f[i].start_byte > f[i].end_byte || f[i].end_byte > src->len)
            lf_fuzz_fail("%s finding bytes [%u, %u) outside the %zu-byte file", f[i].rule->id, f[i].start_byte,
                         f[i].end_byte, src->len);
        if (f[i].line < 1 || f[i].line > lf_source_n_lines(src) || f[i].end_line < f[i].line)
            lf_fuzz_fail("%s finding lines %u..%u outside 1..%zu", f[i].rule->id, f[i].line, f[i].end_line,
                         lf_source_n_lines(src));
        if (!f[i].message || !f[i].fingerprint[0])
            lf_fuzz_fail("%s finding without message or fingerprint", f[i].rule->id);
        if (i && (f[i - 1].line > f[i].line || (f[i - 1].line == f[i].line && f[i - 1].col > f[i].col)))
            lf_fuzz_fail("findings not sorted by position");
        const lf_fix *fx = f[i].fix;
        for (size_t e = 0; fx && e < fx->n_edits; e++)
            if (fx->edits[e].start > fx->edits[e].end || fx->edits[e].end > src->len || !fx->edits[e].text)
                lf_fuzz_fail("%s edit [%u, %u) outside the %zu-byte file", f[i].rule->id, fx->edits[e].start,
                             fx->edits[e].end, src->len);
    }
}

LF_FUZZ_ENGINE_AT_START

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (lf_source_first_bad_byte(text, size) < size)
        return -1; /* lf_source_load refuses it: not worth keeping in the corpus */
    lf_source src;
    lf_source_from_text(&src, LF_FUZZ_PATH, LF_LANG_PYTHON, text, size);
    size_t n;
    lf_finding *f = lf_fuzz_analyze(&src, &n);
    check_findings(&src, f, n);
    lf_fuzz_same_without_prefilters(&src, f, n);
    lf_fuzz_findings_free(f, n);
    lf_source_free(&src);
    return 0;
}
