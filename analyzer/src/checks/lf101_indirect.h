/* LF101's indirect shapes (lf101_indirect.c): lock helpers, stand-in lock
 * classes and swallowed exclusive creates. */
#ifndef LF101_INDIRECT_H
#define LF101_INDIRECT_H

#include <tree_sitter/api.h>

#include "lf_pysem.h"

/* 1 when `call` takes an exclusive lock (the main recogniser's judgement). */
typedef int (*lf101_lock_call_fn)(lf_pysem *m, TSNode call);

struct lf_witness;
/* A finding in function `scope` at `at`: message and decline reason (both
 * malloc'd; the callee takes them), and its witness (the callee takes it;
 * may be NULL). */
typedef void (*lf101_indirect_fn)(void *ud, int32_t scope, TSNode at, char *message, char *decline,
                                  struct lf_witness *witness);

/* Report each indirect fallback in functions not yet `reported` (per scope). */
void lf101_find_indirect(lf_pysem *m, const unsigned char *reported, lf101_lock_call_fn is_lock,
                         lf101_indirect_fn emit, void *ud);

/* Where the unlocked path runs, for a fallback on the lock module `module`
 * ("fcntl", "msvcrt.locking", "filelock.FileLock"): "on Windows, where fcntl
 * does not exist", "wherever the filelock package is not installed", ...
 * malloc'd. */
char *lf101_where_missing(const char *module);

#endif
