/* Target (c): the fix engine. Analyze Python source with fixes on, merge and
 * apply every safe fix (lf_fix_apply: what `lockfix fix` writes), then check the
 * two promises of docs/architecture.md "Fixes" independently of lf_fix's own
 * checks: the fixed text parses without ERROR or MISSING nodes, and a second
 * run over the fixed text changes nothing. A refused fix set is a fine outcome
 * (lf_fix declines overlaps and unparsable results); a written one must hold. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

/* The fixed text of one pass over text, or NULL when there is nothing to apply
 * or the set is refused. *n_fixed = findings whose fix landed. */
static char *fix_pass(const char *text, size_t len, size_t *out_len, size_t *n_fixed) {
    lf_source src;
    lf_source_from_text(&src, LF_FUZZ_PATH, LF_LANG_PYTHON, text, len);
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

LF_FUZZ_ENGINE_AT_START

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (lf_source_first_bad_byte(text, size) < size)
        return -1;
    size_t len1 = 0, n1 = 0;
    char *once = fix_pass(text, size, &len1, &n1);
    if (!once)
        return 0;
    /* The promise is "never a file that no longer parses". The engine makes
     * no fixes for an input that already has ERROR nodes, so one fixed here
     * parsed cleanly; the check stays in the weaker form lf_fix uses. */
    if (lf_engine_parses_cleanly(LF_LANG_PYTHON, text, size) &&
        !lf_engine_parses_cleanly(LF_LANG_PYTHON, once, len1))
        lf_fuzz_fail("the fixed text (%zu fixes) does not parse cleanly", n1);
    if (lf_source_first_bad_byte(once, len1) < len1)
        lf_fuzz_fail("the fixed text has a NUL or invalid UTF-8 byte");
    size_t len2 = 0, n2 = 0;
    char *twice = fix_pass(once, len1, &len2, &n2);
    if (twice)
        lf_fuzz_fail("applying the fixes twice changes the file again (%zu more fixes, %zu -> %zu bytes)", n2, len1,
                     len2);
    free(once);
    return 0;
}
