/*
 * Internal contracts between the shared code in src/ and the platform layers in
 * src/unix/ and src/win/. Nothing here is exported from the library.
 */
#ifndef LOCKRT_INTERNAL_H
#define LOCKRT_INTERNAL_H

#include "lockrt.h"
#include "lockrt_test_hooks.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Internal "try again later" result of a single acquisition attempt; never
 * returned to callers. Positive so it cannot collide with lockrt_status. */
#define LOCKRT__BUSY 1

/* Largest owner record we read or write. A record is one short JSON line; a file
 * bigger than this at a lock path is not an owner record and is never read whole
 * (a 4 GB file there must cost a waiter no more than a record does). */
#define LOCKRT__RECORD_MAX 1024

/* A file at a lock path that is not an owner record is never removed, whatever
 * its age (docs/lockrt.md section 3): it may be user data. While it is younger
 * than this, a lockfile acquirer treats it as held (it may be a record whose
 * creator is between its O_EXCL create and its write) and waits; once older, the
 * acquirer stops waiting and reports LOCKRT_ECORRUPT. */
#define LOCKRT__NONRECORD_GRACE_MS 30000

struct lockrt_lock {
    lockrt_strategy strategy;
    char *path;                /* the caller's path, copied (in the same allocation) */
#ifdef _WIN32
    void *handle;              /* OS lock: the LockFileEx'd handle */
#else
    int fd;                    /* OS lock: the flock()ed descriptor */
    uint64_t fd_dev, fd_ino;   /* OS lock: what fd refers to (from fstat at open) */
#endif
    lockrt_identity identity;  /* lockfile: the record as we created it */
    char token[LOCKRT_TOKEN_MAX];
    const lockrt_test_hooks *hooks; /* NULL outside the tests */
    int64_t owner_pid;         /* the process that acquired: a forked copy only frees its handle */
};

/* ---- shared helpers (src/) ---- */

/* Defaults applied to a possibly-NULL options pointer. */
void lockrt__effective_options(const lockrt_options *in, lockrt_options *out);

uint64_t lockrt__fnv1a(const void *data, size_t len, uint64_t seed);
#define LOCKRT__FNV_SEED 0xcbf29ce484222325ULL

/* Owner record <-> bytes. format returns bytes written (without NUL) or -1; it
 * never writes a record that parse would refuse. parse accepts exactly the bytes
 * format writes (docs/lockrt.md section 2): LOCKRT_OK or LOCKRT_ECORRUPT. */
int lockrt__record_format(const lockrt_owner *owner, char *buf, size_t cap);
int lockrt__record_parse(const char *buf, size_t len, lockrt_owner *out);

/* Fill pid, start time, host and a fresh random token for this process. */
int lockrt__owner_self(lockrt_owner *out);

/* Hex-encode n random bytes into out (2n+1 bytes). */
int lockrt__random_hex(char *out, size_t nbytes);

/* Small PRNG for backoff jitter; state is owned by the caller. */
uint64_t lockrt__splitmix64(uint64_t *state);

/* Same identity (every field)? */
bool lockrt__identity_equal(const lockrt_identity *a, const lockrt_identity *b);

/* Jittered exponential backoff between opts->poll_min_ms and poll_max_ms:
 * step returns the next nap in ms (the caller clamps it to its deadline). */
typedef struct lockrt__backoff {
    uint64_t rng;
    uint64_t cap;
} lockrt__backoff;
void lockrt__backoff_init(lockrt__backoff *b, const lockrt_lock *lock, const lockrt_options *opts);
uint64_t lockrt__backoff_step(lockrt__backoff *b, const lockrt_options *opts);

/* Polling wait (the lockfile strategy's, and the OS lock's where the platform
 * has no bounded blocking wait). try_once returns LOCKRT_OK, LOCKRT__BUSY or a
 * negative status. */
typedef int (*lockrt__try_fn)(lockrt_lock *lock, const lockrt_options *opts, void *ctx);
int lockrt__wait_loop(lockrt_lock *lock, const lockrt_options *opts, lockrt__try_fn try_once,
                      void *ctx);

/* Lockfile strategy (src/lockfile.c): one attempt, and release. */
int lockrt__lockfile_try(lockrt_lock *lock, const lockrt_options *opts, void *ctx);
int lockrt__lockfile_release(lockrt_lock *lock);

/* Judge the bytes found at a lock path: LOCKRT_OK = an owner record whose owner is
 * provably gone (reclaimable), LOCKRT_ENOTSTALE = an owner record that holds,
 * LOCKRT_ECORRUPT = not an owner record (never reclaimable). Both strategies and
 * every platform judge through this one function. */
int lockrt__judge_record(const char *bytes, size_t len);

/* The entry points behind the public ones, with the test hooks (NULL in
 * production; see lockrt_test_hooks.h). */
int lockrt__acquire(const char *path, const lockrt_options *opts, const lockrt_test_hooks *hooks,
                    lockrt_lock **out);
int lockrt__reclaim_if_stale(const char *lock_path, const lockrt_test_hooks *hooks);
int lockrt__unlink_if_identical(const char *path, const lockrt_identity *judged,
                                const lockrt_test_hooks *hooks);

/* ---- platform layer (src/unix/, src/win/) ---- */

uint64_t lockrt__monotonic_ms(void);
int64_t lockrt__wall_ms(void);
void lockrt__sleep_ms(uint32_t ms);
int lockrt__random_bytes(void *buf, size_t n);
int lockrt__hostname(char *buf, size_t cap);
int64_t lockrt__self_pid(void);

#ifndef _WIN32
/* write() all of data, retrying short writes and EINTR; 0 or -1 (errno set). */
int lockrt__write_all(int fd, const void *data, size_t len);
#endif

/* Reads LOCKRT_STRATEGY; LOCKRT_EINVAL on an unknown value. */
int lockrt__env_strategy(lockrt_strategy *out);

/* True when `path` (or its directory, if it does not exist) is on a network
 * filesystem whose OS locks are not to be trusted. */
bool lockrt__is_network_fs(const char *path);

/* OS lock strategy: the whole wait (opts->timeout_ms: <0 for ever, 0 one try,
 * else the bound; it may leave an unlocked descriptor in lock on failure),
 * release, and cleanup of a failed wait. */
int lockrt__oslock_wait(lockrt_lock *lock, const lockrt_options *opts);
int lockrt__oslock_release(lockrt_lock *lock);
void lockrt__oslock_abandon(lockrt_lock *lock);

/* Mixed strategies on one path. A reclaimer holds an OS lock on the record it is
 * about to remove, so an OS-lock holder using the same file is never unlinked
 * from under it: LOCKRT_OK = we hold the probe (end it after the removal),
 * LOCKRT__BUSY = an OS-lock holder is inside. */
int lockrt__oslock_probe_begin(const char *path, intptr_t *probe);
void lockrt__oslock_probe_end(intptr_t probe);

/* Exclusive create of a new record at path (O_CREAT|O_EXCL|O_NOFOLLOW / CREATE_NEW),
 * written through the creating descriptor; identity captured from it.
 * LOCKRT__BUSY when the name is taken (or, on Windows, delete-pending). */
int lockrt__record_create(const char *path, const char *bytes, size_t len, lockrt_identity *id);

/* Read what may be a record without following a symlink; identity from the same
 * descriptor. *len receives the bytes read (at most cap). A regular file larger
 * than cap is not read at all: LOCKRT_ECORRUPT, with *id filled except for its
 * content_hash (0), so that the caller can still tell its age. */
int lockrt__record_capture(const char *path, char *buf, size_t cap, size_t *len,
                           lockrt_identity *id);
#endif
