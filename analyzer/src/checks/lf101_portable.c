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
 * for every `import fcntl [as X]` inside the module's functions, and, for a
 * helper that tests a module-level optional fcntl, at the module's guard (the
 * import; the stand-in where it still runs; the whole guard when it holds
 * nothing else). It holds when the module asks nothing of fcntl but flock and
 * LOCK_EX/SH/NB/UN (the stand-in has nothing else): each use of X, or of an
 * attribute of self that X was stored in (`self._fcntl = fcntl`), is one of
 * those attributes, an `is None` test, a truth test or an assignment; when no
 * flag beside the import would still say fcntl is missing; and when the module
 * has no msvcrt path of its own. */
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
    TSNode skip, skip2;    /* the import statement itself (and a module's stand-in) */
    name_vec *stored;      /* attributes of self the local is stored in */
    TSNode bad;            /* the first use the stand-in could not serve */
} use_walk;

static lf_walk_action visit_use(TSNode n, void *ud) {
    use_walk *u = ud;
    if (ts_node_eq(n, u->skip) || ts_node_eq(n, u->skip2))
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

/* Every use of `name` under `root` (but `skip`, and `skip2`), and of the self
 * attributes it goes into, is one the stand-in serves? Else the first that is
 * not, with why (malloc'd). */
static char *uses_portable(lf_pysem *m, TSNode root, const char *name, TSNode skip, TSNode skip2, name_vec *stored) {
    size_t first_stored = stored->len;
    use_walk u = {.src = m->src, .name = name, .skip = skip, .skip2 = skip2, .stored = stored};
    lf_tree_walk(root, visit_use, &u);
    for (size_t k = first_stored; k < stored->len && ts_node_is_null(u.bad); k++) {
        use_walk a = {.src = m->src, .attr = stored->items[k], .stored = stored};
        lf_tree_walk(m->root, visit_use, &a);
        u.bad = a.bad;
    }
    if (ts_node_is_null(u.bad))
        return NULL;
    uint32_t line, col;
    lf_source_position(m->src, ts_node_start_byte(u.bad), &line, &col);
    TSNode p = ts_node_parent(u.bad);
    char *what = lf_tree_text(m->src, lf_tree_is(p, "attribute") ? p : u.bad);
    size_t n = strcspn(what, "\n");
    char *why = lf_xasprintf("line %u uses `%.*s`, and lockrt's fcntl for Windows offers flock() and the LOCK_ "
                             "constants only",
                             line, (int)(n > 60 ? 60 : n), what);
    free(what);
    return why;
}

/* `N = None` / `N = False`: the statement binds only the stand-in. */
static int plain_standin(const lf_pysem *m, const lf_pybinding *b) {
    if (!b || b->stmt < 0 || (b->kind != LF_PYBIND_ASSIGN))
        return 0;
    TSNode st = m->stmts[b->stmt].node;
    TSNode a = lf_tree_child(st, 0);
    return lf_tree_is(st, "expression_statement") && lf_tree_child_count(st) == 1 && lf_tree_is(a, "assignment") &&
           lf_tree_is(lf_tree_field(a, "left"), "identifier") && ts_node_is_null(lf_tree_field(a, "type"));
}

/* The module-level guard holds nothing but the import, the stand-in and
 * `pass`: it can become one line. */
static int guard_only_binds(const lf_pysem *m, const lf_pyoptional *o) {
    if (o->guard < 0 || !lf_tree_starts_line(m->src, m->stmts[o->guard].node))
        return 0;
    for (size_t i = 0; i < m->n_stmts; i++) {
        if ((int32_t)i == o->guard || !lf_pysem_stmt_within(m, (int32_t)i, o->guard))
            continue;
        if ((int32_t)i == o->import->stmt || (o->fallback && (int32_t)i == o->fallback->stmt) ||
            lf_tree_is(m->stmts[i].node, "pass_statement"))
            continue;
        return 0;
    }
    /* and no elif chain, else or finally of a try, or comment between clauses */
    TSNode g = m->stmts[o->guard].node;
    int is_if = lf_tree_is(g, "if_statement");
    for (uint32_t i = 0; i < ts_node_named_child_count(g); i++) {
        TSNode c = ts_node_named_child(g, i);
        if (lf_tree_is(c, "comment") || lf_tree_is(c, "elif_clause") || lf_tree_is(c, "finally_clause") ||
            (!is_if && lf_tree_is(c, "else_clause")))
            return 0;
    }
    return is_if || lf_tree_is(g, "try_statement");
}

/* The module-level optional fcntl: its import and stand-in statements. */
/* A flag of the optional module is right after the rewrite when the guard is
 * a try: the import can no longer fail, so the try body's assignments (the
 * module present) are what runs, and the handler's are dead. A flag bound
 * elsewhere must be computed from the module itself (`HAS = fcntl is not
 * None`); one computed from the platform would still say it is missing. */
static char *flags_hold(const lf_pysem *m, const lf_pyoptional *o, int try_guard) {
    for (size_t k = 0; k < m->n_flags; k++) {
        if (m->flags[k].module != o)
            continue;
        int ok = try_guard;
        for (size_t i = 0; i < m->n_bindings && ok; i++) {
            const lf_pybinding *b = &m->bindings[i];
            if (b->scope != 0 || b->name != m->flags[k].name || b->stmt < 0 ||
                lf_pysem_stmt_within(m, b->stmt, o->guard))
                continue;
            ok = !ts_node_is_null(b->value) && lf_tree_mentions(m->src, b->value, o->name, NULL);
        }
        if (!ok)
            return lf_xasprintf("the module keeps `%s` beside fcntl, which would still say fcntl is missing",
                                m->flags[k].name);
    }
    return NULL;
}

static char *plan_module(lf_pysem *m, lf101_site *s, const lf_pyoptional *o, void *stmts_vec, name_vec *stored) {
    LF_VEC(int32_t) *stmts = stmts_vec;
    /* `try: import fcntl` (the import in the try's body): after the rewrite
     * its handlers never run, so what they bind needs no edit. */
    int try_guard = o->guard >= 0 && o->import && o->import->stmt >= 0 &&
                    lf_tree_is(m->stmts[o->guard].node, "try_statement") &&
                    m->stmts[o->import->stmt].clause == LF_PYCLAUSE_TRY_BODY &&
                    m->stmts[o->import->stmt].parent == o->guard;
    char *bad_flag = flags_hold(m, o, try_guard);
    if (bad_flag)
        return bad_flag;
    char *name = NULL;
    if (!o->import || o->import->stmt < 0 || !plain_fcntl_import(m, m->stmts[o->import->stmt].node, &name)) {
        free(name);
        return lf_xstrdup("the module does not import fcntl with a plain `import fcntl` the rewrite can replace");
    }
    int same = !strcmp(name, o->name);
    free(name);
    if (!same)
        return lf_xstrdup("the module imports fcntl under another name than the one its helpers test");
    /* The stand-in is rewritten too where it still runs (an if/else guard). */
    int fallback_live = o->fallback && !(try_guard && lf_pysem_stmt_within(m, o->fallback->stmt, o->guard));
    if (fallback_live && (!plain_standin(m, o->fallback) ||
                          (o->fallback_kind != LF_PYFALLBACK_NONE_VALUE && o->fallback_kind != LF_PYFALLBACK_FALSE)))
        return lf_xstrdup("fcntl's stand-in is not a plain `fcntl = None` the rewrite can replace");
    TSNode fb = o->fallback ? m->stmts[o->fallback->stmt].node : (TSNode){0};
    char *why = uses_portable(m, m->root, o->name, m->stmts[o->import->stmt].node, fb, stored);
    if (why)
        return why;
    LF_VEC_PUSH(stmts, o->import->stmt);
    if (fallback_live && o->guard >= 0 && lf_pysem_stmt_within(m, o->fallback->stmt, o->guard))
        LF_VEC_PUSH(stmts, o->fallback->stmt);
    if (guard_only_binds(m, o))
        s->portable_guard = o->guard;
    return NULL;
}

char *lf101_plan_portable(lf_pysem *m, lf101_site *s, const lf_pyoptional *module) {
    LF_VEC(int32_t) stmts = {0};
    name_vec stored = {0};
    s->portable_guard = -1;
    /* A module with a Windows lock of its own (msvcrt.locking where fcntl is
     * missing) keeps it: the stand-in would replace that path too. */
    if (lf_tree_mentions(m->src, m->root, "msvcrt", NULL))
        return lf_xstrdup("the module locks with msvcrt where fcntl is missing, a Windows path of its own that "
                          "lockrt's fcntl would replace");
    char *why = module ? plan_module(m, s, module, &stmts, &stored) : NULL;
    for (size_t i = 0; i < m->n_bindings && !why; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || !b->qualname || strncmp(b->qualname, "fcntl", 5) != 0 ||
            (b->qualname[5] != 0 && b->qualname[5] != '.') || (module && b == module->import))
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
        why = uses_portable(m, lf_tree_field(m->scopes[b->scope].node, "body"), name, m->stmts[b->stmt].node,
                            (TSNode){0}, &stored);
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
