/*
 * lockrt — small, portable, process-level exclusive locks for state files.
 *
 * One public header. Implementation lives in src/ (shared), src/unix/ and src/win/.
 *
 * Thread safety: every function is reentrant. The one process-wide state is
 * the SIGURG handler that a bounded OS-lock wait on Linux installs once, where
 * the host has none (docs/lockrt.md, section 1); all configuration is passed
 * explicitly (lockrt_options) or read from the environment at the call that
 * asks for it. A lockrt_lock handle belongs to the
 * thread that acquired it until it is released; do not share one handle across
 * threads without your own synchronisation. Two acquisitions of the same path
 * from two threads of one process exclude each other exactly as two processes do
 * (both strategies lock per open file description / per created file, never per
 * process).
 *
 * Protocol summary (see docs/lockrt.md for the long form):
 *   - OS lock strategy: flock() on Unix, LockFileEx on Windows. The
 *     lock file is never unlinked on release (unlinking under an open holder
 *     gives two holders on two inodes).
 *   - Lockfile strategy: O_CREAT|O_EXCL|O_NOFOLLOW owner record
 *     {pid, start_time, host, token}; staleness is decided by owner liveness,
 *     never by age. Removal is identity-bound (quarantine rename + verify).
 *     Only a well-formed owner record is ever removed: any other file at a
 *     lock path (user data, garbage, an empty file) is left byte for byte.
 *   - A symlink at a lock path is never followed and never deleted.
 */
#ifndef LOCKRT_H
#define LOCKRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(LOCKRT_SHARED) && defined(LOCKRT_BUILDING)
#define LOCKRT_API __declspec(dllexport)
#elif defined(_WIN32) && defined(LOCKRT_SHARED)
#define LOCKRT_API __declspec(dllimport)
#elif defined(__GNUC__) && !defined(_WIN32)
#define LOCKRT_API __attribute__((visibility("default")))
#else
#define LOCKRT_API
#endif

#define LOCKRT_VERSION_MAJOR 0
#define LOCKRT_VERSION_MINOR 1
#define LOCKRT_VERSION_PATCH 0

/* Status codes. 0 is success; every failure is negative. */
typedef enum lockrt_status {
    LOCKRT_OK = 0,
    LOCKRT_ETIMEDOUT = -1,  /* the lock stayed held by a live (or unknown) owner for the whole wait */
    LOCKRT_EINVAL = -2,     /* bad argument */
    LOCKRT_ESYMLINK = -3,   /* a symlink / reparse point sits at the lock path: refused, not followed */
    LOCKRT_EBADTYPE = -4,   /* something other than a regular file sits at the lock path */
    LOCKRT_EESCAPE = -5,    /* confined_path: name unsafe, or an existing target escapes the dir */
    LOCKRT_EMISMATCH = -6,  /* identity-bound removal: the object is not the one that was judged */
    LOCKRT_ENOTOWNER = -7,  /* release_if_owned: the record names another owner */
    LOCKRT_ENOTSTALE = -8,  /* reclaim_if_stale: owner alive, unknown, or on another host */
    LOCKRT_ENOENT = -9,     /* no such lock / file */
    LOCKRT_ECORRUPT = -10,  /* not a well-formed owner record (a foreign file at the lock
                               path, or a damaged record); lockrt never removes it */
    LOCKRT_ENOMEM = -11,
    LOCKRT_EIO = -12,       /* other OS error; errno (Unix) / GetLastError() (Windows) is left
                               as the failing call set it where possible */
    LOCKRT_ENOTSUP = -13    /* operation not supported on this platform or filesystem */
} lockrt_status;

/* Human-readable text for a status code; never NULL, static storage. */
LOCKRT_API const char *lockrt_strerror(int status);

typedef enum lockrt_strategy {
    LOCKRT_STRATEGY_AUTO = 0,     /* OS lock where it works, lockfile otherwise (and on NFS/SMB) */
    LOCKRT_STRATEGY_OSLOCK = 1,   /* flock (Unix), LockFileEx (Windows) */
    LOCKRT_STRATEGY_LOCKFILE = 2  /* O_EXCL owner record */
} lockrt_strategy;

/* Environment variable that forces a strategy when options say AUTO:
 * "oslock" | "lockfile" | "auto". Read at each acquire (no caching); any other
 * value makes lockrt_acquire return LOCKRT_EINVAL. Contenders for one lock path
 * should use the same strategy; mixed ones still exclude each other, but slowly
 * (docs/lockrt.md, section 1). */
#define LOCKRT_ENV_STRATEGY "LOCKRT_STRATEGY"

typedef struct lockrt_options {
    lockrt_strategy strategy; /* default AUTO (then LOCKRT_STRATEGY env applies) */
    int64_t timeout_ms;       /* <0 wait forever, 0 try once; default 10000 */
    uint32_t poll_min_ms;     /* backoff start; default 1 */
    uint32_t poll_max_ms;     /* backoff cap; default 5 (see docs/lockrt.md, "Waiting") */
} lockrt_options;

/* Fill *opts with the defaults above. */
LOCKRT_API void lockrt_options_init(lockrt_options *opts);

typedef struct lockrt_lock lockrt_lock; /* opaque held-lock handle */

/* Acquire an exclusive lock on `path` (the lock file itself, e.g. "state.json.lock").
 * On LOCKRT_OK *out holds the lock. On LOCKRT_ETIMEDOUT the lock stayed held by a
 * live owner for timeout_ms; nothing was broken. `opts` may be NULL (defaults).
 * Lockfile strategy: a file at `path` that is not a well-formed owner record is
 * never removed; it counts as held while younger than 30 s, after that the call
 * returns LOCKRT_ECORRUPT at once. */
LOCKRT_API int lockrt_acquire(const char *path, const lockrt_options *opts, lockrt_lock **out);

/* Release and free the handle. Lockfile strategy: identity-bound removal of the
 * record we created. OS strategy: unlock and close; the file is left in place.
 * In a process forked from the one that acquired, the handle is a copy: release
 * frees the copy and leaves the lock with the acquiring process. */
LOCKRT_API int lockrt_release(lockrt_lock *lock);

/* OS lock on Unix: after a release, the unlocked lock-file descriptor is kept
 * open (close-on-exec) for this process's next acquisition of the same path,
 * which then skips open() and close() but repeats every check a new descriptor
 * gets (docs/lockrt.md, "Kept descriptors"). At most 16 by default; a forked
 * child closes its copies. lockrt_close_idle_descriptors() closes the idle
 * ones (before a daemonizing process closes every descriptor, or before the
 * lock file's filesystem is unmounted); held locks are not affected. No-ops on
 * Windows. */
LOCKRT_API void lockrt_close_idle_descriptors(void);
/* How many idle descriptors to keep from now on (0: none; at most 64); closes
 * the idle ones beyond it. Returns the previous bound. */
LOCKRT_API unsigned lockrt_set_kept_descriptors(unsigned max);

/* Strategy actually in use for a held lock (never AUTO). */
LOCKRT_API lockrt_strategy lockrt_lock_strategy(const lockrt_lock *lock);
/* Owner token of a held lock (lockfile strategy), "" for OS locks. */
LOCKRT_API const char *lockrt_lock_token(const lockrt_lock *lock);

/* Owner record of the lockfile strategy. */
#define LOCKRT_HOST_MAX 256
#define LOCKRT_TOKEN_MAX 64
typedef struct lockrt_owner {
    int64_t pid;
    uint64_t start_time;            /* platform-specific start stamp; 0 = unknown */
    char host[LOCKRT_HOST_MAX];
    char token[LOCKRT_TOKEN_MAX];
} lockrt_owner;

/* Read the owner record at lock_path without following a symlink. Only the exact
 * bytes lockrt writes parse (docs/lockrt.md section 2); anything else, or a file
 * larger than a record can be, is LOCKRT_ECORRUPT. */
LOCKRT_API int lockrt_owner_read(const char *lock_path, lockrt_owner *out);

typedef enum lockrt_liveness {
    LOCKRT_DEAD = 0,    /* provably gone: ESRCH, or pid reused (start time differs) */
    LOCKRT_ALIVE = 1,   /* exists (EPERM counts as alive) with matching or unknown start time */
    LOCKRT_UNKNOWN = 2  /* the OS would not say; callers must treat as alive */
} lockrt_liveness;

/* Liveness of pid on this host. start_time 0 = do not compare start times.
 * A pid that cannot name a process here (<= 0, or beyond the platform's pid
 * range) is LOCKRT_UNKNOWN: it is never read as dead. */
LOCKRT_API lockrt_liveness lockrt_process_alive(int64_t pid, uint64_t start_time);
/* Start stamp of pid (Linux: /proc/<pid>/stat starttime ticks; Windows: creation
 * FILETIME). LOCKRT_ENOTSUP where the platform cannot tell. */
LOCKRT_API int lockrt_process_start_time(int64_t pid, uint64_t *out);

/* Identity of a filesystem object, captured without following symlinks. */
typedef struct lockrt_identity {
    uint64_t dev;
    uint64_t ino;          /* Windows: volume serial + file index */
    uint64_t size;
    int64_t mtime_ns;
    uint64_t content_hash; /* FNV-1a 64 of the content (regular files) */
} lockrt_identity;

LOCKRT_API int lockrt_identity_of(const char *path, lockrt_identity *out);

/* Remove `path` only if it is still the object described by `judged`:
 * quarantine-rename to a unique name in the same dir, verify, unlink on match,
 * otherwise restore without replacing anything and return LOCKRT_EMISMATCH.
 * `opts` is not used (kept for compatibility); pass NULL. */
LOCKRT_API int lockrt_unlink_if_identical(const char *path, const lockrt_identity *judged,
                                          const lockrt_options *opts);

/* Lockfile strategy: remove the record at lock_path if, and only if, it is a
 * well-formed owner record whose owner is provably gone (same host and dead or
 * reused pid). LOCKRT_OK = reclaimed, LOCKRT_ENOTSTALE = held, LOCKRT_ECORRUPT =
 * not an owner record (left alone, whatever its age), LOCKRT_EMISMATCH = changed
 * under us (left alone). `opts` is not used (kept for compatibility). */
LOCKRT_API int lockrt_reclaim_if_stale(const char *lock_path, const lockrt_options *opts);

/* Remove the record at lock_path if it carries `token`; LOCKRT_ENOTOWNER otherwise,
 * LOCKRT_ECORRUPT if it is not an owner record. `opts` is not used (pass NULL). */
LOCKRT_API int lockrt_release_if_owned(const char *lock_path, const char *token,
                                       const lockrt_options *opts);

/* Join `name` onto `dir` safely: rejects empty names, separators, "." and "..",
 * NUL/control characters; when the target exists and is a symlink, refuses one
 * whose target leaves `dir` (checked without following the final component).
 * Never requires the target to exist. Writes the joined path into out. */
LOCKRT_API int lockrt_confined_path(const char *dir, const char *name, char *out, size_t out_size);

/* Atomically replace `path` with `data`: unique O_EXCL temp in the same
 * directory, write, fsync, rename (MoveFileExW with bounded retry on Windows),
 * fsync the directory. `mode` applies to new files (Unix; 0 = 0644). */
LOCKRT_API int lockrt_write_atomic(const char *path, const void *data, size_t len, unsigned mode);

#ifdef __cplusplus
}
#endif
#endif /* LOCKRT_H */
