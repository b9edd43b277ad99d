/* Target (c): the fix engine on Python. Analyze the source with fixes on,
 * merge and apply every safe fix (lf_fix_apply: what `lockfix fix` writes), then
 * check the two promises of docs/architecture.md "Fixes" independently of
 * lf_fix's own checks (lf_fuzz_fix_round_trip). fuzz_fix_ts does the same for
 * the TS/JS fixers. */
#include "fuzz_common.h"

LF_FUZZ_ENGINE_AT_START

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (lf_source_first_bad_byte(text, size) < size)
        return -1;
    lf_fuzz_fix_round_trip(text, size, LF_LANG_PYTHON, LF_FUZZ_PATH);
    return 0;
}
