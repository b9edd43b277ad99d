/* The test seams of lockrt_test_hooks.h. Compiled only into the test build of the
 * library (target lockrt_testhooks), never into the installed ones. */
#include "lockrt_internal.h"

int lockrt_test_acquire(const char *path, const lockrt_options *opts, const lockrt_test_hooks *hooks,
                        lockrt_lock **out)
{
    return lockrt__acquire(path, opts, hooks, out);
}

int lockrt_test_reclaim_if_stale(const char *lock_path, const lockrt_test_hooks *hooks)
{
    return lockrt__reclaim_if_stale(lock_path, hooks);
}

int lockrt_test_unlink_if_identical(const char *path, const lockrt_identity *judged,
                                    const lockrt_test_hooks *hooks)
{
    return lockrt__unlink_if_identical(path, judged, hooks);
}
