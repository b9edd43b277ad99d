/* Target (c'): the TS/JS fixers (LF401's unique temp, LF303's ESRCH test,
 * LF301's owned release with its vendored lockrt.cjs), checked as fuzz_fix
 * checks Python's (lf_fuzz_fix_round_trip). The module style decides how a
 * fix imports (ESM or CJS) and the file name decides the style when the text
 * does not, so each input runs as a .ts module, as a CommonJS .cjs script and,
 * through the TSX grammar, as a .tsx module. */
#include "fuzz_common.h"

LF_FUZZ_ENGINE_AT_START

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    if (lf_source_first_bad_byte(text, size) < size)
        return -1;
    lf_fuzz_fix_round_trip(text, size, LF_LANG_TYPESCRIPT, "/nonexistent-lockfix-fuzz/pkg/mod.ts");
    lf_fuzz_fix_round_trip(text, size, LF_LANG_TYPESCRIPT, "/nonexistent-lockfix-fuzz/pkg/mod.cjs");
    lf_fuzz_fix_round_trip(text, size, LF_LANG_TSX, "/nonexistent-lockfix-fuzz/pkg/mod.tsx");
    return 0;
}
