/* confined_path and write_atomic on Unix. */
#include "lockrt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lockrt__name_ok(const char *name);

/* Is `p` equal to `root` or below it? Both canonical. */
static bool within(const char *root, const char *p)
{
    size_t n = strlen(root);
    if (strcmp(root, "/") == 0)
        return p[0] == '/';
    return strncmp(root, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* Lexically normalise an absolute path ("." and ".." and repeated slashes). */
static void normalise(char *p)
{
    char out[PATH_MAX];
    size_t o = 0;
    const char *s = p;
    out[o++] = '/';
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = s;
        while (*e && *e != '/')
            e++;
        size_t len = (size_t)(e - s);
        if (len == 0)
            break;
        if (len == 1 && s[0] == '.') {
        } else if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (o > 1) {
                o--;
                while (o > 1 && out[o - 1] != '/')
                    o--;
            }
        } else if (o + len + 1 < sizeof out) {
            if (o > 1)
                out[o++] = '/';
            memcpy(out + o, s, len);
            o += len;
        }
        s = e;
    }
    if (o > 1 && out[o - 1] == '/')
        o--;
    out[o] = '\0';
    memcpy(p, out, o + 1);
}

int lockrt_confined_path(const char *dir, const char *name, char *out, size_t out_size)
{
    if (!dir || !*dir || !out || out_size == 0)
        return LOCKRT_EINVAL;
    if (!lockrt__name_ok(name))
        return LOCKRT_EESCAPE;
    size_t dl = strlen(dir);
    bool sep = dir[dl - 1] == '/';
    int n = snprintf(out, out_size, "%s%s%s", dir, sep ? "" : "/", name);
    if (n < 0 || (size_t)n >= out_size)
        return LOCKRT_EINVAL;

    struct stat st;
    if (lstat(out, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return LOCKRT_OK; /* not there yet: the name check is the whole guard */
        return LOCKRT_EIO;
    }
    if (!S_ISLNK(st.st_mode))
        return LOCKRT_OK; /* a real entry of dir cannot be outside dir */

    /* A symlink: it may point anywhere. Compare where it leads with where dir
     * leads, both resolved, so a state dir that is itself behind a symlink (or a
     * junction on Windows) is no false alarm. */
    char root[PATH_MAX], target[PATH_MAX];
    if (!realpath(dir, root))
        return LOCKRT_EESCAPE;
    if (realpath(out, target))
        return within(root, target) ? LOCKRT_OK : LOCKRT_EESCAPE;
    /* Dangling: judge the link text itself, resolved one level lexically. */
    char link[PATH_MAX];
    ssize_t ln = readlink(out, link, sizeof link - 1);
    if (ln < 0)
        return LOCKRT_EESCAPE;
    link[ln] = '\0';
    if (link[0] == '/') {
        memcpy(target, link, (size_t)ln + 1);
    } else {
        if (snprintf(target, sizeof target, "%s/%s", root, link) >= (int)sizeof target)
            return LOCKRT_EESCAPE;
    }
    normalise(target);
    if (!within(root, target))
        return LOCKRT_EESCAPE;
    /* A dangling link inside dir may still pass through another link that leaves
     * it; refuse unless its parent resolves inside dir. */
    char *slash = strrchr(target, '/');
    if (slash && slash != target) {
        *slash = '\0';
        char parent[PATH_MAX];
        if (!realpath(target, parent) || !within(root, parent))
            return LOCKRT_EESCAPE;
    }
    return LOCKRT_OK;
}

int lockrt__write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int lockrt_write_atomic(const char *path, const void *data, size_t len, unsigned mode)
{
    if (!path || !*path || (!data && len > 0))
        return LOCKRT_EINVAL;
    if (mode == 0)
        mode = 0644;
    size_t pl = strlen(path);
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    if (!*base || pl + 64 >= PATH_MAX)
        return LOCKRT_EINVAL;

    /* A temp name unique per call (never "<path>.tmp"): two writers sharing a
     * fixed temp name interleave their bytes into one file and rename it twice. */
    char tmp[PATH_MAX];
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        char hex[17];
        int rc = lockrt__random_hex(hex, 8);
        if (rc != LOCKRT_OK)
            return rc;
        snprintf(tmp, sizeof tmp, "%.*s.%s.%s.tmp", (int)dirlen, path, base, hex);
        do {
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
        } while (fd < 0 && errno == EINTR);
        if (fd < 0 && errno != EEXIST)
            return errno == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
    }
    if (fd < 0)
        return LOCKRT_EIO;

    /* fsync before rename: otherwise a crash can leave the new name pointing at
     * an empty inode (ext4 delayed allocation, XFS). */
    if (lockrt__write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        int err = errno;
        close(fd);
        unlink(tmp);
        errno = err;
        return LOCKRT_EIO;
    }
    if (close(fd) != 0) {
        unlink(tmp);
        return LOCKRT_EIO;
    }
    /* rename() replaces the name atomically and acts on a symlink at `path`
     * itself, never on its target. */
    if (rename(tmp, path) != 0) {
        int err = errno;
        unlink(tmp);
        errno = err;
        return err == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
    }
    /* fsync the directory so the rename itself survives a crash. */
    char dir[PATH_MAX];
    if (dirlen == 0) {
        strcpy(dir, ".");
    } else {
        memcpy(dir, path, dirlen);
        dir[dirlen] = '\0';
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd); /* best effort: some filesystems refuse fsync on directories */
        close(dfd);
    }
    return LOCKRT_OK;
}
