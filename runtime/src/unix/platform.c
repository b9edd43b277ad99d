/* Unix clock, sleep, randomness, host name and filesystem type (the pid: self_pid.c). */
#include "lockrt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/statfs.h>
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
#include <sys/mount.h>
#include <sys/param.h>
#endif

uint64_t lockrt__monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int64_t lockrt__wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void lockrt__sleep_ms(uint32_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int lockrt__random_bytes(void *buf, size_t n)
{
#if defined(__linux__)
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break; /* old kernel: fall through to /dev/urandom */
        }
        p += got;
        n -= (size_t)got;
    }
    if (n == 0)
        return LOCKRT_OK;
    buf = p;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return LOCKRT_EIO;
    unsigned char *q = buf;
    while (n > 0) {
        ssize_t got = read(fd, q, n);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            close(fd);
            return LOCKRT_EIO;
        }
        q += got;
        n -= (size_t)got;
    }
    close(fd);
    return LOCKRT_OK;
}

int lockrt__hostname(char *buf, size_t cap)
{
    if (gethostname(buf, cap) != 0)
        return LOCKRT_EIO;
    buf[cap - 1] = '\0';
    return LOCKRT_OK;
}

/* statfs() of the path, or of its directory while the lock file does not exist. */
bool lockrt__is_network_fs(const char *path)
{
#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__)
    struct statfs sf;
    if (statfs(path, &sf) != 0) {
        char dir[4096];
        size_t n = strlen(path);
        if (n >= sizeof dir)
            return false;
        memcpy(dir, path, n + 1);
        char *slash = strrchr(dir, '/');
        if (!slash)
            strcpy(dir, ".");
        else if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
        if (statfs(dir, &sf) != 0)
            return false;
    }
#if defined(__linux__)
    switch ((unsigned long)sf.f_type) {
    case NFS_SUPER_MAGIC:        /* 0x6969 */
    case SMB_SUPER_MAGIC:        /* 0x517b */
    case 0xff534d42UL:           /* CIFS */
    case 0xfe534d42UL:           /* SMB2 */
    case CODA_SUPER_MAGIC:       /* 0x73757245 */
    case NCP_SUPER_MAGIC:        /* 0x564c */
    case AFS_SUPER_MAGIC:        /* 0x5346414f */
    case 0x6b414653UL:           /* kAFS */
    case V9FS_MAGIC:             /* 0x01021997, 9p */
    case 0x00c36400UL:           /* ceph */
    case 0x0bd00bd0UL:           /* lustre */
    case 0x01161970UL:           /* GFS2 */
    case 0x7461636fUL:           /* OCFS2 */
        return true;
    default:
        return false;
    }
#else
    static const char *const remote[] = {"nfs", "smbfs", "afpfs", "webdav", "cifs", "ncpfs"};
    for (size_t i = 0; i < sizeof remote / sizeof remote[0]; i++)
        if (strcmp(sf.f_fstypename, remote[i]) == 0)
            return true;
    return false;
#endif
#else
    (void)path;
    return false;
#endif
}
