/* LF101's indirect shapes: swallowed exclusive creates (lf101_indirect.c),
 * lock helpers and stand-ins for lock packages (lf101_helper.c). */
#ifndef LF101_INDIRECT_H
#define LF101_INDIRECT_H

#include <tree_sitter/api.h>

#include "lf_pysem.h"

/* 1 when `call` takes an exclusive lock (the main recogniser's judgement). */
typedef int (*lf101_lock_call_fn)(lf_pysem *m, TSNode call);

struct lf_witness;
/* A finding in function `scope` at `at`: message and decline reason (both
 * malloc'd; the callee takes them), and its witness (the callee takes it;
 * may be NULL). `another_root`: a second root bug of a function reported
 * already (where the lock module is missing, and where waiting gives up),
 * not a duplicate of the first. `missing`: when the root bug is a lock
 * module missing (and nothing else), which one; else NULL. */
typedef struct lf101_missing {
    const char *import_fallback;  /* imported by the function itself; its ImportError handler goes on */
    const lf_pyoptional *module;  /* the module-level optional one, tested absent */
} lf101_missing;
typedef void (*lf101_indirect_fn)(void *ud, int32_t scope, TSNode at, char *message, char *decline,
                                  struct lf_witness *witness, int another_root, const lf101_missing *missing);

/* Report each indirect fallback in functions not yet `reported` (per scope;
 * emit is expected to mark the scope it reports in). is_unlock: 1 when a call
 * releases a lock. */
void lf101_find_indirect(lf_pysem *m, const unsigned char *reported, lf101_lock_call_fn is_lock,
                         lf101_lock_call_fn is_unlock, lf101_indirect_fn emit, void *ud);

/* lf101_helper.c: the module's own lock helpers (context managers, __enter__,
 * acquire()), swallowed acquisition errors, ignored "not acquired" results and
 * no-op stand-ins for lock packages, each reported once at its root. */
void lf101_find_helpers(lf_pysem *m, const unsigned char *reported, lf101_lock_call_fn is_lock,
                        lf101_lock_call_fn is_unlock, lf101_indirect_fn emit, void *ud);

/* For a @contextmanager function: does some `with` over it in the module run
 * a critical section that may write (or is it never used here, so exported)?
 * 1 for any other function. */
int lf101_cm_callers_write(lf_pysem *m, int32_t scope, lf101_lock_call_fn is_lock, lf101_lock_call_fn is_unlock);

/* Is the function (a function_definition) decorated with contextlib's
 * contextmanager or asynccontextmanager? */
int lf101_is_contextmanager(lf_pysem *m, TSNode fn);

/* The path an exclusive create makes (os.mkdir(p), os.open(p, ...O_EXCL...),
 * open(p, "x"), Path(p).mkdir()), or null. */
TSNode lf101_exclusive_create(lf_pysem *m, TSNode call);

/* Does the except clause catch a failed import (ImportError,
 * ModuleNotFoundError, Exception, BaseException, or bare)? */
int lf101_catches_import_error(lf_pysem *m, TSNode exc);

/* Classes whose instances take a file lock for a `with` body (NULL-terminated). */
extern const char *const lf101_lock_classes[];

/* Where the unlocked path runs, for a fallback on the lock module `module`
 * ("fcntl", "msvcrt.locking", "filelock.FileLock"): "on Windows, where fcntl
 * does not exist", "wherever the filelock package is not installed", ...
 * malloc'd. */
char *lf101_where_missing(const char *module);

#endif
