/* LF104 for TS/JS: one function parses a JSON document it read
 * (`JSON.parse(fs.readFileSync(p, "utf8"))`, through names and awaits, or
 * fs-extra's readJson) and later writes the same path back (writeFile,
 * writeFileSync, promises.writeFile, writeJson, a rename onto it, or one of the
 * module's functions that writes its parameter), with no lock in play: no lock
 * library call, exclusive create or lock-named call in the function, and not
 * inside a callback handed to one. Reported at the read.
 * A class may hide both halves behind an accessor pair (configstore's
 * `get all()` parses the file, `set all(v)` writes it): a method that reads
 * `this.all` and assigns `this.all` afterwards (or in the same assignment) is
 * the read-modify-write, reported at its read of the accessor (`this.all`,
 * or `const {store} = this`; the getter may hand what it read to the class's
 * deserializer, the setter write through the class's writer). So is a pair
 * of methods (conf's `#readStore()` / `#writeStore(store)`): a method that
 * keeps what one method of its class reads from a file (directly or through
 * the class's other methods) and hands it, or a value made from it, to a
 * method that writes that file; reported at the reading call. */
#include <stdlib.h>
#include <string.h>

#include "lf104_site.h"
#include "lf_cfg.h"
#include "lf_pyshort.h"
#include "lf_tscfg.h"
#include "lf_tsgate.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

static int is_write_op(const char *op) {
    return op && (!strcmp(op, "writeFile") || !strcmp(op, "writeJson") || !strcmp(op, "writeJSON") ||
                  !strcmp(op, "outputFile") || !strcmp(op, "outputJson"));
}

/* Libraries whose call writes (atomically) the file named by its first argument. */
static const char *const k_atomic_writers[] = {"atomically.writeFile", "atomically.writeFileSync", "write-file-atomic",
                                               "write-file-atomic.sync", NULL};
/* Moves onto their second argument (npm's move-file, fs-extra's move). */
static const char *const k_movers[] = {"@npmcli/fs.moveFile", "@npmcli/move-file", "move-file", NULL};

/* A writer a sibling module exports, read by its name as fs's own are:
 * `writeJsonAtomic(path, data)`, `writeFileAtomic(p, text)` from
 * "../helpers/fs" (a relative import: the project's own helper, whose body is
 * in another file). Its first argument is the file it writes. */
static int sibling_writer(lf_tssem *m, TSNode call) {
    static const char *const stems[] = {"writeJson", "writeJSON", "writeFile", NULL};
    if (lf_tssem_local_callee(m, call) > 0)
        return 0;
    const char *q = lf_tssem_callee(m, call);
    const char *dot = q ? strrchr(q, '.') : NULL;
    if (!lf_tssem_project_callee(q))
        return 0;
    const char *name = dot ? dot + 1 : q;
    for (size_t i = 0; stems[i]; i++)
        if (!strncmp(name, stems[i], strlen(stems[i])))
            return 1;
    return 0;
}

/* The path a call writes: writeFile/writeJson and the atomic-write
 * libraries' first argument, a sibling module's writeJson.../writeFile...
 * helper's, a rename's destination; null otherwise. */
static TSNode written_path(lf_tssem *m, TSNode call) {
    const char *op = lf_tslock_fs_op(m, call);
    if (is_write_op(op) || lf_tssem_call_is(m, call, k_atomic_writers) || sibling_writer(m, call))
        return lf_tssem_arg(call, 0);
    if ((op && (!strcmp(op, "rename") || !strcmp(op, "move"))) || lf_tssem_call_is(m, call, k_movers))
        return lf_tssem_arg(call, 1);
    return (TSNode){0};
}

/* Strip `.toString()`, `.trim()` and the like from what JSON.parse parses,
 * and a `.catch(() => "")` on the read's promise: its value is what was read
 * (or a fallback for a missing file, which parses to nothing read). */
static TSNode parsed_source(lf_tssem *m, TSNode n) {
    for (int hop = 0; hop < 8; hop++) {
        n = lf_tssem_unwrap(lf_tssem_resolve_value(m, n));
        if (!lf_tree_is(n, "call_expression"))
            return n;
        TSNode fn = lf_tree_field(n, "function");
        if (!lf_tree_is(fn, "member_expression"))
            return n;
        TSNode p = lf_tree_field(fn, "property");
        /* `await Bun.file(p).text()`: the handle's text is the read */
        TSNode handle = lf_tssem_resolve_value(m, lf_tree_field(fn, "object"));
        if (lf_tree_text_eq(m->src, p, "text") && lf_tslock_fs_op(m, handle))
            return handle;
        if (!lf_tree_text_eq(m->src, p, "toString") && !lf_tree_text_eq(m->src, p, "trim") &&
            !lf_tree_text_eq(m->src, p, "catch"))
            return n;
        n = lf_tree_field(fn, "object");
    }
    return n;
}

/* Does function scope `s` write its parameter `param` (writeFile or rename onto it)? */
static int helper_writes(lf_tssem *m, int32_t s, const lf_tsbinding *param) {
    const char *pk = lf_tssem_path_key(m, param->target);
    for (int32_t i = s >= 0 ? m->scopes[s].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode target = written_path(m, m->calls[i].node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == pk)
            return 1;
    }
    return 0;
}

static int fn_writes(lf_tssem *m, int32_t fn, const char *k);

/* Is `n` in the catch clause of a try whose body holds `read`? There the
 * read or its parse threw, so what is written is not what was read
 * (configstore clears a config that does not parse). */
static int in_failed_read_handler(TSNode n, TSNode read) {
    for (TSNode p = lf_ts_parent(n); !ts_node_is_null(p); p = lf_ts_parent(p)) {
        if (lf_tree_is(p, "catch_clause")) {
            TSNode t = lf_ts_parent(p);
            if (lf_tree_is(t, "try_statement") && lf_ts_within(read, lf_tree_field(t, "body")))
                return 1;
        }
        if (lf_tree_is(p, "function_declaration") || lf_tree_is(p, "method_definition") ||
            lf_tree_is(p, "arrow_function") || lf_tree_is(p, "function_expression"))
            return 0;
    }
    return 0;
}

/* Can a call in scope `wscope` run after a read in scope `rscope` as part of
 * one read-modify-write? Only when it sits in the read's own body or in a
 * callback nested in that body (`.then`, an error-first callback, a loop's
 * arrow). Two sibling bodies (two `it(...)` callbacks, the `read:` and
 * `write:` closures of one object) run independently of each other: what
 * one reads is not what the other writes. */
static int same_body(const lf_tssem *m, int32_t rscope, int32_t wscope) {
    return lf_tssem_scope_within(m, wscope, rscope);
}

static int reaches(const lf_source *src, TSNode fn, TSNode from, TSNode to);
static int reaches_in(const lf_cfg *g, TSNode fn, TSNode from, TSNode to);

/* The first write of key `k` in function fn that starts after byte `after`
 * and can follow `read` as part of one update (in the read's body, not in
 * the handler of its own failure), or null. */
static TSNode write_in_text_after(lf_tssem *m, int32_t fn, const char *k, TSNode read, uint32_t after) {
    int32_t rscope = lf_tssem_scope_of(m, read);
    for (int32_t i = fn >= 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) <= after || !same_body(m, rscope, c->scope) ||
            in_failed_read_handler(c->node, read))
            continue;
        TSNode target = written_path(m, c->node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == k)
            return c->node;
        int32_t s = lf_tssem_local_callee(m, c->node);
        if (s <= 0)
            continue;
        /* a function nested in this one that writes the path it captures
         * (cacache's `const write = async (tmp) => moveFile(tmp.target, bucket)`) */
        if (s != fn && lf_tssem_scope_within(m, s, fn) && fn_writes(m, s, k))
            return c->node;
        size_t n = lf_tssem_nargs(c->node);
        for (uint32_t j = 0; j < n && j < 8; j++) {
            const lf_tsbinding *p = lf_tssem_param(m, s, j);
            if (p && lf_tssem_path_key(m, lf_tssem_arg(c->node, j)) == k && helper_writes(m, s, p))
                return c->node;
        }
    }
    return (TSNode){0};
}

/* The first write of key `k` after `read` in function fn that control can
 * reach from the read, or null. A read in one `case` of a command switch and
 * a write in another (each case ends in `break`) are not one update. */
static TSNode write_after(lf_tssem *m, int32_t fn, const char *k, TSNode read) {
    TSNode w = write_in_text_after(m, fn, k, read, ts_node_start_byte(read));
    if (ts_node_is_null(w) || fn <= 0)
        return w;
    lf_cfg *g = lf_tscfg_build(m->src, m->scopes[fn].node); /* one graph for every candidate */
    while (!ts_node_is_null(w) && !reaches_in(g, m->scopes[fn].node, read, w))
        w = write_in_text_after(m, fn, k, read, ts_node_start_byte(w));
    lf_cfg_free(g);
    return w;
}

/* Does function s parse JSON, itself or in one of the module's functions it calls? */
static int parses_json(lf_tssem *m, int32_t s) {
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (!lf_tssem_scope_within(m, c->scope, s))
            continue;
        if (c->callee && !strcmp(c->callee, "JSON.parse"))
            return 1;
        int32_t t = lf_tssem_local_callee(m, c->node);
        for (size_t j = 0; t > 0 && t != s && j < m->n_calls; j++)
            if (m->calls[j].callee && !strcmp(m->calls[j].callee, "JSON.parse") &&
                lf_tssem_scope_within(m, m->calls[j].scope, t))
                return 1;
    }
    return 0;
}

/* Which parameter of function s it reads a file from (and parses), or -1. */
static int reads_param(lf_tssem *m, int32_t s) {
    for (int32_t i = s >= 0 ? m->scopes[s].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        const char *op = lf_tslock_fs_op(m, c->node);
        if (!op || strcmp(op, "readFile") != 0)
            continue;
        const char *k = lf_tssem_path_key(m, lf_tssem_arg(c->node, 0));
        for (uint32_t j = 0; j < 8; j++) {
            const lf_tsbinding *p = lf_tssem_param(m, s, j);
            if (!p)
                break;
            if (lf_tssem_path_key(m, p->target) == k)
                return parses_json(m, s) ? (int)j : -1;
        }
    }
    return -1;
}

/* ---- paths that are not shared documents ---- */

/* Does path expression `expr` name a file under a directory the process
 * made for itself with mkdtemp (`join(mkdtempSync(join(tmpdir(), "x-")),
 * "state.json")`, through names and assignments, `${dir}/f` and `dir + "/f"`)?
 * No other process knows that directory, so nothing else reads or writes the
 * document: its read-modify-write cannot lose another's update. Every
 * spelling reached must end at the mkdtemp (a name also bound to a shared
 * path is shared). os.tmpdir() alone is shared by every process. Bounded. */
static int under_private_dir(lf_tssem *m, TSNode expr) {
    enum { MAX_STEPS = 48 };
    TSNode work[MAX_STEPS];
    size_t top = 0, steps = 0;
    int reached = 0;
    work[top++] = expr;
    while (top > 0) {
        if (++steps > MAX_STEPS)
            return 0;
        TSNode x = lf_tssem_unwrap(work[--top]);
        TSNode next[8];
        size_t nn = 0;
        if (lf_tree_is(x, "call_expression")) {
            const char *op = lf_tslock_fs_op(m, x);
            const char *q = lf_tssem_callee(m, x);
            if (op && !strcmp(op, "mkdtemp")) {
                reached = 1;
                continue;
            }
            if (!q || (strcmp(q, "path.join") != 0 && strcmp(q, "path.resolve") != 0 &&
                       strcmp(q, "path.posix.join") != 0 && strcmp(q, "path.win32.join") != 0))
                return 0;
            next[nn++] = lf_tssem_arg(x, 0);
        } else if (lf_tree_is(x, "binary_expression")) {
            next[nn++] = lf_tree_field(x, "left");
        } else if (lf_tree_is(x, "template_string")) {
            TSNode first = ts_node_named_child(x, 0);
            if (!lf_tree_is(first, "template_substitution") ||
                ts_node_start_byte(first) != ts_node_start_byte(x) + 1)
                return 0;
            next[nn++] = ts_node_named_child(first, 0);
        } else if (lf_tree_is(x, "identifier")) {
            /* every value the name is given: its declaration and any later
             * assignment (a test's `root = mkdtempSync(...)` in beforeEach) */
            uint32_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
            const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
            int32_t use = lf_tssem_scope_of(m, x);
            for (size_t i = 0; i < m->n_bindings; i++) {
                const lf_tsbinding *bd = &m->bindings[i];
                if (bd->name != name || ts_node_is_null(bd->value))
                    continue;
                if (bd->kind == LF_TSBIND_PARAM || bd->kind == LF_TSBIND_IMPORT || bd->member)
                    return 0;
                if (bd->kind == LF_TSBIND_VAR && !lf_tssem_scope_within(m, use, bd->scope))
                    continue;
                if ((bd->kind != LF_TSBIND_VAR && bd->kind != LF_TSBIND_ASSIGN) || nn == 8)
                    return 0;
                next[nn++] = bd->value;
            }
        }
        if (nn == 0)
            return 0;
        for (size_t i = 0; i < nn; i++) {
            if (ts_node_is_null(next[i]) || top == MAX_STEPS)
                return 0;
            work[top++] = next[i];
        }
    }
    return reached;
}

/* Is `key` a path the module uses as a lock (created exclusively, handed to
 * a lock library, or holding a pid that it also removes: a pid lock's
 * check-then-write)? A lock file's owner record is not a document: its
 * check-then-write is the lock's own race (LF301/LF303 judge it), not a
 * lost update of state. */
static int is_lock_path(lf_tslock *l, TSNode key) {
    int32_t k = lf_tslock_key_index(l, key);
    if (k < 0 || !lf_tslock_is_lock(l->keys[k].flags))
        return 0;
    if (l->keys[k].flags & (LF_TSLOCK_EXCL | LF_TSLOCK_HELPER | LF_TSLOCK_BROKEN))
        return 1;
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_REMOVE && l->events[i].key == k)
            return 1;
    return 0;
}

/* Not a shared document: a lock's own file, or a file in a private directory. */
static int not_a_document(lf_tssem *m, lf_tslock **l, TSNode key) {
    if (under_private_dir(m, key))
        return 1;
    /* a package's manifest: the package manager and the commands a user runs
     * write it, not processes keeping state side by side */
    const char *k = lf_tssem_path_key(m, key);
    if (k && strstr(k, "package.json"))
        return 1;
    if (!*l)
        *l = lf_tslock_build(m);
    return is_lock_path(*l, key);
}

typedef struct parsed_read {
    int32_t fn;
    const char *key;
} parsed_read;
typedef LF_VEC(parsed_read) parsed_vec;

/* A getter or setter method: its `get`/`set` keyword, else 0. */
static int accessor_kind(const lf_tsscope *sc) {
    if (!lf_tree_is(sc->node, "method_definition"))
        return 0;
    uint32_t k = ts_node_child_count(sc->node);
    for (uint32_t i = 0; i < k; i++) {
        const char *t = ts_node_type(ts_node_child(sc->node, i));
        if (!strcmp(t, "get") || !strcmp(t, "set"))
            return t[0];
    }
    return 0;
}

/* Does function fn write key k (writeFile/writeJson, a rename onto it)? */
static int fn_writes(lf_tssem *m, int32_t fn, const char *k) {
    for (int32_t i = fn >= 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        TSNode target = written_path(m, c->node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == k)
            return 1;
    }
    return 0;
}

typedef struct use_walk {
    lf_tssem *m;
    const char *name; /* the accessor's name */
    LF_VEC(TSNode) uses; /* `this.<name>` member expressions, in source order */
} use_walk;

static lf_walk_action collect_this_uses(TSNode n, void *ud) {
    use_walk *u = ud;
    if (lf_tree_is(n, "member_expression") && lf_tree_is(lf_tree_field(n, "object"), "this") &&
        lf_tree_text_eq(u->m->src, lf_tree_field(n, "property"), u->name))
        LF_VEC_PUSH(&u->uses, n);
    /* `const {store} = this;` reads the accessor too (conf's set()) */
    if (lf_tree_is(n, "variable_declarator") && lf_tree_is(lf_tree_field(n, "value"), "this") &&
        lf_tree_is(lf_tree_field(n, "name"), "object_pattern")) {
        TSNode pat = lf_tree_field(n, "name");
        for (uint32_t i = 0; i < ts_node_named_child_count(pat); i++) {
            TSNode c = ts_node_named_child(pat, i);
            TSNode k = lf_tree_is(c, "pair_pattern") ? lf_tree_field(c, "key") : c;
            if ((lf_tree_is(c, "shorthand_property_identifier_pattern") || lf_tree_is(c, "pair_pattern")) &&
                lf_tree_text_eq(u->m->src, k, u->name))
                LF_VEC_PUSH(&u->uses, c);
        }
    }
    return LF_WALK_CONTINUE;
}

/* The assignment a `this.x` use is the target of, or null (a read). */
static TSNode assigned_by(TSNode use) {
    TSNode p = lf_ts_parent(use);
    return lf_tree_is(p, "assignment_expression") && ts_node_eq(lf_tree_field(p, "left"), use) ? p : (TSNode){0};
}

/* Does function s write key k through one of the module's functions it
 * calls (a setter's `this._write(value)`), one call deep? */
static int calls_writer(lf_tssem *m, int32_t s, const char *k) {
    for (int32_t i = m->scopes[s].first_call; i >= 0; i = m->calls[i].next_in_fn) {
        int32_t h = lf_tssem_local_callee(m, m->calls[i].node);
        if (h > 0 && h != s && fn_writes(m, h, k))
            return 1;
    }
    return 0;
}

static void accessor_rmw(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l, const parsed_vec *reads) {
    const lf_source *src = m->src;
    for (size_t c = 0; c < m->n_classes; c++) {
        for (int32_t g = m->classes[c].first_method; g >= 0; g = m->scopes[g].next_method) {
            if (accessor_kind(&m->scopes[g]) != 'g')
                continue;
            const char *key = NULL;
            for (size_t i = 0; i < reads->len && !key; i++)
                if (reads->items[i].fn == g)
                    key = reads->items[i].key;
            /* a getter that reads the file and hands what it made of it back
             * (through a deserializer of the class: conf's `_deserialize`) is
             * the document's read as well, parsed or not */
            for (int32_t i = m->scopes[g].first_call; i >= 0 && !key; i = m->calls[i].next_in_fn) {
                const char *op = lf_tslock_fs_op(m, m->calls[i].node);
                if (op && (!strcmp(op, "readFile") || !strcmp(op, "readJson") || !strcmp(op, "readJSON")))
                    key = lf_tssem_path_key(m, lf_tssem_arg(m->calls[i].node, 0));
            }
            int32_t setter = -1;
            for (int32_t s = m->classes[c].first_method; s >= 0 && key && setter < 0; s = m->scopes[s].next_method)
                if (accessor_kind(&m->scopes[s]) == 's' && !strcmp(m->scopes[s].name, m->scopes[g].name) &&
                    (fn_writes(m, s, key) || calls_writer(m, s, key)))
                    setter = s;
            if (setter < 0)
                continue;
            use_walk u = {m, m->scopes[g].name, {0}};
            lf_tree_walk(m->classes[c].node, collect_this_uses, &u);
            /* per method: its first read of the accessor, then an assignment
             * to it that ends after that read */
            for (size_t i = 0; i < u.uses.len; i++) {
                TSNode r = u.uses.items[i];
                int32_t fn = lf_tslock_fn_of(m, lf_tssem_scope_of(m, r));
                if (fn == g || fn == setter || !ts_node_is_null(assigned_by(r)))
                    continue;
                int first = 1;
                for (size_t j = 0; j < i && first; j++)
                    if (lf_tslock_fn_of(m, lf_tssem_scope_of(m, u.uses.items[j])) == fn &&
                        ts_node_is_null(assigned_by(u.uses.items[j])))
                        first = 0;
                if (!first)
                    continue;
                TSNode w = {0};
                for (size_t j = 0; j < u.uses.len && ts_node_is_null(w); j++) {
                    TSNode a = assigned_by(u.uses.items[j]);
                    if (!ts_node_is_null(a) && lf_tslock_fn_of(m, lf_tssem_scope_of(m, a)) == fn &&
                        ts_node_end_byte(a) > ts_node_end_byte(r) &&
                        same_body(m, lf_tssem_scope_of(m, r), lf_tssem_scope_of(m, a)))
                        w = a;
                }
                if (ts_node_is_null(w))
                    continue;
                if (!*l)
                    *l = lf_tslock_build(m);
                if (lf_ts_lock_held(m, *l, r))
                    continue;
                char *what = lf_py_short(src, r);
                char *msg = lf_xasprintf("%s reads the file its getter (line %u) parses, and line %u writes it back "
                                         "through the setter with no lock held: concurrent processes overwrite each "
                                         "other's updates",
                                         what, lf_py_line(src, m->scopes[g].node), lf_py_line(src, w));
                lf_ctx_emit_site(ctx, r, msg,
                                 lf104_site_declined("the read and the write are a getter and a setter of the class: "
                                                     "a lock around both would have to be taken by their callers"),
                                 lf104_site_free);
                lf_ctx_witness(ctx, lf_wit_read_write(src, r, w, (TSNode){0}));
                free(msg);
                free(what);
            }
            LF_VEC_FREE(&u.uses);
        }
    }
}

/* ---- read/write summaries of a class's methods ---- */

typedef LF_VEC(const char *) key_vec;

static int key_in(const key_vec *v, const char *k) {
    for (size_t i = 0; i < v->len; i++)
        if (v->items[i] == k)
            return 1;
    return 0;
}

static int key_add_to(key_vec *v, const char *k) {
    if (!k || key_in(v, k) || v->len >= 16)
        return 0;
    LF_VEC_PUSH(v, k);
    return 1;
}

/* The variable a call's result is kept in (`const store = this.read()`), or NULL. */
static const char *kept_in(lf_tssem *m, TSNode call) {
    TSNode p = lf_ts_parent(call);
    /* `const store = fresh ? this.read() : cached` keeps it too */
    TSNode cur = call;
    /* `readState(p) || {}`, `readState(p) ?? {}`: a default for a missing one */
    while (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression") ||
           lf_tree_is(p, "ternary_expression") ||
           (lf_tree_is(p, "binary_expression") && ts_node_eq(lf_tree_field(p, "left"), cur) &&
            (lf_tree_text_eq(m->src, lf_tree_field(p, "operator"), "||") ||
             lf_tree_text_eq(m->src, lf_tree_field(p, "operator"), "??")))) {
        cur = p;
        p = lf_ts_parent(p);
    }
    /* `let content; try { content = readFileSync(p) } catch { ... }` keeps it
     * in the name assigned */
    TSNode name = lf_tree_is(p, "variable_declarator")     ? lf_tree_field(p, "name")
                  : lf_tree_is(p, "assignment_expression") ? lf_tree_field(p, "left")
                                                           : (TSNode){0};
    if (!lf_tree_is(name, "identifier"))
        return NULL;
    uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
    return lf_tssem_intern(m, m->src->text + a, b - a);
}

/* Is x an object or array literal made from v: `{ ...v, n: 1 }`, `[...v, x]`,
 * `{ items: v }`, `{ n: v.n + 1 }` (v spread or named in one of its values)? */
static int literal_of(lf_tssem *m, TSNode x, const char *v) {
    if (!lf_tree_is(x, "object") && !lf_tree_is(x, "array"))
        return 0;
    uint32_t n = ts_node_named_child_count(x);
    for (uint32_t i = 0; i < n && i < 64; i++) {
        TSNode e = ts_node_named_child(x, i);
        if (lf_tree_is(e, "spread_element") || lf_tree_is(e, "pair"))
            e = lf_tree_is(e, "pair") ? lf_tree_field(e, "value") : ts_node_named_child(e, 0);
        /* `v.count + 1`, `v.items`: the operand's root object; either side of
         * a fallback (`input.x ?? v?.x`: the old value kept where the input
         * has none) */
        TSNode stack[8];
        int sp = 0;
        stack[sp++] = lf_tssem_unwrap(e);
        for (int steps = 0; sp && steps < 16; steps++) {
            e = stack[--sp];
            if (lf_tree_is(e, "binary_expression")) {
                TSNode op = lf_tree_field(e, "operator");
                if ((lf_tree_text_eq(m->src, op, "??") || lf_tree_text_eq(m->src, op, "||")) && sp < 7)
                    stack[sp++] = lf_tssem_unwrap(lf_tree_field(e, "right"));
                stack[sp++] = lf_tssem_unwrap(lf_tree_field(e, "left"));
                continue;
            }
            for (int hop = 0; hop < 8 && lf_tree_is(e, "member_expression"); hop++)
                e = lf_tree_field(e, "object");
            if (lf_tree_is(e, "identifier") && lf_tree_text_eq(m->src, e, v))
                return 1;
        }
    }
    return 0;
}

/* Is x an object literal holding a value computed from v through a const
 * (`{ archives }` / `{ n: archives }` with `const archives = prior.n + 1`)? */
static int literal_derived_of(lf_tssem *m, TSNode x, const char *v) {
    if (!lf_tree_is(x, "object"))
        return 0;
    uint32_t n = ts_node_named_child_count(x);
    for (uint32_t i = 0; i < n && i < 64; i++) {
        TSNode e = ts_node_named_child(x, i);
        if (lf_tree_is(e, "pair"))
            e = lf_tssem_unwrap(lf_tree_field(e, "value"));
        if (lf_tree_is(e, "shorthand_property_identifier") || lf_tree_is(e, "identifier")) {
            uint32_t a = ts_node_start_byte(e);
            const lf_tsbinding *bd = lf_tssem_binding_at(
                m, lf_tssem_scope_of(m, e), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(e) - a), a);
            if (bd && bd->kind == LF_TSBIND_VAR && !bd->member && !ts_node_is_null(bd->value) &&
                lf_tree_mentions(m->src, bd->value, v, NULL))
                return 1;
        }
    }
    return 0;
}

/* Does the argument carry variable v: v itself, a literal made from it, or
 * a call (one hop, through a name) that is given v (`this.#fillInDefaults(store)`)? */
static int carries(lf_tssem *m, TSNode arg, const char *v) {
    TSNode x = lf_tssem_unwrap(arg);
    if (literal_of(m, x, v))
        return 1;
    for (int hop = 0; hop < 2 && !ts_node_is_null(x); hop++) {
        if (lf_tree_is(x, "identifier")) {
            if (lf_tree_text_eq(m->src, x, v))
                return 1;
            /* `const { updatedState } = await process(input, state)`: a part of
             * what a call given v returns */
            uint32_t a = ts_node_start_byte(x);
            const lf_tsbinding *bd = lf_tssem_binding_at(
                m, lf_tssem_scope_of(m, x), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(x) - a), a);
            if (bd && bd->member && bd->kind == LF_TSBIND_VAR && !ts_node_is_null(bd->value))
                x = lf_tssem_unwrap(bd->value);
            else
                x = lf_tssem_unwrap(lf_tssem_resolve_value(m, x));
            if (lf_tree_is(x, "identifier"))
                return 0;
            /* `const session = { id, state: input.state ?? existing?.state }` */
            if (literal_of(m, x, v))
                return 1;
        }
        if (!lf_tree_is(x, "call_expression"))
            return 0;
        size_t n = lf_tssem_nargs(x);
        for (uint32_t i = 0; i < n && i < 8; i++) {
            TSNode y = lf_tssem_unwrap(lf_tssem_arg(x, i));
            if (lf_tree_is(y, "identifier") && lf_tree_text_eq(m->src, y, v))
                return 1;
        }
        /* `jobs.map((job) => ...)`, `entries.filter(...)`: a copy of v made
         * by one of its own array methods */
        static const char *const derive[] = {"map", "filter", "concat", "slice", "flatMap", "toSorted", "toReversed",
                                             "toSpliced", "with", "sort", "reverse", NULL};
        TSNode f = lf_tree_field(x, "function");
        TSNode obj = lf_tree_is(f, "member_expression") ? lf_tssem_unwrap(lf_tree_field(f, "object")) : (TSNode){0};
        if (lf_tree_is(obj, "identifier") && lf_tree_text_eq(m->src, obj, v))
            for (size_t i = 0; derive[i]; i++)
                if (lf_tree_text_eq(m->src, lf_tree_field(f, "property"), derive[i]))
                    return 1;
        return 0;
    }
    return 0;
}

/* The setter method of class cls named `name`, or -1. */
static int32_t setter_of(lf_tssem *m, int32_t cls, TSNode prop) {
    for (int32_t s = m->classes[cls].first_method; s >= 0; s = m->scopes[s].next_method)
        if (accessor_kind(&m->scopes[s]) == 's' && lf_tree_text_eq(m->src, prop, m->scopes[s].name))
            return s;
    return -1;
}

typedef struct assign_walk {
    lf_tssem *m;
    int32_t fn, cls;
    int32_t rscope; /* the read's own body: the write must sit in it (same_body) */
    uint32_t after;
    const char *v;
    const key_vec *wr;  /* per scope */
    const key_vec *want; /* the keys read */
    TSNode found;
    const char *key;
} assign_walk;

/* `this.store = <carries v>` through a setter that writes one of the keys read. */
static lf_walk_action find_setter_write(TSNode n, void *ud) {
    assign_walk *a = ud;
    if (!ts_node_is_null(a->found))
        return LF_WALK_STOP;
    if (!lf_tree_is(n, "assignment_expression") || ts_node_start_byte(n) < a->after)
        return LF_WALK_CONTINUE;
    TSNode left = lf_tree_field(n, "left");
    if (!lf_tree_is(left, "member_expression") || !lf_tree_is(lf_tree_field(left, "object"), "this") ||
        lf_tslock_fn_of(a->m, lf_tssem_scope_of(a->m, n)) != a->fn ||
        !same_body(a->m, a->rscope, lf_tssem_scope_of(a->m, n)) || !carries(a->m, lf_tree_field(n, "right"), a->v))
        return LF_WALK_CONTINUE;
    int32_t st = setter_of(a->m, a->cls, lf_tree_field(left, "property"));
    for (size_t k = 0; st >= 0 && k < a->want->len; k++)
        if (key_in(&a->wr[st], a->want->items[k])) {
            a->found = n;
            a->key = a->want->items[k];
            return LF_WALK_STOP;
        }
    return LF_WALK_CONTINUE;
}

/* The key a function's read or write is summarised under: a method keeps
 * every key (its class's fields name the file); a module function only a
 * path that is not its own parameter (a parameter's key means nothing to a
 * caller, which names the file by its argument). */
static const char *summary_key(lf_tssem *m, int32_t fn, TSNode path) {
    const char *k = lf_tssem_path_key(m, path);
    return m->scopes[fn].cls < 0 && lf_tssem_key_param(m, k) ? NULL : k;
}

/* Does h write key k without reading it first? A writer that re-reads the
 * file and merges into it (`saveState(s)` reading the disk copy, then
 * renaming the merge over it) is a read-modify-write of its own, reported
 * in h; its callers' reads are the same root bug, not reported again. */
static int writes_fresh(const key_vec *own, const key_vec *wr, int32_t h, const char *k) {
    return key_in(&wr[h], k) && !key_in(&own[h], k);
}

/* ---- a fix through the module's own helpers ---- */

static lf104_site *declined_with(char *why) {
    lf104_site *s = lf_xcalloc(1, sizeof *s);
    s->decline = why;
    return s;
}

static int is_read_op(const char *op) {
    return op && (!strcmp(op, "readFile") || !strcmp(op, "readJson") || !strcmp(op, "readJSON"));
}

/* The path expression a read of the module names key `k` by (the first
 * argument of a readFile whose key is k, a name the reading function binds
 * followed to its value), or null. */
static TSNode key_spelling(lf_tssem *m, const char *k) {
    for (size_t i = 0; i < m->n_calls; i++) {
        if (!is_read_op(lf_tslock_fs_op(m, m->calls[i].node)))
            continue;
        TSNode a = lf_tssem_arg(m->calls[i].node, 0);
        if (lf_tssem_path_key(m, a) != k)
            continue;
        a = lf_tssem_unwrap(a);
        for (int hop = 0; hop < 4 && lf_tree_is(a, "identifier"); hop++) {
            uint32_t at = ts_node_start_byte(a);
            const lf_tsbinding *b = lf_tssem_binding_at(
                m, lf_tssem_scope_of(m, a), lf_tssem_intern(m, m->src->text + at, ts_node_end_byte(a) - at), at);
            if (!b || b->scope == 0)
                break; /* a module-level name: named as it is */
            if (b->kind != LF_TSBIND_VAR || b->member || ts_node_is_null(b->value))
                return (TSNode){0};
            a = lf_tssem_unwrap(b->value);
        }
        return a;
    }
    return (TSNode){0};
}

/* Is `at` in fn's own body or in arrows nested in it (where `this` is fn's)? */
static int this_of(lf_tssem *m, TSNode at, int32_t fn) {
    for (int32_t s = lf_tssem_scope_of(m, at); s > 0; s = m->scopes[s].parent) {
        if (s == fn)
            return 1;
        if (!lf_tree_is(m->scopes[s].node, "arrow_function"))
            return 0;
    }
    return 0;
}

/* One parameter of the reading function, replaced in the lock path by what
 * the read call passes for it. */
typedef struct key_subst {
    uint32_t start, end;
    TSNode arg;
} key_subst;

/* What the read call `call` of function t passes for t's parameter `b`: a
 * plain name, member or literal, or null. */
static TSNode passed_for(lf_tssem *m, TSNode call, int32_t t, const lf_tsbinding *b) {
    int32_t idx = (int32_t)(b - m->bindings) - m->scopes[t].first_param;
    if (idx < 0 || idx >= m->scopes[t].n_params || lf_tree_is(lf_ts_parent(b->target), "rest_pattern"))
        return (TSNode){0};
    TSNode a = lf_tssem_arg(call, (uint32_t)idx);
    for (uint32_t i = 0; i <= (uint32_t)idx; i++)
        if (lf_tree_is(lf_tssem_arg(call, i), "spread_element"))
            return (TSNode){0};
    TSNode u = lf_tssem_unwrap(a);
    if (lf_tree_is(u, "identifier") || lf_tree_is(u, "string") || lf_tree_is(u, "number") || lf_tree_is(u, "this"))
        return a;
    for (TSNode x = u; lf_tree_is(x, "member_expression"); x = lf_tree_field(x, "object"))
        if (lf_tree_is(lf_tree_field(x, "object"), "identifier") || lf_tree_is(lf_tree_field(x, "object"), "this"))
            return lf_tree_is(lf_tree_field(x, "property"), "private_property_identifier") ? (TSNode){0} : a;
    return (TSNode){0};
}

/* Does the path expression `key`, spelled in one of the module's functions,
 * name the same file at `at` (the read call, of function t) in function fn?
 * Its names must be bound the same at both places (module-level consts), or
 * be a parameter of t, replaced by what the read passes for it; `this` must be
 * the receiver of two methods of one class; the rest literals and path.join &
 * co. The path as spelled at `at` (malloc'd), or NULL. */
/* The expression a module function returns when that is all it does
 * (`function statePath(dir) { return path.join(dir, "s.json"); }`, or an
 * arrow with an expression body), else null. */
static TSNode returned_expression(lf_tssem *m, int32_t g) {
    TSNode body = lf_tree_field(m->scopes[g].node, "body");
    if (!lf_tree_is(body, "statement_block"))
        return lf_tree_is(m->scopes[g].node, "arrow_function") ? body : (TSNode){0};
    TSNode only = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode c = ts_node_named_child(body, i);
        if (lf_tree_is(c, "comment"))
            continue;
        if (!ts_node_is_null(only))
            return (TSNode){0};
        only = c;
    }
    return lf_tree_is(only, "return_statement") && ts_node_named_child_count(only) ? ts_node_named_child(only, 0)
                                                                                    : (TSNode){0};
}

/* One expression to look at: in the key's own spelling (ctx -1), or in the
 * returned expression of module function ctx, which a call of it evaluates
 * again with the same arguments. */
typedef struct key_part {
    TSNode n;
    int32_t ctx;
} key_part;

static char *key_spelled_at(lf_tssem *m, TSNode key, TSNode at, int32_t fn, int32_t t) {
    static const char *const pure[] = {"path.join", "path.resolve", "path.posix.join", "path.win32.join", "String",
                                       "path.dirname", "path.basename", "os.homedir", "os.tmpdir", NULL};
    static const char *const globals[] = {"__dirname", "__filename", NULL};
    LF_VEC(key_part) todo = {0};
    LF_VEC(key_subst) subst = {0};
    LF_VEC_PUSH(&todo, ((key_part){key, -1}));
    int ok = 1;
    for (size_t budget = 128; ok && todo.len; budget--) {
        key_part kp = todo.items[--todo.len];
        TSNode n = kp.n;
        if (!budget) {
            ok = 0;
        } else if (lf_tree_is(n, "identifier")) {
            uint32_t a = ts_node_start_byte(n);
            const char *name = lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(n) - a);
            const lf_tsbinding *b1 = lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), name, a);
            const lf_tsbinding *b2 =
                kp.ctx >= 0 ? NULL : lf_tssem_binding_at(m, lf_tssem_scope_of(m, at), name, ts_node_start_byte(at));
            if (kp.ctx >= 0) {
                /* inside a returned expression: its own parameters (given by the
                 * call, checked there) and module-level names only */
                ok = b1 && ((b1->kind == LF_TSBIND_PARAM && b1->scope == kp.ctx) || b1->scope == 0);
            } else if (b1 && b1->kind == LF_TSBIND_PARAM && t > 0 && b1->scope == t) {
                TSNode arg = passed_for(m, at, t, b1);
                ok = !ts_node_is_null(arg);
                if (ok)
                    LF_VEC_PUSH(&subst, ((key_subst){a, ts_node_end_byte(n), arg}));
            } else {
                ok = (b1 && b1 == b2) || (!b1 && !b2 && lf_str_in_list(name, globals));
            }
        } else if (lf_tree_is(n, "this")) {
            int32_t kfn = lf_tslock_fn_of(m, lf_tssem_scope_of(m, n));
            ok = kp.ctx < 0 && kfn > 0 && m->scopes[fn].cls >= 0 && m->scopes[kfn].cls == m->scopes[fn].cls &&
                 lf_tree_is(m->scopes[kfn].node, "method_definition") &&
                 lf_tree_is(m->scopes[fn].node, "method_definition") && this_of(m, n, kfn) && this_of(m, at, fn);
        } else if (lf_tree_is(n, "member_expression")) {
            LF_VEC_PUSH(&todo, ((key_part){lf_tree_field(n, "object"), kp.ctx}));
        } else if (lf_tree_is(n, "call_expression")) {
            int32_t g = lf_tssem_local_callee(m, n);
            TSNode ret = g > 0 && m->scopes[g].cls < 0 ? returned_expression(m, g) : (TSNode){0};
            ok = lf_tssem_call_is(m, n, pure) || !ts_node_is_null(ret);
            if (ok && !ts_node_is_null(ret))
                LF_VEC_PUSH(&todo, ((key_part){ret, g}));
            TSNode args = lf_tree_field(n, "arguments");
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(args); i++) {
                ok = !lf_tree_is(ts_node_named_child(args, i), "spread_element");
                LF_VEC_PUSH(&todo, ((key_part){ts_node_named_child(args, i), kp.ctx}));
            }
        } else if (lf_tree_is(n, "binary_expression")) {
            ok = lf_tree_text_eq(m->src, lf_tree_field(n, "operator"), "+");
            LF_VEC_PUSH(&todo, ((key_part){lf_tree_field(n, "left"), kp.ctx}));
            LF_VEC_PUSH(&todo, ((key_part){lf_tree_field(n, "right"), kp.ctx}));
        } else if (lf_tree_is(n, "template_string") || lf_tree_is(n, "template_substitution") ||
                   lf_tree_is(n, "parenthesized_expression") || lf_tree_is(n, "non_null_expression") ||
                   lf_tree_is(n, "as_expression")) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                LF_VEC_PUSH(&todo, ((key_part){ts_node_named_child(n, i), kp.ctx}));
        } else {
            ok = lf_tree_is(n, "string") || lf_tree_is(n, "number") || lf_tree_is(n, "string_fragment") ||
                 lf_tree_is(n, "escape_sequence") || lf_tree_is(n, "comment") || lf_tree_is(n, "type_identifier") ||
                 lf_tree_is(n, "predefined_type");
        }
    }
    char *text = NULL;
    if (ok) {
        /* the key's text with each parameter replaced, in source order */
        lf_strbuf out;
        lf_strbuf_init(&out);
        uint32_t pos = ts_node_start_byte(key), end = ts_node_end_byte(key);
        while (pos < end) {
            const key_subst *next = NULL;
            for (size_t i = 0; i < subst.len; i++)
                if (subst.items[i].start >= pos && (!next || subst.items[i].start < next->start))
                    next = &subst.items[i];
            uint32_t upto = next ? next->start : end;
            lf_strbuf_append(&out, m->src->text + pos, upto - pos);
            if (!next)
                break;
            TSNode arg = next->arg;
            lf_strbuf_append(&out, m->src->text + ts_node_start_byte(arg),
                               ts_node_end_byte(arg) - ts_node_start_byte(arg));
            pos = next->end;
        }
        text = lf_strbuf_detach(&out);
    }
    LF_VEC_FREE(&todo);
    LF_VEC_FREE(&subst);
    return text;
}

/* The site of a read-modify-write through the module's functions: the read
 * `read` (a call of a reading function), the write `write` (a call of a
 * writing function, or a setter's assignment), of document key `k` in
 * function fn; declined with the reason when the lock could not name the
 * document there, when the span calls another of the module's functions that
 * reads or writes it (lockrt's lock is not reentrant), or when fn writes it
 * again after the span. */
static lf104_site *helper_site(lf_tssem *m, const key_vec *rd, const key_vec *wr, const int32_t *callee, int32_t fn,
                               size_t read_call, TSNode write, const char *k) {
    const lf_source *src = m->src;
    TSNode read = m->calls[read_call].node;
    TSNode key = key_spelling(m, k);
    char *text = ts_node_is_null(key) ? NULL : key_spelled_at(m, key, read, fn, callee[read_call]);
    if (!text)
        return lf104_site_declined("the document's path is spelled in the function that reads it by an expression "
                                   "this function cannot evaluate again to the same value (names it does not see "
                                   "bound the same way, or a call that may do more than compute a path): the lock "
                                   "cannot name it here");
    lf104_site *site = NULL;
    uint32_t from = ts_node_start_byte(read), to = ts_node_end_byte(write);
    for (int32_t c = m->scopes[fn].first_call; !site && c >= 0; c = m->calls[c].next_in_fn) {
        TSNode call = m->calls[c].node;
        int32_t h = callee[c];
        if (h < 0 || (size_t)c == read_call || ts_node_eq(call, write) || ts_node_start_byte(call) < from)
            continue;
        if (ts_node_start_byte(call) < to && (key_in(&rd[h], k) || (key_in(&wr[h], k) && !ts_node_eq(call, write))))
            site = declined_with(lf_xasprintf("the read-modify-write also calls %s() (line %u), which reads or writes "
                                           "the same document: lockrt's lock is not reentrant, and a lock taken "
                                           "there too would wait for this one until the timeout",
                                           m->scopes[h].name, lf_py_line(src, call)));
        else if (ts_node_start_byte(call) >= to && key_in(&wr[h], k))
            site = declined_with(lf_xasprintf("the document is written again at line %u (%s()), after the "
                                           "read-modify-write the lock would cover: that write would run unlocked "
                                           "from the same stale read",
                                           lf_py_line(src, call), m->scopes[h].name));
    }
    if (!site)
        site = lf104_ts_site_through_helpers(m, read, write, key);
    uint32_t klen = ts_node_end_byte(key) - ts_node_start_byte(key);
    if (!site->decline && (strlen(text) != klen || memcmp(text, m->src->text + ts_node_start_byte(key), klen)))
        site->path_text = text; /* the reading function's parameters, replaced */
    else
        free(text);
    return site;
}

static void method_rmw(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l) {
    const lf_source *src = m->src;
    size_t ns = m->n_scopes;
    key_vec *rd = lf_xcalloc(ns, sizeof *rd), *wr = lf_xcalloc(ns, sizeof *wr);
    int32_t *callee = lf_xmalloc((m->n_calls + 1) * sizeof *callee);
    signed char *parses = lf_xcalloc(ns, 1); /* parses_json per scope: 0 unknown, 1, -1 */
    int any = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        int32_t fn = lf_tslock_fn_of(m, c->scope);
        callee[i] = -1;
        if (fn <= 0)
            continue;
        /* a method calls its class's methods; a module function the module's
         * functions (shipyard's `readState()` ... `writeState(state)`) */
        int32_t t = lf_tssem_local_callee(m, c->node);
        if (t > 0 && t != fn && m->scopes[t].cls == m->scopes[fn].cls)
            callee[i] = t;
        const char *op = lf_tslock_fs_op(m, c->node);
        if (op && (!strcmp(op, "readFile") || !strcmp(op, "readJson") || !strcmp(op, "readJSON")))
            any |= key_add_to(&rd[fn], summary_key(m, fn, lf_tssem_arg(c->node, 0)));
        TSNode w = written_path(m, c->node);
        if (!ts_node_is_null(w))
            any |= key_add_to(&wr[fn], summary_key(m, fn, w));
    }
    /* what each function reads in its own body, before the calls add theirs */
    key_vec *own = lf_xcalloc(ns, sizeof *own);
    for (size_t i = 0; any && i < ns; i++)
        for (size_t k = 0; k < rd[i].len; k++)
            key_add_to(&own[i], rd[i].items[k]);
    /* what a method's calls of the class's methods read and write, a few levels deep */
    for (int round = 0; any && round < 4; round++) {
        int changed = 0;
        for (size_t i = 0; i < m->n_calls; i++) {
            if (callee[i] < 0)
                continue;
            int32_t fn = lf_tslock_fn_of(m, m->calls[i].scope), t = callee[i];
            for (size_t k = 0; k < rd[t].len; k++)
                changed |= key_add_to(&rd[fn], rd[t].items[k]);
            for (size_t k = 0; k < wr[t].len; k++)
                changed |= key_add_to(&wr[fn], wr[t].items[k]);
        }
        if (!changed)
            break;
    }
    for (size_t i = 0; any && i < m->n_calls; i++) {
        int32_t t = callee[i];
        if (t < 0 || !rd[t].len)
            continue;
        /* a module function's read counts when it parses what it read (a
         * raw copy is no document); a class's reader keeps its old reach */
        if (m->scopes[t].cls < 0) {
            if (parses[t] == 0)
                parses[t] = parses_json(m, t) ? 1 : -1;
            if (parses[t] < 0)
                continue;
        }
        int32_t fn = lf_tslock_fn_of(m, m->calls[i].scope);
        const char *key = NULL;
        TSNode wnode = {0};
        /* handed straight to a writer: `this.#record(k, v, this.#readStore())` */
        TSNode up = lf_ts_parent(m->calls[i].node);
        while (lf_tree_is(up, "await_expression") || lf_tree_is(up, "parenthesized_expression"))
            up = lf_ts_parent(up);
        if (lf_tree_is(up, "arguments")) {
            TSNode outer = lf_ts_parent(up);
            int32_t h = lf_tree_is(outer, "call_expression") ? lf_tssem_local_callee(m, outer) : -1;
            for (size_t k = 0; h > 0 && h != fn && k < rd[t].len && !key; k++)
                if (writes_fresh(own, wr, h, rd[t].items[k])) {
                    key = rd[t].items[k];
                    wnode = outer;
                }
        }
        const char *v = key ? NULL : kept_in(m, m->calls[i].node);
        if (!key && !v)
            continue;
        for (size_t j = i + 1; j < m->n_calls && !key; j++) {
            int32_t h = callee[j];
            if (h < 0 || lf_tslock_fn_of(m, m->calls[j].scope) != fn ||
                !same_body(m, m->calls[i].scope, m->calls[j].scope))
                continue;
            size_t n = lf_tssem_nargs(m->calls[j].node);
            int given = 0;
            for (uint32_t a = 0; a < n && a < 8 && !given; a++)
                given = carries(m, lf_tssem_arg(m->calls[j].node, a), v);
            for (size_t k = 0; given && k < rd[t].len && !key; k++)
                if (writes_fresh(own, wr, h, rd[t].items[k])) {
                    key = rd[t].items[k];
                    wnode = m->calls[j].node;
                }
        }
        if (!key && m->scopes[fn].cls >= 0) { /* or assigned to a setter that writes it */
            assign_walk aw;
            memset(&aw, 0, sizeof aw);
            aw.m = m;
            aw.fn = fn;
            aw.rscope = m->calls[i].scope;
            aw.cls = m->scopes[fn].cls;
            aw.after = ts_node_end_byte(m->calls[i].node);
            aw.v = v;
            aw.wr = wr;
            aw.want = &rd[t];
            lf_tree_walk(m->scopes[fn].node, find_setter_write, &aw);
            key = aw.key;
            wnode = aw.found;
        }
        if (!key)
            continue;
        if (!*l)
            *l = lf_tslock_build(m);
        if (lf_ts_lock_held(m, *l, m->calls[i].node))
            continue;
        char *r = lf_py_short(src, m->calls[i].node), *w = lf_py_short(src, wnode);
        char *msg = lf_xasprintf("%s reads a file the %s writes back at line %u (%s) with no lock held: "
                                 "concurrent processes overwrite each other's updates",
                                 r, m->scopes[fn].cls >= 0 ? "class" : "module", lf_py_line(src, wnode), w);
        lf_ctx_emit_site(ctx, m->calls[i].node, msg, helper_site(m, rd, wr, callee, fn, i, wnode, key),
                         lf104_site_free);
        lf_ctx_witness(ctx, lf_wit_read_write(src, m->calls[i].node, wnode, (TSNode){0}));
        free(msg);
        free(r);
        free(w);
    }
    for (size_t i = 0; i < ns; i++) {
        LF_VEC_FREE(&rd[i]);
        LF_VEC_FREE(&wr[i]);
        LF_VEC_FREE(&own[i]);
    }
    free(own);
    free(rd);
    free(wr);
    free(callee);
    free(parses);
}

/* ---- imported load/save helper pairs ---- */

/* Words that say a helper's stem is state the running processes keep
 * (`loadSessionIndex` has "index"), matched per camelCase word. Not
 * configuration (`loadConfig`/`saveConfig`, settings) nor a manifest (a
 * package's, an install's `.modules.yaml`): a command the user runs writes
 * those, not hooks or servers running side by side. */
static const char *const k_doc_words[] = {"state", "json", "data", "registry", "counter", "count", "session",
                                          "sessions", "cache", "db", "store", "index", "meta", "metadata",
                                          "history", "ledger", "queue", NULL};

static int stem_names_document(const char *stem) {
    const char *w = stem;
    while (*w) {
        const char *e = w + 1;
        while (*e && !(*e >= 'A' && *e <= 'Z'))
            e++;
        size_t n = (size_t)(e - w);
        for (size_t i = 0; k_doc_words[i]; i++)
            if (strlen(k_doc_words[i]) == n && !strncasecmp(w, k_doc_words[i], n))
                return 1;
        w = e;
    }
    return 0;
}

/* ---- the gate: could this text hold a read and a write the check pairs? ----
 *
 * Every read the check pairs is fs's readFile/readJson/readJSON (any module
 * lf_tslock_fs_op reads as fs, Sync or not), Bun.file (and Bun.write is a
 * write: both spell the name Bun) or an imported load/read helper
 * whose stem names a document (named_helper); every write is fs's
 * writeFile/writeJson/writeJSON/outputFile/outputJson, a rename or move, an
 * atomic writer or mover library, or an imported save/write/store helper of
 * such a stem. The module's own helpers and accessors read and write through
 * those same calls. Each of them spells its name in the text: the callee's
 * last name (`fs.writeFileSync`, `{ writeFileSync: w }`, `s['loadState']`)
 * or the library's module string. So a text with no spelling of a read, or
 * none of a write, holds no finding. The prefilter's words (`load`, `write`,
 * `fs`) also pass every loader, shader and stream of a bundle. Comments and
 * strings are not blanked: a spelling there only lets a file through. */
/* May identifier run s name a helper as named_helper reads it: one of the
 * prefixes, an upper-case letter, a stem that names a document? The name may
 * start at the run's start or after a non-ASCII byte (a space to JS), and a
 * non-ASCII byte in its stem makes it "may be". */
static int run_is_named_helper(const char *s, size_t n, const char *const *prefixes) {
    for (size_t at = 0; at < n; at++) {
        if (at > 0 && (unsigned char)s[at - 1] < 0x80)
            continue;
        for (size_t i = 0; prefixes[i]; i++) {
            size_t p = strlen(prefixes[i]);
            if (n - at <= p || memcmp(s + at, prefixes[i], p) != 0 || !(s[at + p] >= 'A' && s[at + p] <= 'Z'))
                continue;
            char stem[128];
            size_t len = n - at - p;
            if (len >= sizeof stem)
                return 1;
            for (size_t k = at + p; k < n; k++)
                if ((unsigned char)s[k] >= 0x80)
                    return 1;
            memcpy(stem, s + at + p, len);
            stem[len] = '\0';
            if (stem_names_document(stem))
                return 1;
        }
    }
    return 0;
}

typedef struct gate_seen {
    int reads, writes;
} gate_seen;

static int gate_on_name(const char *s, size_t n, void *ud) {
    static const char *const read_ops[] = {"readFile", "readJson", "readJSON", NULL};
    static const char *const write_ops[] = {"writeFile", "writeJson", "writeJSON", "outputFile",
                                            "outputJson", "moveFile",  "atomically", NULL};
    static const char *const moves[] = {"rename", "renameSync", "move", "moveSync", NULL};
    static const char *const rd[] = {"load", "read", NULL}, *const wr[] = {"save", "write", "store", NULL};
    gate_seen *g = ud;
    /* Bun's file API: `Bun.file(p)` reads, `Bun.write(p, v)` writes; both spell Bun */
    if (n == 3 && !memcmp(s, "Bun", 3)) {
        g->reads = g->writes = 1;
        return 1;
    }
    if (n < 4)
        return 0;
    g->reads = g->reads || lf_tsgate_has_any(s, n, read_ops) || run_is_named_helper(s, n, rd);
    g->writes = g->writes || lf_tsgate_has_any(s, n, write_ops) || lf_tsgate_run_is_any(s, n, moves) ||
                run_is_named_helper(s, n, wr);
    return g->reads && g->writes;
}

int lf104_ts_gate(const char *text, size_t len) {
    static const char *const modules[] = {"write-file-atomic", "move-file", NULL};
    gate_seen g = {0, lf_tsgate_has_any(text, len, modules)};
    return lf_tsgate_each_name(text, len, gate_on_name, &g);
}

/* An imported helper's module and stem: callee "./lib/state.loadMeta" ->
 * origin "./lib/state", stem "Meta" for a reader (load/read) or a writer
 * (save/write/store). Returns 0 when the call is none of those. */
static int named_helper(lf_tssem *m, TSNode call, int write, const char **origin, const char **stem) {
    static const char *const rd[] = {"load", "read", NULL}, *const wr[] = {"save", "write", "store", NULL};
    if (lf_tssem_local_callee(m, call) > 0)
        return 0;
    const char *q = lf_tssem_callee(m, call);
    const char *dot = q ? strrchr(q, '.') : NULL;
    if (!dot || dot == q || strchr(dot, '/'))
        return 0;
    const char *name = dot + 1;
    for (const char *const *p = write ? wr : rd; *p; p++) {
        size_t n = strlen(*p);
        if (strncmp(name, *p, n) != 0 || !(name[n] >= 'A' && name[n] <= 'Z') || !stem_names_document(name + n))
            continue;
        *origin = lf_tssem_intern(m, q, (size_t)(dot - q));
        *stem = lf_tssem_intern(m, name + n, strlen(name + n));
        return 1;
    }
    return 0;
}

/* Can control go from the statement holding `from` to the one holding `to`
 * in function node fn (a later statement, a loop's next turn)? A read in one
 * `case` and a write in a sibling case that does not fall into it are not
 * one update. Iterative, linear in the graph. */
static int reaches_in(const lf_cfg *g, TSNode fn, TSNode from, TSNode to) {
    int nested = 0;
    int32_t a = lf_tscfg_node_of(g, fn, from, &nested), b = lf_tscfg_node_of(g, fn, to, &nested);
    return a < 0 || b < 0 /* outside the graph: no evidence against */ ||
           (a == b && ts_node_start_byte(from) < ts_node_start_byte(to)) || lf_cfg_reaches(g, (uint32_t)a, (uint32_t)b);
}

static int reaches(const lf_source *src, TSNode fn, TSNode from, TSNode to) {
    lf_cfg *g = lf_tscfg_build(src, fn);
    int found = reaches_in(g, fn, from, to);
    lf_cfg_free(g);
    return found;
}

typedef struct mention_walk {
    const lf_source *src;
    const char *v;
    TSNode skip; /* the write call: its own mention is the write, not a change */
    uint32_t from, to;
    int found;
} mention_walk;

static lf_walk_action visit_mention(TSNode n, void *ud) {
    mention_walk *w = ud;
    if (ts_node_end_byte(n) <= w->from || ts_node_start_byte(n) >= w->to || ts_node_eq(n, w->skip))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "identifier") && ts_node_start_byte(n) >= w->from && lf_tree_text_eq(w->src, n, w->v)) {
        w->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* `const index = loadIndex()` ... `index.x = ..` ... `saveIndex(index)`: both
 * helpers imported from one module, with one stem that names a document
 * (Index, SessionMeta, State), the writer given the reader's arguments and
 * then what it read (or a literal or call made from it), the kept value used
 * in between, the write reachable from the read, in the read's own body or a
 * callback nested in it, with no lock in play. The helpers name the file
 * themselves, so their pair is the document. Reported at the read. */
/* Does one of the call's first n arguments mention a parameter of its function? */
static int args_name_param(lf_tssem *m, TSNode call, size_t n) {
    for (uint32_t a = 0; a < n; a++) {
        TSNode arg = lf_tssem_arg(call, a);
        if (lf_tree_is(arg, "string") || lf_tree_is(arg, "template_string"))
            continue;
        TSNode v = lf_tssem_resolve_value(m, arg);
        if (lf_tree_is(v, "string"))
            continue;
        return 1; /* a parameter, or anything the check does not follow */
    }
    return 0;
}

static void named_pair_rmw(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l) {
    const lf_source *src = m->src;
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *rc = &m->calls[i];
        const char *origin = NULL, *stem = NULL;
        if (!named_helper(m, rc->node, 0, &origin, &stem))
            continue;
        const char *v = kept_in(m, rc->node);
        int32_t fn = lf_tslock_fn_of(m, rc->scope);
        if (!v || fn < 0)
            continue;
        size_t na = lf_tssem_nargs(rc->node);
        TSNode write = {0};
        for (size_t j = i + 1; j < m->n_calls && ts_node_is_null(write); j++) {
            const lf_tscall *wc = &m->calls[j];
            const char *wo = NULL, *ws = NULL;
            if (lf_tslock_fn_of(m, wc->scope) != fn || !same_body(m, rc->scope, wc->scope) ||
                ts_node_start_byte(wc->node) <= ts_node_end_byte(rc->node) ||
                !named_helper(m, wc->node, 1, &wo, &ws) || wo != origin || ws != stem ||
                lf_tssem_nargs(wc->node) != na + 1)
                continue;
            /* What is written carries the read, or, for a document the module
             * names itself (no parameter among the reader's arguments: a
             * caller's path may be one session's own), a count computed
             * from it. */
            TSNode data = lf_tssem_arg(wc->node, (uint32_t)na);
            if (!carries(m, data, v) &&
                !(!args_name_param(m, rc->node, na) && literal_derived_of(m, lf_tssem_unwrap(data), v)))
                continue;
            int same = 1;
            for (uint32_t a = 0; a < na && same; a++)
                same = lf_tssem_path_key(m, lf_tssem_arg(rc->node, a)) == lf_tssem_path_key(m, lf_tssem_arg(wc->node, a));
            if (same)
                write = wc->node;
        }
        if (ts_node_is_null(write))
            continue;
        mention_walk mw = {src, v, write, ts_node_end_byte(rc->node), ts_node_start_byte(write), 0};
        lf_tree_walk(m->scopes[rc->scope].node, visit_mention, &mw);
        if (!mw.found || !reaches(src, m->scopes[rc->scope].node, rc->node, write))
            continue;
        if (!*l)
            *l = lf_tslock_build(m);
        if (lf_ts_lock_held(m, *l, rc->node))
            continue;
        char *r = lf_py_short(src, rc->node), *w = lf_py_short(src, write);
        char *msg = lf_xasprintf("%s reads the %s document of %s, and %s (line %u) writes it back with no lock held: "
                                 "concurrent processes overwrite each other's updates",
                                 r, stem, origin, w, lf_py_line(src, write));
        char *why = lf_xasprintf("the document is read through %s, a helper of %s that names its file itself: where "
                                 "its lock file belongs is for the code's owner",
                                 r, origin);
        lf_ctx_emit_site(ctx, rc->node, msg, lf104_site_declined(why), lf104_site_free);
        lf_ctx_witness(ctx, lf_wit_read_write(src, rc->node, write, (TSNode){0}));
        free(why);
        free(msg);
        free(r);
        free(w);
    }
}

/* ---- a ledger rewritten whole while others append ---- */

/* The variable a read's text is kept in, through the string methods that
 * keep it whole or in pieces: `const raw = readFileSync(p, "utf8")`,
 * `const lines = (await readFile(p, "utf8")).split("\n").filter(..)`. */
static const char *text_kept_in(lf_tssem *m, TSNode call) {
    TSNode cur = call;
    for (int hop = 0; hop < 8; hop++) {
        TSNode p = lf_ts_parent(cur);
        if (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression") ||
            lf_tree_is(p, "as_expression")) {
            cur = p;
            continue;
        }
        if (lf_tree_is(p, "member_expression") && ts_node_eq(lf_tree_field(p, "object"), cur)) {
            TSNode c = lf_ts_parent(p);
            if (!lf_tree_is(c, "call_expression") || !ts_node_eq(lf_tree_field(c, "function"), p))
                return NULL;
            cur = c;
            continue;
        }
        break;
    }
    return kept_in(m, cur);
}

typedef LF_VEC(const char *) name_set;

static int name_in(const name_set *v, const lf_source *src, TSNode id) {
    for (size_t i = 0; i < v->len; i++)
        if (lf_tree_text_eq(src, id, v->items[i]))
            return 1;
    return 0;
}

typedef struct derive_walk {
    lf_tssem *m;
    name_set names; /* the read's variable and the names made from it */
    uint32_t from, to;
    int hit; /* mentions: found a tracked name */
} derive_walk;

static lf_walk_action visit_tracked(TSNode n, void *ud) {
    derive_walk *w = ud;
    if (lf_tree_is(n, "identifier") && name_in(&w->names, w->m->src, n)) {
        w->hit = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int mentions_tracked(derive_walk *w, TSNode n) {
    if (ts_node_is_null(n))
        return 0;
    int saved = w->hit;
    w->hit = 0;
    lf_tree_walk(n, visit_tracked, w);
    int r = w->hit;
    w->hit = saved;
    return r;
}

static void track(derive_walk *w, TSNode id) {
    id = lf_tssem_unwrap(id);
    if (lf_tree_is(id, "identifier") && !name_in(&w->names, w->m->src, id) && w->names.len < 64)
        LF_VEC_PUSH(&w->names, lf_tssem_intern(w->m, w->m->src->text + ts_node_start_byte(id),
                                               ts_node_end_byte(id) - ts_node_start_byte(id)));
}

/* Names made from the read, in source order between the read and the write:
 * `const lines = raw.split(..)`, `x = f(lines)`, `for (const line of lines)`,
 * `kept.push(line)` (the array now holds read lines). */
static lf_walk_action visit_derive(TSNode n, void *ud) {
    derive_walk *w = ud;
    if (ts_node_end_byte(n) <= w->from || ts_node_start_byte(n) >= w->to)
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "variable_declarator") && mentions_tracked(w, lf_tree_field(n, "value")))
        track(w, lf_tree_field(n, "name"));
    else if (lf_tree_is(n, "assignment_expression") && mentions_tracked(w, lf_tree_field(n, "right")))
        track(w, lf_tree_field(n, "left"));
    else if (lf_tree_is(n, "for_in_statement") && mentions_tracked(w, lf_tree_field(n, "right")))
        track(w, lf_tree_field(n, "left"));
    else if (lf_tree_is(n, "call_expression")) {
        TSNode f = lf_tree_field(n, "function");
        if (lf_tree_is(f, "member_expression") && mentions_tracked(w, lf_tree_field(n, "arguments"))) {
            TSNode prop = lf_tree_field(f, "property");
            if (lf_tree_text_eq(w->m->src, prop, "push") || lf_tree_text_eq(w->m->src, prop, "unshift") ||
                lf_tree_text_eq(w->m->src, prop, "set") || lf_tree_text_eq(w->m->src, prop, "add"))
                track(w, lf_tree_field(f, "object"));
        }
    }
    return LF_WALK_CONTINUE;
}

/* ---- state helpers that name the file from their arguments ---- */

/* `readState(dir, key)` / `writeState(dir, key, value)`, each spelling the
 * file `join(dir, key)` from its own parameters: a caller that reads through
 * one and writes back through the other with the same arguments updates one
 * document. A helper's path is summarised as a template: the path's text with
 * each of the helper's parameters replaced by `$<index>` (a local name bound
 * once is followed to its value first); a helper that hands its parameters
 * on to another (`writeJsonState(d, k, v)` -> `writeState(d, k,
 * JSON.stringify(v))`) takes that one's template with the arguments put in. */

typedef struct path_template {
    char *text;   /* malloc'd; NULL: none */
    int read;     /* a read helper (else a write helper) */
} path_template;

/* The index of the parameter of function fn that identifier id names, or -1. */
static int param_index(lf_tssem *m, int32_t fn, TSNode id) {
    uint32_t a = ts_node_start_byte(id);
    const lf_tsbinding *b =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, id), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(id) - a), a);
    int j = lf_tssem_param_index(m, fn, b);
    return j < 10 ? j : -1;
}

/* The template of path expression `path` in function fn, or NULL: every
 * identifier in it is one of fn's parameters or a module-level name (a
 * local bound elsewhere in fn makes the path something a caller cannot
 * name), and at least one parameter is used. */
static char *template_of(lf_tssem *m, int32_t fn, TSNode path) {
    TSNode x = lf_tssem_unwrap(path);
    if (lf_tree_is(x, "identifier") && param_index(m, fn, x) < 0)
        x = lf_tssem_unwrap(lf_tssem_resolve_value(m, x)); /* `const file = join(dir, key)` */
    LF_VEC(TSNode) todo = {0}, ids = {0};
    LF_VEC_PUSH(&todo, x);
    int ok = 1;
    for (size_t budget = 128; ok && todo.len; budget--) {
        TSNode n = todo.items[--todo.len];
        if (ts_node_is_null(n) || !budget) {
            ok = 0; /* out of budget, or a member with no object (text the grammar recovered from) */
        } else if (lf_tree_is(n, "identifier")) {
            if (param_index(m, fn, n) >= 0) {
                LF_VEC_PUSH(&ids, n);
            } else {
                uint32_t a = ts_node_start_byte(n);
                const lf_tsbinding *b = lf_tssem_binding_at(
                    m, lf_tssem_scope_of(m, n), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(n) - a), a);
                ok = !b || b->scope == 0;
            }
        } else if (lf_tree_is(n, "member_expression")) {
            LF_VEC_PUSH(&todo, lf_tree_field(n, "object")); /* `path.join`: its property is no name */
        } else {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                LF_VEC_PUSH(&todo, ts_node_named_child(n, i));
        }
    }
    char *out = NULL;
    if (ok && ids.len) {
        /* the text with each parameter replaced, in source order */
        for (size_t i = 1; i < ids.len; i++)
            for (size_t j = i; j > 0 && ts_node_start_byte(ids.items[j]) < ts_node_start_byte(ids.items[j - 1]); j--) {
                TSNode t = ids.items[j];
                ids.items[j] = ids.items[j - 1];
                ids.items[j - 1] = t;
            }
        lf_strbuf sb;
        lf_strbuf_init(&sb);
        uint32_t at = ts_node_start_byte(x);
        for (size_t i = 0; i < ids.len; i++) {
            lf_strbuf_append(&sb, m->src->text + at, ts_node_start_byte(ids.items[i]) - at);
            lf_strbuf_printf(&sb, "$%d", param_index(m, fn, ids.items[i]));
            at = ts_node_end_byte(ids.items[i]);
        }
        lf_strbuf_append(&sb, m->src->text + at, ts_node_end_byte(x) - at);
        out = lf_strbuf_detach(&sb);
    }
    LF_VEC_FREE(&todo);
    LF_VEC_FREE(&ids);
    return out;
}

/* Template `t` with each `$i` replaced by the text of args[i] (NULL when
 * an index has no argument, or the argument is more than a name or literal). */
static char *instantiate(lf_tssem *m, const char *t, TSNode call, int32_t fn_of_args) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (const char *c = t; *c; c++) {
        if (*c != '$' || c[1] < '0' || c[1] > '9') {
            lf_strbuf_append(&sb, c, 1);
            continue;
        }
        TSNode a = lf_tssem_unwrap(lf_tssem_arg(call, (uint32_t)(c[1] - '0')));
        c++;
        if (fn_of_args >= 0 && lf_tree_is(a, "identifier") && param_index(m, fn_of_args, a) >= 0) {
            lf_strbuf_printf(&sb, "$%d", param_index(m, fn_of_args, a)); /* handed on: still a parameter */
        } else if (lf_tree_is(a, "identifier") || lf_tree_is(a, "string") || lf_tree_is(a, "number") ||
                   lf_tree_is(a, "member_expression")) {
            lf_strbuf_append(&sb, m->src->text + ts_node_start_byte(a), ts_node_end_byte(a) - ts_node_start_byte(a));
        } else {
            lf_strbuf_free(&sb);
            return NULL;
        }
    }
    return lf_strbuf_detach(&sb);
}

static int nested_function(TSNode n) {
    return lf_tree_is(n, "function_declaration") || lf_tree_is(n, "function_expression") ||
           lf_tree_is(n, "arrow_function") || lf_tree_is(n, "method_definition") || lf_tree_is(n, "function");
}

/* Does function fn return the value of `call` (in the return statement
 * itself, or kept in a name its return statement mentions)? */
static int returns_value_of(lf_tssem *m, int32_t fn, TSNode call) {
    for (TSNode p = lf_ts_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, m->scopes[fn].node); p = lf_ts_parent(p))
        if (lf_tree_is(p, "return_statement"))
            return 1;
    const char *v = kept_in(m, call);
    if (!v)
        return 0;
    derive_walk dw;
    memset(&dw, 0, sizeof dw);
    dw.m = m;
    LF_VEC_PUSH(&dw.names, v);
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, m->scopes[fn].node);
    int found = 0;
    for (size_t budget = 4096; !found && todo.len && budget; budget--) {
        TSNode n = todo.items[--todo.len];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "return_statement") && ts_node_start_byte(n) > ts_node_end_byte(call))
            found = mentions_tracked(&dw, n);
        else if (ts_node_eq(n, m->scopes[fn].node) || !nested_function(n))
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                LF_VEC_PUSH(&todo, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&todo);
    LF_VEC_FREE(&dw.names);
    return found;
}

/* The path template of each module function that reads (and returns) or
 * writes a file named from its parameters, directly or by handing them on
 * to one that does (a few levels). */
static path_template *helper_templates(lf_tssem *m) {
    path_template *t = lf_xcalloc(m->n_scopes + 1, sizeof *t);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        int32_t fn = lf_tslock_fn_of(m, c->scope);
        if (fn <= 0 || m->scopes[fn].cls >= 0 || t[fn].text || m->scopes[fn].n_params == 0)
            continue;
        const char *op = lf_tslock_fs_op(m, c->node);
        TSNode w = written_path(m, c->node);
        if (op && !strcmp(op, "readFile")) {
            t[fn].text = template_of(m, fn, lf_tssem_arg(c->node, 0));
            t[fn].read = 1;
        } else if (!ts_node_is_null(w)) {
            t[fn].text = template_of(m, fn, w);
        }
    }
    for (int round = 0; round < 3; round++) {
        int changed = 0;
        for (size_t i = 0; i < m->n_calls; i++) {
            const lf_tscall *c = &m->calls[i];
            int32_t fn = lf_tslock_fn_of(m, c->scope), h = lf_tssem_local_callee(m, c->node);
            if (fn <= 0 || h <= 0 || h == fn || t[fn].text || !t[h].text || m->scopes[fn].cls >= 0)
                continue;
            if (t[h].read && !returns_value_of(m, fn, c->node))
                continue; /* reads through a reader, and keeps what it read to itself */
            char *inst = instantiate(m, t[h].text, c->node, fn);
            if (inst && strchr(inst, '$')) {
                t[fn].text = inst;
                t[fn].read = t[h].read;
                changed = 1;
            } else {
                free(inst);
            }
        }
        if (!changed)
            break;
    }
    return t;
}

/* Is the call's value parsed where it is used: `parseInt(readState(d, k) ||
 * "0", 10)`, `Number(...)`, `JSON.parse(...)`, or read by a helper that
 * parses it itself? Then the name it is kept in holds the document's data. */
static TSNode parsed_use(lf_tssem *m, TSNode call, int helper_parses) {
    TSNode cur = call;
    for (int hop = 0; hop < 6; hop++) {
        TSNode p = lf_ts_parent(cur);
        if (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression") ||
            (lf_tree_is(p, "binary_expression") && ts_node_eq(lf_tree_field(p, "left"), cur) &&
             (lf_tree_text_eq(m->src, lf_tree_field(p, "operator"), "||") ||
              lf_tree_text_eq(m->src, lf_tree_field(p, "operator"), "??")))) {
            cur = p;
            continue;
        }
        if (lf_tree_is(p, "arguments")) {
            TSNode outer = lf_ts_parent(p);
            const char *q = lf_tree_is(outer, "call_expression") ? lf_tssem_callee(m, outer) : NULL;
            if (q && (!strcmp(q, "parseInt") || !strcmp(q, "parseFloat") || !strcmp(q, "Number") ||
                      !strcmp(q, "JSON.parse") || !strcmp(q, "Number.parseInt") || !strcmp(q, "Number.parseFloat")) &&
                ts_node_eq(lf_tssem_unwrap(lf_tssem_arg(outer, 0)), lf_tssem_unwrap(cur))) {
                cur = outer;
                helper_parses = 1;
                /* `parseInt(...) || 0` */
                TSNode up = lf_ts_parent(cur);
                if (lf_tree_is(up, "binary_expression") && ts_node_eq(lf_tree_field(up, "left"), cur))
                    cur = up;
                continue;
            }
        }
        break;
    }
    return helper_parses ? cur : (TSNode){0};
}

/* Does writer w read its own document first (a readFile of the path it
 * writes, or a call of one of the module's readers of it)? Then what it
 * writes comes from its own read, not from what its caller read: a caller's
 * read and this call are no read-modify-write (w's own one is reported where
 * it is, if no lock is held). */
static int rereads(lf_tssem *m, const path_template *t, int32_t w) {
    for (int32_t i = m->scopes[w].first_call; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node;
        const char *op = lf_tslock_fs_op(m, c);
        char *txt = NULL;
        if (op && !strcmp(op, "readFile")) {
            txt = template_of(m, w, lf_tssem_arg(c, 0));
        } else {
            int32_t h = lf_tssem_local_callee(m, c);
            if (h > 0 && h != w && t[h].text && t[h].read)
                txt = instantiate(m, t[h].text, c, w);
        }
        int same = txt && !strcmp(txt, t[w].text);
        free(txt);
        if (same)
            return 1;
    }
    return 0;
}

static void param_helper_rmw(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l) {
    const lf_source *src = m->src;
    path_template *t = NULL;
    for (size_t i = 0; i < m->n_calls; i++) {
        int32_t r = lf_tssem_local_callee(m, m->calls[i].node);
        if (r <= 0)
            continue;
        if (!t)
            t = helper_templates(m);
        int32_t fn = lf_tslock_fn_of(m, m->calls[i].scope);
        if (!t[r].text || !t[r].read || fn <= 0 || fn == r)
            continue;
        TSNode kept = parsed_use(m, m->calls[i].node, parses_json(m, r));
        const char *v = ts_node_is_null(kept) ? NULL : kept_in(m, kept);
        if (!v)
            continue;
        char *doc = instantiate(m, t[r].text, m->calls[i].node, -1);
        if (!doc)
            continue;
        derive_walk dw;
        memset(&dw, 0, sizeof dw);
        dw.m = m;
        LF_VEC_PUSH(&dw.names, v);
        dw.from = ts_node_end_byte(m->calls[i].node);
        dw.to = ts_node_end_byte(m->scopes[fn].node);
        lf_tree_walk(m->scopes[fn].node, visit_derive, &dw);
        TSNode write = {0};
        for (int32_t j = m->calls[i].next_in_fn; j >= 0 && ts_node_is_null(write); j = m->calls[j].next_in_fn) {
            TSNode wc = m->calls[j].node;
            int32_t w = lf_tssem_local_callee(m, wc);
            if (w <= 0 || !t[w].text || t[w].read || !same_body(m, m->calls[i].scope, m->calls[j].scope) ||
                rereads(m, t, w) || !reaches(src, m->scopes[fn].node, m->calls[i].node, wc))
                continue;
            char *wdoc = instantiate(m, t[w].text, wc, -1);
            int given = 0;
            for (uint32_t a = 0; a < lf_tssem_nargs(wc) && a < 8 && !given; a++)
                given = mentions_tracked(&dw, lf_tssem_arg(wc, a));
            if (wdoc && given && !strcmp(wdoc, doc))
                write = wc;
            free(wdoc);
        }
        LF_VEC_FREE(&dw.names);
        free(doc);
        if (ts_node_is_null(write))
            continue;
        TSNode key = lf_tssem_arg(m->calls[i].node, 0);
        if (not_a_document(m, l, key))
            continue;
        if (!*l)
            *l = lf_tslock_build(m);
        if (lf_ts_lock_held(m, *l, m->calls[i].node))
            continue;
        TSNode call = m->calls[i].node;
        char *rd = lf_py_short(src, call), *wr = lf_py_short(src, write);
        char *msg = lf_xasprintf("%s reads a file the module's helpers name from these arguments, and line %u (%s) "
                                 "writes it back from what was read, with no lock held: concurrent processes "
                                 "overwrite each other's updates",
                                 rd, lf_py_line(src, write), wr);
        lf_ctx_emit_site(ctx, call, msg,
                         lf104_site_declined("the document's path is made by the module's helpers from their "
                                             "arguments: where its lock file belongs is for the code's owner"),
                         lf104_site_free);
        lf_ctx_witness(ctx, lf_wit_read_write(src, call, write, (TSNode){0}));
        free(msg);
        free(rd);
        free(wr);
    }
    for (size_t i = 0; t && i <= m->n_scopes; i++)
        free(t[i].text);
    free(t);
}

/* Does another function of the module append to the file at `key`
 * (appendFile, a write or stream opened with an append flag: lf_tslock's
 * events)? Then other runs add to it while this one rewrites it: a ledger, a
 * log, a history. An append in the rewriting function itself is the same
 * run's own addition (a setup step that cleans a file, then appends to it). */
static int appended_elsewhere(lf_tslock *l, TSNode key, int32_t fn) {
    int32_t k = lf_tslock_key_index(l, key);
    if (k < 0 || !(l->keys[k].flags & LF_TSLOCK_APPENDED))
        return 0;
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_APPEND && l->events[i].key == k && l->events[i].fn != fn)
            return 1;
    return 0;
}

/* A string part ending in `.jsonl` / `.ndjson`, or null. */
static TSNode jsonl_fragment(lf_tssem *m, TSNode x) {
    if (!lf_tree_is(x, "string_fragment"))
        return (TSNode){0};
    const char *a = m->src->text + ts_node_start_byte(x);
    size_t len = ts_node_end_byte(x) - ts_node_start_byte(x);
    return (len >= 6 && !memcmp(a + len - 6, ".jsonl", 6)) || (len >= 7 && !memcmp(a + len - 7, ".ndjson", 7))
               ? x
               : (TSNode){0};
}

/* Is the file a JSON-lines ledger by its name (`observations.jsonl`,
 * `events.ndjson`, in a string part of the path, through names)? By
 * convention such a file is appended to by every process that logs an
 * event, in this module or not: a whole rewrite of it races those appends. */
static int jsonl_named(lf_tssem *m, TSNode key) {
    if (!ts_node_is_null(lf_tssem_search_values(m, key, 128, 0, jsonl_fragment)))
        return 1;
    /* through the module's functions: a parameter holds what the callers
     * pass (`pruneStale(file)` called with `file = ledgerPath(dir)`), a call
     * of a module function what it returns (`return path.join(dir,
     * "settings-audit.jsonl")`); bounded */
    TSNode stack[48];
    size_t n = 0;
    stack[n++] = key;
    for (size_t budget = 256; n && budget; budget--) {
        TSNode x = lf_tssem_unwrap(stack[--n]);
        if (ts_node_is_null(x) || lf_tree_is(x, "arrow_function") || lf_tree_is(x, "function_expression"))
            continue;
        if (!ts_node_is_null(jsonl_fragment(m, x)))
            return 1;
        if (lf_tree_is(x, "identifier")) {
            TSNode v = lf_tssem_resolve_value(m, x);
            if (!ts_node_eq(v, x)) {
                if (n < 48)
                    stack[n++] = v;
                continue;
            }
            const lf_tsbinding *b = lf_tssem_key_param(m, lf_tssem_path_key(m, x));
            int j = b ? lf_tssem_param_index(m, b->scope, b) : -1;
            for (size_t c = 0; j >= 0 && j < 8 && c < m->n_calls && n < 48; c++)
                if (lf_tssem_local_callee(m, m->calls[c].node) == b->scope)
                    stack[n++] = lf_tssem_arg(m->calls[c].node, (uint32_t)j);
            continue;
        }
        int32_t h = lf_tree_is(x, "call_expression") ? lf_tssem_local_callee(m, x) : -1;
        if (h > 0) {
            TSNode body = lf_tree_field(m->scopes[h].node, "body");
            if (!lf_tree_is(body, "statement_block")) {
                if (n < 48)
                    stack[n++] = body; /* an arrow's expression */
                continue;
            }
            for (uint32_t i = 0; i < ts_node_named_child_count(body) && n < 48; i++) {
                TSNode st = ts_node_named_child(body, i);
                if (lf_tree_is(st, "return_statement") && ts_node_named_child_count(st))
                    stack[n++] = ts_node_named_child(st, 0);
            }
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(x) && n < 48; i++)
            stack[n++] = ts_node_named_child(x, i);
    }
    return 0;
}

/* The data a write of k puts there: writeFile(k, data)'s data; for a rename
 * of a temp onto k, the data of the last writeFile of that temp before it. */
static TSNode written_data(lf_tssem *m, int32_t fn, TSNode write) {
    const char *op = lf_tslock_fs_op(m, write);
    if (is_write_op(op))
        return lf_tssem_arg(write, 1);
    if (!op || (strcmp(op, "rename") != 0 && strcmp(op, "move") != 0))
        return (TSNode){0};
    const char *tk = lf_tssem_path_key(m, lf_tssem_arg(write, 0));
    TSNode data = {0};
    for (int32_t i = fn >= 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) >= ts_node_start_byte(write))
            break;
        if (is_write_op(lf_tslock_fs_op(m, c)) && lf_tssem_path_key(m, lf_tssem_arg(c, 0)) == tk)
            data = lf_tssem_arg(c, 1);
    }
    return data;
}

/* Is what a write puts at its path a fresh owner record: an object literal
 * (through JSON.stringify and a name) with `pid: process.pid` among its own
 * keys? Writing it claims a pid lock (its check-then-write is the lock's own
 * race, LF301/LF303's), it does not update a document it read. */
static int owner_record(lf_tssem *m, int32_t fn, TSNode write) {
    TSNode x = lf_tssem_unwrap(written_data(m, fn, write));
    for (int hop = 0; hop < 4 && !ts_node_is_null(x); hop++) {
        if (lf_tree_is(x, "call_expression")) {
            const char *q = lf_tssem_callee(m, x);
            if (!q || strcmp(q, "JSON.stringify") != 0)
                return 0;
            x = lf_tssem_unwrap(lf_tssem_arg(x, 0));
        } else if (lf_tree_is(x, "identifier")) {
            TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, x));
            if (ts_node_eq(v, x))
                return 0;
            x = v;
        } else
            break;
    }
    if (!lf_tree_is(x, "object"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(x); i++) {
        TSNode pr = ts_node_named_child(x, i);
        if (!lf_tree_is(pr, "pair"))
            continue;
        TSNode v = lf_tssem_unwrap(lf_tree_field(pr, "value"));
        const char *q = lf_tree_is(v, "member_expression") ? lf_tssem_qualname(m, v) : NULL;
        if ((q && !strcmp(q, "process.pid")) || lf_tree_text_eq(m->src, v, "process.pid"))
            return 1;
    }
    return 0;
}

/* A ledger pruned or trimmed in place: the module appends to a file, and a
 * function reads its whole text, keeps part of it and writes that back over
 * the file (directly, or a temp renamed onto it), with no lock held, while
 * another of its functions appends to it, or the file is a JSON-lines
 * ledger by its name (`.jsonl`, `.ndjson`: appended to by whoever logs an
 * event, in whatever module). A line
 * another process appends between the read and the write is dropped. The
 * text need not be JSON: what matters is that the written data is made from
 * what was read. Reported at the read. */

/* Report the read of a read-modify-write at `read`, written back at `write`:
 * a whole-document update, or (ledger) the rewrite of a file the module
 * appends to (1) or of a JSON-lines ledger by its name (2), either one
 * emptied instead (| LEDGER_EMPTIED), or (3) a text written back with more
 * after it (an append done by rewriting). */
enum { LEDGER_EMPTIED = 4 };
static void emit_rmw(lf_check_ctx *ctx, lf_tssem *m, TSNode read, TSNode write, TSNode key, int ledger) {
    const lf_source *src = lf_ctx_source(ctx);
    char *r = lf_py_short(src, read), *what = lf_py_short(src, key);
    char *msg = ledger == 3 ? lf_xasprintf("%s reads the text of %s, and line %u writes it back with more after it, "
                                           "with no lock held: an append done by rewriting the file, so what "
                                           "another process added in between is lost",
                                           r, what, lf_py_line(src, write))
                : ledger ? lf_xasprintf("%s reads the whole of %s, %s, and line %u %s with no lock held: a "
                                      "line another process appends in between is lost",
                                      r, what,
                                      (ledger & 3) == 2 ? "a JSON-lines ledger that processes append to"
                                                        : "which this module appends to",
                                      lf_py_line(src, write),
                                      ledger & LEDGER_EMPTIED ? "empties it" : "writes back what it kept")
                       : lf_xasprintf("%s starts a read-modify-write of %s that line %u writes back with no lock "
                                      "held: concurrent processes overwrite each other's updates",
                                      r, what, lf_py_line(src, write));
    lf_ctx_emit_site(ctx, read, msg, lf104_ts_site(m, read, write, key), lf104_site_free);
    lf_ctx_witness(ctx, lf_wit_read_write(src, read, write, key));
    free(msg);
    free(r);
    free(what);
}
static void ledger_rewrite(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l, const parsed_vec *parsed) {
    const lf_source *src = m->src;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode read = m->calls[i].node;
        const char *op = lf_tslock_fs_op(m, read);
        if (!op || strcmp(op, "readFile") != 0)
            continue;
        TSNode key = lf_tssem_arg(read, 0);
        const char *k = lf_tssem_path_key(m, key);
        const char *v = text_kept_in(m, read);
        int32_t fn = lf_tslock_fn_of(m, m->calls[i].scope);
        int seen = 0; /* parsed whole as JSON: the first pass owns it */
        for (size_t j = 0; j < parsed->len && !seen; j++)
            seen = parsed->items[j].fn == fn && parsed->items[j].key == k;
        if (!k || !v || fn < 0 || seen)
            continue;
        TSNode write = write_after(m, fn, k, read);
        if (ts_node_is_null(write))
            continue;
        TSNode data = written_data(m, fn, write);
        derive_walk w;
        memset(&w, 0, sizeof w);
        w.m = m;
        w.from = ts_node_end_byte(read);
        w.to = ts_node_start_byte(write);
        LF_VEC_PUSH(&w.names, v);
        lf_tree_walk(m->scopes[m->calls[i].scope].node, visit_derive, &w);
        int derived = mentions_tracked(&w, data);
        /* or emptied after what was read went elsewhere (a rotation: the
         * content appended to an archive, then `writeFileSync(LOG, "")`): the
         * lines appended in between are lost with it. Emptied with nothing
         * kept (a reset) keeps nothing it read either way. */
        TSNode dv = lf_tssem_unwrap(data);
        int emptied = (lf_tree_is(dv, "string") || lf_tree_is(dv, "template_string")) &&
                      ts_node_end_byte(dv) - ts_node_start_byte(dv) == 2;
        int archived = 0;
        for (int32_t c = m->calls[i].next_in_fn; emptied && !archived && c >= 0; c = m->calls[c].next_in_fn) {
            TSNode ac = m->calls[c].node;
            if (ts_node_start_byte(ac) >= ts_node_start_byte(write))
                break;
            const char *aop = lf_tslock_fs_op(m, ac);
            archived = aop && (!strcmp(aop, "appendFile") || !strcmp(aop, "writeFile")) &&
                       lf_tssem_path_key(m, lf_tssem_arg(ac, 0)) != k && mentions_tracked(&w, lf_tssem_arg(ac, 1));
        }
        emptied &= archived;
        LF_VEC_FREE(&w.names);
        if ((!derived && !emptied) || !reaches(src, m->scopes[m->calls[i].scope].node, read, write) ||
            not_a_document(m, l, key))
            continue;
        int ledger = appended_elsewhere(*l, key, fn) ? 1 : jsonl_named(m, key) ? 2 : 0;
        if (!ledger || lf_ts_lock_held(m, *l, read))
            continue;
        emit_rmw(ctx, m, read, write, key, ledger | (derived ? 0 : LEDGER_EMPTIED));
    }
}

/* Is `data` the text kept in v with more put after it (`v + sep + x`,
 * `${v}${x}`), directly or through one name? An append done by rewriting. */
static int extends_text(lf_tssem *m, TSNode data, const char *v) {
    TSNode x = lf_tssem_unwrap(data);
    if (lf_tree_is(x, "identifier") && !lf_tree_text_eq(m->src, x, v))
        x = lf_tssem_unwrap(lf_tssem_resolve_value(m, x));
    if (lf_tree_is(x, "binary_expression") && lf_tree_text_eq(m->src, lf_tree_field(x, "operator"), "+")) {
        /* the leftmost operand of a chain of `+` */
        TSNode left = lf_tssem_unwrap(lf_tree_field(x, "left"));
        for (int hop = 0; hop < 8 && lf_tree_is(left, "binary_expression") &&
                          lf_tree_text_eq(m->src, lf_tree_field(left, "operator"), "+");
             hop++)
            left = lf_tssem_unwrap(lf_tree_field(left, "left"));
        return lf_tree_is(left, "identifier") && lf_tree_text_eq(m->src, left, v);
    }
    if (lf_tree_is(x, "template_string")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(x); i++) {
            TSNode c = ts_node_named_child(x, i);
            if (!lf_tree_is(c, "template_substitution"))
                continue; /* the text before the first substitution must be empty */
            TSNode e = lf_tssem_unwrap(ts_node_named_child(c, 0));
            return ts_node_start_byte(c) == ts_node_start_byte(x) + 1 && lf_tree_is(e, "identifier") &&
                   lf_tree_text_eq(m->src, e, v) && ts_node_named_child_count(x) > 1;
        }
    }
    return 0;
}

static void emit_rmw(lf_check_ctx *ctx, lf_tssem *m, TSNode read, TSNode write, TSNode key, int ledger);

/* Does function fn look for something in the text v before the write
 * (`if (content.includes(ENTRY)) return`)? Then the rewrite adds a line
 * only when it is missing: a setup step making sure of a config entry
 * (.gitignore, a shell rc), run by a command, not a log others append to. */
static int ensures_present(lf_tssem *m, int32_t fn, const char *v, TSNode read, TSNode write) {
    for (int32_t i = m->scopes[fn].first_call; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node, f = lf_tree_field(c, "function");
        if (ts_node_start_byte(c) <= ts_node_end_byte(read) || ts_node_start_byte(c) >= ts_node_start_byte(write))
            continue;
        if (!lf_tree_is(f, "member_expression"))
            continue;
        TSNode obj = lf_tssem_unwrap(lf_tree_field(f, "object")), prop = lf_tree_field(f, "property");
        if (lf_tree_is(obj, "identifier") && lf_tree_text_eq(m->src, obj, v) &&
            (lf_tree_text_eq(m->src, prop, "includes") || lf_tree_text_eq(m->src, prop, "indexOf")))
            return 1;
    }
    return 0;
}

/* A file's text read whole and written back to the same path with more after
 * it (`writeFileSync(p, existing + "\n" + entry)`): an append emulated by a
 * read-modify-write, which loses the text another process wrote in between. */
static void text_extended(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l, TSNode read, TSNode key, int32_t fn) {
    const char *v = text_kept_in(m, read);
    if (!v)
        return;
    const char *k = lf_tssem_path_key(m, key);
    TSNode write = write_after(m, fn, k, read);
    if (ts_node_is_null(write) || !is_write_op(lf_tslock_fs_op(m, write)) ||
        !extends_text(m, lf_tssem_arg(write, 1), v) || ensures_present(m, fn, v, read, write) ||
        not_a_document(m, l, key))
        return;
    if (!*l)
        *l = lf_tslock_build(m);
    if (lf_ts_lock_held(m, *l, read))
        return;
    emit_rmw(ctx, m, read, write, key, 3);
}

void lf104_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    lf_tslock *l = NULL;
    parsed_vec reads = {0};
    size_t n = lf_ctx_match_count(ctx);
    for (size_t i = 0; i < n; i++) {
        TSNode read, key;
        if (!lf_ctx_capture(ctx, i, "read", &read) || !lf_ctx_capture(ctx, i, "key", &key))
            continue;
        const char *op = lf_tslock_fs_op(m, read);
        if (!op || (strcmp(op, "readFile") != 0 && strcmp(op, "readJson") != 0 && strcmp(op, "readJSON") != 0))
            continue;
        int32_t fn = lf_tslock_fn_of(m, lf_tssem_scope_of(m, read));
        int parsed = strcmp(op, "readFile") != 0;
        for (size_t c = 0; c < m->n_calls && !parsed; c++) {
            const lf_tscall *pc = &m->calls[c];
            if (pc->callee && !strcmp(pc->callee, "JSON.parse") && lf_tslock_fn_of(m, pc->scope) == fn &&
                ts_node_eq(parsed_source(m, lf_tssem_arg(pc->node, 0)), read))
                parsed = 1;
        }
        if (!parsed) {
            text_extended(ctx, m, &l, read, key, fn);
            continue;
        }
        const char *k = lf_tssem_path_key(m, key);
        LF_VEC_PUSH(&reads, ((parsed_read){fn, k}));
        TSNode write = write_after(m, fn, k, read);
        if (ts_node_is_null(write) || not_a_document(m, &l, key) || owner_record(m, fn, write))
            continue;
        if (lf_ts_lock_held(m, l, read))
            continue;
        emit_rmw(ctx, m, read, write, key, 0);
    }
    /* reads through the module's helpers: `const entries = await bucketEntries(bucket)` */
    int32_t *reader = lf_xmalloc((m->n_scopes + 1) * sizeof *reader);
    for (size_t i = 0; i <= m->n_scopes; i++)
        reader[i] = -2; /* not computed */
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        int32_t h = lf_tssem_local_callee(m, call);
        if (h <= 0)
            continue;
        if (reader[h] == -2)
            reader[h] = reads_param(m, h);
        if (reader[h] < 0)
            continue;
        TSNode arg = lf_tssem_arg(call, (uint32_t)reader[h]);
        int32_t fn = lf_tslock_fn_of(m, m->calls[i].scope);
        if (ts_node_is_null(arg) || fn == h)
            continue;
        const char *k = lf_tssem_path_key(m, arg);
        TSNode write = write_after(m, fn, k, call);
        if (ts_node_is_null(write) || not_a_document(m, &l, arg) || owner_record(m, fn, write))
            continue;
        if (lf_ts_lock_held(m, l, call))
            continue;
        char *r = lf_py_short(src, call), *what = lf_py_short(src, arg);
        char *msg = lf_xasprintf("%s reads and parses %s, and line %u writes it back with no lock held: concurrent "
                                 "processes overwrite each other's updates",
                                 r, what, lf_py_line(src, write));
        lf_ctx_emit_site(ctx, call, msg, lf104_ts_site(m, call, write, arg), lf104_site_free);
        lf_ctx_witness(ctx, lf_wit_read_write(src, call, write, arg));
        free(msg);
        free(r);
        free(what);
    }
    free(reader);
    accessor_rmw(ctx, m, &l, &reads);
    method_rmw(ctx, m, &l);
    named_pair_rmw(ctx, m, &l);
    param_helper_rmw(ctx, m, &l);
    ledger_rewrite(ctx, m, &l, &reads);
    LF_VEC_FREE(&reads);
}
