/* LF101, continued: unlocked fallbacks that the lock call does not show where
 * the work is done. Reported with a decline reason (the rewrite covers the
 * direct shapes only):
 *  - a lock helper that does nothing when the lock module is missing
 *    (`def _take(f): if fcntl is None: return False; fcntl.flock(f, ...)`),
 *    called by the function doing the work;
 *  - a stand-in class bound when the lock package is missing, whose
 *    `__enter__`/`acquire` take no lock (`except ImportError: class FileLock: ...`),
 *    used as `with FileLock(path):`;
 *  - an exclusive create used as a lock (`os.mkdir(d)`, `os.open(p, O_EXCL)`,
 *    `open(p, "x")`), its failure swallowed, and the path removed afterwards:
 *    the work runs whether the lock was taken or not. */
#include <stdlib.h>
#include <string.h>

#include "lf101_indirect.h"
#include "lf_pylock.h"
#include "lf_tree.h"
#include "lf_util.h"
#include "lf_witness_build.h"

static uint32_t line_of(const lf_pysem *m, TSNode n) {
    uint32_t line, col;
    lf_source_position(m->src, ts_node_start_byte(n), &line, &col);
    return line;
}

static TSNode expr_of_statement(TSNode stmt) {
    if (!lf_tree_is(stmt, "expression_statement") || lf_tree_child_count(stmt) != 1)
        return (TSNode){0};
    return lf_tree_unparen(lf_tree_child(stmt, 0));
}

/* The first statement after `stmt` in its block that calls something. */
static int32_t next_work(const lf_pysem *m, int32_t stmt) {
    for (int32_t s = lf_pysem_next_sibling(m, stmt); s >= 0; s = lf_pysem_next_sibling(m, s))
        if (!lf_tree_is(m->stmts[s].node, "pass_statement"))
            return s;
    return -1;
}

/* The optional module a condition tests for absence (`if fcntl is None: return ...`). */
static const lf_pyoptional *early_out_absent(lf_pysem *m, TSNode ifs) {
    if (!lf_tree_is(ifs, "if_statement") || !ts_node_is_null(lf_tree_field(ifs, "alternative")))
        return NULL;
    const lf_pyoptional *o = NULL;
    if (lf_pysem_presence_test(m, lf_tree_field(ifs, "condition"), &o) >= 0 || !o)
        return NULL;
    int32_t first = lf_pysem_first_in_block(m, lf_tree_field(ifs, "consequence"));
    return first >= 0 && lf_tree_is(m->stmts[first].node, "return_statement") ? o : NULL;
}

/* ---- lock helpers that return early without the module ---- */

typedef struct helper {
    int32_t scope; /* the helper function's scope */
    const lf_pyoptional *module;
} helper;

typedef LF_VEC(helper) helper_vec;

/* Functions whose body starts `if <module> is None: return ...` and then
 * takes an exclusive lock with one of the lock module's calls. */
static void find_helpers(lf_pysem *m, const lf101_lock_call_fn is_lock, helper_vec *out) {
    for (size_t i = 0; i < m->n_scopes; i++) {
        const lf_pyscope *sc = &m->scopes[i];
        if (sc->kind != LF_PYSCOPE_FUNCTION)
            continue;
        int32_t first = lf_pysem_first_in_block(m, lf_tree_field(sc->node, "body"));
        /* A docstring may come first. */
        if (first >= 0 && lf_tree_is(expr_of_statement(m->stmts[first].node), "string"))
            first = lf_pysem_next_sibling(m, first);
        if (first < 0)
            continue;
        const lf_pyoptional *o = early_out_absent(m, m->stmts[first].node);
        if (!o)
            continue;
        for (int32_t s = lf_pysem_next_sibling(m, first); s >= 0; s = lf_pysem_next_sibling(m, s)) {
            TSNode e = expr_of_statement(m->stmts[s].node);
            if (lf_tree_is(e, "call") && is_lock(m, e)) {
                helper h = {(int32_t)i, o};
                LF_VEC_PUSH(out, h);
                break;
            }
        }
    }
}

static const helper *helper_called(lf_pysem *m, TSNode call, const helper *hs, size_t n) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "identifier"))
        return NULL;
    char *name = lf_tree_text(m->src, fn);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, fn), name, ts_node_start_byte(fn));
    free(name);
    if (!b || b->kind != LF_PYBIND_DEF)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (ts_node_eq(m->scopes[hs[i].scope].node, b->value))
            return &hs[i];
    return NULL;
}

/* ---- stand-in lock classes ---- */

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

/* A class whose `__enter__` and `acquire` (where present) call nothing: a no-op lock. */
static int noop_lock_class(lf_pysem *m, TSNode cls) {
    TSNode body = lf_tree_field(cls, "body");
    int enter = 0;
    for (int32_t s = lf_pysem_first_in_block(m, body); s >= 0; s = lf_pysem_next_sibling(m, s)) {
        TSNode def = m->stmts[s].node;
        if (lf_tree_is(def, "decorated_definition"))
            def = lf_tree_field(def, "definition");
        if (!lf_tree_is(def, "function_definition"))
            continue;
        TSNode name = lf_tree_field(def, "name");
        if (!lf_tree_text_eq(m->src, name, "__enter__") && !lf_tree_text_eq(m->src, name, "acquire"))
            continue;
        enter = 1;
        calls_any c = {0};
        lf_tree_walk(lf_tree_field(def, "body"), visit_calls, &c);
        if (c.found)
            return 0;
    }
    return enter;
}

static const lf_pyoptional *standin_class_of(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "identifier"))
        return NULL;
    char *name = lf_tree_text(m->src, fn);
    const lf_pyoptional *o = lf_pysem_optional(m, name);
    free(name);
    if (!o || o->fallback_kind != LF_PYFALLBACK_STANDIN || !o->fallback ||
        !lf_tree_is(o->fallback->value, "class_definition") || !lf_pysem_is_lock_module(o->module))
        return NULL;
    return noop_lock_class(m, o->fallback->value) ? o : NULL;
}

/* ---- exclusive creates used as locks ---- */

static const char *const k_removals[] = {"os.rmdir", "os.unlink", "os.remove", "shutil.rmtree",
                                         "pathlib.Path.rmdir", "pathlib.Path.unlink", NULL};

/* The path an exclusive create makes, or null: os.mkdir(p), os.open(p, ...O_EXCL...),
 * open(p, "x..."), Path(p).mkdir() / touch(exist_ok=False). */
static TSNode exclusive_create(lf_pysem *m, TSNode call) {
    const char *q = lf_pysem_callee(m, call);
    TSNode args = lf_tree_field(call, "arguments");
    TSNode first = lf_tree_child(args, 0);
    if (!q || lf_tree_is(first, "keyword_argument"))
        return (TSNode){0};
    if (!strcmp(q, "os.mkdir"))
        return first;
    if (!strcmp(q, "os.open")) {
        TSNode flags = lf_tree_child(args, 1);
        return lf_tree_mentions(m->src, flags, "O_EXCL", NULL) ? first : (TSNode){0};
    }
    if ((!strcmp(q, "open") || !strcmp(q, "io.open")) && lf_pylock_callee_spelled(m->src, call, "open")) {
        /* a mode open() accepts (lf_pylock_open_mode): the prefilter's quoted modes */
        if (lf_pylock_open_mode(m->src, lf_tree_child(args, 1), 'x', 0))
            return first;
        return (TSNode){0};
    }
    if (!strcmp(q, "pathlib.Path.mkdir")) {
        TSNode fn = lf_tree_field(call, "function");
        return lf_tree_mentions(m->src, args, "exist_ok", NULL) ? (TSNode){0} : lf_tree_field(fn, "object");
    }
    return (TSNode){0};
}

typedef struct removal_search {
    lf_pysem *m;
    TSNode path;
    int found;
} removal_search;

static lf_walk_action visit_removal(TSNode n, void *ud) {
    removal_search *r = ud;
    if (!lf_tree_is(n, "call") || !lf_pysem_call_is(r->m, n, k_removals))
        return LF_WALK_CONTINUE;
    TSNode target = lf_tree_child(lf_tree_field(n, "arguments"), 0);
    if (ts_node_is_null(target) || lf_tree_is(target, "keyword_argument"))
        target = lf_tree_field(lf_tree_field(n, "function"), "object"); /* Path(p).rmdir() */
    if (lf_tree_equal(r->m->src, lf_tree_unparen(target), r->m->src, lf_tree_unparen(r->path), 0)) {
        r->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* The handler only passes, and catches what a failed create raises. */
static int swallows_create_error(lf_pysem *m, TSNode tr) {
    int handlers = 0, ok = 1;
    for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
        TSNode c = ts_node_named_child(tr, i);
        if (!lf_tree_is(c, "except_clause"))
            continue;
        handlers++;
        TSNode v = lf_tree_field(c, "value");
        if (lf_tree_is(v, "as_pattern"))
            v = ts_node_named_child(v, 0);
        const char *q = ts_node_is_null(v) ? "BaseException" : lf_pysem_qualname(m, v);
        if (!q || (strcmp(q, "FileExistsError") && strcmp(q, "OSError") && strcmp(q, "IOError") &&
                   strcmp(q, "Exception") && strcmp(q, "BaseException")))
            ok = 0;
        for (uint32_t j = 0; j < ts_node_named_child_count(c); j++) {
            TSNode b = ts_node_named_child(c, j);
            if (!lf_tree_is(b, "block"))
                continue;
            for (int32_t s = lf_pysem_first_in_block(m, b); s >= 0; s = lf_pysem_next_sibling(m, s))
                if (!lf_tree_is(m->stmts[s].node, "pass_statement") &&
                    !lf_tree_is(expr_of_statement(m->stmts[s].node), "ellipsis"))
                    ok = 0;
        }
    }
    return handlers > 0 && ok;
}

/* ---- the pass ---- */

char *lf101_where_missing(const char *module) {
    size_t top = module ? strcspn(module, ".") : 0;
    if (top == 5 && !strncmp(module, "fcntl", 5))
        return lf_xstrdup("on Windows, where fcntl does not exist");
    if (top == 6 && !strncmp(module, "msvcrt", 6))
        return lf_xstrdup("on every platform but Windows, where msvcrt does not exist");
    if ((top == 9 && !strncmp(module, "win32file", 9)) || (top == 10 && !strncmp(module, "pywintypes", 10)))
        return lf_xstrdup("off Windows, and on Windows wherever pywin32 is not installed");
    if (!top)
        return lf_xstrdup("wherever the lock module cannot be imported");
    return lf_xasprintf("wherever the %.*s package is not installed", (int)top, module);
}

void lf101_find_indirect(lf_pysem *m, const unsigned char *reported, lf101_lock_call_fn is_lock,
                         lf101_indirect_fn emit, void *ud) {
    helper_vec helpers = {0};
    find_helpers(m, is_lock, &helpers);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (reported[c->scope] || m->scopes[c->scope].kind != LF_PYSCOPE_FUNCTION || c->stmt < 0)
            continue;
        TSNode stmt = m->stmts[c->stmt].node;
        /* A call of a lock helper as a statement, with work after it. */
        const helper *h = helpers.len ? helper_called(m, c->node, helpers.items, helpers.len) : NULL;
        if (h && ts_node_eq(expr_of_statement(stmt), c->node) && h->scope != c->scope) {
            int32_t work = next_work(m, c->stmt);
            if (work >= 0) {
                char *fn = lf_tree_text(m->src, lf_tree_field(c->node, "function"));
                char *where = lf101_where_missing(h->module->module);
                char *msg = lf_xasprintf("the critical section is reachable without the %s lock: `%s()` takes no lock "
                                         "when `%s` is None/False (the conditional import's fallback), and the work "
                                         "at line %u runs anyway: unlocked %s",
                                         h->module->module, fn, h->module->name, line_of(m, m->stmts[work].node),
                                         where);
                free(where);
                char *why = lf_xasprintf("the lock is taken through the helper `%s()`, which the rewrite does not "
                                         "change",
                                         fn);
                char *wh = lf_xasprintf("only where %s is missing", h->module->module);
                char *entry = lf_xasprintf("calls `%s()`, which takes no lock when `%s` is None", fn, h->module->name);
                lf_witness *w =
                    lf_wit_unlocked_section(m->src, wh, LF_WIT_UNLOCKED, c->node, entry, m->stmts[work].node);
                free(wh);
                free(entry);
                emit(ud, c->scope, stmt, msg, why, w);
                free(fn);
                continue;
            }
        }
        /* `with StandIn(path):` where the stand-in takes no lock. */
        if (lf_tree_is(stmt, "with_statement")) {
            const lf_pyoptional *o = standin_class_of(m, c->node);
            if (o) {
                char *where = lf101_where_missing(o->module);
                char *msg = lf_xasprintf("the critical section is reachable without the %s lock: when %s is missing, "
                                         "the stand-in `%s` bound in its place (line %u) takes no lock: unlocked %s",
                                         o->module, o->module, o->name, line_of(m, o->fallback->value), where);
                free(where);
                char *why = lf_xasprintf("the lock comes from `%s`, whose waiting and errors the rewrite would not "
                                         "reproduce",
                                         o->module);
                char *wh = lf_xasprintf("only where %s is missing", o->module);
                char *entry = lf_xasprintf("enters the `with`: the stand-in `%s` takes no lock", o->name);
                TSNode body = lf_tree_field(stmt, "body");
                TSNode first = ts_node_is_null(body) ? body : ts_node_named_child(body, 0);
                lf_witness *w = lf_wit_unlocked_section(m->src, wh, LF_WIT_UNLOCKED, c->node, entry, first);
                free(wh);
                free(entry);
                emit(ud, c->scope, stmt, msg, why, w);
                continue;
            }
        }
        /* An exclusive create whose failure is swallowed, the path removed later. */
        TSNode created = exclusive_create(m, c->node);
        int32_t tr = m->stmts[c->stmt].parent;
        if (!ts_node_is_null(created) && ts_node_eq(expr_of_statement(stmt), c->node) && tr >= 0 &&
            m->stmts[c->stmt].clause == LF_PYCLAUSE_TRY_BODY && lf_tree_is(m->stmts[tr].node, "try_statement") &&
            swallows_create_error(m, m->stmts[tr].node)) {
            /* Retried until it succeeds, it is a real lock. */
            int32_t loop = m->stmts[tr].parent;
            if (loop >= 0 && m->stmts[tr].clause == LF_PYCLAUSE_LOOP_BODY)
                continue;
            removal_search rs = {m, created, 0};
            for (int32_t s = lf_pysem_next_sibling(m, tr); s >= 0 && !rs.found; s = lf_pysem_next_sibling(m, s))
                lf_tree_walk(m->stmts[s].node, visit_removal, &rs);
            int32_t work = next_work(m, tr);
            if (rs.found && work >= 0) {
                char *path = lf_tree_text(m->src, created);
                char *msg = lf_xasprintf("the critical section is reachable without the lock: creating `%s` (the "
                                         "lock) can fail, the error is swallowed, and the work at line %u runs anyway: unlocked "
                                         "on every platform, whenever another process holds it",
                                         path, line_of(m, m->stmts[work].node));
                char *why = lf_xstrdup("the lock is an exclusive create, not a lock the rewrite swaps for lockrt");
                lf_witness *w = lf_wit_unlocked_section(
                    m->src, "any platform, whenever another process holds the lock", LF_WIT_ACQUIRE_FAILS, c->node,
                    "fails to create the lock (another process holds it); the error is swallowed",
                    m->stmts[work].node);
                emit(ud, c->scope, m->stmts[tr].node, msg, why, w);
                free(path);
            }
        }
    }
    LF_VEC_FREE(&helpers);
}
