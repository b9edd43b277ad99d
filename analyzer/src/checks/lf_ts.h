/* Shared by the TS/JS siblings of the checks (lfNNN_ts.c): each Python
 * check's run() hands a TS/JS/TSX/JSX file to its sibling. */
#ifndef LF_TS_H
#define LF_TS_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_check.h"
#include "lf_tslock.h"
#include "lf_tssem.h"

void lf103_ts_run(lf_check_ctx *ctx);
void lf101_ts_run(lf_check_ctx *ctx);
void lf104_ts_run(lf_check_ctx *ctx);
void lf201_ts_run(lf_check_ctx *ctx);
void lf301_ts_run(lf_check_ctx *ctx);
void lf302_ts_run(lf_check_ctx *ctx);
void lf303_ts_run(lf_check_ctx *ctx);
void lf401_ts_run(lf_check_ctx *ctx);

/* LF101's TS/JS gate: could the text hold an acquisition lf_tslock sees?
 * 0 only when it cannot (lf101_ts.c). */
int lf101_ts_gate(const char *text, size_t len);
/* LF104's TS/JS gate: could the text hold both a read and a write the check
 * pairs? 0 only when it cannot (lf104_ts.c). */
int lf104_ts_gate(const char *text, size_t len);

/* The parent of n, climbing at most a bounded number of levels from where a
 * check starts (ts_node_parent walks down from the root: never loop on it
 * over a whole tree). */
TSNode lf_ts_parent(TSNode n);
/* Does the source of n contain needle (bytes)? */
int lf_ts_text_has(const lf_source *src, TSNode n, const char *needle);
/* Is `inner` the same node as, or inside, `outer`? */
int lf_ts_within(TSNode inner, TSNode outer);
/* Can path expression `expr` (read where it stands) be written again at `at`
 * for the same value: a string literal, a name bound the same at both places
 * (a module-level const, a closure's variable, a local not assigned in
 * between), or `this.x` in the same function? */
int lf_ts_nameable_at(lf_tssem *m, TSNode expr, TSNode at);
/* The node of the declared function (or program) a node belongs to. */
TSNode lf_ts_fn_node(lf_tssem *m, TSNode n);
/* Is a lock held around n in its function: a lock library call, an exclusive
 * create, a call of something named lock/mutex/acquire in the function, or n
 * inside a callback handed to such a call (`withLock(p, () => ...)`)? Or is
 * n's function one of the module's own that is only called, one or more
 * times, where a lock is held (a start-up step after its lifecycle lock)? */
int lf_ts_lock_held(lf_tssem *m, lf_tslock *l, TSNode n);
/* lf_ts_lock_held, where the path expression `path` itself (a temp created
 * exclusively, then written) is no lock that covers n. */
int lf_ts_lock_held_but(lf_tssem *m, lf_tslock *l, TSNode n, TSNode path);
/* Is the call, by its name, one that takes or wraps work in a lock
 * (acquire*, *withLock*, mutex*, ...Lock)? */
int lf_ts_lockish_call(lf_tssem *m, TSNode call);

#endif
