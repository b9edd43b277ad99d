/* lf_fanout: the per-integration summary `lockfix fix` prints after a run.
 *
 * A monorepo fan-out fixes many sibling integrations at once; what the user
 * needs next is, per integration, what changed and what was left and why. An
 * integration is a top-level directory under a scanned root (files directly in
 * the root form the group "."); a file named on the command line is its own
 * group. Groups print in walk order, roots in argument order. */
#ifndef LF_FANOUT_H
#define LF_FANOUT_H

#include <stdio.h>

#include "lf_finding.h"

typedef struct lf_fanout lf_fanout;

/* roots: the scanned paths as given (borrowed for the summary's lifetime). */
lf_fanout *lf_fanout_new(char *const *roots, size_t n_roots);
void lf_fanout_free(lf_fanout *fo);

/* A scanned file (so integrations with nothing to fix are listed too). */
void lf_fanout_file(lf_fanout *fo, const char *path);
/* `path`'s fixes of finding f were applied (or diffed). */
void lf_fanout_fixed(lf_fanout *fo, const char *path, const lf_finding *f);
/* A file the fixes create (final path). */
void lf_fanout_created(lf_fanout *fo, const char *path);
/* A finding left without a fix, and why. */
void lf_fanout_left(lf_fanout *fo, const lf_finding *f, const char *reason);

/* `fix --verify`: the integration `path` belongs to, as an index for the
 * calls below (created on first sight like the others). */
size_t lf_fanout_integration(lf_fanout *fo, const char *path);
/* Its name ("claude-code") and the directory its verify command runs in
 * ("fixtures/integrations/claude-code"; the root for "."; a file argument's
 * directory). */
const char *lf_fanout_integration_name(const lf_fanout *fo, size_t integration);
const char *lf_fanout_integration_dir(const lf_fanout *fo, size_t integration);
/* Record what the verify command decided for it: verified 1 (its fixes are
 * kept) or 0 (not applied, or rolled back), a one-line note and, when the
 * command failed, the last lines it printed. */
void lf_fanout_verified(lf_fanout *fo, size_t integration, int verified, const char *note, const char *tail);

/* "applied" or "diff" names the mode in the header. */
void lf_fanout_print(const lf_fanout *fo, const char *mode, FILE *out);

#endif
