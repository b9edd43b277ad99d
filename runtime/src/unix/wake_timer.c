/*
 * The bounded blocking wait for flock(): a wake-up timer for this thread.
 *
 * The problem. flock(LOCK_EX) sleeps in the kernel and is woken the moment the
 * lock is released; that hand-off is what makes raw flock fast under
 * contention. It has no timeout. lockrt used to poll flock(LOCK_NB) with
 * backoff instead and lost half the contended throughput to the gaps between
 * tries (docs/lockrt.md, "Waiting"). The only way to end a blocking flock()
 * early is a signal whose handler lacks SA_RESTART: flock() then returns EINTR
 * having taken nothing. The kernel grants a flock only in a call that returns
 * 0 (an interrupted waiter's request is withdrawn), so a deadline can end a
 * wait but can never make a second holder.
 *
 * Rejected:
 *   - OFD locks (F_OFD_SETLKW) have the same blocking-only shape, and on Linux
 *     they do not conflict with flock(): old code still taking fcntl.flock()
 *     on the same lock file during a rollout would run beside us. The same
 *     holds for lockf() and F_SETLK(W) record locks. flock stays the primitive.
 *   - A helper thread blocked in flock() on a dup of our descriptor (flock
 *     locks belong to the open file description, so its success would be
 *     ours) cannot be cancelled either: each timed-out wait would leave a
 *     thread blocked until the holder lets go, for ever behind a stopped
 *     holder. And a library must not start threads in its host (CPython warns
 *     on fork() in a threaded process).
 *   - SIGALRM / alarm() / setitimer(): one per process, and the host's.
 *
 * The signal is SIGURG, sent to this thread only by a POSIX timer with
 * SIGEV_THREAD_ID. Its default action is to ignore it, so:
 *   - a host that never handles SIGURG (Python, Node and most C programs do
 *     not; the kernel raises it only for socket out-of-band data, and only to
 *     an F_SETOWN owner) sees no difference, except that such a signal, if it
 *     ever came, would interrupt a blocking call (EINTR) instead of vanishing;
 *   - if the host resets SIGURG to SIG_DFL while one of our timers is armed,
 *     the kernel discards the expiry: that one wait overruns its deadline
 *     until the holder releases, and nothing dies. A real-time signal would
 *     kill the process in the same race (its default action is to terminate),
 *     which is why none is used;
 *   - Go's runtime preempts goroutines with SIGURG. A Go host has its handler
 *     in place before any lockrt call, so lockrt sees it and polls (below), and
 *     Go tolerates the stray SIGURG the install race below could send it.
 *
 * Whose handler. Each arm reads the disposition first:
 *   - our handler: use it;
 *   - SIG_DFL, and lockrt has never installed its handler in this process:
 *     install it. Once per process: a host that later puts SIG_DFL back (or
 *     its own handler) has taken the signal, and lockrt does not fight it;
 *   - anything else: leave it alone; the caller polls.
 * sigaction() has no compare-and-set: a host thread installing its own SIGURG
 * handler between our read and our write would lose it. That write happens at
 * most once per process, at its first contended wait; hosts that handle SIGURG
 * install their handler at start-up. A host that installs one while a wait is
 * armed receives that wait's expiries: one at the deadline, then (if its
 * handler restarts flock, so the wait cannot end) one every repeat period
 * until the holder releases.
 * The handler does nothing (errno untouched). It is installed without
 * SA_RESTART (the point is EINTR) and with SA_ONSTACK (harmless, and right for
 * hosts that run on small stacks with an alternate signal stack).
 *
 * The thread's mask. A thread that blocks SIGURG (hosts that read signals
 * through signalfd or sigwait block them in every thread) would leave the timer
 * signal pending and be interrupted by nothing. We do not unblock it: a SIGURG
 * meant for the host would then land in our handler. The caller polls.
 *
 * The timer: timer_create(CLOCK_MONOTONIC, SIGEV_THREAD_ID = this thread),
 * first expiry at the absolute deadline, then every LOCKRT__WAKE_REPEAT_MS.
 * The repeat closes the lost-wake-up race: an expiry between the caller's
 * deadline check and its entry into flock() interrupts nothing; the next one
 * does. Before the deadline the timer is silent, so a wait that ends in time
 * never sees a signal. Disarming deletes the timer; a thread-directed signal
 * generated before that is delivered (to the no-op handler) on the way out of
 * the kernel, inside lockrt, never later in host code. fork() does not copy
 * POSIX timers; a child has neither the timer nor the waiting thread.
 *
 * Host signals. A host handler installed without SA_RESTART (CPython's are)
 * also interrupts the blocking flock(): the caller sees EINTR before its
 * deadline and blocks again, so the host's handler ran and the wait goes on
 * with its deadline unchanged. With SA_RESTART the kernel restarts flock().
 *
 * Cost: only a wait that found the lock taken arms a timer: two reads
 * (sigaction, sigprocmask), gettid, timer_create, timer_settime, and
 * timer_delete (inside the caller's critical section, unavoidably: the timer
 * must be gone before the call returns).
 *
 * The shared library is linked with -z nodelete (runtime/CMakeLists.txt), so
 * that dlclose() can never unmap an installed handler.
 */
#include "wake_timer.h"

#ifdef LOCKRT__HAVE_WAKE_TIMER
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WAKE_SIGNAL SIGURG

/* glibc before 2.41 does not name the field. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static atomic_int handler_installed; /* 0 until lockrt installs its handler, once */

static void wake_handler(int sig)
{
    (void)sig; /* its only job is to make a blocking call return EINTR */
}

static bool wake_signal_is_ours(void)
{
    struct sigaction cur;
    if (sigaction(WAKE_SIGNAL, NULL, &cur) != 0)
        return false;
    if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == wake_handler)
        return true;
    if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
        return false; /* the host's */
    if (atomic_exchange(&handler_installed, 1) != 0)
        return false; /* ours once, put back by the host: now the host's */
    struct sigaction mine;
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = wake_handler;
    sigemptyset(&mine.sa_mask);
    mine.sa_flags = SA_ONSTACK;
    return sigaction(WAKE_SIGNAL, &mine, NULL) == 0;
}

static bool wake_signal_blocked_here(void)
{
    /* sigprocmask reads the calling thread's mask on Linux (glibc and musl),
     * without needing libpthread on old glibc. */
    sigset_t mask;
    if (sigprocmask(SIG_BLOCK, NULL, &mask) != 0)
        return true;
    return sigismember(&mask, WAKE_SIGNAL) == 1;
}

bool lockrt__wake_timer_arm(lockrt__wake_timer *t, uint64_t deadline_ms)
{
    t->armed = false;
    if (wake_signal_blocked_here() || !wake_signal_is_ours())
        return false; /* (mask first: never install a handler for a wait that cannot use it) */
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = WAKE_SIGNAL;
    ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_MONOTONIC, &ev, &t->timer) != 0)
        return false; /* e.g. EAGAIN: RLIMIT_SIGPENDING reached */
    struct itimerspec when;
    memset(&when, 0, sizeof when);
    when.it_value.tv_sec = (time_t)(deadline_ms / 1000u);
    when.it_value.tv_nsec = (long)(deadline_ms % 1000u) * 1000000L;
    when.it_interval.tv_nsec = LOCKRT__WAKE_REPEAT_MS * 1000000L;
    if (timer_settime(t->timer, TIMER_ABSTIME, &when, NULL) != 0) {
        timer_delete(t->timer);
        return false;
    }
    t->armed = true;
    return true;
}

void lockrt__wake_timer_disarm(lockrt__wake_timer *t)
{
    if (t->armed)
        timer_delete(t->timer);
    t->armed = false;
}

#else /* no per-thread timers: every bounded wait polls */

bool lockrt__wake_timer_arm(lockrt__wake_timer *t, uint64_t deadline_ms)
{
    (void)deadline_ms;
    t->armed = false;
    return false;
}

void lockrt__wake_timer_disarm(lockrt__wake_timer *t)
{
    t->armed = false;
}
#endif
