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

/* "applied" or "diff" names the mode in the header. */
void lf_fanout_print(const lf_fanout *fo, const char *mode, FILE *out);

#endif
