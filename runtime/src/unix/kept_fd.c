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

/* A slot keeps its path after its descriptor is taken (fd -1), so that the
 * release of that lock stores the descriptor back without allocating: a cycle
 * of acquire and release allocates nothing here. */
typedef struct kept {
    char *path;      /* NULL: an unused slot */
    int fd;          /* -1: no descriptor in it now */
    uint64_t dev, ino;
    uint64_t stamp;  /* when fd was stored: the oldest is closed first */
} kept;

static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;
static kept slots[KEPT_LIMIT];
static unsigned n_slots;  /* slots[0, n_slots) have been used */
static int64_t slots_pid; /* the process that stored the descriptors; only it may use or close them */
static uint64_t stamps;
static atomic_uint kept_max = LOCKRT__KEPT_DEFAULT;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Is fd still the regular file we stored under it? */
static bool still_ours(int fd, uint64_t dev, uint64_t ino)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_dev == dev &&
           (uint64_t)st.st_ino == ino;
}

/* Under kept_mu: forget the descriptors another pid stored (inherited through a
 * fork that ran no handlers). Never closed: the numbers are that process's. */
static void forget_foreign(int64_t me)
{
    if (slots_pid == me)
        return;
    for (unsigned i = 0; i < n_slots; i++)
        slots[i].fd = -1;
    slots_pid = me;
}

/* Under kept_mu: the slot holding the oldest descriptor, and how many hold one. */
static int oldest_idle(unsigned *idle)
{
    int best = -1;
    *idle = 0;
    for (unsigned i = 0; i < n_slots; i++) {
        if (slots[i].fd < 0)
            continue;
        (*idle)++;
        if (best < 0 || slots[i].stamp < slots[best].stamp)
            best = (int)i;
    }
    return best;
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
 * parent's child may run nothing else). */
static void after_fork_child(void)
{
    for (unsigned i = 0; i < n_slots; i++) {
        if (still_ours(slots[i].fd, slots[i].dev, slots[i].ino))
            close(slots[i].fd);
        slots[i].fd = -1;
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
    for (unsigned i = 0; i < n_slots; i++) {
        if (slots[i].fd >= 0 && strcmp(slots[i].path, path) == 0) {
            found = slots[i];
            slots[i].fd = -1; /* the name stays, for the release */
            break;
        }
    }
    pthread_mutex_unlock(&kept_mu);
    if (found.fd < 0 || !still_ours(found.fd, found.dev, found.ino))
        return -1; /* none, or the number was closed and reused by the host: forget it */
    *dev = found.dev;
    *ino = found.ino;
    return found.fd;
}

void lockrt__kept_put(const char *path, int fd, uint64_t dev, uint64_t ino)
{
    if (atomic_load_explicit(&kept_max, memory_order_relaxed) == 0) {
        close(fd);
        return;
    }
    pthread_once(&atfork_once, register_atfork);
    int64_t me = lockrt__self_pid();
    kept victim = {NULL, -1, 0, 0, 0};
    pthread_mutex_lock(&kept_mu);
    forget_foreign(me);
    unsigned max = atomic_load_explicit(&kept_max, memory_order_relaxed); /* (lowered meanwhile?) */
    unsigned idle;
    int old = oldest_idle(&idle);
    if (max == 0) {
        pthread_mutex_unlock(&kept_mu);
        close(fd);
        return;
    }
    if (idle >= max) {
        victim = slots[old];
        slots[old].fd = -1;
    }
    /* A slot without a descriptor: one named `path` (its last release), else an
     * unused one, else any (renamed). One exists: at most max <= KEPT_LIMIT hold
     * a descriptor, and the victim's was just emptied. */
    int at = -1, any = -1, unused = n_slots < KEPT_LIMIT ? (int)n_slots : -1;
    for (unsigned i = 0; i < n_slots && at < 0; i++) {
        if (slots[i].fd >= 0)
            continue;
        if (strcmp(slots[i].path, path) == 0)
            at = (int)i;
        else if (any < 0)
            any = (int)i;
    }
    if (at < 0) {
        at = unused >= 0 ? unused : any;
        char *copy = strdup(path);
        if (at < 0 || !copy) {
            free(copy);
            pthread_mutex_unlock(&kept_mu);
            close(fd); /* (out of memory: just not kept) */
            fd = -1;
        } else {
            if (at == unused)
                n_slots++;
            free(slots[at].path);
            slots[at].path = copy;
        }
    }
    if (fd >= 0) {
        slots[at].fd = fd;
        slots[at].dev = dev;
        slots[at].ino = ino;
        slots[at].stamp = ++stamps;
        pthread_mutex_unlock(&kept_mu);
    }
    if (victim.fd >= 0 && still_ours(victim.fd, victim.dev, victim.ino))
        close(victim.fd);
}

/* Close every kept descriptor beyond the `keep` newest; with keep 0, also free
 * the names of the slots without one. */
static void trim(unsigned keep)
{
    kept out[KEPT_LIMIT];
    unsigned n = 0;
    int64_t me = lockrt__self_pid();
    pthread_mutex_lock(&kept_mu);
    forget_foreign(me);
    for (;;) {
        unsigned idle;
        int old = oldest_idle(&idle);
        if (idle <= keep)
            break;
        out[n++] = slots[old];
        slots[old].fd = -1;
    }
    if (keep == 0) {
        for (unsigned i = 0; i < n_slots; i++) {
            free(slots[i].path);
            slots[i].path = NULL;
        }
        n_slots = 0;
    }
    pthread_mutex_unlock(&kept_mu);
    for (unsigned i = 0; i < n; i++)
        if (still_ours(out[i].fd, out[i].dev, out[i].ino))
            close(out[i].fd);
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
