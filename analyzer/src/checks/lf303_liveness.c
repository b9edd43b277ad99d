/* LF303: a kill(pid, 0) liveness probe read wrongly. One finding per probe:
 *
 *  1. EPERM read as "dead": the path the handler takes for EPERM (a
 *     PermissionError) is the one it takes for ESRCH (ProcessLookupError), and
 *     differs from the path taken when the probe succeeds. Handlers are
 *     followed as written: which clause catches each error (`except OSError`,
 *     `except (ProcessLookupError, PermissionError)`, bare `except`), then the
 *     `if e.errno == errno.ESRCH or e.errno == errno.EPERM:` branches they take.
 *     A handler that re-raises, or whose branch the analysis cannot decide, is
 *     never reported.
 *  2. Pid reuse: the probe's pid was read from a file (a pid or lock record,
 *     directly or through one of the module's functions), its success is
 *     trusted, and nothing in the module reads a process start time from
 *     the OS (psutil, create_time, /proc/<pid>/stat, GetProcessTimes) or
 *     compares a start time field (identifiers and strings, never comments
 *     or docstrings). The message
 *     says the errors are not the problem: a probe whose EPERM handling is
 *     right is reported for pid reuse only.
 * Neither when the probe judges no lock: its pid is read from a file the
 * module never writes or removes, and its "dead" verdict only reports
 * (prints or logs, then exits: a health check). */
#include <stdlib.h>
#include <string.h>

#include "lf303_site.h"
#include "lf_check.h"
#include "lf_pygate.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

#define EQ_FLAGS (LF_TREE_EQ_IGNORE_ANNOTATION | LF_TREE_EQ_STRING_CONTENT)

typedef enum err { ERR_EPERM = 0, ERR_ESRCH = 1 } err;

typedef LF_VEC(TSNode) node_vec;

/* A path through code: the statements run, and whether it then falls through
 * past the try (0) or ends there (return/raise/continue/break: 1). */
typedef struct path {
    node_vec stmts;
    int ends;
    int raises;
    int unknown; /* a branch the analysis could not decide */
} path;

static const char *const k_catch_eperm[] = {"PermissionError", "OSError", "IOError", "EnvironmentError", "os.error",
                                            "Exception", "BaseException", "socket.error", "select.error", NULL};
static const char *const k_catch_esrch[] = {"ProcessLookupError", "OSError", "IOError", "EnvironmentError",
                                            "os.error", "Exception", "BaseException", "socket.error", "select.error",
                                            NULL};

/* Does the except clause catch the error? */
static int catches(lf_pysem *m, TSNode clause, err e) {
    TSNode v = lf_tree_field(clause, "value");
    if (ts_node_is_null(v)) {
        /* `except:` or, in some grammars, the type is the first named child. */
        TSNode c = lf_tree_child(clause, 0);
        if (ts_node_is_null(c) || lf_tree_is(c, "block"))
            return 1;
        v = c;
    }
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    v = lf_tree_unparen(v);
    const char *const *names = e == ERR_EPERM ? k_catch_eperm : k_catch_esrch;
    if (lf_tree_is(v, "tuple")) {
        for (uint32_t i = 0; i < lf_tree_child_count(v); i++)
            if (lf_str_in_list(lf_pysem_qualname(m, lf_tree_child(v, i)), names))
                return 1;
        return 0;
    }
    return lf_str_in_list(lf_pysem_qualname(m, v), names);
}

/* The errno value an expression names: EPERM, ESRCH, -1 other/unknown. */
static int errno_value(lf_pysem *m, TSNode n) {
    const char *q = lf_pysem_qualname(m, lf_tree_unparen(n));
    if (q && !strcmp(q, "errno.EPERM"))
        return ERR_EPERM;
    if (q && !strcmp(q, "errno.ESRCH"))
        return ERR_ESRCH;
    return -1;
}

/* Is the expression the caught error's errno (`e.errno`, `e.args[0]`, `err.errno`)? */
static int is_errno_read(lf_pysem *m, TSNode n) {
    n = lf_tree_unparen(n);
    if (lf_tree_is(n, "attribute"))
        return lf_tree_text_eq(m->src, lf_tree_field(n, "attribute"), "errno");
    if (lf_tree_is(n, "subscript")) {
        TSNode v = lf_tree_unparen(lf_tree_field(n, "value"));
        return lf_tree_is(v, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(v, "attribute"), "args");
    }
    return 0;
}

/* A condition that is neither `not` nor `and`/`or`, for error e: 1 true, 0
 * false, -1 unknown. */
static int eval_leaf(lf_pysem *m, TSNode c, err e) {
    if (lf_tree_is(c, "call")) {
        /* isinstance(e, PermissionError) */
        const char *q = lf_pysem_callee(m, c);
        if (q && !strcmp(q, "isinstance")) {
            TSNode t = lf_pylock_arg(m, c, 1, NULL);
            static const char *const eperm[] = {"PermissionError", NULL};
            static const char *const esrch[] = {"ProcessLookupError", NULL};
            const char *tq = lf_pysem_qualname(m, t);
            if (!tq)
                return -1;
            return lf_str_in_list(tq, e == ERR_EPERM ? eperm : esrch) ? 1 : 0;
        }
        return -1;
    }
    if (lf_tree_is(c, "comparison_operator") && lf_tree_child_count(c) == 2) {
        TSNode a = lf_tree_child(c, 0), b = lf_tree_child(c, 1);
        const char *op = NULL;
        for (uint32_t i = 0; i < ts_node_child_count(c); i++)
            if (!ts_node_is_named(ts_node_child(c, i)))
                op = ts_node_type(ts_node_child(c, i));
        if (!op)
            return -1;
        if (!is_errno_read(m, a)) {
            TSNode t = a;
            a = b;
            b = t;
        }
        if (!is_errno_read(m, a))
            return -1;
        int eq = !strcmp(op, "==") || !strcmp(op, "is");
        int ne = !strcmp(op, "!=") || !strcmp(op, "is not");
        int in = !strcmp(op, "in"), not_in = !strcmp(op, "not in");
        if (eq || ne) {
            int v = errno_value(m, b);
            if (v < 0)
                return -1;
            return ((v == (int)e) == eq) ? 1 : 0;
        }
        if (in || not_in) {
            TSNode set = lf_tree_unparen(b);
            if (!lf_tree_is(set, "tuple") && !lf_tree_is(set, "list") && !lf_tree_is(set, "set"))
                return -1;
            int hit = 0;
            for (uint32_t i = 0; i < lf_tree_child_count(set); i++) {
                int v = errno_value(m, lf_tree_child(set, i));
                if (v < 0)
                    return -1;
                hit |= v == (int)e;
            }
            return hit == in ? 1 : 0;
        }
    }
    return -1;
}

/* Evaluate a condition for error e: 1 true, 0 false, -1 unknown, over not/and/or
 * with an explicit stack (post-order, a value stack for the results); operands
 * nested more than 64 operators deep are unknown. */
typedef struct cond_frame {
    TSNode n;
    uint32_t depth;
    int expanded;
} cond_frame;

static int eval_cond(lf_pysem *m, TSNode root, err e) {
    LF_VEC(cond_frame) stack = {0};
    LF_VEC(int) vals = {0};
    cond_frame f0 = {root, 0, 0};
    LF_VEC_PUSH(&stack, f0);
    while (stack.len) {
        cond_frame f = stack.items[stack.len - 1];
        TSNode c = lf_tree_unparen(f.n);
        int is_not = lf_tree_is(c, "not_operator"), is_bool = lf_tree_is(c, "boolean_operator");
        if (f.depth > 64 || (!is_not && !is_bool)) {
            stack.len--;
            int v = f.depth > 64 ? -1 : eval_leaf(m, c, e);
            LF_VEC_PUSH(&vals, v);
            continue;
        }
        if (!f.expanded) {
            stack.items[stack.len - 1].expanded = 1;
            /* Right pushed first so that the left operand is evaluated first. */
            if (is_bool) {
                cond_frame r = {lf_tree_field(c, "right"), f.depth + 1, 0};
                LF_VEC_PUSH(&stack, r);
            }
            cond_frame l = {lf_tree_field(c, is_bool ? "left" : "argument"), f.depth + 1, 0};
            LF_VEC_PUSH(&stack, l);
            continue;
        }
        stack.len--;
        int v;
        if (is_not) {
            int a = vals.items[--vals.len];
            v = a < 0 ? -1 : !a;
        } else {
            int b = vals.items[--vals.len];
            int a = vals.items[--vals.len];
            TSNode op = lf_tree_field(c, "operator");
            int is_and = !ts_node_is_null(op) && !strcmp(ts_node_type(op), "and");
            if (is_and)
                v = (a == 0 || b == 0) ? 0 : (a < 0 || b < 0) ? -1 : 1;
            else
                v = (a == 1 || b == 1) ? 1 : (a < 0 || b < 0) ? -1 : 0;
        }
        LF_VEC_PUSH(&vals, v);
    }
    int result = vals.len ? vals.items[0] : -1;
    LF_VEC_FREE(&stack);
    LF_VEC_FREE(&vals);
    return result;
}

typedef struct errno_search {
    lf_pysem *m;
    int found;
} errno_search;

static lf_walk_action visit_errno(TSNode n, void *ud) {
    errno_search *e = ud;
    if ((lf_tree_is(n, "attribute") || lf_tree_is(n, "subscript")) && is_errno_read(e->m, n)) {
        e->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int ends_path(TSNode s) {
    return lf_tree_is(s, "return_statement") || lf_tree_is(s, "raise_statement") ||
           lf_tree_is(s, "continue_statement") || lf_tree_is(s, "break_statement");
}

/* Follow a block for error e, appending to p. Branches are entered one at a
 * time with an explicit stack of "what follows" positions. */
static void follow(lf_pysem *m, TSNode block, err e, path *p) {
    LF_VEC(int32_t) rest = {0}; /* statements to continue with after a branch ends */
    int32_t s = lf_pysem_first_in_block(m, block);
    size_t guard = m->n_stmts + 1;
    while (guard--) {
        if (s < 0) {
            if (!rest.len)
                break;
            s = rest.items[--rest.len];
            continue;
        }
        TSNode st = m->stmts[s].node;
        if (lf_tree_is(st, "if_statement")) {
            TSNode taken = (TSNode){0};
            int v = eval_cond(m, lf_tree_field(st, "condition"), e);
            if (v < 0) {
                p->unknown = 1;
                break;
            }
            if (v == 1) {
                taken = lf_tree_field(st, "consequence");
            } else {
                for (uint32_t i = 0; i < ts_node_named_child_count(st); i++) {
                    TSNode alt = ts_node_named_child(st, i);
                    if (lf_tree_is(alt, "elif_clause")) {
                        int w = eval_cond(m, lf_tree_field(alt, "condition"), e);
                        if (w < 0) {
                            p->unknown = 1;
                            break;
                        }
                        if (w == 1) {
                            taken = lf_tree_field(alt, "consequence");
                            break;
                        }
                    } else if (lf_tree_is(alt, "else_clause")) {
                        taken = lf_tree_field(alt, "body");
                        break;
                    }
                }
                if (p->unknown)
                    break;
            }
            int32_t next = lf_pysem_next_sibling(m, s);
            if (ts_node_is_null(taken)) {
                s = next;
                continue;
            }
            LF_VEC_PUSH(&rest, next);
            s = lf_pysem_first_in_block(m, taken);
            continue;
        }
        /* A statement whose effect depends on the errno (`return e.errno != ESRCH`)
         * distinguishes the errors itself. */
        errno_search es = {m, 0};
        lf_tree_walk(st, visit_errno, &es);
        if (es.found) {
            p->unknown = 1;
            break;
        }
        LF_VEC_PUSH(&p->stmts, st);
        if (lf_tree_is(st, "raise_statement"))
            p->raises = 1;
        if (ends_path(st)) {
            p->ends = 1;
            break;
        }
        if (lf_tree_is(st, "pass_statement"))
            p->stmts.len--; /* `pass` runs nothing */
        s = lf_pysem_next_sibling(m, s);
    }
    LF_VEC_FREE(&rest);
}

static int same_path(lf_pysem *m, const path *a, const path *b) {
    if (a->ends != b->ends || a->stmts.len != b->stmts.len)
        return 0;
    for (size_t i = 0; i < a->stmts.len; i++)
        if (!ts_node_eq(a->stmts.items[i], b->stmts.items[i]) &&
            !lf_tree_equal(m->src, a->stmts.items[i], m->src, b->stmts.items[i], EQ_FLAGS))
            return 0;
    return 1;
}

/* The try statement whose body holds the probe's statement (directly or
 * nested in ifs/withs of that body), and that body statement. */
static int32_t enclosing_try(lf_pysem *m, int32_t s, int32_t *child) {
    int32_t cur = s;
    while (cur >= 0) {
        int32_t parent = m->stmts[cur].parent;
        if (parent < 0)
            return -1;
        if (m->stmts[cur].clause == LF_PYCLAUSE_TRY_BODY && lf_tree_is(m->stmts[parent].node, "try_statement")) {
            *child = cur;
            return parent;
        }
        const char *t = ts_node_type(m->stmts[parent].node);
        if (strcmp(t, "if_statement") && strcmp(t, "with_statement"))
            return -1;
        cur = parent;
    }
    return -1;
}

/* ---- pid reuse ---- */

static const char *const k_record_reads[] = {"os.readlink", "json.load", "json.loads", "pickle.load", NULL};
static const char *const k_read_methods[] = {"read", "readline", "readlines", "read_text", "read_bytes", NULL};

static int is_read_call(lf_pysem *m, TSNode n) {
    if (!lf_tree_is(n, "call"))
        return 0;
    if (lf_pylock_callee_any(m, n, k_record_reads))
        return 1;
    TSNode fn = lf_tree_unparen(lf_tree_field(n, "function"));
    if (!lf_tree_is(fn, "attribute"))
        return 0;
    for (size_t i = 0; k_read_methods[i]; i++)
        if (lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), k_read_methods[i]))
            return 1;
    return 0;
}

typedef struct read_search {
    lf_pysem *m;
    int found;
    TSNode at; /* the read: a read call, or the `for` over a file opened for reading */
} read_search;

/* Is the expression a file opened for reading (`open(p)`, `open(p, "rb")`,
 * `p.open()`), through a local or `with` name? */
static int opened_for_reading(lf_pysem *m, TSNode e) {
    static const char *const opens[] = {"open", "io.open", NULL};
    e = lf_tree_unparen(e);
    if (lf_tree_is(e, "identifier")) {
        char *name = lf_tree_text(m->src, e);
        const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
        free(name);
        if (!b || (b->kind != LF_PYBIND_WITH && b->kind != LF_PYBIND_ASSIGN) || ts_node_is_null(b->value))
            return 0;
        e = lf_tree_unparen(b->value);
    }
    if (!lf_tree_is(e, "call"))
        return 0;
    TSNode mode;
    if (lf_pylock_callee_any(m, e, opens)) {
        mode = lf_pylock_arg(m, e, 1, "mode");
    } else {
        TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
        if (!lf_tree_is(fn, "attribute") || !lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "open"))
            return 0;
        mode = lf_pylock_arg(m, e, 0, "mode");
    }
    if (ts_node_is_null(mode))
        return 1;
    if (!lf_tree_is(mode, "string"))
        return 0;
    char *t = lf_tree_text(m->src, mode);
    int reading = !strpbrk(t + 1, "wax+");
    free(t);
    return reading;
}

static lf_walk_action visit_read(TSNode n, void *ud) {
    read_search *r = ud;
    if (lf_tree_is(n, "function_definition") || lf_tree_is(n, "class_definition"))
        return LF_WALK_SKIP;
    /* `for line in fh: ...` over a file opened for reading reads its record */
    if (lf_tree_is(n, "for_statement") && opened_for_reading(r->m, lf_tree_field(n, "right"))) {
        r->found = 1;
        r->at = n;
        return LF_WALK_STOP;
    }
    if (is_read_call(r->m, n)) {
        r->found = 1;
        r->at = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Was the pid read from a file: the expression, the values its names hold,
 * and the return values of the module's functions it calls (one level)?
 * *read (when not NULL) is the first read found. */
static int pid_from_record(lf_pysem *m, lf_pylock *l, TSNode pid, TSNode *read) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, pid);
    int found = 0;
    size_t budget = 256 + m->n_bindings;
    while (stack.len && !found && budget) {
        budget--;
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (ts_node_is_null(n) || lf_tree_is(n, "lambda"))
            continue;
        /* a child's pid (`proc.pid` of a Popen), whatever its arguments read */
        if (lf_tree_is(n, "attribute") && lf_pylock_child_pid(l, n))
            continue;
        if (is_read_call(m, n)) {
            found = 1;
            if (read)
                *read = n;
            break;
        }
        if (lf_tree_is(n, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n))
                LF_VEC_PUSH(&stack, v);
            else {
                /* `with open(p) as f: pid = int(f.read())` binds through a with. */
                char *name = lf_tree_text(m->src, n);
                const lf_pybinding *b =
                    lf_pysem_binding_at(m, lf_pysem_scope_of(m, n), name, ts_node_start_byte(n));
                free(name);
                if (b && (b->kind == LF_PYBIND_WITH || b->kind == LF_PYBIND_FOR) && !ts_node_is_null(b->value))
                    LF_VEC_PUSH(&stack, b->value);
                /* Unpacked from what a call returns (`pid, port = _read_pid()`):
                 * the call, whose body the module's own functions are read in. */
                if (b && b->kind == LF_PYBIND_ASSIGN && ts_node_is_null(b->value)) {
                    TSNode a = ts_node_parent(b->target);
                    while (!ts_node_is_null(a) && (lf_tree_is(a, "pattern_list") || lf_tree_is(a, "tuple_pattern") ||
                                                   lf_tree_is(a, "list_pattern")))
                        a = ts_node_parent(a);
                    if (lf_tree_is(a, "assignment") && lf_tree_is(lf_tree_field(a, "right"), "call"))
                        LF_VEC_PUSH(&stack, lf_tree_field(a, "right"));
                }
                /* A parameter: what the module's callers pass for it
                 * (`pid = self.read()` ... `self._pidIsRunning(pid)`). */
                if (b && b->kind == LF_PYBIND_PARAM) {
                    TSNode args[8];
                    size_t na = lf_pylock_param_args(l, b, args, 8);
                    for (size_t k = 0; k < na; k++)
                        LF_VEC_PUSH(&stack, args[k]);
                }
            }
            continue;
        }
        if (lf_tree_is(n, "call")) {
            int skip = 0;
            int32_t f = lf_pylock_local_callee(l, n, &skip);
            if (f >= 0 && m->scopes[f].kind == LF_PYSCOPE_FUNCTION) {
                read_search r = {.m = m};
                lf_tree_walk(lf_tree_field(m->scopes[f].node, "body"), visit_read, &r);
                if (r.found) {
                    found = 1;
                    if (read)
                        *read = r.at;
                    break;
                }
            }
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    return found;
}

/* Names of a process's start time as the OS reports it: they count wherever
 * they appear. */
static const char *const k_start_time_names[] = {"create_time", "process_start_time", "get_start_time", "boot_id",
                                                 "GetProcessTimes", "psutil", NULL};
/* Names a record's field or a variable may carry: they count only inside a
 * comparison (`rec["start_time"] != start_of(pid)`). A record that stores
 * `startTime=datetime.utcnow()` and never compares it is a creation time,
 * and the pid's success is still trusted as is. */
static const char *const k_start_time_fields[] = {"start_time", "starttime", "startTime", NULL};

/* Is n inside a comparison (a few levels up, within its statement)? */
static int in_comparison(TSNode n) {
    TSNode p = ts_node_parent(n);
    for (int up = 0; up < 8 && !ts_node_is_null(p); up++, p = ts_node_parent(p)) {
        if (lf_tree_is(p, "comparison_operator"))
            return 1;
        if (lf_tree_is(p, "block") || lf_tree_is(p, "module"))
            return 0;
    }
    return 0;
}

typedef struct start_search {
    lf_pysem *m;
    int found;
} start_search;

/* Identifiers and string contents only (`psutil`, `rec["start_time"] ==`,
 * "/proc/%d/stat"): a comment or a docstring never counts. */
static lf_walk_action visit_start(TSNode n, void *ud) {
    start_search *s = ud;
    /* A docstring (a bare string statement) is prose, like a comment. */
    if (lf_tree_is(n, "expression_statement") && ts_node_named_child_count(n) == 1 &&
        (lf_tree_is(ts_node_named_child(n, 0), "string") ||
         lf_tree_is(ts_node_named_child(n, 0), "concatenated_string")))
        return LF_WALK_SKIP;
    int ident = lf_tree_is(n, "identifier");
    if (!ident && !lf_tree_is(n, "string_content"))
        return LF_WALK_CONTINUE;
    const char *a = s->m->src->text + ts_node_start_byte(n);
    size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    for (size_t i = 0; k_start_time_names[i]; i++)
        if (memmem(a, len, k_start_time_names[i], strlen(k_start_time_names[i]))) {
            s->found = 1;
            return LF_WALK_STOP;
        }
    for (size_t i = 0; k_start_time_fields[i]; i++)
        if (memmem(a, len, k_start_time_fields[i], strlen(k_start_time_fields[i])) && in_comparison(n)) {
            s->found = 1;
            return LF_WALK_STOP;
        }
    if (!ident && memmem(a, len, "/proc/", 6) && memmem(a, len, "stat", 4)) {
        s->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* ---- whose lock: a lock only one user can hold ---- */

/* The path a read (of pid_from_record) reads, or null: `p.read_text()`,
 * `f.read()` / `json.load(f)` / `for line in f` of a handle opened from p,
 * `os.readlink(p)`, `json.loads(<one of those>)`. */
static TSNode read_path(lf_pysem *m, lf_pylock *l, TSNode read) {
    static const char *const loads[] = {"json.loads", NULL};
    static const char *const handle_loads[] = {"json.load", "pickle.load", NULL};
    static const char *const links[] = {"os.readlink", NULL};
    TSNode n = read;
    for (int hops = 0; hops < 8 && !ts_node_is_null(n); hops++) {
        n = lf_tree_unparen(n);
        if (lf_tree_is(n, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, n);
            if (ts_node_eq(v, n))
                return (TSNode){0};
            n = v;
            continue;
        }
        if (lf_tree_is(n, "for_statement"))
            return lf_pylock_handle_path(l, lf_tree_field(n, "right"));
        if (!lf_tree_is(n, "call"))
            return (TSNode){0};
        if (lf_pylock_callee_any(m, n, loads)) {
            n = lf_pylock_arg(m, n, 0, NULL);
            continue;
        }
        if (lf_pylock_callee_any(m, n, links))
            return lf_pylock_arg(m, n, 0, "path");
        if (lf_pylock_callee_any(m, n, handle_loads))
            return lf_pylock_handle_path(l, lf_pylock_arg(m, n, 0, NULL));
        TSNode fn = lf_tree_unparen(lf_tree_field(n, "function"));
        if (!lf_tree_is(fn, "attribute"))
            return (TSNode){0};
        TSNode obj = lf_tree_field(fn, "object"), attr = lf_tree_field(fn, "attribute");
        if (lf_tree_text_eq(m->src, attr, "read_text") || lf_tree_text_eq(m->src, attr, "read_bytes"))
            return obj;
        return lf_pylock_handle_path(l, obj);
    }
    return (TSNode){0};
}

/* ---- the check ---- */

/* Does the path only report: output (print, logging, a stream's write) and
 * an exit? (A return hands the verdict to a caller, which may act on it.) */
static int reports_only(lf_pysem *m, const path *p) {
    static const char *const out[] = {"print", "sys.exit", "exit", "quit", "os._exit", "sys.stderr.write",
                                      "sys.stdout.write", "logging.debug", "logging.info", "logging.warning",
                                      "logging.error", "logging.critical", NULL};
    static const char *const levels[] = {"debug", "info", "warning", "warn", "error", "critical", "exception", NULL};
    for (size_t i = 0; i < p->stmts.len; i++) {
        TSNode st = p->stmts.items[i];
        if (lf_tree_is(st, "pass_statement"))
            continue;
        TSNode e = lf_tree_is(st, "expression_statement") ? lf_tree_unparen(lf_tree_child(st, 0)) : (TSNode){0};
        if (!lf_tree_is(e, "call"))
            return 0;
        if (lf_pylock_callee_any(m, e, out))
            continue;
        TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
        int level = 0;
        for (size_t k = 0; levels[k] && lf_tree_is(fn, "attribute"); k++)
            level |= lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), levels[k]);
        if (!level)
            return 0;
    }
    return 1;
}

/* Does the probe judge no lock: it probes a child this process started, or
 * its pid is read from a file this module never writes or removes and the
 * "dead" verdict only reports (a health check printing a status and
 * exiting)? */
static int judges_no_lock(lf_pysem *m, lf_pylock *l, TSNode call, const path *dead) {
    /* the pid of a child this process started (`proc.pid` of a Popen): no
     * lock's owner, and never another user's */
    if (lf_pylock_child_pid(l, lf_pylock_arg(m, call, 0, "pid")))
        return 1;
    TSNode read = {0};
    if (!reports_only(m, dead) || !pid_from_record(m, l, lf_pylock_arg(m, call, 0, "pid"), &read) ||
        ts_node_is_null(read))
        return 0;
    TSNode file = read_path(m, l, read);
    if (ts_node_is_null(file) || lf_pylock_writers(l, file, NULL, 0) > 0)
        return 0;
    return !(lf_pylock_flags_of(l, file) & LF_LOCK_REMOVED);
}

void lf303_site_free(void *site) {
    lf303_site *s = site;
    if (s)
        free(s->decline);
    free(s);
}

/* Does the clause catch PermissionError and nothing else (`except
 * PermissionError:`, `except PermissionError as e:`)? */
static int catches_only_eperm(lf_pysem *m, TSNode clause) {
    TSNode v = lf_tree_field(clause, "value");
    if (ts_node_is_null(v))
        v = lf_tree_child(clause, 0);
    if (!ts_node_is_null(v) && lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    return !ts_node_is_null(v) && lf_tree_is(v, "identifier") && lf_tree_text_eq(m->src, v, "PermissionError");
}

/* Can the probe's statement be wrapped in a try of its own: an expression
 * statement that is the call alone, on one line, with nothing after it on that
 * line but a comment? */
static int wrappable_probe(lf_pysem *m, TSNode stmt, TSNode call) {
    if (!lf_tree_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1 ||
        !ts_node_eq(lf_tree_unparen(ts_node_named_child(stmt, 0)), call) ||
        ts_node_start_point(stmt).row != ts_node_end_point(stmt).row)
        return 0;
    const char *t = m->src->text;
    uint32_t at = ts_node_start_byte(stmt), b = at, e = ts_node_end_byte(stmt);
    while (b > 0 && t[b - 1] != '\n')
        b--;
    for (uint32_t i = b; i < at; i++)
        if (t[i] != ' ' && t[i] != '\t')
            return 0;
    while (e < m->src->len && (t[e] == ' ' || t[e] == '\t'))
        e++;
    return e >= m->src->len || t[e] == '\n' || t[e] == '\r' || t[e] == '#';
}

/* The site's fallback when the clause form does not fit: wrap the probe
 * statement, or keep the reason the clause form declined. */
static lf303_site *nested_or(lf303_site *s, lf_pysem *m, TSNode stmt, TSNode call, const char *why) {
    if (wrappable_probe(m, stmt, call)) {
        s->nested = 1;
        s->probe = stmt;
    } else {
        s->decline = lf_xstrdup(why);
    }
    return s;
}

/* What the fix needs to give EPERM the success path (checks/lf303_site.h),
 * or why it cannot. `ok` is the success path after the probe; `stmt` is the
 * probe's own statement, `call` the probe. */
static lf303_site *eperm_site(lf_pysem *m, TSNode tn, int32_t probe_stmt, TSNode h_eperm, const path *ok,
                              TSNode else_block, TSNode stmt, TSNode call) {
    lf303_site *s = lf_xcalloc(1, sizeof *s);
    s->clause = h_eperm;
    s->dedicated = catches_only_eperm(m, h_eperm);
    TSNode body = lf_tree_field(tn, "body");
    if (lf_pysem_binding_at(m, lf_pysem_scope_of(m, tn), "PermissionError", ts_node_start_byte(tn))) {
        s->decline = lf_xstrdup("the module binds the name PermissionError");
        return s;
    }
    if (!ts_node_eq(ts_node_named_child(body, 0), m->stmts[probe_stmt].node))
        return nested_or(s, m, stmt, call, "the try runs other statements before the probe");
    if (!ts_node_is_null(else_block)) {
        /* `try: <probe> except ...: ... else: <success>`: the else is the success
         * path (`ok` holds its statements) when the try runs nothing after the probe. */
        int n = 0;
        for (uint32_t k = 0; k < ts_node_named_child_count(body); k++)
            n += !lf_tree_is(ts_node_named_child(body, k), "comment");
        if (n != 1)
            return nested_or(s, m, stmt, call,
                             "the try runs statements after the probe and has an else clause: the success path is "
                             "not one statement");
    }
    if (ok->stmts.len > 1 || (ok->stmts.len == 1 && !lf_tree_is(ok->stmts.items[0], "return_statement")))
        return nested_or(s, m, stmt, call, "the try runs more than one return after the probe");
    if (ok->stmts.len == 1) {
        s->alive = ok->stmts.items[0];
        if (ts_node_start_point(s->alive).row != ts_node_end_point(s->alive).row) {
            s->alive = (TSNode){0};
            return nested_or(s, m, stmt, call, "the try's return spans several lines");
        }
    }
    return s;
}

/* Does the probe trust a pid read from a pid or lock file, in a module that
 * never looks at a process's start time? *start_time caches the module-wide
 * search (-1: not searched yet). */
/* Is the pid one element of a collection the function iterates (`for entry
 * in pids: pid = entry.get("pid")`, `for pid in registry:`), reached through
 * names, subscripts and `.get()` before any read of a file? Then it is a
 * registry of processes, not the owner a lock records: a reused pid keeps a
 * dead entry listed, it holds no lock. A sweep of lock files (`for f in
 * locks: pid = int(f.read_text())`) reads each pid from its lock first. */
static int pid_from_listing(lf_pysem *m, lf_pylock *l, TSNode pid) {
    /* a worklist: a parameter stands for what each of the module's calls
     * passes, and every way must lead to a listing */
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, pid);
    int listing = 0, other = 0;
    for (int budget = 64; todo.len && !other && budget > 0; budget--) {
        TSNode n = lf_tree_unparen(todo.items[--todo.len]);
        if (lf_tree_is(n, "call")) {
            TSNode fn = lf_tree_unparen(lf_tree_field(n, "function"));
            TSNode args = lf_tree_field(n, "arguments");
            if (lf_tree_is(fn, "identifier") && lf_tree_text_eq(m->src, fn, "int") &&
                ts_node_named_child_count(args) == 1)
                LF_VEC_PUSH(&todo, ts_node_named_child(args, 0)); /* int(entry["pid"]) */
            else if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "get"))
                LF_VEC_PUSH(&todo, lf_tree_field(fn, "object")); /* entry.get("pid") */
            else
                other = 1;
        } else if (lf_tree_is(n, "subscript")) {
            LF_VEC_PUSH(&todo, lf_tree_field(n, "value")); /* entry["pid"] */
        } else if (lf_tree_is(n, "identifier")) {
            char *name = lf_tree_text(m->src, n);
            const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, n), name, ts_node_start_byte(n));
            free(name);
            TSNode v = lf_pysem_resolve_value(m, n);
            if (b && b->kind == LF_PYBIND_FOR) {
                listing = 1;
            } else if (b && b->kind == LF_PYBIND_PARAM) {
                TSNode args[8];
                size_t na = lf_pylock_param_args(l, b, args, 8);
                for (size_t k = 0; k < na; k++)
                    LF_VEC_PUSH(&todo, args[k]);
                other |= na == 0;
            } else if (!ts_node_eq(v, n)) {
                LF_VEC_PUSH(&todo, v);
            } else {
                other = 1;
            }
        } else {
            other = 1;
        }
    }
    other |= todo.len != 0; /* out of budget: not shown */
    LF_VEC_FREE(&todo);
    return listing && !other;
}

static int trusts_reused_pid(lf_pysem *m, lf_pylock *l, TSNode call, int *start_time) {
    TSNode pid = lf_pylock_arg(m, call, 0, "pid");
    if (!pid_from_record(m, l, pid, NULL) || pid_from_listing(m, l, pid))
        return 0;
    if (*start_time < 0) {
        start_search ss = {m, 0};
        lf_tree_walk(m->root, visit_start, &ss);
        *start_time = ss.found;
    }
    return !*start_time;
}

/* Has the probe's function already signalled the same pid
 * (`os.kill(pid, signal.SIGTERM)`, then `os.kill(pid, 0)` in a loop until it
 * fails)? Then the probe waits for a process this one stopped to exit: a
 * stop command, which judges no lock's owner, and the pid it signalled
 * successfully cannot be another user's. */
static int waits_for_signalled(lf_pysem *m, size_t probe) {
    static const char *const kill[] = {"os.kill", NULL};
    TSNode call = m->calls[probe].node;
    TSNode pid = lf_tree_unparen(lf_pylock_arg(m, call, 0, "pid"));
    if (!lf_tree_is(pid, "identifier"))
        return 0;
    for (size_t i = 0; i < probe; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != m->calls[probe].scope || !lf_pylock_callee_any(m, c->node, kill))
            continue;
        TSNode sig = lf_tree_unparen(lf_pylock_arg(m, c->node, 1, "signal"));
        TSNode other = lf_tree_unparen(lf_pylock_arg(m, c->node, 0, "pid"));
        if (!ts_node_is_null(sig) && !lf_tree_text_eq(m->src, sig, "0") && lf_tree_is(other, "identifier") &&
            lf_tree_equal(m->src, other, m->src, pid, 0))
            return 1;
    }
    return 0;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf303_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    static const char *const kill[] = {"os.kill", NULL};
    lf_pylock *l = NULL;
    int start_time = -1;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        if (!lf_pylock_callee_any(m, call, kill))
            continue;
        TSNode sig = lf_tree_unparen(lf_pylock_arg(m, call, 1, "signal"));
        if (!lf_tree_is(sig, "integer") || !lf_tree_text_eq(m->src, sig, "0"))
            continue;
        if (waits_for_signalled(m, i))
            continue;
        int32_t s = m->calls[i].stmt, child = -1;
        int32_t tr = s >= 0 ? enclosing_try(m, s, &child) : -1;
        char *probe = lf_py_short(src, call);
        int reported = 0, no_lock = 0;
        if (tr >= 0) {
            TSNode tn = m->stmts[tr].node;
            TSNode h_eperm = (TSNode){0}, h_esrch = (TSNode){0};
            TSNode else_block = (TSNode){0};
            for (uint32_t k = 0; k < ts_node_named_child_count(tn); k++) {
                TSNode c = ts_node_named_child(tn, k);
                if (lf_tree_is(c, "except_clause")) {
                    if (ts_node_is_null(h_eperm) && catches(m, c, ERR_EPERM))
                        h_eperm = c;
                    if (ts_node_is_null(h_esrch) && catches(m, c, ERR_ESRCH))
                        h_esrch = c;
                } else if (lf_tree_is(c, "else_clause")) {
                    else_block = lf_tree_field(c, "body");
                }
            }
            if (!ts_node_is_null(h_eperm) && !ts_node_is_null(h_esrch)) {
                path pe = {0}, ps = {0}, ok = {0};
                TSNode be = (TSNode){0}, bs = (TSNode){0};
                for (uint32_t k = 0; k < ts_node_named_child_count(h_eperm); k++)
                    if (lf_tree_is(ts_node_named_child(h_eperm, k), "block"))
                        be = ts_node_named_child(h_eperm, k);
                for (uint32_t k = 0; k < ts_node_named_child_count(h_esrch); k++)
                    if (lf_tree_is(ts_node_named_child(h_esrch, k), "block"))
                        bs = ts_node_named_child(h_esrch, k);
                follow(m, be, ERR_EPERM, &pe);
                follow(m, bs, ERR_ESRCH, &ps);
                /* Success: the rest of the try body after the probe, then else. */
                for (int32_t r = lf_pysem_next_sibling(m, child); r >= 0 && !ok.ends; r = lf_pysem_next_sibling(m, r)) {
                    TSNode st = m->stmts[r].node;
                    if (lf_tree_is(st, "pass_statement"))
                        continue;
                    LF_VEC_PUSH(&ok.stmts, st);
                    ok.ends = ends_path(st);
                }
                if (!ok.ends && !ts_node_is_null(else_block))
                    follow(m, else_block, ERR_EPERM, &ok); /* an else has no errno to test: unknown branches stop it */
                if (!l)
                    l = lf_pylock_build(m);
                no_lock = !pe.unknown && judges_no_lock(m, l, call, &pe);
                if (!pe.unknown && !ps.unknown && !ok.unknown && !pe.raises && same_path(m, &pe, &ps) &&
                    !same_path(m, &pe, &ok) && !no_lock) {
                    int one_clause = ts_node_eq(h_eperm, h_esrch);
                    /* The same probe may also trust a reused pid: say so now,
                     * since that finding only shows once this one is fixed. */
                    int reuse = trusts_reused_pid(m, l, call, &start_time);
                    char *msg = lf_xasprintf(
                        "%s: EPERM is read as \"dead\": %s (line %u) takes the same path for PermissionError as for "
                        "ProcessLookupError, but EPERM means the process is alive and owned by another user, so a "
                        "live owner's lock is judged stale (POSIX)%s",
                        probe, one_clause ? "the handler" : "the PermissionError handler", lf_py_line(src, h_eperm),
                        reuse ? "; it also trusts a reused pid (no start-time check), reported once this is fixed"
                              : "");
                    lf303_site *site = eperm_site(m, tn, child, h_eperm, &ok, else_block, m->stmts[s].node, call);
                    lf_ctx_emit_site(ctx, call, msg, site, lf303_site_free);
                    lf_ctx_witness(ctx, lf_wit_eperm(src, call, h_eperm));
                    free(msg);
                    reported = 1;
                }
                LF_VEC_FREE(&pe.stmts);
                LF_VEC_FREE(&ps.stmts);
                LF_VEC_FREE(&ok.stmts);
            }
        }
        if (!reported && !no_lock) {
            if (!l)
                l = lf_pylock_build(m);
            if (trusts_reused_pid(m, l, call, &start_time)) {
                char *msg = lf_xasprintf(
                    "%s trusts a pid read from a pid or lock file without comparing the process start time: "
                    "once the owner dies its pid can be reused by an unrelated process, which then holds the "
                    "lock forever (pid reuse only: how the probe's errors are read is not the problem; every "
                    "platform with pid reuse)",
                    probe);
                lf303_site *declined = lf_xcalloc(1, sizeof *declined);
                declined->decline = lf_xstrdup("pid reuse needs the owner's start time, recorded by whoever "
                                               "writes the pid (lockrt's owner record does: "
                                               "lockrt.process_alive)");
                lf_ctx_emit_site(ctx, call, msg, declined, lf303_site_free);
                lf_ctx_witness(ctx, lf_wit_pid_reuse(src, call));
                free(msg);
            }
        }
        free(probe);
    }
}

/* ---- the gate: could any call here be os.kill(pid, 0)? ----
 *
 * The prefilter asks for the word kill, which CPython's library says in
 * `proc.kill()`, `os.kill(pid, signal.SIGTERM)` and prose. Every probe the
 * check judges is a call of os.kill, through any alias the model follows,
 * whose signal is the literal 0 (positional, or `signal=0`, in parentheses
 * or not). So, on the text with comments and strings blanked (lf_pymask), the
 * file cannot hold one when every use of the word kill is the name of a
 * def or class, or is called with no argument that is a bare 0 or
 * `signal=0` and no starred one: an alias (`from os import kill as k`,
 * `k = os.kill`) is a use not followed by '(', and a hit. Anything else, or
 * anything unsure, is a hit (lf_pygate.h). */

/* Is m[a, b) (one argument of a call) `0` or `signal=0`, in brackets or not? */
static int zero_argument(const char *m, size_t a, size_t b) {
    a = lf_pygate_fwd_any(m, b, a);
    if (b - a > 6 && memcmp(m + a, "signal", 6) == 0) {
        size_t eq = lf_pygate_fwd_any(m, b, a + 6);
        if (eq < b && m[eq] == '=')
            a = eq + 1;
    }
    size_t zero = LF_PYGATE_NONE;
    for (size_t i = a; i < b; i++) {
        char c = m[i];
        if (c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\n' || c == '\r' || c == '\\')
            continue;
        if (c != '0' || zero != LF_PYGATE_NONE)
            return 0;
        zero = i;
    }
    return zero != LF_PYGATE_NONE;
}

/* May the call whose '(' is at m[open] pass a zero signal? */
static int may_pass_zero(const char *m, size_t n, size_t open) {
    if (lf_pygate_call_args(m, n, open) < 0)
        return 1; /* a starred argument, or brackets that do not close */
    unsigned depth = 0;
    size_t from = open + 1;
    for (size_t j = open + 1; j < n; j++) {
        char c = m[j];
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && (c == ',' || c == ')')) {
            if (zero_argument(m, from, j))
                return 1;
            if (c == ')')
                return 0;
            from = j + 1;
        }
    }
    return 1;
}

static int gate(lf_gate_text *in) {
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    if (!mk->m || !mk->balanced)
        return 1;
    const char *m = mk->m;
    size_t n = in->len;
    int alone;
    for (size_t at = 0; (alone = lf_pygate_next_use(m, n, "kill", &at)) != 0; at++) {
        if (alone < 0)
            return 1;
        if (lf_pygate_word_before(m, n, at, "def") || lf_pygate_word_before(m, n, at, "class"))
            continue;
        size_t open = lf_pygate_fwd(m, n, at + 4);
        if (open >= n || m[open] != '(' || may_pass_zero(m, n, open))
            return 1;
    }
    return 0;
}

const lf_check lf303_liveness_check = {"lf303_liveness", run, 0, 0, gate}; /* asks the model, not the query */
