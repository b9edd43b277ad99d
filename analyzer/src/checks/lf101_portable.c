/* LF101, the portable-fcntl rewrite: a lock helper that imports fcntl itself
 * (`try: import fcntl` ... `except ImportError: return self`) runs unlocked
 * wherever that import fails, i.e. on Windows. Its protocol is otherwise its
 * own: the retry loop, the timeout, what it raises or returns. Importing
 * fcntl from lockrt instead keeps every line of that protocol: on Unix
 * lockrt.fcntl is the fcntl module itself, so nothing changes there; on
 * Windows it is a stand-in with flock() and the LOCK_ constants, taking
 * lockrt's OS lock byte. So the rewrite is only
 *
 *     import fcntl        ->   fcntl = lockrt.fcntl
 *
 * for every `import fcntl [as X]` inside the module's functions. It holds
 * when the module asks nothing of fcntl but flock and LOCK_EX/SH/NB/UN (the
 * stand-in has nothing else): each use of X, or of an attribute of self that
 * X was stored in (`self._fcntl = fcntl`), is one of those attributes, an
 * `is None` test, a truth test or an assignment. */
#include <stdlib.h>
#include <string.h>

#include "lf101_site.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"

static const char *const k_portable_names[] = {"flock", "LOCK_EX", "LOCK_SH", "LOCK_NB", "LOCK_UN", NULL};

static int portable_attribute(const lf_source *src, TSNode attr) {
    TSNode name = lf_tree_field(attr, "attribute");
    for (size_t i = 0; k_portable_names[i]; i++)
        if (lf_tree_text_eq(src, name, k_portable_names[i]))
            return 1;
    return 0;
}

/* A use that asks nothing of the module's value: `X is [not] None`, a truth
 * test (`if X:`, `not X`, `X and ...`), or the target of an assignment. */
static int neutral_use(TSNode n) {
    TSNode p = ts_node_parent(n);
    if (lf_tree_is(p, "comparison_operator") && ts_node_named_child_count(p) == 2) {
        TSNode other = ts_node_eq(ts_node_named_child(p, 0), n) ? ts_node_named_child(p, 1) : ts_node_named_child(p, 0);
        return lf_tree_is(other, "none");
    }
    if (lf_tree_is(p, "not_operator") || lf_tree_is(p, "boolean_operator"))
        return 1;
    if ((lf_tree_is(p, "if_statement") || lf_tree_is(p, "elif_clause") || lf_tree_is(p, "while_statement")) &&
        ts_node_eq(lf_tree_field(p, "condition"), n))
        return 1;
    return lf_tree_is(p, "assignment") && ts_node_eq(lf_tree_field(p, "left"), n);
}

typedef LF_VEC(const char *) name_vec;

typedef struct use_walk {
    const lf_source *src;
    const char *name;      /* the local name (identifier uses), or NULL */
    const char *attr;      /* the self attribute (`self.attr` uses), or NULL */
    TSNode skip;           /* the import statement itself */
    name_vec *stored;      /* attributes of self the local is stored in */
    TSNode bad;            /* the first use the stand-in could not serve */
} use_walk;

static lf_walk_action visit_use(TSNode n, void *ud) {
    use_walk *u = ud;
    if (ts_node_eq(n, u->skip))
        return LF_WALK_SKIP;
    TSNode at;
    if (u->name) {
        if (!lf_tree_is(n, "identifier") || !lf_tree_text_eq(u->src, n, u->name))
            return LF_WALK_CONTINUE;
        TSNode p = ts_node_parent(n);
        /* `obj.fcntl` is an attribute named like it, not a use. */
        if (lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "attribute"), n))
            return LF_WALK_CONTINUE;
        if (lf_tree_is(p, "keyword_argument") && ts_node_eq(lf_tree_field(p, "name"), n))
            return LF_WALK_CONTINUE;
        at = n;
    } else {
        if (!lf_tree_is(n, "attribute") || !lf_tree_text_eq(u->src, lf_tree_field(n, "attribute"), u->attr) ||
            !lf_tree_text_eq(u->src, lf_tree_field(n, "object"), "self"))
            return LF_WALK_CONTINUE;
        at = n;
    }
    TSNode p = ts_node_parent(at);
    if (lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "object"), at) && portable_attribute(u->src, p))
        return LF_WALK_SKIP;
    if (neutral_use(at))
        return LF_WALK_SKIP;
    /* `self._fcntl = fcntl`: the attribute's own uses are checked in turn. */
    if (u->name && lf_tree_is(p, "assignment") && ts_node_eq(lf_tree_field(p, "right"), at)) {
        TSNode left = lf_tree_field(p, "left");
        if (lf_tree_is(left, "attribute") && lf_tree_text_eq(u->src, lf_tree_field(left, "object"), "self")) {
            LF_VEC_PUSH(u->stored, lf_tree_text(u->src, lf_tree_field(left, "attribute")));
            return LF_WALK_SKIP;
        }
    }
    u->bad = at;
    return LF_WALK_STOP;
}

/* Is the statement `import fcntl` or `import fcntl as X` (one module)? Its
 * bound name in *name (malloc'd). */
static int plain_fcntl_import(const lf_pysem *m, TSNode st, char **name) {
    if (!lf_tree_is(st, "import_statement") || ts_node_named_child_count(st) != 1)
        return 0;
    TSNode c = ts_node_named_child(st, 0), mod = c, alias = c;
    if (lf_tree_is(c, "aliased_import")) {
        mod = lf_tree_field(c, "name");
        alias = lf_tree_field(c, "alias");
    }
    if (!lf_tree_is(mod, "dotted_name") || !lf_tree_text_eq(m->src, mod, "fcntl"))
        return 0;
    *name = lf_tree_text(m->src, alias);
    return 1;
}

char *lf101_plan_portable(lf_pysem *m, lf101_site *s) {
    LF_VEC(int32_t) stmts = {0};
    name_vec stored = {0};
    char *why = NULL;
    for (size_t i = 0; i < m->n_bindings && !why; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || !b->qualname || strncmp(b->qualname, "fcntl", 5) != 0 ||
            (b->qualname[5] != 0 && b->qualname[5] != '.'))
            continue;
        if (b->scope == 0) {
            why = lf_xstrdup("the module also imports fcntl at its top level: the functions' own imports are not "
                             "the only way it reaches fcntl");
            break;
        }
        char *name = NULL;
        if (b->stmt < 0 || !plain_fcntl_import(m, m->stmts[b->stmt].node, &name)) {
            why = lf_xstrdup("a function imports from fcntl by name (`from fcntl import ...`) or with other modules "
                             "in one statement; the rewrite replaces a plain `import fcntl`");
            break;
        }
        /* Every use of the name in its function, and of the self attributes it goes into. */
        size_t first_stored = stored.len;
        use_walk u = {.src = m->src, .name = name, .skip = m->stmts[b->stmt].node, .stored = &stored};
        lf_tree_walk(lf_tree_field(m->scopes[b->scope].node, "body"), visit_use, &u);
        for (size_t k = first_stored; k < stored.len && ts_node_is_null(u.bad); k++) {
            use_walk a = {.src = m->src, .attr = stored.items[k], .stored = &stored};
            lf_tree_walk(m->root, visit_use, &a);
            u.bad = a.bad;
        }
        if (!ts_node_is_null(u.bad)) {
            uint32_t line, col;
            lf_source_position(m->src, ts_node_start_byte(u.bad), &line, &col);
            TSNode p = ts_node_parent(u.bad);
            char *what = lf_tree_text(m->src, lf_tree_is(p, "attribute") ? p : u.bad);
            size_t n = strcspn(what, "\n");
            why = lf_xasprintf("line %u uses `%.*s`, and lockrt's fcntl for Windows offers flock() and the LOCK_ "
                               "constants only",
                               line, (int)(n > 60 ? 60 : n), what);
            free(what);
        }
        free(name);
        LF_VEC_PUSH(&stmts, b->stmt);
    }
    for (size_t k = 0; k < stored.len; k++)
        free((char *)stored.items[k]);
    LF_VEC_FREE(&stored);
    if (!why && !stmts.len)
        why = lf_xstrdup("no function of the module imports fcntl itself");
    if (why) {
        LF_VEC_FREE(&stmts);
        return why;
    }
    s->portable_imports = stmts.items;
    s->n_portable_imports = stmts.len;
    return NULL;
}
