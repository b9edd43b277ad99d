/* LF301's TS/JS site (lf301_ts_site.h): is a reported removal the holder's
 * release of a lock file the module creates exclusively, in a shape the fix
 * can bind to the created inode? Everything the fix relies on is checked
 * here; the reason names the first thing that does not hold. */
#include "lf301_ts_site.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_util.h"

void lf301_ts_site_free(void *site) {
    lf301_ts_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s);
}

static lf301_ts_site *decline(lf301_ts_site *s, char *why) {
    s->decline = why;
    return s;
}

/* The binding an identifier use sees (names are interned: compared by pointer). */
static const lf_tsbinding *binding_of(lf_tssem *m, TSNode id) {
    uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
    const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
    return lf_tssem_binding_at(m, lf_tssem_scope_of(m, id), name, a);
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
    const lf_tsbinding *b = binding_of(m, id);
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
    return NULL;
}

static const char *create_member(const char *callee, size_t nargs) {
    if (!callee)
        return NULL;
    /* already the drop-in (another release of this lock was fixed) */
    if (!strncmp(callee, LF301_TS_VENDOR_MODULE ".", sizeof LF301_TS_VENDOR_MODULE) &&
        (!strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "writeFileExclusiveSync") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "writeFileExclusive") ||
         !strcmp(callee + sizeof LF301_TS_VENDOR_MODULE, "openExclusiveSync")))
        return callee + sizeof LF301_TS_VENDOR_MODULE;
    if (!strcmp(callee, "fs.writeFileSync") && nargs == 3)
        return "writeFileExclusiveSync";
    if (!strcmp(callee, "fs/promises.writeFile") && nargs == 3)
        return "writeFileExclusive";
    if (!strcmp(callee, "fs.openSync") && nargs >= 2 && nargs <= 3)
        return "openExclusiveSync";
    return NULL;
}

/* A module-level `const X = ...` the identifier reads, or NULL. */
static const lf_tsbinding *module_const(lf_tssem *m, TSNode id) {
    id = lf_tssem_unwrap(id);
    if (!lf_tree_is(id, "identifier"))
        return NULL;
    const lf_tsbinding *b = binding_of(m, id);
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

lf301_ts_site *lf301_ts_site_make(lf_tslock *l, const lf_tslock_event *ev) {
    lf_tssem *m = l->m;
    const lf_source *src = m->src;
    lf301_ts_site *s = lf_xcalloc(1, sizeof *s);
    if (ev->via_helper)
        return decline(s, lf_xstrdup("the lock is removed inside a function of the module this call reaches: the "
                                     "fix rewrites a removal only where the remove call itself is"));
    if (ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE)
        return decline(s, lf_xstrdup("a stale takeover: binding it needs the identity of what was judged, which "
                                     "the fix does not capture; the fix rewrites only the holder's own release "
                                     "(use lockrt's reclaimIfStale with owner records here)"));
    const lf_tslock_key *k = &l->keys[ev->key];
    if (k->flags & LF_TSLOCK_DIR)
        return decline(s, lf_xstrdup("a lock directory (mkdir): the fix binds only lock files it sees created "
                                     "exclusively to their inode"));
    const char *callee = lf_tssem_callee(m, ev->node);
    s->remove_member = remove_member(callee, lf_tssem_nargs(ev->node));
    if (!s->remove_member || has_spread(ev->node)) {
        char *call = lf_py_short(src, ev->node);
        char *why = lf_xasprintf("the removal `%s` is not unlinkSync/rmSync or a promise unlink/rm with the path "
                                 "(and rm's options) as arguments (a callback, fs-extra's remove, rmdir, a rename "
                                 "away): the fix has no drop-in for it",
                                 call);
        free(call);
        return decline(s, why);
    }
    if (!direct_fs(m, ev->node))
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
    if (creates != 1 || !create)
        return decline(s, creates ? lf_xasprintf("the lock is created at %zu places (or through a helper): the "
                                                 "fix binds a release to one create",
                                                 creates)
                                  : lf_xstrdup("no exclusive create of this path is in sight (a caller, "
                                               "another function's parameter or a lock library creates it): "
                                               "there is no create to bind to"));
    s->create_member = create_member(lf_tssem_callee(m, create->node), lf_tssem_nargs(create->node));
    if (!s->create_member || has_spread(create->node) || !direct_fs(m, create->node)) {
        char *call = lf_py_short(src, create->node);
        char *why = lf_xasprintf("the lock is created by `%s`, which is not writeFileSync / a promise writeFile "
                                 "with its options, or openSync, of Node's own fs: the fix cannot remember the "
                                 "inode it makes",
                                 call);
        free(call);
        return decline(s, why);
    }
    /* one function, one field of one class, or one module-level const */
    int same = create->fn == ev->fn;
    if (!same && !strncmp(k->key, "this.", 5)) {
        int32_t a = m->scopes[create->fn].cls, b = m->scopes[ev->fn].cls;
        same = a >= 0 && a == b;
    }
    if (!same) {
        const lf_tsbinding *a = module_const(m, create->target), *b = module_const(m, ev->target);
        same = a && a == b;
    }
    if (!same) {
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
    s->remove_callee = lf_tree_field(ev->node, "function");
    s->create_callee = lf_tree_field(create->node, "function");
    return s;
}
