/* Kept descriptors of the OS lock (src/unix/kept_fd.c): a released lock file's
 * descriptor is reused by this process's next acquisition of the path, and
 * keeping it never weakens the lock: threads, fork (with and without atfork
 * handlers), a host reusing the number, a name replaced while kept. */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static lockrt_options os_opts(int64_t timeout_ms)
{
    lockrt_options o;
    lockrt_options_init(&o);
    o.strategy = LOCKRT_STRATEGY_OSLOCK;
    o.timeout_ms = timeout_ms;
    return o;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own */
}

/* The descriptor of `path` this process has open, or -1. */
static int fd_of(const char *path)
{
    struct stat want;
    CHECK(lstat(path, &want) == 0);
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_ino == want.st_ino && st.st_dev == want.st_dev)
            return fd;
    }
    return -1;
}

static void cycle(const char *path)
{
    lockrt_options o = os_opts(0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire(path, &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

static void reused_bounded_and_closable(void)
{
    int before = open_fds();
    cycle("a.lock");
    CHECK_EQ_INT(open_fds(), before + 1); /* kept after release */
    int kept = fd_of("a.lock");
    CHECK(kept >= 0);
    lockrt_options o = os_opts(0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(open_fds(), before + 1); /* the kept one, not a new one */
    CHECK_EQ_INT(fd_of("a.lock"), kept);
    /* Held through the kept descriptor: a second acquisition in this process
     * (its own open file description) is refused. */
    lockrt_lock *m = NULL;
    CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &m), LOCKRT_ETIMEDOUT);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    for (int i = 0; i < 24; i++) {
        char p[32];
        snprintf(p, sizeof p, "l%d.lock", i);
        cycle(p);
    }
    CHECK_EQ_INT(open_fds(), before + 16); /* the default bound */
    lockrt_close_idle_descriptors();
    CHECK_EQ_INT(open_fds(), before);
    CHECK_EQ_INT((int)lockrt_set_kept_descriptors(0), 16);
    cycle("a.lock");
    CHECK_EQ_INT(open_fds(), before);
    CHECK_EQ_INT((int)lockrt_set_kept_descriptors(2), 0);
    cycle("a.lock");
    cycle("b.lock");
    cycle("c.lock");
    CHECK_EQ_INT(open_fds(), before + 2);
    lockrt_set_kept_descriptors(1); /* lowering it closes the surplus */
    CHECK_EQ_INT(open_fds(), before + 1);
}

/* The host closes the kept number and the kernel gives it to another file: lockrt
 * neither locks nor closes that file's descriptor. */
static void reused_number_is_not_touched(void)
{
    cycle("a.lock");
    int kept = fd_of("a.lock");
    CHECK(kept >= 0);
    CHECK(close(kept) == 0);
    tu_write_file("user.txt", "user data");
    int user = open("user.txt", O_RDWR | O_CLOEXEC);
    CHECK_EQ_INT(user, kept); /* the lowest free number */
    lockrt_options o = os_opts(0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_OK);
    int probe = open("user.txt", O_RDWR | O_CLOEXEC);
    CHECK(flock(probe, LOCK_EX | LOCK_NB) == 0); /* nothing locked through `user` */
    close(probe);
    probe = open("a.lock", O_RDWR | O_CLOEXEC);
    CHECK(flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK); /* a.lock is */
    close(probe);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    lockrt_close_idle_descriptors();
    struct stat st, want;
    CHECK(fstat(user, &st) == 0 && lstat("user.txt", &want) == 0);
    CHECK(st.st_ino == want.st_ino); /* still open: never closed by lockrt */
    close(user);
}

/* The name is replaced or removed while its descriptor is kept: the next
 * acquisition locks what the name names now, and the orphan is closed. */
static void name_changed_while_kept(void)
{
    for (int change = 0; change < 2; change++) {
        cycle("a.lock");
        int before = open_fds();
        if (change == 0) {
            tu_write_file("new", "");
            CHECK(rename("new", "a.lock") == 0);
        } else {
            CHECK(unlink("a.lock") == 0);
        }
        lockrt_options o = os_opts(0);
        lockrt_lock *l = NULL;
        CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_OK);
        int probe = open("a.lock", O_RDWR | O_CLOEXEC);
        CHECK(probe >= 0);
        CHECK(flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK);
        close(probe);
        CHECK_EQ_INT(open_fds(), before); /* the orphan's closed, the new one held */
        CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    }
}

/* A child must never lock through the parent's open file description (its flock
 * would be the parent's lock). With fork() it closes its copies; with a fork
 * that runs no atfork handlers (the raw system call) it leaves them alone and
 * opens its own. Either way child and parent exclude each other. */
static void fork_never_shares_a_kept_descriptor(void)
{
    for (int raw = 0; raw < 2; raw++) {
        cycle("a.lock");
        int kept = fd_of("a.lock");
        CHECK(kept >= 0);
        int to_parent[2], to_child[2];
        CHECK(pipe(to_parent) == 0 && pipe(to_child) == 0);
#ifdef SYS_fork
        pid_t pid = raw ? (pid_t)syscall(SYS_fork) : fork();
#else
        pid_t pid = fork();
#endif
        CHECK(pid >= 0);
        if (pid == 0) {
            int ok = 1;
            if (!raw)
                ok &= fcntl(kept, F_GETFD) == -1 && errno == EBADF; /* closed by the handler */
            else
                ok &= fcntl(kept, F_GETFD) != -1; /* another pid's entry: left alone */
            lockrt_options o = os_opts(0);
            lockrt_lock *l = NULL;
            ok &= lockrt_acquire("a.lock", &o, &l) == LOCKRT_OK;
            ok &= write(to_parent[1], "x", 1) == 1;
            char c;
            ok &= read(to_child[0], &c, 1) == 1;
            ok &= lockrt_release(l) == LOCKRT_OK;
            _exit(ok ? 0 : 1);
        }
        char c;
        CHECK(read(to_parent[0], &c, 1) == 1);
        lockrt_options o = os_opts(0);
        lockrt_lock *l = NULL;
        CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_ETIMEDOUT); /* the child holds it */
        CHECK(write(to_child[1], "x", 1) == 1);
        int st = 0;
        CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st));
        CHECK_EQ_INT(WEXITSTATUS(st), 0);
        CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_OK);
        CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
        close(to_parent[0]);
        close(to_parent[1]);
        close(to_child[0]);
        close(to_child[1]);
    }
}

int main(int argc, char **argv)
{
    static const lrt_test tests[] = {
        LRT_TEST(reused_bounded_and_closable),
        LRT_TEST(reused_number_is_not_touched),
        LRT_TEST(name_changed_while_kept),
        LRT_TEST(fork_never_shares_a_kept_descriptor),
    };
    return lrt_run(tests, sizeof tests / sizeof tests[0], argc, argv);
}
