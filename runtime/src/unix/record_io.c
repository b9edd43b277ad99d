/*
 * Lockfile records and identity-bound removal on Unix.
 *
 * Every open of a lock path uses O_NOFOLLOW: a symlink planted at the path is
 * never followed (reading, creating or deleting through it would act on a file of
 * the planter's choosing) and never removed (rename and unlink act on the link,
 * so we refuse before either). O_NONBLOCK keeps a FIFO from hanging the open.
 * Identity is always taken from the descriptor the bytes were read from, never
 * from a separate stat of the name, which could name a different object.
 */
#include "lockrt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int64_t mtime_ns_of(const struct stat *st)
{
#if defined(__APPLE__)
    return (int64_t)st->st_mtimespec.tv_sec * 1000000000 + st->st_mtimespec.tv_nsec;
#else
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
#endif
}

static void identity_from_stat(const struct stat *st, uint64_t hash, lockrt_identity *id)
{
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_ns = mtime_ns_of(st);
    id->content_hash = hash;
}

/* Map a failed open(O_NOFOLLOW) of an existing name. */
static int open_error(const char *path, int err)
{
    struct stat st;
    if (err == ENOENT)
        return LOCKRT_ENOENT;
    if (err == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return LOCKRT_ESYMLINK;
    if (err == EISDIR)
        return LOCKRT_EBADTYPE;
    errno = err;
    return LOCKRT_EIO;
}

int lockrt__record_create(const char *path, const char *bytes, size_t len, lockrt_identity *id)
{
    int fd;
    do {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        /* O_EXCL fails with EEXIST for anything at the name, a symlink included
         * (POSIX: O_CREAT|O_EXCL never follows a final symlink). */
        if (errno == EEXIST)
            return LOCKRT__BUSY;
        return open_error(path, errno);
    }
    struct stat st;
    if (lockrt__write_all(fd, bytes, len) != 0 || fstat(fd, &st) != 0) {
        int err = errno;
        /* We created this inode an instant ago and nobody can have judged it
         * stale (it is younger than the corrupt grace), but remove it by identity
         * anyway: the name is shared. */
        lockrt_identity mine;
        struct stat st2;
        if (fstat(fd, &st2) == 0) {
            identity_from_stat(&st2, 0, &mine);
            char buf[LOCKRT__RECORD_MAX];
            size_t got = 0;
            lockrt_identity now;
            if (lockrt__record_capture(path, buf, sizeof buf, &got, &now) == LOCKRT_OK &&
                now.dev == mine.dev && now.ino == mine.ino)
                lockrt_unlink_if_identical(path, &now, NULL);
        }
        close(fd);
        errno = err;
        return LOCKRT_EIO;
    }
    close(fd);
    identity_from_stat(&st, lockrt__fnv1a(bytes, len, LOCKRT__FNV_SEED), id);
    return LOCKRT_OK;
}

/* Hash the content from fd (from offset 0), copying the first cap bytes. Reads
 * at most limit + 1 bytes: more than limit is LOCKRT_EMISMATCH (the file grew
 * while we read it), so a file that keeps growing cannot keep us reading. */
static int hash_fd(int fd, char *buf, size_t cap, size_t *len, uint64_t *hash, uint64_t limit)
{
    char chunk[4096];
    uint64_t h = LOCKRT__FNV_SEED;
    size_t copied = 0;
    uint64_t total = 0;
    for (;;) {
        size_t want = sizeof chunk;
        if (limit - total < want)
            want = (size_t)(limit - total) + 1;
        ssize_t n = read(fd, chunk, want);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return LOCKRT_EIO;
        }
        if (n == 0)
            break;
        total += (uint64_t)n;
        if (total > limit)
            return LOCKRT_EMISMATCH;
        h = lockrt__fnv1a(chunk, (size_t)n, h);
        if (buf && copied < cap) {
            size_t take = (size_t)n < cap - copied ? (size_t)n : cap - copied;
            memcpy(buf + copied, chunk, take);
            copied += take;
        }
    }
    if (len)
        *len = copied;
    *hash = h;
    return LOCKRT_OK;
}

/* Identity (and up to cap bytes) of the regular file at name, from one descriptor.
 * A file larger than max_size is not read: LOCKRT__TOO_BIG, with *id filled but
 * for its content hash (0). */
#define LOCKRT__TOO_BIG 2
static int capture_at(int dirfd, const char *name, const char *display_path, char *buf, size_t cap,
                      size_t *len, lockrt_identity *id, uint64_t max_size)
{
    int fd;
    do {
        fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return open_error(display_path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return LOCKRT_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return LOCKRT_EBADTYPE;
    }
    if ((uint64_t)st.st_size > max_size) {
        identity_from_stat(&st, 0, id);
        close(fd);
        return LOCKRT__TOO_BIG;
    }
    uint64_t hash;
    int rc = hash_fd(fd, buf, cap, len, &hash, (uint64_t)st.st_size);
    if (rc == LOCKRT_OK) {
        /* fstat again: a writer may have appended while we hashed; the size and
         * mtime must describe the bytes we hashed or the identity is torn. */
        struct stat st2;
        if (fstat(fd, &st2) != 0)
            rc = LOCKRT_EIO;
        else if (st2.st_size != st.st_size || mtime_ns_of(&st2) != mtime_ns_of(&st))
            rc = LOCKRT_EMISMATCH;
        else
            identity_from_stat(&st, hash, id);
    }
    close(fd);
    return rc;
}

int lockrt__record_capture(const char *path, char *buf, size_t cap, size_t *len, lockrt_identity *id)
{
    int rc = capture_at(AT_FDCWD, path, path, buf, cap, len, id, cap);
    if (rc == LOCKRT__TOO_BIG) {
        *len = 0;
        return LOCKRT_ECORRUPT; /* larger than any record: not one, never read */
    }
    return rc;
}

int lockrt_identity_of(const char *path, lockrt_identity *out)
{
    if (!path || !*path || !out)
        return LOCKRT_EINVAL;
    return capture_at(AT_FDCWD, path, path, NULL, 0, NULL, out, UINT64_MAX);
}

/* Split path into a directory descriptor and a final component. */
static int open_parent(const char *path, int *dirfd, const char **base)
{
    const char *slash = strrchr(path, '/');
    const char *dir;
    char buf[4096];
    if (!slash) {
        dir = ".";
        *base = path;
    } else {
        size_t n = (size_t)(slash - path);
        if (n == 0)
            n = 1; /* "/name" */
        if (n >= sizeof buf)
            return LOCKRT_EINVAL;
        memcpy(buf, path, n);
        buf[n] = '\0';
        dir = buf;
        *base = slash + 1;
    }
    if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
        return LOCKRT_EINVAL;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
    *dirfd = fd;
    return LOCKRT_OK;
}

/* rename without replacing whatever may have appeared at `to`. */
static int rename_noreplace(int dirfd, const char *from, const char *to)
{
#if defined(__linux__)
    if (renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
    /* Filesystem without RENAME_NOREPLACE (older NFS, some FUSE): fall through. */
#endif
    /* link() fails with EEXIST instead of replacing; AT flags 0 = do not follow. */
    if (linkat(dirfd, from, dirfd, to, 0) != 0)
        return -1;
    unlinkat(dirfd, from, 0);
    return 0;
}

int lockrt_unlink_if_identical(const char *path, const lockrt_identity *judged,
                               const lockrt_options *opts)
{
    (void)opts;
    return lockrt__unlink_if_identical(path, judged, NULL);
}

int lockrt__unlink_if_identical(const char *path, const lockrt_identity *judged,
                                const lockrt_test_hooks *hooks)
{
    if (!path || !*path || !judged)
        return LOCKRT_EINVAL;
    int dirfd;
    const char *base;
    int rc = open_parent(path, &dirfd, &base);
    if (rc != LOCKRT_OK)
        return rc;

    struct stat st;
    if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        rc = errno == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
        close(dirfd);
        return rc;
    }
    if (S_ISLNK(st.st_mode)) {
        close(dirfd);
        return LOCKRT_ESYMLINK;
    }
    if (!S_ISREG(st.st_mode)) {
        close(dirfd);
        return LOCKRT_EBADTYPE;
    }

    /* There is no atomic compare-and-unlink on POSIX. Renaming the name to a
     * private, unguessable name first detaches the object from the shared name;
     * whatever we then verify under the private name is exactly what we delete. */
    char qname[512];
    char hex[33];
    if (strlen(base) > 200) {
        close(dirfd);
        return LOCKRT_EINVAL;
    }
    if ((rc = lockrt__random_hex(hex, 16)) != LOCKRT_OK) {
        close(dirfd);
        return rc;
    }
    snprintf(qname, sizeof qname, ".%s.lockrt-q-%s", base, hex);
    if (rename_noreplace(dirfd, base, qname) != 0) {
        rc = errno == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
        close(dirfd);
        return rc;
    }
    char qpath[4096 + 512];
    size_t baseoff = (size_t)(base - path);
    snprintf(qpath, sizeof qpath, "%.*s%s", (int)baseoff, path, qname);
    if (hooks && hooks->after_quarantine)
        hooks->after_quarantine(qpath, hooks->hook_arg);

    /* A different size is a mismatch without reading a byte (something huge
     * swapped in must not cost us a read of all of it). */
    lockrt_identity now;
    rc = capture_at(dirfd, qname, qpath, NULL, 0, NULL, &now, judged->size);
    if (rc == LOCKRT_OK && lockrt__identity_equal(&now, judged)) {
        rc = unlinkat(dirfd, qname, 0) == 0 ? LOCKRT_OK : LOCKRT_EIO;
        close(dirfd);
        return rc;
    }
    /* Not the object we judged (a successor, or a symlink swapped in): put it back
     * under its name, never over something that took the name meanwhile. If the
     * name is taken, the object stays under the quarantine name (documented). */
    rename_noreplace(dirfd, qname, base);
    close(dirfd);
    return LOCKRT_EMISMATCH;
}
