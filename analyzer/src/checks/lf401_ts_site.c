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

typedef struct use_walk {
    lf_tssem *m;
    const lf_tsbinding *var;
    const char *name;
    TSNode rename;
    char *why;
    int uses;
} use_walk;

/* Every use of the temp in the region must be a call the fix knows: one that
 * creates it from scratch, sets its metadata, or the rename. */
static lf_walk_action visit_use(TSNode n, void *ud) {
    use_walk *w = ud;
    if (w->why)
        return LF_WALK_STOP;
    if (!lf_tree_is(n, "identifier") || !lf_tree_text_eq(w->m->src, n, w->name))
        return LF_WALK_CONTINUE;
    if (lf_tssem_binding_at(w->m, lf_tssem_scope_of(w->m, n), w->name, ts_node_start_byte(n)) != w->var)
        return LF_WALK_CONTINUE;
    w->uses++;
    TSNode args = lf_ts_parent(n);
    TSNode call = lf_ts_parent(args);
    if (lf_tree_is(args, "arguments") && ts_node_eq(lf_tssem_arg(call, 0), n)) {
        if (ts_node_eq(call, w->rename))
            return LF_WALK_CONTINUE;
        const char *op = lf_tslock_fs_op(w->m, call);
        if (op && !strcmp(op, "writeFile") && write_flags(w->m, lf_tssem_arg(call, 2), 1))
            return LF_WALK_CONTINUE;
        if (op && !strcmp(op, "open") && write_flags(w->m, lf_tssem_arg(call, 1), 0))
            return LF_WALK_CONTINUE;
        if (op && (!strcmp(op, "chmod") || !strcmp(op, "chown") || !strcmp(op, "utimes")))
            return LF_WALK_CONTINUE;
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

/* Names declared by the region's own statements that code after the rename
 * uses: a try block would hide them. */
static char *hidden_declaration(lf_tssem *m, TSNode first, TSNode last) {
    for (TSNode x = first; !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        int decl = lf_tree_is(x, "lexical_declaration") || lf_tree_is(x, "variable_declaration") ||
                   lf_tree_is(x, "function_declaration") || lf_tree_is(x, "class_declaration");
        if (decl) {
            for (size_t i = 0; i < m->n_bindings; i++) {
                const lf_tsbinding *b = &m->bindings[i];
                if (!lf_tree_within(b->target, x) || lf_tssem_scope_of(m, b->target) != lf_tssem_scope_of(m, x))
                    continue;
                for (TSNode y = ts_node_next_named_sibling(last); !ts_node_is_null(y);
                     y = ts_node_next_named_sibling(y))
                    if (lf_tree_mentions(m->src, y, b->name, NULL))
                        return lf_xasprintf("`%s`, declared between the write and the rename, is used after the "
                                            "rename: wrapping them in a try would hide it",
                                            b->name);
            }
        }
        if (ts_node_eq(x, last))
            break;
    }
    return NULL;
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

lf401_ts_site *lf401_ts_site_make(lf_tssem *m, TSNode temp, TSNode rename) {
    const lf_source *src = m->src;
    lf401_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->temp = temp;
    s->rename = rename;
    s->rename_fn = lf_tree_field(rename, "function");
    if (lf_tree_is(temp, "template_string")) {
        s->template_form = 1;
        s->suffix = ts_node_named_child(temp, ts_node_named_child_count(temp) - 1);
    } else {
        s->suffix = lf_tree_field(temp, "right");
    }

    /* const tmp = <temp>;  (or = path.join(dir, <temp>)) */
    TSNode expr = temp, p = lf_ts_parent(temp);
    if (lf_tree_is(p, "arguments")) {
        expr = lf_ts_parent(p);
        p = lf_ts_parent(expr);
    }
    while (lf_tree_is(p, "parenthesized_expression")) {
        expr = p;
        p = lf_ts_parent(p);
    }
    if (!lf_tree_is(p, "variable_declarator") || !ts_node_eq(lf_tree_field(p, "value"), expr) ||
        !lf_tree_is(lf_tree_field(p, "name"), "identifier"))
        return decline(s, "the temp name is spelled where it is used; the fix rewrites a temp held in a variable "
                          "(`const tmp = ...`)");
    s->var = lf_tree_field(p, "name");
    TSNode decl = lf_ts_parent(p);
    TSNode block = lf_ts_parent(decl);
    if (!(lf_tree_is(decl, "lexical_declaration") || lf_tree_is(decl, "variable_declaration")) || !is_block(block))
        return decline(s, "the temp is named outside a statement list the fix can see");
    s->scope = lf_tssem_scope_of(m, decl);
    s->fn = lf_ts_fn_node(m, decl);
    char *name = lf_tree_text(src, s->var);
    const char *iname = lf_tssem_intern(m, name, strlen(name));
    const lf_tsbinding *var = lf_tssem_binding_at(m, s->scope, iname, ts_node_end_byte(s->var));
    int reassigned = !var || !ts_node_eq(var->target, s->var);
    for (size_t i = 0; i < m->n_bindings && !reassigned; i++)
        if (m->bindings[i].kind == LF_TSBIND_ASSIGN && !strcmp(m->bindings[i].name, name) &&
            lf_tssem_scope_within(m, m->bindings[i].scope, s->scope))
            reassigned = 1;
    if (reassigned) {
        free(name);
        return decline(s, "the variable holding the temp name is assigned again");
    }

    /* the rename: a statement of the same list, after the name */
    int awaited = 0;
    TSNode stmt = whole_statement(rename, &awaited);
    const char *q = lf_tssem_callee(m, rename);
    if (ts_node_is_null(stmt) || !ts_node_eq(lf_ts_parent(stmt), block) ||
        ts_node_start_byte(stmt) < ts_node_end_byte(decl)) {
        free(name);
        return decline(s, "the rename is not a statement of the list that names the temp (returned, chained or "
                          "nested), so the fix cannot put the write and the rename in one try");
    }
    TSNode src_arg = lf_tssem_unwrap(lf_tssem_arg(rename, 0));
    if (!lf_tree_is(src_arg, "identifier") || !lf_tree_text_eq(src, src_arg, name)) {
        free(name);
        return decline(s, "the rename does not read the temp's variable");
    }
    if (q && !strcmp(q, "fs.renameSync")) {
        s->async = 0;
    } else if (q && !strcmp(q, "fs/promises.rename") && awaited) {
        s->async = 1;
    } else {
        free(name);
        return decline(s, "the rename is neither renameSync nor an awaited promise rename (a callback or an "
                          "unawaited promise): the fix cannot clean up after it in order");
    }
    if (!plain_chain(s->rename_fn)) {
        free(name);
        return decline(s, "the rename's callee is not a plain name or property chain the cleanup can reuse");
    }

    /* the region: from the first statement using the temp to the rename */
    for (TSNode x = ts_node_next_named_sibling(decl); !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        if (lf_tree_mentions(src, x, name, NULL)) {
            s->region_first = x;
            break;
        }
    }
    s->region_last = stmt;
    use_walk uw = {m, var, iname, rename, NULL, 0};
    for (TSNode x = s->region_first; !ts_node_is_null(x) && !uw.why; x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_use, &uw);
        if (ts_node_eq(x, stmt))
            break;
    }
    free(name);
    if (uw.why) {
        s->decline = uw.why;
        return s;
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
    const lf_tsbinding *pb = lf_tssem_binding_at(m, lf_tssem_scope_of(m, temp), lf_tssem_intern(m, "process", 7), ts_node_start_byte(temp));
    if (pb && !(pb->kind == LF_TSBIND_IMPORT && pb->qualname && !strcmp(pb->qualname, "process")))
        return decline(s, "`process` is bound to something other than Node's process where the temp is named");
    return s;
}
