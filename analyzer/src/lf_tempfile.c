#include "lf_tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fixed slots with their path stored inline: the handler never follows a pointer
 * that the main flow could free, and registration never allocates. lockfix holds
 * at most one or two temps at a time (one write in flight); 64 leaves room. */
#define LF_TEMP_SLOTS 64

enum { SLOT_FREE = 0, SLOT_FILLING = 1, SLOT_LIVE = 2 };

typedef struct temp_slot {
    _Atomic int state;
    pid_t owner;
    char path[PATH_MAX];
} temp_slot;

static temp_slot g_slots[LF_TEMP_SLOTS];
static atomic_flag g_installed = ATOMIC_FLAG_INIT;
static const int k_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction g_previous[3];

/* Async-signal-safe: atomic loads, getpid, unlink. */
static void remove_all(void) {
    pid_t me = getpid();
    for (int i = 0; i < LF_TEMP_SLOTS; i++) {
        if (atomic_load(&g_slots[i].state) != SLOT_LIVE || g_slots[i].owner != me)
            continue;
        int saved = errno;
        (void)unlink(g_slots[i].path);
        errno = saved;
    }
}

static void on_signal(int sig) {
    remove_all();
    /* Mark the slots free so the atexit hook of a handler that returns does not
     * unlink a second time (harmless, but keeps one owner of each removal). */
    for (int i = 0; i < LF_TEMP_SLOTS; i++)
        atomic_store(&g_slots[i].state, SLOT_FREE);
    for (size_t k = 0; k < sizeof k_signals / sizeof k_signals[0]; k++)
        if (k_signals[k] == sig) {
            (void)sigaction(sig, &g_previous[k], NULL);
            break;
        }
    /* The previous action is usually SIG_DFL: re-raising ends the process with
     * the signal, so the caller sees "killed by SIGTERM", not a plain exit. */
    (void)raise(sig);
}

static void at_exit(void) { remove_all(); }

void lf_tempfile_install(void) {
    if (atomic_flag_test_and_set(&g_installed))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof k_signals / sizeof k_signals[0]; k++)
        sigaddset(&sa.sa_mask, k_signals[k]);
    sa.sa_flags = SA_RESETHAND;
    for (size_t k = 0; k < sizeof k_signals / sizeof k_signals[0]; k++) {
        struct sigaction old;
        if (sigaction(k_signals[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
            /* nohup and friends: an ignored signal stays ignored. */
            g_previous[k] = old;
            continue;
        }
        (void)sigaction(k_signals[k], &sa, &g_previous[k]);
    }
    /* fix --apply takes a lease for an instant (lf_fix.c) to learn whether
     * another process still has a file open; a lease break would deliver
     * SIGIO, whose default action ends the process. lockfix uses no SIGIO. */
    signal(SIGIO, SIG_IGN);
    atexit(at_exit);
}

int lf_tempfile_create(const char *target, const char *suffix, int *slot) {
    lf_tempfile_install();
    const char *slash = strrchr(target, '/');
    int dir_len = slash ? (int)(slash - target) : 0;
    const char *base = slash ? slash + 1 : target;
    int i;
    for (i = 0; i < LF_TEMP_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&g_slots[i].state, &expected, SLOT_FILLING))
            break;
    }
    if (i == LF_TEMP_SLOTS) {
        errno = EMFILE;
        return -1;
    }
    temp_slot *s = &g_slots[i];
    int n = slash ? snprintf(s->path, sizeof s->path, "%.*s/.%s%sXXXXXX", dir_len, target, base, suffix)
                  : snprintf(s->path, sizeof s->path, ".%s%sXXXXXX", base, suffix);
    if (n < 0 || (size_t)n >= sizeof s->path) {
        atomic_store(&s->state, SLOT_FREE);
        errno = ENAMETOOLONG;
        return -1;
    }
    s->owner = getpid();
    /* The three signals are blocked in this thread from the create until the
     * slot is live, so the handler cannot run between the two here. lockfix
     * creates temps after its worker threads have joined: no other thread is
     * left to take the signal meanwhile. */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t k = 0; k < sizeof k_signals / sizeof k_signals[0]; k++)
        sigaddset(&block, k_signals[k]);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int fd = mkostemp(s->path, O_CLOEXEC);
    int saved = errno;
    if (fd >= 0)
        atomic_store(&s->state, SLOT_LIVE);
    else
        atomic_store(&s->state, SLOT_FREE);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    if (fd < 0)
        return -1;
    *slot = i;
    return fd;
}

const char *lf_tempfile_path(int slot) { return g_slots[slot].path; }

void lf_tempfile_forget(int slot) { atomic_store(&g_slots[slot].state, SLOT_FREE); }

void lf_tempfile_remove(int slot) {
    (void)unlink(g_slots[slot].path);
    atomic_store(&g_slots[slot].state, SLOT_FREE);
}

size_t lf_tempfile_live(void) {
    size_t n = 0;
    for (int i = 0; i < LF_TEMP_SLOTS; i++)
        n += atomic_load(&g_slots[i].state) == SLOT_LIVE;
    return n;
}
