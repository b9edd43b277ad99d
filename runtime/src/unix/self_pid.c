/*
 * This process's pid, without a system call per question.
 *
 * Every acquisition asks several times (the handle records the acquiring pid,
 * release compares it to tell a forked copy, kept descriptors are tagged with
 * it), and since glibc 2.25 getpid() is a real system call each time. The
 * cache must never survive into a child, or a forked copy would pass for its
 * parent (and unlock the parent's lock through a shared open file
 * description). So it lives in a page mapped with MADV_WIPEONFORK (Linux
 * 4.14+): the kernel hands every child created without CLONE_VM a zero-filled
 * copy of it, whatever created the child (fork(), _Fork(), a raw clone(), no
 * atfork handler needed), and zero means "ask getpid()". Where the advice is
 * refused (older kernels, other Unixes) every question is a getpid().
 *
 * A vfork() child (or clone with CLONE_VM) shares the parent's memory, so it
 * would read the parent's pid; such a child may only exec or _exit, and lockrt
 * must not be called from it.
 */
#include "lockrt_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

static _Atomic(int64_t) *cached; /* in the wiped-on-fork page; NULL: no cache */
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void map_cache(void)
{
#if defined(__linux__) && defined(MADV_WIPEONFORK)
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    if (madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
        munmap(p, (size_t)page);
        return;
    }
    cached = p; /* (the page is never unmapped: the library is never unloaded) */
#endif
}

int64_t lockrt__self_pid(void)
{
    pthread_once(&cache_once, map_cache);
    if (!cached)
        return (int64_t)getpid();
    int64_t pid = atomic_load_explicit(cached, memory_order_relaxed);
    if (pid == 0) {
        pid = (int64_t)getpid();
        atomic_store_explicit(cached, pid, memory_order_relaxed);
    }
    return pid;
}
