/*
 * Strategy choice and the bounded wait shared by both strategies.
 *
 * The lockfile wait is exponential backoff with full jitter between poll_min_ms
 * and poll_max_ms: waiters that started together do not retry together, and a
 * long hold costs a waiter at most poll_max_ms of extra latency. The OS-lock
 * wait is the platform's (lockrt__oslock_wait: on Linux a blocking flock ended
 * at the deadline, elsewhere the same backoff). The deadline is the only thing
 * time decides: it ends *our* wait, it never breaks a lock.
 */
#include "lockrt_internal.h"

#include <stdlib.h>
#include <string.h>

static int resolve_strategy(const char *path, const lockrt_options *opts, lockrt_strategy *out)
{
    lockrt_strategy s = opts->strategy;
    if (s != LOCKRT_STRATEGY_AUTO && s != LOCKRT_STRATEGY_OSLOCK && s != LOCKRT_STRATEGY_LOCKFILE)
        return LOCKRT_EINVAL;
    if (s == LOCKRT_STRATEGY_AUTO) {
        int rc = lockrt__env_strategy(&s);
        if (rc != LOCKRT_OK)
            return rc;
    }
    if (s == LOCKRT_STRATEGY_AUTO)
        /* NFS/SMB byte-range locks depend on a lock daemon or server support that
         * may be absent or lie; an O_EXCL create is atomic on every NFS since v3. */
        s = lockrt__is_network_fs(path) ? LOCKRT_STRATEGY_LOCKFILE : LOCKRT_STRATEGY_OSLOCK;
    *out = s;
    return LOCKRT_OK;
}

void lockrt__backoff_init(lockrt__backoff *b, const lockrt_lock *lock, const lockrt_options *opts)
{
    b->rng = lockrt__monotonic_ms() ^ ((uint64_t)lockrt__self_pid() << 32) ^ (uint64_t)(uintptr_t)lock;
    b->cap = opts->poll_min_ms;
}

uint64_t lockrt__backoff_step(lockrt__backoff *b, const lockrt_options *opts)
{
    uint64_t nap = opts->poll_min_ms + lockrt__splitmix64(&b->rng) % (b->cap + 1);
    b->cap = b->cap * 2;
    if (b->cap > opts->poll_max_ms)
        b->cap = opts->poll_max_ms;
    return nap;
}

int lockrt__wait_loop(lockrt_lock *lock, const lockrt_options *opts, lockrt__try_fn try_once,
                      void *ctx)
{
    uint64_t start = lockrt__monotonic_ms();
    lockrt__backoff backoff;
    lockrt__backoff_init(&backoff, lock, opts);
    for (;;) {
        int rc = try_once(lock, opts, ctx);
        if (rc != LOCKRT__BUSY)
            return rc;
        uint64_t now = lockrt__monotonic_ms();
        uint64_t waited = now - start;
        if (opts->timeout_ms == 0 ||
            (opts->timeout_ms > 0 && waited >= (uint64_t)opts->timeout_ms))
            return LOCKRT_ETIMEDOUT;
        uint64_t nap = lockrt__backoff_step(&backoff, opts);
        if (opts->timeout_ms > 0 && nap > (uint64_t)opts->timeout_ms - waited)
            nap = (uint64_t)opts->timeout_ms - waited;
        lockrt__sleep_ms((uint32_t)nap);
    }
}

int lockrt_acquire(const char *path, const lockrt_options *opts, lockrt_lock **out)
{
    return lockrt__acquire(path, opts, NULL, out);
}

int lockrt__acquire(const char *path, const lockrt_options *user_opts,
                    const lockrt_test_hooks *hooks, lockrt_lock **out)
{
    if (!path || !*path || !out)
        return LOCKRT_EINVAL;
    *out = NULL;
    lockrt_options opts;
    lockrt__effective_options(user_opts, &opts);

    size_t plen = strlen(path);
    /* One allocation for the handle and its copy of the path. */
    lockrt_lock *lock = calloc(1, sizeof *lock + plen + 1);
    if (!lock)
        return LOCKRT_ENOMEM;
    lock->path = (char *)(lock + 1);
    memcpy(lock->path, path, plen + 1);
#ifdef _WIN32
    lock->handle = NULL;
#else
    lock->fd = -1;
#endif
    lock->hooks = hooks;
    lock->owner_pid = lockrt__self_pid();

    int rc = resolve_strategy(path, &opts, &lock->strategy);
    if (rc == LOCKRT_OK) {
        if (lock->strategy == LOCKRT_STRATEGY_OSLOCK) {
            rc = lockrt__oslock_wait(lock, &opts);
            if (rc != LOCKRT_OK)
                lockrt__oslock_abandon(lock);
        } else {
            rc = lockrt__wait_loop(lock, &opts, lockrt__lockfile_try, NULL);
        }
    }
    if (rc != LOCKRT_OK) {
        free(lock);
        return rc;
    }
    *out = lock;
    return LOCKRT_OK;
}

int lockrt_release(lockrt_lock *lock)
{
    if (!lock)
        return LOCKRT_EINVAL;
    int rc = LOCKRT_OK;
    if (lock->owner_pid != lockrt__self_pid()) {
        /* A child forked while the lock was held has a copy of the handle, not
         * the lock. flock(LOCK_UN) here would act on the open file description
         * the parent shares and free the parent's lock; removing the record
         * would end the parent's lockfile lock. Only our copy is dropped. */
        if (lock->strategy == LOCKRT_STRATEGY_OSLOCK)
            lockrt__oslock_abandon(lock);
    } else {
        rc = lock->strategy == LOCKRT_STRATEGY_OSLOCK ? lockrt__oslock_release(lock)
                                                      : lockrt__lockfile_release(lock);
    }
    free(lock);
    return rc;
}

lockrt_strategy lockrt_lock_strategy(const lockrt_lock *lock)
{
    return lock ? lock->strategy : LOCKRT_STRATEGY_AUTO;
}

const char *lockrt_lock_token(const lockrt_lock *lock)
{
    return lock ? lock->token : "";
}
