/*
 * Lockfile strategy: the lock is the existence of an owner record created with
 * an exclusive create. Everything that removes a record is identity-bound: the
 * object removed must be the object that was judged (same dev/ino/size/mtime and
 * content hash), because a name can be re-created by a successor at any moment
 * between "this record is stale" and "unlink(name)" -- the bug in every
 * mtime-and-unlink lock library.
 */
#include "lockrt_internal.h"

#include <string.h>

int lockrt__judge_record(const char *bytes, size_t len, const lockrt_identity *id)
{
    lockrt_owner owner;
    if (lockrt__record_parse(bytes, len, &owner) != LOCKRT_OK) {
        /* No owner to ask about. Only an old ownerless record is reclaimable: a live
         * creator writes its record right after its O_EXCL create, so a record this
         * old without an owner was left by a creator killed in between. */
        int64_t age = lockrt__wall_ms() - id->mtime_ns / 1000000;
        return age > LOCKRT__CORRUPT_GRACE_MS ? LOCKRT_OK : LOCKRT_ECORRUPT;
    }
    char host[LOCKRT_HOST_MAX];
    if (lockrt__hostname(host, sizeof host) != LOCKRT_OK || strcmp(host, owner.host) != 0)
        return LOCKRT_ENOTSTALE; /* another host: we cannot see its processes */
    if (lockrt_process_alive(owner.pid, owner.start_time) == LOCKRT_DEAD)
        return LOCKRT_OK;
    return LOCKRT_ENOTSTALE;     /* alive, EPERM, or unknown */
}

int lockrt_owner_read(const char *lock_path, lockrt_owner *out)
{
    if (!lock_path || !out)
        return LOCKRT_EINVAL;
    char buf[LOCKRT__RECORD_MAX];
    size_t len = 0;
    lockrt_identity id;
    int rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &id);
    if (rc != LOCKRT_OK)
        return rc;
    return lockrt__record_parse(buf, len, out);
}

int lockrt_reclaim_if_stale(const char *lock_path, const lockrt_options *user_opts)
{
    if (!lock_path || !*lock_path)
        return LOCKRT_EINVAL;
    lockrt_options opts;
    lockrt__effective_options(user_opts, &opts);
    char buf[LOCKRT__RECORD_MAX];
    size_t len = 0;
    lockrt_identity judged;
    int rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &judged);
    if (rc != LOCKRT_OK)
        return rc;
    rc = lockrt__judge_record(buf, len, &judged);
    if (rc != LOCKRT_OK)
        return rc;
    if (opts.hooks && opts.hooks->after_stale_judgement)
        opts.hooks->after_stale_judgement(lock_path, opts.hooks->hook_arg);
    /* Cheap re-check before the quarantine rename: a successor that already took
     * the name is left alone without ever being moved. The rename-and-verify in
     * lockrt_unlink_if_identical covers the window that remains. */
    lockrt_identity now;
    rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &now);
    if (rc == LOCKRT_ENOENT)
        return LOCKRT_EMISMATCH; /* someone else reclaimed it first */
    if (rc != LOCKRT_OK)
        return rc;
    if (!lockrt__identity_equal(&now, &judged))
        return LOCKRT_EMISMATCH;
    /* The file may also be an OS-lock strategy lock file (empty, so "ownerless")
     * that an OS-lock holder has locked: never remove it from under them. */
    intptr_t probe;
    rc = lockrt__oslock_probe_begin(lock_path, &probe);
    if (rc == LOCKRT__BUSY)
        return LOCKRT_ENOTSTALE;
    if (rc != LOCKRT_OK)
        return rc == LOCKRT_ENOENT ? LOCKRT_EMISMATCH : rc;
    rc = lockrt_unlink_if_identical(lock_path, &judged, &opts);
    lockrt__oslock_probe_end(probe);
    return rc == LOCKRT_ENOENT ? LOCKRT_EMISMATCH : rc;
}

int lockrt_release_if_owned(const char *lock_path, const char *token, const lockrt_options *user_opts)
{
    if (!lock_path || !*lock_path || !token || !*token)
        return LOCKRT_EINVAL;
    lockrt_options opts;
    lockrt__effective_options(user_opts, &opts);
    char buf[LOCKRT__RECORD_MAX];
    size_t len = 0;
    lockrt_identity id;
    int rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &id);
    if (rc != LOCKRT_OK)
        return rc;
    lockrt_owner owner;
    rc = lockrt__record_parse(buf, len, &owner);
    if (rc != LOCKRT_OK)
        return rc;
    if (strcmp(owner.token, token) != 0)
        return LOCKRT_ENOTOWNER;
    return lockrt_unlink_if_identical(lock_path, &id, &opts);
}

int lockrt__lockfile_try(lockrt_lock *lock, const lockrt_options *opts, void *ctx)
{
    (void)ctx;
    lockrt_owner self;
    int rc = lockrt__owner_self(&self);
    if (rc != LOCKRT_OK)
        return rc;
    char record[LOCKRT__RECORD_MAX];
    int n = lockrt__record_format(&self, record, sizeof record);
    if (n < 0)
        return LOCKRT_EINVAL;
    /* A reclaim frees the name; try again at once, but a bounded number of times
     * so that a crowd of reclaimers cannot spin us past the deadline check. */
    for (int round = 0; round < 4; round++) {
        rc = lockrt__record_create(lock->path, record, (size_t)n, &lock->identity);
        if (rc == LOCKRT_OK) {
            memcpy(lock->token, self.token, sizeof lock->token);
            return LOCKRT_OK;
        }
        if (rc != LOCKRT__BUSY)
            return rc;
        rc = lockrt_reclaim_if_stale(lock->path, opts);
        if (rc == LOCKRT_OK || rc == LOCKRT_ENOENT)
            continue; /* the name is free (or freed): race for it */
        if (rc == LOCKRT_ESYMLINK || rc == LOCKRT_EBADTYPE || rc == LOCKRT_EINVAL ||
            rc == LOCKRT_ENOMEM)
            return rc;
        /* ENOTSTALE, ECORRUPT (young ownerless record), EMISMATCH (a successor
         * won), or a transient error: wait and look again. */
        return LOCKRT__BUSY;
    }
    return LOCKRT__BUSY;
}

int lockrt__lockfile_release(lockrt_lock *lock)
{
    lockrt_options opts;
    lockrt_options_init(&opts);
    opts.hooks = lock->hooks;
    return lockrt_unlink_if_identical(lock->path, &lock->identity, &opts);
}
