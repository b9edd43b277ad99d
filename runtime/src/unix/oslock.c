/*
 * OS lock strategy on Unix: flock(LOCK_EX) on a lock file that is never unlinked.
 *
 * Why flock and not fcntl(F_SETLK): POSIX record locks belong to the (process,
 * inode) pair, so closing *any* descriptor of the file in the process drops them
 * (the classic SQLite os_unix.c trap), and two threads of one process never
 * exclude each other. flock locks belong to the open file description, so every
 * lockrt_acquire() excludes every other one, across threads and processes alike,
 * and a SIGKILLed holder's lock is released by the kernel when its last
 * descriptor closes. Python's fcntl.flock() takes the same lock, so a pure-Python
 * fallback interoperates. On Linux NFS, flock is emulated with byte-range locks;
 * lockrt's AUTO strategy uses lockfiles there anyway.
 *
 * Why never unlink: a waiter may already have opened the old inode. If the holder
 * unlinked the name on release, the next opener would create a new inode and lock
 * it while the waiter locks the old one -- two holders. After acquiring we also
 * check that the name still points at the inode we locked (someone else may have
 * unlinked or replaced it), and start over if not.
 */
#include "lockrt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int open_lock_file(lockrt_lock *lock)
{
    /* O_NOFOLLOW: a symlink planted at the lock path must not redirect our create
     * (or lock) to a file of the attacker's choosing. O_NONBLOCK: a FIFO at the
     * path must not block the open; it is then refused as EBADTYPE. */
    int fd;
    do {
        fd = open(lock->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        int err = errno;
        struct stat st;
        if (err == ELOOP && lstat(lock->path, &st) == 0 && S_ISLNK(st.st_mode))
            return LOCKRT_ESYMLINK;
        if (err == EISDIR)
            return LOCKRT_EBADTYPE;
        if (err == ENOENT)
            return LOCKRT_ENOENT; /* directory missing */
        errno = err;
        return LOCKRT_EIO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return LOCKRT_EBADTYPE;
    }
    lock->fd = fd;
    lock->fd_dev = (uint64_t)st.st_dev;
    lock->fd_ino = (uint64_t)st.st_ino;
    return LOCKRT_OK;
}

/* After the lock is ours: is the name still bound to the inode we locked?
 * *size receives its size (an OS lock file is empty). */
static bool name_still_ours(const lockrt_lock *lock, off_t *size)
{
    struct stat by_name;
    if (lstat(lock->path, &by_name) != 0)
        return false;
    *size = by_name.st_size;
    return lock->fd_dev == (uint64_t)by_name.st_dev && lock->fd_ino == (uint64_t)by_name.st_ino;
}

/* A non-empty file may be a lockfile-strategy owner record (another process
 * forced that strategy on the same path). Its owner holds the lock unless
 * provably gone; our flock alone would not exclude it. Anything that is not an
 * owner record (stray bytes, a user's file used as a lock file) holds nothing:
 * the flock is the lock, and the file is neither changed nor removed. At most
 * one record's worth is read, whatever the file's size. */
static bool record_holds(const lockrt_lock *lock, off_t size)
{
    if (size > LOCKRT__RECORD_MAX)
        return false;
    char buf[LOCKRT__RECORD_MAX + 1];
    ssize_t n;
    do {
        n = pread(lock->fd, buf, sizeof buf, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return true; /* unreadable: do not assume the lock is free */
    return lockrt__judge_record(buf, (size_t)n) == LOCKRT_ENOTSTALE;
}

static int after_locked(lockrt_lock *lock)
{
    off_t size = 0;
    if (name_still_ours(lock, &size) && (size == 0 || !record_holds(lock, size)))
        return LOCKRT_OK;
    close(lock->fd); /* drops our lock (on the orphaned inode, or the record's) */
    lock->fd = -1;
    return LOCKRT__BUSY;
}

int lockrt__oslock_try(lockrt_lock *lock, const lockrt_options *opts, void *ctx)
{
    (void)opts;
    (void)ctx;
    for (int round = 0; round < 8; round++) {
        if (lock->fd < 0) {
            int rc = open_lock_file(lock);
            if (rc != LOCKRT_OK)
                return rc;
        }
        if (flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK || errno == EINTR)
                return LOCKRT__BUSY;
            return LOCKRT_EIO;
        }
        if (after_locked(lock) == LOCKRT_OK)
            return LOCKRT_OK;
    }
    return LOCKRT__BUSY;
}

int lockrt__oslock_wait_forever(lockrt_lock *lock)
{
    for (;;) {
        if (lock->fd < 0) {
            int rc = open_lock_file(lock);
            if (rc != LOCKRT_OK)
                return rc;
        }
        if (flock(lock->fd, LOCK_EX) != 0) {
            if (errno == EINTR)
                continue;
            return LOCKRT_EIO;
        }
        if (after_locked(lock) == LOCKRT_OK)
            return LOCKRT_OK;
    }
}

int lockrt__oslock_release(lockrt_lock *lock)
{
    int rc = LOCKRT_OK;
    if (lock->fd >= 0) {
        /* Explicit LOCK_UN, not just close(): a child forked while we held the
         * lock shares our open file description, and close() in this process
         * would leave the lock held until the child closes its copy too. */
        if (flock(lock->fd, LOCK_UN) != 0)
            rc = LOCKRT_EIO;
        if (close(lock->fd) != 0 && rc == LOCKRT_OK)
            rc = LOCKRT_EIO;
        lock->fd = -1;
    }
    return rc;
}

void lockrt__oslock_abandon(lockrt_lock *lock)
{
    if (lock->fd >= 0) {
        close(lock->fd);
        lock->fd = -1;
    }
}

int lockrt__oslock_probe_begin(const char *path, intptr_t *probe)
{
    int fd;
    do {
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return errno == ENOENT ? LOCKRT_ENOENT : errno == ELOOP ? LOCKRT_ESYMLINK : LOCKRT_EIO;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        close(fd);
        return err == EWOULDBLOCK ? LOCKRT__BUSY : LOCKRT_EIO;
    }
    *probe = fd;
    return LOCKRT_OK;
}

void lockrt__oslock_probe_end(intptr_t probe)
{
    flock((int)probe, LOCK_UN);
    close((int)probe);
}
