/* lf_baseline: adopt the lint gradually. `scan --write-baseline FILE` records
 * the current findings; `scan --baseline FILE` drops the recorded ones before
 * reporting, so the report and the exit status cover only new findings.
 *
 * Findings are matched by their fingerprint (lf_fingerprint.h: rule, path,
 * enclosing function, flagged code, occurrence), the same string SARIF
 * publishes as partialFingerprints["lockfixFingerprint/v1"]. The file is JSON
 * (docs/output-formats.md, "Baseline"); only "fingerprint" is matched, the
 * other fields are there for a reviewer.
 */
#ifndef LF_BASELINE_H
#define LF_BASELINE_H

#include <stddef.h>

#include "lf_scan.h"
#include "lf_util.h"

#define LF_BASELINE_VERSION 1

typedef struct lf_baseline lf_baseline;

/* Returns the baseline, or NULL with *err (malloc'd, "FILE:LINE: ...") when the
 * file cannot be read or is not a lockfix baseline: exit status 2. */
lf_baseline *lf_baseline_load(const char *path, char **err);
void lf_baseline_free(lf_baseline *b);

typedef struct lf_baseline_result {
    size_t matched; /* findings dropped because the baseline has them */
    size_t stale;   /* baseline entries no finding matched (fixed or changed since) */
} lf_baseline_result;

/* Drop every finding of s whose fingerprint is in b. */
void lf_baseline_filter(lf_baseline *b, lf_scan *s, lf_baseline_result *out);

/* Render s's findings as a baseline document. */
void lf_baseline_render(const lf_scan *s, lf_strbuf *out);

#endif
