/*
 * lockrt_test_wait_dlclose LIBRARY DIR: a host that loads liblockrt with
 * dlopen(), lets a bounded wait install lockrt's SIGURG handler, then
 * dlclose()s the library and takes a SIGURG. The library is linked with
 * -z nodelete, so it stays mapped and the handler stays callable; without
 * that, the signal would jump into unmapped memory. (Not linked against
 * lockrt: the library must be this process's only reference to it.)
 */
#include "lockrt.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define FAIL(...)                                                                       \
    do {                                                                                \
        fprintf(stderr, "lockrt_test_wait_dlclose: " __VA_ARGS__);                      \
        fputc('\n', stderr);                                                            \
        return 1;                                                                       \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 3)
        FAIL("usage: lockrt_test_wait_dlclose LIBRARY DIR");
    char lock_path[4096];
    snprintf(lock_path, sizeof lock_path, "%s/dlclose.lock", argv[2]);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        FAIL("dlopen: %s", dlerror());
    /* The POSIX idiom for a function pointer out of dlsym() (ISO C has no cast). */
    void (*options_init)(lockrt_options *);
    int (*acquire)(const char *, const lockrt_options *, lockrt_lock **);
    *(void **)&options_init = dlsym(lib, "lockrt_options_init");
    *(void **)&acquire = dlsym(lib, "lockrt_acquire");
    if (!options_init || !acquire)
        FAIL("dlsym: %s", dlerror());

    /* Held through another open file description of this process: flock
     * excludes it like another process's lock. */
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0)
        FAIL("cannot hold %s", lock_path);
    lockrt_options o;
    options_init(&o);
    o.strategy = LOCKRT_STRATEGY_OSLOCK;
    o.timeout_ms = 50;
    lockrt_lock *l = NULL;
    int rc = acquire(lock_path, &o, &l);
    if (rc != LOCKRT_ETIMEDOUT)
        FAIL("acquire behind a held lock: %d, expected LOCKRT_ETIMEDOUT", rc);
    struct sigaction cur;
    if (sigaction(SIGURG, NULL, &cur) != 0 || cur.sa_handler == SIG_DFL)
        FAIL("the bounded wait did not install its SIGURG handler");

    if (dlclose(lib) != 0)
        FAIL("dlclose: %s", dlerror());
    if (!dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD))
        FAIL("liblockrt was unmapped by dlclose (not linked with -z nodelete)");
    if (raise(SIGURG) != 0)
        FAIL("raise");
    close(fd);
    unlink(lock_path);
    puts("ok: SIGURG after dlclose reached lockrt's handler, still mapped");
    return 0;
}
