/* Shared by the analyzer's fuzz targets: the rules and engines, built once per
 * process (libFuzzer calls LLVMFuzzerTestOneInput millions of times), and the
 * path every fuzzed source pretends to live at. */
#ifndef LF_FUZZ_COMMON_H
#define LF_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "lf_engine.h"
#include "lf_fix.h"

/* A directory that does not exist: the fix generators look around the module
 * (package style, other modules that use an import) and must find nothing, so
 * a run depends on the input alone. */
#define LF_FUZZ_PATH "/nonexistent-lockfix-fuzz/pkg/mod.py"

/* Builtin rules plus the fuzz-only rules of fuzz/rules/ (TS/TSX queries with
 * the predicate kinds no builtin rule uses). */
const lf_ruleset *lf_fuzz_rules(void);
/* One engine per process, fixes on, prefilter on (as `lockfix fix` runs). */
lf_engine *lf_fuzz_engine(void);

/* Defines LLVMFuzzerInitialize to build that engine and its queries before the
 * first input (the targets that analyze source use it; the others never build
 * an engine). */
#define LF_FUZZ_ENGINE_AT_START                                                                                        \
    int LLVMFuzzerInitialize(int *argc, char ***argv);                                                                 \
    int LLVMFuzzerInitialize(int *argc, char ***argv) {                                                                \
        (void)argc;                                                                                                    \
        (void)argv;                                                                                                    \
        lf_fuzz_engine();                                                                                              \
        return 0;                                                                                                      \
    }

/* Analyze text as lang; findings returned (caller frees with lf_fuzz_findings_free).
 * Aborts on an engine error: the engine has no business failing on any text. */
lf_finding *lf_fuzz_analyze(lf_source *src, size_t *n);
void lf_fuzz_findings_free(lf_finding *f, size_t n);
/* The same analysis with prefilters and check gates off: the findings must be
 * the same ones (rule and position), or the prefilter was unsound. Aborts. */
void lf_fuzz_same_without_prefilters(lf_source *src, const lf_finding *f, size_t n);

/* Apply every safe fix of text (as lang at path) and check what `lockfix fix`
 * promises: a text that parsed cleanly still does, the result is valid UTF-8
 * without NUL, a non-empty fix set changes the text, and a second pass over the
 * fixed text changes nothing. Aborts (lf_fuzz_fail) when one does not hold. */
void lf_fuzz_fix_round_trip(const char *text, size_t size, lf_lang lang, const char *path);

/* abort() with a message: libFuzzer reports it as a crash and saves the input. */
void lf_fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
