/* lf_pylock: which paths a Python module uses as locks, and what its functions
 * do to them: lock identity by use, not by name (issue 9).
 *
 * A path is named by a key that does not depend on its spelling: a field of a
 * class (`self.lock_file` in any method of that class), a parameter, the result
 * of one of the module's functions (`_get_lock_path(...)`), or an expression
 * compared structurally (`os.path.join(d, "x.lock")`, the literal a module
 * constant holds). Local names are followed to the value they hold; `str()`,
 * `os.fspath()` and `Path()` wrap the same file.
 *
 * A key is a lock when the module uses it as one:
 *  - created exclusively (`os.open(p, O_CREAT|O_EXCL)`, `open(p, "x")`,
 *    `os.mkdir(p)`, `os.link(.., p)`, `Path.mkdir()`) with the create's
 *    failure handled (by a handler that does not move on to another name:
 *    `except FileExistsError: candidate = ...` claims a fresh file),
 *  - created as a symlink (`os.symlink(.., p)`, `Path.symlink_to`) with the
 *    failure handled, and judged as a lock: its owner read back
 *    (`os.readlink`), its age read (mtime), or the link holding the pid. An installer's symlink (a
 *    completions file, a skills directory) fails the same way when the path
 *    exists, but nothing reads an owner from it,
 *  - locked (`fcntl.flock`/`lockf`/`fcntl` or `msvcrt.locking` on a handle
 *    opened from it, the handle possibly kept in a field),
 *  - holding a pid (what is written there contains `os.getpid()`),
 *  - passed to a lock class (filelock, portalocker, fasteners, lockfile,
 *    zc.lockfile) or to one of the module's functions that uses its parameter
 *    as a lock,
 *  - claimed by the module's own protocol with no exclusive create: written
 *    (a record, or an empty file), looked at (existence, age, the record) and
 *    removed, and named a lock by the module (`LOCK_DIR / f"{n}.lock"`,
 *    `_lock_path()`, `self.lock_file`). A cache or a session file goes
 *    through the same three steps; only the module's own word for the path
 *    tells its check-then-write lock from them (LF_LOCK_CLAIM).
 * A package-manager lock file (`package-lock.json`, `uv.lock`, ...) never is,
 * nor a file only flocked that the module replaces by a rename (the data file
 * the lock guards), nor one only created exclusively or flocked that it
 * renames onto another path (an atomic write's temp: opened "x" to keep it
 * the writer's own, or flocked while it is written, when a shared temp name
 * is LF401's bug).
 *
 * Calls of the module's own functions connect an argument's key to the
 * parameter's: lock uses flow up (a helper that flocks its parameter makes the
 * caller's argument a lock), removals and judgements flow up (a helper that
 * removes or reads its parameter removes or judges the caller's argument), and
 * "a caller passes a lock here" flows down. A worklist settles them: each key's
 * flags only grow, so the cost stays linear in the calls.
 *
 * Events per function, in source order, for the checks: removals, judgements
 * (existence, stat, reading the contents, a pid probe), identity checks
 * (`st_ino`/`st_dev`, `samefile`/`samestat`), lock acquisitions. An exclusive
 * create or OS lock of an atomic write's temp (LF_LOCK_INSTALLED, no other
 * lock use) is no acquisition: it excludes no other writer of the target. */
#ifndef LF_PYLOCK_H
#define LF_PYLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_pysem.h"

/* ---- path keys ---- */

typedef enum lf_pkey_kind {
    LF_PKEY_NONE = 0,
    LF_PKEY_FIELD, /* self.<name> in a method of class `scope` */
    LF_PKEY_BIND,  /* a parameter (or another binding whose value is not an expression) */
    LF_PKEY_CALL,  /* the result of the module's function `scope` */
    LF_PKEY_EXPR,  /* an expression, compared structurally */
} lf_pkey_kind;

typedef struct lf_pkey {
    lf_pkey_kind kind;
    int32_t scope;               /* FIELD: the class; CALL: the function */
    const char *name;            /* FIELD: the attribute (interned) */
    const lf_pybinding *binding; /* BIND */
    TSNode node;                 /* EXPR: the expression (after following names) */
    uint64_t hash;
} lf_pkey;

/* ---- what a key is used as ---- */

enum {
    LF_LOCK_EXCL = 1u << 0,    /* created exclusively */
    LF_LOCK_FLOCK = 1u << 1,   /* fcntl.flock/lockf/fcntl on it (or a flock-based lock class) */
    LF_LOCK_MSVCRT = 1u << 2,  /* msvcrt.locking on it (Windows byte-range lock) */
    LF_LOCK_PID = 1u << 3,     /* holds the pid of its owner */
    LF_LOCK_HELPER = 1u << 4,  /* passed to a lock class or a lock helper */
    LF_LOCK_PKG = 1u << 5,     /* a package-manager lock file: never a lock */
    LF_LOCK_ARG = 1u << 6,     /* a parameter some caller passes a lock to */
    LF_LOCK_REMOVED = 1u << 7, /* removed (directly or through a helper) in its function */
    LF_LOCK_JUDGED = 1u << 8,  /* judged (exists/stat/read/mtime) in its function */
    LF_LOCK_BROKEN = 1u << 9,  /* some removal of it follows a judgement: the protocol breaks it */
    LF_LOCK_JUDGED_CONTENT = 1u << 10, /* its contents (owner, pid, token) are read in its function */
    LF_LOCK_BROKEN_LIVE = 1u << 11,    /* broken on existence or age alone: a live holder can lose it */
    LF_LOCK_STALE_REMOVAL = 1u << 12,  /* a parameter removed after a pid probe in its function */
    LF_LOCK_REPLACED = 1u << 13,       /* the destination of a rename: replaced whole, a data file */
    LF_LOCK_SYMLINK = 1u << 14,        /* created as a symlink, the failure handled */
    LF_LOCK_READLINK = 1u << 15,       /* its link target read (os.readlink): an owner read back */
    LF_LOCK_AGED = 1u << 16,           /* its mtime read (getmtime, a stat's st_mtime/st_ctime): an age */
    LF_LOCK_REFRESHED = 1u << 18,      /* a clock reading written into it by two functions: a heartbeat */
    LF_LOCK_PER_PROCESS = 1u << 17,    /* its name is made from a pid (`f"{pid}.json"`): one process's file */
    LF_LOCK_WRITTEN = 1u << 19,        /* created or written (open for writing, write_text, json.dump, touch) */
    LF_LOCK_CLAIM = 1u << 20,          /* a lock by its own protocol: claimed by writing it, judged, removed */
    LF_LOCK_OS_EXCLUSIVE = 1u << 21,   /* some OS lock call on it is exclusive (LOCK_EX, lockf, msvcrt, F_SETLK):
                                          one only ever share-locked (LOCK_SH: readers) excludes no one */
    LF_LOCK_JUDGED_GATE = 1u << 22,    /* judged other than by an existence test guarding only its own removal
                                          (`if p.exists(): p.unlink()` cleans up, it decides nothing) */
    LF_LOCK_INSTALLED = 1u << 23,      /* the source of a rename onto another path, not moved aside to break
                                          it: an atomic write's temp, installed where it belongs */
    LF_LOCK_INODE_VERIFIED = 1u << 24, /* OS-locked by a module whose acquisition checks, after locking, that
                                          the path still names the locked inode (st_ino of the path against
                                          the handle's fstat, in the locking function or a helper it calls):
                                          a removal while locked makes the waiter on the old inode retry */
    LF_LOCK_PID_READ = 1u << 26,       /* a pid lock by its protocol alone: its record read, the pid in it
                                          probed, the file removed (whoever writes it); evidence: the read */
    LF_LOCK_BROKEN_RACING = 1u << 27,  /* broken by name after a pid probe: two breakers that judged the same
                                          dead owner race, and the faster one's fresh lock is deleted */
    LF_LOCK_APPENDED = 1u << 25,       /* records written through a handle opened to append to it: a log or
                                          queue (its OS lock orders the appends), not a lock file */
};

/* How a removal was judged beforehand in its function. */
typedef enum lf_pylock_judged {
    LF_JUDGED_NONE = 0,
    LF_JUDGED_LIVENESS, /* a pid probe: the owner was judged dead */
    LF_JUDGED_PRESENCE, /* existence, stat or age: whatever is there is broken */
    LF_JUDGED_CONTENT,  /* its owner record was read (an ownership check) */
} lf_pylock_judged;
#define LF_LOCK_USES \
    (LF_LOCK_EXCL | LF_LOCK_FLOCK | LF_LOCK_MSVCRT | LF_LOCK_PID | LF_LOCK_HELPER | LF_LOCK_SYMLINK | LF_LOCK_CLAIM)

typedef struct lf_pylock_key {
    lf_pkey key;
    unsigned flags;
    TSNode evidence;     /* the first use that made it a lock (for messages) */
    unsigned evidence_flag;
    TSNode broken_at;    /* a judged removal (LF_LOCK_BROKEN) */
    TSNode retaken_at;   /* a takeover by writing a claim over it in place: the inode stays */
    int32_t stamped_in;  /* the first function writing a clock reading into it, + 1 (0: none) */
    TSNode written;      /* its first write or create (LF_LOCK_WRITTEN), or the call of a helper doing it */
} lf_pylock_key;

/* ---- events ---- */

typedef enum lf_pylock_event_kind {
    LF_PYEV_REMOVE = 0, /* node: the call; key: what it removes */
    LF_PYEV_JUDGE,      /* node: the call; key: what it judges */
    LF_PYEV_PROBE,      /* node: a kill(pid, 0) probe (judges whatever lock the pid came from) */
    LF_PYEV_IDENTITY,   /* node: an st_ino/st_dev read or samefile/samestat call */
    LF_PYEV_ACQUIRE,    /* node: a call that takes a lock (directly or through a helper) */
} lf_pylock_event_kind;

typedef struct lf_pylock_event {
    lf_pylock_event_kind kind;
    int32_t scope;  /* the function (or module) it happens in */
    TSNode node;
    int32_t key;    /* index into keys, or -1 */
    int via_helper; /* REMOVE/JUDGE through one of the module's functions */
    int content;    /* JUDGE: a read of the contents (else existence/stat/age) */
    int record_read; /* JUDGE through a helper: the helper's own judgement read the lock's record */
    int owner_checked; /* REMOVE: runs only while the lock's record names this process (lf_pylock_owner_checked) */
    lf_pylock_judged judged; /* REMOVE: how it was judged before, in its function */
    uint32_t judged_at;      /* REMOVE: where that judgement was made (byte + 1; 0: unknown) */
    int32_t param;  /* REMOVE/JUDGE through a helper: the helper's parameter key, else -1 */
    TSNode target;  /* REMOVE: the path expression removed (the argument, through a helper) */
    TSNode failed_create; /* REMOVE judged PRESENCE in the handler of this failed exclusive create, else null */
    int after_stop;       /* REMOVE: its function stops a process (`os.kill(pid, SIGTERM)`, any signal but
                             0, before or after the removal): a stop command's cleanup of its owner's lock */
    int guard_only;       /* JUDGE: an existence test that guards only the removal of what it tests
                             (`if p.exists(): p.unlink()`) */
} lf_pylock_event;

typedef struct lf_pylock {
    lf_pysem *m;
    lf_pylock_key *keys;
    size_t n_keys;
    lf_pylock_event *events; /* in source order */
    size_t n_events;
    unsigned char *acquires; /* per scope: the function takes a lock (directly or through a helper) */
    struct lf_pylock_internal *in;
} lf_pylock;

/* The model's lock view, built on the first call and kept by the model (its
 * checks only read it, and never free it). */
lf_pylock *lf_pylock_build(lf_pysem *m);
/* Frees l (lf_pysem_free, for the model's own). */
void lf_pylock_free(lf_pylock *l);

/* Does `in` read a record through the read call `read`: contain it, or a
 * name a `with` bound to it (`with open(p) as f:` ... `int(f.readline())`)? */
int lf_pylock_reads_through(lf_pysem *m, TSNode in, TSNode read);
/* Does the expression hold the pid of a child this process spawned
 * (`proc.pid` with `proc = subprocess.Popen(...)`)? */
int lf_pylock_child_pid(lf_pylock *l, TSNode expr);
/* Is the expression (a name or a field of self) given only threading or
 * asyncio locks: a lock of this process, none for other processes? */
int lf_pylock_in_process_lock(lf_pylock *l, TSNode expr);
/* `os.kill(pid, SIGTERM)` / `os.killpg`: a kill with any signal but a literal 0. */
int lf_pylock_is_terminate(lf_pysem *m, TSNode call);

/* The key an expression names, and its index in keys (-1 when it has none). */
lf_pkey lf_pylock_key_of(lf_pylock *l, TSNode expr);
int32_t lf_pylock_find(const lf_pylock *l, const lf_pkey *k);
/* Do two keys name the same file? */
int lf_pylock_key_eq(const lf_pysem *m, const lf_pkey *a, const lf_pkey *b);
/* Do two keys name the same path? */
int lf_pylock_key_same(const lf_pylock *l, const lf_pkey *a, const lf_pkey *b);
/* The path a file handle or descriptor was opened from (`f` from
 * `with open(P) as f`, `fd = os.open(P)`, `open(P)` itself), or null. */
TSNode lf_pylock_handle_path(lf_pylock *l, TSNode handle);
/* The open call (`open(P, "a+")`, `os.open(P, ...)`, `P.open()`) a handle
 * traces back to, as lf_pylock_handle_path follows it; null when none. */
TSNode lf_pylock_handle_open(lf_pylock *l, TSNode handle);
/* An OS lock call (fcntl.flock/lockf/fcntl(F_SETLK*), msvcrt.locking,
 * portalocker.lock): its kind (LF_LOCK_FLOCK or LF_LOCK_MSVCRT, 0 when it is
 * none), *handle = what it locks, *unlock = 1 for a release. */
unsigned lf_pylock_lock_call(lf_pysem *m, TSNode call, TSNode *handle, int *unlock);
/* `self.x` in a method: the class that assigns field x (the method's, or a
 * base's), and *writes = how many assignments of it that class makes; -1 when
 * the expression is not a field of self. */
int32_t lf_pylock_self_field(lf_pylock *l, TSNode expr, size_t *writes);
/* The values assigned to that field in that class (at most max). */
size_t lf_pylock_field_values(lf_pylock *l, TSNode expr, TSNode *out, size_t max);
/* Does the expression name `qualname` (`os.O_TRUNC`), alone or combined with
 * `|`, through local names? */
int lf_pylock_mentions(lf_pysem *m, TSNode expr, const char *qualname);
/* The path expression a key names, for messages: an EXPR key's expression,
 * what the function of a CALL key returns (`STATE / "server.pid"` for
 * `_pid_file()`); null for fields and parameters. */
TSNode lf_pylock_key_path(const lf_pylock *l, const lf_pkey *k);
/* The path a call reads the contents of (`p.read_text()`, `open(p).read()`,
 * `json.load(f)` of a handle opened from p), or null. */
TSNode lf_pylock_content_read(lf_pylock *l, TSNode call);
/* A call of the module's function that returns the contents it read from one
 * of its parameters (`def _read_lock(p): return json.loads(p.read_text())`):
 * the argument passed for that parameter, or null. */
TSNode lf_pylock_returned_record(lf_pylock *l, TSNode call);
/* `call` invokes the module's function f, and `path` (inside f) names one of
 * f's parameters: the argument the call passes for it (`_read_lock(lp)` for
 * `lock_path` in `def _read_lock(lock_path)`), or null. */
TSNode lf_pylock_argument_for(lf_pylock *l, TSNode call, TSNode path);
/* Flags of the key an expression names (0 when unknown). */
unsigned lf_pylock_flags_of(lf_pylock *l, TSNode expr);
/* Is the node a plain string literal (one content part, no interpolation or
 * escape) spelling a mode open() accepts (one of r/w/x/a, at most one of b/t,
 * at most one +, any order) that contains c (first: starts with c)? A mode
 * open() rejects raises before any file is touched, so it is no create or
 * append; the prefilters rely on it: such a mode is spelled quote, mode, quote
 * ("'x'", "'ab'", "\"a+\"", ...). */
int lf_pylock_open_mode(const lf_source *src, TSNode s, char c, int first);
/* Is the call's callee spelled `name` or `<x>.name` (not an alias bound to
 * it)? Exclusive creates by open() must be, so that the prefilter can look for
 * the mode inside the call (`\\bopen(…'x'`). */
int lf_pylock_callee_spelled(const lf_source *src, TSNode call, const char *name);
/* Is the key a lock by use (and not a package-manager lock file)? */
int lf_pylock_is_lock(unsigned flags);

/* The function a call invokes when it is one of the module's own (a
 * module-level function, `self.method(...)` in a class, `Class(...)` ->
 * __init__): its scope, and how many leading parameters the call skips
 * (self). -1 when it is not. */
int32_t lf_pylock_local_callee(lf_pylock *l, TSNode call, int *skip_self);

/* The arguments the module's calls of a parameter's function pass for it (at
 * most max, in source order; `self` skipped except for a @staticmethod). */
size_t lf_pylock_param_args(lf_pylock *l, const lf_pybinding *param, TSNode *out, size_t max);


/* The path an exclusive create makes (`os.open(p, O_CREAT|O_EXCL)`, `open(p,
 * "x")`, os.mkdir, os.link, Path.mkdir, lockrt's open_exclusive drop-ins), or
 * null; *link: it is made by a symlink (a lock only when judged as one). */
TSNode lf_pylock_exclusive_create(lf_pylock *l, TSNode call, int *link);
/* The parameter of an API function (module-level, or a method; not `self`)
 * that a path expression is made from alone, following local names a few
 * hops (`Path(lock_path)`, `str(p)` after `p = Path(lock_path)`); NULL when
 * some name is neither that parameter nor module-level. */
const lf_pybinding *lf_pylock_api_param(lf_pysem *m, TSNode e);
/* Are p and q the same parameter of two sibling API functions: one name, in
 * two functions of one parent and class (`acquire_lock(lock_path)` and
 * `release_lock(lock_path)`), which the API's callers hand the same path? */
int lf_pylock_sibling_params(const lf_pysem *m, const lf_pybinding *p, const lf_pybinding *q);
/* Is the call a member of the vendored lockrt binding (`lockrt.member`,
 * imported as `import lockrt`, `from . import lockrt` or `from pkg import
 * lockrt`)? */
int lf_pylock_lockrt_call(lf_pysem *m, TSNode call, const char *member);
/* Is the call record one of the vendored binding's identity-bound removals
 * (unlink_judged, unlink_owned, unlink_if_free: LF301's fix)? They still
 * remove the lock, but bind what they remove, so they are no removal event. */
int lf_pylock_bound_removal(const lf_pycall *c);
/* Would `lockrt.x` written at `call` name the module-level import of the
 * binding (there, or the one a fix adds)? */
int lf_pylock_lockrt_free_at(lf_pysem *m, TSNode call);
/* Calls of os.remove & co (any alias; also a name whose bindings include such
 * an import). *target = what it removes. */
int lf_pylock_removal_call(lf_pysem *m, TSNode call, TSNode *target);
/* The calls that create or write the file `path` names (opens for writing,
 * os.open with O_CREAT, touch, write_text, os.write/json.dump through a
 * handle of it, ...), in source order: how many, the first `max` in out. */
size_t lf_pylock_writers(lf_pylock *l, TSNode path, TSNode *out, size_t max);
/* Does the module make the path a directory (`os.mkdir(P)`, `os.makedirs(P)`,
 * `P.mkdir()`)? */
int lf_pylock_made_as_directory(lf_pylock *l, TSNode path);
/* Is the removal a rename (moving the object away rather than unlinking it)? */
int lf_pylock_rename_call(lf_pysem *m, TSNode call);
/* Does the call's callee resolve to one of `names`, through any of the module
 * bindings of its name (`from os import kill` on one path, a def on another)? */
int lf_pylock_callee_any(lf_pysem *m, TSNode call, const char *const *names);
/* Does the removal run only while the lock's record names this process:
 * under `if rec["pid"] == os.getpid():`, or after `if rec["pid"] !=
 * os.getpid(): return` in its function? Then it is the holder's release of
 * its own lock, whatever was looked at before it (TS/JS: lf_tsowner.h). */
int lf_pylock_owner_checked(lf_pysem *m, TSNode removal);
/* Only plain arguments: no `*args` / `**kwargs`, whose contents a rewrite or a
 * parameter mapping would have to guess. */
int lf_pylock_plain_args(TSNode call);
/* The i-th positional argument, or keyword `kw`; null when absent. */
TSNode lf_pylock_arg(lf_pysem *m, TSNode call, uint32_t index, const char *kw);
/* Does `expr`, read at `from`, name the same value when written again at `at`
 * (a fix repeats it there): names bound the same at both, `self.x` in two
 * methods of one class (assigned once when `once`), string literals, and
 * pure functions of them (str(P), os.path.join(D, "x.lock"), D / "x.lock")? */
int lf_pylock_nameable_at(lf_pylock *l, TSNode expr, TSNode from, TSNode at, int once);

#endif
