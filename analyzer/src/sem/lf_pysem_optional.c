/* Optional modules and the flags that track them, derived from module-level
 * bindings once the model is built.
 *
 * An optional module is a module-level name with an import on one path and a
 * stand-in on another, where the two are alternatives of one statement:
 *   if <cond>: import fcntl            try: import fcntl
 *   else:      fcntl = None            except ImportError: fcntl = None
 * or a stand-in bound first and the import attempted after it:
 *   fcntl = None
 *   try: import fcntl
 *   except ImportError: pass
 * The import may also be `fcntl = importlib.import_module("fcntl")`, and the
 * stand-in None, False or a class defined in the fallback branch. */
#include "lf_pysem_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"

/* What an import-like binding names: the import's qualname, or the module of
 * `x = importlib.import_module("m")`. */
static const char *imported_module(lf_pysem *m, const lf_pybinding *b) {
    if (b->kind == LF_PYBIND_IMPORT)
        return b->qualname;
    if (b->kind == LF_PYBIND_ASSIGN && lf_tree_is(lf_tree_unparen(b->value), "call"))
        return lf_pysem_import_call_module(m, lf_tree_unparen(b->value));
    return NULL;
}

static int is_standin(const lf_pybinding *b, lf_pyfallback_kind *kind) {
    if (b->kind == LF_PYBIND_ASSIGN && lf_pysem_is_none(b->value)) {
        *kind = LF_PYFALLBACK_NONE_VALUE;
        return 1;
    }
    if (b->kind == LF_PYBIND_ASSIGN && lf_pysem_is_false(b->value)) {
        *kind = LF_PYFALLBACK_FALSE;
        return 1;
    }
    if (b->kind == LF_PYBIND_DEF) {
        *kind = LF_PYFALLBACK_STANDIN;
        return 1;
    }
    return 0;
}

/* The statement directly under `guard` on the way up from `stmt` (or -1 when
 * `stmt` is not inside `guard`). */
static int32_t child_under(const lf_pysem *m, int32_t stmt, int32_t guard) {
    int32_t prev = -1;
    for (int32_t s = stmt; s >= 0; prev = s, s = m->stmts[s].parent)
        if (s == guard)
            return prev;
    return -1;
}

static int32_t stmt_depth(const lf_pysem *m, int32_t s) {
    int32_t d = 0;
    for (; s >= 0; s = m->stmts[s].parent)
        d++;
    return d;
}

/* Lowest statement holding both a and b, or -1 (module level). Linear in the depth. */
static int32_t common_guard(const lf_pysem *m, int32_t a, int32_t b) {
    int32_t x = m->stmts[a].parent, y = m->stmts[b].parent;
    int32_t dx = stmt_depth(m, x), dy = stmt_depth(m, y);
    for (; dx > dy; dx--)
        x = m->stmts[x].parent;
    for (; dy > dx; dy--)
        y = m->stmts[y].parent;
    while (x != y) {
        x = m->stmts[x].parent;
        y = m->stmts[y].parent;
    }
    return x;
}

/* Are the import and the stand-in alternatives of one statement? Fills the
 * guard fields of *o. */
static int alternatives(const lf_pysem *m, const lf_pybinding *imp, const lf_pybinding *fb, lf_pyoptional *o) {
    if (imp->stmt < 0 || fb->stmt < 0)
        return 0;
    int32_t g = common_guard(m, imp->stmt, fb->stmt);
    if (g >= 0) {
        int32_t ci = child_under(m, imp->stmt, g), cf = child_under(m, fb->stmt, g);
        if (ci < 0 || cf < 0)
            return 0;
        const lf_pystmt *si = &m->stmts[ci], *sf = &m->stmts[cf];
        TSNode gn = m->stmts[g].node;
        if (lf_tree_is(gn, "if_statement")) {
            if (ts_node_eq(si->clause_node, sf->clause_node) && si->clause == sf->clause)
                return 0; /* same branch */
            o->guard = g;
            /* The condition decides the import alone only for a plain if/else. */
            int has_elif = 0;
            for (uint32_t i = 0; i < ts_node_named_child_count(gn); i++)
                if (lf_tree_is(ts_node_named_child(gn, i), "elif_clause"))
                    has_elif = 1;
            if (!has_elif && si->clause == LF_PYCLAUSE_IF_BODY && sf->clause == LF_PYCLAUSE_ELSE_BODY) {
                o->guard_condition = lf_tree_field(gn, "condition");
                o->import_in_then = 1;
            } else if (!has_elif && si->clause == LF_PYCLAUSE_ELSE_BODY && sf->clause == LF_PYCLAUSE_IF_BODY) {
                o->guard_condition = lf_tree_field(gn, "condition");
                o->import_in_then = 0;
            }
            return 1;
        }
        if (lf_tree_is(gn, "try_statement")) {
            if (si->clause != LF_PYCLAUSE_TRY_BODY || sf->clause != LF_PYCLAUSE_EXCEPT_BODY)
                return 0;
            o->guard = g;
            return 1;
        }
        return 0;
    }
    /* A stand-in bound at module level before a try that attempts the import. */
    if (m->stmts[fb->stmt].parent != -1 || ts_node_start_byte(fb->target) > ts_node_start_byte(imp->target))
        return 0;
    for (int32_t s = imp->stmt, prev = -1; s >= 0; prev = s, s = m->stmts[s].parent) {
        if (prev >= 0 && lf_tree_is(m->stmts[s].node, "try_statement") &&
            m->stmts[prev].clause == LF_PYCLAUSE_TRY_BODY) {
            o->guard = s;
            return 1;
        }
    }
    return 0;
}

static int bool_literal(TSNode v) {
    v = lf_tree_unparen(v);
    return lf_tree_is(v, "true") ? 1 : lf_tree_is(v, "false") ? 0 : -1;
}

typedef LF_VEC(TSNode) node_vec;
typedef LF_VEC(lf_pyoptional) optional_vec;
typedef LF_VEC(lf_pyflag) flag_vec;


/* The alternative blocks of the statement `g` to the branch holding `stmt`:
 * the except bodies of a try whose body holds it, the other branch of an if. */
static void alternative_blocks(const lf_pysem *m, int32_t g, int32_t child, node_vec *out) {
    TSNode gn = m->stmts[g].node;
    lf_pyclause cl = m->stmts[child].clause;
    for (uint32_t i = 0; i < ts_node_named_child_count(gn); i++) {
        TSNode c = ts_node_named_child(gn, i);
        if (lf_tree_is(gn, "try_statement") && cl == LF_PYCLAUSE_TRY_BODY && lf_tree_is(c, "except_clause")) {
            for (uint32_t j = 0; j < ts_node_named_child_count(c); j++)
                if (lf_tree_is(ts_node_named_child(c, j), "block"))
                    LF_VEC_PUSH(out, ts_node_named_child(c, j));
        } else if (lf_tree_is(gn, "if_statement") && cl == LF_PYCLAUSE_IF_BODY && lf_tree_is(c, "else_clause")) {
            LF_VEC_PUSH(out, lf_tree_field(c, "body"));
        } else if (lf_tree_is(gn, "if_statement") && cl == LF_PYCLAUSE_ELSE_BODY && c.id == lf_tree_field(gn, "consequence").id) {
            LF_VEC_PUSH(out, c);
        }
    }
}

/* `try: import fcntl; HAVE = True / except ImportError: HAVE = False`: the
 * module is optional though its name is never rebound; the flag says which. */
static void find_flag_only_modules(lf_pysem *m, optional_vec *out) {
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *imp = &m->bindings[i];
        if (imp->scope != 0 || imp->kind != LF_PYBIND_IMPORT || imp->stmt < 0)
            continue;
        int32_t child = imp->stmt, g = m->stmts[child].parent;
        if (g < 0)
            continue;
        /* The flag belongs to the import beside it only when that import is
         * the one that can be missing: a lock module, or the block's only one,
         * and no other import of the block already has a stand-in. */
        int seen = 0, imports = 0;
        TSNode blk = m->stmts[child].block;
        for (size_t k = 0; k < out->len; k++)
            seen |= out->items[k].name == imp->name || ts_node_eq(m->stmts[out->items[k].import->stmt].block, blk);
        for (uint32_t c = 0; c < ts_node_named_child_count(blk); c++) {
            TSNode st = ts_node_named_child(blk, c);
            imports += lf_tree_is(st, "import_statement") || lf_tree_is(st, "import_from_statement");
        }
        if (seen || (imports != 1 && !lf_pysem_is_lock_module(imp->qualname)))
            continue;
        node_vec alts = {0};
        alternative_blocks(m, g, child, &alts);
        TSNode block = m->stmts[child].block;
        int found = 0;
        for (uint32_t c = 0; c < ts_node_named_child_count(block) && !found; c++) {
            TSNode st = ts_node_named_child(block, c);
            TSNode a = lf_tree_child(st, 0);
            if (!lf_tree_is(st, "expression_statement") || !lf_tree_is(a, "assignment") ||
                !lf_tree_is(lf_tree_field(a, "left"), "identifier"))
                continue;
            int xv = bool_literal(lf_tree_field(a, "right"));
            if (xv < 0)
                continue;
            for (size_t k = 0; k < alts.len && !found; k++) {
                for (uint32_t d = 0; d < ts_node_named_child_count(alts.items[k]); d++) {
                    TSNode st2 = ts_node_named_child(alts.items[k], d);
                    TSNode a2 = lf_tree_child(st2, 0);
                    if (lf_tree_is(st2, "expression_statement") && lf_tree_is(a2, "assignment") &&
                        lf_tree_equal(m->src, lf_tree_field(a, "left"), m->src, lf_tree_field(a2, "left"), 0) &&
                        bool_literal(lf_tree_field(a2, "right")) == !xv) {
                        found = 1;
                        break;
                    }
                }
            }
        }
        LF_VEC_FREE(&alts);
        if (!found)
            continue;
        lf_pyoptional o;
        memset(&o, 0, sizeof o);
        o.name = imp->name;
        o.module = imp->qualname;
        o.import = imp;
        o.fallback = NULL;
        o.fallback_kind = LF_PYFALLBACK_UNBOUND;
        o.guard = g;
        if (lf_tree_is(m->stmts[g].node, "if_statement") && m->stmts[child].clause == LF_PYCLAUSE_IF_BODY) {
            o.guard_condition = lf_tree_field(m->stmts[g].node, "condition");
            o.import_in_then = 1;
        }
        LF_VEC_PUSH(out, o);
    }
}

static void find_modules(lf_pysem *m) {
    optional_vec out = {0};
    /* Source order, so the result never depends on hashing. */
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *imp = &m->bindings[i];
        if (imp->scope != 0)
            continue;
        const char *mod = imported_module(m, imp);
        if (!mod)
            continue;
        int seen = 0;
        for (size_t k = 0; k < out.len; k++)
            seen |= out.items[k].name == imp->name;
        const lf_pyname_slot *slot = lf_pysem_slot(m, 0, imp->name);
        if (seen || !slot || slot->bindings.len < 2)
            continue;
        for (size_t j = 0; j < slot->bindings.len; j++) {
            const lf_pybinding *fb = &m->bindings[slot->bindings.items[j]];
            lf_pyfallback_kind kind;
            if (fb == imp || !is_standin(fb, &kind))
                continue;
            lf_pyoptional o;
            memset(&o, 0, sizeof o);
            o.guard = -1;
            if (!alternatives(m, imp, fb, &o))
                continue;
            o.name = imp->name;
            o.module = mod;
            o.import = imp;
            o.fallback = fb;
            o.fallback_kind = kind;
            LF_VEC_PUSH(&out, o);
            break;
        }
    }
    find_flag_only_modules(m, &out);
    m->optionals = out.items;
    m->n_optionals = out.len;
}

static void add_flag(flag_vec *flags, const char *name, const lf_pyoptional *o, int positive) {
    for (size_t i = 0; i < flags->len; i++)
        if (flags->items[i].name == name)
            return;
    lf_pyflag f = {name, o, positive};
    LF_VEC_PUSH(flags, f);
}


/* `F = True` beside the import and `F = False` on the stand-in's path or before
 * the guard (or the reverse). Each import block is read once. */
static void branch_flags(lf_pysem *m, flag_vec *flags) {
    node_vec done = {0};
    for (size_t i = 0; i < m->n_optionals; i++) {
        const lf_pyoptional *o = &m->optionals[i];
        const lf_pystmt *is = &m->stmts[o->import->stmt];
        node_vec alts = {0};
        if (o->fallback)
            LF_VEC_PUSH(&alts, m->stmts[o->fallback->stmt].block);
        else if (o->guard >= 0)
            alternative_blocks(m, o->guard, o->import->stmt, &alts);
        int seen = 0;
        for (size_t k = 0; k < done.len; k++)
            seen |= ts_node_eq(done.items[k], is->block);
        if (seen) {
            LF_VEC_FREE(&alts);
            continue;
        }
        LF_VEC_PUSH(&done, is->block);
        for (uint32_t c = 0; c < ts_node_named_child_count(is->block); c++) {
            TSNode st = ts_node_named_child(is->block, c);
            TSNode a = lf_tree_child(st, 0);
            if (!lf_tree_is(st, "expression_statement") || !lf_tree_is(a, "assignment") ||
                !lf_tree_is(lf_tree_field(a, "left"), "identifier"))
                continue;
            int xv = bool_literal(lf_tree_field(a, "right"));
            if (xv < 0)
                continue;
            const char *name = lf_pysem_intern_node(m, lf_tree_field(a, "left"));
            const lf_pyname_slot *slot = lf_pysem_slot(m, 0, name);
            for (size_t b = 0; slot && b < slot->bindings.len; b++) {
                const lf_pybinding *y = &m->bindings[slot->bindings.items[b]];
                if (y->kind != LF_PYBIND_ASSIGN || y->stmt < 0 || bool_literal(y->value) != !xv)
                    continue;
                int with_fallback = 0;
                for (size_t k = 0; k < alts.len; k++)
                    with_fallback |= ts_node_eq(m->stmts[y->stmt].block, alts.items[k]);
                int before = m->stmts[y->stmt].parent == -1 && o->guard >= 0 &&
                             ts_node_start_byte(y->target) < ts_node_start_byte(m->stmts[o->guard].node);
                if (with_fallback || before) {
                    add_flag(flags, name, o, xv);
                    break;
                }
            }
        }
        LF_VEC_FREE(&alts);
    }
    LF_VEC_FREE(&done);
}

/* `F = fcntl is not None`, `F = sys.platform != "win32"`, `F = not NO_FCNTL`:
 * a module-level name bound once, to a presence test. One pass in source
 * order, so a flag defined from an earlier flag is found too. */
static void expression_flags(lf_pysem *m, flag_vec *flags) {
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->scope != 0 || b->kind != LF_PYBIND_ASSIGN || ts_node_is_null(b->value))
            continue;
        const lf_pyname_slot *slot = lf_pysem_slot(m, 0, b->name);
        if (!slot || slot->bindings.len != 1)
            continue;
        TSNode v = lf_tree_unparen(b->value);
        if (bool_literal(v) >= 0 || lf_tree_is(v, "identifier"))
            continue; /* constants are flags only in branches; plain aliases are not tests */
        m->flags = flags->items;
        m->n_flags = flags->len;
        const lf_pyoptional *o = NULL;
        int s = lf_pysem_presence_test(m, v, &o);
        if (s && o)
            add_flag(flags, b->name, o, s > 0);
    }
}

void lf_pysem_find_optionals(lf_pysem *m) {
    find_modules(m);
    flag_vec flags = {0};
    branch_flags(m, &flags);
    expression_flags(m, &flags);
    m->flags = flags.items;
    m->n_flags = flags.len;
}
