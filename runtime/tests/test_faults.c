/* Fault scenarios with real processes: killed holders, stopped holders, EPERM,
 * pid reuse, a successor appearing between judgement and removal. */
#include "lockrt_test_hooks.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRIALS 100
#define CONTENDERS 3

typedef struct probe {
    atomic_int in_cs;      /* processes inside the critical section right now */
    atomic_int violations; /* times someone entered while another was inside */
    atomic_int entries;
} probe;

static probe *probe_new(void)
{
    probe *p = mmap(NULL, sizeof *p, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED);
    memset(p, 0, sizeof *p);
    return p;
}

static lockrt_options opts_for(lockrt_strategy s, int64_t timeout_ms)
{
    lockrt_options o;
    lockrt_options_init(&o);
    o.strategy = s;
    o.timeout_ms = timeout_ms;
    return o;
}

/* Child: acquire, report through `ready`, then wait for a byte on `release_cmd`
 * (or forever when it is -1), release and exit 0. */
static pid_t spawn_holder(const char *lock_path, lockrt_strategy s, int *ready_fd, int release_cmd)
{
    int p[2];
    CHECK(pipe(p) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        lockrt_options o = opts_for(s, 10000);
        lockrt_lock *l = NULL;
        if (lockrt_acquire(lock_path, &o, &l) != LOCKRT_OK)
            _exit(2);
        if (write(p[1], "x", 1) != 1)
            _exit(3);
        if (release_cmd < 0) {
            for (;;)
                pause();
        }
        char c;
        if (read(release_cmd, &c, 1) != 1)
            _exit(4);
        _exit(lockrt_release(l) == LOCKRT_OK ? 0 : 5);
    }
    close(p[1]);
    *ready_fd = p[0];
    char c;
    CHECK(read(p[0], &c, 1) == 1); /* the holder is inside its critical section */
    return pid;
}

/* Child: acquire within the bound, occupy the critical section (probe + O_EXCL
 * marker), release. Exit 0 = entered alone, 3 = timed out, others = errors. */
static pid_t spawn_contender(const char *lock_path, lockrt_strategy s, probe *pr, int64_t timeout_ms)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid != 0)
        return pid;
    lockrt_options o = opts_for(s, timeout_ms);
    lockrt_lock *l = NULL;
    int rc = lockrt_acquire(lock_path, &o, &l);
    if (rc == LOCKRT_ETIMEDOUT)
        _exit(3);
    if (rc != LOCKRT_OK)
        _exit(4);
    if (atomic_fetch_add(&pr->in_cs, 1) != 0)
        atomic_fetch_add(&pr->violations, 1);
    atomic_fetch_add(&pr->entries, 1);
    int fd = open("occupied.marker", O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0)
        atomic_fetch_add(&pr->violations, 1);
    else
        close(fd);
    usleep(300);
    if (fd >= 0)
        unlink("occupied.marker");
    atomic_fetch_sub(&pr->in_cs, 1);
    _exit(lockrt_release(l) == LOCKRT_OK ? 0 : 5);
}

static int wait_exit(pid_t pid)
{
    int st;
    pid_t r;
    do {
        r = waitpid(pid, &st, 0);
    } while (r < 0 && errno == EINTR);
    CHECK(r == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void killed_holder_trials(lockrt_strategy s)
{
    probe *pr = probe_new();
    for (int trial = 0; trial < TRIALS; trial++) {
        int ready;
        pid_t holder = spawn_holder("k.lock", s, &ready, -1);
        close(ready);
        CHECK(kill(holder, SIGKILL) == 0);
        bool reap_first = trial % 2 == 0; /* odd trials: the dead holder is a zombie */
        if (reap_first)
            CHECK_EQ_INT(wait_exit(holder), 128 + SIGKILL);
        pid_t c[CONTENDERS];
        for (int i = 0; i < CONTENDERS; i++)
            c[i] = spawn_contender("k.lock", s, pr, 10000);
        for (int i = 0; i < CONTENDERS; i++) {
            int code = wait_exit(c[i]);
            if (code != 0)
                fprintf(stderr, "    trial %d: contender exit %d\n", trial, code);
            CHECK_EQ_INT(code, 0);
        }
        if (!reap_first)
            CHECK_EQ_INT(wait_exit(holder), 128 + SIGKILL);
        CHECK_EQ_INT(atomic_load(&pr->violations), 0);
        CHECK_EQ_INT(atomic_load(&pr->in_cs), 0);
    }
    CHECK_EQ_INT(atomic_load(&pr->entries), TRIALS * CONTENDERS);
    if (s == LOCKRT_STRATEGY_LOCKFILE) {
        CHECK(!tu_exists_nofollow("k.lock")); /* the dead holder's record was reclaimed */
        CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
    } else {
        CHECK(tu_exists_nofollow("k.lock")); /* OS lock files stay */
    }
}

static void killed_holder_lockfile_reclaimed(void)
{
    killed_holder_trials(LOCKRT_STRATEGY_LOCKFILE);
}

static void killed_holder_oslock_released_by_kernel(void)
{
    killed_holder_trials(LOCKRT_STRATEGY_OSLOCK);
}

static void stopped_holder_trial(lockrt_strategy s)
{
    int cmd[2];
    CHECK(pipe(cmd) == 0);
    int ready;
    pid_t holder = spawn_holder("s.lock", s, &ready, cmd[0]);
    close(ready);
    size_t before_len = 0;
    char *before = tu_read_file("s.lock", &before_len);
    CHECK(before != NULL);
    CHECK(kill(holder, SIGSTOP) == 0);
    int st;
    CHECK(waitpid(holder, &st, WUNTRACED) == holder && WIFSTOPPED(st));

    probe *pr = probe_new();
    pid_t c[CONTENDERS];
    for (int i = 0; i < CONTENDERS; i++)
        c[i] = spawn_contender("s.lock", s, pr, 300);
    for (int i = 0; i < CONTENDERS; i++)
        CHECK_EQ_INT(wait_exit(c[i]), 3); /* LOCKRT_ETIMEDOUT, said so, nothing broken */
    CHECK_EQ_INT(atomic_load(&pr->entries), 0);
    if (s == LOCKRT_STRATEGY_LOCKFILE) {
        CHECK_EQ_INT(lockrt_reclaim_if_stale("s.lock", NULL), LOCKRT_ENOTSTALE);
        lockrt_owner owner;
        CHECK_EQ_INT(lockrt_owner_read("s.lock", &owner), LOCKRT_OK);
        CHECK_EQ_INT(owner.pid, holder);
    }
    size_t after_len = 0;
    char *after = tu_read_file("s.lock", &after_len);
    CHECK(after != NULL && after_len == before_len && memcmp(before, after, before_len) == 0);
    free(before);
    free(after);

    CHECK(kill(holder, SIGCONT) == 0);
    CHECK(write(cmd[1], "r", 1) == 1);
    CHECK_EQ_INT(wait_exit(holder), 0); /* it still held the lock and released it */
    pid_t late = spawn_contender("s.lock", s, pr, 5000);
    CHECK_EQ_INT(wait_exit(late), 0);
    CHECK_EQ_INT(atomic_load(&pr->violations), 0);
}

static void stopped_holder_never_broken_lockfile(void)
{
    stopped_holder_trial(LOCKRT_STRATEGY_LOCKFILE);
}

static void stopped_holder_never_broken_oslock(void)
{
    stopped_holder_trial(LOCKRT_STRATEGY_OSLOCK);
}

static void reused_pid_is_reclaimed(void)
{
    pid_t alive = tu_spawn_sleeper();
    uint64_t st = 0;
    CHECK_EQ_INT(lockrt_process_start_time(alive, &st), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_process_alive(alive, st), LOCKRT_ALIVE);
    CHECK_EQ_INT(lockrt_process_alive(alive, st + 1), LOCKRT_DEAD);

    tu_write_record("r.lock", alive, st, tu_hostname(), "a1");
    CHECK_EQ_INT(lockrt_reclaim_if_stale("r.lock", NULL), LOCKRT_ENOTSTALE);
    CHECK(tu_exists_nofollow("r.lock"));

    /* Same pid, different start time: the recorded process is gone and its pid
     * now names another one. */
    tu_write_record("r.lock", alive, st + 12345, tu_hostname(), "a1");
    CHECK_EQ_INT(lockrt_reclaim_if_stale("r.lock", NULL), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("r.lock"));

    tu_write_record("r.lock", alive, st - 1, tu_hostname(), "a1");
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 2000);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("r.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    tu_kill_and_reap(alive);
}

static void eperm_means_alive(void)
{
    if (geteuid() != 0)
        SKIP("needs root: drops privileges to nobody to get EPERM from kill()");
    pid_t root_proc = tu_spawn_sleeper(); /* a root-owned process nobody may not signal */
    uint64_t st1 = 0, st_root = 0;
    CHECK_EQ_INT(lockrt_process_start_time(1, &st1), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_process_start_time(root_proc, &st_root), LOCKRT_OK);
    tu_write_record("p1.lock", 1, st1, tu_hostname(), "b1");
    tu_write_record("pr.lock", root_proc, st_root, tu_hostname(), "b2");
    tu_write_record("pz.lock", root_proc, 0, tu_hostname(), "b3");
    CHECK(chmod(lrt_dir(), 0777) == 0);
    CHECK(chmod("p1.lock", 0666) == 0 && chmod("pr.lock", 0666) == 0 && chmod("pz.lock", 0666) == 0);

    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        CHECK(setgroups(0, NULL) == 0);
        CHECK(setgid(65534) == 0);
        CHECK(setuid(65534) == 0);
        CHECK(geteuid() == 65534);
        /* The premise: the OS says EPERM, not ESRCH. */
        errno = 0;
        CHECK(kill(root_proc, 0) == -1 && errno == EPERM);
        errno = 0;
        CHECK(kill(1, 0) == -1 && errno == EPERM);
        CHECK_EQ_INT(lockrt_process_alive(1, 0), LOCKRT_ALIVE);
        CHECK_EQ_INT(lockrt_process_alive(1, st1), LOCKRT_ALIVE);
        CHECK_EQ_INT(lockrt_process_alive(root_proc, st_root), LOCKRT_ALIVE);
        CHECK_EQ_INT(lockrt_process_alive(root_proc, 0), LOCKRT_ALIVE);
        CHECK_EQ_INT(lockrt_reclaim_if_stale("p1.lock", NULL), LOCKRT_ENOTSTALE);
        CHECK_EQ_INT(lockrt_reclaim_if_stale("pr.lock", NULL), LOCKRT_ENOTSTALE);
        CHECK_EQ_INT(lockrt_reclaim_if_stale("pz.lock", NULL), LOCKRT_ENOTSTALE);
        lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 50);
        lockrt_lock *l = NULL;
        CHECK_EQ_INT(lockrt_acquire("pr.lock", &o, &l), LOCKRT_ETIMEDOUT);
        _exit(0);
    }
    CHECK_EQ_INT(wait_exit(child), 0);
    CHECK(tu_exists_nofollow("p1.lock") && tu_exists_nofollow("pr.lock") &&
          tu_exists_nofollow("pz.lock"));
    tu_kill_and_reap(root_proc);
}

/* The hook runs after the dead owner was judged stale and before the removal:
 * exactly then, another process reclaims and a successor takes the lock. */
static void install_successor(const char *lock_path, void *arg)
{
    int *calls = arg;
    (*calls)++;
    CHECK(unlink(lock_path) == 0);
    uint64_t st = 0;
    CHECK_EQ_INT(lockrt_process_start_time(getpid(), &st), LOCKRT_OK);
    tu_write_record(lock_path, getpid(), st, tu_hostname(), "5cce55");
}

static void successor_survives_reclaim(void)
{
    pid_t dead = tu_dead_pid();
    tu_write_record("succ.lock", dead, 0, tu_hostname(), "dead");
    int calls = 0;
    lockrt_test_hooks hooks = {install_successor, NULL, &calls};
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    CHECK_EQ_INT(lockrt_test_reclaim_if_stale("succ.lock", &hooks), LOCKRT_EMISMATCH);
    CHECK_EQ_INT(calls, 1);
    lockrt_owner owner;
    CHECK_EQ_INT(lockrt_owner_read("succ.lock", &owner), LOCKRT_OK);
    CHECK(strcmp(owner.token, tu_token("5cce55")) == 0);
    CHECK_EQ_INT(owner.pid, getpid());

    /* The same race inside an acquisition: the successor (alive) keeps the lock
     * and the acquirer times out instead of deleting it. */
    CHECK(unlink("succ.lock") == 0);
    tu_write_record("succ.lock", dead, 0, tu_hostname(), "dead");
    lockrt_lock *l = NULL;
    o.timeout_ms = 100;
    CHECK_EQ_INT(lockrt_test_acquire("succ.lock", &o, &hooks, &l), LOCKRT_ETIMEDOUT);
    CHECK_EQ_INT(calls, 2);
    CHECK_EQ_INT(lockrt_owner_read("succ.lock", &owner), LOCKRT_OK);
    CHECK(strcmp(owner.token, tu_token("5cce55")) == 0);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

int main(int argc, char **argv)
{
    static const lrt_test tests[] = {
        LRT_TEST(killed_holder_lockfile_reclaimed),
        LRT_TEST(killed_holder_oslock_released_by_kernel),
        LRT_TEST(stopped_holder_never_broken_lockfile),
        LRT_TEST(stopped_holder_never_broken_oslock),
        LRT_TEST(reused_pid_is_reclaimed),
        LRT_TEST(eperm_means_alive),
        LRT_TEST(successor_survives_reclaim),
    };
    return lrt_run(tests, sizeof tests / sizeof tests[0], argc, argv);
}
