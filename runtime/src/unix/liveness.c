/*
 * Process liveness on Unix.
 *
 * kill(pid, 0) answers "does a process with this number exist": ESRCH = no,
 * EPERM = yes but not ours (it is alive -- reading EPERM as "dead" breaks locks
 * held by other users' processes). A number that exists may have been reused by
 * an unrelated process since the record was written, so the record's start time
 * is compared with the process's: Linux exposes it as field 22 of
 * /proc/<pid>/stat (clock ticks since boot, fixed for the life of the process).
 * A zombie (state Z/X) has exited and can hold nothing, so it reads as dead even
 * though kill() still finds it until it is reaped.
 *
 * Other Unixes: no start time is read (lockrt_process_start_time returns
 * LOCKRT_ENOTSUP), so pid reuse cannot be detected there and a reused pid reads
 * as alive -- the safe direction (a lock is kept, never broken wrongly).
 */
#include "lockrt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__linux__)
/* Parse /proc/<pid>/stat. The comm field (2) may contain spaces and ')', so
 * fields are counted from the last ')'. */
static int read_proc_stat(int64_t pid, char *state, uint64_t *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? LOCKRT_ENOENT : LOCKRT_EIO;
    ssize_t n;
    do {
        n = read(fd, buf, sizeof buf - 1);
    } while (n < 0 && errno == EINTR);
    close(fd);
    if (n <= 0)
        return LOCKRT_EIO;
    buf[n] = '\0';
    char *close_paren = strrchr(buf, ')');
    if (!close_paren || close_paren[1] != ' ')
        return LOCKRT_EIO;
    char *p = close_paren + 2; /* field 3: state */
    *state = *p;
    /* advance to field 22 */
    for (int field = 3; field < 22; field++) {
        p = strchr(p, ' ');
        if (!p)
            return LOCKRT_EIO;
        p++;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno != 0 || end == p)
        return LOCKRT_EIO;
    *start = v;
    return LOCKRT_OK;
}
#endif

int lockrt_process_start_time(int64_t pid, uint64_t *out)
{
    if (pid <= 0 || !out)
        return LOCKRT_EINVAL;
#if defined(__linux__)
    char state;
    return read_proc_stat(pid, &state, out);
#else
    return LOCKRT_ENOTSUP;
#endif
}

lockrt_liveness lockrt_process_alive(int64_t pid, uint64_t start_time)
{
    if (pid <= 0 || (int64_t)(pid_t)pid != pid)
        return LOCKRT_UNKNOWN;
    if (kill((pid_t)pid, 0) != 0) {
        if (errno == ESRCH)
            return LOCKRT_DEAD;
        if (errno != EPERM)
            return LOCKRT_UNKNOWN;
        /* EPERM: it exists; fall through to the start-time check. */
    }
#if defined(__linux__)
    char state = 0;
    uint64_t actual = 0;
    int rc = read_proc_stat(pid, &state, &actual);
    if (rc == LOCKRT_ENOENT) {
        /* Gone between kill() and open(), unless /proc is not mounted. */
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            return LOCKRT_DEAD;
        return LOCKRT_ALIVE;
    }
    if (rc != LOCKRT_OK)
        return LOCKRT_ALIVE; /* exists; start time unreadable (hidepid): unknown start */
    if (state == 'Z' || state == 'X')
        return LOCKRT_DEAD;
    if (start_time != 0 && actual != start_time)
        return LOCKRT_DEAD; /* the pid now belongs to another process */
#endif
    return LOCKRT_ALIVE;
}
