/* TS/JS halves of fix generators: a generator whose rule covers both
 * languages hands a TS/JS/TSX/JSX file's findings to its sibling here. */
#ifndef LF_TSFIX_H
#define LF_TSFIX_H

#include "lf_check.h"

void lf401_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n); /* lf401_ts_unique_temp.c */
void lf303_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n); /* lf303_ts_esrch.c */
void lf104_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n); /* lf104_ts_lockrt.c */
/* The protocol swap (lf_tsswap.c): when `at` lies in a module's own lock
 * protocol (sem/lf_tsproto.h), the fix that swaps it for lockrt's, or NULL
 * with *why (malloc'd) saying why not; NULL with *why NULL when `at` is in
 * no such protocol. */
lf_fix *lf_tsswap_fix(const lf_fix_ctx *ctx, TSNode at, char **why);
/* Under --unsafe-fixes, the findings of a safe rule (LF301, LF303) inside the
 * retry loop of a protocol the swap replaces get the swap, marked unsafe: its edits are the
 * same as LF302's there, and a call-site fix inside the loop it rewrites
 * would overlap them. Their sites are hidden (set NULL, the originals in
 * saved[0..n)) so the rule's own generator spells no import for them; the
 * caller puts them back. Returns how many were taken. */
size_t lf_tsswap_take_over(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n, const void **saved);
/* LF104's fixes (lf104_lockrt.c): the line of a statement after `span_end`
 * in the function `fn` that writes the document again (its text holds the
 * path's spelling and a write), which a lock around the span would leave
 * unlocked; 0 when none. */
uint32_t lf104_written_after(const lf_source *src, TSNode fn, uint32_t span_end, TSNode path);

/* Helpers shared by them (lf_tsfix.c). */
/* A name not mentioned under `scope` (malloc'd): the first free candidate,
 * else the first one with a number appended. */
char *lf_tsfix_fresh_name(struct lf_tssem *m, TSNode scope, const char *const *candidates);
/* The nth such name (0: the first): fixes of one file that each declare a
 * name in the same function take distinct ones. */
char *lf_tsfix_fresh_name_nth(struct lf_tssem *m, TSNode scope, const char *const *candidates, size_t nth);
/* The indentation one level adds inside the statement list holding `stmt`
 * ("  " when it cannot tell), malloc'd. */
char *lf_tsfix_indent_unit(const lf_source *src, TSNode stmt);

#endif
