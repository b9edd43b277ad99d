/* Status texts and option defaults. */
#include "lockrt_internal.h"

#include <stdlib.h>
#include <string.h>

const char *lockrt_strerror(int status)
{
    switch (status) {
    case LOCKRT_OK: return "success";
    case LOCKRT_ETIMEDOUT: return "timed out: the lock stayed held by a live or unknown owner";
    case LOCKRT_EINVAL: return "invalid argument";
    case LOCKRT_ESYMLINK: return "a symbolic link or reparse point sits at the lock path (refused, not followed)";
    case LOCKRT_EBADTYPE: return "the lock path is not a regular file";
    case LOCKRT_EESCAPE: return "unsafe name, or the target escapes its directory";
    case LOCKRT_EMISMATCH: return "the object changed since it was judged; left in place";
    case LOCKRT_ENOTOWNER: return "the lock record names another owner";
    case LOCKRT_ENOTSTALE: return "the lock owner is alive, unknown, or on another host";
    case LOCKRT_ENOENT: return "no such lock or file";
    case LOCKRT_ECORRUPT: return "not a lockrt owner record (a foreign or damaged file at the lock path; lockrt never removes it)";
    case LOCKRT_ENOMEM: return "out of memory";
    case LOCKRT_EIO: return "operating system error (see errno / GetLastError)";
    case LOCKRT_ENOTSUP: return "not supported on this platform or filesystem";
    default: return "unknown lockrt status";
    }
}

void lockrt_options_init(lockrt_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->strategy = LOCKRT_STRATEGY_AUTO;
    opts->timeout_ms = 10000;
    opts->poll_min_ms = 1;
    opts->poll_max_ms = 5;
}

void lockrt__effective_options(const lockrt_options *in, lockrt_options *out)
{
    if (in)
        *out = *in;
    else
        lockrt_options_init(out);
    if (out->poll_min_ms == 0)
        out->poll_min_ms = 1;
    if (out->poll_max_ms < out->poll_min_ms)
        out->poll_max_ms = out->poll_min_ms;
}

/* Read at every call: no caching, so a test or a parent process can change it
 * between acquisitions. getenv() is not safe against a concurrent setenv(). */
int lockrt__env_strategy(lockrt_strategy *out)
{
    const char *v = getenv(LOCKRT_ENV_STRATEGY);
    if (!v || !*v || strcmp(v, "auto") == 0) {
        *out = LOCKRT_STRATEGY_AUTO;
        return LOCKRT_OK;
    }
    if (strcmp(v, "oslock") == 0) {
        *out = LOCKRT_STRATEGY_OSLOCK;
        return LOCKRT_OK;
    }
    if (strcmp(v, "lockfile") == 0) {
        *out = LOCKRT_STRATEGY_LOCKFILE;
        return LOCKRT_OK;
    }
    return LOCKRT_EINVAL;
}
