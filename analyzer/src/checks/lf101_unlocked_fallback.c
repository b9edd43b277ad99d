/* LF101: the critical section is reachable without the lock.
 *
 * Two shapes, one finding per function:
 *  - the lock module is imported conditionally with a None/False fallback
 *    (`if ...: import fcntl / else: fcntl = None`, `try: import fcntl / except
 *    ImportError: fcntl = None`), and a function tests that name around its
 *    locked read-modify-write while an else branch or the code after the `if`
 *    runs a copy of it without the lock (finding at the `if`);
 *  - acquisition errors are swallowed (`except OSError: pass`) and the code after
 *    the `try` runs a copy of the locked work (finding at the `try`).
 * A "copy" is a call spelled exactly as one inside the locked region. The
 * query finds lock-module imports and acquisition calls; the rest is flow
 * inside one function, decided here. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
#include "lf_py.h"

typedef struct fallback {
    TSNode name;   /* the bound name ("fcntl") in the import */
    TSNode import; /* the import statement */
    size_t match;
} fallback;

typedef LF_VEC(fallback) fallback_vec;
typedef LF_VEC(TSNode) node_vec;

static int is_none_or_false(TSNode n) {
    const char *t = ts_node_type(n);
    return strcmp(t, "none") == 0 || strcmp(t, "false") == 0;
}

/* `st` is a plain `left = right` statement: both sides returned. */
static int statement_assignment(TSNode st, TSNode *left, TSNode *right) {
    if (strcmp(ts_node_type(st), "expression_statement") != 0 || ts_node_named_child_count(st) < 1)
        return 0;
    TSNode a = ts_node_named_child(st, 0);
    if (strcmp(ts_node_type(a), "assignment") != 0)
        return 0;
    *left = ts_node_child_by_field_name(a, "left", 4);
    *right = ts_node_child_by_field_name(a, "right", 5);
    return !ts_node_is_null(*left) && !ts_node_is_null(*right);
}

/* Does `block` assign None/False to `name` directly? */
static int block_assigns_fallback(const lf_source *src, TSNode block, TSNode name) {
    if (ts_node_is_null(block))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(block); i++) {
        TSNode left, right;
        if (statement_assignment(ts_node_named_child(block, i), &left, &right) &&
            lf_py_same_text(src, left, name) && is_none_or_false(right))
            return 1;
    }
    return 0;
}

static TSNode else_block_of(TSNode if_stmt) {
    TSNode alt = ts_node_child_by_field_name(if_stmt, "alternative", 11);
    if (ts_node_is_null(alt) || strcmp(ts_node_type(alt), "else_clause") != 0)
        return (TSNode){0};
    return ts_node_child_by_field_name(alt, "body", 4);
}

static int is_true(TSNode n) { return strcmp(ts_node_type(n), "true") == 0; }

/* The branch that runs when the import did not: the else of an `if` holding the
 * import, the `if` body when the import is in the else, or the except blocks of
 * a `try` holding it. Up to 4 blocks. */
static size_t other_branches(TSNode imp, TSNode *out) {
    TSNode block = ts_node_parent(imp);
    if (ts_node_is_null(block) || strcmp(ts_node_type(block), "block") != 0)
        return 0;
    TSNode owner = ts_node_parent(block);
    if (ts_node_is_null(owner))
        return 0;
    const char *t = ts_node_type(owner);
    size_t n = 0;
    if (strcmp(t, "if_statement") == 0) {
        TSNode e = else_block_of(owner);
        if (!ts_node_is_null(e))
            out[n++] = e;
    } else if (strcmp(t, "else_clause") == 0) {
        TSNode if_stmt = ts_node_parent(owner);
        if (!ts_node_is_null(if_stmt))
            out[n++] = ts_node_child_by_field_name(if_stmt, "consequence", 11);
    } else if (strcmp(t, "try_statement") == 0) {
        for (uint32_t i = 0; i < ts_node_named_child_count(owner) && n < 4; i++) {
            TSNode c = ts_node_named_child(owner, i);
            if (strcmp(ts_node_type(c), "except_clause") != 0)
                continue;
            for (uint32_t k = 0; k < ts_node_named_child_count(c) && n < 4; k++) {
                TSNode b = ts_node_named_child(c, k);
                if (strcmp(ts_node_type(b), "block") == 0)
                    out[n++] = b;
            }
        }
    }
    return n;
}

/* Names the import's fallback leaves None/False: the bound name itself
 * (`fcntl = None`), or a flag set True beside the import and False in the
 * fallback (`HAS_FCNTL = True` / `HAS_FCNTL = False`). */
static void fallback_names(const lf_source *src, TSNode imp, TSNode bound, size_t match, fallback_vec *out) {
    TSNode others[4];
    size_t n_others = other_branches(imp, others);
    if (n_others == 0)
        return;
    for (size_t i = 0; i < n_others; i++) {
        if (block_assigns_fallback(src, others[i], bound)) {
            fallback fb = {bound, imp, match};
            LF_VEC_PUSH(out, fb);
            break;
        }
    }
    TSNode block = ts_node_parent(imp);
    for (uint32_t i = 0; i < ts_node_named_child_count(block); i++) {
        TSNode left, right;
        if (!statement_assignment(ts_node_named_child(block, i), &left, &right) ||
            strcmp(ts_node_type(left), "identifier") != 0 || !is_true(right))
            continue;
        for (size_t k = 0; k < n_others; k++) {
            if (block_assigns_fallback(src, others[k], left)) {
                int dup = 0;
                for (size_t d = 0; d < out->len; d++)
                    dup |= lf_py_same_text(src, out->items[d].name, left);
                if (!dup) {
                    fallback fb = {left, imp, match};
                    LF_VEC_PUSH(out, fb);
                }
                break;
            }
        }
    }
}

/* Names an import statement binds: `import fcntl` -> fcntl, `import fcntl as f`
 * -> f, `from fcntl import flock` -> flock. */
static void bound_names(TSNode imp, node_vec *out) {
    for (uint32_t i = 0; i < ts_node_named_child_count(imp); i++) {
        TSNode c = ts_node_named_child(imp, i);
        const char *field = ts_node_field_name_for_named_child(imp, i);
        if (!field || strcmp(field, "name") != 0)
            continue;
        if (strcmp(ts_node_type(c), "aliased_import") == 0) {
            TSNode alias = ts_node_child_by_field_name(c, "alias", 5);
            if (!ts_node_is_null(alias))
                LF_VEC_PUSH(out, alias);
        } else if (strcmp(ts_node_type(c), "dotted_name") == 0 && ts_node_named_child_count(c) == 1) {
            LF_VEC_PUSH(out, ts_node_named_child(c, 0));
        }
    }
}

/* ---- regions and copies ---- */

typedef struct region {
    TSNode nodes[64];
    size_t n;
} region;

static void region_add(region *r, TSNode n) {
    if (r->n < sizeof r->nodes / sizeof r->nodes[0])
        r->nodes[r->n++] = n;
}

/* Statements after `stmt` in its block. */
static void region_following(region *r, TSNode stmt) {
    for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
        if (strcmp(ts_node_type(s), "comment") != 0)
            region_add(r, s);
}

typedef struct call_list {
    const lf_source *src;
    node_vec calls;
} call_list;

static int collect_call(TSNode n, void *ud) {
    LF_VEC_PUSH(&((call_list *)ud)->calls, n);
    return 1;
}

/* Does `hay` contain a call spelled like one of `needles` (other than calls on
 * the lock module itself)? Returns the first such call in `hay`. */
/* Calls that appear on both paths without being the critical section: cleanup,
 * logging, conversions. A copy of only these is not a copy of the work. */
static const char *const k_not_work[] = {"close", "print", "debug", "info", "warning", "warn", "error",
                                         "exception", "critical", "log", "len", "str", "int", "float",
                                         "bool", "repr", "isinstance", "sleep", "time", "monotonic",
                                         "getpid", "fileno", "flush", "fsync", NULL};

static int is_not_work(const lf_source *src, TSNode call) {
    TSNode name;
    if (!lf_py_call_name(call, &name))
        return 0;
    for (size_t i = 0; k_not_work[i]; i++)
        if (lf_py_is(src, name, k_not_work[i]))
            return 1;
    return 0;
}

/* An unlocked path that raises refuses to proceed: that is the correct shape. */
static int region_raises(const region *r) {
    for (size_t i = 0; i < r->n; i++) {
        TSNode n = r->nodes[i];
        if (strcmp(ts_node_type(n), "raise_statement") == 0)
            return 1;
        if (strcmp(ts_node_type(n), "block") == 0)
            for (uint32_t k = 0; k < ts_node_named_child_count(n); k++)
                if (strcmp(ts_node_type(ts_node_named_child(n, k)), "raise_statement") == 0)
                    return 1;
    }
    return 0;
}

static int find_copy(const lf_source *src, const region *hay, const region *locked, const node_vec *lock_names,
                     TSNode *copy) {
    call_list lc = {src, {0}}, hc = {src, {0}};
    for (size_t i = 0; i < locked->n; i++)
        lf_py_walk(locked->nodes[i], "call", 1, collect_call, &lc);
    for (size_t i = 0; i < hay->n; i++)
        lf_py_walk(hay->nodes[i], "call", 1, collect_call, &hc);
    int found = 0;
    for (size_t i = 0; i < hc.calls.len && !found; i++) {
        TSNode h = hc.calls.items[i];
        int mentions_lock = 0;
        for (size_t k = 0; k < lock_names->len; k++) {
            char *nm = lf_node_text(src, lock_names->items[k]);
            const char *needles[] = {nm, NULL};
            mentions_lock |= lf_py_text_has(src, h, needles);
            free(nm);
        }
        if (mentions_lock || is_not_work(src, h))
            continue;
        for (size_t k = 0; k < lc.calls.len; k++) {
            if (lf_py_same_text(src, h, lc.calls.items[k])) {
                *copy = h;
                found = 1;
                break;
            }
        }
    }
    LF_VEC_FREE(&lc.calls);
    LF_VEC_FREE(&hc.calls);
    return found;
}

/* Does the region acquire a lock: a call on one of the lock names, or an
 * acquisition call captured by the query? */
static int region_locks(const lf_source *src, const region *r, const node_vec *lock_names, const node_vec *acquires) {
    for (size_t i = 0; i < r->n; i++) {
        for (size_t k = 0; k < acquires->len; k++)
            if (lf_py_within(acquires->items[k], r->nodes[i]))
                return 1;
        for (size_t k = 0; k < lock_names->len; k++) {
            char *nm = lf_node_text(src, lock_names->items[k]);
            char *dotted = lf_xasprintf("%s.", nm);
            char *called = lf_xasprintf("%s(", nm);
            const char *needles[] = {dotted, called, NULL};
            int hit = lf_py_text_has(src, r->nodes[i], needles);
            free(nm);
            free(dotted);
            free(called);
            if (hit)
                return 1;
        }
    }
    return 0;
}

/* Which fallback name does the condition test, and is the test positive
 * (`fcntl is not None`, `fcntl`) or negative (`fcntl is None`, `not fcntl`)? */
static const fallback *tested_name(const lf_source *src, TSNode cond, const fallback_vec *fbs, int *positive) {
    for (size_t i = 0; i < fbs->len; i++) {
        char *nm = lf_node_text(src, fbs->items[i].name);
        char *t = lf_node_text(src, cond);
        int hit = 0;
        /* Whole-word occurrence of the name in the condition. */
        for (char *p = strstr(t, nm); p; p = strstr(p + 1, nm)) {
            size_t L = strlen(nm);
            int before_ok = p == t || !(p[-1] == '_' || p[-1] == '.' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                        (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
            char a = p[L];
            int after_ok = !(a == '_' || a == '.' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') ||
                             (a >= '0' && a <= '9'));
            if (before_ok && after_ok) {
                hit = 1;
                break;
            }
        }
        if (hit) {
            int negative = (strstr(t, "is None") || strstr(t, "is False") || strncmp(t, "not ", 4) == 0 ||
                            strstr(t, "== None")) &&
                           !strstr(t, "is not None") && !strstr(t, "is not False");
            *positive = !negative;
            free(nm);
            free(t);
            return &fbs->items[i];
        }
        free(nm);
        free(t);
    }
    return NULL;
}

typedef struct fn_scan {
    lf_check_ctx *ctx;
    const lf_source *src;
    const fallback_vec *fbs;
    const node_vec *lock_names;
    const node_vec *acquires;
    int reported;
} fn_scan;

static void emit(fn_scan *s, TSNode at, size_t match, TSNode locked_first, TSNode copy, const char *how) {
    const lf_source *src = s->src;
    const lf_rule *rule = lf_ctx_rule(s->ctx);
    uint32_t l1, c1, l2, c2;
    lf_source_position(src, ts_node_start_byte(locked_first), &l1, &c1);
    lf_source_position(src, ts_node_start_byte(lf_py_statement(copy)), &l2, &c2);
    char *head = NULL;
    if (match != SIZE_MAX) {
        const lf_match_rec *m = &s->ctx->matches[match];
        head = lf_render_message(rule->message, src, s->ctx->query, s->ctx->captures + m->first, m->count);
    } else {
        head = lf_xstrdup("the critical section is reachable without the lock");
    }
    char *msg = lf_xasprintf("%s: the locked path (line %u) has an unlocked copy starting at line %u, run %s", head,
                             l1, l2, how);
    lf_ctx_emit(s->ctx, at, msg, SIZE_MAX);
    free(head);
    free(msg);
    s->reported = 1;
}

static int visit_if(TSNode ifs, void *ud) {
    fn_scan *s = ud;
    if (s->reported)
        return 0;
    TSNode cond = ts_node_child_by_field_name(ifs, "condition", 9);
    int positive = 1;
    const fallback *fb = ts_node_is_null(cond) ? NULL : tested_name(s->src, cond, s->fbs, &positive);
    if (!fb)
        return 1;
    region locked = {.n = 0}, unlocked = {.n = 0};
    TSNode body = ts_node_child_by_field_name(ifs, "consequence", 11);
    TSNode other = else_block_of(ifs);
    if (ts_node_is_null(body))
        return 1;
    if (positive) {
        region_add(&locked, body);
        if (!ts_node_is_null(other))
            region_add(&unlocked, other);
        else
            region_following(&unlocked, ifs);
    } else {
        region_add(&unlocked, body);
        if (!ts_node_is_null(other))
            region_add(&locked, other);
        else
            region_following(&locked, ifs);
    }
    TSNode copy;
    if (!region_locks(s->src, &locked, s->lock_names, s->acquires) || region_raises(&unlocked) ||
        !find_copy(s->src, &unlocked, &locked, s->lock_names, &copy))
        return 1;
    char *nm = lf_node_text(s->src, fb->name);
    char *how = lf_xasprintf("when `%s` is None/False (the conditional import's fallback) or when acquiring the lock fails",
                             nm);
    emit(s, ifs, fb->match, locked.nodes[0], copy, how);
    free(how);
    free(nm);
    return 0;
}

static int handler_swallows(const lf_source *src, TSNode exc) {
    /* except OSError / Exception / bare: ... whose body only passes or logs */
    char *t = lf_node_text(src, exc);
    int catches = strncmp(t, "except:", 7) == 0 || strstr(t, "OSError") || strstr(t, "IOError") ||
                  strstr(t, "BlockingIOError") || strstr(t, "Exception") || strstr(t, "PermissionError");
    int raises = strstr(t, "raise") != NULL || strstr(t, "return") != NULL;
    free(t);
    return catches && !raises;
}

static int visit_try(TSNode tr, void *ud) {
    fn_scan *s = ud;
    if (s->reported)
        return 0;
    TSNode body = ts_node_child_by_field_name(tr, "body", 4);
    if (ts_node_is_null(body))
        return 1;
    region locked = {.n = 0}, unlocked = {.n = 0};
    region_add(&locked, body);
    int acquires = 0;
    for (size_t k = 0; k < s->acquires->len; k++)
        if (lf_py_within(s->acquires->items[k], body))
            acquires = 1;
    if (!acquires)
        return 1;
    int swallowed = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
        TSNode c = ts_node_named_child(tr, i);
        if (strcmp(ts_node_type(c), "except_clause") == 0 && handler_swallows(s->src, c))
            swallowed = 1;
    }
    if (!swallowed)
        return 1;
    region_following(&unlocked, tr);
    if (region_raises(&unlocked))
        return 1;
    TSNode copy;
    node_vec none = {0};
    if (!find_copy(s->src, &unlocked, &locked, &none, &copy))
        return 1;
    emit(s, tr, SIZE_MAX, body, copy, "when acquiring the lock fails (the error is swallowed)");
    return 0;
}

typedef struct fn_list {
    node_vec fns;
} fn_list;

static int collect_fn(TSNode n, void *ud) {
    LF_VEC_PUSH(&((fn_list *)ud)->fns, n);
    return 1;
}

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    fallback_vec fbs = {0};
    node_vec lock_names = {0}, acquires = {0};
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode imp, acq;
        if (lf_ctx_capture(ctx, i, "import", &imp)) {
            node_vec names = {0};
            bound_names(imp, &names);
            for (size_t k = 0; k < names.len; k++) {
                LF_VEC_PUSH(&lock_names, names.items[k]);
                fallback_names(src, imp, names.items[k], i, &fbs);
            }
            LF_VEC_FREE(&names);
        }
        if (lf_ctx_capture(ctx, i, "acquire", &acq))
            LF_VEC_PUSH(&acquires, acq);
    }
    fn_list fl = {{0}};
    lf_py_walk(lf_ctx_root(ctx), "function_definition", 0, collect_fn, &fl);
    for (size_t i = 0; i < fl.fns.len; i++) {
        TSNode body = ts_node_child_by_field_name(fl.fns.items[i], "body", 4);
        if (ts_node_is_null(body))
            continue;
        fn_scan s = {ctx, src, &fbs, &lock_names, &acquires, 0};
        if (fbs.len)
            lf_py_walk(body, "if_statement", 1, visit_if, &s);
        if (!s.reported)
            lf_py_walk(body, "try_statement", 1, visit_try, &s);
    }
    LF_VEC_FREE(&fl.fns);
    LF_VEC_FREE(&fbs);
    LF_VEC_FREE(&lock_names);
    LF_VEC_FREE(&acquires);
}

const lf_check lf101_unlocked_fallback_check = {"lf101_unlocked_fallback", run};
