/*
 * Kept descriptors: the OS lock's lock-file descriptors, unlocked and kept open
 * between acquisitions of the same path in this process.
 *
 * Why: a fresh descriptor per acquisition costs open() and close(), the two
 * dearest calls of a cycle, and the identity checks (fstat of the descriptor,
 * lstat of the name once locked) cost two more. Under contention the cycle's
 * length is what decides throughput (docs/benchmarks.md, "Contended, 8
 * processes"). A kept descriptor skips open and close and keeps every check, so
 * the checks are paid for instead of dropped. The Python binding has kept its
 * own descriptors this way since issue 3 (runtime/python/README.md); this is
 * the same contract in C.
 *
 * What keeping a descriptor must not break, and how it does not:
 *   - two acquisitions in one process (threads) must exclude each other, and
 *     flock locks belong to the open file description: an entry is taken out
 *     of the cache while its lock is held, so each held lock has its own;
 *   - fork(): the child would share the parent's open file descriptions, so a
 *     flock through one would be the parent's lock, and a copy left open would
 *     keep a lock the parent later takes through it alive after the parent
 *     dies. The child closes its copies (pthread_atfork), and an entry is only
 *     ever used by the pid that stored it (a child made without handlers,
 *     e.g. _Fork() or a raw clone(), forgets the parent's entries unclosed);
 *   - a host that closes descriptors it does not own (a daemonizer) and lets
 *     the kernel reuse the number: before use, and before lockrt closes one,
 *     fstat must show the same regular file (device and inode); otherwise the
 *     number is forgotten, never locked, unlocked or closed;
 *   - a lock file removed or replaced while kept: the name check after the
 *     flock (oslock.c) sees it, closes the orphan and locks what the name
 *     names now, as for a fresh descriptor.
 * At most lockrt_set_kept_descriptors() entries (default 16), all O_CLOEXEC;
 * lockrt_close_idle_descriptors() closes them (before closing every descriptor
 * of a daemonizing process, or unmounting the lock file's filesystem).
 */
#include "kept_fd.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEPT_LIMIT 64 /* the most lockrt_set_kept_descriptors() accepts */

typedef struct kept {
    char *path;
    int fd;
    uint64_t dev, ino;
    int64_t pid; /* the process that stored it; only it may use or close fd */
} kept;

static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;
static kept kept_fds[KEPT_LIMIT]; /* oldest first */
static unsigned n_kept;
static atomic_uint kept_max = LOCKRT__KEPT_DEFAULT;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Is fd still the regular file we stored under it? */
static bool still_ours(int fd, uint64_t dev, uint64_t ino)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_dev == dev &&
           (uint64_t)st.st_ino == ino;
}

static void remove_at(unsigned i)
{
    memmove(&kept_fds[i], &kept_fds[i + 1], (n_kept - i - 1) * sizeof kept_fds[0]);
    n_kept--;
}

/* Under kept_mu: drop the entries another pid stored (inherited through a fork
 * that ran no handlers). Never closed: the numbers are that process's. */
static void forget_foreign(int64_t me)
{
    for (unsigned i = 0; i < n_kept;) {
        if (kept_fds[i].pid != me) {
            free(kept_fds[i].path);
            remove_at(i);
        } else {
            i++;
        }
    }
}

static void before_fork(void)
{
    pthread_mutex_lock(&kept_mu);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&kept_mu);
}

/* In the child: close the copies (async-signal-safe calls only: a threaded
 * parent's child may run nothing else), and mark the entries foreign so that
 * the next use frees them. */
static void after_fork_child(void)
{
    for (unsigned i = 0; i < n_kept; i++) {
        if (still_ours(kept_fds[i].fd, kept_fds[i].dev, kept_fds[i].ino))
            close(kept_fds[i].fd);
        kept_fds[i].fd = -1;
        kept_fds[i].pid = 0;
    }
    pthread_mutex_unlock(&kept_mu);
}

static void register_atfork(void)
{
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

int lockrt__kept_take(const char *path, uint64_t *dev, uint64_t *ino)
{
    if (atomic_load_explicit(&kept_max, memory_order_relaxed) == 0)
        return -1;
    int64_t me = lockrt__self_pid();
    kept found = {NULL, -1, 0, 0, 0};
    pthread_mutex_lock(&kept_mu);
    forget_foreign(me);
    for (unsigned i = n_kept; i-- > 0;) { /* newest first */
        if (strcmp(kept_fds[i].path, path) == 0) {
            found = kept_fds[i];
            remove_at(i);
            break;
        }
    }
    pthread_mutex_unlock(&kept_mu);
    if (!found.path)
        return -1;
    free(found.path);
    if (!still_ours(found.fd, found.dev, found.ino))
        return -1; /* the number was closed and reused by the host: forget it */
    *dev = found.dev;
    *ino = found.ino;
    return found.fd;
}

void lockrt__kept_put(char **path, int fd, uint64_t dev, uint64_t ino)
{
    unsigned max = atomic_load_explicit(&kept_max, memory_order_relaxed);
    if (max == 0) {
        close(fd);
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    int64_t me = lockrt__self_pid();
    kept victim = {NULL, -1, 0, 0, 0};
    pthread_mutex_lock(&kept_mu);
    forget_foreign(me);
    max = atomic_load_explicit(&kept_max, memory_order_relaxed); /* (lowered meanwhile?) */
    if (max == 0) {
        pthread_mutex_unlock(&kept_mu);
        close(fd);
        return;
    }
    if (n_kept >= max) {
        victim = kept_fds[0];
        remove_at(0);
    }
    kept_fds[n_kept++] = (kept){*path, fd, dev, ino, me};
    *path = NULL;
    pthread_mutex_unlock(&kept_mu);
    if (victim.path) {
        if (still_ours(victim.fd, victim.dev, victim.ino))
            close(victim.fd);
        free(victim.path);
    }
}

/* Close and forget every idle entry beyond `keep`. */
static void trim(unsigned keep)
{
    kept out[KEPT_LIMIT];
    unsigned n = 0;
    int64_t me = lockrt__self_pid();
    pthread_mutex_lock(&kept_mu);
    forget_foreign(me);
    while (n_kept > keep) {
        out[n++] = kept_fds[0];
        remove_at(0);
    }
    pthread_mutex_unlock(&kept_mu);
    for (unsigned i = 0; i < n; i++) {
        if (still_ours(out[i].fd, out[i].dev, out[i].ino))
            close(out[i].fd);
        free(out[i].path);
    }
}

void lockrt_close_idle_descriptors(void)
{
    trim(0);
}

unsigned lockrt_set_kept_descriptors(unsigned max)
{
    if (max > KEPT_LIMIT)
        max = KEPT_LIMIT;
    unsigned old = atomic_exchange(&kept_max, max);
    trim(max);
    return old;
}
