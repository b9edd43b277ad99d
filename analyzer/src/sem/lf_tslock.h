/* lf_tslock: which paths a TS/JS module uses as locks, and what its
 * functions do to them (the TS sibling of lf_pylock): lock identity by use,
 * never by name.
 *
 * Paths are named by lf_tssem_path_key (fields, parameters, results of the
 * module's functions, expressions). A key is a lock when the module:
 *  - creates it exclusively and handles the create's failure (a try with a
 *    non-empty catch, an error-first callback, a `.catch`; around the create
 *    or around a call of the module's function that makes it): `mkdir`/`mkdirSync`
 *    without `recursive: true`, `open`/`openSync` with a `wx`/`ax` flag or
 *    `O_EXCL`, `writeFile`/`writeFileSync` with `{ flag: "wx" }` (an unguarded
 *    create just makes a file or directory; link/symlink onto a path is how
 *    installers place files, not a lock, in the JS code this is written for,
 *    unless the module reads the link back with readlink and judges
 *    processes' liveness: then its target is the owner record of a symlink
 *    pid lock, pidlock's; a hard link of a written temp onto the path, its
 *    failure handled, is a lock when the module reads the path's content
 *    back and probes pids: hermit's lifecycle lock);
 *  - writes its pid there (`process.pid` in what is written);
 *  - hands it to a lock library (proper-lockfile, lockfile, ...) or to one of
 *    its own functions that uses the parameter as a lock;
 *  - or a caller passes a lock to the parameter that names it.
 * A package-manager lock file (package-lock.json, yarn.lock, ...) never is,
 * nor, in a module that has a lock it creates exclusively or takes through a
 * library, a file that only holds a pid (what a server publishes).
 *
 * Events in source order, per function: removals (rm, rmSync, unlink,
 * unlinkSync, rmdir, rmdirSync, promises.rm, fs-extra's remove, rimraf, and a
 * rename of the lock away: a takeover by name; a for-of loop's variable over
 * an array literal removes each element; a remover imported from a sibling
 * module by a relative specifier, read by its name: removePath, safeUnlink),
 * judgements (stat, lstat,
 * exists, access: presence or age; readFile: the owner record), pid probes
 * (`process.kill(pid, 0)`, or a read of `/proc/<pid>/...`), identity checks (`.ino`/`.dev` reads), appends
 * and plain overwrites.
 * A removal is judged by a pid probe, by a look at the lock (stat, exists,
 * access, age; or its own exclusive create failing: a removal in the catch
 * of the try that created the lock removes one this process does not hold),
 * or by a read of the owner record. A lock is broken when it is removed after
 * a probe or a look, or rewritten (a plain write) after a look at its age.
 * Calls of the module's own functions carry removals and judgements of a
 * parameter up to the caller's argument, and lock uses both ways (bounded
 * rounds; flags only grow); a helper's removals and judgements of a path of
 * its own (a field, a module-level name or expression) happen at each call.
 * An entry of a listing of lock files (`for (const f of readdirSync(D))`,
 * the path `join(D, f)`, where D or a filter on f spells a lock: `lockDir`,
 * `f.endsWith(".lock")`) that the module looks at and removes is a lock: a
 * stale-lock sweep breaks other processes' locks, whoever created them.
 * Summaries of the module's functions: one that judges a path and computes
 * an age (Date.now(), mtimeMs) or probes a pid, without creating or
 * overwriting that path, returns a verdict on it (`isStale(path)`); a removal
 * after a call whose verdict is used is judged by it (presence when an age
 * decided, else liveness), and so is a removal after reading the owner
 * record and then computing an age in the same function. */
#ifndef LF_TSLOCK_H
#define LF_TSLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_tssem.h"

enum {
    LF_TSLOCK_EXCL = 1u << 0,        /* created exclusively */
    LF_TSLOCK_PID = 1u << 1,         /* holds its owner's pid */
    LF_TSLOCK_HELPER = 1u << 2,      /* given to a lock library or lock helper */
    LF_TSLOCK_ARG = 1u << 3,         /* a parameter some caller passes a lock to */
    LF_TSLOCK_PKG = 1u << 4,         /* a package-manager lock file: never a lock */
    LF_TSLOCK_BROKEN = 1u << 5,      /* removed after a judgement somewhere */
    LF_TSLOCK_BROKEN_LIVE = 1u << 6, /* removed after judging existence/age alone: a live holder can lose it */
    LF_TSLOCK_APPENDED = 1u << 7,    /* appended to */
    LF_TSLOCK_EXCL_APPEND = 1u << 8, /* created exclusively with an append flag (`ax`) */
    LF_TSLOCK_CREATED = 1u << 9,     /* created exclusively, its failure handled or not (a first write) */
    LF_TSLOCK_FILE = 1u << 10,       /* created as a file or a symlink (rmdir cannot remove it) */
    LF_TSLOCK_DIR = 1u << 11,        /* created as a directory */
    LF_TSLOCK_BREAKABLE = 1u << 12,  /* broken somewhere in the module: here, in a helper it is handed to, or
                                        through a sibling function's parameter of the same name */
    LF_TSLOCK_INFO = 1u << 13,       /* holds only a pid, in a module that has a real lock: information */
    LF_TSLOCK_LISTED = 1u << 14,     /* an entry of a directory listing of lock files (a stale-lock sweep) */
    LF_TSLOCK_UNIQUE = 1u << 15,     /* named uniquely per process (process.pid, randomUUID()): never shared, no lock */
    LF_TSLOCK_LIBDIR = 1u << 16,     /* the lock directory a lock library keeps for a file (`${file}.lock` of
                                        proper-lockfile's lock(file)): the library takes, breaks and releases it */
    LF_TSLOCK_STORED = 1u << 17,     /* written, without a look at it first, with a value its writer's caller
                                        hands in (a cache's `put(key, value)`): a document the module stores */
    LF_TSLOCK_FRESH = 1u << 18,      /* LISTED: the module names every file it writes in that directory fresh
                                        (a uuid): no successor ever takes an entry's name */
    LF_TSLOCK_CLAIM = 1u << 19,      /* a lock by the module's own protocol: claimed by writing it plainly,
                                        judged (age, existence, owner) and removed, and named a lock
                                        (Python's LF_LOCK_CLAIM) */
};
#define LF_TSLOCK_USES                                                                                                 \
    (LF_TSLOCK_EXCL | LF_TSLOCK_PID | LF_TSLOCK_HELPER | LF_TSLOCK_ARG | LF_TSLOCK_LISTED | LF_TSLOCK_CLAIM)

typedef struct lf_tslock_key {
    const char *key;
    unsigned flags;
    TSNode evidence;  /* the first use that made it a lock */
    TSNode broken_at; /* a judged removal */
    TSNode retaken_at; /* a takeover by rewriting the lock in place (a plain write after judging it): the
                          inode stays, so the new holder has created nothing and the old one's inode is theirs */
    TSNode library_take; /* LIBDIR: the library call that takes it (`lock(file, opts)`) */
    const char *listing_dir; /* LISTED: the key of the directory listed (its entries are this key) */
} lf_tslock_key;

typedef enum lf_tslock_event_kind {
    LF_TSEV_REMOVE = 0, /* node: the call; key: what it removes */
    LF_TSEV_JUDGE,      /* node: the call; content: read of the record, else presence/age */
    LF_TSEV_PROBE,      /* node: process.kill(pid, 0) */
    LF_TSEV_IDENTITY,   /* node: an .ino/.dev read */
    LF_TSEV_CREATE,     /* node: an exclusive create of key */
    LF_TSEV_APPEND,     /* node: an append to key */
    LF_TSEV_ACQUIRE,    /* node: a call into a lock library or lock helper */
    LF_TSEV_OVERWRITE,  /* node: a plain (non-exclusive, non-append) write of key: after a judgement
                           of its age, a takeover by rewriting the lock */
} lf_tslock_event_kind;

typedef enum lf_tslock_judged {
    LF_TSJUDGED_NONE = 0,
    LF_TSJUDGED_LIVENESS, /* after a pid probe */
    LF_TSJUDGED_PRESENCE, /* after existence/stat/age */
    LF_TSJUDGED_CONTENT,  /* after reading the owner record */
} lf_tslock_judged;

typedef struct lf_tslock_event {
    lf_tslock_event_kind kind;
    int32_t fn;  /* the declared function it happens in (callbacks inside it count as it) */
    TSNode node;
    int32_t key; /* index into keys, or -1 */
    int content; /* JUDGE */
    int via_helper;
    lf_tslock_judged judged; /* REMOVE */
    TSNode target;           /* REMOVE: the path expression removed */
    int32_t helper_key;      /* via_helper: the helper's parameter key; else -1 */
    int owner_checked;       /* REMOVE: runs only while the lock's record names this process
                                (lf_tsowner.h): a release, never a break of the lock */
    int imported;            /* PROBE: the verdict of another module's liveness predicate, read from its
                                name alone (`isProcessAlive(pid)` imported): it judges a lock the module
                                has, it makes no file a pid lock */
} lf_tslock_event;

typedef struct lf_tslock {
    lf_tssem *m;
    lf_tslock_key *keys;
    size_t n_keys;
    lf_tslock_event *events; /* in source order */
    size_t n_events;
    /* the events of each declared function, in source order (built on first
     * use: lf_tslock_first_event) */
    int32_t *ev_first; /* per scope: its function's first event, or -1 */
    int32_t *ev_next;  /* per event: the next one of the same function, or -1 */
    /* per scope: the declared function reads a lock's inode identity
     * (.ino/.dev), itself or through the module's helpers a few levels
     * down: its removals are bound to what it judged */
    unsigned char *identity_bound;
    /* lf_tsproto's memo of what each lock's protocol covers, freed with the
     * facts (proto_memo_free); private to lf_tsproto.c */
    void *proto_memo;
    void (*proto_memo_free)(void *);
} lf_tslock;

/* The model's lock facts, built on first call and kept by m (its checks only
 * read them, and never free them). */
lf_tslock *lf_tslock_build(lf_tssem *m);
/* Frees l (lf_tssem_free, for the model's own). */
void lf_tslock_free(lf_tslock *l);

/* The first event (index into events) of declared function fn, and the
 * next one of the same function after event `ev`; -1 at the end. Source
 * order: a walk can stop at the first event past a point. */
int32_t lf_tslock_first_event(lf_tslock *l, int32_t fn);
int32_t lf_tslock_next_event(const lf_tslock *l, int32_t ev);
/* Index of the key an expression names, or -1. */
int32_t lf_tslock_key_index(lf_tslock *l, TSNode expr);
/* A lock by use, and not a package-manager lock file. */
int lf_tslock_is_lock(unsigned flags);
/* Can the removal call remove a directory (rmdir, a recursive rm)? */
int lf_tslock_removes_directory(lf_tssem *m, TSNode call);
/* The declared function a scope belongs to: callbacks (arrows, function
 * expressions passed or assigned) count as the function around them. */
int32_t lf_tslock_fn_of(const lf_tssem *m, int32_t scope);
/* The operation a call performs on the file system when its callee is fs,
 * fs/promises, fs-extra or rimraf: "rm", "unlink", "mkdir", ... (the Sync and
 * promise forms read alike); NULL otherwise. The creates of the vendored
 * lockrt.cjs (LF301's fix) read as the writeFile/open they wrap. */
const char *lf_tslock_fs_op(lf_tssem *m, TSNode call);
/* The path a file-system call works on: its first argument, or for a method
 * of a Bun file handle (`Bun.file(p).delete()`, `f.exists()` with `const f =
 * Bun.file(p)`: lf_tslock_fs_op reads those as unlink/exists/stat) the path
 * the handle was made for. */
TSNode lf_tslock_fs_path(lf_tssem *m, TSNode call);
/* Is there an event of `kind` (of key `key`; any key when key < 0) whose
 * node lies within n? */
int lf_tslock_event_within(const lf_tslock *l, lf_tslock_event_kind kind, int32_t key, TSNode n);
/* Does a `break` leave the loop statement `loop` (one not inside a nested
 * loop, switch or function of it)? */
int lf_tslock_loop_breaks(TSNode loop);

#endif
