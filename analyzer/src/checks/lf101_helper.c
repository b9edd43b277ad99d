/* LF101 through the module's own lock helpers, and acquisitions whose errors
 * are swallowed. Each root bug is reported once, where it is decided:
 *
 *  - the absent-provider path: a test of an optional lock module or its flag
 *    (`if not HAS_FCNTL: yield; return`, `if fcntl is not None: flock(...)`
 *    with nothing else, `if fcntl is None and msvcrt is None: yield`) after
 *    which the helper completes without taking the lock: a @contextmanager
 *    yields, an `__enter__`/`acquire` or a function that hands its lock to the
 *    caller returns as if locked, or the function's own critical section runs;
 *  - a swallowed acquisition error: a handler around the acquisition that lets
 *    the helper complete (falls through, or returns anything but False)
 *    instead of refusing; inside a retry loop a handler for contention that
 *    falls through retries, and is judged as a give-up instead (next);
 *  - a retry loop that gives up and goes on: a `break` where the lock is not
 *    held, or the loop running out of attempts, while the attempt that
 *    succeeds leaves the loop holding it, and nothing after the loop tests or
 *    returns what the loop recorded (find_giveup, on lf_pycfg's lock state);
 *  - "not acquired" results: a helper that returns False where it took no
 *    lock, called as a bare statement with the critical section after it; the
 *    bug is the helper's test when it has one, else each ignoring caller;
 *  - a stand-in for a lock package (`except ImportError: class FileLock: ...`)
 *    whose `__enter__`/`acquire` take no lock: reported at the branch binding
 *    it, once.
 *
 * The critical section must write: a helper's callers (their `with` bodies,
 * or what follows a bare call) or the function's own code after the test.
 * A call counts as a write unless it is known to read only, so unknown
 * callables (injected `save`, a helper) count; a section of known reads
 * (open() for reading, json.load, read_text) is read-only and stays quiet.
 * A helper with no caller in the module is exported: its callers are elsewhere
 * and it is reported on its own evidence.
 *
 * Everything is iterative; the work is linear in the module's statements and
 * calls times the (bounded) number of lock helpers. */
#include <stdlib.h>
#include <string.h>

#include "lf101_indirect.h"
#include "lf_py.h"
#include "lf_cfg.h"
#include "lf_pycfg.h"
#include "lf_witness_build.h"
#include "lf_tree.h"
#include "lf_util.h"

#define MAX_HELPERS 64
#define MAX_REMOVED 64

typedef LF_VEC(TSNode) node_vec;

typedef struct hpass {
    lf_pysem *m;
    lf101_lock_call_fn is_lock, is_unlock;
    node_vec removed; /* paths the module removes (a lock's release), at most MAX_REMOVED */
    unsigned char *writes_memo; /* per scope: 0 unknown, 1 no, 2 may write */
    unsigned char *locks_memo;  /* per scope: 0 unknown, 1 no, 2 takes a lock itself */
    unsigned char *unlocks_memo; /* the same for releasing one */
} hpass;

static uint32_t line_of(const lf_pysem *m, TSNode n) {
    uint32_t line, col;
    lf_source_position(m->src, ts_node_start_byte(n), &line, &col);
    return line;
}

/* ---- acquisitions ---- */

static const char *const k_removals[] = {"os.rmdir", "os.unlink", "os.remove", "shutil.rmtree",
                                         "pathlib.Path.rmdir", "pathlib.Path.unlink", NULL};

/* The literal `exist_ok=` a mkdir/makedirs call passes (`x.mkdir(...,
 * exist_ok=False)`, `os.makedirs(p, exist_ok=True)`): "true", "false", or
 * NULL when the call is neither or passes none. False asks for an exclusive
 * create, whatever x's type; True makes sure a directory exists (the lock
 * file's, before the lock is taken), which changes nothing when it does. */
static const char *mkdir_exist_ok_literal(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_field(call, "function");
    TSNode name = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : fn;
    if (!lf_tree_text_eq(m->src, name, "mkdir") && !lf_tree_text_eq(m->src, name, "makedirs"))
        return NULL;
    TSNode args = lf_tree_field(call, "arguments");
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "keyword_argument") && lf_tree_text_eq(m->src, lf_tree_field(a, "name"), "exist_ok")) {
            TSNode v = lf_tree_unparen(lf_tree_field(a, "value"));
            return lf_tree_is(v, "true") ? "true" : lf_tree_is(v, "false") ? "false" : NULL;
        }
    }
    return NULL;
}

static int mkdir_not_exist_ok(lf_pysem *m, TSNode call) {
    const char *v = mkdir_exist_ok_literal(m, call);
    return v && !strcmp(v, "false");
}

static int mkdir_exist_ok(lf_pysem *m, TSNode call) {
    const char *v = mkdir_exist_ok_literal(m, call);
    return v && !strcmp(v, "true");
}

/* Is `path` one the module removes somewhere? */
static int removed_somewhere(hpass *p, TSNode path) {
    for (size_t i = 0; i < p->removed.len; i++)
        if (lf_tree_equal(p->m->src, lf_tree_unparen(path), p->m->src, p->removed.items[i], 0))
            return 1;
    return 0;
}

/* Does the call itself take a lock: a lock call, a lock class, or an
 * exclusive create of a path the module also removes (created to exclude,
 * removed to release; a directory made once and kept is no lock)? */
/* Is a directory made and removed named a lock: its path, or the function
 * or class making it? A directory made to work in and removed after
 * (test.support's `temp_dir(path)`: mkdir, yield, rmtree) is no lock. */
static int dir_named_lock(lf_pysem *m, TSNode call, TSNode path) {
    static const char *const leaves[] = {"identifier", "string_content", NULL};
    if (lf_tree_spells_lock(m->src, path, leaves, 64))
        return 1;
    for (int32_t sc = lf_pysem_scope_of(m, call); sc > 0; sc = m->scopes[sc].parent) {
        const char *name = m->scopes[sc].name;
        if (name && *name && lf_text_spells_lock(name, strlen(name)))
            return 1;
    }
    return 0;
}

static int is_dir_create(lf_pysem *m, TSNode call) {
    static const char *const dir_creates[] = {"os.mkdir", "os.makedirs", "pathlib.Path.mkdir", NULL};
    return lf_pysem_call_is(m, call, dir_creates) || mkdir_not_exist_ok(m, call);
}

static int acquires_direct(hpass *p, TSNode call) {
    if (p->is_lock(p->m, call) || lf_pysem_call_is(p->m, call, lf101_lock_classes))
        return 1;
    if (!p->removed.len)
        return 0;
    TSNode created = lf101_exclusive_create(p->m, call);
    if (ts_node_is_null(created) && mkdir_not_exist_ok(p->m, call))
        created = lf_tree_field(lf_tree_field(call, "function"), "object");
    if (ts_node_is_null(created) || !removed_somewhere(p, created))
        return 0;
    return !is_dir_create(p->m, call) || dir_named_lock(p->m, call, created);
}

/* The body of the module's own function a call runs (`helper(...)`), or null. */
static TSNode local_def_body(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "identifier"))
        return (TSNode){0};
    char *name = lf_tree_text(m->src, fn);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, fn), name, ts_node_start_byte(fn));
    free(name);
    if (!b || b->kind != LF_PYBIND_DEF || !lf_tree_is(b->value, "function_definition"))
        return (TSNode){0};
    return lf_tree_field(b->value, "body");
}

typedef struct find_call {
    hpass *p;
    int unlock; /* look for a release instead of an acquisition */
    TSNode found;
} find_call;

static int releases_direct(hpass *p, TSNode call) {
    return p->is_unlock(p->m, call) || lf_pysem_call_is(p->m, call, k_removals);
}

/* The scope a call runs in, comprehensions aside (a comprehension is a scope
 * of its own in the model, but visit_find walks into it). */
static int32_t home_scope(const lf_pysem *m, int32_t sc) {
    while (sc > 0 && m->scopes[sc].kind == LF_PYSCOPE_COMPREHENSION)
        sc = m->scopes[sc].parent;
    return sc;
}

/* A block's own calls (a body, a branch), nested definitions aside, read off
 * the model instead of walking the block: the model's calls are in pre-order,
 * a walk's own order, and a call under a nested def, class or lambda (which a
 * walk of the block would skip) runs in that definition's scope, so the
 * block's own calls are the ones in its byte range whose scope is the
 * block's. */
typedef struct block_calls {
    const lf_pysem *m;
    size_t next;
    uint32_t end;
    int32_t home;
} block_calls;

static block_calls block_calls_of(const lf_pysem *m, TSNode block) {
    block_calls it = {m, 0, ts_node_end_byte(block), home_scope(m, lf_pysem_scope_of(m, block))};
    uint32_t start = ts_node_start_byte(block);
    size_t hi = m->n_calls;
    while (it.next < hi) {
        size_t mid = it.next + (hi - it.next) / 2;
        if (ts_node_start_byte(m->calls[mid].node) < start)
            it.next = mid + 1;
        else
            hi = mid;
    }
    return it;
}

/* The block's next call, or null past its last. */
static TSNode block_calls_next(block_calls *it) {
    const lf_pysem *m = it->m;
    for (; it->next < m->n_calls && ts_node_start_byte(m->calls[it->next].node) < it->end; it->next++) {
        lf_work(1);
        if (home_scope(m, m->calls[it->next].scope) == it->home)
            return m->calls[it->next++].node;
    }
    return (TSNode){0};
}

/* Does a module function take (or release) a lock itself? One level:
 * `_lock_windows(fh)` around msvcrt.locking, `_release(fh)` around LOCK_UN.
 * Memoised per scope: bit 1 known, bit 2 yes. */
static int runs_locking_function(hpass *p, TSNode call, int unlock) {
    TSNode body = local_def_body(p->m, call);
    if (ts_node_is_null(body))
        return 0;
    int32_t sc = lf_pysem_scope_of(p->m, body);
    unsigned char *memo = unlock ? &p->unlocks_memo[sc] : &p->locks_memo[sc];
    if (!*memo) {
        *memo = 1;
        block_calls it = block_calls_of(p->m, body);
        for (TSNode c = block_calls_next(&it); !ts_node_is_null(c) && *memo == 1; c = block_calls_next(&it))
            if (unlock ? releases_direct(p, c) : acquires_direct(p, c))
                *memo = 2;
    }
    return *memo == 2;
}

static lf_walk_action visit_find(TSNode n, void *ud) {
    find_call *f = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "call"))
        return LF_WALK_CONTINUE;
    int hit = f->unlock ? releases_direct(f->p, n) : acquires_direct(f->p, n);
    if (hit || runs_locking_function(f->p, n, f->unlock)) {
        f->found = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* The first acquisition (or release) under n, nested definitions aside: a
 * block's calls are read off the model (block_calls), anything else walked. */
static TSNode find_in(hpass *p, TSNode n, int unlock) {
    find_call f;
    memset(&f, 0, sizeof f);
    f.p = p;
    f.unlock = unlock;
    if (ts_node_is_null(n))
        return f.found;
    if (!lf_tree_is(n, "block")) {
        lf_tree_walk(n, visit_find, &f);
        return f.found;
    }
    block_calls it = block_calls_of(p->m, n);
    for (TSNode c = block_calls_next(&it); !ts_node_is_null(c); c = block_calls_next(&it))
        if ((unlock ? releases_direct(p, c) : acquires_direct(p, c)) || runs_locking_function(p, c, unlock))
            return c;
    return f.found;
}

typedef struct find_kind {
    const char *type;
    int found;
} find_kind;

static lf_walk_action visit_kind(TSNode n, void *ud) {
    find_kind *f = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, f->type)) {
        f->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

typedef struct yield_false {
    int yields, other;
} yield_false;

static lf_walk_action visit_yield_false(TSNode n, void *ud) {
    yield_false *y = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "yield"))
        return LF_WALK_CONTINUE;
    TSNode v = lf_tree_unparen(ts_node_named_child(n, 0));
    y->yields = 1;
    if (!lf_tree_is(v, "false"))
        y->other = 1;
    return LF_WALK_SKIP;
}

/* Every yield under n yields False: "not acquired", for the caller to check. */
static int yields_only_false(TSNode n) {
    yield_false y = {0, 0};
    lf_tree_walk(n, visit_yield_false, &y);
    return y.yields && !y.other;
}

static int contains_kind(TSNode n, const char *type) {
    find_kind f = {type, 0};
    if (!ts_node_is_null(n))
        lf_tree_walk(n, visit_kind, &f);
    return f.found;
}

/* The statements of a function scope, pre-order and contiguous after its def
 * statement: [*first, *end). Empty for a scope without one. */
static void scope_stmts(const lf_pysem *m, int32_t scope, size_t *first, size_t *end) {
    int32_t def = m->scopes[scope].stmt;
    *first = *end = 0;
    if (def < 0)
        return;
    uint32_t stop = ts_node_end_byte(m->scopes[scope].node);
    size_t i = (size_t)def + 1;
    *first = i;
    while (i < m->n_stmts && ts_node_start_byte(m->stmts[i].node) < stop)
        i++;
    *end = i;
}

/* ---- how a block can end ---- */

enum {
    EXIT_FALLS = 1u << 0,      /* runs off its end */
    EXIT_RAISES = 1u << 1,
    EXIT_RET_FALSE = 1u << 2,  /* `return False` / `return 0`: "not acquired" */
    EXIT_RET_OTHER = 1u << 3,  /* any other return: "as if acquired" */
    EXIT_LOOPS = 1u << 4,      /* continue / break */
};

static unsigned return_kind(const lf_pysem *m, TSNode ret) {
    TSNode v = ts_node_named_child(ret, 0);
    if (!ts_node_is_null(v)) {
        v = lf_tree_unparen(v);
        if (lf_tree_is(v, "false") || (lf_tree_is(v, "integer") && ts_node_end_byte(v) - ts_node_start_byte(v) == 1 &&
                                       m->src->text[ts_node_start_byte(v)] == '0'))
            return EXIT_RET_FALSE;
    }
    return EXIT_RET_OTHER;
}

static TSNode handler_block(TSNode exc) {
    for (uint32_t j = 0; j < ts_node_named_child_count(exc); j++)
        if (lf_tree_is(ts_node_named_child(exc, j), "block"))
            return ts_node_named_child(exc, j);
    return (TSNode){0};
}

/* `sys.exit(1)`, `os._exit(1)`, `exit()`: the process ends here, like a raise. */
static int ends_process(lf_pysem *m, TSNode stmt) {
    static const char *const enders[] = {"sys.exit", "os._exit", "os.abort", "exit", "quit", NULL};
    if (!lf_tree_is(stmt, "expression_statement"))
        return 0;
    TSNode e = lf_tree_unparen(lf_tree_child(stmt, 0));
    return lf_tree_is(e, "call") && lf_pysem_call_is(m, e, enders);
}

/* The ways a block (or a clause holding one) can end, from its last statements:
 * a union over the branches of a trailing if/elif/else. Iterative. */
static unsigned block_exits(lf_pysem *m, TSNode block) {
    unsigned out = 0;
    node_vec todo = {0};
    LF_VEC_PUSH(&todo, block);
    while (todo.len) {
        TSNode b = todo.items[--todo.len];
        int32_t last = -1;
        if (ts_node_is_null(b)) { /* a branch the grammar's recovery left without a block */
            out |= EXIT_FALLS;
            continue;
        }
        for (int32_t s = lf_pysem_first_in_block(m, b); s >= 0; s = lf_pysem_next_sibling(m, s))
            last = s;
        if (last < 0) {
            out |= EXIT_FALLS;
            continue;
        }
        TSNode st = m->stmts[last].node;
        if (lf_tree_is(st, "raise_statement") || ends_process(m, st)) {
            out |= EXIT_RAISES;
        } else if (lf_tree_is(st, "return_statement")) {
            out |= return_kind(m, st);
        } else if (lf_tree_is(st, "continue_statement") || lf_tree_is(st, "break_statement")) {
            out |= EXIT_LOOPS;
        } else if (lf_tree_is(st, "if_statement")) {
            int has_else = 0;
            LF_VEC_PUSH(&todo, lf_tree_field(st, "consequence"));
            for (uint32_t i = 0; i < ts_node_named_child_count(st); i++) {
                TSNode c = ts_node_named_child(st, i);
                if (lf_tree_is(c, "elif_clause"))
                    LF_VEC_PUSH(&todo, lf_tree_field(c, "consequence"));
                else if (lf_tree_is(c, "else_clause")) {
                    LF_VEC_PUSH(&todo, lf_tree_field(c, "body"));
                    has_else = 1;
                }
            }
            if (!has_else)
                out |= EXIT_FALLS;
        } else if (lf_tree_is(st, "with_statement")) {
            LF_VEC_PUSH(&todo, lf_tree_field(st, "body"));
        } else if (lf_tree_is(st, "try_statement")) {
            /* The body (or its else clause) and each handler; a finally runs after them. */
            TSNode body = lf_tree_field(st, "body");
            for (uint32_t i = 0; i < ts_node_named_child_count(st); i++) {
                TSNode c = ts_node_named_child(st, i);
                if (lf_tree_is(c, "else_clause"))
                    body = lf_tree_field(c, "body");
                else if (lf_tree_is(c, "except_clause") && !ts_node_is_null(handler_block(c)))
                    LF_VEC_PUSH(&todo, handler_block(c));
            }
            LF_VEC_PUSH(&todo, body);
        } else {
            out |= EXIT_FALLS;
        }
    }
    LF_VEC_FREE(&todo);
    return out;
}

/* The statements after `stmt` up to the end of its function, block by block
 * outwards (what runs next when stmt falls through): appended to out. */
static void rest_of_function(lf_pysem *m, int32_t stmt, node_vec *out) {
    int32_t scope = m->stmts[stmt].scope;
    for (int32_t s = stmt; s >= 0 && m->stmts[s].scope == scope; s = m->stmts[s].parent) {
        for (int32_t x = lf_pysem_next_sibling(m, s); x >= 0; x = lf_pysem_next_sibling(m, x))
            LF_VEC_PUSH(out, m->stmts[x].node);
        /* A loop body falls back into its loop, not past it. */
        if (m->stmts[s].clause == LF_PYCLAUSE_LOOP_BODY)
            break;
    }
}

/* ---- writes ---- */

static const char *const k_write_calls[] = {
    "json.dump", "pickle.dump", "marshal.dump", "os.replace", "os.rename", "os.renames", "os.write",
    "os.truncate", "os.ftruncate", "os.remove", "os.unlink", "os.rmdir", "os.makedirs", "os.mkdir",
    "shutil.move", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.rmtree", "os.fsync", NULL};
static const char *const k_read_calls[] = {
    "json.load", "json.loads", "json.dumps", "pickle.load", "pickle.loads", "os.path.exists", "os.path.isfile",
    "os.path.isdir", "os.path.join", "os.path.getmtime", "os.path.getsize", "os.path.dirname",
    "os.path.basename", "os.stat", "os.lstat", "os.listdir", "os.getpid", "os.fspath", "time.time",
    "time.monotonic", "time.sleep", "os.close", "print", "len", "str", "int", "float", "bool", "dict", "list", "set", "tuple",
    "sorted", "repr", "isinstance", "min", "max", "sum", "any", "all", "enumerate", "range", "zip", "iter",
    "next", "pathlib.Path", "pathlib.Path.exists", "pathlib.Path.read_text", "pathlib.Path.read_bytes",
    "pathlib.Path.is_file", "pathlib.Path.is_dir", "pathlib.Path.stat", NULL};
static const char *const k_read_methods[] = {
    "read", "readline", "readlines", "read_text", "read_bytes", "get", "keys", "items", "values", "seek",
    "tell", "fileno", "exists", "is_file", "is_dir", "stat", "strip", "split", "splitlines", "startswith",
    "endswith", "format", "join", "encode", "decode", "lower", "upper", "copy", "debug", "info", "warning",
    "error", "exception", "critical", "count", "index", "find", "isoformat", "close", NULL};

static int name_in(lf_pysem *m, TSNode n, const char *const *names) {
    for (size_t i = 0; names[i]; i++)
        if (lf_tree_text_eq(m->src, n, names[i]))
            return 1;
    return 0;
}

/* open(p, mode) with a mode that writes (`w`, `a`, `x`, `+`). */
static int open_writes(lf_pysem *m, TSNode call, uint32_t mode_index) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        TSNode v = (TSNode){0};
        if (lf_tree_is(a, "keyword_argument")) {
            if (lf_tree_text_eq(m->src, lf_tree_field(a, "name"), "mode"))
                v = lf_tree_field(a, "value");
        } else if (k++ == mode_index) {
            v = a;
        }
        if (ts_node_is_null(v))
            continue;
        if (!lf_tree_is(v, "string"))
            return 1; /* a mode computed at run time may write */
        for (uint32_t b = ts_node_start_byte(v); b < ts_node_end_byte(v); b++)
            if (strchr("wax+", m->src->text[b]))
                return 1;
        return 0;
    }
    return 0;
}

/* Does this call write, or may it for all we know? 1 yes, 0 no, and for a
 * call of the module's own function, -1 with its body in *body (judged by
 * the caller, so that no walk re-enters itself). */
static int call_writes(hpass *p, TSNode call, TSNode *body) {
    lf_pysem *m = p->m;
    *body = (TSNode){0};
    if (p->is_lock(m, call) || p->is_unlock(m, call))
        return 0;
    const char *q = lf_pysem_callee(m, call);
    if (q) {
        for (size_t i = 0; k_write_calls[i]; i++)
            if (!strcmp(q, k_write_calls[i]))
                return 1;
        if (!strcmp(q, "open") || !strcmp(q, "io.open") || !strcmp(q, "codecs.open"))
            return open_writes(m, call, 1);
        if (!strcmp(q, "pathlib.Path.open"))
            return open_writes(m, call, 0);
        if (!strcmp(q, "os.open"))
            return lf_tree_mentions(m->src, lf_tree_field(call, "arguments"), "O_WRONLY", NULL) ||
                   lf_tree_mentions(m->src, lf_tree_field(call, "arguments"), "O_RDWR", NULL) ||
                   lf_tree_mentions(m->src, lf_tree_field(call, "arguments"), "O_APPEND", NULL);
        for (size_t i = 0; k_read_calls[i]; i++)
            if (!strcmp(q, k_read_calls[i]))
                return 0;
        if (!strncmp(q, "logging.", 8) || !strncmp(q, "os.path.", 8))
            return 0;
    }
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "attribute"))
        return !name_in(m, lf_tree_field(fn, "attribute"), k_read_methods);
    *body = local_def_body(m, call);
    return ts_node_is_null(*body) ? 1 : -1;
}

typedef struct write_walk {
    hpass *p;
    int found;
    TSNode lock_handle; /* visit_write_direct: the lock call's handle, whose open is no work (or null) */
} write_walk;

/* Opening the file a lock call then locks is part of taking the lock, not
 * work: `self.fd = os.open(p, O_CREAT | O_RDWR)` before `flock(self.fd, ..)`. */
static int opens_handle(lf_pysem *m, TSNode call, TSNode handle) {
    TSNode st = ts_node_parent(call);
    if (ts_node_is_null(handle) || !lf_tree_is(st, "assignment") || !ts_node_eq(lf_tree_field(st, "right"), call))
        return 0;
    return lf_tree_equal(m->src, lf_tree_field(st, "left"), m->src, handle, 0);
}

/* One level: a module function called from here counts as a write. */
static lf_walk_action visit_write_direct(TSNode n, void *ud) {
    write_walk *w = ud;
    /* `raise OfflineImapError(...)`: the exception it makes is no work */
    if (lf_pysem_is_function_node(n) || lf_tree_is(n, "raise_statement"))
        return LF_WALK_SKIP;
    TSNode body;
    if (lf_tree_is(n, "yield") || (lf_tree_is(n, "call") && !opens_handle(w->p->m, n, w->lock_handle) &&
                                   call_writes(w->p, n, &body) != 0)) {
        w->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* A module function judged by its own body (memoised per scope). */
static int function_writes(hpass *p, TSNode body) {
    int32_t sc = lf_pysem_scope_of(p->m, body);
    if (!p->writes_memo[sc]) {
        write_walk w = {.p = p};
        lf_tree_walk(body, visit_write_direct, &w);
        p->writes_memo[sc] = (unsigned char)(1 + w.found);
    }
    return p->writes_memo[sc] == 2;
}

static lf_walk_action visit_write(TSNode n, void *ud) {
    write_walk *w = ud;
    if (lf_pysem_is_function_node(n) || lf_tree_is(n, "raise_statement"))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "yield")) {
        w->found = 1; /* the caller's with body runs here */
        return LF_WALK_STOP;
    }
    if (!lf_tree_is(n, "call"))
        return LF_WALK_CONTINUE;
    TSNode body;
    int r = call_writes(w->p, n, &body);
    if (r > 0 || (r < 0 && function_writes(w->p, body))) {
        w->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int nodes_may_write(hpass *p, const TSNode *nodes, size_t n) {
    write_walk w = {.p = p};
    for (size_t i = 0; i < n && !w.found; i++)
        lf_tree_walk(nodes[i], visit_write, &w);
    return w.found;
}

/* ---- helpers and their callers ---- */

typedef enum role {
    ROLE_WORK = 0,    /* does its own critical section */
    ROLE_CM,          /* a @contextmanager: the caller's with body runs at its yield */
    ROLE_ACQUIRE,     /* returns holding the lock: __enter__, acquire(), no release of its own */
} role;

int lf101_is_contextmanager(lf_pysem *m, TSNode fn) {
    TSNode dd = ts_node_parent(fn);
    if (!lf_tree_is(dd, "decorated_definition"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(dd); i++) {
        TSNode d = ts_node_named_child(dd, i);
        if (!lf_tree_is(d, "decorator"))
            continue;
        const char *q = lf_pysem_qualname(m, ts_node_named_child(d, 0));
        if (q && (!strcmp(q, "contextlib.contextmanager") || !strcmp(q, "contextlib.asynccontextmanager")))
            return 1;
    }
    return 0;
}

/* Does the function return "acquired" somewhere (`return True`, `return self`)? */
static int returns_acquired(lf_pysem *m, int32_t scope) {
    size_t lo, hi;
    scope_stmts(m, scope, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        if (m->stmts[i].scope != scope || !lf_tree_is(m->stmts[i].node, "return_statement"))
            continue;
        TSNode v = lf_tree_unparen(ts_node_named_child(m->stmts[i].node, 0));
        if (lf_tree_is(v, "true") || (lf_tree_is(v, "identifier") && lf_tree_text_eq(m->src, v, "self")))
            return 1;
    }
    return 0;
}

/* Is the lock call's handle a file a `with` around it opened (`with
 * open(p) as pf: fcntl.flock(pf, ...)`)? Closing it at the block's end
 * releases the lock: the function gives back what it takes (`is_locked()`
 * probing with LOCK_NB), it hands no lock to its caller. */
static int lock_closed_by_with(lf_pysem *m, TSNode lock_call) {
    TSNode args = lf_tree_field(lock_call, "arguments");
    TSNode h = ts_node_named_child_count(args) ? lf_tree_unparen(ts_node_named_child(args, 0)) : (TSNode){0};
    if (lf_tree_is(h, "call") && lf_tree_is(lf_tree_field(h, "function"), "attribute") &&
        lf_tree_text_eq(m->src, lf_tree_field(lf_tree_field(h, "function"), "attribute"), "fileno"))
        h = lf_tree_field(lf_tree_field(h, "function"), "object"); /* flock(pf.fileno(), ...) */
    if (!lf_tree_is(h, "identifier"))
        return 0;
    for (TSNode up = ts_node_parent(lock_call); !ts_node_is_null(up); up = ts_node_parent(up)) {
        if (lf_tree_is(up, "function_definition"))
            return 0;
        if (!lf_tree_is(up, "with_statement"))
            continue;
        TSNode clause = ts_node_named_child(up, 0);
        for (uint32_t i = 0; lf_tree_is(clause, "with_clause") && i < ts_node_named_child_count(clause); i++) {
            TSNode item = lf_tree_field(ts_node_named_child(clause, i), "value");
            if (lf_tree_is(item, "as_pattern")) {
                TSNode alias = lf_tree_field(item, "alias");
                TSNode name = ts_node_named_child_count(alias) ? ts_node_named_child(alias, 0) : alias;
                if (lf_tree_is(name, "identifier") && lf_tree_equal(m->src, name, m->src, h, 0))
                    return 1;
            }
        }
    }
    return 0;
}

/* A helper hands its lock to the caller: a @contextmanager, an `__enter__`, or
 * a function that never releases the lock and returns "acquired" (True, self)
 * or does nothing else. */
static role role_of(hpass *p, int32_t scope) {
    lf_pysem *m = p->m;
    TSNode fn = m->scopes[scope].node;
    if (lf101_is_contextmanager(m, fn))
        return ROLE_CM;
    const char *name = m->scopes[scope].name;
    if (!strcmp(name, "__enter__") || !strcmp(name, "__aenter__"))
        return ROLE_ACQUIRE;
    if (!ts_node_is_null(find_in(p, lf_tree_field(fn, "body"), 1)))
        return ROLE_WORK;
    TSNode lock = find_in(p, lf_tree_field(fn, "body"), 0);
    if (!ts_node_is_null(lock) && lock_closed_by_with(m, lock))
        return ROLE_WORK;
    /* No release: it returns "acquired", or it does nothing but take the lock
     * (`def _platform_lock(fd): if fcntl: flock(..) elif msvcrt: locking(..)`). */
    if (returns_acquired(m, scope) || !function_writes(p, lf_tree_field(fn, "body")))
        return ROLE_ACQUIRE;
    /* it opens the file it locks, and does nothing else */
    TSNode args = ts_node_is_null(lock) ? lock : lf_tree_field(lock, "arguments");
    TSNode handle = ts_node_is_null(args) || !ts_node_named_child_count(args)
                        ? (TSNode){0}
                        : lf_tree_unparen(ts_node_named_child(args, 0));
    if (!ts_node_is_null(handle) && (lf_tree_is(handle, "identifier") || lf_tree_is(handle, "attribute"))) {
        write_walk w = {.p = p, .lock_handle = handle};
        lf_tree_walk(lf_tree_field(fn, "body"), visit_write_direct, &w);
        if (!w.found)
            return ROLE_ACQUIRE;
    }
    return ROLE_WORK;
}

typedef struct helper {
    int32_t scope;
    role role;
    TSNode at;             /* the root bug: the test, the handler */
    unsigned exits;        /* how the unlocked path completes */
    const lf_pyoptional *module; /* the absent provider, or NULL for a swallowed error */
    TSNode test;           /* the absent provider's condition (an `if` or `elif` test) */
    int several;           /* the path needs several providers missing (`and`, an elif chain) */
    int test_holds;        /* the unlocked path is taken when the test holds (`if fcntl is None:`) */
    const lf_pybinding *conditional_import; /* a handler swallowing the NameError of a lock module
                                               imported on one path only (`except ImportError: import fcntl`) */
    int timeout_false;     /* no root bug in the helper, but it returns False on a path (a timeout) */
    char *import_fallback; /* a lock module imported in the function, whose ImportError handler goes on */
    int gives_up;          /* a retry loop that stops waiting and goes on: GIVEUP_BREAK, GIVEUP_EXHAUSTED */
    /* Every "not acquired" result is reached only when this parameter, True
     * by default, is falsy (`blocking=True`; `if not blocking: return False`):
     * a caller that does not pass it never gets one. NULL when not so. */
    char *false_mode;
    int false_mode_pos; /* its position among the arguments a caller passes; -1: keyword-only */
    int another_root;   /* the function's second root bug (a give-up beside a missing module) */
} helper;

enum { GIVEUP_BREAK = 1, GIVEUP_EXHAUSTED = 2 };

/* The class a call constructs (`C(...)` with C a class of this module), or -1. */
static int32_t constructed_class(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "identifier"))
        return -1;
    char *name = lf_tree_text(m->src, fn);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, fn), name, ts_node_start_byte(fn));
    free(name);
    if (!b || b->kind != LF_PYBIND_DEF || !lf_tree_is(b->value, "class_definition"))
        return -1;
    return lf_pysem_scope_of(m, lf_tree_field(b->value, "body"));
}

/* `return` or `return None`. */
static int returns_none(TSNode ret) {
    TSNode v = lf_tree_unparen(ts_node_named_child(ret, 0));
    return ts_node_is_null(v) || lf_tree_is(v, "none");
}

/* ---- "not acquired" only in a mode the caller asks for ---- */

/* Is `name` a parameter of function fn with a default of True? *pos: its
 * position among the arguments a caller passes (self/cls aside), -1 when
 * keyword-only. */
static int param_true_by_default(const lf_source *src, TSNode fn, TSNode name, int *pos) {
    TSNode params = lf_tree_field(fn, "parameters");
    int idx = 0, kwonly = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode q = ts_node_named_child(params, i);
        if (lf_tree_is(q, "list_splat_pattern") || lf_tree_is(q, "keyword_separator")) {
            kwonly = 1;
            continue;
        }
        if (lf_tree_is(q, "dictionary_splat_pattern") || lf_tree_is(q, "positional_separator"))
            continue;
        TSNode nm = q, def = {0};
        if (lf_tree_is(q, "default_parameter") || lf_tree_is(q, "typed_default_parameter")) {
            nm = lf_tree_field(q, "name");
            def = lf_tree_field(q, "value");
        } else if (lf_tree_is(q, "typed_parameter")) {
            nm = ts_node_named_child(q, 0);
        }
        if (i == 0 && (lf_tree_text_eq(src, nm, "self") || lf_tree_text_eq(src, nm, "cls")))
            continue;
        if (lf_tree_equal(src, nm, src, name, 0)) {
            *pos = kwonly ? -1 : idx;
            return !ts_node_is_null(def) && lf_tree_is(lf_tree_unparen(def), "true");
        }
        if (!kwonly)
            idx++;
    }
    return 0;
}

/* The name whose falsy value alone leads to x in function fn: x inside `if
 * not NAME:`, or after `if NAME: <never falls through>` in a block around
 * it. Null when none. */
static TSNode falsy_guard(lf_pysem *m, TSNode fn, TSNode x) {
    TSNode body = lf_tree_field(fn, "body");
    for (TSNode n = x; !ts_node_is_null(n) && !ts_node_eq(n, body);) {
        TSNode par = ts_node_parent(n);
        if (ts_node_is_null(par) || lf_pysem_is_function_node(par))
            break;
        if (lf_tree_is(par, "if_statement") && ts_node_eq(lf_tree_field(par, "consequence"), n)) {
            TSNode c = lf_tree_unparen(lf_tree_field(par, "condition"));
            if (lf_tree_is(c, "not_operator")) {
                TSNode a = lf_tree_unparen(lf_tree_field(c, "argument"));
                if (lf_tree_is(a, "identifier"))
                    return a;
            }
        }
        if (lf_tree_is(par, "block"))
            for (TSNode sib = ts_node_prev_named_sibling(n); !ts_node_is_null(sib); sib = ts_node_prev_named_sibling(sib)) {
                if (!lf_tree_is(sib, "if_statement") || !ts_node_is_null(lf_tree_field(sib, "alternative")))
                    continue;
                TSNode c = lf_tree_unparen(lf_tree_field(sib, "condition"));
                if (lf_tree_is(c, "identifier") && !(block_exits(m, lf_tree_field(sib, "consequence")) & EXIT_FALLS))
                    return c;
            }
        n = par;
    }
    return (TSNode){0};
}

typedef struct false_exits {
    lf_pysem *m;
    int generator; /* a context manager's: its result is what it yields; a return ends it */
    LF_VEC(TSNode) at;
    int other; /* a `return None` / bare `return`: another "not acquired" spelling */
} false_exits;

static lf_walk_action visit_false_exit(TSNode n, void *ud) {
    false_exits *f = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "return_statement")) {
        if (f->generator)
            return LF_WALK_CONTINUE;
        if (return_kind(f->m, n) == EXIT_RET_FALSE)
            LF_VEC_PUSH(&f->at, n);
        else if (returns_none(n))
            f->other = 1;
    } else if (lf_tree_is(n, "yield") && lf_tree_is(lf_tree_unparen(ts_node_named_child(n, 0)), "false")) {
        LF_VEC_PUSH(&f->at, n);
    }
    return LF_WALK_CONTINUE;
}

/* The parameter every "not acquired" result of function `scope` needs falsy
 * (malloc'd name, *pos as param_true_by_default), or NULL. */
static char *false_only_in_mode(lf_pysem *m, int32_t scope, int generator, int *pos) {
    TSNode fn = m->scopes[scope].node;
    false_exits f = {m, generator, {0}, 0};
    lf_tree_walk(lf_tree_field(fn, "body"), visit_false_exit, &f);
    TSNode name = {0};
    int ok = f.at.len > 0 && !f.other;
    for (size_t i = 0; i < f.at.len && ok; i++) {
        TSNode g = falsy_guard(m, fn, f.at.items[i]);
        ok = !ts_node_is_null(g) && (ts_node_is_null(name) || lf_tree_equal(m->src, g, m->src, name, 0));
        name = g;
    }
    LF_VEC_FREE(&f.at);
    if (!ok || !param_true_by_default(m->src, fn, name, pos))
        return NULL;
    return lf_tree_text(m->src, name);
}

/* Does the call pass a value that may be falsy for that parameter? */
static int call_may_ask_mode(const lf_source *src, TSNode call, const char *name, int pos) {
    TSNode args = lf_tree_field(call, "arguments");
    int positional = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "keyword_argument")) {
            if (lf_tree_text_eq(src, lf_tree_field(a, "name"), name))
                return !lf_tree_is(lf_tree_unparen(lf_tree_field(a, "value")), "true");
        } else if (lf_tree_is(a, "list_splat") || lf_tree_is(a, "dictionary_splat")) {
            return 1; /* unknown arguments */
        } else if (!lf_tree_is(a, "comment")) {
            if (pos >= 0 && positional == pos)
                return !lf_tree_is(lf_tree_unparen(a), "true");
            positional++;
        }
    }
    return 0;
}

/* Does `call` run helper h (a call of the function, a method call on an
 * instance of its class, or, for __enter__, the construction in a with)? */
static int calls_helper(lf_pysem *m, const lf_pycall *c, const helper *h) {
    const lf_pyscope *hs = &m->scopes[h->scope];
    TSNode fn = lf_tree_unparen(lf_tree_field(c->node, "function"));
    if (hs->cls < 0) {
        if (!lf_tree_is(fn, "identifier") || !lf_tree_text_eq(m->src, fn, hs->name))
            return 0;
        const lf_pybinding *b = lf_pysem_binding_at(m, c->scope, hs->name, ts_node_start_byte(fn));
        return b && b->kind == LF_PYBIND_DEF && ts_node_eq(b->value, hs->node);
    }
    if (!strcmp(hs->name, "__enter__") || !strcmp(hs->name, "__aenter__"))
        return constructed_class(m, c->node) == hs->cls;
    if (!lf_tree_is(fn, "attribute") || !lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), hs->name))
        return 0;
    TSNode recv = lf_tree_unparen(lf_tree_field(fn, "object"));
    if (lf_tree_is(recv, "identifier") && lf_tree_text_eq(m->src, recv, "self"))
        return m->scopes[c->scope].cls == hs->cls;
    TSNode v = lf_pysem_resolve_value(m, recv);
    return lf_tree_is(v, "call") && constructed_class(m, v) == hs->cls;
}

/* The with statement whose item is exactly this call (or `call as x`), with
 * the as-target in *target; else null. */
static TSNode with_of(lf_pysem *m, const lf_pycall *c, TSNode *target) {
    *target = (TSNode){0};
    if (c->stmt < 0 || !lf_tree_is(m->stmts[c->stmt].node, "with_statement"))
        return (TSNode){0};
    TSNode w = m->stmts[c->stmt].node;
    TSNode clause = lf_tree_child(w, 0);
    for (uint32_t i = 0; i < lf_tree_child_count(clause); i++) {
        TSNode v = lf_tree_field(lf_tree_child(clause, i), "value");
        TSNode t = (TSNode){0};
        if (lf_tree_is(v, "as_pattern")) {
            t = lf_tree_field(v, "alias");
            v = ts_node_named_child(v, 0);
        }
        if (ts_node_eq(lf_tree_unparen(v), c->node)) {
            *target = t;
            return w;
        }
    }
    return (TSNode){0};
}

/* A with body that tests its as-target and leaves when it says "not locked". */
static int body_checks(lf_pysem *m, TSNode body, TSNode target) {
    if (ts_node_is_null(target))
        return 0;
    char *name = lf_tree_text(m->src, target);
    int ok = 0;
    for (int32_t s = lf_pysem_first_in_block(m, body); s >= 0 && !ok; s = lf_pysem_next_sibling(m, s)) {
        TSNode st = m->stmts[s].node;
        if (lf_tree_is(st, "if_statement") && lf_tree_mentions(m->src, lf_tree_field(st, "condition"), name, NULL) &&
            !(block_exits(m, lf_tree_field(st, "consequence")) & EXIT_FALLS))
            ok = 1;
    }
    free(name);
    return ok;
}

typedef struct callers {
    size_t uses;          /* calls of the helper in the module */
    size_t writing;       /* of which run a writing critical section with the result unchecked */
    TSNode first_writing; /* the first such call's statement */
    LF_VEC(TSNode) ignoring; /* bare-statement calls with a writing section after them */
    LF_VEC(int32_t) ignoring_scope;
    TSNode enter_call;    /* `def __enter__(self): self.acquire(); return self`: the bare call */
} callers;

#define MAX_FORWARDS 8

/* Is call c a bare statement of an `__enter__` (or `__aenter__`) whose only
 * other statement after it is `return self`? Then the method hands on
 * whatever the call took. */
static int enter_forwards(lf_pysem *m, const lf_pycall *c) {
    const lf_pyscope *sc = &m->scopes[c->scope];
    if (sc->kind != LF_PYSCOPE_FUNCTION || sc->cls < 0 ||
        (strcmp(sc->name, "__enter__") != 0 && strcmp(sc->name, "__aenter__") != 0))
        return 0;
    TSNode st = m->stmts[c->stmt].node;
    TSNode e = lf_tree_is(st, "expression_statement") ? lf_tree_unparen(lf_tree_child(st, 0)) : (TSNode){0};
    if (lf_tree_is(e, "await"))
        e = lf_tree_unparen(ts_node_named_child(e, 0));
    if (!ts_node_eq(e, c->node) || m->stmts[c->stmt].clause != LF_PYCLAUSE_TOP)
        return 0;
    for (int32_t x = lf_pysem_next_sibling(m, c->stmt); x >= 0; x = lf_pysem_next_sibling(m, x)) {
        TSNode r = m->stmts[x].node;
        TSNode v = lf_tree_is(r, "return_statement") ? lf_tree_unparen(ts_node_named_child(r, 0)) : (TSNode){0};
        if (!lf_tree_is(v, "identifier") || !lf_tree_text_eq(m->src, v, "self"))
            return 0;
    }
    return 1;
}

static void find_callers(hpass *p, const helper *h, callers *out) {
    lf_pysem *m = p->m;
    /* The helper, then the module's functions that only hand it on: `return
     * helper(...)` (`def state_lock(b): return exclusive_file_lock(path_of(b))`)
     * is no use of its own; the wrapper's callers are the helper's. */
    int32_t targets[MAX_FORWARDS];
    size_t n_targets = 1;
    targets[0] = h->scope;
    for (size_t t = 0; t < n_targets; t++) {
        helper via = *h;
        via.scope = targets[t];
        for (size_t i = 0; i < m->n_calls; i++) {
            const lf_pycall *c = &m->calls[i];
            if (c->stmt < 0 || c->scope == via.scope || !calls_helper(m, c, &via))
                continue;
            TSNode st0 = m->stmts[c->stmt].node;
            int returns_it = lf_tree_is(st0, "return_statement") &&
                             ts_node_eq(lf_tree_unparen(ts_node_named_child(st0, 0)), c->node) &&
                             m->scopes[c->scope].kind == LF_PYSCOPE_FUNCTION && m->scopes[c->scope].cls < 0 &&
                             !lf101_is_contextmanager(m, m->scopes[c->scope].node);
            if (returns_it && t == 0 && h->false_mode &&
                !call_may_ask_mode(m->src, c->node, h->false_mode, h->false_mode_pos))
                continue; /* hands on only the mode that never gets "not acquired" */
            /* or `def __enter__(self): self.acquire(); return self`: the lock's
             * `with` callers are the helper's */
            if (returns_it || enter_forwards(m, c)) {
                if (t == 0 && !returns_it && ts_node_is_null(out->enter_call) &&
                    !(h->false_mode && !call_may_ask_mode(m->src, c->node, h->false_mode, h->false_mode_pos)))
                    out->enter_call = m->stmts[c->stmt].node;
                int seen = 0;
                for (size_t k = 0; k < n_targets; k++)
                    seen |= targets[k] == c->scope;
                if (!seen && n_targets < MAX_FORWARDS) {
                    targets[n_targets++] = c->scope;
                    continue;
                }
            }
            out->uses++;
            if (t == 0 && h->false_mode && !call_may_ask_mode(m->src, c->node, h->false_mode, h->false_mode_pos))
                continue; /* never gets "not acquired": it waits or raises */
            TSNode target;
            TSNode w = with_of(m, c, &target);
            node_vec section = {0};
            int bare = 0;
            if (!ts_node_is_null(w)) {
                TSNode body = lf_tree_field(w, "body");
                if (!body_checks(m, body, target))
                    LF_VEC_PUSH(&section, body);
            } else {
                TSNode st = m->stmts[c->stmt].node;
                TSNode e = lf_tree_is(st, "expression_statement") ? lf_tree_unparen(lf_tree_child(st, 0)) : (TSNode){0};
                if (lf_tree_is(e, "await"))
                    e = lf_tree_unparen(ts_node_named_child(e, 0));
                if (ts_node_eq(e, c->node)) {
                    bare = 1;
                    for (int32_t x = lf_pysem_next_sibling(m, c->stmt); x >= 0; x = lf_pysem_next_sibling(m, x))
                        LF_VEC_PUSH(&section, m->stmts[x].node);
                }
            }
            if (section.len && nodes_may_write(p, section.items, section.len)) {
                if (!out->writing++)
                    out->first_writing = m->stmts[c->stmt].node;
                if (bare) {
                    LF_VEC_PUSH(&out->ignoring, m->stmts[c->stmt].node);
                    LF_VEC_PUSH(&out->ignoring_scope, c->scope);
                }
            }
            LF_VEC_FREE(&section);
        }
    }
}

static void callers_free(callers *c) {
    LF_VEC_FREE(&c->ignoring);
    LF_VEC_FREE(&c->ignoring_scope);
}

/* ---- the root bugs inside one function ---- */

/* -1 when the condition means "the lock provider is absent" (a presence test,
 * or an `and` of absence tests: `fcntl is None and msvcrt is None`), +1 when
 * it means present, 0 otherwise. */
static int absence_test(lf_pysem *m, TSNode cond, const lf_pyoptional **which) {
    int s = lf_pysem_presence_test(m, cond, which);
    if (s)
        return s;
    node_vec todo = {0};
    LF_VEC_PUSH(&todo, lf_tree_unparen(cond));
    int all_absent = 1, n = 0;
    while (todo.len && all_absent) {
        TSNode c = todo.items[--todo.len];
        if (ts_node_is_null(c)) { /* an operand the grammar's recovery left out: no absence test */
            all_absent = 0;
            continue;
        }
        if (lf_tree_is(c, "boolean_operator") && lf_tree_text_eq(m->src, lf_tree_field(c, "operator"), "and")) {
            LF_VEC_PUSH(&todo, lf_tree_unparen(lf_tree_field(c, "left")));
            LF_VEC_PUSH(&todo, lf_tree_unparen(lf_tree_field(c, "right")));
            continue;
        }
        n++;
        if (lf_pysem_presence_test(m, c, which) >= 0)
            all_absent = 0;
    }
    LF_VEC_FREE(&todo);
    return all_absent && n > 1 ? -1 : 0;
}

/* Does the unlocked path, ending in `exits` (and holding a yield or not),
 * complete the helper as if it had locked? */
static int completes_unlocked(role r, unsigned exits, int yields) {
    if (r == ROLE_CM)
        return yields;
    if (r == ROLE_ACQUIRE)
        return (exits & (EXIT_RET_OTHER | EXIT_RET_FALSE)) != 0;
    return 0;
}

/* Platform coverage of a lock module of the standard library: fcntl is in
 * every POSIX CPython, msvcrt in every Windows one (1 and 2); 0 for the
 * others (portalocker, filelock: packages that may be missing anywhere). */
static unsigned platform_coverage(const lf_pyoptional *o) {
    if (!o || !o->module)
        return 0;
    size_t top = strcspn(o->module, ".");
    if (top == 5 && !strncmp(o->module, "fcntl", 5))
        return 1;
    if (top == 6 && !strncmp(o->module, "msvcrt", 6))
        return 2;
    return 0;
}

/* The platform coverage of the modules an `and` of absence tests names
 * (`fcntl is None and msvcrt is None`). */
static unsigned and_coverage(lf_pysem *m, TSNode cond) {
    node_vec todo = {0};
    LF_VEC_PUSH(&todo, lf_tree_unparen(cond));
    unsigned covered = 0;
    while (todo.len) {
        TSNode c = todo.items[--todo.len];
        if (lf_tree_is(c, "boolean_operator") && lf_tree_text_eq(m->src, lf_tree_field(c, "operator"), "and")) {
            LF_VEC_PUSH(&todo, lf_tree_unparen(lf_tree_field(c, "left")));
            LF_VEC_PUSH(&todo, lf_tree_unparen(lf_tree_field(c, "right")));
            continue;
        }
        const lf_pyoptional *o = NULL;
        if (lf_pysem_presence_test(m, c, &o) < 0)
            covered |= platform_coverage(o);
    }
    LF_VEC_FREE(&todo);
    return covered;
}

/* The absent-provider path of an if statement: `if ABSENT: A` -> A (-1);
 * `if PRESENT: P else: E` -> E, `if PRESENT: P` -> null, then the code after
 * the if (1, or 2 when P itself falls through, holding the lock there). 0: not
 * such a test. Elif chains: every elif must test a provider and lock. */
static int absent_branch(hpass *p, TSNode ifs, const lf_pyoptional **o, TSNode *blk, TSNode *at, int *several) {
    lf_pysem *m = p->m;
    int pres = absence_test(m, lf_tree_field(ifs, "condition"), o);
    if (!pres)
        return 0;
    TSNode cons = lf_tree_field(ifs, "consequence"), els = (TSNode){0};
    *blk = (TSNode){0};
    *several = lf_pysem_presence_test(m, lf_tree_field(ifs, "condition"), o) == 0;
    *at = ifs;
    unsigned covered = *several && pres < 0 ? and_coverage(m, lf_tree_field(ifs, "condition")) : platform_coverage(*o);
    if (covered == 3)
        return 0; /* `if fcntl is None and msvcrt is None:` never holds on CPython */
    for (uint32_t i = 0; i < ts_node_named_child_count(ifs); i++) {
        TSNode c = ts_node_named_child(ifs, i);
        if (lf_tree_is(c, "elif_clause")) {
            const lf_pyoptional *o2 = NULL;
            if (pres < 0 || lf_pysem_presence_test(m, lf_tree_field(c, "condition"), &o2) <= 0 ||
                ts_node_is_null(find_in(p, lf_tree_field(c, "consequence"), 0)))
                return 0;
            *several = 1;
            covered |= platform_coverage(o2);
            /* `if fcntl: flock elif msvcrt: locking else: <no lock>`: one of the
             * two is on every platform CPython runs on, so the path with neither
             * never runs. */
            if (covered == 3)
                return 0;
        } else if (lf_tree_is(c, "else_clause")) {
            els = lf_tree_field(c, "body"); /* reported at the test, not here: the test decides */
        }
    }
    if (pres < 0) {
        *blk = cons;
        return ts_node_is_null(find_in(p, cons, 0)) ? -1 : 0;
    }
    if (ts_node_is_null(find_in(p, cons, 0)))
        return 0; /* the present branch takes no lock: not the lock's test */
    *blk = els;
    if (!ts_node_is_null(els) && !ts_node_is_null(find_in(p, els, 0)))
        return 0;
    /* +2: the locked branch goes on past the if (the lock stays held there) */
    return (block_exits(m, cons) & EXIT_FALLS) ? 2 : 1;
}

/* The handler catches what a failed acquisition raises (contention aside
 * when `skip_contention`): returns 1 when it does. */
static int handler_catches_failure(lf_pysem *m, TSNode exc, int skip_contention) {
    TSNode v = lf_tree_field(exc, "value");
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    if (ts_node_is_null(v))
        return 1;
    static const char *const failures[] = {"OSError", "IOError", "EnvironmentError", "PermissionError",
                                           "Exception", "BaseException", "NameError", "AttributeError",
                                           "TypeError", NULL};
    static const char *const contention[] = {"FileExistsError", "BlockingIOError", "TimeoutError", NULL};
    node_vec names = {0};
    if (lf_tree_is(v, "tuple") || lf_tree_is(v, "parenthesized_expression")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(v); i++)
            LF_VEC_PUSH(&names, ts_node_named_child(v, i));
    } else {
        LF_VEC_PUSH(&names, v);
    }
    int hit = 0;
    for (size_t i = 0; i < names.len && !hit; i++) {
        const char *q = lf_pysem_qualname(m, names.items[i]);
        for (size_t k = 0; q && failures[k]; k++)
            if (!strcmp(q, failures[k]))
                hit = 1;
        for (size_t k = 0; q && !skip_contention && contention[k]; k++)
            if (!strcmp(q, contention[k]))
                hit = 1;
    }
    LF_VEC_FREE(&names);
    return hit;
}

/* What runs after statement `st` falls through, for role r: a yield (CM), a
 * return as if locked (ACQUIRE), or a write (WORK). */
static int after_is_section(hpass *p, int32_t st, role r) {
    node_vec rest = {0};
    rest_of_function(p->m, st, &rest);
    int hit;
    if (r == ROLE_CM) {
        hit = 0;
        for (size_t i = 0; i < rest.len && !hit; i++)
            hit = contains_kind(rest.items[i], "yield");
    } else if (r == ROLE_ACQUIRE) {
        hit = 1;
    } else {
        hit = nodes_may_write(p, rest.items, rest.len);
    }
    LF_VEC_FREE(&rest);
    return hit;
}

/* Does the code that runs after statement `st` falls through take a lock
 * itself (`if not _WINDOWS: flock...; return True` then `msvcrt.locking(..)`
 * on the other platform)? Then that path is the other platform's lock, not a
 * fallback without one. */
static int rest_takes_lock(hpass *p, int32_t st) {
    node_vec rest = {0};
    rest_of_function(p->m, st, &rest);
    int hit = 0;
    for (size_t i = 0; i < rest.len && !hit; i++)
        hit = !ts_node_is_null(find_in(p, rest.items[i], 0));
    LF_VEC_FREE(&rest);
    return hit;
}

/* How the function goes on once statement `st` falls through: the exits of
 * the blocks around it, outwards while they fall through (off the end of the
 * function: a return of None, as the locked path's). */
static unsigned rest_exits(lf_pysem *m, int32_t st) {
    unsigned out = 0;
    int32_t scope = m->stmts[st].scope;
    for (int32_t s = st; s >= 0 && m->stmts[s].scope == scope; s = m->stmts[s].parent) {
        if (m->stmts[s].clause == LF_PYCLAUSE_LOOP_BODY)
            return out | EXIT_LOOPS;
        unsigned e = lf_pysem_next_sibling(m, s) >= 0 ? block_exits(m, m->stmts[s].block) : EXIT_FALLS;
        out |= e & ~EXIT_FALLS;
        if (!(e & EXIT_FALLS))
            return out;
    }
    return out | EXIT_RET_OTHER;
}

/* The first absent-provider test in function `scope` whose path completes
 * unlocked; fills h. */
static int find_absent_test(hpass *p, int32_t scope, helper *h) {
    lf_pysem *m = p->m;
    size_t lo, hi;
    scope_stmts(m, scope, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const lf_pystmt *s = &m->stmts[i];
        if (s->scope != scope || !lf_tree_is(s->node, "if_statement"))
            continue;
        const lf_pyoptional *o = NULL;
        TSNode blk, at;
        int several;
        int kind = absent_branch(p, s->node, &o, &blk, &at, &several);
        if (!kind)
            continue;
        unsigned exits = ts_node_is_null(blk) ? EXIT_FALLS : block_exits(m, blk);
        int yields = !ts_node_is_null(blk) && contains_kind(blk, "yield");
        /* Falling out of `if PRESENT:` reaches the code after the if. (Out of
         * `if ABSENT:` it reaches the locked code, which then fails.) */
        int falls = kind > 0 && (exits & EXIT_FALLS);
        exits &= ~EXIT_FALLS;
        if (falls && ts_node_is_null(blk) && rest_takes_lock(p, (int32_t)i))
            continue; /* `if PRESENT: <lock; return>` then another module's lock */
        if (falls) {
            exits |= rest_exits(m, (int32_t)i);
            yields = yields || after_is_section(p, (int32_t)i, ROLE_CM);
        }
        if (!(exits & ~EXIT_RAISES) && !(falls && h->role == ROLE_WORK))
            continue; /* refuses to go on without the lock */
        int ok;
        if (h->role == ROLE_WORK)
            /* Its own work after the if, where the locked branch goes on too (a
             * locked branch that returns makes the code after the if the
             * other path, which the main recogniser compares). */
            ok = falls && kind == 2 && after_is_section(p, (int32_t)i, ROLE_WORK);
        else
            ok = completes_unlocked(h->role, exits, yields);
        if (!ok)
            continue;
        /* `yield False` where the lock is missing: a result for the caller, like `return False`. */
        if (h->role == ROLE_CM && !ts_node_is_null(blk) && yields_only_false(blk))
            exits = (exits & ~EXIT_RET_OTHER) | EXIT_RET_FALSE;
        h->at = at;
        h->exits = exits;
        h->module = o;
        h->test = lf_tree_field(s->node, "condition");
        h->several = several;
        h->test_holds = kind < 0;
        return 1;
    }
    return 0;
}

typedef struct only_acq {
    hpass *p;
    int acquired, other;
} only_acq;

static lf_walk_action visit_only_acq(TSNode n, void *ud) {
    only_acq *o = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "call"))
        return LF_WALK_CONTINUE;
    static const char *const openers[] = {"open", "io.open", "os.open", "pathlib.Path.open", "os.fdopen", NULL};
    TSNode body;
    if (acquires_direct(o->p, n))
        o->acquired = 1;
    else if (!lf_pysem_call_is(o->p->m, n, openers) && !mkdir_exist_ok(o->p->m, n) && call_writes(o->p, n, &body) != 0)
        o->other = 1;
    return o->other ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

/* The try body only opens the lock file and takes the lock (itself, not
 * through a function doing more): its handler is about the acquisition, not
 * about the work. */
static int try_only_acquires(hpass *p, TSNode tr) {
    only_acq o = {p, 0, 0};
    lf_tree_walk(lf_tree_field(tr, "body"), visit_only_acq, &o);
    return o.acquired && !o.other;
}

/* The lock module the try body calls, when its only module-level binding is
 * an import in the handler (or else branch) of another import: bound only
 * where that import failed, a NameError everywhere else. */
static const lf_pybinding *conditional_import(lf_pysem *m, TSNode body) {
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (!lf_tree_within(c->node, body))
            continue;
        TSNode fn = lf_tree_unparen(lf_tree_field(c->node, "function"));
        while (lf_tree_is(fn, "attribute"))
            fn = lf_tree_unparen(lf_tree_field(fn, "object"));
        if (!lf_tree_is(fn, "identifier"))
            continue;
        char *name = lf_tree_text(m->src, fn);
        size_t n = 0;
        const lf_pybinding *const *bs = lf_pysem_bindings_of(m, 0, name, &n);
        free(name);
        if (n != 1 || bs[0]->kind != LF_PYBIND_IMPORT || !lf_pysem_is_lock_module(bs[0]->qualname) ||
            bs[0]->stmt < 0)
            continue;
        lf_pyclause cl = m->stmts[bs[0]->stmt].clause;
        if (m->stmts[bs[0]->stmt].parent >= 0 && (cl == LF_PYCLAUSE_EXCEPT_BODY || cl == LF_PYCLAUSE_ELSE_BODY))
            return bs[0];
    }
    return NULL;
}

/* Does the handler record the failure (`locked = False`, `self.held = False`)
 * in a name that an `if` after the try tests before leaving (`if not locked:
 * return`)? Then the failure is not swallowed. */
static int flag_tested_after(lf_pysem *m, TSNode handler, int32_t try_stmt) {
    node_vec rest = {0};
    rest_of_function(m, try_stmt, &rest);
    int hit = 0;
    for (int32_t s = lf_pysem_first_in_block(m, handler); s >= 0 && !hit; s = lf_pysem_next_sibling(m, s)) {
        TSNode a = lf_tree_unparen(lf_tree_child(m->stmts[s].node, 0));
        if (!lf_tree_is(m->stmts[s].node, "expression_statement") || !lf_tree_is(a, "assignment"))
            continue;
        TSNode t = lf_tree_field(a, "left");
        if (lf_tree_is(t, "attribute"))
            t = lf_tree_field(t, "attribute");
        if (!lf_tree_is(t, "identifier"))
            continue;
        char *name = lf_tree_text(m->src, t);
        for (size_t i = 0; i < rest.len && !hit; i++) {
            TSNode st = rest.items[i];
            hit = lf_tree_is(st, "if_statement") &&
                  lf_tree_mentions(m->src, lf_tree_field(st, "condition"), name, NULL) &&
                  !(block_exits(m, lf_tree_field(st, "consequence")) & EXIT_FALLS);
        }
        free(name);
    }
    LF_VEC_FREE(&rest);
    return hit;
}

int lf101_catches_import_error(lf_pysem *m, TSNode exc) {
    TSNode v = lf_tree_field(exc, "value");
    if (ts_node_is_null(v))
        return 1;
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    static const char *const names[] = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException", NULL};
    if (lf_tree_is(v, "tuple")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(v); i++)
            if (name_in(m, ts_node_named_child(v, i), names))
                return 1;
        return 0;
    }
    return name_in(m, v, names);
}

/* The lock module a try body imports first (`try: import fcntl`), or NULL;
 * *more is set when statements follow the imports (`try: import fcntl;
 * fcntl.flock(...)`). malloc'd. */
static char *imported_lock_module(lf_pysem *m, TSNode body, int *more) {
    char *found = NULL;
    *more = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        if (lf_tree_is(st, "comment"))
            continue;
        if (found && !lf_tree_is(st, "import_statement") && !lf_tree_is(st, "import_from_statement")) {
            *more = 1; /* the imports, then what uses them */
            return found;
        }
        TSNode name;
        if (lf_tree_is(st, "import_statement")) {
            name = ts_node_named_child(st, 0);
            if (lf_tree_is(name, "aliased_import"))
                name = lf_tree_field(name, "name");
        } else if (lf_tree_is(st, "import_from_statement")) {
            name = lf_tree_field(st, "module_name");
        } else {
            free(found);
            return NULL; /* the try does more than import */
        }
        char *text = ts_node_is_null(name) ? NULL : lf_tree_text(m->src, name);
        if (!found && text && lf_pysem_is_lock_module(text))
            found = text;
        else
            free(text);
    }
    return found;
}

/* A function importing its lock module itself (`try: import fcntl`), whose
 * ImportError handler goes on as if locked: returns as if acquired, yields in
 * a context manager, or falls into the work. */
static int find_import_fallback(hpass *p, int32_t scope, helper *h) {
    lf_pysem *m = p->m;
    size_t lo, hi;
    scope_stmts(m, scope, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const lf_pystmt *s = &m->stmts[i];
        if (s->scope != scope || !lf_tree_is(s->node, "try_statement"))
            continue;
        int more = 0;
        char *module = imported_lock_module(m, lf_tree_field(s->node, "body"), &more);
        /* A body that goes on after the import must take the lock there, in a
         * helper handing the lock to its caller: then a handler that goes on
         * (`pass`, then `return self` or `yield` after the try) hands over no
         * lock. In a function doing its own work, what follows such a try
         * need not be the section the lock was for. */
        if (module && more && (h->role == ROLE_WORK || ts_node_is_null(find_in(p, lf_tree_field(s->node, "body"), 0)))) {
            free(module);
            module = NULL;
        }
        if (!module)
            continue;
        for (uint32_t k = 0; k < ts_node_named_child_count(s->node); k++) {
            TSNode exc = ts_node_named_child(s->node, k);
            if (!lf_tree_is(exc, "except_clause") || !lf101_catches_import_error(m, exc))
                continue;
            TSNode blk = handler_block(exc);
            if (!ts_node_is_null(find_in(p, blk, 0)))
                continue; /* takes another lock there (`import msvcrt; msvcrt.locking(...)`) */
            unsigned exits = block_exits(m, blk);
            int ok = (h->role == ROLE_ACQUIRE && (exits & EXIT_RET_OTHER)) ||
                     (h->role == ROLE_CM && contains_kind(blk, "yield")) ||
                     ((exits & EXIT_FALLS) && after_is_section(p, (int32_t)i, h->role));
            if (!ok)
                continue;
            h->at = exc;
            h->exits = exits;
            h->module = NULL;
            h->import_fallback = module;
            return 1;
        }
        free(module);
    }
    return 0;
}


/* How function `scope`'s returns inside `within` (null: anywhere) end: bits
 * RET_TRUE, RET_NONE (`return` / `return None`), RET_FALSE (False, 0),
 * RET_OTHER. Nested scopes aside. */
enum { RET_TRUE = 1u << 0, RET_NONE = 1u << 1, RET_FALSE = 1u << 2, RET_OTHER = 1u << 3 };
static unsigned scope_returns(const lf_pysem *m, int32_t scope, TSNode within) {
    size_t lo, hi;
    unsigned out = 0;
    scope_stmts(m, scope, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        TSNode n = m->stmts[i].node;
        if (m->stmts[i].scope != scope || !lf_tree_is(n, "return_statement") ||
            (!ts_node_is_null(within) && !lf_tree_within(n, within)))
            continue;
        if (lf_tree_is(lf_tree_unparen(ts_node_named_child(n, 0)), "true"))
            out |= RET_TRUE;
        else if (returns_none(n))
            out |= RET_NONE;
        else if (return_kind(m, n) == EXIT_RET_FALSE)
            out |= RET_FALSE;
        else
            out |= RET_OTHER;
    }
    return out;
}

/* A helper returning True once locked and a falsy "not acquired" on some
 * other path: False, or None beside `return True` (the `Lock.acquire()`
 * contract: true if acquired, false if not). */
static int returns_false_somewhere(lf_pysem *m, int32_t scope) {
    unsigned r = scope_returns(m, scope, (TSNode){0});
    return (r & RET_FALSE) || ((r & RET_NONE) && (r & RET_TRUE));
}

/* The first handler swallowing an acquisition error in function `scope`. */
typedef struct leave_walk {
    lf_pysem *m;
    int need_yield;
    int found;
} leave_walk;

static lf_walk_action visit_leave(TSNode n, void *ud) {
    leave_walk *w = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "return_statement") || return_kind(w->m, n) != EXIT_RET_OTHER)
        return LF_WALK_CONTINUE;
    int yielded = !w->need_yield;
    for (TSNode b = ts_node_prev_named_sibling(n); !yielded && !ts_node_is_null(b); b = ts_node_prev_named_sibling(b))
        yielded = lf_tree_is(b, "expression_statement") && lf_tree_is(ts_node_named_child(b, 0), "yield") &&
                  !yields_only_false(b);
    if (!yielded)
        return LF_WALK_CONTINUE;
    w->found = 1;
    return LF_WALK_STOP;
}

/* Does a handler leave its retry loop, somewhere inside it, as if locked: a
 * `return` of anything but False (after a `yield` of anything but False in a
 * context manager), under an `if` of its own (`if time.monotonic() >=
 * deadline: yield; return`, the give-up once the wait is over)? */
static int leaves_as_locked(lf_pysem *m, TSNode blk, role r) {
    leave_walk w = {m, r == ROLE_CM, 0};
    lf_tree_walk(blk, visit_leave, &w);
    return w.found;
}

static int find_swallowing_handler(hpass *p, int32_t scope, helper *h) {
    lf_pysem *m = p->m;
    size_t lo, hi;
    scope_stmts(m, scope, &lo, &hi);
    /* first a handler of the acquisition's failure; then, in a retry loop, a
     * handler of contention that gives up as if locked once its wait is over
     * (the failure's handler is the root bug where there are both) */
    for (int giveup = 0; giveup < 2; giveup++)
    for (size_t i = lo; i < hi; i++) {
        const lf_pystmt *s = &m->stmts[i];
        if (s->scope != scope || !lf_tree_is(s->node, "try_statement") || !try_only_acquires(p, s->node))
            continue;
        /* in a loop's body, directly or under an `if` in it (`while True: if
         * not self._locked: try: open(p, "x") except ...`) */
        int in_loop = 0;
        for (int32_t a = (int32_t)i; a >= 0 && !in_loop && m->stmts[a].scope == scope; a = m->stmts[a].parent)
            in_loop = m->stmts[a].clause == LF_PYCLAUSE_LOOP_BODY;
        for (uint32_t k = 0; k < ts_node_named_child_count(s->node); k++) {
            TSNode exc = ts_node_named_child(s->node, k);
            if (!lf_tree_is(exc, "except_clause"))
                continue;
            TSNode blk = handler_block(exc);
            /* in a retry loop, contention (BlockingIOError, FileExistsError)
             * retries; a handler that gives up on it as if locked is the bug */
            if (!giveup ? !handler_catches_failure(m, exc, in_loop)
                        : !(in_loop && !handler_catches_failure(m, exc, 1) && handler_catches_failure(m, exc, 0) &&
                            leaves_as_locked(m, blk, h->role)))
                continue;
            if (!ts_node_is_null(find_in(p, blk, 0)))
                continue; /* takes the lock another way: a retry, not a fallback */
            unsigned exits = block_exits(m, blk);
            if (flag_tested_after(m, blk, (int32_t)i))
                continue; /* records the failure for a later test that leaves */
            /* A handler that only returns None, in an acquire that returns
             * True once locked, returns "not acquired" (distributed_lock's
             * FileLock.acquire): its callers can test it like False, and the
             * bug is a caller that ignores it (returns_false_somewhere). */
            if (h->role == ROLE_ACQUIRE && (exits & EXIT_RET_OTHER) &&
                scope_returns(m, scope, blk) == RET_NONE && (scope_returns(m, scope, (TSNode){0}) & RET_TRUE))
                exits = (exits & ~EXIT_RET_OTHER) | EXIT_RET_FALSE;
            /* `except OSError: yield False; return` in a context manager: the
             * caller is told it has no lock, as with `return False`. */
            if (h->role == ROLE_CM && yields_only_false(blk))
                exits = (exits & ~EXIT_RET_OTHER) | EXIT_RET_FALSE;
            int ok;
            if (in_loop) /* falling through retries: only leaving as if locked counts */
                ok = h->role != ROLE_WORK && (((exits & EXIT_RET_OTHER) &&
                                               (h->role != ROLE_CM || contains_kind(blk, "yield"))) ||
                                              leaves_as_locked(m, blk, h->role));
            else
                ok = (h->role == ROLE_ACQUIRE && (exits & EXIT_RET_OTHER)) ||
                     (h->role == ROLE_CM && contains_kind(blk, "yield")) ||
                     ((exits & EXIT_FALLS) && after_is_section(p, (int32_t)i, h->role));
            if (!ok)
                continue;
            h->at = exc;
            h->exits = exits;
            h->module = NULL;
            h->conditional_import = conditional_import(m, lf_tree_field(s->node, "body"));
            return 1;
        }
    }
    return 0;
}

/* ---- retry loops that give up ---- */

/* The names a loop assigns (`locked = True`, `self.held = False`,
 * `tries += 1`): where it could record that it never took the lock. */
typedef struct assigned_walk {
    lf_pysem *m;
    node_vec *names;
} assigned_walk;

static lf_walk_action visit_assigned(TSNode n, void *ud) {
    assigned_walk *a = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "assignment") && !lf_tree_is(n, "augmented_assignment"))
        return LF_WALK_CONTINUE;
    TSNode t = lf_tree_field(n, "left");
    if (lf_tree_is(t, "attribute"))
        t = lf_tree_field(t, "attribute");
    if (lf_tree_is(t, "identifier"))
        LF_VEC_PUSH(a->names, t);
    return LF_WALK_CONTINUE;
}

/* Does a test or a result after the loop read one of those names (`if not
 * locked: return`, `if locked: work()`, `return self.held`, a context
 * manager's `yield acquired`)? Then the give-up
 * is recorded and looked at; which way the code goes is not judged here. */
typedef struct tested_walk {
    lf_pysem *m;
    const node_vec *names;
    int hit;
} tested_walk;

static lf_walk_action visit_tested(TSNode n, void *ud) {
    tested_walk *t = ud;
    if (t->hit || lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    TSNode e = {0};
    if (lf_tree_is(n, "if_statement") || lf_tree_is(n, "elif_clause") || lf_tree_is(n, "while_statement"))
        e = lf_tree_field(n, "condition");
    else if (lf_tree_is(n, "return_statement") || lf_tree_is(n, "yield") || lf_tree_is(n, "assert_statement") ||
             lf_tree_is(n, "conditional_expression"))
        e = n;
    for (size_t i = 0; !ts_node_is_null(e) && i < t->names->len && !t->hit; i++) {
        char *name = lf_tree_text(t->m->src, t->names->items[i]);
        t->hit = lf_tree_mentions(t->m->src, e, name, NULL);
        free(name);
    }
    return t->hit ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

static int giveup_recorded(lf_pysem *m, int32_t loop) {
    node_vec names = {0}, rest = {0};
    assigned_walk a = {m, &names};
    lf_tree_walk(m->stmts[loop].node, visit_assigned, &a);
    tested_walk t = {m, &names, 0};
    rest_of_function(m, loop, &rest);
    for (size_t i = 0; i < rest.len && names.len && !t.hit; i++)
        lf_tree_walk(rest.items[i], visit_tested, &t);
    LF_VEC_FREE(&names);
    LF_VEC_FREE(&rest);
    return t.hit;
}

static int is_loop(TSNode n) { return lf_tree_is(n, "while_statement") || lf_tree_is(n, "for_statement"); }

/* The loop a `break` at statement b leaves, or -1. */
static int32_t loop_of_break(lf_pysem *m, int32_t b) {
    for (int32_t s = b; s >= 0 && m->stmts[s].scope == m->stmts[b].scope; s = m->stmts[s].parent)
        if (m->stmts[s].clause == LF_PYCLAUSE_LOOP_BODY)
            return m->stmts[s].parent;
    return -1;
}

/* The try around statement s whose except clause holds it, inside `loop`,
 * when that clause catches what a failed attempt raises (contention
 * included: `except BlockingIOError`, `except FileExistsError`), or -1. */
static int32_t handling_try(lf_pysem *m, int32_t s, int32_t loop) {
    for (; s >= 0 && s != loop; s = m->stmts[s].parent)
        if (m->stmts[s].clause == LF_PYCLAUSE_EXCEPT_BODY)
            return handler_catches_failure(m, m->stmts[s].clause_node, 0) ? m->stmts[s].parent : -1;
    return -1;
}

/* Does some path other than the give-up at node `from` arrive at `after`
 * holding the lock (the successful attempt's `break`)? The give-up's own
 * state does not count: it may carry a lock the CFG cannot rule out. */
static int other_arrives_held(const lf_cfg *g, const lf_cfg_lockstate *st, const uint64_t *gen, const uint64_t *kill,
                              uint32_t from, uint32_t after) {
    for (uint32_t v = 0; v < lf_cfg_size(g); v++) {
        if (v == from || !st->reachable[v] || !(((st->may_in[v] & ~kill[v]) | gen[v]) & 1))
            continue;
        const lf_cfg_edge *e = lf_cfg_edges_of(g, v);
        for (uint32_t k = 0; k < lf_cfg_node_at(g, v)->n_succ; k++)
            if (e[k].to == after && !e[k].exceptional)
                return 1;
    }
    return 0;
}

/* Does the loop try to take the lock in a try (a retry loop)? */
static int loop_retries_lock(hpass *p, int32_t loop) {
    lf_pysem *m = p->m;
    size_t lo, hi;
    scope_stmts(m, m->stmts[loop].scope, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        if (lf_tree_is(m->stmts[i].node, "try_statement") && lf_tree_within(m->stmts[i].node, m->stmts[loop].node) &&
            !ts_node_is_null(find_in(p, lf_tree_field(m->stmts[i].node, "body"), 0)))
            return 1;
    return 0;
}

/* The graph node control reaches when leaving loop node `l` other than into
 * its body: after the loop. -1 when it has none (`while True:`). */
static int32_t loop_exit(const lf_cfg *g, uint32_t l, TSNode loop) {
    const lf_cfg_edge *e = lf_cfg_edges_of(g, l);
    for (uint32_t k = 0; k < lf_cfg_node_at(g, l)->n_succ; k++) {
        const lf_cfg_node *to = lf_cfg_node_at(g, e[k].to);
        if (!e[k].exceptional && (e[k].to == LF_CFG_EXIT_ID || !lf_tree_within(to->stmt, loop)))
            return (int32_t)e[k].to;
    }
    return -1;
}

static uint32_t first_succ(const lf_cfg *g, uint32_t v) {
    const lf_cfg_edge *e = lf_cfg_edges_of(g, v);
    for (uint32_t k = 0; k < lf_cfg_node_at(g, v)->n_succ; k++)
        if (!e[k].exceptional)
            return e[k].to;
    return LF_CFG_EXIT_ID;
}

/* A retry loop that stops waiting and goes on as if it held the lock: a
 * `break` in the handler of a failed attempt (`if time.time() > deadline:
 * break`), or the loop running out of attempts (`for _ in range(50):` with
 * no else), where the lock is not held, while the loop's successful attempt
 * leaves it holding the lock (lf_pycfg's graph and lock state), and the
 * critical section after it runs either way: nothing after the loop tests or
 * returns what the loop recorded. Giving up by raising, returning or exiting
 * is no break and is not seen here. */
static int find_giveup(hpass *p, int32_t scope, helper *h) {
    lf_pysem *m = p->m;
    size_t lo, hi;
    scope_stmts(m, scope, &lo, &hi);
    int any = 0;
    for (size_t i = lo; i < hi && !any; i++)
        any = m->stmts[i].scope == scope && is_loop(m->stmts[i].node) && loop_retries_lock(p, (int32_t)i);
    if (!any)
        return 0;
    lf_cfg *g = lf_pycfg_build(m->src, m->scopes[scope].node);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        int32_t id = c->scope == scope ? lf_pycfg_node_of(m, g, c->node) : -1;
        if (id < 0)
            continue;
        if (acquires_direct(p, c->node))
            gen[id] = 1;
        else if (p->is_unlock(m, c->node) && !gen[id])
            kill[id] = 1;
    }
    lf_cfg_lockstate st;
    lf_cfg_lockstate_run(g, gen, kill, 0, &st);
    int found = 0;
    for (size_t i = lo; i < hi && !found; i++) {
        if (m->stmts[i].scope != scope)
            continue;
        TSNode s = m->stmts[i].node;
        int32_t loop = -1, id = lf_cfg_find(g, s), after = -1, kind = 0;
        if (id < 0 || !st.reachable[id])
            continue;
        if (lf_tree_is(s, "break_statement")) {
            /* the handler of a failed attempt gives up, the lock not held on
             * some path there */
            loop = loop_of_break(m, (int32_t)i);
            int32_t tr = loop >= 0 ? handling_try(m, (int32_t)i, loop) : -1;
            if (tr < 0 || ts_node_is_null(find_in(p, lf_tree_field(m->stmts[tr].node, "body"), 0)) ||
                (st.must_in[id] & 1))
                continue;
            after = (int32_t)first_succ(g, (uint32_t)id);
            kind = GIVEUP_BREAK;
        } else if (is_loop(s) && ts_node_is_null(lf_tree_field(s, "alternative")) && loop_retries_lock(p, (int32_t)i)) {
            /* the loop runs out of attempts with no lock held on any path */
            if (st.may_in[id] & 1)
                continue;
            loop = (int32_t)i;
            after = loop_exit(g, (uint32_t)id, s);
            kind = GIVEUP_EXHAUSTED;
        } else {
            continue;
        }
        /* the attempt that succeeds arrives there holding the lock */
        if (after < 0 || after == LF_CFG_EXIT_ID || !(st.may_in[after] & 1) ||
            !other_arrives_held(g, &st, gen, kill, (uint32_t)id, (uint32_t)after) || giveup_recorded(m, loop) ||
            !after_is_section(p, loop, h->role))
            continue;
        h->at = s;
        h->exits = EXIT_FALLS;
        h->module = NULL;
        h->gives_up = kind;
        found = 1;
    }
    lf_cfg_lockstate_free(&st);
    free(gen);
    free(kill);
    lf_cfg_free(g);
    return found;
}

/* ---- messages ---- */

static char *helper_label(lf_pysem *m, const helper *h) {
    const lf_pyscope *s = &m->scopes[h->scope];
    if (s->cls >= 0)
        return lf_xasprintf("%s.%s()", m->scopes[s->cls].name, s->name);
    return lf_xasprintf("%s()", s->name);
}

/* Where the unlocked path runs. */
static char *where_text(lf_pysem *m, const helper *h) {
    if (h->conditional_import)
        return lf_xasprintf("wherever the import of %s at line %u does not run", h->conditional_import->qualname,
                            line_of(m, h->conditional_import->target));
    if (h->module && h->several)
        return lf_xstrdup("wherever none of the lock modules it tests for can be imported");
    if (h->import_fallback)
        return lf101_where_missing(h->import_fallback);
    if (h->gives_up)
        return lf_xstrdup("whenever another process holds the lock longer than the wait");
    if (h->module)
        return lf101_where_missing(h->module->module);
    return lf_xstrdup("on every platform, whenever acquiring the lock fails");
}

static int has_elif(TSNode ifs) {
    for (uint32_t i = 0; i < ts_node_named_child_count(ifs); i++)
        if (lf_tree_is(ts_node_named_child(ifs, i), "elif_clause"))
            return 1;
    return 0;
}

/* Why that path is taken: the test, or the swallowed error. */
static char *cause_text(lf_pysem *m, const helper *h) {
    if (h->module) {
        char *cond = lf_tree_text(m->src, h->test);
        size_t n = strcspn(cond, "\n");
        char *out = lf_xasprintf("when `%.*s`%s %s", (int)(n > 60 ? 60 : n), cond, n > 60 ? "..." : "",
                                 h->test_holds                        ? "holds"
                                 : has_elif(ts_node_parent(h->test)) ? "and every elif test are false"
                                                                     : "is false");
        free(cond);
        return out;
    }
    if (h->conditional_import)
        return lf_xasprintf("when `%s` is unbound (it is only imported when another import fails), since this "
                            "handler swallows the NameError",
                            h->conditional_import->name);
    if (h->import_fallback)
        return lf_xasprintf("when importing %s fails, since this handler goes on without it", h->import_fallback);
    if (h->gives_up == GIVEUP_BREAK)
        return lf_xstrdup("when its wait for the lock ends, since this `break` gives up and leaves the retry loop "
                          "as if the lock were taken");
    if (h->gives_up == GIVEUP_EXHAUSTED)
        return lf_xstrdup("when its wait for the lock ends, since this retry loop runs out of attempts and goes on "
                          "as if the lock were taken");
    return lf_xstrdup("when acquiring it fails, since this handler swallows the error");
}

static void report_helper(hpass *p, const helper *h, const callers *cs, lf101_indirect_fn emit, void *ud) {
    lf_pysem *m = p->m;
    char *label = helper_label(m, h);
    char *where = where_text(m, h);
    char *cause = cause_text(m, h);
    int false_only = (h->exits & EXIT_RET_FALSE) && !(h->exits & (EXIT_RET_OTHER | EXIT_FALLS));
    const char *how;
    if (h->role == ROLE_CM)
        how = false_only ? "yields False without taking the lock" : "yields without taking the lock";
    else if (h->role == ROLE_ACQUIRE)
        how = false_only ? "returns False without taking the lock" : "returns as if it held the lock";
    else
        how = "goes on without the lock";
    char *sect;
    if (h->role == ROLE_WORK)
        sect = lf_xstrdup("the writes after it run unlocked");
    else if (cs->writing)
        sect = lf_xasprintf("%sthe critical section at line %u%s runs unlocked",
                            false_only ? "the result is not checked and " : "", line_of(m, cs->first_writing),
                            cs->writing > 1 ? " (and its other callers')" : "");
    else
        sect = lf_xstrdup("the critical sections of its callers in other modules run unlocked");
    char *msg = lf_xasprintf("the critical section is reachable without the lock: `%s` %s %s, so %s: unlocked %s",
                             label, how, cause, sect, where);
    char *decline;
    if (h->module && h->role == ROLE_CM)
        decline = lf_xasprintf("the unlocked path is inside the lock helper `%s`, whose locked and unlocked paths "
                               "are not one lock file opened, locked and released around a single `yield` in a "
                               "shape the rewrite knows",
                               label);
    else if (h->module && h->role == ROLE_ACQUIRE)
        decline = lf_xasprintf("the lock is taken through the helper `%s`, whose callers rely on what it returns; "
                               "the rewrite does not change a helper's contract",
                               label);
    else if (h->module)
        decline = lf_xstrdup("the lock file is opened and locked only on the locked path, and released in a "
                             "`finally` shared by both; the rewrite knows a lock taken around the work itself");
    else if (h->gives_up)
        decline = lf_xasprintf("the retry loop in `%s` decides what happens when the wait ends; whether to fail, "
                               "skip the work or wait longer is the code owner's choice",
                               label);
    else
        decline = lf_xasprintf("the handler decides what a failed acquisition means for `%s`; swapping it for "
                               "lockrt's bounded wait would change which errors the callers see",
                               label);
    /* Witness: both processes take the helper's no-lock path, then run the
     * first write it should have guarded. */
    char *entry = lf_xasprintf("takes the path where `%s` %s", label, how);
    TSNode first = h->role != ROLE_WORK && cs->writing ? cs->first_writing : h->at;
    lf_witness *w = lf_wit_unlocked_section(m->src, where, h->module ? LF_WIT_UNLOCKED : LF_WIT_ACQUIRE_FAILS, h->at,
                                            entry, first);
    free(entry);
    /* The root is the missing module alone (one provider; no give-up, no swallowed error). */
    lf101_missing missing = {h->import_fallback, h->several ? NULL : h->module};
    int only_missing = !h->gives_up && (missing.import_fallback || missing.module);
    emit(ud, h->scope, h->at, msg, decline, w, h->another_root, only_missing ? &missing : NULL);
    free(sect);
    free(cause);
    free(where);
    free(label);
}

static void report_ignoring(hpass *p, const helper *h, const callers *cs, lf101_indirect_fn emit, void *ud) {
    lf_pysem *m = p->m;
    char *label = helper_label(m, h);
    /* False when it gives up waiting; None (beside its True) when taking the lock fails. */
    int none = !(scope_returns(m, h->scope, (TSNode){0}) & RET_FALSE);
    for (size_t i = 0; i < cs->ignoring.len; i++) {
        TSNode st = cs->ignoring.items[i];
        int32_t next = lf_pysem_next_sibling(m, lf_pysem_stmt_index(m, st));
        char *msg = lf_xasprintf("the critical section is reachable without the lock: `%s` returns %s, this call "
                                 "ignores the result, and the work at line %u runs anyway: unlocked whenever %s",
                                 label, none ? "None when taking the lock fails" : "False when it gives up waiting",
                                 next >= 0 ? line_of(m, m->stmts[next].node) : line_of(m, st),
                                 none ? "taking the lock fails" : "another process holds the lock");
        char *decline = lf_xasprintf("the caller ignores the result of `%s`; what it should do when the lock is not "
                                     "taken (wait longer, skip, fail) is the code owner's choice",
                                     label);
        char *entry = lf_xasprintf(none ? "calls `%s`, which fails to take the lock and returns None"
                                        : "calls `%s`, which gives up waiting and returns False",
                                   label);
        lf_witness *w = lf_wit_unlocked_section(m->src,
                                                none ? "on every platform, whenever taking the lock fails"
                                                     : "on every platform, whenever another process holds the lock",
                                                LF_WIT_ACQUIRE_FAILS, st, entry,
                                                next >= 0 ? m->stmts[next].node : st);
        free(entry);
        emit(ud, cs->ignoring_scope.items[i], st, msg, decline, w, 0, NULL);
    }
    free(label);
}

/* An exported lock class (nothing in the module uses it) whose `__enter__`
 * calls an acquire that gives up and returns False, and ignores it: every
 * caller's `with` body runs unlocked when waiting fails. Reported once, at the
 * give-up (the handler returning False, else that return). */
static void report_exported_enter(hpass *p, const helper *h, const callers *cs, lf101_indirect_fn emit, void *ud) {
    lf_pysem *m = p->m;
    false_exits f = {m, 0, {0}, 0};
    lf_tree_walk(lf_tree_field(m->scopes[h->scope].node, "body"), visit_false_exit, &f);
    TSNode give_up = f.at.len ? f.at.items[0] : (TSNode){0};
    LF_VEC_FREE(&f.at);
    if (ts_node_is_null(give_up))
        return;
    TSNode at = give_up;
    for (TSNode up = ts_node_parent(give_up); !ts_node_is_null(up) && !lf_pysem_is_function_node(up);
         up = ts_node_parent(up))
        if (lf_tree_is(up, "except_clause")) {
            at = up;
            break;
        }
    char *label = helper_label(m, h);
    const char *cls = m->scopes[m->scopes[h->scope].cls].name;
    char *msg = lf_xasprintf("the critical section is reachable without the lock: `%s` gives up waiting and returns "
                             "False, and `%s.__enter__` (line %u) ignores the result and returns the lock: every "
                             "`with %s(...)` body runs unlocked whenever another process holds the lock",
                             label, cls, line_of(m, cs->enter_call), cls);
    char *decline = lf_xasprintf("`%s.__enter__` ignores the result of `%s`; what a `with` block should do when the "
                                 "lock is not taken (wait longer, skip, fail) is the code owner's choice",
                                 cls, label);
    char *entry = lf_xasprintf("enters `with %s(...)`: `%s` gives up waiting and returns False, ignored by "
                               "`__enter__` (line %u)",
                               cls, label, line_of(m, cs->enter_call));
    int32_t after = lf_pysem_next_sibling(m, lf_pysem_stmt_index(m, cs->enter_call));
    lf_witness *w = lf_wit_unlocked_section(m->src, "on every platform, whenever another process holds the lock",
                                            LF_WIT_ACQUIRE_FAILS, at, entry,
                                            after >= 0 ? m->stmts[after].node : cs->enter_call);
    free(entry);
    emit(ud, h->scope, at, msg, decline, w, 0, NULL); /* emit owns msg and decline */
    free(label);
}

/* ---- stand-ins for a lock package ---- */

typedef struct calls_any {
    int found;
} calls_any;

static lf_walk_action visit_calls(TSNode n, void *ud) {
    if (lf_tree_is(n, "call")) {
        ((calls_any *)ud)->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int calls_nothing(TSNode body) {
    calls_any c = {0};
    lf_tree_walk(body, visit_calls, &c);
    return !c.found;
}

/* A class whose `__enter__`/`acquire` (at least one) call nothing, or a
 * function that calls nothing: a lock that takes no lock. */
static int noop_standin(lf_pysem *m, TSNode def) {
    if (lf_tree_is(def, "function_definition"))
        return calls_nothing(lf_tree_field(def, "body"));
    if (!lf_tree_is(def, "class_definition"))
        return 0;
    int enter = 0;
    for (int32_t s = lf_pysem_first_in_block(m, lf_tree_field(def, "body")); s >= 0; s = lf_pysem_next_sibling(m, s)) {
        TSNode d = m->stmts[s].node;
        if (lf_tree_is(d, "decorated_definition"))
            d = lf_tree_field(d, "definition");
        if (!lf_tree_is(d, "function_definition"))
            continue;
        TSNode name = lf_tree_field(d, "name");
        if (!lf_tree_text_eq(m->src, name, "__enter__") && !lf_tree_text_eq(m->src, name, "acquire"))
            continue;
        enter = 1;
        if (!calls_nothing(lf_tree_field(d, "body")))
            return 0;
    }
    return enter;
}

/* Uses of the stand-in's name in the module: a with over it that writes, or any use at all. */
static void standin_uses(hpass *p, const lf_pyoptional *o, size_t *uses, size_t *writing) {
    lf_pysem *m = p->m;
    *uses = *writing = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        TSNode fn = lf_tree_unparen(lf_tree_field(c->node, "function"));
        if (!lf_tree_is(fn, "identifier") || !lf_tree_text_eq(m->src, fn, o->name) || c->scope == 0)
            continue;
        (*uses)++;
        TSNode target;
        TSNode w = with_of(m, c, &target);
        if (ts_node_is_null(w))
            continue;
        TSNode body = lf_tree_field(w, "body");
        if (nodes_may_write(p, &body, 1))
            (*writing)++;
    }
}

static void find_standins(hpass *p, lf101_indirect_fn emit, void *ud) {
    lf_pysem *m = p->m;
    for (size_t i = 0; i < m->n_optionals; i++) {
        const lf_pyoptional *o = &m->optionals[i];
        if (o->fallback_kind != LF_PYFALLBACK_STANDIN || !o->fallback || !lf_pysem_is_lock_module(o->module) ||
            !noop_standin(m, o->fallback->value) || o->fallback->stmt < 0)
            continue;
        size_t uses, writing;
        standin_uses(p, o, &uses, &writing);
        if (uses && !writing)
            continue; /* used here, and only around reads */
        const lf_pystmt *fs = &m->stmts[o->fallback->stmt];
        TSNode at = fs->clause == LF_PYCLAUSE_EXCEPT_BODY || fs->clause == LF_PYCLAUSE_ELSE_BODY ||
                            fs->clause == LF_PYCLAUSE_ELIF_BODY
                        ? fs->clause_node
                        : (o->guard >= 0 ? m->stmts[o->guard].node : fs->node);
        char *where = lf101_where_missing(o->module);
        char *msg = lf_xasprintf("the critical section is reachable without the lock: when %s is missing, the "
                                 "stand-in `%s` bound here (line %u) takes no lock, so every `with %s(...)` %s runs "
                                 "unlocked %s",
                                 o->module, o->name, line_of(m, o->fallback->value), o->name,
                                 uses ? "in this module" : "of the modules importing it", where);
        char *decline = lf_xasprintf("the lock comes from `%s`, whose waiting and errors the rewrite would not "
                                     "reproduce",
                                     o->module);
        char *entry = lf_xasprintf("runs with the stand-in `%s`, which takes no lock", o->name);
        lf_witness *w = lf_wit_unlocked_section(m->src, where, LF_WIT_ACQUIRE_FAILS, at, entry, at);
        free(entry);
        emit(ud, 0, at, msg, decline, w, 0, NULL);
        free(where);
    }
}

/* ---- helpers defined per provider ---- */

/* The optional lock module a test names as present (`fcntl`, `fcntl is not
 * None`, `HAS_FCNTL`: lf_pysem_presence_test), or NULL. */
static const lf_pyoptional *tested_present(lf_pysem *m, TSNode cond) {
    const lf_pyoptional *o = NULL;
    if (lf_pysem_presence_test(m, cond, &o) != 1 || !o || !lf_pysem_is_lock_module(o->module))
        return NULL;
    return o;
}

/* The function named like `name` that `block` defines at its top level, or null. */
static TSNode defined_in(lf_pysem *m, TSNode block, TSNode name) {
    for (uint32_t i = 0; i < ts_node_named_child_count(block); i++) {
        TSNode d = ts_node_named_child(block, i);
        if (lf_tree_is(d, "decorated_definition"))
            d = lf_tree_field(d, "definition");
        if (lf_tree_is(d, "function_definition") && lf_tree_same_text(m->src, lf_tree_field(d, "name"), name))
            return d;
    }
    return (TSNode){0};
}

/* `if flufl: def get_lock(): ...Lock(...).lock() elif fcntl: def get_lock():
 * ...fcntl.flock(...) else: def get_lock(): return None`: a module that
 * defines its lock helpers once per provider, where the branch taken when the
 * lock module is missing defines them as no-ops. Every caller then runs its
 * critical section unlocked on that platform. Reported once, at the test of
 * the module whose branch takes the lock (`elif fcntl:`). */
static void find_provider_defs(hpass *p, lf101_indirect_fn emit, void *ud) {
    lf_pysem *m = p->m;
    for (uint32_t i = 0; i < ts_node_named_child_count(m->root); i++) {
        TSNode st = ts_node_named_child(m->root, i);
        if (!lf_tree_is(st, "if_statement"))
            continue;
        TSNode fallback = {0};
        for (uint32_t j = 0; j < ts_node_named_child_count(st); j++) {
            TSNode c = ts_node_named_child(st, j);
            if (lf_tree_is(c, "else_clause"))
                fallback = lf_tree_field(c, "body");
        }
        if (ts_node_is_null(fallback))
            continue;
        /* the clauses in order: the if itself, then each elif */
        TSNode conds[16], bodies[16];
        uint32_t n = 0;
        conds[n] = lf_tree_field(st, "condition");
        bodies[n++] = lf_tree_field(st, "consequence");
        for (uint32_t j = 0; j < ts_node_named_child_count(st) && n < 16; j++) {
            TSNode c = ts_node_named_child(st, j);
            if (lf_tree_is(c, "elif_clause")) {
                conds[n] = lf_tree_field(c, "condition");
                bodies[n++] = lf_tree_field(c, "consequence");
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            const lf_pyoptional *o = tested_present(m, conds[j]);
            if (!o)
                continue;
            TSNode def = {0}, noop = {0};
            for (uint32_t k = 0; k < ts_node_named_child_count(bodies[j]) && ts_node_is_null(noop); k++) {
                TSNode d = ts_node_named_child(bodies[j], k);
                if (lf_tree_is(d, "decorated_definition"))
                    d = lf_tree_field(d, "definition");
                if (!lf_tree_is(d, "function_definition") ||
                    !lf_tree_mentions(m->src, lf_tree_field(d, "body"), o->name, NULL))
                    continue; /* not this provider's lock */
                TSNode other = defined_in(m, fallback, lf_tree_field(d, "name"));
                if (!ts_node_is_null(other) && calls_nothing(lf_tree_field(other, "body"))) {
                    def = d;
                    noop = other;
                }
            }
            if (ts_node_is_null(noop))
                continue;
            char *name = lf_tree_text(m->src, lf_tree_field(def, "name"));
            char *where = lf101_where_missing(o->module);
            char *msg = lf_xasprintf("the critical section is reachable without the lock: when %s is missing, the "
                                     "`else` branch (line %u) defines `%s` as a no-op that takes no lock, so every "
                                     "caller of `%s` runs its critical section unlocked %s",
                                     o->module, line_of(m, noop), name, name, where);
            char *decline = lf_xasprintf("the module picks its lock provider by platform; what `%s` should do "
                                         "where %s is missing is the owner's choice",
                                         name, o->module);
            /* the section: the first call of the helper outside the chain */
            TSNode first = noop;
            for (size_t c = 0; c < m->n_calls; c++) {
                TSNode f = lf_tree_unparen(lf_tree_field(m->calls[c].node, "function"));
                if (lf_tree_is(f, "identifier") && lf_tree_text_eq(m->src, f, name) &&
                    !lf_tree_within(m->calls[c].node, st)) {
                    first = m->calls[c].node;
                    break;
                }
            }
            char *entry = lf_xasprintf("runs where %s is missing, so `%s` is the no-op", o->module, name);
            lf_witness *w = lf_wit_unlocked_section(m->src, where, LF_WIT_UNLOCKED, conds[j], entry, first);
            emit(ud, 0, conds[j], msg, decline, w, 0, NULL);
            free(entry);
            free(where);
            free(name);
            break; /* one root bug per provider chain */
        }
    }
}

/* ---- the pass ---- */

/* The paths the module removes (a lock's release): the argument of a removal
 * call, or the receiver of a method spelled like one (`self.lock_dir.rmdir()`). */
static void collect_removed(hpass *p) {
    lf_pysem *m = p->m;
    static const char *const names[] = {"rmdir", "unlink", "remove", "rmtree", NULL};
    for (size_t i = 0; i < m->n_calls && p->removed.len < MAX_REMOVED; i++) {
        TSNode call = m->calls[i].node;
        TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
        TSNode arg = lf_tree_child(lf_tree_field(call, "arguments"), 0);
        TSNode path = (TSNode){0};
        if (lf_pysem_call_is(m, call, k_removals) && !ts_node_is_null(arg) && !lf_tree_is(arg, "keyword_argument"))
            path = arg;
        else if (lf_tree_is(fn, "attribute") && name_in(m, lf_tree_field(fn, "attribute"), names))
            path = lf_tree_field(fn, "object");
        if (!ts_node_is_null(path))
            LF_VEC_PUSH(&p->removed, lf_tree_unparen(path));
    }
}

static void hpass_init(hpass *p, lf_pysem *m, lf101_lock_call_fn is_lock, lf101_lock_call_fn is_unlock) {
    memset(p, 0, sizeof *p);
    p->m = m;
    p->is_lock = is_lock;
    p->is_unlock = is_unlock;
    p->writes_memo = lf_xcalloc(m->n_scopes + 1, 1);
    p->locks_memo = lf_xcalloc(m->n_scopes + 1, 1);
    p->unlocks_memo = lf_xcalloc(m->n_scopes + 1, 1);
    collect_removed(p);
}

static void hpass_free(hpass *p) {
    free(p->writes_memo);
    free(p->locks_memo);
    free(p->unlocks_memo);
    LF_VEC_FREE(&p->removed);
}

/* Report one helper, or its ignoring callers. */
static void judge_helper(hpass *p, helper *h, lf101_indirect_fn emit, void *ud) {
    callers cs;
    memset(&cs, 0, sizeof cs);
    int root = !ts_node_is_null(h->at);
    int false_results = h->role != ROLE_WORK && (root ? (h->exits & EXIT_RET_FALSE) &&
                                                            !(h->exits & (EXIT_RET_OTHER | EXIT_FALLS))
                                                      : h->timeout_false);
    if (false_results)
        h->false_mode = false_only_in_mode(p->m, h->scope, h->role == ROLE_CM, &h->false_mode_pos);
    if (h->role != ROLE_WORK && (root || h->timeout_false))
        find_callers(p, h, &cs);
    if (root) {
        /* "Not acquired" results need a caller that ignores them; otherwise a
         * helper needs a writing caller, or none in the module (exported). */
        int false_only = h->role != ROLE_WORK && (h->exits & EXIT_RET_FALSE) &&
                         !(h->exits & (EXIT_RET_OTHER | EXIT_FALLS));
        /* A context manager's callers ignore its False when their with body
         * writes without checking it; a function's, when they call it bare. */
        size_t ignoring = h->role == ROLE_CM ? cs.writing : cs.ignoring.len;
        int ok = h->role == ROLE_WORK || (false_only ? ignoring > 0 : (cs.writing > 0 || cs.uses == 0));
        if (ok)
            report_helper(p, h, &cs, emit, ud);
    } else if (h->timeout_false && cs.ignoring.len) {
        report_ignoring(p, h, &cs, emit, ud);
    } else if (h->timeout_false && cs.uses == 0 && !ts_node_is_null(cs.enter_call)) {
        report_exported_enter(p, h, &cs, emit, ud);
    }
    callers_free(&cs);
}

/* ---- copies of the critical section, with and without the lock ---- */

#define MAX_COPY_PAIRS 4096 /* statement pairs compared per function: a bound, not a tuning */

/* Does the source of n contain needle as a whole name (not inside a longer
 * identifier: `fd` is not in `fdl`)? */
static int mentions_name(const lf_source *src, TSNode n, const char *needle) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    size_t len = strlen(needle);
    for (uint32_t i = a; len && i + len <= b; i++) {
        if (memcmp(src->text + i, needle, len))
            continue;
        char before = i > a ? src->text[i - 1] : ' ', after = i + len < b ? src->text[i + len] : ' ';
        int word_before = (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                          (before >= '0' && before <= '9') || before == '_';
        int word_after = (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
                         (after >= '0' && after <= '9') || after == '_';
        if (!word_before && !word_after)
            return 1;
    }
    return 0;
}

/* A statement that does work a lock would guard: a call, alone or assigned or returned. */
static int work_statement(TSNode st) {
    if (!lf_tree_is(st, "expression_statement") && !lf_tree_is(st, "return_statement"))
        return 0;
    TSNode e = lf_tree_unparen(lf_tree_child(st, 0));
    if (lf_tree_is(e, "assignment") || lf_tree_is(e, "augmented_assignment"))
        e = lf_tree_unparen(lf_tree_field(e, "right"));
    if (lf_tree_is(e, "await"))
        e = lf_tree_unparen(ts_node_named_child(e, 0));
    return lf_tree_is(e, "call");
}

/* Is the statement inside a `with open(p, "x")` (an exclusive create): the
 * only process that can write the new file at that moment? */
static int under_exclusive_create(lf_pysem *m, TSNode st) {
    for (int32_t i = lf_pysem_stmt_of(m, st); i >= 0; i = m->stmts[i].parent) {
        TSNode w = m->stmts[i].node;
        if (!lf_tree_is(w, "with_statement"))
            continue;
        for (size_t k = 0; k < m->n_calls; k++) {
            TSNode c = m->calls[k].node;
            if (ts_node_start_byte(c) >= ts_node_start_byte(lf_tree_field(w, "body")))
                break; /* calls are in source order: past the with items */
            if (!lf_tree_within(c, w) || !lf_pysem_call_is(m, c, (const char *const[]){"open", "io.open", NULL}))
                continue;
            TSNode mode = lf_pylock_arg(m, c, 1, "mode");
            if (!ts_node_is_null(mode) && lf_pylock_open_mode(m->src, mode, 'x', 0))
                return 1;
        }
    }
    return 0;
}

/* The except clause around the unlocked copy u that does not also hold the
 * locked copy h (a handler running the work when the lock cannot be had), or
 * null. */
static TSNode handler_around(lf_pysem *m, TSNode u, TSNode h) {
    int32_t si = lf_pysem_stmt_index(m, u);
    int32_t scope = si >= 0 ? m->stmts[si].scope : -1;
    for (int32_t s = si; s >= 0 && m->stmts[s].scope == scope; s = m->stmts[s].parent) {
        TSNode c = m->stmts[s].clause_node;
        if (m->stmts[s].clause == LF_PYCLAUSE_EXCEPT_BODY && !lf_tree_within(h, c))
            return c;
    }
    return (TSNode){0};
}

/* The lock module imported in the body of the try that handler `exc`
 * belongs to, when the handler catches only a failed import (`try: import
 * fcntl ... except ImportError:`), or NULL. malloc'd. */
typedef struct import_find {
    lf_pysem *m;
    char *module;
} import_find;

static lf_walk_action visit_lock_import(TSNode n, void *ud) {
    import_find *f = ud;
    if (f->module || lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    TSNode name = {0};
    if (lf_tree_is(n, "import_statement")) {
        name = ts_node_named_child(n, 0);
        if (lf_tree_is(name, "aliased_import"))
            name = lf_tree_field(name, "name");
    } else if (lf_tree_is(n, "import_from_statement")) {
        name = lf_tree_field(n, "module_name");
    }
    if (ts_node_is_null(name))
        return LF_WALK_CONTINUE;
    char *text = lf_tree_text(f->m->src, name);
    if (lf_pysem_is_lock_module(text))
        f->module = text;
    else
        free(text);
    return LF_WALK_SKIP;
}

static char *import_handler_module(lf_pysem *m, TSNode exc) {
    TSNode v = lf_tree_field(exc, "value");
    if (ts_node_is_null(v))
        return NULL;
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    static const char *const names[] = {"ImportError", "ModuleNotFoundError", NULL};
    uint32_t n = lf_tree_is(v, "tuple") ? ts_node_named_child_count(v) : 1;
    for (uint32_t i = 0; i < n; i++)
        if (!name_in(m, lf_tree_is(v, "tuple") ? ts_node_named_child(v, i) : v, names))
            return NULL;
    import_find f = {m, NULL};
    lf_tree_walk(lf_tree_field(ts_node_parent(exc), "body"), visit_lock_import, &f);
    return f.module;
}

/* The same work reached on one path with the function's own lock held on
 * every path, and on another with it held on none (lf_pycfg's graph and lock
 * state): the "copy of the critical section" the lock was meant for, whatever
 * sends control there (a handler of the open of the lock file, a branch). The
 * finding sits at the clause that leads to the unlocked copy. */
static void find_unheld_copy(hpass *p, int32_t scope, const unsigned char *reported, lf101_indirect_fn emit,
                             void *ud) {
    lf_pysem *m = p->m;
    lf_cfg *g = lf_pycfg_build(m->src, m->scopes[scope].node);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    int any = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != scope)
            continue;
        int lock = p->is_lock(m, c->node), unlock = !lock && p->is_unlock(m, c->node);
        if (!lock && !unlock)
            continue;
        int32_t id = lf_pycfg_node_of(m, g, c->node);
        if (id < 0)
            continue;
        if (lock) {
            gen[id] = 1;
            any = 1;
        } else if (!gen[id]) {
            kill[id] = 1;
        }
    }
    /* the lock's own handle (`fd` of flock(fd, ...), locking(fd, ...)): a
     * statement on it (a seek before retrying, a close) is the locking, not
     * the work it guards */
    LF_VEC(TSNode) handles = {0};
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != scope || (!p->is_lock(m, c->node) && !p->is_unlock(m, c->node)))
            continue;
        TSNode h0 = lf_tree_unparen(lf_pylock_arg(m, c->node, 0, NULL));
        if (lf_tree_is(h0, "call")) /* fh.fileno() */
            h0 = lf_tree_unparen(lf_py_callee_object(h0));
        if (lf_tree_is(h0, "identifier") || lf_tree_is(h0, "attribute"))
            LF_VEC_PUSH(&handles, h0);
    }
    lf_cfg_lockstate st;
    memset(&st, 0, sizeof st);
    if (any)
        lf_cfg_lockstate_run(g, gen, kill, 0, &st);
    LF_VEC(int32_t) held = {0}, bare = {0};
    for (uint32_t v = 2; any && v < n; v++) {
        const lf_cfg_node *nd = lf_cfg_node_at(g, v);
        if (nd->kind != LF_CFG_STMT || gen[v] || kill[v] || !work_statement(nd->stmt) || !st.reachable[v])
            continue;
        int on_handle = 0;
        for (size_t k = 0; k < handles.len && !on_handle; k++) {
            char *hname = lf_tree_text(m->src, handles.items[k]);
            on_handle = mentions_name(m->src, nd->stmt, hname);
            free(hname);
        }
        if (on_handle)
            continue;
        if (st.must_in[v] & 1)
            LF_VEC_PUSH(&held, (int32_t)v);
        else if (!(st.may_in[v] & 1))
            LF_VEC_PUSH(&bare, (int32_t)v);
    }
    size_t pairs = 0;
    int done = reported[scope];
    for (size_t i = 0; i < bare.len && !done; i++) {
        TSNode u = lf_cfg_node_at(g, (uint32_t)bare.items[i])->stmt;
        for (size_t k = 0; k < held.len && !done && pairs < MAX_COPY_PAIRS; k++, pairs++) {
            TSNode h = lf_cfg_node_at(g, (uint32_t)held.items[k])->stmt;
            lf_work(1);
            if (!lf_tree_equal(m->src, u, m->src, h, LF_TREE_EQ_IGNORE_ANNOTATION | LF_TREE_EQ_STRING_CONTENT) ||
                !nodes_may_write(p, &u, 1) || under_exclusive_create(m, u))
                continue;
            int32_t si = lf_pysem_stmt_index(m, u);
            /* a copy under an ERROR node may have no statement, or no parent */
            int32_t parent = si >= 0 ? m->stmts[si].parent : -1;
            TSNode at = parent >= 0 ? m->stmts[si].clause_node : u;
            if (ts_node_is_null(at) || (parent >= 0 && ts_node_eq(at, m->stmts[parent].node)))
                at = u; /* in the body of an if or loop: the copy itself */
            TSNode exc = handler_around(m, u, h);
            if (!ts_node_is_null(exc))
                at = exc; /* the copy nested in a handler: the handler decides */
            char *label = lf_xasprintf("%s()", m->scopes[scope].name);
            int handler = lf_tree_is(at, "except_clause");
            /* a handler of a failed import of the lock module, imported in
             * the function itself: the unlocked path is a platform's */
            char *imported = handler ? import_handler_module(m, at) : NULL;
            char *why = imported ? lf_xasprintf("this handler runs it when importing %s fails", imported)
                        : handler ? lf_xstrdup("this handler runs it when opening or taking the lock fails")
                                  : lf_xstrdup("this branch skips the lock");
            char *where = imported ? lf101_where_missing(imported) : NULL;
            char *msg = lf_xasprintf(
                "the critical section is reachable without the lock: `%s` runs the work at line %u with its lock "
                "held on no path (%s), while the same work at line %u runs under the lock: unlocked %s",
                label, line_of(m, u), why, line_of(m, h), where ? where : "whenever this path is taken");
            free(why);
            char *decline = lf_xasprintf("the unlocked copy in `%s` is not the fallback of an optional lock module "
                                         "in a shape the rewrite knows; what this path should do without the lock "
                                         "(wait, fail, skip) is the code owner's choice",
                                         label);
            char *entry = lf_xasprintf("takes the path at line %u, where `%s` holds no lock", line_of(m, at), label);
            lf_witness *w = lf_wit_unlocked_section(
                m->src, where ? where : "on every platform, whenever this path is taken",
                imported ? LF_WIT_UNLOCKED : handler ? LF_WIT_ACQUIRE_FAILS : LF_WIT_UNLOCKED, at, entry, u);
            free(entry);
            free(where);
            free(imported);
            emit(ud, scope, at, msg, decline, w, 0, NULL);
            free(label);
            done = 1;
        }
    }
    LF_VEC_FREE(&held);
    LF_VEC_FREE(&bare);
    LF_VEC_FREE(&handles);
    if (any)
        lf_cfg_lockstate_free(&st);
    free(gen);
    free(kill);
    lf_cfg_free(g);
}

void lf101_find_helpers(lf_pysem *m, const unsigned char *reported, lf101_lock_call_fn is_lock,
                        lf101_lock_call_fn is_unlock, lf101_indirect_fn emit, void *ud) {
    hpass p;
    hpass_init(&p, m, is_lock, is_unlock);
    size_t n_helpers = 0;
    for (size_t i = 0; i < m->n_scopes && n_helpers < MAX_HELPERS; i++) {
        const lf_pyscope *sc = &m->scopes[i];
        if (sc->kind != LF_PYSCOPE_FUNCTION || reported[i] ||
            ts_node_is_null(find_in(&p, lf_tree_field(sc->node, "body"), 0)))
            continue;
        n_helpers++;
        helper h;
        memset(&h, 0, sizeof h);
        h.scope = (int32_t)i;
        h.role = role_of(&p, (int32_t)i);
        int platform = find_absent_test(&p, (int32_t)i, &h) || find_import_fallback(&p, (int32_t)i, &h);
        if (!platform && !find_swallowing_handler(&p, (int32_t)i, &h) && !find_giveup(&p, (int32_t)i, &h))
            h.timeout_false = h.role == ROLE_ACQUIRE && returns_false_somewhere(m, (int32_t)i);
        judge_helper(&p, &h, emit, ud);
        free(h.import_fallback);
        free(h.false_mode);
        /* Where the lock module is missing and where taking the lock fails
         * are two root bugs of one helper (`except ImportError: pass` beside a
         * retry loop that breaks out at its deadline, or a handler that
         * swallows ENOLCK): a fix of one leaves the other. */
        if (platform && h.role != ROLE_WORK) {
            helper g;
            memset(&g, 0, sizeof g);
            g.scope = (int32_t)i;
            g.role = h.role;
            g.another_root = 1;
            if (find_giveup(&p, (int32_t)i, &g) || find_swallowing_handler(&p, (int32_t)i, &g))
                judge_helper(&p, &g, emit, ud);
            free(g.false_mode);
        }
        if (!reported[i])
            find_unheld_copy(&p, (int32_t)i, reported, emit, ud);
    }
    find_standins(&p, emit, ud);
    find_provider_defs(&p, emit, ud);
    hpass_free(&p);
}

int lf101_cm_callers_write(lf_pysem *m, int32_t scope, lf101_lock_call_fn is_lock, lf101_lock_call_fn is_unlock) {
    if (scope <= 0 || m->scopes[scope].kind != LF_PYSCOPE_FUNCTION || !lf101_is_contextmanager(m, m->scopes[scope].node))
        return 1;
    hpass p;
    hpass_init(&p, m, is_lock, is_unlock);
    helper h;
    memset(&h, 0, sizeof h);
    h.scope = scope;
    h.role = ROLE_CM;
    callers cs;
    memset(&cs, 0, sizeof cs);
    find_callers(&p, &h, &cs);
    int ok = cs.writing > 0 || cs.uses == 0;
    callers_free(&cs);
    hpass_free(&p);
    return ok;
}
