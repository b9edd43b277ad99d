/* The protocol swap (TS/JS): a module's own lock (sem/lf_tsproto.h) becomes
 * lockrt's. The retry loop of the function that acquires goes, and in its
 * place
 *
 *     const releaseLock = await takeLock(LOCK, { timeout: Math.max(0, deadline - Date.now()) });
 *     if (releaseLock === null) <the old timeout's outcome>     // or: if (releaseLock !== null) { HELD }
 *     HELD                                                      //     <the outcome after the loop>
 *
 * where HELD is the code the old function ran while holding the lock, its
 * releases by name now `releaseLock()`, the closes of the create's handle
 * and the owner-record write dropped (lockrt writes its own record). The
 * vendored lockrt.cjs's takeLock (takeLockSync in a function that does not
 * await; takeLockDir / takeLockDirSync for a lock directory, which stays a
 * directory with lockrt's record inside) waits up to the same deadline, reclaims a lock only from a holder
 * that is provably gone (same host, its pid dead or reused), through a
 * rename bound to the bytes and inode it judged, and its release removes the
 * lock only while it is the one this process created. So the stale
 * judgement (an age, a pid probe), the takeover and the release by name all
 * go, with the findings they carried. What the old function's callers see
 * stays: its signature and what it returns, the error it throws at its
 * deadline (or the value it returns there), the lock path, and the errors
 * of a failed create other than EEXIST when the old wait rethrew them (one
 * that took every failure for a held lock meets its timeout's outcome when
 * lockrt cannot take the lock: `.catch(() => null)`). Left on purpose: an
 * EEXIST thrown by the held code itself, which the old loop took for
 * contention (running the held code again), now reaches the caller.
 *
 * Then the declarations only the old wait used (its limits, its sleep, its
 * stale test, their imports) are removed: a TypeScript project built with
 * noUnusedLocals would not compile with them left.
 *
 * An UNSAFE fix (LF302's): a holder that is alive is never broken any more,
 * however long it holds, where the age freed its waiters; and a lock file the
 * old code left behind is no lockrt record, so lockrt waits on it for 30 s
 * and then refuses it (LOCKRT_ECORRUPT) rather than removing a file it did
 * not write: remove such a file by hand once. */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf301_ts_site.h"
#include "lf_check.h"
#include "lf_fix.h"
#include "lf_sem.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_tsimport.h"
#include "lf_tsproto.h"
#include "lf_util.h"
#include "lf_vendor.h"

typedef struct span {
    uint32_t start, end;
    const char *text; /* replacement (NULL: delete) */
} span;

typedef LF_VEC(span) span_vec;

static int cmp_span(const void *a, const void *b) {
    const span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The whole lines a statement takes, when nothing else shares them: [*s, *e). */
static int whole_lines(const lf_source *src, TSNode n, uint32_t *s, uint32_t *e) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    uint32_t ls = lf_tree_line_start(src, a);
    for (uint32_t i = ls; i < a; i++)
        if (src->text[i] != ' ' && src->text[i] != '\t')
            return 0;
    uint32_t le = b;
    while (le < src->len && (src->text[le] == ' ' || src->text[le] == '\t' || src->text[le] == '\r'))
        le++;
    /* a line comment after it says what it was: it goes with it */
    if (le + 1 < src->len && src->text[le] == '/' && src->text[le + 1] == '/')
        while (le < src->len && src->text[le] != '\n')
            le++;
    if (le < src->len && src->text[le] != '\n')
        return 0;
    *s = ls;
    *e = le < src->len ? le + 1 : le;
    return 1;
}

/* A deleted run of whole lines [*s, *e) between two blank lines (or after
 * one at the top of a block) takes the second blank line too: the code
 * around it keeps one blank line where there were two. */
static void eat_blank_after(const lf_source *src, uint32_t s, uint32_t *e) {
    int blank_before = s == 0 || (s >= 2 && src->text[s - 1] == '\n' && src->text[s - 2] == '\n');
    if (blank_before && *e < src->len && src->text[*e] == '\n')
        (*e)++;
}

/* Text [a, b) of the source with the edits in `inner` (sorted, inside it)
 * applied, every line after the first moved from indentation `from` to
 * `to`; NULL when a line does not start with `from` (or a string or
 * template spans lines there: re-indenting would change it). */
static char *compose(const lf_source *src, uint32_t a, uint32_t b, const span_vec *inner, const char *from,
                     const char *to) {
    lf_strbuf out;
    lf_strbuf_init(&out);
    uint32_t at = a;
    for (size_t i = 0; i < inner->len; i++) {
        const span *s = &inner->items[i];
        if (s->start < at || s->end > b)
            continue;
        lf_strbuf_append(&out, src->text + at, s->start - at);
        if (s->text)
            lf_strbuf_puts(&out, s->text);
        at = s->end;
    }
    lf_strbuf_append(&out, src->text + at, b - at);
    /* re-indent */
    lf_strbuf res;
    lf_strbuf_init(&res);
    size_t fl = strlen(from);
    const char *p = out.data;
    const char *nl = strchr(p, '\n');
    lf_strbuf_append(&res, p, nl ? (size_t)(nl - p + 1) : strlen(p));
    int ok = 1;
    while (nl && ok) {
        p = nl + 1;
        nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
        size_t blank = 0;
        while (blank < len && (p[blank] == ' ' || p[blank] == '\t' || p[blank] == '\r'))
            blank++;
        if (blank == len || p[blank] == '\n') {
            lf_strbuf_append(&res, p + blank, len - blank);
        } else if (len >= fl && strncmp(p, from, fl) == 0) {
            lf_strbuf_puts(&res, to);
            lf_strbuf_append(&res, p + fl, len - fl);
        } else {
            ok = 0;
        }
    }
    lf_strbuf_free(&out);
    if (!ok) {
        lf_strbuf_free(&res);
        return NULL;
    }
    return res.data;
}

/* Does a string or template literal under n span lines? */
static lf_walk_action find_multiline(TSNode n, void *ud) {
    int *hit = ud;
    if ((lf_tree_is(n, "string") || lf_tree_is(n, "template_string")) &&
        ts_node_start_point(n).row != ts_node_end_point(n).row) {
        *hit = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int multiline_literal(TSNode n) {
    int hit = 0;
    if (!ts_node_is_null(n))
        lf_tree_walk(n, find_multiline, &hit);
    return hit;
}

/* ---- what the old wait alone used: removed with it ---- */

typedef struct dead {
    const lf_source *src;
    span_vec ranges;        /* text that goes (sorted or not) */
    LF_VEC(TSNode) keep;    /* identifiers the new text spells (the bound's): their declarations stay */
} dead;

static int kept(const dead *d, TSNode name) {
    for (size_t i = 0; i < d->keep.len; i++)
        if (lf_tree_same_text(d->src, d->keep.items[i], name))
            return 1;
    return 0;
}

static lf_walk_action collect_keep(TSNode n, void *ud) {
    dead *d = ud;
    if (lf_tree_is(n, "identifier"))
        LF_VEC_PUSH(&d->keep, n);
    return LF_WALK_CONTINUE;
}

static int in_dead(const dead *d, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    for (size_t i = 0; i < d->ranges.len; i++)
        if (a >= d->ranges.items[i].start && b <= d->ranges.items[i].end)
            return 1;
    return 0;
}

typedef struct ref_walk {
    const lf_source *src;
    const char *name;
    size_t len;
    TSNode decl;  /* the declaring name: not a use */
    const dead *d;
    int live;     /* a use outside the dead text */
    int dead_uses; /* uses inside it */
} ref_walk;

static lf_walk_action visit_ref(TSNode n, void *ud) {
    ref_walk *w = ud;
    if (!(lf_tree_is(n, "identifier") || lf_tree_is(n, "shorthand_property_identifier") ||
          lf_tree_is(n, "type_identifier")))
        return LF_WALK_CONTINUE;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b - a != w->len || memcmp(w->src->text + a, w->name, w->len) != 0 || ts_node_eq(n, w->decl))
        return LF_WALK_CONTINUE;
    if (!in_dead(w->d, n)) {
        w->live = 1;
        return LF_WALK_STOP;
    }
    w->dead_uses++;
    return LF_WALK_CONTINUE;
}

/* Is every mention of the name `decl` under `root` in the dead text (and
 * how many are)? A name the new text spells is never unused. */
static int unused_counting(const dead *d, TSNode root, TSNode decl, int *dead_uses) {
    *dead_uses = 0;
    if (kept(d, decl))
        return 0;
    uint32_t a = ts_node_start_byte(decl), b = ts_node_end_byte(decl);
    ref_walk w = {d->src, d->src->text + a, b - a, decl, d, 0, 0};
    lf_tree_walk(root, visit_ref, &w);
    *dead_uses = w.dead_uses;
    return !w.live;
}

static int unused(const dead *d, TSNode root, TSNode decl) {
    int n;
    return unused_counting(d, root, decl, &n);
}

/* unused(), and the swap is what left it so: some mention went with the
 * dead text (an import the module never used stays as the module had it). */
static int unused_now(const dead *d, TSNode root, TSNode decl) {
    int n;
    return unused_counting(d, root, decl, &n) && n > 0;
}

static const char *const k_pure[] = {"Date.now", "Math.min", "Math.max", "Number", "String", "Symbol", NULL};

/* Can the initializer go without its effects going too (no calls but pure
 * ones, no assignments; a function's body does not run at its declaration)? */
typedef struct pure_walk {
    const lf_source *src;
    int ok;
} pure_walk;

static lf_walk_action visit_pure(TSNode n, void *ud) {
    pure_walk *w = ud;
    if (lf_tree_is(n, "arrow_function") || lf_tree_is(n, "function_expression") || lf_tree_is(n, "function"))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "call_expression")) {
        TSNode f = lf_tree_field(n, "function");
        int pure = 0;
        for (size_t i = 0; k_pure[i] && !pure; i++)
            pure = lf_tree_text_eq(w->src, f, k_pure[i]);
        if (!pure) {
            w->ok = 0;
            return LF_WALK_STOP;
        }
    }
    if (lf_tree_is(n, "new_expression") || lf_tree_is(n, "assignment_expression") ||
        lf_tree_is(n, "augmented_assignment_expression") || lf_tree_is(n, "update_expression") ||
        lf_tree_is(n, "await_expression")) {
        w->ok = 0;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int pure_init(const lf_source *src, TSNode v) {
    pure_walk w = {src, 1};
    if (!ts_node_is_null(v))
        lf_tree_walk(v, visit_pure, &w);
    return w.ok;
}

/* `require("m")`: nothing but loading the module (which it does anyway for
 * the names kept, and a vendored or node: module has no other effect). */
static int required(const lf_source *src, TSNode v) {
    v = lf_tssem_unwrap(v);
    return lf_tree_is(v, "call_expression") && lf_tree_text_eq(src, lf_tree_field(v, "function"), "require") &&
           lf_tssem_nargs(v) == 1 && lf_tree_is(lf_tssem_arg(v, 0), "string");
}

/* Prune, in `block` (the function's body, or the module), declarations
 * whose every use is dead: `const X = <pure>` of one name, and (at module
 * level: module_level 1) function declarations; module_level 2: only the
 * named imports (once the rest is done: one edit per import). Adds their text
 * to d->ranges and the deletions to `edits`. Returns how many went. */
static size_t prune(dead *d, TSNode block, TSNode root, int module_level, TSNode keep_before, span_vec *edits) {
    const lf_source *src = d->src;
    size_t n = 0;
    for (TSNode s = ts_node_named_child(block, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (!ts_node_is_null(keep_before) && ts_node_start_byte(s) >= ts_node_start_byte(keep_before))
            break;
        if (in_dead(d, s))
            continue;
        uint32_t ls, le;
        if (module_level < 2 && (lf_tree_is(s, "lexical_declaration") || lf_tree_is(s, "variable_declaration")) &&
            ts_node_named_child_count(s) == 1) {
            TSNode dcl = ts_node_named_child(s, 0);
            TSNode name = lf_tree_field(dcl, "name");
            if (lf_tree_is(name, "identifier") && pure_init(src, lf_tree_field(dcl, "value")) &&
                unused(d, root, name) && whole_lines(src, s, &ls, &le)) {
                eat_blank_after(src, ls, &le);
                span sp = {ls, le, NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                LF_VEC_PUSH(edits, sp);
                n++;
            }
        } else if (module_level == 1 && lf_tree_is(s, "function_declaration")) {
            TSNode name = lf_tree_field(s, "name");
            if (unused(d, root, name) && whole_lines(src, s, &ls, &le)) {
                /* its leading comment goes with it */
                TSNode prev = ts_node_prev_sibling(s);
                uint32_t ps, pe;
                if (lf_tree_is(prev, "comment") && whole_lines(src, prev, &ps, &pe) && pe == ls)
                    ls = ps;
                eat_blank_after(src, ls, &le);
                span sp = {ls, le, NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                LF_VEC_PUSH(edits, sp);
                n++;
            }
        } else if (module_level == 2 && lf_tree_is(s, "lexical_declaration") && ts_node_named_child_count(s) == 1 &&
                   lf_tree_is(lf_tree_field(ts_node_named_child(s, 0), "name"), "object_pattern") &&
                   required(src, lf_tree_field(ts_node_named_child(s, 0), "value"))) {
            /* `const { a, b } = require("m")`: the names the file still uses */
            TSNode pat = lf_tree_field(ts_node_named_child(s, 0), "name");
            lf_strbuf keep;
            lf_strbuf_init(&keep);
            uint32_t total = 0, gone = 0, plain = 1;
            for (uint32_t i = 0, k = ts_node_named_child_count(pat); i < k; i++) {
                TSNode prop = ts_node_named_child(pat, i);
                if (!lf_tree_is(prop, "shorthand_property_identifier_pattern")) {
                    plain = 0;
                    break;
                }
                total++;
                if (unused(d, root, prop)) {
                    gone++;
                    continue;
                }
                lf_strbuf_printf(&keep, "%s%.*s", keep.len ? ", " : "",
                                 (int)(ts_node_end_byte(prop) - ts_node_start_byte(prop)),
                                 src->text + ts_node_start_byte(prop));
            }
            if (plain && gone && gone == total && whole_lines(src, s, &ls, &le)) {
                span sp = {ls, le, NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                LF_VEC_PUSH(edits, sp);
                n++;
            } else if (plain && gone && ts_node_start_point(pat).row == ts_node_end_point(pat).row) {
                span sp = {ts_node_start_byte(pat), ts_node_end_byte(pat), NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                sp.text = lf_xasprintf("{ %s }", keep.data);
                LF_VEC_PUSH(edits, sp);
                n++;
            }
            lf_strbuf_free(&keep);
        } else if (module_level == 2 && lf_tree_is(s, "import_statement")) {
            TSNode clause = {0};
            for (uint32_t i = 0, k = ts_node_named_child_count(s); i < k; i++)
                if (lf_tree_is(ts_node_named_child(s, i), "import_clause"))
                    clause = ts_node_named_child(s, i);
            if (!ts_node_is_null(clause) && ts_node_named_child_count(clause) == 1 &&
                lf_tree_is(ts_node_named_child(clause, 0), "namespace_import")) {
                /* `import * as path from "node:path"` that nothing uses any more */
                TSNode ns = ts_node_named_child(clause, 0), local = {0};
                for (uint32_t i = 0, k = ts_node_named_child_count(ns); i < k; i++)
                    if (lf_tree_is(ts_node_named_child(ns, i), "identifier"))
                        local = ts_node_named_child(ns, i);
                if (!ts_node_is_null(local) && unused_now(d, root, local) && whole_lines(src, s, &ls, &le)) {
                    span sp = {ls, le, NULL};
                    LF_VEC_PUSH(&d->ranges, sp);
                    LF_VEC_PUSH(edits, sp);
                    n++;
                }
                continue;
            }
            if (ts_node_is_null(clause) || ts_node_named_child_count(clause) != 1 ||
                !lf_tree_is(ts_node_named_child(clause, 0), "named_imports"))
                continue;
            /* the named imports the file still uses, rewritten as one edit */
            TSNode named = ts_node_named_child(clause, 0);
            lf_strbuf keep;
            lf_strbuf_init(&keep);
            uint32_t total = 0, gone = 0;
            for (uint32_t i = 0, k = ts_node_named_child_count(named); i < k; i++) {
                TSNode spec = ts_node_named_child(named, i);
                if (!lf_tree_is(spec, "import_specifier"))
                    continue;
                total++;
                TSNode local = lf_tree_field(spec, "alias");
                if (ts_node_is_null(local))
                    local = lf_tree_field(spec, "name");
                if (unused(d, root, local)) {
                    gone++;
                    continue;
                }
                lf_strbuf_printf(&keep, "%s%.*s", keep.len ? ", " : "",
                                 (int)(ts_node_end_byte(spec) - ts_node_start_byte(spec)),
                                 src->text + ts_node_start_byte(spec));
            }
            if (gone && gone == total && whole_lines(src, s, &ls, &le)) {
                span sp = {ls, le, NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                LF_VEC_PUSH(edits, sp);
                n++;
            } else if (gone && ts_node_start_point(named).row == ts_node_end_point(named).row) {
                span sp = {ts_node_start_byte(named), ts_node_end_byte(named), NULL};
                LF_VEC_PUSH(&d->ranges, sp);
                sp.text = lf_xasprintf("{ %s }", keep.data);
                LF_VEC_PUSH(edits, sp);
                n++;
            }
            lf_strbuf_free(&keep);
        }
    }
    return n;
}

/* ---- the fix ---- */

static const char *const k_release_names[] = {"releaseLock", "releaseLockrt", "unlockLockrt", NULL};

lf_fix *lf_tsswap_fix(const lf_fix_ctx *ctx, TSNode at, char **why) {
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    const lf_source *src = ctx->src;
    *why = NULL;
    lf_tsproto *p = lf_tsproto_at(m, at);
    if (!p)
        return NULL;
    if (p->decline) {
        *why = lf_xasprintf("the module's own lock could not be swapped for lockrt: %s", p->decline);
        lf_tsproto_free(p);
        return NULL;
    }
    lf_fix *fix = NULL;
    char *rel = NULL, *take = NULL, *il = NULL, *unit = NULL, *ih = NULL, *to = NULL, *held = NULL, *exit = NULL;
    char *timeout = NULL, *pathtxt = NULL, *acquire = NULL, *body = NULL;
    span_vec inner = {0}, edits = {0};
    dead d = {.src = src};
    if (multiline_literal(p->loop)) {
        *why = lf_xstrdup("the module's own lock could not be swapped for lockrt: a string spans lines in its retry "
                          "loop, and moving the held code would re-indent it");
        goto done;
    }
    /* the held code, its drops and releases */
    for (size_t i = 0; i < p->drops.len; i++) {
        TSNode s = p->drops.items[i];
        if (ts_node_start_byte(s) < ts_node_start_byte(p->held_first))
            continue; /* the owner write: before the held code, it goes with the loop */
        uint32_t a, b;
        if (!whole_lines(src, s, &a, &b)) {
            *why = lf_xasprintf("the module's own lock could not be swapped for lockrt: the statement at line %u "
                                "it drops shares its line",
                                ts_node_start_point(s).row + 1);
            goto done;
        }
        span sp = {a, b, NULL};
        LF_VEC_PUSH(&inner, sp);
    }
    rel = lf_tsfix_fresh_name(m, m->root, k_release_names); /* no module name shadowed either */
    char *call = lf_xasprintf("%s();", rel);
    for (size_t i = 0; i < p->releases.len; i++) {
        span sp = {ts_node_start_byte(p->releases.items[i]), ts_node_end_byte(p->releases.items[i]), call};
        LF_VEC_PUSH(&inner, sp);
    }
    if (inner.len > 1) /* qsort takes no null array, even of none */
        qsort(inner.items, inner.len, sizeof *inner.items, cmp_span);
    il = lf_tree_line_indent(src, ts_node_start_byte(p->loop));
    unit = lf_tsfix_indent_unit(src, p->loop);
    ih = lf_tree_line_indent(src, ts_node_start_byte(p->held_first));
    int after_loop = ts_node_is_null(p->timeout_exit);
    to = after_loop ? lf_xasprintf("%s%s", il, unit) : lf_xstrdup(il);
    held = compose(src, ts_node_start_byte(p->held_first), ts_node_end_byte(p->held_last), &inner, ih, to);
    if (!after_loop) {
        span_vec none = {0};
        char *ie = lf_tree_line_indent(src, ts_node_start_byte(ts_node_parent(p->timeout_exit)));
        exit = compose(src, ts_node_start_byte(p->timeout_exit), ts_node_end_byte(p->timeout_exit), &none, ie, il);
        free(ie);
        if (!exit) {
            free(call);
            *why = lf_xstrdup("the module's own lock could not be swapped for lockrt: its timeout's outcome is "
                              "indented irregularly");
            goto done;
        }
    }
    free(call);
    if (!held) {
        *why = lf_xstrdup("the module's own lock could not be swapped for lockrt: its held code is indented "
                          "irregularly");
        goto done;
    }
    /* the bound */
    if (!ts_node_is_null(p->deadline)) {
        char *dl = lf_tree_text(src, p->deadline);
        timeout = lf_xasprintf("Math.max(0, %s - Date.now())", dl);
        free(dl);
    } else {
        char *st = lf_tree_text(src, p->start), *li = lf_tree_text(src, p->limit);
        int simple = lf_tree_is(p->limit, "identifier") || lf_tree_is(p->limit, "number") ||
                     lf_tree_is(p->limit, "member_expression");
        timeout = lf_xasprintf(simple ? "Math.max(0, %s + %s - Date.now())" : "Math.max(0, %s + (%s) - Date.now())",
                               st, li);
        free(st);
        free(li);
    }
    /* the call, named in the module's style */
    fix = lf_xcalloc(1, sizeof *fix);
    lf_tsimporter *im = lf_tsimport_begin(m, src->path, fix);
    take = lf_tsimport_ref(im, lf_tssem_scope_of(m, p->loop), ts_node_start_byte(p->loop), LF301_TS_VENDOR_MODULE,
                           p->dir ? (p->async ? "takeLockDir" : "takeLockDirSync")
                                  : (p->async ? "takeLock" : "takeLockSync"),
                           why);
    lf_tsimport_end(im);
    if (!take) {
        lf_fix_free(fix);
        fix = NULL;
        goto done;
    }
    pathtxt = lf_tree_text(src, p->path);
    if (p->async)
        acquire = lf_xasprintf(p->swallows ? "await %s(%s, { timeout: %s }).catch(() => null)"
                                              : "await %s(%s, { timeout: %s })",
                               take, pathtxt, timeout);
    else if (p->swallows)
        acquire = lf_xasprintf("(() => {\n%s%stry {\n%s%s%sreturn %s(%s, { timeout: %s });\n%s%s} catch {\n%s%s%s"
                               "return null;\n%s%s}\n%s})()",
                               il, unit, il, unit, unit, take, pathtxt, timeout, il, unit, il, unit, unit, il, unit,
                               il);
    else
        acquire = lf_xasprintf("%s(%s, { timeout: %s })", take, pathtxt, timeout);
    if (after_loop)
        body = lf_xasprintf("const %s = %s;\n%sif (%s !== null) {\n%s%s\n%s}", rel, acquire, il, rel, to, held, il);
    else
        body = lf_xasprintf("const %s = %s;\n%sif (%s === null) %s\n%s%s", rel, acquire, il, rel, exit, il, held);
    lf_fix_add_edit(fix, ts_node_start_byte(p->loop), ts_node_end_byte(p->loop), body);
    /* what only the old wait used: the loop's text but the held code and the
     * timeout's outcome, and the statements the held code drops */
    {
        uint32_t a = ts_node_start_byte(p->loop);
        uint32_t hs = ts_node_start_byte(p->held_first), he = ts_node_end_byte(p->held_last);
        uint32_t es = after_loop ? 0 : ts_node_start_byte(p->timeout_exit);
        uint32_t ee = after_loop ? 0 : ts_node_end_byte(p->timeout_exit);
        uint32_t ks[2] = {after_loop || hs < es ? hs : es, after_loop || hs < es ? es : hs};
        uint32_t ke[2] = {after_loop || hs < es ? he : ee, after_loop || hs < es ? ee : he};
        for (int i = 0; i < 2; i++) {
            if (ke[i] == 0)
                continue;
            span sp = {a, ks[i], NULL};
            LF_VEC_PUSH(&d.ranges, sp);
            a = ke[i];
        }
        span sp = {a, ts_node_end_byte(p->loop), NULL};
        LF_VEC_PUSH(&d.ranges, sp);
        for (size_t i = 0; i < inner.len; i++) {
            span x = {inner.items[i].start, inner.items[i].end, NULL};
            LF_VEC_PUSH(&d.ranges, x);
        }
        TSNode bound[4] = {p->deadline, p->start, p->limit, p->path};
        for (int k = 0; k < 4; k++)
            if (!ts_node_is_null(bound[k]))
                lf_tree_walk(bound[k], collect_keep, &d);
    }
    TSNode fbody = lf_tree_field(p->fn, "body");
    for (int round = 0; round < 8; round++) {
        size_t n = prune(&d, fbody, fbody, 0, p->loop, &edits);
        n += prune(&d, m->root, m->root, 1, (TSNode){0}, &edits);
        if (!n)
            break;
    }
    prune(&d, m->root, m->root, 2, (TSNode){0}, &edits);
    for (size_t i = 0; i < edits.len; i++) {
        lf_fix_add_edit(fix, edits.items[i].start, edits.items[i].end, edits.items[i].text ? edits.items[i].text : "");
        free((char *)edits.items[i].text);
    }
    lf_vendor_attach_node(fix, src->path);
    fix->title = lf_xstrdup("swap the module's own lock for lockrt's (vendored lockrt.cjs: takeLock waits up to the "
                            "same deadline, takes a lock over only from a holder that is gone, and releases only "
                            "its own; the age, the takeover and the release by name go)");
done:
    free(rel);
    free(take);
    free(il);
    free(unit);
    free(ih);
    free(to);
    free(held);
    free(exit);
    free(timeout);
    free(pathtxt);
    free(acquire);
    free(body);
    LF_VEC_FREE(&inner);
    LF_VEC_FREE(&edits);
    LF_VEC_FREE(&d.ranges);
    LF_VEC_FREE(&d.keep);
    lf_tsproto_free(p);
    return fix;
}

size_t lf_tsswap_take_over(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n, const void **saved) {
    size_t taken = 0;
    for (size_t i = 0; i < n; i++) {
        saved[i] = reqs[i].site;
        if (!lf_fix_unsafe_allowed())
            continue;
        /* only a finding inside the loop the swap rewrites: one in a helper
         * the module keeps would stay as it is, reported fixed */
        lf_tsproto *p = lf_tsproto_at(lf_filesem_typescript(ctx->sem), reqs[i].at);
        int inside = p && !p->decline && lf_tree_within(reqs[i].at, p->loop);
        lf_tsproto_free(p);
        if (!inside)
            continue;
        char *why = NULL;
        lf_fix *fix = lf_tsswap_fix(ctx, reqs[i].at, &why);
        free(why);
        if (!fix)
            continue;
        fix->unsafe = 1; /* LF302's unsafe fix, for a finding of a safe rule */
        reqs[i].fix = fix;
        reqs[i].site = NULL;
        taken++;
    }
    return taken;
}
