/*
 * Lockfile strategy: the lock is the existence of an owner record created with
 * an exclusive create. Everything that removes a record is identity-bound: the
 * object removed must be the object that was judged (same dev/ino/size/mtime and
 * content hash), because a name can be re-created by a successor at any moment
 * between "this record is stale" and "unlink(name)" -- the bug in every
 * mtime-and-unlink lock library. And only an owner record is ever removed: a
 * file that is not one is never judged stale, however old.
 */
#include "lockrt_internal.h"

#include <string.h>

int lockrt__judge_record(const char *bytes, size_t len)
{
    lockrt_owner owner;
    /* Only a record lockrt would have written names an owner whose death entitles
     * us to remove the file. Anything else (user data, garbage, an empty or torn
     * file) is left alone whatever its age: we cannot prove it is ours. */
    if (lockrt__record_parse(bytes, len, &owner) != LOCKRT_OK)
        return LOCKRT_ECORRUPT;
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

/* reclaim_if_stale; *seen receives the identity of what was judged (its mtime
 * tells a lockfile acquirer how old a non-record is). */
static int reclaim(const char *lock_path, const lockrt_test_hooks *hooks, lockrt_identity *seen)
{
    char buf[LOCKRT__RECORD_MAX];
    size_t len = 0;
    lockrt_identity judged;
    memset(&judged, 0, sizeof judged);
    int rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &judged);
    if (seen)
        *seen = judged;
    if (rc != LOCKRT_OK)
        return rc; /* ECORRUPT here: larger than any record */
    rc = lockrt__judge_record(buf, len);
    if (rc != LOCKRT_OK)
        return rc;
    if (hooks && hooks->after_stale_judgement)
        hooks->after_stale_judgement(lock_path, hooks->hook_arg);
    /* Cheap re-check before the quarantine rename: a successor that already took
     * the name is left alone without ever being moved. The rename-and-verify in
     * lockrt_unlink_if_identical covers the window that remains. */
    lockrt_identity now;
    rc = lockrt__record_capture(lock_path, buf, sizeof buf, &len, &now);
    if (rc == LOCKRT_ENOENT)
        return LOCKRT_EMISMATCH; /* someone else reclaimed it first */
    if (rc == LOCKRT_ECORRUPT)
        return LOCKRT_EMISMATCH; /* replaced by something else: not what we judged */
    if (rc != LOCKRT_OK)
        return rc;
    if (!lockrt__identity_equal(&now, &judged))
        return LOCKRT_EMISMATCH;
    /* The file may also be an OS-lock strategy lock file that an OS-lock holder
     * has locked: never remove it from under them. */
    intptr_t probe;
    rc = lockrt__oslock_probe_begin(lock_path, &probe);
    if (rc == LOCKRT__BUSY)
        return LOCKRT_ENOTSTALE;
    if (rc != LOCKRT_OK)
        return rc == LOCKRT_ENOENT ? LOCKRT_EMISMATCH : rc;
    rc = lockrt__unlink_if_identical(lock_path, &judged, hooks);
    lockrt__oslock_probe_end(probe);
    return rc == LOCKRT_ENOENT ? LOCKRT_EMISMATCH : rc;
}

int lockrt__reclaim_if_stale(const char *lock_path, const lockrt_test_hooks *hooks)
{
    if (!lock_path || !*lock_path)
        return LOCKRT_EINVAL;
    return reclaim(lock_path, hooks, NULL);
}

int lockrt_reclaim_if_stale(const char *lock_path, const lockrt_options *opts)
{
    (void)opts;
    return lockrt__reclaim_if_stale(lock_path, NULL);
}

int lockrt_release_if_owned(const char *lock_path, const char *token, const lockrt_options *opts)
{
    (void)opts;
    if (!lock_path || !*lock_path || !token || !*token)
        return LOCKRT_EINVAL;
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
    return lockrt__unlink_if_identical(lock_path, &id, NULL);
}

/* A non-record older than the grace cannot be a record whose creator is still
 * between its create and its write: stop waiting and say what is in the way. */
static bool nonrecord_is_old(const lockrt_identity *seen)
{
    int64_t age_ms = lockrt__wall_ms() - seen->mtime_ns / 1000000;
    return age_ms > LOCKRT__NONRECORD_GRACE_MS;
}

int lockrt__lockfile_try(lockrt_lock *lock, const lockrt_options *opts, void *ctx)
{
    (void)opts;
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
        lockrt_identity seen;
        rc = reclaim(lock->path, lock->hooks, &seen);
        if (rc == LOCKRT_OK || rc == LOCKRT_ENOENT)
            continue; /* the name is free (or freed): race for it */
        if (rc == LOCKRT_ESYMLINK || rc == LOCKRT_EBADTYPE || rc == LOCKRT_EINVAL ||
            rc == LOCKRT_ENOMEM)
            return rc;
        if (rc == LOCKRT_ECORRUPT && nonrecord_is_old(&seen))
            return LOCKRT_ECORRUPT; /* never removed; waiting would not change it */
        /* ENOTSTALE, ECORRUPT (a young non-record: maybe a record being written),
         * EMISMATCH (a successor won), or a transient error: wait, look again. */
        return LOCKRT__BUSY;
    }
    return LOCKRT__BUSY;
}

int lockrt__lockfile_release(lockrt_lock *lock)
{
    return lockrt__unlink_if_identical(lock->path, &lock->identity, lock->hooks);
}
