/*
 * A per-thread timer that interrupts the calling thread's blocking system call
 * (flock) with EINTR once a deadline has passed, and then again every
 * LOCKRT__WAKE_REPEAT_MS until it is disarmed. See wake_timer.c for why it is
 * built this way and what it will not do to the host program's signals.
 */
#ifndef LOCKRT_WAKE_TIMER_H
#define LOCKRT_WAKE_TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__linux__)
#define LOCKRT__HAVE_WAKE_TIMER 1
#endif

/* After the deadline the timer keeps firing this often, so that an expiry that
 * lands just before the thread enters flock() (and so interrupts nothing) is
 * followed by one that does. */
#define LOCKRT__WAKE_REPEAT_MS 2

typedef struct lockrt__wake_timer {
#ifdef LOCKRT__HAVE_WAKE_TIMER
    timer_t timer;
#endif
    bool armed;
} lockrt__wake_timer;

/* Arm: from deadline_ms (lockrt__monotonic_ms() units) on, this thread's
 * blocking calls return EINTR. false when that cannot be done without touching
 * a signal the host uses (or on a platform without per-thread timers): the
 * caller must then poll. Never blocks. */
bool lockrt__wake_timer_arm(lockrt__wake_timer *t, uint64_t deadline_ms);

/* Disarm and free; no wake-up signal reaches the thread after it returns. A
 * timer that was never armed is left alone. */
void lockrt__wake_timer_disarm(lockrt__wake_timer *t);
#endif
