/* LF101, continued: unlocked fallbacks that the lock call does not show where
 * the work is done. Reported with a decline reason (the rewrite covers the
 * direct shapes only):
 *  - lock helpers and stand-in lock classes: lf101_helper.c;
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

/* ---- exclusive creates used as locks ---- */

static const char *const k_removals[] = {"os.rmdir", "os.unlink", "os.remove", "shutil.rmtree",
                                         "pathlib.Path.rmdir", "pathlib.Path.unlink", NULL};

/* The path an exclusive create makes, or null: os.mkdir(p), os.open(p, ...O_EXCL...),
 * open(p, "x..."), Path(p).mkdir() / touch(exist_ok=False). */
TSNode lf101_exclusive_create(lf_pysem *m, TSNode call) {
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
                         lf101_lock_call_fn is_unlock, lf101_indirect_fn emit, void *ud) {
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (reported[c->scope] || m->scopes[c->scope].kind != LF_PYSCOPE_FUNCTION || c->stmt < 0)
            continue;
        TSNode stmt = m->stmts[c->stmt].node;
        /* An exclusive create whose failure is swallowed, the path removed later. */
        TSNode created = lf101_exclusive_create(m, c->node);
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
                emit(ud, c->scope, m->stmts[tr].node, msg, why, w, 0, NULL);
                free(path);
            }
        }
    }
    /* Helpers next: a function reported above is not judged again. */
    lf101_find_helpers(m, reported, is_lock, is_unlock, emit, ud);
}
