/*
 * Deterministic test seams of lockrt. NOT part of the installed API: this header
 * is not installed, and the functions below are exported only by the test build
 * of the library (target lockrt_testhooks, built with LOCKRT_EXPORT_TEST_HOOKS);
 * the production library keeps them hidden.
 *
 * Each hook lets a test create a race deterministically (a successor taking a
 * lock between the stale verdict and the removal, an object altered while in
 * quarantine) instead of hoping a scheduler produces it.
 */
#ifndef LOCKRT_TEST_HOOKS_H
#define LOCKRT_TEST_HOOKS_H

#include "lockrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOCKRT_EXPORT_TEST_HOOKS)
#define LOCKRT_TEST_API LOCKRT_API
#else
#define LOCKRT_TEST_API
#endif

typedef struct lockrt_test_hooks {
    /* reclaim: after the owner was judged stale, before the identity-bound removal */
    void (*after_stale_judgement)(const char *lock_path, void *hook_arg);
    /* identity-bound unlink: after the quarantine rename, before verification
     * (Unix; called with the quarantine path). Windows has no quarantine: it is
     * called with the lock path once the verifying DELETE handle is open. */
    void (*after_quarantine)(const char *quarantine_path, void *hook_arg);
    void *hook_arg;
} lockrt_test_hooks;

/* lockrt_acquire / lockrt_reclaim_if_stale / lockrt_unlink_if_identical with
 * hooks. A lock acquired with hooks keeps them for its release. */
LOCKRT_TEST_API int lockrt_test_acquire(const char *path, const lockrt_options *opts,
                                        const lockrt_test_hooks *hooks, lockrt_lock **out);
LOCKRT_TEST_API int lockrt_test_reclaim_if_stale(const char *lock_path,
                                                 const lockrt_test_hooks *hooks);
LOCKRT_TEST_API int lockrt_test_unlink_if_identical(const char *path,
                                                    const lockrt_identity *judged,
                                                    const lockrt_test_hooks *hooks);

#ifdef __cplusplus
}
#endif
#endif
