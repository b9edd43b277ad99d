/* LF401 for TS/JS: a temp name fixed by the target (`${final}.tmp`,
 * `final + ".tmp"`, `path.join(dir, name + ".tmp")`) that is then renamed onto
 * that target with fs.rename/renameSync/promises.rename (any spelling
 * lf_tssem resolves). The query finds the temp expressions and the renames;
 * the check follows names to their values and compares paths by key, so the
 * temp and the target may be spelled through locals, fields or parameters.
 * Each finding carries what the fix may rewrite (lf401_ts_site.h). */
#include <stdlib.h>
#include <string.h>

#include "lf401_ts_site.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

typedef struct temp_site {
    TSNode temp, base;
    size_t match;
} temp_site;

static int same_key(lf_tssem *m, TSNode a, TSNode b) {
    const char *ka = lf_tssem_path_key(m, a), *kb = lf_tssem_path_key(m, b);
    return ka && ka == kb;
}

static int is_join(lf_tssem *m, TSNode n) {
    const char *q = lf_tree_is(n, "call_expression") ? lf_tssem_callee(m, n) : NULL;
    return q && (!strcmp(q, "path.join") || !strcmp(q, "path.resolve") || !strcmp(q, "path.posix.join") ||
                 !strcmp(q, "path.win32.join"));
}

/* A temp name with a prefix only (`tmp_${name}`, "tmp_" + name): a file name
 * only as the last part of a join (prefixed to a whole path it would name
 * another directory). */
static int prefix_only(TSNode temp) {
    if (lf_tree_is(temp, "template_string"))
        return lf_tree_is(ts_node_named_child(temp, ts_node_named_child_count(temp) - 1), "template_substitution");
    TSNode r = lf_tree_field(temp, "right");
    return !lf_tree_is(r, "string") && !lf_tree_is(r, "template_string");
}

/* Does the renamed source `from` (resolved) name temp t of target `to`? */
static int names_temp(lf_tssem *m, const temp_site *t, TSNode from, TSNode to) {
    if (ts_node_eq(from, t->temp) || (lf_tree_is(from, ts_node_type(t->temp)) && same_key(m, from, t->temp)))
        return !prefix_only(t->temp) && same_key(m, t->base, to);
    /* path.join(dir, name + ".tmp") onto path.join(dir, name) */
    if (!is_join(m, from))
        return 0;
    TSNode dst = lf_tssem_resolve_value(m, to);
    if (!is_join(m, dst))
        return 0;
    size_t n = lf_tssem_nargs(from);
    if (n == 0 || n != lf_tssem_nargs(dst) || !ts_node_eq(lf_tssem_unwrap(lf_tssem_arg(from, (uint32_t)n - 1)), t->temp))
        return 0;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (!same_key(m, lf_tssem_arg(from, i), lf_tssem_arg(dst, i)))
            return 0;
    return same_key(m, t->base, lf_tssem_arg(dst, (uint32_t)n - 1));
}

/* The value a path expression holds: locals followed (lf_tssem_resolve_value)
 * and a `this.x` / `this.#x` field to what its class assigns it. */
static TSNode value_of(lf_tssem *m, TSNode e) {
    for (int hop = 0; hop < 8; hop++) {
        e = lf_tssem_resolve_value(m, e);
        if (!lf_tree_is(e, "member_expression") || !lf_tree_is(lf_tree_field(e, "object"), "this"))
            return e;
        int32_t cls = m->scopes[lf_tssem_scope_of(m, e)].cls;
        char *prop = lf_tree_text(m->src, lf_tree_field(e, "property"));
        char *name = lf_xasprintf("this.%s", prop);
        const lf_tsbinding *bd = cls >= 0 ? lf_tssem_field(m, cls, lf_tssem_intern(m, name, strlen(name))) : NULL;
        free(name);
        free(prop);
        if (!bd || ts_node_is_null(bd->value))
            return e;
        e = bd->value;
    }
    return e;
}

/* One spelling of a file, conversions aside: `f.toString()`, `String(f)`,
 * `fileURLToPath(f)` and `path.resolve(f)` name the file f names. */
static TSNode strip_conversion(lf_tssem *m, TSNode e) {
    for (int hop = 0; hop < 8; hop++) {
        e = value_of(m, e);
        if (!lf_tree_is(e, "call_expression"))
            return e;
        TSNode fn = lf_tssem_unwrap(lf_tree_field(e, "function"));
        const char *c = lf_tssem_callee(m, e);
        if (lf_tssem_nargs(e) == 0 && lf_tree_is(fn, "member_expression") &&
            lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "toString"))
            e = lf_tree_field(fn, "object");
        else if (lf_tssem_nargs(e) == 1 && c &&
                 (!strcmp(c, "String") || !strcmp(c, "url.fileURLToPath") || !strcmp(c, "path.resolve")))
            e = lf_tssem_arg(e, 0);
        else
            return e;
    }
    return e;
}

/* The key of the file an expression names, conversions aside; a choice
 * between two spellings of one file (`u instanceof URL ? fileURLToPath(u) :
 * u.toString()`) names that file. NULL when unknown. */
static const char *file_key(lf_tssem *m, TSNode e) {
    e = strip_conversion(m, e);
    if (lf_tree_is(e, "ternary_expression")) {
        const char *a = lf_tssem_path_key(m, strip_conversion(m, lf_tree_field(e, "consequence")));
        const char *b = lf_tssem_path_key(m, strip_conversion(m, lf_tree_field(e, "alternative")));
        return a == b ? a : NULL;
    }
    return lf_tssem_path_key(m, e);
}

/* The expression a function returns when its body is one block with a
 * single top-level return (`getTempFilename(file)`), else null. */
static TSNode sole_return(lf_tssem *m, int32_t scope) {
    TSNode body = lf_tree_field(m->scopes[scope].node, "body");
    if (!lf_tree_is(body, "statement_block"))
        return body; /* an arrow's expression body */
    TSNode ret = {0};
    uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (!lf_tree_is(st, "return_statement"))
            continue;
        if (!ts_node_is_null(ret))
            return (TSNode){0};
        ret = ts_node_named_child(st, 0);
    }
    return ret;
}

/* A temp next to its target named by the target's own name: the renamed
 * source holds `path.join(path.dirname(f), `.${path.basename(f)}.tmp`)` (kept
 * in a field, or returned by one of the module's functions given the
 * target), and the rename's destination names f. */
static int names_sibling_temp(lf_tssem *m, const temp_site *t, TSNode from, TSNode to) {
    TSNode v = value_of(m, from), call = {0};
    int32_t s = lf_tree_is(v, "call_expression") ? lf_tssem_local_callee(m, v) : -1;
    if (s > 0) {
        call = v;
        v = lf_tssem_unwrap(sole_return(m, s));
    }
    if (!is_join(m, v) || lf_tssem_nargs(v) != 2 || !ts_node_eq(lf_tssem_unwrap(lf_tssem_arg(v, 1)), t->temp))
        return 0;
    TSNode dir = lf_tssem_unwrap(lf_tssem_arg(v, 0)), base = lf_tssem_unwrap(t->base);
    const char *qd = lf_tree_is(dir, "call_expression") ? lf_tssem_callee(m, dir) : NULL;
    const char *qb = lf_tree_is(base, "call_expression") ? lf_tssem_callee(m, base) : NULL;
    if (!qd || !qb || strcmp(qd, "path.dirname") != 0 || strcmp(qb, "path.basename") != 0 ||
        lf_tssem_nargs(dir) != 1 || lf_tssem_nargs(base) != 1)
        return 0;
    const char *file = file_key(m, lf_tssem_arg(base, 0));
    if (!file || file != file_key(m, lf_tssem_arg(dir, 0)))
        return 0;
    if (s > 0) { /* the function's parameter is what its caller passes */
        const lf_tsbinding *p = lf_tssem_key_param(m, file);
        if (!p || p->scope != s)
            return 0;
        for (uint32_t i = 0;; i++) {
            const lf_tsbinding *pi = lf_tssem_param(m, s, i);
            if (!pi)
                return 0;
            if (pi == p) {
                file = file_key(m, lf_tssem_arg(call, i));
                break;
            }
        }
    }
    return file && file == file_key(m, to);
}

/* The one temp names_sibling_temp could match for a rename from `from`: the
 * name joined to the directory in the value (or the module function's sole
 * return) the renamed source holds; a null node when there is none. */
static TSNode sibling_candidate(lf_tssem *m, TSNode from) {
    TSNode v = value_of(m, from);
    int32_t s = lf_tree_is(v, "call_expression") ? lf_tssem_local_callee(m, v) : -1;
    if (s > 0)
        v = lf_tssem_unwrap(sole_return(m, s));
    if (!is_join(m, v) || lf_tssem_nargs(v) != 2)
        return (TSNode){0};
    return lf_tssem_unwrap(lf_tssem_arg(v, 1));
}

static int cmp_temp(const void *a, const void *b) {
    uint32_t x = ts_node_start_byte(((const temp_site *)a)->temp), y = ts_node_start_byte(((const temp_site *)b)->temp);
    return x < y ? -1 : x > y;
}

static int cmp_index(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The first temp (index into the sorted temps) that starts at or after byte `at`. */
static size_t first_temp_from(const temp_site *temps, size_t n, uint32_t at) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ts_node_start_byte(temps[mid].temp) < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Is the file keyed kf written between calls a and b (a copy of the target
 * extended before it is renamed back is a temp being filled, not a backup)? */
static int written_between(lf_tssem *m, const char *kf, TSNode a, TSNode b) {
    static const char *const k_writes[] = {"writeFile", "appendFile", "open", "truncate", "createWriteStream",
                                           "outputFile", "writeJson", "writeJSON", NULL};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) <= ts_node_start_byte(a) || ts_node_start_byte(c) >= ts_node_start_byte(b) ||
            lf_tssem_nargs(c) < 1)
            continue;
        const char *op = lf_tslock_fs_op(m, c);
        for (size_t k = 0; op && k_writes[k]; k++)
            if (!strcmp(op, k_writes[k]) && file_key(m, lf_tssem_arg(c, 0)) == kf)
                return 1;
    }
    return 0;
}

/* The target copied or moved to the renamed name earlier in the function
 * (`copyFileSync(f, f + ".bak")` ... `renameSync(f + ".bak", f)`): a backup
 * put back, not a temp that is written. */
static int set_aside(lf_tssem *m, TSNode fn, TSNode rename, TSNode from, TSNode to) {
    const char *kt = file_key(m, to), *kf = file_key(m, from);
    if (!kt || !kf)
        return 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) >= ts_node_start_byte(rename) || !lf_ts_within(c, fn) || lf_tssem_nargs(c) < 2)
            continue;
        const char *op = lf_tslock_fs_op(m, c);
        if (!op || (strcmp(op, "copyFile") != 0 && strcmp(op, "cp") != 0 && strcmp(op, "rename") != 0 &&
                    strcmp(op, "link") != 0))
            continue;
        if (file_key(m, lf_tssem_arg(c, 0)) == kt && file_key(m, lf_tssem_arg(c, 1)) == kf)
            return !written_between(m, kf, c, rename);
    }
    return 0;
}

/* Is the renamed name created exclusively in the function before the rename
 * (a `wx` write or open, O_EXCL: the lock facts' exclusive creates; or
 * copyFile with COPYFILE_EXCL), and not also written plainly there (a
 * fallback that writes it anyway)? A second writer then fails with EEXIST
 * instead of sharing the file (git's own index.lock protocol): the name is
 * taken, not shared. */
static int created_exclusively(lf_tssem *m, TSNode fn, TSNode rename, TSNode from) {
    lf_tslock *l = lf_tslock_build(m);
    int32_t k = lf_tslock_key_index(l, from);
    int exclusive = 0, plain = 0;
    for (size_t i = 0; k >= 0 && i < l->n_events; i++) {
        const lf_tslock_event *ev = &l->events[i];
        if (ev->key != k || !lf_ts_within(ev->node, fn) || ts_node_start_byte(ev->node) >= ts_node_start_byte(rename))
            continue;
        exclusive |= ev->kind == LF_TSEV_CREATE;
        /* a fallback that writes it anyway, or a removal by name first (a
         * stale temp unlinked before the create takes another writer's away) */
        plain |= ev->kind == LF_TSEV_OVERWRITE || ev->kind == LF_TSEV_REMOVE;
    }
    if (exclusive || plain)
        return exclusive && !plain;
    static const char *const k_names[] = {"identifier", "property_identifier", NULL};
    const char *kf = file_key(m, from);
    for (size_t i = 0; kf && i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) >= ts_node_start_byte(rename) || !lf_ts_within(c, fn) || lf_tssem_nargs(c) < 3)
            continue;
        const char *op = lf_tslock_fs_op(m, c);
        if (op && !strcmp(op, "copyFile") && file_key(m, lf_tssem_arg(c, 1)) == kf &&
            lf_tree_mentions(m->src, lf_tssem_arg(c, 2), "COPYFILE_EXCL", k_names))
            return 1;
    }
    return 0;
}

/* fs.rename / renameSync / promises.rename, by the model's callee. */
static int is_rename(lf_tssem *m, TSNode call) {
    const char *op = lf_tslock_fs_op(m, call);
    return op && !strcmp(op, "rename");
}

/* The text of a string literal without its quotes (a template without
 * substitutions too), or NULL. */
static char *literal_text(lf_tssem *m, TSNode n) {
    n = lf_tssem_unwrap(n);
    if (!lf_tree_is(n, "string") && !(lf_tree_is(n, "template_string") && ts_node_named_child_count(n) <= 1))
        return NULL;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (!lf_tree_is(ts_node_named_child(n, i), "string_fragment"))
            return NULL;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return b - a >= 2 ? lf_xstrndup(m->src->text + a + 1, b - a - 2) : NULL;
}

/* `rename(join(dir, "auth.json.tmp"), join(dir, "auth.json"))`: a temp whose
 * name is the target's own literal name with a suffix or a prefix, in the
 * same directory. Every writer of the target writes that one temp. */
static void literal_temps(lf_check_ctx *ctx, lf_tssem *m) {
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode rename = m->calls[i].node;
        if (!is_rename(m, rename) || lf_tssem_nargs(rename) < 2)
            continue;
        TSNode from = lf_tssem_arg(rename, 0), to = lf_tssem_arg(rename, 1);
        TSNode fv = lf_tssem_unwrap(lf_tssem_resolve_value(m, from));
        TSNode tv = lf_tssem_unwrap(lf_tssem_resolve_value(m, to));
        if (!is_join(m, fv) || !is_join(m, tv))
            continue;
        uint32_t n = lf_tssem_nargs(fv);
        if (n < 2 || n != lf_tssem_nargs(tv))
            continue;
        int same_dir = 1;
        for (uint32_t j = 0; j + 1 < n && same_dir; j++)
            same_dir = same_key(m, lf_tssem_arg(fv, j), lf_tssem_arg(tv, j));
        char *tmp = same_dir ? literal_text(m, lf_tssem_arg(fv, n - 1)) : NULL;
        char *final = tmp ? literal_text(m, lf_tssem_arg(tv, n - 1)) : NULL;
        size_t lt = tmp ? strlen(tmp) : 0, lf = final ? strlen(final) : 0;
        int derived = final && lf > 0 && lt > lf &&
                      (!strncmp(tmp, final, lf) || !strcmp(tmp + lt - lf, final));
        free(tmp);
        free(final);
        if (!derived)
            continue;
        TSNode fn = lf_ts_fn_node(m, rename);
        if (set_aside(m, fn, rename, from, to) || created_exclusively(m, fn, rename, from) ||
            lf_ts_lock_held_but(m, lf_tslock_build(m), rename, from))
            continue;
        static const char *const names[] = {"temp", "base"};
        TSNode nodes[2] = {fv, tv};
        TSNode literal = lf_tssem_unwrap(lf_tssem_arg(fv, n - 1));
        lf_ctx_emit_named_site(ctx, fv, names, nodes, 2, lf401_ts_site_make(m, literal, rename), lf401_ts_site_free);
        lf_ctx_witness(ctx, lf_wit_shared_temp(lf_ctx_source(ctx), fv, rename));
    }
}

void lf401_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    /* Every finding pairs a temp name with a rename, and the temp patterns
     * have no anchor word (any `+` or template string): the query is walked
     * only in a file whose model holds a rename. */
    size_t r = 0;
    while (r < m->n_calls && !is_rename(m, m->calls[r].node))
        r++;
    if (r == m->n_calls)
        return;
    lf_ctx_collect_matches(ctx);
    size_t n = lf_ctx_match_count(ctx);
    LF_VEC(temp_site) temps = {0};
    for (size_t i = 0; i < n; i++) {
        temp_site t = {.match = i};
        if (lf_ctx_capture(ctx, i, "temp", &t.temp) && lf_ctx_capture(ctx, i, "base", &t.base))
            LF_VEC_PUSH(&temps, t);
    }
    /* one finding per temp expression, however many renames use it. A
     * rename can only name a temp of its own function, one at the module's
     * top level, or the one its source's value joins to the directory: those
     * are the candidates, in source order (the temps sorted, each function's
     * a run of them found by bisection) */
    if (temps.len > 1) /* qsort's array may not be null, even when empty */
        qsort(temps.items, temps.len, sizeof *temps.items, cmp_temp);
    LF_VEC(size_t) top = {0}, cand = {0};
    for (size_t k = 0; k < temps.len; k++)
        if (lf_tssem_scope_of(m, temps.items[k].temp) == 0)
            LF_VEC_PUSH(&top, k);
    unsigned char *reported = lf_xcalloc(temps.len ? temps.len : 1, 1);
    for (size_t i = 0; i < n && temps.len; i++) {
        TSNode rename, from, to;
        if (!lf_ctx_capture(ctx, i, "rename", &rename) || !lf_ctx_capture(ctx, i, "src", &from) ||
            !lf_ctx_capture(ctx, i, "dst", &to))
            continue;
        if (!is_rename(m, rename))
            continue;
        TSNode src_val = lf_tssem_resolve_value(m, from);
        TSNode fn = lf_ts_fn_node(m, rename);
        cand.len = 0;
        for (size_t q = 0; q < top.len; q++)
            LF_VEC_PUSH(&cand, top.items[q]);
        for (size_t k = first_temp_from(temps.items, temps.len, ts_node_start_byte(fn));
             k < temps.len && ts_node_start_byte(temps.items[k].temp) < ts_node_end_byte(fn); k++)
            if (lf_tssem_scope_of(m, temps.items[k].temp) != 0)
                LF_VEC_PUSH(&cand, k);
        TSNode sib = sibling_candidate(m, from);
        if (!ts_node_is_null(sib)) {
            size_t k = first_temp_from(temps.items, temps.len, ts_node_start_byte(sib));
            for (; k < temps.len && ts_node_start_byte(temps.items[k].temp) == ts_node_start_byte(sib); k++)
                if (ts_node_eq(temps.items[k].temp, sib))
                    LF_VEC_PUSH(&cand, k);
        }
        if (cand.len > 1)
            qsort(cand.items, cand.len, sizeof *cand.items, cmp_index);
        for (size_t c = 0; c < cand.len; c++) {
            size_t k = cand.items[c];
            if (c > 0 && k == cand.items[c - 1])
                continue;
            const temp_site *t = &temps.items[k];
            if (reported[k])
                continue;
            int local = lf_ts_within(t->temp, fn) || lf_tssem_scope_of(m, t->temp) == 0;
            if (!(local && names_temp(m, t, src_val, to)) && !names_sibling_temp(m, t, from, to))
                continue;
            if (set_aside(m, fn, rename, from, to) || created_exclusively(m, fn, rename, from))
                break;
            /* written and renamed under a lock the module takes (a callback
             * of its withFileLock, after its acquire): the writers of this
             * temp take turns. The temp is judged (no later rename looks at
             * it again). */
            if (lf_ts_lock_held_but(m, lf_tslock_build(m), rename, from)) {
                reported[k] = 1;
                break;
            }
            /* the first spelling in source order: the one the write opened */
            reported[k] = 1;
            lf_ctx_emit_match_site(ctx, t->temp, t->match, lf401_ts_site_make(m, t->temp, rename), lf401_ts_site_free);
            lf_ctx_witness(ctx, lf_wit_shared_temp(lf_ctx_source(ctx), t->temp, rename));
            break;
        }
    }
    free(reported);
    LF_VEC_FREE(&top);
    LF_VEC_FREE(&cand);
    LF_VEC_FREE(&temps);
    literal_temps(ctx, m);
}
