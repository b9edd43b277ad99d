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
 * Why not OFD locks (F_OFD_SETLK/F_OFD_SETLKW), which also belong to the open
 * file description and would have the same blocking shape: on Linux, flock
 * locks and fcntl locks (OFD, classic record locks, and lockf, which is built
 * on them) live in separate tables and never conflict with each other. The
 * code lockfix patches takes fcntl.flock() on the same lock file; while a
 * rollout leaves some processes on the old code, whatever lockrt takes must
 * exclude that flock, and only flock does. (On the BSDs and macOS the two kinds
 * may interact; nothing there can be relied on to replace flock either.)
 *
 * Why the bounded wait blocks: a poller gets the lock only if it happens to try
 * while it is free; a blocked flock() is woken by the kernel the moment the
 * holder releases. So a bounded wait makes one non-blocking try, then blocks in
 * flock() with a per-thread timer set to interrupt it at the deadline
 * (wake_timer.c says how that is done without taking a signal from the host).
 * An interrupted flock() returns EINTR holding nothing, so the deadline can
 * end our wait but never hand out a second lock.
 *
 * Why never unlink: a waiter may already have opened the old inode. If the holder
 * unlinked the name on release, the next opener would create a new inode and lock
 * it while the waiter locks the old one -- two holders. After acquiring we also
 * check that the name still points at the inode we locked (someone else may have
 * unlinked or replaced it), and start over if not. That check runs after the
 * grant, inside the critical section, by necessity (docs/lockrt.md, "The
 * identity check"); what pays for it is that a released descriptor is kept for
 * the next acquisition of the path (kept_fd.c), which then skips open and close
 * and makes the same checks.
 */
#include "kept_fd.h"
#include "lockrt_internal.h"
#include "wake_timer.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int open_lock_file(lockrt_lock *lock)
{
    /* A descriptor kept from this process's last release of the path
     * (kept_fd.c): checked to be the same regular file, unlocked, ours. Whether
     * the name still names it is checked once locked, as for a new one. */
    int fd = lockrt__kept_take(lock->path, &lock->fd_dev, &lock->fd_ino);
    if (fd >= 0) {
        lock->fd = fd;
        return LOCKRT_OK;
    }
    /* O_NOFOLLOW: a symlink planted at the lock path must not redirect our create
     * (or lock) to a file of the attacker's choosing. O_NONBLOCK: a FIFO at the
     * path must not block the open; it is then refused as EBADTYPE. */
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

/* What one flock() attempt came to. */
enum {
    FLOCK_TAKEN = LOCKRT_OK,   /* the lock is ours */
    FLOCK_HELD = LOCKRT__BUSY, /* someone holds it (or a signal interrupted the wait) */
    FLOCK_ORPHAN,              /* granted, but on an inode the name no longer names */
    FLOCK_RECORD               /* granted, but a lockfile-strategy owner record holds */
};

static int after_locked(lockrt_lock *lock)
{
    off_t size = 0;
    int rc = FLOCK_TAKEN;
    if (!name_still_ours(lock, &size))
        rc = FLOCK_ORPHAN;
    else if (size != 0 && record_holds(lock, size))
        rc = FLOCK_RECORD;
    if (rc != FLOCK_TAKEN) {
        close(lock->fd); /* drops our lock (on the orphaned inode, or the record's) */
        lock->fd = -1;
    }
    return rc;
}

/* open (if we hold no descriptor) + flock, non-blocking or blocking. */
static int flock_once(lockrt_lock *lock, bool block)
{
    if (lock->fd < 0) {
        int rc = open_lock_file(lock);
        if (rc != LOCKRT_OK)
            return rc;
    }
    if (flock(lock->fd, block ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK || errno == EINTR)
            return FLOCK_HELD;
        return LOCKRT_EIO;
    }
    return after_locked(lock);
}

/* A name replaced or removed under us is retried at once this many times in a
 * row; after that the wait naps like a poller, so that a process replacing the
 * file in a loop cannot make us spin. */
#define ORPHAN_RETRIES 8

/*
 * The wait. Bounded: one non-blocking try; if the lock is held, arm the wake
 * timer at the deadline (wake_timer.c) and block in flock() like raw flock
 * does, so the kernel wakes us the moment the lock is released; EINTR
 * before the deadline is the host's signal, and we block again. Where the
 * timer cannot be had (another Unix, or the host owns SIGURG or blocks it in
 * this thread) we poll with backoff as before. Unbounded: block from the
 * start. Either way a granted flock counts only after the identity check
 * (after_locked); a lockfile-strategy record that holds makes us nap and look
 * again, never spin on a flock nobody else holds.
 */
int lockrt__oslock_wait(lockrt_lock *lock, const lockrt_options *opts)
{
    bool bounded = opts->timeout_ms >= 0;
    bool block = !bounded, timer_tried = false, waiting = false;
    uint64_t deadline = 0;
    lockrt__wake_timer timer;
    timer.armed = false;
    lockrt__backoff backoff;
    int orphans = 0;
    int rc;
    for (;;) {
        rc = flock_once(lock, block);
        if (rc <= 0)
            break; /* taken, or an error */
        if (rc == FLOCK_ORPHAN && ++orphans < ORPHAN_RETRIES)
            continue;
        orphans = 0;
        uint64_t now = lockrt__monotonic_ms();
        if (!waiting) {
            /* The clock and the backoff are set up only once the lock is found
             * taken: an uncontended acquisition reads no clock. The bound counts
             * from here, a non-blocking try (microseconds) after the call. */
            waiting = true;
            deadline = bounded ? now + (uint64_t)opts->timeout_ms : 0;
            lockrt__backoff_init(&backoff, lock, opts);
        }
        if (bounded && (opts->timeout_ms == 0 || now >= deadline)) {
            rc = LOCKRT_ETIMEDOUT;
            break;
        }
        if (rc == FLOCK_HELD && block)
            continue; /* interrupted by a host signal before the deadline */
        if (rc == FLOCK_HELD && bounded && !timer_tried) {
            timer_tried = true;
            block = lockrt__wake_timer_arm(&timer, deadline);
            if (block)
                continue;
        }
        uint64_t nap = lockrt__backoff_step(&backoff, opts);
        if (bounded && nap > deadline - now)
            nap = deadline - now;
        lockrt__sleep_ms((uint32_t)nap);
    }
    lockrt__wake_timer_disarm(&timer);
    return rc;
}

int lockrt__oslock_release(lockrt_lock *lock)
{
    int rc = LOCKRT_OK;
    if (lock->fd >= 0) {
        /* Explicit LOCK_UN, not just close(): a child forked while we held the
         * lock shares our open file description, and close() in this process
         * would leave the lock held until the child closes its copy too. */
        if (flock(lock->fd, LOCK_UN) != 0) {
            rc = LOCKRT_EIO;
            close(lock->fd);
        } else {
            /* Unlocked: kept for this process's next acquisition of the path
             * (kept_fd.c), or closed. */
            lockrt__kept_put(lock->path, lock->fd, lock->fd_dev, lock->fd_ino);
        }
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
