/* LF301's TS/JS site (lf301_ts_site.h): is a reported removal the holder's
 * release of a lock file or lock directory (mkdir) the module creates
 * exclusively, in a shape the fix can bind to the created inode, or a stale
 * takeover whose judgement the fix can bind it to? Everything the fix relies on is checked here; the reason
 * names the first thing that does not hold. */
#include "lf301_ts_site.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lf_cfg.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_tscfg.h"
#include "lf_util.h"

void lf301_ts_site_free(void *site) {
    lf301_ts_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s->edits);
    free(s);
}

static lf301_ts_site *decline(lf301_ts_site *s, char *why) {
    s->decline = why;
    return s;
}

/* Decline with a reason quoting the call it is about: `before` call `after`. */
static lf301_ts_site *decline_at(lf301_ts_site *s, const lf_source *src, TSNode at, const char *before,
                                 const char *after) {
    char *call = lf_py_short(src, at);
    char *why = lf_xasprintf("%s%s%s", before, call, after);
    free(call);
    return decline(s, why);
}

static void add_edit(lf301_ts_site *s, TSNode callee, const char *member) {
    s->edits = lf_xrealloc(s->edits, (s->n_edits + 1) * sizeof *s->edits);
    s->edits[s->n_edits].callee = callee;
    s->edits[s->n_edits].member = member;
    s->n_edits++;
}

/* The identifier a callee starts from: `fs` in fs.promises.unlink. */
static TSNode leftmost(TSNode callee) {
    TSNode n = lf_tssem_unwrap(callee);
    while (lf_tree_is(n, "member_expression"))
        n = lf_tssem_unwrap(lf_tree_field(n, "object"));
    return n;
}

/* Node's own fs reached through the module's imports (or a local alias of
 * them), not an fs object handed in (`this.fs`, `options.fs`, a parameter
 * called fs): the drop-ins call the real fs, which an injected one may not be. */
static int direct_fs(lf_tssem *m, TSNode call) {
    TSNode callee = lf_tree_field(call, "function");
    TSNode id = leftmost(callee);
    if (!lf_tree_is(id, "identifier"))
        return 0;
    const char *q = lf_tssem_qualname(m, id);
    if (q && !strncmp(q, LF301_TS_VENDOR_MODULE, strlen(LF301_TS_VENDOR_MODULE)))
        return 1;
    if (!q || !(!strcmp(q, "fs") || !strncmp(q, "fs.", 3) || !strcmp(q, "fs/promises") || !strncmp(q, "fs/promises.", 12)))
        return 0;
    const lf_tsbinding *b = lf_tssem_binding_of(m, id);
    return b && b->kind != LF_TSBIND_PARAM && b->kind != LF_TSBIND_FIELD;
}

static int has_spread(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++)
        if (lf_tree_is(ts_node_named_child(args, i), "spread_element"))
            return 1;
    return 0;
}

static const char *remove_member(const char *callee, size_t nargs) {
    if (!callee)
        return NULL;
    if (!strcmp(callee, "fs.unlinkSync") && nargs == 1)
        return "unlinkOwnedSync";
    if (!strcmp(callee, "fs.rmSync") && nargs >= 1 && nargs <= 2)
        return "rmOwnedSync";
    if (!strcmp(callee, "fs/promises.unlink") && nargs == 1)
        return "unlinkOwned";
    if (!strcmp(callee, "fs/promises.rm") && nargs >= 1 && nargs <= 2)
        return "rmOwned";
    if (!strcmp(callee, "fs.rmdirSync") && nargs >= 1 && nargs <= 2)
        return "rmdirOwnedSync";
    if (!strcmp(callee, "fs/promises.rmdir") && nargs >= 1 && nargs <= 2)
        return "rmdirOwned";
    return NULL;
}

static const char *create_member(const char *callee, size_t nargs) {
    if (!callee)
        return NULL;
    /* already the drop-in (another release of this lock was fixed) */
    if (!strncmp(callee, LF301_TS_VENDOR_MODULE ".", sizeof LF301_TS_VENDOR_MODULE) &&
        (!strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "writeFileExclusiveSync") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "writeFileExclusive") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "openExclusiveSync") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "openExclusive") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "mkdirExclusiveSync") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "mkdirExclusive")))
        return callee + sizeof LF301_TS_VENDOR_MODULE;
    if (!strcmp(callee, "fs.writeFileSync") && nargs == 3)
        return "writeFileExclusiveSync";
    if (!strcmp(callee, "fs/promises.writeFile") && nargs == 3)
        return "writeFileExclusive";
    if (!strcmp(callee, "fs.openSync") && nargs >= 2 && nargs <= 3)
        return "openExclusiveSync";
    if (!strcmp(callee, "fs/promises.open") && nargs >= 2 && nargs <= 3)
        return "openExclusive";
    /* a lock directory: lf_tslock counts only a mkdir without `recursive` */
    if (!strcmp(callee, "fs.mkdirSync") && nargs >= 1 && nargs <= 2)
        return "mkdirExclusiveSync";
    if (!strcmp(callee, "fs/promises.mkdir") && nargs >= 1 && nargs <= 2)
        return "mkdirExclusive";
    return NULL;
}

/* A module-level `const X = ...` the identifier reads, or NULL. */
static const lf_tsbinding *module_const(lf_tssem *m, TSNode id) {
    id = lf_tssem_unwrap(id);
    if (!lf_tree_is(id, "identifier"))
        return NULL;
    const lf_tsbinding *b = lf_tssem_binding_of(m, id);
    if (!b || b->kind != LF_TSBIND_VAR || b->scope != 0 || b->member)
        return NULL;
    TSNode decl = ts_node_parent(ts_node_parent(b->target));
    if (!lf_tree_is(decl, "lexical_declaration") || !lf_tree_text_eq(m->src, ts_node_child(decl, 0), "const"))
        return NULL;
    /* reassigned nowhere (a const cannot be; a second binding would be a shadow elsewhere) */
    return b;
}

/* What the module does that puts another file at the lock path: a rename,
 * copy or link onto it. */
static TSNode replaced_at(lf_tslock *l, int32_t key) {
    lf_tssem *m = l->m;
    static const char *const onto[] = {"rename", "copyFile", "cp", "link", "symlink", "move", "copy", NULL};
    for (size_t i = 0; i < m->n_calls; i++) {
        const char *op = lf_tslock_fs_op(m, m->calls[i].node);
        if (!op)
            continue;
        for (size_t j = 0; onto[j]; j++)
            if (!strcmp(op, onto[j]) && lf_tslock_key_index(l, lf_tssem_arg(m->calls[i].node, 1)) == key)
                return m->calls[i].node;
    }
    return (TSNode){0};
}

/* ---- stale takeovers ---------------------------------------------------- */

static const char *const k_judges[][2] = {
    {"fs.readFileSync", "readFileJudgedSync"}, {"fs/promises.readFile", "readFileJudged"},
    {"fs.statSync", "statJudgedSync"},         {"fs.lstatSync", "lstatJudgedSync"},
    {"fs/promises.stat", "statJudged"},        {"fs/promises.lstat", "lstatJudged"},
};

/* The judging drop-in for a read or stat of the lock: the path and at most
 * the options (a callback form is not one). */
static const char *judge_member(const char *callee, size_t nargs) {
    if (!callee || nargs < 1 || nargs > 2)
        return NULL;
    size_t n = sizeof k_judges / sizeof *k_judges;
    /* already the drop-in (another takeover of this lock was fixed) */
    if (!strncmp(callee, LF301_TS_VENDOR_MODULE ".", sizeof LF301_TS_VENDOR_MODULE)) {
        for (size_t i = 0; i < n; i++)
            if (!strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, k_judges[i][1]))
                return k_judges[i][1];
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(callee, k_judges[i][0]))
            return k_judges[i][1];
    return NULL;
}

/* The same removal in another family of drop-ins: the owned one (remove_member)
 * and its judged (takeover) and bound (a helper serving both) twins. */
static const char *remove_member_in(const char *callee, size_t nargs, int family) {
    static const char *const k_family[][3] = {
        {"unlinkOwnedSync", "unlinkJudgedSync", "unlinkBoundSync"},
        {"rmOwnedSync", "rmJudgedSync", "rmBoundSync"},
        {"unlinkOwned", "unlinkJudged", "unlinkBound"},
        {"rmOwned", "rmJudged", "rmBound"},
        {"rmdirOwnedSync", "rmdirJudgedSync", "rmdirBoundSync"},
        {"rmdirOwned", "rmdirJudged", "rmdirBound"},
    };
    const char *owned = remove_member(callee, nargs);
    for (size_t i = 0; owned && i < sizeof k_family / sizeof *k_family; i++)
        if (!strcmp(owned, k_family[i][0]))
            return k_family[i][family];
    return NULL;
}

static const char *judged_remove_member(const char *callee, size_t nargs) {
    return remove_member_in(callee, nargs, 1);
}

/* The drop-in for a removal one helper makes for both a release and a
 * takeover (lockrt.cjs's unlinkBoundSync, ...). */
static const char *bound_remove_member(const char *callee, size_t nargs) {
    return remove_member_in(callee, nargs, 2);
}

/* A node whose children are statements run one after another. */
static int statement_list(TSNode n) {
    return lf_tree_is(n, "statement_block") || lf_tree_is(n, "program") || lf_tree_is(n, "switch_case") ||
           lf_tree_is(n, "switch_default") || lf_tree_is(n, "class_static_block");
}

static int function_node(TSNode n) {
    return lf_tree_is(n, "arrow_function") || lf_tree_is(n, "function_expression") || lf_tree_is(n, "function") ||
           lf_tree_is(n, "function_declaration") || lf_tree_is(n, "generator_function") ||
           lf_tree_is(n, "generator_function_declaration") || lf_tree_is(n, "method_definition");
}

/* Is `n`, a child of `p`, evaluated only on some runs of `p`: the right of
 * &&, || or ??, a branch of ?: or of an if, a loop's body? */
static int conditional_part(const lf_source *src, TSNode p, TSNode n) {
    if (lf_tree_is(p, "binary_expression")) {
        TSNode op = lf_tree_field(p, "operator");
        TSNode right = lf_tree_field(p, "right");
        return ts_node_eq(right, n) && (lf_tree_text_eq(src, op, "&&") || lf_tree_text_eq(src, op, "||") ||
                                        lf_tree_text_eq(src, op, "??"));
    }
    if (lf_tree_is(p, "ternary_expression") || lf_tree_is(p, "if_statement") || lf_tree_is(p, "while_statement"))
        return !ts_node_eq(lf_tree_field(p, "condition"), n);
    return lf_tree_is(p, "else_clause") || lf_tree_is(p, "for_statement") || lf_tree_is(p, "for_in_statement") ||
           lf_tree_is(p, "do_statement");
}

/* Does the judgement `j` run before the removal `r` on every way to it in
 * their function? Up from j through what always evaluates it, to a statement
 * of a list that also holds r; a try's body counts as the whole try for the
 * statements after it (they run once it finished, or its catch went on: a
 * judgement that threw leaves the earlier one, which binds no less), but not
 * for its catch or finally. Not through a callback, a branch or a
 * short-circuit: r could then meet an older judgement of the lock, or none. */
static int runs_before(const lf_source *src, TSNode j, TSNode r) {
    if (ts_node_end_byte(j) > ts_node_start_byte(r))
        return 0;
    TSNode n = j;
    for (;;) {
        TSNode p = ts_node_parent(n);
        if (ts_node_is_null(p) || function_node(p) || conditional_part(src, p, n))
            return 0;
        if (statement_list(p)) {
            if (lf_tree_within(r, p))
                return 1;
            TSNode t = ts_node_parent(p);
            if (!lf_tree_is(t, "try_statement") || !ts_node_eq(lf_tree_field(t, "body"), p) ||
                lf_tree_within(r, t)) /* in its catch or finally: the judgement may have thrown */
                return 0;
            p = t;
        }
        n = p;
    }
}

/* Add the judging drop-in for the direct judgement call `call`; 0 when it is
 * not a read or stat of Node's own fs with the path and its options. */
static int bind_judgement(lf_tssem *m, TSNode call, lf301_ts_site *s) {
    const char *member = judge_member(lf_tssem_callee(m, call), lf_tssem_nargs(call));
    if (!member || has_spread(call) || !direct_fs(m, call))
        return 0;
    TSNode callee = lf_tree_field(call, "function");
    for (size_t i = 0; i < s->n_edits; i++)
        if (ts_node_eq(s->edits[i].callee, callee))
            return 1; /* a helper judged through twice */
    add_edit(s, callee, member);
    return 1;
}

/* Do two path expressions name one module-level binding: an import or a
 * module-level const (the same file whichever function reads it)? */
static int same_module_name(lf_tssem *m, TSNode a, TSNode b) {
    a = lf_tssem_unwrap(a);
    b = lf_tssem_unwrap(b);
    if (!lf_tree_is(a, "identifier") || !lf_tree_is(b, "identifier"))
        return 0;
    const lf_tsbinding *x = lf_tssem_binding_of(m, a), *y = lf_tssem_binding_of(m, b);
    if (!x || x != y || x->scope != 0 || x->member)
        return 0;
    return x->kind == LF_TSBIND_IMPORT || module_const(m, a) == x;
}

/* Calls, before the removal `ev` in its function, of the module's own
 * functions that read or stat the same module-level path themselves
 * (`readStalePid()` reading LOCK_FILE): the lock model carries only a
 * helper's parameters and own fields up to its callers. Each such call is a
 * judgement at the call; its fs calls are bound. */
static size_t bind_name_helpers(lf_tslock *l, const lf_tslock_event *ev, lf301_ts_site *s, TSNode *late) {
    lf_tssem *m = l->m;
    size_t dominating = 0;
    /* the calls of the removal's function only (a bundle has thousands of others) */
    int32_t first = ev->fn >= 0 ? m->scopes[ev->fn].first_call : -1;
    for (int32_t i = first; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode call = m->calls[i].node;
        if (ts_node_start_byte(call) >= ts_node_start_byte(ev->node))
            break; /* source order */
        int32_t h = lf_tssem_local_callee(m, call);
        int bound = 0;
        for (size_t k = 0; h > 0 && h != ev->fn && k < l->n_events; k++) {
            const lf_tslock_event *d = &l->events[k];
            if (d->kind == LF_TSEV_JUDGE && !d->via_helper && d->fn == h && d->key == ev->key &&
                same_module_name(m, d->target, ev->target))
                bound |= bind_judgement(m, d->node, s);
        }
        if (bound && runs_before(m->src, call, ev->node))
            dominating++;
        else if (bound && ts_node_is_null(*late))
            *late = call;
    }
    return dominating;
}

/* Bind the judgements of the takeover `ev`: the judgement events of its lock
 * in its function before it, each a direct call or a call of the module's own
 * helper whose body reads or stats the path it is given. Returns how many of
 * the bound ones run before the removal on every way to it; *blocker: the
 * first judgement that could not be bound. */
static size_t bind_judgements(lf_tslock *l, const lf_tslock_event *ev, lf301_ts_site *s, TSNode *blocker,
                              TSNode *bound_late) {
    lf_tssem *m = l->m;
    size_t dominating = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *j = &l->events[i];
        if (j->kind != LF_TSEV_JUDGE || j->key != ev->key || j->fn != ev->fn ||
            ts_node_start_byte(j->node) >= ts_node_start_byte(ev->node))
            continue;
        int bound = 0;
        if (!j->via_helper) {
            bound = bind_judgement(m, j->node, s);
        } else {
            int32_t h = lf_tssem_local_callee(m, j->node);
            for (size_t k = 0; h > 0 && k < l->n_events; k++) {
                const lf_tslock_event *d = &l->events[k];
                if (d->kind == LF_TSEV_JUDGE && !d->via_helper && d->fn == h && d->key == j->helper_key)
                    bound |= bind_judgement(m, d->node, s);
            }
        }
        if (!bound) {
            if (ts_node_is_null(*blocker))
                *blocker = j->node;
        } else if (runs_before(m->src, j->node, ev->node)) {
            dominating++;
        } else if (ts_node_is_null(*bound_late)) {
            *bound_late = j->node;
        }
    }
    return dominating;
}

static int own_calls_only(const lf_tssem *m, int32_t fn, size_t calls, int exported_ok);

/* Is the method private to its class: `private f()`, or `#f()`? */
static int private_method(const lf_tssem *m, TSNode def) {
    if (!lf_tree_is(def, "method_definition"))
        return 0;
    if (lf_tree_is(lf_tree_field(def, "name"), "private_property_identifier"))
        return 1;
    for (uint32_t i = 0; i < ts_node_child_count(def); i++) {
        TSNode c = ts_node_child(def, i);
        if (lf_tree_is(c, "accessibility_modifier"))
            return lf_tree_text_eq(m->src, c, "private");
    }
    return 0;
}

int lf301_ts_private_helper(const lf_tssem *m, int32_t fn, size_t calls) {
    return own_calls_only(m, fn, calls, 0);
}

int lf301_ts_module_helper(const lf_tssem *m, int32_t fn, size_t calls) {
    return own_calls_only(m, fn, calls, 1);
}

static int own_calls_only(const lf_tssem *m, int32_t fn, size_t calls, int exported_ok) {
    TSNode def = m->scopes[fn].node;
    const char *name = m->scopes[fn].name;
    size_t len = name ? strlen(name) : 0;
    int declared = lf_tree_is(def, "function_declaration") && m->scopes[fn].parent == 0 &&
                   (exported_ok || !lf_tree_is(ts_node_parent(def), "export_statement"));
    if (!len || !(declared || private_method(m, def)))
        return 0;
    size_t seen = 0;
    const char *text = m->src->text, *end = text + m->src->len;
    for (const char *at = text; (at = memmem(at, (size_t)(end - at), name, len)) != NULL; at += len) {
        int word_start = at == text || !(at[-1] == '_' || at[-1] == '$' || isalnum((unsigned char)at[-1]));
        int word_end = at + len == end || !(at[len] == '_' || at[len] == '$' || isalnum((unsigned char)at[len]));
        if (!word_start || !word_end)
            continue;
        /* a comment naming the helper ("forceRemoveLock() does every
         * removal") is no use of it */
        uint32_t b = (uint32_t)(at - text);
        TSNode in = ts_node_descendant_for_byte_range(m->root, b, b + (uint32_t)len);
        seen += !lf_tree_is(in, "comment");
    }
    return seen == calls + 1;
}

/* A removal through one of the module's functions (`removeLock(path)`): the
 * remove call inside it that removes the parameter this call fills, when it
 * has exactly one. Its drop-in then serves every caller of the helper: a
 * caller that created or judged nothing at the path removes by name, as
 * before. A helper that serves both releases and stale takeovers gets the
 * bound drop-in (*bound): a judgement of the path binds the removal to the
 * object judged, else a create to the inode it made. Null with *why
 * otherwise. */
static TSNode helper_removal(lf_tslock *l, const lf_tslock_event *ev, int *bound, char **why) {
    lf_tssem *m = l->m;
    int32_t h = lf_tssem_local_callee(m, ev->node);
    TSNode found = {0};
    size_t n = 0;
    for (size_t i = 0; h > 0 && i < l->n_events; i++) {
        const lf_tslock_event *d = &l->events[i];
        if (d->kind == LF_TSEV_REMOVE && !d->via_helper && d->fn == h && d->key == ev->helper_key && ev->helper_key >= 0) {
            found = d->node;
            n++;
        }
    }
    if (n != 1) {
        *why = lf_xstrdup(n ? "the lock is removed by a function of the module that removes its parameter at more "
                              "than one place: the fix rewrites one removal"
                            : "the lock is removed inside a function of the module this call reaches, in a way the "
                              "fix cannot follow (a callback, a nested call, another module)");
        return (TSNode){0};
    }
    int takeover = ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind != LF_TSEV_REMOVE || !c->via_helper || c == ev || lf_tssem_local_callee(m, c->node) != h)
            continue;
        int other = c->judged == LF_TSJUDGED_LIVENESS || c->judged == LF_TSJUDGED_PRESENCE;
        if (other != takeover)
            *bound = 1; /* serves both: the bound drop-in (the process's latest word on the path decides) */
    }
    /* a helper the module exports or hands on (`exports.unlockSync`,
     * `forEach(unlock)`) is also its users' release: a judged drop-in there
     * would meet a judgement this process made of another holder's lock
     * before it took its own (a retry after a look that found it fresh) and
     * leave its own lock behind; the bound one, or none */
    if (takeover && !*bound) {
        size_t calls = 0;
        for (size_t i = 0; i < m->n_calls; i++)
            calls += lf_tssem_local_callee(m, m->calls[i].node) == h;
        if (!lf301_ts_private_helper(m, h, calls))
            *bound = 1;
    }
    return found;
}

/* A bound removal also serves the holder's release: the module's exclusive
 * creates of the lock (in the takeover's function, or of its path) become the
 * remembering drop-ins, so that the release removes only the inode its create
 * made. NULL, or why they cannot be. */
static char *bind_creates(lf_tslock *l, const lf_tslock_event *ev, lf301_ts_site *s) {
    lf_tssem *m = l->m;
    size_t bound = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind != LF_TSEV_CREATE || (c->key != ev->key && c->fn != ev->fn))
            continue;
        const char *made = c->via_helper ? NULL : create_member(lf_tssem_callee(m, c->node), lf_tssem_nargs(c->node));
        if (!made || has_spread(c->node) || !direct_fs(m, c->node))
            return lf_xasprintf("the function that removes the lock also serves the holder's release, and the lock "
                                "is created at line %u in a way the fix cannot remember (a helper, an fs object "
                                "handed in, not writeFileSync / openSync / a promise writeFile)",
                                lf_py_line(m->src, c->node));
        add_edit(s, lf_tree_field(c->node, "function"), made);
        bound++;
    }
    if (!bound)
        return lf_xstrdup("the function that removes the lock also serves the holder's release, and no exclusive "
                          "create of the lock is in sight to bind that release to");
    return NULL;
}

/* Is the create `create` of the lock certainly of the path the removal ev
 * removes: in one function, one field of one class, or one module-level
 * const? */
static int same_place(lf_tslock *l, const lf_tslock_event *create, const lf_tslock_event *ev) {
    lf_tssem *m = l->m;
    if (create->fn == ev->fn)
        return 1;
    if (!strncmp(l->keys[ev->key].key, "this.", 5)) {
        int32_t a = m->scopes[create->fn].cls, b = m->scopes[ev->fn].cls;
        if (a >= 0 && a == b)
            return 1;
    }
    const lf_tsbinding *a = module_const(m, create->target), *b = module_const(m, ev->target);
    return a && a == b;
}

/* A release of a path the function is given (`releaseLock(lockPath)`),
 * whose creates are elsewhere in the module with paths their functions are
 * given too (`acquireLock(lockPath)`): which create made what a call releases
 * is for the callers. Every exclusive create of a lock file in the module
 * becomes its remembering drop-in, and the release its owned drop-in: the
 * drop-ins remember per resolved path, so the release is bound whenever this
 * process created the path it is handed through one of them, and removes by
 * name, as before, a path it created nothing at. */
static lf301_ts_site *all_creates_release(lf_tslock *l, const lf_tslock_event *ev, TSNode rm, const char *remove,
                                          lf301_ts_site *s, int by_key) {
    lf_tssem *m = l->m;
    const lf_source *src = m->src;
    size_t given = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        /* locks only: a pin is kept per remembered create until its release, so
         * an exclusive temp file made in a loop must not be one */
        if (c->kind != LF_TSEV_CREATE || c->via_helper || c->key < 0 ||
            !lf_tslock_is_lock(l->keys[c->key].flags))
            continue;
        const char *made = create_member(lf_tssem_callee(m, c->node), lf_tssem_nargs(c->node));
        if (!made || has_spread(c->node) || !direct_fs(m, c->node))
            return decline_at(s, src, c->node, by_key ? "the lock is created at several places or in another "
                                                        "function, and the module's create `"
                                                      : "the lock path is a parameter, and the module's create `",
                              "` is not writeFileSync / a promise writeFile with its options, openSync or a "
                              "promise open, of Node's own fs: the fix cannot remember what every create of the "
                              "module makes");
        TSNode other = replaced_at(l, c->key);
        if (!ts_node_is_null(other))
            return decline(s, lf_xasprintf("line %u puts another file at a lock path the module creates (a rename, "
                                           "copy or link onto it): a release bound to the created inode would "
                                           "then leave it in place",
                                           lf_py_line(src, other)));
        given += by_key ? c->key == ev->key : lf_tssem_key_param(m, l->keys[c->key].key) != NULL;
        add_edit(s, lf_tree_field(c->node, "function"), made);
    }
    for (size_t i = 0; by_key && i < l->n_events; i++) /* a create through one of the module's helpers */
        given += l->events[i].kind == LF_TSEV_CREATE && l->events[i].via_helper && l->events[i].key == ev->key;
    if (!given)
        return decline(s, lf_xstrdup("no exclusive create of this path is in sight (a caller, another module or a "
                                     "lock library creates it): there is no create to bind to"));
    add_edit(s, lf_tree_field(rm, "function"), remove);
    return s;
}

/* Is the catch clause a create's own failure handler, `catch (err) { if
 * (err.code !== "EEXIST") throw err; ...`: what goes past its first statement
 * is the create's EEXIST, never an error of a later step (no other call
 * fails with EEXIST), so nothing this function created gets past it. The
 * test may be spelled `(err as NodeJS.ErrnoException).code !== "EEXIST"` or
 * through the module's own predicate (`if (!isAlreadyExists(err)) throw err`,
 * a function that names EEXIST). */
static int eexist_only_handler(lf_tssem *m, TSNode clause) {
    const lf_source *src = m->src;
    TSNode param = lf_tree_field(clause, "parameter");
    TSNode body = lf_tree_field(clause, "body");
    TSNode first = ts_node_is_null(body) ? body : ts_node_named_child(body, 0);
    while (!ts_node_is_null(first) && lf_tree_is(first, "comment"))
        first = ts_node_next_named_sibling(first);
    if (!lf_tree_is(param, "identifier") || !lf_tree_is(first, "if_statement"))
        return 0;
    TSNode cond = lf_tssem_unwrap(lf_tree_field(first, "condition"));
    TSNode then = lf_tree_field(first, "consequence");
    int tests = 0;
    if (lf_tree_is(cond, "binary_expression")) {
        TSNode op = lf_tree_field(cond, "operator"), left = lf_tssem_unwrap(lf_tree_field(cond, "left")),
               right = lf_tree_field(cond, "right");
        tests = (lf_tree_text_eq(src, op, "!==") || lf_tree_text_eq(src, op, "!=")) &&
                lf_tree_is(left, "member_expression") &&
                lf_tree_equal(src, lf_tssem_unwrap(lf_tree_field(left, "object")), src, param, 0) &&
                lf_tree_text_eq(src, lf_tree_field(left, "property"), "code") && lf_tree_is(right, "string") &&
                (lf_tree_text_eq(src, right, "\"EEXIST\"") || lf_tree_text_eq(src, right, "'EEXIST'"));
    } else if (lf_tree_is(cond, "unary_expression") && lf_tree_text_eq(src, lf_tree_field(cond, "operator"), "!")) {
        TSNode call = lf_tssem_unwrap(lf_tree_field(cond, "argument"));
        int32_t h = lf_tree_is(call, "call_expression") ? lf_tssem_local_callee(m, call) : -1;
        TSNode arg = h > 0 ? lf_tssem_unwrap(lf_tssem_arg(call, 0)) : (TSNode){0};
        tests = h > 0 && lf_tssem_nargs(call) == 1 && lf_tree_equal(src, arg, src, param, 0) &&
                lf_tree_mentions(src, m->scopes[h].node, "EEXIST", (const char *const[]){"string_fragment", NULL});
    }
    if (!tests)
        return 0;
    if (lf_tree_is(then, "statement_block") && ts_node_named_child_count(then) == 1)
        then = ts_node_named_child(then, 0);
    return lf_tree_is(then, "throw_statement");
}

/* Can the takeover's removal be reached, on some way through its function,
 * after this function created the lock itself (directly or through a helper)
 * with no look at it since: the holder's release of its own lock? The line of
 * the function's first create of it, or 0. A judged
 * drop-in there would meet whatever an earlier look left judged (the lock a
 * waiter saw held, long gone) and leave the holder's own lock behind. The
 * create's failure (an exceptional edge) carries what held before it. */
static unsigned may_release_own_create(lf_tslock *l, const lf_tslock_event *ev) {
    lf_tssem *m = l->m;
    TSNode fn = m->scopes[ev->fn].node;
    const lf_tslock_event *first_create = NULL;
    for (size_t i = 0; i < l->n_events && !first_create; i++)
        if (l->events[i].kind == LF_TSEV_CREATE && l->events[i].key == ev->key && l->events[i].fn == ev->fn)
            first_create = &l->events[i];
    if (!first_create)
        return 0;
    lf_cfg *g = lf_tscfg_build(m->src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    int nested = 0;
    int32_t at = lf_tscfg_node_of(g, fn, ev->node, &nested);
    for (size_t i = 0; at >= 0 && i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->key != ev->key || e->fn != ev->fn || e == ev)
            continue;
        int inner = 0;
        int32_t id = lf_tscfg_node_of(g, fn, e->node, &inner);
        if (id < 0)
            continue;
        if (e->kind == LF_TSEV_CREATE) {
            /* a helper's create whose result the caller keeps (`handle =
             * await tryAcquire(lock)`) may have failed quietly: only one
             * called for its effect (`acquire(lock);`) throws when it fails */
            TSNode stmt = lf_ts_parent(e->node);
            if (lf_tree_is(stmt, "await_expression"))
                stmt = lf_ts_parent(stmt);
            if (!e->via_helper || lf_tree_is(stmt, "expression_statement"))
                gen[id] = 1;
        } else if (e->kind == LF_TSEV_JUDGE && !inner) {
            kill[id] = 1;
        }
    }
    unsigned may = 0;
    if (at >= 0) {
        for (size_t v = 0; v < n; v++) {
            if (gen[v])
                kill[v] = 0; /* a statement that looks and creates may have created */
            const lf_cfg_node *nd = lf_cfg_node_at(g, (uint32_t)v);
            if (nd->kind == LF_CFG_CLAUSE && lf_tree_is(nd->stmt, "catch_clause") &&
                eexist_only_handler(m, nd->stmt))
                kill[v] = 1;
        }
        lf_cfg_lockstate st;
        lf_cfg_lockstate_run(g, gen, kill, 0, &st);
        may = st.reachable[at] && (st.may_in[at] & 1u);
        lf_cfg_lockstate_free(&st);
    }
    free(gen);
    free(kill);
    lf_cfg_free(g);
    return may ? lf_py_line(m->src, first_create->node) : 0;
}

/* The site of a stale takeover: the removal follows a judgement of the lock
 * (its age, its owner record) in its function. */
static lf301_ts_site *takeover_site(lf_tslock *l, const lf_tslock_event *ev, TSNode rm, int bound,
                                    lf301_ts_site *s) {
    lf_tssem *m = l->m;
    const lf_source *src = m->src;
    s->takeover = 1;
    unsigned own = bound ? 0 : may_release_own_create(l, ev);
    if (own)
        return decline(s, lf_xasprintf("the removal can also come after this function's own create of the lock "
                                       "(line %u) with no look since: there it is the holder's release, and a judged "
                                       "removal would meet an older look's judgement and leave the holder's lock "
                                       "behind",
                                       own));
    const char *member = (bound ? bound_remove_member : judged_remove_member)(lf_tssem_callee(m, rm),
                                                                              lf_tssem_nargs(rm));
    if (!member || has_spread(rm)) {
        return decline_at(s, src, rm,
                          "a stale takeover whose removal `",
                          "` is not unlinkSync/rmSync/rmdirSync or a promise unlink/rm/rmdir with the path (and the "
                          "options) as arguments (a callback, fs-extra's remove, a rename away): "
                          "the fix has no drop-in for it");
    }
    if (!direct_fs(m, rm))
        return decline(s, lf_xstrdup("a stale takeover through an fs object handed in (a field, an option, a "
                                     "parameter): the fix's drop-ins would use Node's own fs instead"));
    TSNode blocker = {0}, late = {0};
    size_t dominating = bind_judgements(l, ev, s, &blocker, &late);
    dominating += bind_name_helpers(l, ev, s, &late);
    if (dominating && bound) {
        char *why = bind_creates(l, ev, s);
        if (why)
            return decline(s, why);
    }
    if (dominating) {
        add_edit(s, lf_tree_field(rm, "function"), member);
        return s;
    }
    if (!ts_node_is_null(late)) {
        return decline_at(s, src, late,
                          "a stale takeover whose judgement `",
                          "` does not run on every way to the removal (it is in a branch, a callback or "
                          "behind && / ||): the removal could meet an older judgement, or none");
    }
    if (!ts_node_is_null(blocker)) {
        return decline_at(s, src, blocker,
                          "a stale takeover judged by `",
                          "`: the fix binds the removal only to a read or stat of the same path by Node's "
                          "own fs (readFileSync, statSync, lstatSync, or a promise readFile/stat/lstat; "
                          "directly, or in the module's own helper given the path), not to an existence "
                          "check, a callback or a judgement further down");
    }
    return decline(s, lf_xstrdup("a stale takeover with no read or stat of the lock path before it in this function "
                                 "or a helper of this module it calls (the pid judged comes from elsewhere, the "
                                 "failed create is the only look, or another module judges it): there is no "
                                 "judgement to bind the removal to"));
}

lf301_ts_site *lf301_ts_site_declined(char *why) { return decline(lf_xcalloc(1, sizeof(lf301_ts_site)), why); }

void lf301_ts_site_absorb(lf301_ts_site *s, lf301_ts_site *other) {
    if (!s->decline && !other->decline)
        for (size_t i = 0; i < other->n_edits; i++) {
            int dup = 0;
            for (size_t k = 0; k < s->n_edits && !dup; k++)
                dup = ts_node_eq(s->edits[k].callee, other->edits[i].callee);
            if (!dup)
                add_edit(s, other->edits[i].callee, other->edits[i].member);
        }
    s->takeover |= other->takeover;
    lf301_ts_site_free(other);
}

lf301_ts_site *lf301_ts_site_make(lf_tslock *l, const lf_tslock_event *ev) {
    lf_tssem *m = l->m;
    const lf_source *src = m->src;
    lf301_ts_site *s = lf_xcalloc(1, sizeof *s);
    TSNode rm = ev->node; /* the remove call the fix rewrites */
    int bound = 0;
    if (ev->via_helper) {
        char *why = NULL;
        rm = helper_removal(l, ev, &bound, &why);
        if (ts_node_is_null(rm))
            return decline(s, why);
    }
    /* a takeover by rewriting the lock in place keeps its inode: the old
     * holder's bound removal would still match it */
    if (ev->key >= 0 && !ts_node_is_null(l->keys[ev->key].retaken_at))
        return decline(s, lf_xasprintf("line %u takes the lock over by rewriting it in place (the same inode): a "
                                       "removal bound to the inode would still delete the new holder's lock, so "
                                       "the fix would change nothing",
                                       lf_py_line(src, l->keys[ev->key].retaken_at)));
    if (ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE)
        return takeover_site(l, ev, rm, bound, s);
    /* A release: a call of this function right after a judgement of the lock is a
     * takeover through it, whose fix makes this removal a bound one (serving
     * the release too); a plain release through it is this finding again,
     * and this fix binds it as well */
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->kind == LF_TSEV_REMOVE && e->via_helper && lf_tssem_local_callee(m, e->node) == ev->fn &&
            (e->judged == LF_TSJUDGED_LIVENESS || e->judged == LF_TSJUDGED_PRESENCE))
            return decline(s, lf_xasprintf("the function that removes the lock is also the removal helper of the "
                                           "stale takeover at line %u: that call's fix decides what it becomes",
                                           lf_py_line(src, e->node)));
    }
    const lf_tslock_key *k = &l->keys[ev->key];
    const char *callee = lf_tssem_callee(m, rm);
    const char *remove = (bound ? bound_remove_member : remove_member)(callee, lf_tssem_nargs(rm));
    if (!remove || has_spread(rm)) {
        return decline_at(s, src, rm,
                          "the removal `",
                          "` is not unlinkSync/rmSync/rmdirSync or a promise unlink/rm/rmdir with the path (and the "
                          "options) as arguments (a callback, fs-extra's remove, a rename away): "
                          "the fix has no drop-in for it");
    }
    if (!direct_fs(m, rm))
        return decline(s, lf_xstrdup("the removal goes through an fs object handed in (a field, an option, a "
                                     "parameter): the fix's drop-in would use Node's own fs instead"));
    /* the one create */
    const lf_tslock_event *create = NULL;
    size_t creates = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind == LF_TSEV_CREATE && c->key == ev->key) {
            creates++;
            if (!c->via_helper)
                create = c;
        }
    }
    if (!creates && !ev->via_helper && lf_tssem_key_param(m, k->key))
        return all_creates_release(l, ev, rm, remove, s, 0);
    /* several creates of the lock, or one in another function by a path
     * that need not be the same value there: every create of a lock file in
     * the module is remembered (lockrt.cjs binds by the resolved path at run
     * time, so the release is bound whenever this process created what it
     * removes, and removes by name, as before, what it did not) */
    if (creates && !ev->via_helper && (creates != 1 || !create || !same_place(l, create, ev)))
        return all_creates_release(l, ev, rm, remove, s, 1);
    if (creates != 1 || !create)
        return decline(s, creates ? lf_xasprintf("the lock is created at %zu places (or through a helper): the "
                                                 "fix binds a release to one create",
                                                 creates)
                                  : lf_xstrdup("no exclusive create of this path is in sight (a caller, "
                                               "another function's parameter or a lock library creates it): "
                                               "there is no create to bind to"));
    const char *made = create_member(lf_tssem_callee(m, create->node), lf_tssem_nargs(create->node));
    if (!made || has_spread(create->node) || !direct_fs(m, create->node)) {
        return decline_at(s, src, create->node,
                          "the lock is created by `",
                          "`, which is not writeFileSync / a promise writeFile with its options, or "
                          "openSync, of Node's own fs: the fix cannot remember the inode it makes");
    }
    if (!same_place(l, create, ev)) {
        unsigned line = lf_py_line(src, create->node);
        return decline(s, lf_xasprintf("the lock is created on line %u, in another function, by a path that is "
                                       "neither a field of the same class nor a module-level const: the fix cannot "
                                       "tell this removal releases that lock",
                                       line));
    }
    TSNode other = replaced_at(l, ev->key);
    if (!ts_node_is_null(other)) {
        unsigned line = lf_py_line(src, other);
        return decline(s, lf_xasprintf("line %u puts another file at the lock path (a rename, copy or link onto it): "
                                       "the release, bound to the created inode, would then leave it in place",
                                       line));
    }
    add_edit(s, lf_tree_field(create->node, "function"), made);
    add_edit(s, lf_tree_field(rm, "function"), remove);
    return s;
}
