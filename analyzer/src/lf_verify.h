/* lf_verify: `lockfix fix --apply --verify CMD`, the fan-out checked by each
 * integration's own tests.
 *
 * For each integration with fixes to apply (a top-level directory of a scanned
 * root, lf_fanout.h), in walk order: run CMD (in that directory, or from the
 * current one with "{dir}" replaced by it); when it passes, apply the
 * integration's fixes through an lf_rollback journal and run CMD again. The
 * edits are kept only when it passes again; otherwise every file the fixes
 * rewrote is restored byte for byte and every file (and directory) they
 * created is removed, and the summary says so with the command's last lines.
 * An integration whose command already fails without the fixes is left
 * untouched: the command cannot vouch for them.
 */
#ifndef LF_VERIFY_H
#define LF_VERIFY_H

#include <stddef.h>

#include "lf_fanout.h"
#include "lf_finding.h"
#include "lf_fix.h"
#include "lf_scan.h"

typedef struct lf_verify_options {
    const char *command;  /* shell command; "{dir}" is replaced by the integration's directory */
    unsigned timeout_s;   /* per run; 0 = none */
    size_t tail_lines;    /* lines of a failed run shown in the summary */
} lf_verify_options;

typedef struct lf_verify_result {
    size_t files_fixed, fixes;  /* kept, as `fix --apply` counts them */
    size_t remaining;           /* fixable findings at or above fail_on left by refused integrations */
    size_t not_kept;            /* integrations not applied or rolled back */
    int errors;                 /* a write, create or restore failed (exit 2) */
} lf_verify_result;

/* fixed[i] and usable[i] are `fix`'s plan for s->files[i]; planned holds the
 * new files of the whole run (final paths). Findings left unfixed are reported
 * on stderr and in fo, as `fix` does for the others. */
void lf_verify_apply(const lf_verify_options *o, const lf_scan *s, const lf_fixed_file *fixed, const int *usable,
                     const lf_new_file_set *planned, lf_fanout *fo, lf_verify_result *out);

#endif
