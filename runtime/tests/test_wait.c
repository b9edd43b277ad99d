/*
 * The OS lock's bounded wait (src/unix/oslock.c, src/unix/wake_timer.c): a
 * blocking flock() ended at the deadline by a per-thread SIGURG timer.
 *
 * What is proved, with real processes (and threads where the timer is per
 * thread): a held lock times out no earlier than the bound and well within a
 * hang guard, whether the holder is lockrt or plain flock (old code during a
 * rollout); a release wakes the waiter; a stopped holder is never broken; the
 * host's own signals interrupt the wait without losing the wake-up or making a
 * second holder; lockrt leaves a SIGURG handler of the host's alone (and one it
 * put back), never signals it, and honours the bound by polling instead; a
 * thread that blocks SIGURG is never unblocked; no timer signal arrives after
 * the call returns; forked children and threads each wait on their own.
 *
 * Upper bounds on time are hang guards (HANG_GUARD_MS), not speed checks.
 */
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HANG_GUARD_MS 20000.0
#define BOUND_MS 300

typedef struct shared {
    atomic_int in_cs;      /* holders inside the critical section now */
    atomic_int violations; /* entries while someone else was inside */
    atomic_int entries;
    long counter;          /* incremented non-atomically inside the critical section */
} shared;

static shared *shared_new(void)
{
    shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(s != MAP_FAILED);
    memset(s, 0, sizeof *s);
    return s;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

static void read_byte(int fd)
{
    char c;
    ssize_t n;
    do {
        n = read(fd, &c, 1);
    } while (n < 0 && errno == EINTR);
    CHECK(n == 1);
}

static void write_byte(int fd)
{
    ssize_t n;
    do {
        n = write(fd, "x", 1);
    } while (n < 0 && errno == EINTR);
    CHECK(n == 1);
}

static void enter_cs(shared *s)
{
    if (atomic_fetch_add(&s->in_cs, 1) != 0)
        atomic_fetch_add(&s->violations, 1);
    atomic_fetch_add(&s->entries, 1);
    long v = s->counter;
    sched_yield(); /* widen the read-modify-write window */
    s->counter = v + 1;
}

static void leave_cs(shared *s)
{
    atomic_fetch_sub(&s->in_cs, 1);
}

/* A holder child. raw: plain open + flock(LOCK_EX), what unpatched code does
 * with fcntl.flock(); otherwise lockrt. It marks the critical section in `s`
 * (when given), says so on the returned ready pipe, and releases when a byte
 * arrives on *release_fd. */
typedef struct holder {
    pid_t pid;
    int release_fd;
} holder;

static holder spawn_holder(const char *path, bool raw, shared *s)
{
    int ready[2], release[2];
    CHECK(pipe(ready) == 0 && pipe(release) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        close(release[1]);
        int fd = -1;
        lockrt_lock *l = NULL;
        if (raw) {
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
            if (fd < 0 || flock(fd, LOCK_EX) != 0)
                _exit(2);
        } else {
            lockrt_options o;
            lockrt_options_init(&o);
            o.strategy = LOCKRT_STRATEGY_OSLOCK;
            if (lockrt_acquire(path, &o, &l) != LOCKRT_OK)
                _exit(2);
        }
        if (s)
            enter_cs(s);
        write_byte(ready[1]);
        read_byte(release[0]);
        if (s)
            leave_cs(s);
        if (raw)
            _exit(flock(fd, LOCK_UN) == 0 ? 0 : 3);
        _exit(lockrt_release(l) == LOCKRT_OK ? 0 : 3);
    }
    close(ready[1]);
    close(release[0]);
    read_byte(ready[0]); /* it holds the lock */
    close(ready[0]);
    holder h = {pid, release[1]};
    return h;
}

static void release_holder(holder h)
{
    write_byte(h.release_fd);
    close(h.release_fd);
    CHECK_EQ_INT(wait_exit(h.pid), 0);
}

static int acquire_bounded(const char *path, int64_t timeout_ms, lockrt_lock **out, double *took_ms)
{
    lockrt_options o;
    lockrt_options_init(&o);
    o.strategy = LOCKRT_STRATEGY_OSLOCK;
    o.timeout_ms = timeout_ms;
    double t0 = now_ms();
    int rc = lockrt_acquire(path, &o, out);
    if (took_ms)
        *took_ms = now_ms() - t0;
    return rc;
}

/* A bounded wait behind a held lock ends with ETIMEDOUT, no earlier than the
 * bound (lockrt counts whole ms from a truncated start: one ms of slack). */
static void expect_timeout(const char *path, int64_t bound_ms)
{
    lockrt_lock *l = NULL;
    double took = 0;
    CHECK_EQ_INT(acquire_bounded(path, bound_ms, &l, &took), LOCKRT_ETIMEDOUT);
    CHECK(l == NULL);
    CHECK(took >= (double)bound_ms - 1.0);
    CHECK(took < HANG_GUARD_MS);
}

static struct sigaction disposition(int sig)
{
    struct sigaction cur;
    CHECK(sigaction(sig, NULL, &cur) == 0);
    return cur;
}

static bool is_default(const struct sigaction *sa)
{
    return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

static volatile sig_atomic_t host_sigurg_calls;
static void host_sigurg(int sig)
{
    (void)sig;
    host_sigurg_calls++;
}

static void install(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    CHECK(sigaction(sig, &sa, NULL) == 0);
}

/* No timer of ours outlives the call: with a counting handler in our place,
 * several repeat periods pass without a SIGURG. */
static void expect_no_stray_sigurg(void)
{
    host_sigurg_calls = 0;
    install(SIGURG, host_sigurg, 0);
    struct timespec ts = {0, 100 * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    CHECK_EQ_INT(host_sigurg_calls, 0);
}

/* ---- tests ---- */

static void times_out_behind_plain_flock_holder(void)
{
    struct sigaction before = disposition(SIGURG);
    CHECK(is_default(&before));
    holder h = spawn_holder("w.lock", true, NULL);
    expect_timeout("w.lock", BOUND_MS);
#ifdef __linux__
    /* The wait blocked in flock() under our timer: lockrt's handler is in place. */
    struct sigaction cur = disposition(SIGURG);
    CHECK(!is_default(&cur) && cur.sa_handler != SIG_IGN);
    CHECK(!(cur.sa_flags & SA_RESTART));
#endif
    expect_timeout("w.lock", 0); /* one try */
    expect_no_stray_sigurg();
    release_holder(h);
}

static void excludes_plain_flock_both_ways(void)
{
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(acquire_bounded("x.lock", 5000, &l, NULL), LOCKRT_OK);
    /* Unpatched code (fcntl.flock) on the same file, in another process. */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int fd = open("x.lock", O_RDWR | O_CLOEXEC);
        if (fd < 0)
            _exit(2);
        _exit(flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK ? 0 : 1);
    }
    CHECK_EQ_INT(wait_exit(pid), 0);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    holder h = spawn_holder("x.lock", true, NULL);
    expect_timeout("x.lock", 100);
    release_holder(h);
    CHECK_EQ_INT(acquire_bounded("x.lock", 5000, &l, NULL), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

/* A child that waits up to bound_ms. Exit 0: it got the lock (and held it for
 * 1 ms, marked in `s`); 3: LOCKRT_ETIMEDOUT, no earlier than the bound; other
 * codes: errors, or a wait that ended early or hung. */
static pid_t spawn_waiter(const char *path, int64_t bound_ms, shared *s)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid != 0)
        return pid;
    lockrt_lock *l = NULL;
    double took = 0;
    int rc = acquire_bounded(path, bound_ms, &l, &took);
    if (took >= HANG_GUARD_MS)
        _exit(6);
    if (rc == LOCKRT_ETIMEDOUT)
        _exit(took >= (double)bound_ms - 1.0 ? 3 : 5);
    if (rc != LOCKRT_OK)
        _exit(2);
    enter_cs(s);
    usleep(1000);
    leave_cs(s);
    _exit(lockrt_release(l) == LOCKRT_OK ? 0 : 4);
}

/* Waiters blocked in flock() get the lock when the holder lets go, long before
 * their bound; one at a time. */
static void release_wakes_blocked_waiters(void)
{
    enum { WAITERS = 4 };
    shared *s = shared_new();
    holder h = spawn_holder("r.lock", false, s);
    pid_t w[WAITERS];
    for (int i = 0; i < WAITERS; i++)
        w[i] = spawn_waiter("r.lock", (int64_t)HANG_GUARD_MS - 1000, s);
    usleep(200 * 1000); /* let them block */
    CHECK_EQ_INT(atomic_load(&s->entries), 1); /* only the holder so far */
    release_holder(h);
    for (int i = 0; i < WAITERS; i++)
        CHECK_EQ_INT(wait_exit(w[i]), 0);
    CHECK_EQ_INT(atomic_load(&s->entries), 1 + WAITERS);
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    CHECK_EQ_INT(s->counter, 1 + WAITERS);
}

/* The holder is stopped while the waiters are already blocked: they time out,
 * nothing is broken, and the holder still holds when it resumes. */
static void holder_stopped_mid_wait_is_never_broken(void)
{
    enum { WAITERS = 3 };
    shared *s = shared_new();
    holder h = spawn_holder("s.lock", false, s);
    pid_t w[WAITERS];
    for (int i = 0; i < WAITERS; i++)
        w[i] = spawn_waiter("s.lock", 1000, s);
    usleep(100 * 1000);
    CHECK(kill(h.pid, SIGSTOP) == 0);
    int st;
    CHECK(waitpid(h.pid, &st, WUNTRACED) == h.pid && WIFSTOPPED(st));
    for (int i = 0; i < WAITERS; i++)
        CHECK_EQ_INT(wait_exit(w[i]), 3);
    CHECK_EQ_INT(atomic_load(&s->in_cs), 1); /* the stopped holder, still inside */
    CHECK_EQ_INT(atomic_load(&s->entries), 1);
    CHECK(kill(h.pid, SIGCONT) == 0);
    release_holder(h);
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(acquire_bounded("s.lock", 5000, &l, NULL), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

/* ---- the host's own signals ---- */

static volatile sig_atomic_t host_usr1_calls;
static void host_usr1(int sig)
{
    (void)sig;
    host_usr1_calls++;
}

/* A child that sends SIGUSR1 to each of `targets` every 200 us until killed. */
static pid_t spawn_pester(const pid_t *targets, int n)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        for (;;) {
            for (int i = 0; i < n; i++)
                kill(targets[i], SIGUSR1);
            usleep(200);
        }
    }
    return pid;
}

/* In a child with a SIGUSR1 handler (flags: 0 or SA_RESTART) and SIGUSR1 arriving
 * every 200 us: wait behind a holder that releases after 300 ms (must get the
 * lock, alone, with the handler having run), then behind one that does not
 * release (must time out, no earlier than the bound). */
static void host_signal_trial(int flags)
{
    shared *s = shared_new();
    holder h = spawn_holder("h.lock", false, s);
    int ready[2], go[2];
    CHECK(pipe(ready) == 0 && pipe(go) == 0);
    pid_t waiter = fork();
    CHECK(waiter >= 0);
    if (waiter == 0) {
        install(SIGUSR1, host_usr1, flags);
        write_byte(ready[1]);
        read_byte(go[0]);
        lockrt_lock *l = NULL;
        double took = 0;
        if (acquire_bounded("h.lock", (int64_t)HANG_GUARD_MS, &l, &took) != LOCKRT_OK)
            _exit(2);
        enter_cs(s);
        int seen = host_usr1_calls;
        leave_cs(s);
        if (lockrt_release(l) != LOCKRT_OK)
            _exit(3);
        if (seen == 0)
            _exit(4); /* the storm never reached the waiting thread: the test proved nothing */
        write_byte(ready[1]);
        read_byte(go[0]); /* a new holder is in */
        int rc = acquire_bounded("h.lock", BOUND_MS, &l, &took);
        if (rc != LOCKRT_ETIMEDOUT)
            _exit(5);
        _exit(took >= BOUND_MS - 1.0 && took < HANG_GUARD_MS ? 0 : 6);
    }
    read_byte(ready[0]);
    pid_t pester = spawn_pester(&waiter, 1);
    write_byte(go[1]);
    usleep(300 * 1000);
    release_holder(h);
    read_byte(ready[0]); /* the waiter got in, alone, and let go */
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    CHECK_EQ_INT(atomic_load(&s->entries), 2);
    h = spawn_holder("h.lock", false, s);
    write_byte(go[1]);
    CHECK_EQ_INT(wait_exit(waiter), 0);
    tu_kill_and_reap(pester);
    release_holder(h);
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    CHECK_EQ_INT(s->counter, 3);
}

static void host_signal_without_restart_keeps_the_wait(void)
{
    host_signal_trial(0);
}

static void host_signal_with_restart_keeps_the_wait(void)
{
    host_signal_trial(SA_RESTART);
}

/* 8 contending processes, each with a SIGUSR1 handler that does not restart,
 * under a SIGUSR1 storm: nothing lost, never two inside. */
static void eight_contenders_under_signals_lose_nothing(void)
{
    enum { PROCS = 8, ITERS = 200 };
    shared *s = shared_new();
    int ready[2], go[2];
    CHECK(pipe(ready) == 0 && pipe(go) == 0);
    pid_t c[PROCS];
    for (int i = 0; i < PROCS; i++) {
        c[i] = fork();
        CHECK(c[i] >= 0);
        if (c[i] == 0) {
            install(SIGUSR1, host_usr1, 0);
            write_byte(ready[1]);
            read_byte(go[0]);
            for (int k = 0; k < ITERS; k++) {
                lockrt_lock *l = NULL;
                if (acquire_bounded("e.lock", 60000, &l, NULL) != LOCKRT_OK)
                    _exit(2);
                enter_cs(s);
                leave_cs(s);
                if (lockrt_release(l) != LOCKRT_OK)
                    _exit(3);
            }
            _exit(0);
        }
    }
    for (int i = 0; i < PROCS; i++)
        read_byte(ready[0]);
    pid_t pester = spawn_pester(c, PROCS);
    for (int i = 0; i < PROCS; i++)
        write_byte(go[1]);
    for (int i = 0; i < PROCS; i++)
        CHECK_EQ_INT(wait_exit(c[i]), 0);
    tu_kill_and_reap(pester);
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    CHECK_EQ_INT(atomic_load(&s->entries), PROCS * ITERS);
    CHECK_EQ_INT(s->counter, PROCS * ITERS);
}

/* ---- SIGURG belongs to the host when the host says so ---- */

static void host_sigurg_handler_left_alone(void)
{
    install(SIGURG, host_sigurg, SA_RESTART);
    host_sigurg_calls = 0;
    holder h = spawn_holder("u.lock", true, NULL);
    expect_timeout("u.lock", BOUND_MS); /* polled: the bound still holds */
    expect_timeout("u.lock", BOUND_MS);
    CHECK_EQ_INT(host_sigurg_calls, 0);
    struct sigaction cur = disposition(SIGURG);
    CHECK(cur.sa_handler == host_sigurg && (cur.sa_flags & SA_RESTART));
    release_holder(h);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(acquire_bounded("u.lock", 5000, &l, NULL), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

static void sigurg_taken_back_by_host_stays_the_hosts(void)
{
    holder h = spawn_holder("b.lock", true, NULL);
    expect_timeout("b.lock", 100); /* installs lockrt's handler (Linux) */
    install(SIGURG, SIG_DFL, 0);   /* the host takes it back */
    expect_timeout("b.lock", BOUND_MS);
    struct sigaction cur = disposition(SIGURG);
    CHECK(is_default(&cur)); /* not re-installed */
    install(SIGURG, host_sigurg, 0);
    host_sigurg_calls = 0;
    expect_timeout("b.lock", BOUND_MS);
    CHECK_EQ_INT(host_sigurg_calls, 0);
    cur = disposition(SIGURG);
    CHECK(cur.sa_handler == host_sigurg);
    release_holder(h);
}

static void sigurg_blocked_in_thread_is_never_unblocked(void)
{
    sigset_t urg, mask, pending;
    sigemptyset(&urg);
    sigaddset(&urg, SIGURG);
    CHECK(sigprocmask(SIG_BLOCK, &urg, NULL) == 0);
    holder h = spawn_holder("m.lock", true, NULL);
    expect_timeout("m.lock", BOUND_MS); /* polled */
    CHECK(sigprocmask(SIG_BLOCK, NULL, &mask) == 0);
    CHECK_EQ_INT(sigismember(&mask, SIGURG), 1);
    CHECK(sigpending(&pending) == 0);
    CHECK_EQ_INT(sigismember(&pending, SIGURG), 0);
    struct sigaction cur = disposition(SIGURG);
    CHECK(is_default(&cur)); /* nothing installed for a wait that could not use it */
    release_holder(h);
}

/* ---- threads and forks ---- */

typedef struct thread_arg {
    const char *path;
    int iters;
    int64_t bound_ms;
    shared *s;
    int result; /* 0 ok */
} thread_arg;

static void *timeout_thread(void *p)
{
    thread_arg *a = p;
    lockrt_lock *l = NULL;
    double took = 0;
    int rc = acquire_bounded(a->path, a->bound_ms, &l, &took);
    a->result = rc == LOCKRT_ETIMEDOUT && took >= (double)a->bound_ms - 1.0 && took < HANG_GUARD_MS ? 0 : 1;
    return NULL;
}

static void *contend_thread(void *p)
{
    thread_arg *a = p;
    a->result = 0;
    for (int i = 0; i < a->iters; i++) {
        lockrt_lock *l = NULL;
        if (acquire_bounded(a->path, 60000, &l, NULL) != LOCKRT_OK) {
            a->result = 1;
            return NULL;
        }
        enter_cs(a->s);
        leave_cs(a->s);
        if (lockrt_release(l) != LOCKRT_OK)
            a->result = 2;
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *), thread_arg *args, int n)
{
    pthread_t t[8];
    CHECK(n <= 8);
    for (int i = 0; i < n; i++)
        CHECK(pthread_create(&t[i], NULL, fn, &args[i]) == 0);
    for (int i = 0; i < n; i++) {
        CHECK(pthread_join(t[i], NULL) == 0);
        CHECK_EQ_INT(args[i].result, 0);
    }
}

/* Each thread's timer interrupts that thread: four threads time out together,
 * each no earlier than its own bound; then threads of this process and of
 * another one contend without ever sharing the lock. */
static void threads_wait_on_their_own_timers(void)
{
    holder h = spawn_holder("t.lock", true, NULL);
    thread_arg ta[4];
    for (int i = 0; i < 4; i++)
        ta[i] = (thread_arg){"t.lock", 0, 200 + 100 * i, NULL, -1};
    run_threads(timeout_thread, ta, 4);
    release_holder(h);

    shared *s = shared_new();
    pid_t other = fork();
    CHECK(other >= 0);
    if (other == 0) {
        thread_arg oa[2] = {{"t.lock", 300, 0, s, -1}, {"t.lock", 300, 0, s, -1}};
        run_threads(contend_thread, oa, 2);
        _exit(0);
    }
    thread_arg ca[4];
    for (int i = 0; i < 4; i++)
        ca[i] = (thread_arg){"t.lock", 300, 0, s, -1};
    run_threads(contend_thread, ca, 4);
    CHECK_EQ_INT(wait_exit(other), 0);
    CHECK_EQ_INT(atomic_load(&s->violations), 0);
    CHECK_EQ_INT(s->counter, 6 * 300);
}

/* A child forked after the parent waited (so with lockrt's handler inherited,
 * and no timer) waits with its own. */
static void forked_child_waits_with_its_own_timer(void)
{
    holder h = spawn_holder("f.lock", true, NULL);
    expect_timeout("f.lock", 100);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        lockrt_lock *l = NULL;
        double took = 0;
        int rc = acquire_bounded("f.lock", BOUND_MS, &l, &took);
        _exit(rc == LOCKRT_ETIMEDOUT && took >= BOUND_MS - 1.0 && took < HANG_GUARD_MS ? 0 : 1);
    }
    CHECK_EQ_INT(wait_exit(child), 0);
    release_holder(h);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(acquire_bounded("f.lock", 5000, &l, NULL), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

int main(int argc, char **argv)
{
    static const lrt_test tests[] = {
        LRT_TEST(times_out_behind_plain_flock_holder),
        LRT_TEST(excludes_plain_flock_both_ways),
        LRT_TEST(release_wakes_blocked_waiters),
        LRT_TEST(holder_stopped_mid_wait_is_never_broken),
        LRT_TEST(host_signal_without_restart_keeps_the_wait),
        LRT_TEST(host_signal_with_restart_keeps_the_wait),
        LRT_TEST(eight_contenders_under_signals_lose_nothing),
        LRT_TEST(host_sigurg_handler_left_alone),
        LRT_TEST(sigurg_taken_back_by_host_stays_the_hosts),
        LRT_TEST(sigurg_blocked_in_thread_is_never_unblocked),
        LRT_TEST(threads_wait_on_their_own_timers),
        LRT_TEST(forked_child_waits_with_its_own_timer),
    };
    return lrt_run(tests, sizeof tests / sizeof tests[0], argc, argv);
}
