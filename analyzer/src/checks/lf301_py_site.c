/* LF301's Python site (lf301_py_site.h): which calls the release fix rewrites,
 * or why it declines. */
#include "lf301_py_site.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pycfg.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_util.h"

static void free_edits(lf301_py_site *s);

static lf301_py_site *declined(lf301_py_site *s, char *why) {
    free_edits(s);
    s->decline = why;
    return s;
}

static void push(lf301_py_site *s, TSNode call, const char *member, int method) {
    s->edits = lf_xrealloc(s->edits, (s->n_edits + 1) * sizeof *s->edits);
    s->edits[s->n_edits++] = (lf301_py_edit){call, member, method, NULL};
}

static void free_edits(lf301_py_site *s) {
    for (size_t i = 0; i < s->n_edits; i++)
        free(s->edits[i].args);
    free(s->edits);
    s->edits = NULL;
    s->n_edits = 0;
}

/* Does the call pass keyword `kw`? */
static int has_keyword(lf_pysem *m, TSNode call, const char *kw) {
    return !ts_node_is_null(lf_pylock_arg(m, call, UINT32_MAX, kw));
}

/* The removal call: how it is rewritten (to `member`), or a reason. */
static char *removal_edit(lf_pylock *l, lf301_py_site *s, TSNode call, const char *member) {
    lf_pysem *m = l->m;
    static const char *const unlinks[] = {"os.remove", "os.unlink", NULL};
    TSNode target = {0};
    if (!lf_pylock_removal_call(m, call, &target))
        return lf_xstrdup("the removal is not a call of os.remove, os.unlink or Path.unlink");
    if (lf_pylock_rename_call(m, call))
        return lf_xstrdup("the lock is renamed away, not unlinked: the drop-ins bind an unlink only");
    if (!lf_pylock_plain_args(call))
        return lf_xstrdup("the removal's arguments are unpacked (`*args`, `**kwargs`)");
    if (lf_pylock_callee_any(m, call, unlinks)) {
        if (has_keyword(m, call, "dir_fd"))
            return lf_xstrdup("the removal is relative to a directory descriptor (`dir_fd=`)");
        TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
        if (!lf_tree_is(fn, "identifier") && !lf_tree_is(fn, "attribute"))
            return lf_xstrdup("the removal's callee is an expression the fix would not rewrite");
        push(s, call, member, 0);
        return NULL;
    }
    const char *q = lf_pysem_callee(m, call);
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    TSNode attr = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : (TSNode){0};
    if ((q && !strcmp(q, "pathlib.Path.unlink")) || (!ts_node_is_null(attr) && lf_tree_text_eq(m->src, attr, "unlink"))) {
        TSNode args = lf_tree_field(call, "arguments");
        uint32_t n = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < n; i++) {
            TSNode a = ts_node_named_child(args, i);
            if (lf_tree_is(a, "comment"))
                continue;
            if (!lf_tree_is(a, "keyword_argument") ||
                !lf_tree_text_eq(m->src, lf_tree_field(a, "name"), "missing_ok"))
                return lf_xstrdup("Path.unlink is given an argument other than `missing_ok=`");
        }
        push(s, call, member, 1);
        return NULL;
    }
    return lf_xstrdup("the lock is a directory (removed with rmdir or rmtree): the drop-ins bind files only");
}

/* The number of arguments a call passes (comments aside). */
static uint32_t n_args(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++)
        n += !lf_tree_is(ts_node_named_child(args, i), "comment");
    return n;
}

/* `p.read_text(...)` with what read_text_judged(p, encoding, errors) takes:
 * at most two positional arguments, keywords `encoding` and `errors` (not
 * 3.13's `newline`). */
static int read_text_arguments(const lf_source *src, TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t positional = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "comment"))
            continue;
        if (lf_tree_is(a, "keyword_argument")) {
            TSNode k = lf_tree_field(a, "name");
            if (!lf_tree_text_eq(src, k, "encoding") && !lf_tree_text_eq(src, k, "errors"))
                return 0;
        } else if (++positional > 2) {
            return 0;
        }
    }
    return 1;
}

/* Is the call a judgement that a drop-in of the binding replaces? The path it
 * judges, or null; *member: the drop-in, *method: a method call rewritten
 * whole. */
static TSNode judgement_path(lf_pylock *l, TSNode call, const char **member, int *method) {
    lf_pysem *m = l->m;
    static const struct {
        const char *qual, *member;
    } k_calls[] = {{"os.stat", "stat_judged"},
                   {"os.lstat", "lstat_judged"},
                   {"os.path.getmtime", "getmtime_judged"},
                   {"os.path.getctime", "getctime_judged"},
                   {"os.path.exists", "exists_judged"},
                   {NULL, NULL}};
    TSNode path = {0};
    *method = 0;
    *member = NULL;
    for (size_t i = 0; k_calls[i].qual && !*member; i++) {
        const char *one[] = {k_calls[i].qual, NULL};
        if (lf_pylock_callee_any(m, call, one)) {
            *member = k_calls[i].member;
            path = lf_pylock_arg(m, call, 0, "path");
        }
    }
    static const char *const opens[] = {"open", NULL};
    if (!*member && lf_pylock_callee_any(m, call, opens) && lf_pylock_callee_spelled(m->src, call, "open")) {
        TSNode mode = lf_pylock_arg(m, call, 1, "mode");
        if (!ts_node_is_null(mode) && !lf_pylock_open_mode(m->src, lf_tree_unparen(mode), 'r', 0))
            return (TSNode){0}; /* written, appended or created: no judgement */
        *member = "open_judged";
        path = lf_pylock_arg(m, call, 0, "file");
    }
    if (!*member) {
        TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
        if (!lf_tree_is(fn, "attribute"))
            return (TSNode){0};
        TSNode recv = lf_tree_field(fn, "object"), attr = lf_tree_field(fn, "attribute");
        lf_pytype t = lf_pysem_type_of(m, recv);
        if (t != LF_PYTYPE_PATH && t != LF_PYTYPE_UNKNOWN)
            return (TSNode){0};
        if (lf_tree_text_eq(m->src, attr, "stat") && n_args(call) == 0)
            *member = "stat_judged";
        else if (lf_tree_text_eq(m->src, attr, "exists") && n_args(call) == 0)
            *member = "exists_judged";
        else if (lf_tree_text_eq(m->src, attr, "read_text") && read_text_arguments(m->src, call))
            *member = "read_text_judged";
        else if (lf_tree_text_eq(m->src, attr, "read_bytes") && n_args(call) == 0)
            *member = "read_bytes_judged";
        else
            return (TSNode){0};
        *method = 1;
        path = recv;
    }
    return path;
}

/* Is `path` the lock's key? */
static int names_key(lf_pylock *l, TSNode path, int32_t key) {
    if (ts_node_is_null(path))
        return 0;
    lf_pkey k = lf_pylock_key_of(l, path);
    return lf_pylock_find(l, &k) == key;
}

/* Is the call a judgement of the lock's key that a drop-in replaces? */
static int judgement_form(lf_pylock *l, TSNode call, int32_t key, const char **member, int *method) {
    return names_key(l, judgement_path(l, call, member, method), key);
}

/* Is `n` evaluated whenever the statement (or header) `stmt` that holds it
 * runs? Not when it sits in the right operand of `and`/`or`, a branch of a
 * conditional expression, a comprehension or a lambda. */
static int always_evaluated(TSNode n, TSNode stmt) {
    for (TSNode c = n, p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(c, stmt);
         c = p, p = ts_node_parent(p)) {
        if (lf_tree_is(p, "boolean_operator") && ts_node_eq(c, lf_tree_field(p, "right")))
            return 0;
        if (lf_tree_is(p, "conditional_expression") && !ts_node_eq(c, ts_node_named_child(p, 1)))
            return 0;
        if (lf_pysem_is_function_node(p) || lf_tree_is(p, "list_comprehension") ||
            lf_tree_is(p, "set_comprehension") || lf_tree_is(p, "dictionary_comprehension") ||
            lf_tree_is(p, "generator_expression"))
            return 0;
        lf_work(1);
    }
    return 1;
}

/* Can nothing but the look itself raise in its statement before the look has
 * made its judgement (a judged drop-in records even a look that fails: the
 * lock judged absent)? Only clock reads and path conversions may be called
 * before it. */
static int judged_before_any_raise(lf_pysem *m, const lf_cfg *g, int32_t id, TSNode look) {
    static const char *const harmless[] = {"time.time",   "time.time_ns", "time.monotonic", "time.perf_counter",
                                           "os.getpid",   "str",          "os.fspath",      "pathlib.Path",
                                           "Path",        NULL};
    TSNode stmt = lf_cfg_node_at(g, (uint32_t)id)->stmt;
    uint32_t from = ts_node_start_byte(stmt), at = ts_node_start_byte(look);
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        /* the calls of the look's statement evaluated before it (and not
         * around it): in its graph node, not a nested statement's */
        if (ts_node_start_byte(c) < from || ts_node_start_byte(c) >= at || ts_node_end_byte(c) > at ||
            lf_pycfg_node_of(m, g, c) != id)
            continue;
        if (!lf_pylock_callee_any(m, c, harmless))
            return 0;
    }
    return 1;
}

/* unlink_judged removes only the object of this process's latest judgement
 * of the path, and a judgement stays remembered until a removal uses it. So
 * the swap keeps the module's behaviour only where every way from the
 * function's entry to the removal makes one of the judgements `looks` first:
 * elsewhere (`if force or stale(p): os.unlink(p)` called with force, a loop's
 * turn that skipped the look) the removal would meet an older judgement, of a
 * lock since replaced by this process's own, and leave behind a lock the
 * module means to delete. 0 when every way looks first, else the line of a
 * look that is skipped on some way (or of the removal). */
static unsigned removal_unjudged_line(lf_pysem *m, int32_t scope, TSNode removal, const TSNode *looks,
                                      const unsigned char *direct, size_t n_looks) {
    TSNode fn = m->scopes[scope].node;
    if (!lf_tree_is(fn, "function_definition") && !lf_tree_is(fn, "module"))
        return lf_py_line(m->src, removal);
    lf_cfg *g = lf_pycfg_build(m->src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n ? n : 1, sizeof *gen), *kill = lf_xcalloc(n ? n : 1, sizeof *kill);
    uint64_t *raised = lf_xcalloc(n ? n : 1, sizeof *raised);
    int32_t at = lf_pycfg_node_of(m, g, removal);
    unsigned line = 0, skipped = 0;
    int same_node_looked = 0;
    for (size_t i = 0; i < n_looks; i++) {
        int32_t id = lf_pycfg_node_of(m, g, looks[i]);
        if (id < 0)
            continue;
        const lf_cfg_node *nd = lf_cfg_node_at(g, (uint32_t)id);
        if (!always_evaluated(looks[i], nd->stmt)) {
            if (!skipped)
                skipped = lf_py_line(m->src, looks[i]);
            continue;
        }
        if (id == at) {
            /* `judge(p) and os.unlink(p)`: the look is made first in the removal's own statement */
            same_node_looked |= ts_node_start_byte(looks[i]) < ts_node_start_byte(removal);
            continue;
        }
        gen[id] = 1;
        if (direct[i] && judged_before_any_raise(m, g, id, looks[i]))
            raised[id] = 1;
    }
    if (at < 0) {
        line = lf_py_line(m->src, removal);
    } else if (!same_node_looked) {
        lf_cfg_lockstate st;
        lf_cfg_lockstate_run_raising(g, gen, kill, raised, 0, &st);
        if (st.reachable[at] && !(st.must_in[at] & 1u))
            line = skipped ? skipped : lf_py_line(m->src, removal);
        lf_cfg_lockstate_free(&st);
    }
    free(gen);
    free(kill);
    free(raised);
    lf_cfg_free(g);
    return line;
}

/* A stale takeover: the stats and reads of the lock before the removal in
 * its function, and in the module's own functions it calls before it (`existing
 * = read()`), each becomes its judged drop-in, and the removal unlink_judged.
 *
 * The judged drop-ins return what the calls they replace return, so swapping
 * a judgement that turns out not to precede a removal changes nothing; what
 * matters is that the removal finds this process's latest judgement of the
 * path, made since its function was entered: a look that failed counts (the
 * drop-in remembers a missing lock as judged absent, and forgets an older
 * judgement on any other error). A removal some way reaches with no look made
 * declines (removal_unjudged_line). */
static char *takeover_edits(lf_pylock *l, lf301_py_site *s, const lf_pylock_event *ev) {
    lf_pysem *m = l->m;
    size_t judged = 0;
    uint32_t at = ts_node_start_byte(ev->node);
    int param = l->keys[ev->key].key.kind == LF_PKEY_BIND; /* bound in one function: a helper judges it only as its parameter */
    LF_VEC(TSNode) looks = {0}; /* the calls in the removal's function that judge: its own, or a helper's call */
    LF_VEC(unsigned char) direct = {0}; /* per look: the judging call itself, not a helper's */
    unsigned char yes = 1, no = 0;
    char *why = NULL;
    for (size_t i = 0; i < m->n_calls && !why; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != ev->scope || ts_node_start_byte(c->node) >= at)
            continue;
        const char *member;
        int method;
        if (judgement_form(l, c->node, ev->key, &member, &method)) {
            if (!lf_pylock_plain_args(c->node)) {
                why = lf_xasprintf("the judgement at line %u unpacks its arguments (`*args`, `**kwargs`)",
                                   lf_py_line(m->src, c->node));
                break;
            }
            push(s, c->node, member, method);
            LF_VEC_PUSH(&looks, c->node);
            LF_VEC_PUSH(&direct, yes);
            judged += strcmp(member, "exists_judged") != 0; /* existence alone binds nothing worth removing */
            continue;
        }
        int skip = 0;
        int32_t f = lf_pylock_local_callee(l, c->node, &skip);
        if (f < 0 || f == ev->scope)
            continue;
        for (size_t j = 0; j < m->n_calls && !why; j++) {
            const lf_pycall *h = &m->calls[j];
            if (h->scope != f)
                continue;
            /* the helper judges the lock itself (a field, a constant), or the
             * parameter this call hands it (`_read_lock(lp)`; a key bound in
             * one function is never a helper's own) */
            TSNode judged_path = judgement_path(l, h->node, &member, &method);
            if (ts_node_is_null(judged_path) ||
                !(param ? names_key(l, lf_pylock_argument_for(l, c->node, judged_path), ev->key)
                        : names_key(l, judged_path, ev->key) ||
                              names_key(l, lf_pylock_argument_for(l, c->node, judged_path), ev->key)))
                continue;
            int dup = 0;
            for (size_t k = 0; k < s->n_edits && !dup; k++)
                dup = ts_node_eq(s->edits[k].call, h->node);
            if (dup)
                continue;
            if (!lf_pylock_plain_args(h->node)) {
                why = lf_xasprintf("the judgement at line %u unpacks its arguments (`*args`, `**kwargs`)",
                                   lf_py_line(m->src, h->node));
                break;
            }
            push(s, h->node, member, method);
            LF_VEC_PUSH(&looks, c->node);
            LF_VEC_PUSH(&direct, no);
            judged += strcmp(member, "exists_judged") != 0;
        }
    }
    unsigned unjudged =
        why || !judged ? 0 : removal_unjudged_line(m, ev->scope, ev->node, looks.items, direct.items, looks.len);
    LF_VEC_FREE(&looks);
    LF_VEC_FREE(&direct);
    if (why)
        return why;
    if (unjudged)
        return lf_xasprintf("the removal can be reached without a look at the lock since its function was entered "
                            "(%s line %u%s on some way to it): there it would meet the judgement of an earlier call, "
                            "of a lock since replaced, and leave behind a lock the module means to delete",
                            unjudged == lf_py_line(m->src, ev->node) ? "no look precedes" : "the look at", unjudged,
                            unjudged == lf_py_line(m->src, ev->node) ? "" : " is skipped");
    if (!judged)
        return lf_xstrdup("no stat or read of the lock comes before the removal in its function or in a helper it "
                          "calls first (the lock is judged by existence alone, or not at all): there is no judged "
                          "object to bind the removal to");
    return removal_edit(l, s, ev->node, "unlink_judged");
}

/* Every exclusive create of the lock's key in the module, each a call the fix
 * swaps (or one it swapped before); NULL, or a reason. */
static char *create_edits(lf_pylock *l, lf301_py_site *s, int32_t key, TSNode removed) {
    lf_pysem *m = l->m;
    static const char *const os_open[] = {"os.open", NULL};
    static const char *const opens[] = {"open", "io.open", NULL};
    size_t creates = 0;
    /* the lock's own creates; else, for a release helper's parameter, the
     * creates of its sibling acquire's parameter of the same name
     * (`acquire_lock(lock_path)` / `release_lock(lock_path)`): the API's
     * callers hand both the same path */
    const lf_pybinding *param = ts_node_is_null(removed) ? NULL : lf_pylock_api_param(m, removed);
    for (int sibling = 0; sibling < (param ? 2 : 1) && !creates; sibling++) {
        for (size_t i = 0; i < m->n_calls; i++) {
            TSNode call = m->calls[i].node;
            int link = 0;
            TSNode created = lf_pylock_exclusive_create(l, call, &link);
            if (ts_node_is_null(created))
                continue;
            int ours;
            if (sibling) {
                ours = lf_pylock_sibling_params(m, param, lf_pylock_api_param(m, created));
            } else {
                lf_pkey k = lf_pylock_key_of(l, created);
                ours = lf_pylock_find(l, &k) == key;
            }
            if (!ours)
                continue;
            creates++;
            unsigned line = lf_py_line(m->src, call);
            if (lf_pylock_lockrt_call(m, call, "open_exclusive") ||
                lf_pylock_lockrt_call(m, call, "open_exclusive_file"))
                continue; /* swapped already */
            if (!lf_pylock_plain_args(call))
                return lf_xasprintf("the create at line %u unpacks its arguments (`*args`, `**kwargs`)", line);
            if (lf_pylock_callee_any(m, call, os_open)) {
                if (has_keyword(m, call, "dir_fd"))
                    return lf_xasprintf("the create at line %u is relative to a directory descriptor (`dir_fd=`)",
                                        line);
                push(s, call, "open_exclusive", 0);
            } else if (lf_pylock_callee_any(m, call, opens)) {
                if (has_keyword(m, call, "opener"))
                    return lf_xasprintf("the create at line %u passes its own `opener=`", line);
                push(s, call, "open_exclusive_file", 0);
            } else {
                return lf_xasprintf("the lock is created at line %u by a directory or link create (mkdir, link, "
                                    "symlink): the drop-ins bind files made by os.open or open(p, \"x\")",
                                    line);
            }
        }
    }
    if (!creates)
        return lf_xstrdup("the module has no exclusive create of this lock that the fix could swap (it is created "
                          "by a lock class, a helper's parameter or another module): a release would not know "
                          "what this process made");
    return NULL;
}

/* ---- an flock'ed lock file removed by name ---- */

/* The open a lock call's handle comes from, in a form the verified drop-in
 * can open again after a removal: *path is its path argument, *truncate
 * whether it truncates ("w", os.O_TRUNC). NULL, or a reason. */
static char *reopenable(lf_pylock *l, TSNode open, unsigned line, TSNode *path, int *truncate) {
    lf_pysem *m = l->m;
    static const char *const os_open[] = {"os.open", NULL};
    static const char *const opens[] = {"open", "io.open", NULL};
    *truncate = 0;
    *path = (TSNode){0};
    if (ts_node_is_null(open))
        return lf_xasprintf("the handle locked at line %u is not opened from a path in this module (a caller or "
                            "a helper of another module opens it): an acquisition cannot open it again",
                            line);
    unsigned at = lf_py_line(m->src, open);
    if (!lf_pylock_plain_args(open))
        return lf_xasprintf("the open at line %u unpacks its arguments (`*args`, `**kwargs`)", at);
    if (lf_pylock_callee_any(m, open, os_open)) {
        TSNode flags = lf_pylock_arg(m, open, 1, "flags");
        if (!lf_pylock_mentions(m, flags, "os.O_CREAT"))
            return lf_xasprintf("the open at line %u does not create the lock file (no os.O_CREAT): once removed it "
                                "could not be opened again the way the module opens it",
                                at);
        if (lf_pylock_mentions(m, flags, "os.O_EXCL"))
            return lf_xasprintf("the open at line %u creates the lock file exclusively (os.O_EXCL): opening it "
                                "again after a removal is not what the module does",
                                at);
        if (has_keyword(m, open, "dir_fd"))
            return lf_xasprintf("the open at line %u is relative to a directory descriptor (`dir_fd=`)", at);
        *truncate = lf_pylock_mentions(m, flags, "os.O_TRUNC");
        *path = lf_pylock_arg(m, open, 0, "path");
        return NULL;
    }
    TSNode mode;
    if (lf_pylock_callee_any(m, open, opens)) {
        if (has_keyword(m, open, "opener"))
            return lf_xasprintf("the open at line %u passes its own `opener=`", at);
        mode = lf_pylock_arg(m, open, 1, "mode");
        *path = lf_pylock_arg(m, open, 0, "file");
    } else {
        mode = lf_pylock_arg(m, open, 0, "mode");
        *path = lf_tree_field(lf_tree_unparen(lf_tree_field(open, "function")), "object");
    }
    mode = lf_tree_unparen(mode);
    int w = !ts_node_is_null(mode) && lf_pylock_open_mode(m->src, mode, 'w', 0);
    if (!w && (ts_node_is_null(mode) || !lf_pylock_open_mode(m->src, mode, 'a', 0)))
        return lf_xasprintf("the open at line %u does not create the lock file (its mode is not \"w\" or \"a\"): "
                            "once removed it could not be opened again the way the module opens it",
                            at);
    *truncate = w;
    return NULL;
}

/* Is every handle this lock call can be given opened by `open` from `path`?
 * The open is in the lock call's own function, or the handle is a field of
 * self whose every value is None or an open of the same path. A handle a
 * caller passes (a parameter) could come from any file. NULL, or a reason. */
static char *one_open(lf_pylock *l, TSNode handle, TSNode open, TSNode path, int truncate, TSNode call) {
    lf_pysem *m = l->m;
    unsigned line = lf_py_line(m->src, call);
    if (lf_pysem_scope_of(m, open) == lf_pysem_scope_of(m, call) && !lf_tree_is(handle, "attribute"))
        return NULL;
    TSNode values[16];
    size_t n = lf_pylock_field_values(l, handle, values, 16);
    if (!n)
        return lf_xasprintf("the handle locked at line %u is opened elsewhere (a caller passes it, or a helper "
                            "returns it): the fix cannot tell that every handle it is given comes from the lock "
                            "file's path",
                            line);
    for (size_t i = 0; i < n; i++) {
        TSNode v = lf_tree_unparen(values[i]);
        if (lf_tree_is(v, "none"))
            continue;
        TSNode o = lf_pylock_handle_open(l, v), p = {0};
        int trunc = 0;
        char *why = ts_node_is_null(o) ? NULL : reopenable(l, o, line, &p, &trunc);
        int same = !why && !ts_node_is_null(o) && trunc == truncate && lf_tree_same_text(m->src, p, path);
        free(why);
        if (!same)
            return lf_xasprintf("the handle locked at line %u is a field of self that is also given another value "
                                "(line %u) than an open of the lock file's path",
                                line, lf_py_line(m->src, v));
    }
    return NULL;
}

/* `f.fileno()` -> `f`; else the handle itself. */
static TSNode handle_object(lf_pysem *m, TSNode h) {
    h = lf_tree_unparen(h);
    if (!lf_tree_is(h, "call") || n_args(h) != 0)
        return h;
    TSNode fn = lf_tree_unparen(lf_tree_field(h, "function"));
    if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "fileno"))
        return lf_tree_unparen(lf_tree_field(fn, "object"));
    return h;
}

/* One acquisition of the lock: the call, the handle object, and whether the
 * handle is a file object (open(), Path.open()) rather than a descriptor. */
typedef struct acquisition {
    TSNode call, handle;
    int file_object;
} acquisition;

/* Every flock/lockf of the lock file in the module becomes its verified
 * drop-in; every removal of it, unlink_if_free. NULL, or a reason. */
static char *flock_edits(lf_pylock *l, lf301_py_site *s, int32_t key) {
    lf_pysem *m = l->m;
    static const char *const flock[] = {"fcntl.flock", NULL};
    static const char *const lockf[] = {"fcntl.lockf", NULL};
    static const char *const os_open[] = {"os.open", NULL};
    const lf_pylock_key *k = &l->keys[key];
    if (k->flags & LF_LOCK_HELPER)
        return lf_xstrdup("the lock file is locked through a lock class (filelock, portalocker, fasteners, ...): "
                          "its acquisitions cannot be made to check that the path still names what they locked");
    LF_VEC(acquisition) acq = {0};
    int flocks = 0, lockfs = 0;
    char *why = NULL;
    for (size_t i = 0; i < m->n_calls && !why; i++) {
        TSNode call = m->calls[i].node, h;
        int unlock = 0;
        if (lf_pylock_lock_call(m, call, &h, &unlock) != LF_LOCK_FLOCK || ts_node_is_null(h) || unlock)
            continue;
        TSNode p = lf_pylock_handle_path(l, h);
        if (ts_node_is_null(p))
            continue;
        lf_pkey pk = lf_pylock_key_of(l, p);
        if (lf_pylock_find(l, &pk) != key)
            continue;
        unsigned line = lf_py_line(m->src, call);
        TSNode open = lf_pylock_handle_open(l, h);
        acquisition a = {call, handle_object(m, h), !ts_node_is_null(open) && !lf_pylock_callee_any(m, open, os_open)};
        int verified_flock = lf_pylock_lockrt_call(m, call, "flock_verified");
        int verified_lockf = lf_pylock_lockrt_call(m, call, "lockf_verified");
        int is_flock = verified_flock || (!verified_lockf && lf_pylock_callee_any(m, call, flock));
        int is_lockf = verified_lockf || (!verified_flock && lf_pylock_callee_any(m, call, lockf));
        if (!is_flock && !is_lockf) {
            why = lf_xasprintf("the lock is taken at line %u by fcntl.fcntl or portalocker.lock: the drop-ins verify "
                               "fcntl.flock and fcntl.lockf",
                               line);
            break;
        }
        flocks += is_flock;
        lockfs += is_lockf;
        LF_VEC_PUSH(&acq, a);
        if (verified_flock || verified_lockf)
            continue; /* swapped already */
        if (!lf_pylock_plain_args(call)) {
            why = lf_xasprintf("the lock call at line %u unpacks its arguments (`*args`, `**kwargs`)", line);
            break;
        }
        TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
        if (!lf_tree_is(fn, "identifier") && !lf_tree_is(fn, "attribute")) {
            why = lf_xasprintf("the lock call at line %u is through an expression the fix would not rewrite", line);
            break;
        }
        TSNode path;
        int truncate;
        why = reopenable(l, open, line, &path, &truncate);
        if (!why)
            why = one_open(l, a.handle, open, path, truncate, call);
        if (why)
            break;
        if (!lf_pylock_nameable_at(l, path, open, call, 1)) {
            char *p_text = lf_py_short(m->src, path);
            why = lf_xasprintf("the lock file's path at line %u (`%s`) is neither a name bound the same at the lock "
                               "call on line %u nor a field of self assigned once: the acquisition could not name "
                               "it again to check it",
                               lf_py_line(m->src, open), p_text, line);
            free(p_text);
            break;
        }
        push(s, call, is_flock ? "flock_verified" : "lockf_verified", 0);
        s->edits[s->n_edits - 1].args =
            lf_xasprintf(", path=%.*s%s", (int)(ts_node_end_byte(path) - ts_node_start_byte(path)),
                         m->src->text + ts_node_start_byte(path), truncate ? ", truncate=True" : "");
    }
    if (!why && !acq.len)
        why = lf_xstrdup("no fcntl.flock or fcntl.lockf of the lock file is in this module (a caller, a helper of "
                         "another module or a lock class locks it): there is no acquisition to make check the path");
    if (!why && flocks && lockfs)
        why = lf_xstrdup("the lock file is locked with both flock and lockf, two locks that do not exclude each "
                         "other");
    /* Every removal of it: one taken by a process that does not hold the lock
     * would bring the bug back. */
    for (size_t i = 0; i < l->n_events && !why; i++) {
        const lf_pylock_event *e = &l->events[i];
        if (e->kind != LF_PYEV_REMOVE || e->key != key)
            continue;
        unsigned line = lf_py_line(m->src, e->node);
        if (e->via_helper && e->param < 0)
            continue; /* `self.release()`: the helper's own removal of the same lock is rewritten */
        if (e->via_helper) {
            why = lf_xasprintf("the lock file is removed at line %u through one of the module's helpers, which its "
                               "other callers share",
                               line);
            break;
        }
        size_t before = s->n_edits;
        why = removal_edit(l, s, e->node, "unlink_if_free");
        if (why || s->n_edits == before)
            break;
        /* The module's handle, where it still names it at the removal: a
         * removal before the unlock then takes the lock the module holds. */
        const char *handle = NULL;
        TSNode hn = {0};
        for (size_t j = 0; j < acq.len && !handle; j++)
            if (acq.items[j].file_object && lf_pylock_nameable_at(l, acq.items[j].handle, acq.items[j].call, e->node, 0)) {
                hn = acq.items[j].handle;
                handle = "";
            }
        char *h_arg = handle ? lf_xasprintf(", handle=%.*s", (int)(ts_node_end_byte(hn) - ts_node_start_byte(hn)),
                                            m->src->text + ts_node_start_byte(hn))
                             : lf_xstrdup("");
        s->edits[s->n_edits - 1].args = lf_xasprintf("%s%s", h_arg, lockfs ? ", lock=\"lockf\"" : "");
        free(h_arg);
    }
    LF_VEC_FREE(&acq);
    return why;
}

lf301_py_site *lf301_py_site_declined(char *why) { return declined(lf_xcalloc(1, sizeof(lf301_py_site)), why); }

lf301_py_site *lf301_py_site_make(lf_pylock *l, const lf_pylock_event *ev, int release) {
    lf301_py_site *s = lf_xcalloc(1, sizeof *s);
    const lf_pylock_key *k = &l->keys[ev->key];
    if (k->flags & LF_LOCK_FLOCK) {
        s->flocked = 1;
        char *why = flock_edits(l, s, ev->key);
        for (size_t i = 0; i < s->n_edits && !why; i++)
            if (!lf_pylock_lockrt_free_at(l->m, s->edits[i].call))
                why = lf_xasprintf("the name `lockrt` is bound to something other than the vendored binding at "
                                   "line %u",
                                   lf_py_line(l->m->src, s->edits[i].call));
        return why ? declined(s, why) : s;
    }
    if (ev->via_helper)
        return declined(s, lf_xstrdup(release ? "the release goes through one of the module's helpers, which its "
                                                "other callers share"
                                              : "the removal goes through one of the module's helpers, which its "
                                                "other callers share"));
    if (k->flags & LF_LOCK_REPLACED)
        return declined(s, lf_xstrdup("the module also renames a file onto the lock path: the file at the path "
                                      "would not be the one its create made"));
    if (k->flags & (LF_LOCK_SYMLINK | LF_LOCK_READLINK))
        return declined(s, lf_xstrdup("the lock is a symbolic link: the drop-ins bind files only"));
    /* a takeover by writing over the lock keeps its inode: the old holder's
     * bound removal would still match it */
    if (!ts_node_is_null(k->retaken_at))
        return declined(s, lf_xasprintf("line %u takes the lock over by writing its claim over it in place (the "
                                        "same inode): a removal bound to the inode would still delete the new "
                                        "holder's lock, so the fix would change nothing",
                                        lf_py_line(l->m->src, k->retaken_at)));
    char *why;
    if (release) {
        why = create_edits(l, s, ev->key, ev->target);
        if (!why)
            why = removal_edit(l, s, ev->node, "unlink_owned");
    } else {
        s->takeover = 1;
        why = takeover_edits(l, s, ev);
    }
    for (size_t i = 0; i < s->n_edits && !why; i++)
        if (!lf_pylock_lockrt_free_at(l->m, s->edits[i].call))
            why = lf_xasprintf("the name `lockrt` is bound to something other than the vendored binding at line %u",
                               lf_py_line(l->m->src, s->edits[i].call));
    return why ? declined(s, why) : s;
}

void lf301_py_site_absorb(lf301_py_site *s, lf301_py_site *other) {
    if (!s->decline && !other->decline)
        for (size_t i = 0; i < other->n_edits; i++) {
            int dup = 0;
            for (size_t k = 0; k < s->n_edits && !dup; k++)
                dup = ts_node_eq(s->edits[k].call, other->edits[i].call);
            if (dup)
                continue;
            push(s, other->edits[i].call, other->edits[i].member, other->edits[i].method);
            s->edits[s->n_edits - 1].args = other->edits[i].args;
            other->edits[i].args = NULL;
        }
    lf301_py_site_free(other);
}

void lf301_py_site_free(void *site) {
    lf301_py_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free_edits(s);
    free(s);
}
