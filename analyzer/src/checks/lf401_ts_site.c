/* LF401 TS/JS: what the fix may rewrite (lf401_ts_site.h). Every condition the
 * rewrite relies on is checked here; the first one that fails becomes the
 * finding's no-fix reason. */
#include "lf401_ts_site.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_tslock.h"
#include "lf_util.h"

void lf401_ts_site_free(void *site) {
    lf401_ts_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s->spellings);
    free(s->new_name);
    free(s);
}

static lf401_ts_site *decline(lf401_ts_site *s, const char *why) {
    s->decline = lf_xstrdup(why);
    return s;
}

/* The statement an expression is the whole of (`x;` / `await x;`), or null. */
static TSNode whole_statement(TSNode call, int *awaited) {
    TSNode p = lf_ts_parent(call);
    *awaited = 0;
    if (lf_tree_is(p, "await_expression")) {
        *awaited = 1;
        call = p;
        p = lf_ts_parent(p);
    }
    return lf_tree_is(p, "expression_statement") ? p : (TSNode){0};
}

static int is_block(TSNode n) { return lf_tree_is(n, "statement_block") || lf_tree_is(n, "program"); }

/* Does a call create or truncate its file? `options` is writeFile's third
 * argument (absent, an encoding string, or an object whose flag reads "w..."),
 * else open's flags (a literal "w..."). */
static int write_flags(lf_tssem *m, TSNode arg, int options) {
    if (ts_node_is_null(arg))
        return options;
    arg = lf_tssem_unwrap(arg);
    char *s = lf_tssem_string(m->src, arg);
    if (s) {
        int ok = options || s[0] == 'w';
        free(s);
        return ok;
    }
    if (!options || !lf_tree_is(arg, "object"))
        return 0;
    uint32_t n = ts_node_named_child_count(arg);
    for (uint32_t i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(arg, i);
        if (!lf_tree_is(p, "pair"))
            return 0; /* a spread or a shorthand could carry a flag */
        TSNode k = lf_tree_field(p, "key");
        if (lf_tree_text_eq(m->src, k, "flag") || lf_tree_text_eq(m->src, k, "flags")) {
            char *v = lf_tssem_string(m->src, lf_tssem_unwrap(lf_tree_field(p, "value")));
            int ok = v && v[0] == 'w';
            free(v);
            if (!ok)
                return 0;
        }
    }
    return 1;
}

typedef LF_VEC(TSNode) node_vec;

typedef struct use_walk {
    lf_tssem *m;
    const lf_tsbinding *var; /* the temp's variable, or NULL when spelled inline */
    const char *name;
    TSNode expr;             /* inline: the temp expression every spelling equals */
    TSNode rename;
    char *why;
    size_t uses;
    node_vec *spellings; /* inline: every spelling, in source order */
} use_walk;

static int is_spelling(const use_walk *w, TSNode n) {
    return !strcmp(ts_node_type(n), ts_node_type(w->expr)) && lf_tree_equal(w->m->src, n, w->m->src, w->expr, 0);
}

/* Counts the spellings of an inline temp. */
static lf_walk_action visit_spelling(TSNode n, void *ud) {
    use_walk *w = ud;
    if (!is_spelling(w, n))
        return LF_WALK_CONTINUE;
    w->uses++;
    return LF_WALK_SKIP;
}

/* Every use of the temp in the region must be a call the fix knows: one that
 * creates it from scratch, sets its metadata, or the rename. */
static lf_walk_action visit_use(TSNode n, void *ud) {
    use_walk *w = ud;
    if (w->why)
        return LF_WALK_STOP;
    if (w->var) {
        if (!lf_tree_is(n, "identifier") || !lf_tree_text_eq(w->m->src, n, w->name))
            return LF_WALK_CONTINUE;
        if (lf_tssem_binding_at(w->m, lf_tssem_scope_of(w->m, n), w->name, ts_node_start_byte(n)) != w->var)
            return LF_WALK_CONTINUE;
    } else if (!is_spelling(w, n)) {
        return LF_WALK_CONTINUE;
    }
    if (w->spellings)
        LF_VEC_PUSH(w->spellings, n);
    w->uses++;
    /* an inline spelling's own subtree holds no other use */
    lf_walk_action ok = w->var ? LF_WALK_CONTINUE : LF_WALK_SKIP;
    TSNode args = lf_ts_parent(n);
    TSNode call = lf_ts_parent(args);
    if (lf_tree_is(args, "arguments") && ts_node_eq(lf_tssem_arg(call, 0), n)) {
        if (ts_node_eq(call, w->rename))
            return ok;
        const char *op = lf_tslock_fs_op(w->m, call);
        if (op && !strcmp(op, "writeFile") && write_flags(w->m, lf_tssem_arg(call, 2), 1))
            return ok;
        if (op && !strcmp(op, "open") && write_flags(w->m, lf_tssem_arg(call, 1), 0))
            return ok;
        if (op && (!strcmp(op, "chmod") || !strcmp(op, "chown") || !strcmp(op, "utimes")))
            return ok;
        if (op && (!strcmp(op, "appendFile") || !strcmp(op, "open") || !strcmp(op, "writeFile")))
            w->why = lf_xstrdup("the temp is opened to append to or read what is there (not only created with "
                                "\"w\"): a unique temp would start empty");
    }
    if (!w->why) {
        char *t = lf_tree_text(w->m->src, lf_tree_is(args, "arguments") ? call : args);
        char *nl = strchr(t, '\n');
        if (nl)
            strcpy(nl, "...");
        w->why = lf_xasprintf("the temp is used by `%s`, which the fix cannot see into (it must only be created, "
                              "written and renamed)",
                              t);
        free(t);
    }
    return LF_WALK_STOP;
}

typedef struct multiline_walk {
    int found;
} multiline_walk;

static lf_walk_action visit_multiline(TSNode n, void *ud) {
    multiline_walk *w = ud;
    if ((lf_tree_is(n, "template_string") || lf_tree_is(n, "string")) &&
        ts_node_start_point(n).row != ts_node_end_point(n).row) {
        w->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

typedef struct name_set {
    lf_tssem *m;
    const char **names; /* interned, sorted by address */
    size_t n;
    const char *hit;
} name_set;

static int cmp_ptr(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    return x < y ? -1 : x > y;
}

static lf_walk_action visit_later_use(TSNode n, void *ud) {
    name_set *w = ud;
    if (!lf_tree_is(n, "identifier") && !lf_tree_is(n, "shorthand_property_identifier"))
        return LF_WALK_CONTINUE;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    const char *name = lf_tssem_intern(w->m, w->m->src->text + a, b - a);
    if (bsearch(&name, w->names, w->n, sizeof *w->names, cmp_ptr)) {
        w->hit = name;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Names declared by the region's own statements that code after the rename
 * uses: a try block would hide them. One pass over the bindings, one walk
 * over what follows. */
static char *hidden_declaration(lf_tssem *m, TSNode first, TSNode last) {
    uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(last);
    int32_t scope = lf_tssem_scope_of(m, first);
    LF_VEC(const char *) names = {0};
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_tsbinding *bd = &m->bindings[i];
        uint32_t at = ts_node_start_byte(bd->target);
        if (at < a || at >= b || bd->kind == LF_TSBIND_ASSIGN || bd->kind == LF_TSBIND_FIELD ||
            bd->scope != scope)
            continue;
        LF_VEC_PUSH(&names, bd->name);
    }
    char *why = NULL;
    if (names.len) {
        qsort(names.items, names.len, sizeof *names.items, cmp_ptr);
        name_set w = {m, names.items, names.len, NULL};
        for (TSNode y = ts_node_next_named_sibling(last); !ts_node_is_null(y) && !w.hit;
             y = ts_node_next_named_sibling(y))
            lf_tree_walk(y, visit_later_use, &w);
        if (w.hit)
            why = lf_xasprintf("`%s`, declared between the write and the rename, is used after the rename: "
                               "wrapping them in a try would hide it",
                               w.hit);
    }
    LF_VEC_FREE(&names);
    return why;
}

/* An expression the cleanup can evaluate again: a name, `this`, a chain of
 * plain property accesses. */
static int plain_chain(TSNode n) {
    while (lf_tree_is(n, "member_expression")) {
        if (!lf_tree_is(lf_tree_field(n, "property"), "property_identifier"))
            return 0;
        n = lf_tree_field(n, "object");
    }
    return lf_tree_is(n, "identifier") || lf_tree_is(n, "this");
}

/* The statement of a statement list that holds n, or null. */
static TSNode statement_of(TSNode n, TSNode stop) {
    for (int steps = 0; steps < 200 && !ts_node_is_null(n); steps++) {
        TSNode p = lf_ts_parent(n);
        if (is_block(p))
            return n;
        if (ts_node_eq(n, stop))
            break;
        n = p;
    }
    return (TSNode){0};
}

typedef struct assign_walk {
    lf_tssem *m;
    TSNode expr;
    int found;
} assign_walk;

/* Is a name the temp expression reads assigned (or updated) here? */
static lf_walk_action visit_assign(TSNode n, void *ud) {
    assign_walk *w = ud;
    TSNode target = {0};
    if (lf_tree_is(n, "assignment_expression") || lf_tree_is(n, "augmented_assignment_expression"))
        target = lf_tssem_unwrap(lf_tree_field(n, "left"));
    else if (lf_tree_is(n, "update_expression"))
        target = lf_tssem_unwrap(lf_tree_field(n, "argument"));
    if (lf_tree_is(target, "identifier")) {
        char *name = lf_tree_text(w->m->src, target);
        if (lf_tree_mentions(w->m->src, w->expr, name, NULL))
            w->found = 1;
        free(name);
    } else if (!ts_node_is_null(target)) {
        w->found = 1; /* a property or destructuring target: could be what the name reads */
    }
    return w->found ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

lf401_ts_site *lf401_ts_site_make(lf_tssem *m, TSNode temp, TSNode rename) {
    const lf_source *src = m->src;
    lf401_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->temp = temp;
    s->rename = rename;
    s->rename_fn = lf_tree_field(rename, "function");
    if (lf_tree_is(temp, "template_string")) {
        s->template_form = 1;
        s->suffix = ts_node_named_child(temp, ts_node_named_child_count(temp) - 1);
    } else if (lf_tree_is(temp, "string")) {
        s->suffix = temp; /* a literal name (`join(dir, "state.json.tmp")`): made unique before it */
    } else {
        s->suffix = lf_tree_field(temp, "right");
    }
    /* the temp expression: <temp>, or path.join(dir, <temp>) */
    TSNode expr = temp, p = lf_ts_parent(temp);
    if (lf_tree_is(p, "arguments")) {
        const char *jq = lf_tssem_callee(m, lf_ts_parent(p));
        if (jq && !strncmp(jq, "path.", 5)) {
            expr = lf_ts_parent(p);
            p = lf_ts_parent(expr);
        }
    }
    while (lf_tree_is(p, "parenthesized_expression")) {
        expr = p;
        p = lf_ts_parent(p);
    }
    s->expr = expr;

    int awaited = 0;
    TSNode stmt = whole_statement(rename, &awaited);
    if (ts_node_is_null(stmt))
        return decline(s, "the rename is not a statement of its own (returned, chained or nested), so the fix "
                          "cannot put the write and the rename in one try");
    TSNode block = lf_ts_parent(stmt);
    s->fn = lf_ts_fn_node(m, stmt);
    const char *q = lf_tssem_callee(m, rename);
    if (q && !strcmp(q, "fs.renameSync")) {
        s->async = 0;
    } else if (q && !strcmp(q, "fs/promises.rename") && awaited) {
        s->async = 1;
    } else {
        return decline(s, "the rename is neither renameSync nor an awaited promise rename (a callback or an "
                          "unawaited promise): the fix cannot clean up after it in order");
    }
    if (!plain_chain(s->rename_fn))
        return decline(s, "the rename's callee is not a plain name or property chain the cleanup can reuse");

    char *name = NULL;
    const lf_tsbinding *var = NULL;
    node_vec spellings = {0};
    if (lf_tree_is(p, "variable_declarator") && ts_node_eq(lf_tree_field(p, "value"), expr) &&
        lf_tree_is(lf_tree_field(p, "name"), "identifier")) {
        /* const tmp = <temp>; ... write(tmp) ... rename(tmp, final) */
        s->var = lf_tree_field(p, "name");
        TSNode decl = lf_ts_parent(p);
        if (!(lf_tree_is(decl, "lexical_declaration") || lf_tree_is(decl, "variable_declaration")) ||
            !ts_node_eq(lf_ts_parent(decl), block) || ts_node_start_byte(stmt) < ts_node_end_byte(decl))
            return decline(s, "the rename is not a statement of the list that names the temp, so the fix cannot "
                              "put the write and the rename in one try");
        s->scope = lf_tssem_scope_of(m, decl);
        name = lf_tree_text(src, s->var);
        const char *iname = lf_tssem_intern(m, name, strlen(name));
        var = lf_tssem_binding_at(m, s->scope, iname, ts_node_end_byte(s->var));
        int reassigned = !var || !ts_node_eq(var->target, s->var);
        for (size_t i = 0; i < m->n_bindings && !reassigned; i++)
            if (m->bindings[i].kind == LF_TSBIND_ASSIGN && m->bindings[i].name == iname &&
                lf_tssem_scope_within(m, m->bindings[i].scope, s->scope))
                reassigned = 1;
        if (reassigned) {
            free(name);
            return decline(s, "the variable holding the temp name is assigned again");
        }
        TSNode src_arg = lf_tssem_unwrap(lf_tssem_arg(rename, 0));
        if (!lf_tree_is(src_arg, "identifier") || !lf_tree_text_eq(src, src_arg, name)) {
            free(name);
            return decline(s, "the rename does not read the temp's variable");
        }
        for (TSNode x = ts_node_next_named_sibling(decl); !ts_node_is_null(x); x = ts_node_next_named_sibling(x))
            if (lf_tree_mentions(src, x, name, NULL)) {
                s->region_first = x;
                break;
            }
    } else {
        /* write(<temp>) ... rename(<temp>, final): named once, in a new variable */
        TSNode first = statement_of(expr, s->fn);
        if (ts_node_is_null(first) || !ts_node_eq(lf_ts_parent(first), block) ||
            ts_node_start_byte(first) > ts_node_start_byte(stmt))
            return decline(s, "the temp is spelled in another statement list than the rename's, so the fix "
                              "cannot put the write and the rename in one try");
        s->scope = lf_tssem_scope_of(m, first);
        use_walk count = {m, NULL, NULL, expr, rename, NULL, 0, NULL};
        lf_tree_walk(s->fn, visit_spelling, &count);
        size_t in_fn = count.uses;
        /* the region starts at the first statement of the list spelling the temp */
        for (TSNode x = ts_node_named_child(block, 0); !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
            if (ts_node_is_null(s->region_first)) {
                use_walk w = {m, NULL, NULL, expr, rename, NULL, 0, NULL};
                lf_tree_walk(x, visit_spelling, &w);
                if (w.uses)
                    s->region_first = x;
            }
            if (ts_node_eq(x, stmt))
                break;
        }
        if (!lf_tree_equal(src, lf_tssem_arg(rename, 0), src, expr, 0))
            return decline(s, "the rename's source is spelled differently from the temp the write opens");
        assign_walk aw = {m, expr, 0};
        for (TSNode x = s->region_first; !ts_node_is_null(x) && !aw.found; x = ts_node_next_named_sibling(x)) {
            lf_tree_walk(x, visit_assign, &aw);
            if (ts_node_eq(x, stmt))
                break;
        }
        if (aw.found)
            return decline(s, "a name the temp is built from is assigned between the write and the rename: one "
                              "variable would not name the same file at each use");
        s->n_outside = in_fn; /* checked against the region's count below */
        static const char *const candidates[] = {"tmp", "tmpPath", "tempPath", NULL};
        for (size_t i = 0; candidates[i] && !name; i++)
            if (!lf_tssem_names_in(m, s->fn, candidates[i]))
                name = lf_xstrdup(candidates[i]);
        if (!name)
            return decline(s, "the names the fix would give the temp (tmp, tmpPath, tempPath) are all taken");
        s->new_name = lf_xstrdup(name);
    }
    s->region_last = stmt;
    if (ts_node_is_null(s->region_first)) {
        free(name);
        return decline(s, "the temp is not written before the rename");
    }

    /* every use in the region is a write, a metadata change or the rename */
    use_walk uw = {m, var, var ? lf_tssem_intern(m, name, strlen(name)) : NULL, expr, rename, NULL, 0,
                   var ? NULL : &spellings};
    for (TSNode x = s->region_first; !ts_node_is_null(x) && !uw.why; x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_use, &uw);
        if (ts_node_eq(x, stmt))
            break;
    }
    free(name);
    if (uw.why) {
        LF_VEC_FREE(&spellings);
        s->decline = uw.why;
        return s;
    }
    if (!var) {
        s->spellings = spellings.items;
        s->n_spellings = spellings.len;
        if (s->n_outside != spellings.len)
            return decline(s, "the temp is also spelled outside the write and the rename (a cleanup, say), which "
                              "would keep the old name");
    }
    if (!lf_tree_starts_line(src, s->region_first))
        return decline(s, "the write shares its line with other code");
    uint32_t e = ts_node_end_byte(stmt), k = e;
    while (k < src->len && (src->text[k] == ' ' || src->text[k] == '\t'))
        k++;
    if (k + 1 < src->len && src->text[k] == '/' && src->text[k + 1] == '/') {
        while (k < src->len && src->text[k] != '\n' && src->text[k] != '\r')
            k++;
        e = k;
    } else if (k < src->len && src->text[k] != '\n' && src->text[k] != '\r') {
        return decline(s, "the rename shares its line with other code");
    }
    s->region_end = e;
    multiline_walk mw = {0};
    for (TSNode x = s->region_first; !ts_node_is_null(x) && !mw.found; x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_multiline, &mw);
        if (ts_node_eq(x, stmt))
            break;
    }
    if (mw.found)
        return decline(s, "the write spans a multi-line string that re-indenting it into a try would change");
    char *hidden = hidden_declaration(m, s->region_first, stmt);
    if (hidden) {
        s->decline = hidden;
        return s;
    }
    /* `process` must be Node's process where the name is built */
    const lf_tsbinding *pb =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, temp), lf_tssem_intern(m, "process", 7), ts_node_start_byte(temp));
    if (pb && !(pb->kind == LF_TSBIND_IMPORT && pb->qualname && !strcmp(pb->qualname, "process")))
        return decline(s, "`process` is bound to something other than Node's process where the temp is named");
    return s;
}
