/* LF101 fix: collapse a lock fallback into one locked copy that uses lockrt.
 *
 * Recognised site, MOD being `fcntl` or `msvcrt` imported conditionally at module
 * level with a None fallback (`if ...: import MOD / else: MOD = None`, or
 * `try: import MOD / except ImportError: MOD = None`):
 *
 *     if MOD is not None:                      # or `if MOD:`
 *         try:
 *             FD = os.open(PATH, ...)          # or `with open(PATH, ...) as F:`
 *             MOD.flock(FD, MOD.LOCK_EX)       #    (flock / lockf / locking)
 *             try:
 *                 BODY                         # ends in `return`
 *             finally:
 *                 MOD.flock(FD, MOD.LOCK_UN)   # only unlock and close calls
 *                 os.close(FD)
 *         except OSError:                      # only `pass`
 *             pass
 *     BODY                                     # the rest of the block: the same
 *                                              # statements, comments aside
 * becomes
 *
 *     # (why, and what happens when the lock is not acquired in time)
 *     with lockrt.exclusive_lock(PATH) as acquired:
 *         BODY
 *
 * The conditional import goes when no use of MOD is left outside the sites
 * rewritten (with `import sys` when nothing else uses it); the module imports
 * lockrt in its package's style and the binding is vendored beside it
 * (lf_vendor). Anything else is declined with the reason: a guess would be a
 * silent behaviour change in code whose bug is already silent.
 *
 * lockrt takes flock on the same lock file on POSIX, so patched and unpatched
 * processes keep excluding each other while a fan-out rolls out. */
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_util.h"
#include "lf_vendor.h"

typedef LF_VEC(TSNode) node_vec;

/* ---- small tree helpers ---- */

/* Named children of a block that are statements (comments dropped). */
static void statements(TSNode block, node_vec *out) {
    for (uint32_t i = 0; i < ts_node_named_child_count(block); i++) {
        TSNode c = ts_node_named_child(block, i);
        if (!lf_pyfix_is(c, "comment"))
            LF_VEC_PUSH(out, c);
    }
}

/* The single statement of a block, comments aside; null when 0 or several. */
static TSNode only_statement(TSNode block) {
    node_vec v = {0};
    statements(block, &v);
    TSNode r = v.len == 1 ? v.items[0] : (TSNode){0};
    LF_VEC_FREE(&v);
    return r;
}

/* The expression of an expression statement, or `left = right` parts of a plain
 * (possibly annotated) assignment statement. */
static TSNode expression_of(TSNode stmt) {
    if (!lf_pyfix_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    return ts_node_named_child(stmt, 0);
}

static int assignment_of(TSNode stmt, TSNode *left, TSNode *right) {
    TSNode a = expression_of(stmt);
    if (!lf_pyfix_is(a, "assignment"))
        return 0;
    *left = lf_pyfix_field(a, "left");
    *right = lf_pyfix_field(a, "right");
    return lf_pyfix_is(*left, "identifier") && !ts_node_is_null(*right);
}

/* Same code, comments, layout and local type hints aside: node types match all
 * the way down and leaves read the same. (A local variable's annotation is
 * never evaluated, so `x: int = f()` and `x = f()` run alike.) */
static int same_tree(const lf_source *src, TSNode a, TSNode b) {
    if (strcmp(ts_node_type(a), ts_node_type(b)) != 0)
        return 0;
    if (lf_pyfix_is(a, "assignment")) {
        TSNode ra = lf_pyfix_field(a, "right"), rb = lf_pyfix_field(b, "right");
        if (ts_node_is_null(ra) || ts_node_is_null(rb))
            return 0; /* bare annotations `x: int` */
        return same_tree(src, lf_pyfix_field(a, "left"), lf_pyfix_field(b, "left")) && same_tree(src, ra, rb);
    }
    uint32_t na = ts_node_child_count(a), nb = ts_node_child_count(b);
    if (na == 0 || nb == 0) {
        uint32_t la = ts_node_end_byte(a) - ts_node_start_byte(a), lb = ts_node_end_byte(b) - ts_node_start_byte(b);
        return na == nb && la == lb && memcmp(src->text + ts_node_start_byte(a), src->text + ts_node_start_byte(b), la) == 0;
    }
    uint32_t i = 0, k = 0;
    for (;;) {
        while (i < na && lf_pyfix_is(ts_node_child(a, i), "comment"))
            i++;
        while (k < nb && lf_pyfix_is(ts_node_child(b, k), "comment"))
            k++;
        if (i == na || k == nb)
            return i == na && k == nb;
        if (!same_tree(src, ts_node_child(a, i), ts_node_child(b, k)))
            return 0;
        i++, k++;
    }
}

/* ---- the conditional import ---- */

/* `import MOD` exactly. */
static int imports_module(const lf_source *src, TSNode stmt, const char *mod) {
    if (!lf_pyfix_is(stmt, "import_statement") || ts_node_named_child_count(stmt) != 1)
        return 0;
    TSNode name = ts_node_named_child(stmt, 0);
    return lf_pyfix_is(name, "dotted_name") && lf_node_text_eq(src, name, mod);
}

static int assigns_none(const lf_source *src, TSNode stmt, const char *mod) {
    TSNode left, right;
    return assignment_of(stmt, &left, &right) && lf_node_text_eq(src, left, mod) && lf_pyfix_is(right, "none");
}

/* The module-level statement importing MOD with a None fallback. *pure is set
 * when it holds nothing else (so it can be removed whole). */
static TSNode conditional_import(const lf_source *src, TSNode root, const char *mod, int *pure) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode s = ts_node_named_child(root, i);
        if (lf_pyfix_is(s, "if_statement")) {
            TSNode then = lf_pyfix_field(s, "consequence"), alt = lf_pyfix_field(s, "alternative");
            if (!lf_pyfix_is(alt, "else_clause"))
                continue;
            TSNode other = lf_pyfix_field(alt, "body");
            TSNode a = only_statement(then), b = only_statement(other);
            int imp_then = !ts_node_is_null(a) && imports_module(src, a, mod) && !ts_node_is_null(b) && assigns_none(src, b, mod);
            int imp_else = !ts_node_is_null(b) && imports_module(src, b, mod) && !ts_node_is_null(a) && assigns_none(src, a, mod);
            if (imp_then || imp_else) {
                /* one alternative only: an elif would be a third branch */
                *pure = ts_node_named_child_count(s) == 3;
                return s;
            }
        } else if (lf_pyfix_is(s, "try_statement")) {
            TSNode body = lf_pyfix_field(s, "body");
            TSNode a = only_statement(body);
            if (ts_node_is_null(a) || !imports_module(src, a, mod))
                continue;
            int handlers = 0, fallback = 0, other = 0;
            for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
                TSNode c = ts_node_named_child(s, k);
                if (lf_pyfix_is(c, "except_clause")) {
                    handlers++;
                    for (uint32_t j = 0; j < ts_node_named_child_count(c); j++) {
                        TSNode b = ts_node_named_child(c, j);
                        if (lf_pyfix_is(b, "block")) {
                            TSNode only = only_statement(b);
                            fallback |= !ts_node_is_null(only) && assigns_none(src, only, mod);
                        }
                    }
                } else if (!lf_pyfix_is(c, "block") && !lf_pyfix_is(c, "comment")) {
                    other = 1; /* else / finally */
                }
            }
            if (fallback) {
                *pure = handlers == 1 && !other;
                return s;
            }
        }
    }
    return (TSNode){0};
}

/* ---- the site ---- */

typedef struct site {
    TSNode ifs;
    TSNode lock_path;            /* PATH */
    node_vec body;               /* BODY statements of the locked copy */
    TSNode body_block;
    TSNode inner_try;            /* the try/finally holding BODY */
    TSNode tail_last;            /* last statement of the unlocked copy */
} site;

static void site_free(site *s) { LF_VEC_FREE(&s->body); }

/* `if MOD is not None:` / `if MOD:` / `if MOD is not False:` */
static int tests_module(const lf_source *src, TSNode ifs, const char *mod) {
    TSNode c = lf_pyfix_field(ifs, "condition");
    while (lf_pyfix_is(c, "parenthesized_expression") && ts_node_named_child_count(c) == 1)
        c = ts_node_named_child(c, 0);
    if (lf_pyfix_is(c, "identifier"))
        return lf_node_text_eq(src, c, mod);
    if (!lf_pyfix_is(c, "comparison_operator") || ts_node_named_child_count(c) != 2)
        return 0;
    char *t = lf_node_text(src, c);
    char *a = lf_xasprintf("%s is not None", mod), *b = lf_xasprintf("%s is not False", mod);
    int ok = strcmp(t, a) == 0 || strcmp(t, b) == 0;
    free(t);
    free(a);
    free(b);
    return ok;
}

/* `MOD.flock(X, ...)`, `MOD.lockf(X, ...)` or `MOD.locking(X, ...)`: the lock call. */
static int is_lock_call(const lf_source *src, TSNode stmt, const char *mod, int unlock, const char *handle) {
    TSNode call = expression_of(stmt);
    if (!lf_pyfix_is(call, "call"))
        return 0;
    const char *names[] = {"flock", "lockf", "locking"};
    int callee = 0;
    for (size_t i = 0; i < 3; i++) {
        char *want = lf_xasprintf("%s.%s", mod, names[i]);
        callee |= lf_pyfix_call_is(src, call, want);
        free(want);
    }
    TSNode target = lf_pyfix_call_arg(call, 0), op = lf_pyfix_call_arg(call, 1);
    if (!callee || ts_node_is_null(target) || ts_node_is_null(op) || !lf_pyfix_mentions(src, target, handle))
        return 0;
    char *t = lf_node_text(src, op);
    int releases = strstr(t, "LOCK_UN") || strstr(t, "LK_UNLCK");
    int takes = strstr(t, "LOCK_EX") || strstr(t, "LK_LOCK") || strstr(t, "LK_NBLCK");
    free(t);
    return unlock ? releases : takes && !releases;
}

/* `os.close(FD)` or `F.close()`. */
static int is_close(const lf_source *src, TSNode stmt, const char *handle) {
    TSNode call = expression_of(stmt);
    if (lf_pyfix_call_is(src, call, "os.close"))
        return lf_pyfix_call_arg_count(call) == 1 && lf_node_text_eq(src, lf_pyfix_call_arg(call, 0), handle);
    char *m = lf_xasprintf("%s.close", handle);
    int ok = lf_pyfix_call_is(src, call, m) && lf_pyfix_call_arg_count(call) == 0;
    free(m);
    return ok;
}

/* The handler swallows acquisition errors and nothing else: `except OSError:`
 * (or IOError, BlockingIOError, PermissionError, Exception, a tuple of them),
 * body `pass`. */
static int swallowing_handler(const lf_source *src, TSNode exc) {
    TSNode block = (TSNode){0};
    TSNode type = (TSNode){0};
    for (uint32_t j = 0; j < ts_node_named_child_count(exc); j++) {
        TSNode c = ts_node_named_child(exc, j);
        if (lf_pyfix_is(c, "block"))
            block = c;
        else if (!lf_pyfix_is(c, "comment") && ts_node_is_null(type))
            type = c;
    }
    TSNode only = only_statement(block);
    if (ts_node_is_null(type) || ts_node_is_null(only) || !lf_pyfix_is(only, "pass_statement"))
        return 0;
    if (lf_pyfix_is(type, "as_pattern"))
        type = ts_node_named_child(type, 0);
    node_vec names = {0};
    if (lf_pyfix_is(type, "tuple") || lf_pyfix_is(type, "parenthesized_expression")) {
        for (uint32_t j = 0; j < ts_node_named_child_count(type); j++)
            LF_VEC_PUSH(&names, ts_node_named_child(type, j));
    } else {
        LF_VEC_PUSH(&names, type);
    }
    static const char *const ok_names[] = {"OSError", "IOError", "BlockingIOError", "PermissionError", "Exception", NULL};
    int ok = names.len > 0;
    for (size_t i = 0; i < names.len && ok; i++) {
        int known = 0;
        for (size_t k = 0; ok_names[k]; k++)
            known |= lf_node_text_eq(src, names.items[i], ok_names[k]);
        ok = known;
    }
    LF_VEC_FREE(&names);
    return ok;
}

static int fail(char **why, char *reason) {
    if (why)
        *why = reason;
    else
        free(reason);
    return 0;
}

/* Recognise the site at `ifs`; 1 with *out filled, or 0 with *why. */
static int recognise(const lf_source *src, TSNode ifs, const char *mod, site *out, char **why) {
    memset(out, 0, sizeof *out);
    out->ifs = ifs;
    if (!lf_pyfix_is(ifs, "if_statement") || !tests_module(src, ifs, mod))
        return fail(why, lf_xasprintf("the site is not `if %s is not None:` around the locked path", mod));
    if (!ts_node_is_null(lf_pyfix_field(ifs, "alternative")))
        return fail(why, lf_xasprintf("`if %s ...` has an else/elif branch; only the fall-through shape is rewritten", mod));
    TSNode outer_try = only_statement(lf_pyfix_field(ifs, "consequence"));
    if (!lf_pyfix_is(outer_try, "try_statement"))
        return fail(why, lf_xasprintf("the body of `if %s ...` is not a single try/except around the lock", mod));
    TSNode handler = (TSNode){0};
    int handlers = 0, extra = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(outer_try); i++) {
        TSNode c = ts_node_named_child(outer_try, i);
        if (lf_pyfix_is(c, "except_clause"))
            handler = c, handlers++;
        else if (!lf_pyfix_is(c, "block") && !lf_pyfix_is(c, "comment"))
            extra = 1;
    }
    if (handlers != 1 || extra || !swallowing_handler(src, handler))
        return fail(why, lf_xstrdup("the lock's try has no single `except OSError: pass` (a handler that does more "
                                    "would be lost)"));

    /* The acquisition: a descriptor opened on PATH, or `with open(PATH) as F`. */
    node_vec acq = {0};
    statements(lf_pyfix_field(outer_try, "body"), &acq);
    TSNode opened = (TSNode){0}, lock_stmt = (TSNode){0}, inner = (TSNode){0};
    char *handle = NULL;
    if (acq.len == 3) {
        TSNode left, right;
        if (assignment_of(acq.items[0], &left, &right) && lf_pyfix_call_is(src, right, "os.open")) {
            opened = right;
            handle = lf_node_text(src, left);
        }
        lock_stmt = acq.items[1];
        inner = acq.items[2];
    } else if (acq.len == 1 && lf_pyfix_is(acq.items[0], "with_statement")) {
        TSNode w = acq.items[0];
        TSNode clause = ts_node_named_child(w, 0);
        TSNode item = ts_node_named_child_count(clause) == 1 ? ts_node_named_child(clause, 0) : (TSNode){0};
        TSNode value = lf_pyfix_field(item, "value");
        if (lf_pyfix_is(value, "as_pattern")) {
            TSNode call = ts_node_named_child(value, 0);
            TSNode alias = lf_pyfix_field(value, "alias");
            TSNode name = ts_node_named_child_count(alias) == 1 ? ts_node_named_child(alias, 0) : alias;
            if (lf_pyfix_call_is(src, call, "open") && lf_pyfix_is(name, "identifier")) {
                opened = call;
                handle = lf_node_text(src, name);
            }
        }
        node_vec wb = {0};
        statements(lf_pyfix_field(w, "body"), &wb);
        if (wb.len == 2) {
            lock_stmt = wb.items[0];
            inner = wb.items[1];
        }
        LF_VEC_FREE(&wb);
    }
    LF_VEC_FREE(&acq);
    int ok = 0;
    if (!handle || ts_node_is_null(lf_pyfix_call_arg(opened, 0))) {
        fail(why, lf_xasprintf("the lock is not taken on a file opened by `os.open(<path>, ...)` or `with open(<path>, "
                               "...) as <f>:` inside the try"));
        goto done;
    }
    out->lock_path = lf_pyfix_call_arg(opened, 0);
    if (ts_node_is_null(lock_stmt) || !is_lock_call(src, lock_stmt, mod, 0, handle)) {
        fail(why, lf_xasprintf("the statement after the open is not `%s.flock(%s, %s.LOCK_EX)` (or lockf/locking)", mod,
                               handle, mod));
        goto done;
    }
    TSNode finally = (TSNode){0};
    int inner_extra = 0;
    for (uint32_t i = 0; lf_pyfix_is(inner, "try_statement") && i < ts_node_named_child_count(inner); i++) {
        TSNode c = ts_node_named_child(inner, i);
        if (lf_pyfix_is(c, "finally_clause"))
            finally = c;
        else if (!lf_pyfix_is(c, "block") && !lf_pyfix_is(c, "comment"))
            inner_extra = 1;
    }
    if (ts_node_is_null(finally) || inner_extra) {
        fail(why, lf_xstrdup("the locked work is not a try/finally that only releases the lock"));
        goto done;
    }
    node_vec fin = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(finally); i++)
        if (lf_pyfix_is(ts_node_named_child(finally, i), "block"))
            statements(ts_node_named_child(finally, i), &fin);
    int releases_only = fin.len > 0;
    for (size_t i = 0; i < fin.len; i++)
        releases_only &= is_lock_call(src, fin.items[i], mod, 1, handle) || is_close(src, fin.items[i], handle);
    LF_VEC_FREE(&fin);
    if (!releases_only) {
        fail(why, lf_xstrdup("the finally block does more than unlock and close the lock file"));
        goto done;
    }

    /* BODY, and the unlocked copy after the `if`. */
    out->inner_try = inner;
    out->body_block = lf_pyfix_field(inner, "body");
    statements(out->body_block, &out->body);
    if (out->body.len == 0 || !lf_pyfix_is(out->body.items[out->body.len - 1], "return_statement")) {
        fail(why, lf_xstrdup("the locked path does not end in `return`, so the code after the `if` runs on it too"));
        goto done;
    }
    size_t n_tail = 0;
    TSNode s = ts_node_next_named_sibling(ifs);
    for (size_t i = 0; !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (lf_pyfix_is(s, "comment"))
            continue;
        if (i >= out->body.len || !same_tree(src, s, out->body.items[i])) {
            uint32_t l1, c1, l2, c2;
            lf_source_position(src, ts_node_start_byte(s), &l1, &c1);
            lf_source_position(src, ts_node_start_byte(out->body.items[i < out->body.len ? i : out->body.len - 1]), &l2,
                               &c2);
            fail(why, lf_xasprintf("the unlocked path differs from the locked one (line %u vs line %u), so collapsing "
                                   "them would change what the unlocked path does",
                                   l1, l2));
            goto done;
        }
        out->tail_last = s;
        i++, n_tail = i;
    }
    if (n_tail != out->body.len) {
        fail(why, lf_xstrdup("the code after the `if` is not a full copy of the locked path"));
        goto done;
    }
    for (size_t i = 0; i < out->body.len; i++) {
        if (lf_pyfix_mentions(src, out->body.items[i], mod) || lf_pyfix_mentions(src, out->body.items[i], handle)) {
            fail(why, lf_xasprintf("the locked path itself uses `%s` or the lock file", mod));
            goto done;
        }
        if (lf_pyfix_has_multiline_string(out->body.items[i])) {
            fail(why, lf_xstrdup("the locked path holds a multi-line string, which re-indenting would change"));
            goto done;
        }
    }
    ok = 1;
done:
    free(handle);
    if (!ok)
        site_free(out);
    return ok;
}

/* ---- rewriting ---- */

/* BODY's lines re-indented from its own indentation to `to`. */
static char *reindent_body(const lf_source *src, const site *st, const char *to, char **why) {
    TSNode first = st->body.items[0];
    char *from = lf_pyfix_line_indent(src, ts_node_start_byte(first));
    if (!lf_pyfix_starts_line(src, first) || ts_node_start_point(first).row == ts_node_start_point(st->inner_try).row) {
        free(from);
        *why = lf_xstrdup("the locked path does not start on its own line");
        return NULL;
    }
    /* From the line after `try:`, so comments before the first statement come along. */
    uint32_t from_line = lf_pyfix_next_line_start(src, ts_node_start_byte(st->inner_try));
    char *text = lf_pyfix_reindent(src->text, from_line, ts_node_end_byte(st->body.items[st->body.len - 1]), from, to);
    free(from);
    return text;
}

/* A name for the `as` target that the function does not use yet. */
static const char *acquired_name(const lf_source *src, TSNode ifs) {
    TSNode fn = lf_pyfix_ancestor(ifs, "function_definition");
    TSNode scope = ts_node_is_null(fn) ? ifs : fn;
    if (!lf_pyfix_mentions(src, scope, "acquired"))
        return "acquired";
    if (!lf_pyfix_mentions(src, scope, "lock_acquired"))
        return "lock_acquired";
    return NULL;
}

static char *site_rewrite(const lf_source *src, const site *st, char **why) {
    const char *as = acquired_name(src, st->ifs);
    if (!as) {
        *why = lf_xstrdup("the function already uses the names `acquired` and `lock_acquired`");
        return NULL;
    }
    char *indent = lf_pyfix_line_indent(src, ts_node_start_byte(st->ifs));
    char *unit = lf_pyfix_indent_unit(src, ts_node_named_child(lf_pyfix_field(st->ifs, "consequence"), 0));
    char *to = lf_xasprintf("%s%s", indent, unit);
    char *body = reindent_body(src, st, to, why);
    char *path = lf_node_text(src, st->lock_path);
    char *text = NULL;
    if (body)
        text = lf_xasprintf("# One locked copy of the update on every platform (lockfix LF101). If the lock\n"
                            "%s# is not acquired within lockrt's bounded wait (10 s by default), `%s` is\n"
                            "%s# False and the update still runs, unlocked, as it did before this fix.\n"
                            "%swith lockrt.exclusive_lock(%s) as %s:\n"
                            "%s",
                            indent, as, indent, indent, path, as, body);
    free(indent);
    free(unit);
    free(to);
    free(body);
    free(path);
    return text;
}

/* ---- file-level edits: the import ---- */

typedef struct site_list {
    const lf_source *src;
    const char *mod;
    node_vec ok;      /* recognised sites (their `if` nodes) */
} site_list;

static int collect_site(TSNode n, void *ud) {
    site_list *l = ud;
    site st;
    if (tests_module(l->src, n, l->mod) && recognise(l->src, n, l->mod, &st, NULL)) {
        LF_VEC_PUSH(&l->ok, n);
        site_free(&st);
    }
    return 1;
}

static int walk_ifs(TSNode n, site_list *l) {
    if (lf_pyfix_is(n, "if_statement"))
        collect_site(n, l);
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        walk_ifs(ts_node_named_child(n, i), l);
    return 1;
}

/* Uses of identifier `name` under n that are not inside any of `skip`. */
static size_t uses_outside(const lf_source *src, TSNode n, const char *name, const TSNode *skip, size_t n_skip) {
    for (size_t i = 0; i < n_skip; i++)
        if (ts_node_start_byte(n) >= ts_node_start_byte(skip[i]) && ts_node_end_byte(n) <= ts_node_end_byte(skip[i]))
            return 0;
    if (lf_pyfix_is(n, "identifier"))
        return lf_node_text_eq(src, n, name);
    size_t c = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        c += uses_outside(src, ts_node_named_child(n, i), name, skip, n_skip);
    return c;
}

/* A top-level `import lockrt` / `from ... import lockrt` already there? */
static int binds_lockrt(const lf_source *src, TSNode root) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode s = ts_node_named_child(root, i);
        if (!lf_pyfix_is(s, "import_statement") && !lf_pyfix_is(s, "import_from_statement"))
            continue;
        for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
            const char *field = ts_node_field_name_for_named_child(s, k);
            TSNode c = ts_node_named_child(s, k);
            if (field && strcmp(field, "name") == 0 && lf_pyfix_is(c, "dotted_name") && lf_node_text_eq(src, c, "lockrt"))
                return 1;
        }
    }
    return 0;
}

/* The top-level `import sys` statement, alone on its line; null otherwise. */
static TSNode plain_import_sys(const lf_source *src, TSNode root) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode s = ts_node_named_child(root, i);
        if (imports_module(src, s, "sys"))
            return s;
    }
    return (TSNode){0};
}

/* Edits that import lockrt and drop the conditional import `imp` once nothing
 * outside the recognised sites uses `mod`. Identical for every site of a file,
 * so the fix engine applies them once. */
static void import_edits(const lf_source *src, TSNode root, TSNode imp, int pure, const char *mod,
                         const char *import_line, lf_fix *fix) {
    site_list l = {src, mod, {0}};
    walk_ifs(root, &l);
    LF_VEC_PUSH(&l.ok, imp);
    int still_used = uses_outside(src, root, mod, l.ok.items, l.ok.len) > 0;
    LF_VEC_FREE(&l.ok);
    const char *line = binds_lockrt(src, root) ? "" : import_line;
    uint32_t from = lf_pyfix_line_start(src, ts_node_start_byte(imp));
    if (still_used || !pure) {
        if (*line) {
            char *spaced = lf_xasprintf("%s\n", line);
            lf_fix_add_edit(fix, from, from, spaced);
            free(spaced);
        }
        return;
    }
    lf_fix_add_edit(fix, from, lf_pyfix_next_line_start(src, ts_node_end_byte(imp)), line);
    /* `import sys` served only the platform test. */
    TSNode sys_imp = plain_import_sys(src, root);
    if (!ts_node_is_null(sys_imp) && lf_pyfix_mentions(src, lf_pyfix_field(imp, "condition"), "sys")) {
        TSNode skip[] = {imp, sys_imp};
        uint32_t s0 = lf_pyfix_line_start(src, ts_node_start_byte(sys_imp));
        if (uses_outside(src, root, "sys", skip, 2) == 0 && s0 == ts_node_start_byte(sys_imp))
            lf_fix_add_edit(fix, s0, lf_pyfix_next_line_start(src, ts_node_end_byte(sys_imp)), "");
    }
}

/* ---- the generator ---- */

static const char *const k_modules[] = {"fcntl", "msvcrt", NULL};

static lf_fix *generate_one(const lf_fix_ctx *ctx, TSNode at, char **no_fix_reason) {
    const lf_source *src = ctx->src;
    if (src->lang != LF_LANG_PYTHON) {
        *no_fix_reason = lf_xstrdup("this fix rewrites Python only");
        return NULL;
    }
    if (!lf_pyfix_is(at, "if_statement")) {
        *no_fix_reason = lf_xstrdup("only the conditional-import fallback (`if fcntl is not None:` falling through to "
                                    "an unlocked copy) is rewritten; this site swallows acquisition errors instead");
        return NULL;
    }
    const char *mod = NULL;
    TSNode imp = {0};
    int pure = 0;
    for (size_t i = 0; k_modules[i] && !mod; i++) {
        if (!tests_module(src, at, k_modules[i]))
            continue;
        imp = conditional_import(src, ctx->root, k_modules[i], &pure);
        if (!ts_node_is_null(imp))
            mod = k_modules[i];
    }
    if (!mod) {
        *no_fix_reason = lf_xstrdup("the site does not test `fcntl`/`msvcrt` imported at module level with a None "
                                    "fallback");
        return NULL;
    }
    site st;
    if (!recognise(src, at, mod, &st, no_fix_reason))
        return NULL;
    char *text = site_rewrite(src, &st, no_fix_reason);
    if (!text) {
        site_free(&st);
        return NULL;
    }
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    fix->title = lf_xstrdup("one copy of the update under lockrt.exclusive_lock (binding vendored beside the module)");
    lf_fix_add_edit(fix, ts_node_start_byte(st.ifs), ts_node_end_byte(st.tail_last), text);
    free(text);
    site_free(&st);

    lf_vendor_plan plan;
    lf_vendor_plan_python(src->path, ctx->runtime_dir, &plan);
    import_edits(src, ctx->root, imp, pure, mod, plan.import_line, fix);
    fix->new_files = lf_xcalloc(plan.n_files, sizeof *fix->new_files);
    for (size_t i = 0; i < plan.n_files; i++) {
        fix->new_files[i] = plan.files[i];
        plan.files[i] = (lf_new_file){NULL, NULL};
    }
    fix->n_new_files = plan.n_files;
    lf_vendor_plan_free(&plan);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].at, &reqs[i].no_fix_reason);
}

const lf_fixer lf101_lockrt = {"lf101_lockrt", generate};
