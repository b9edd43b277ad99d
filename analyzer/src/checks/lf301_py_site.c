/* LF301's Python site (lf301_py_site.h): which calls the release fix rewrites,
 * or why it declines. */
#include "lf301_py_site.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_util.h"

static lf301_py_site *declined(lf301_py_site *s, char *why) {
    free(s->edits);
    s->edits = NULL;
    s->n_edits = 0;
    s->decline = why;
    return s;
}

static void push(lf301_py_site *s, TSNode call, const char *member, int method) {
    s->edits = lf_xrealloc(s->edits, (s->n_edits + 1) * sizeof *s->edits);
    s->edits[s->n_edits++] = (lf301_py_edit){call, member, method};
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

/* Is the call a judgement of the lock's key that a drop-in of the binding
 * replaces? *member: the drop-in, *method: a method call rewritten whole. */
static int judgement_form(lf_pylock *l, TSNode call, int32_t key, const char **member, int *method) {
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
            return 0; /* written, appended or created: no judgement */
        *member = "open_judged";
        path = lf_pylock_arg(m, call, 0, "file");
    }
    if (!*member) {
        TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
        if (!lf_tree_is(fn, "attribute"))
            return 0;
        TSNode recv = lf_tree_field(fn, "object"), attr = lf_tree_field(fn, "attribute");
        lf_pytype t = lf_pysem_type_of(m, recv);
        if (t != LF_PYTYPE_PATH && t != LF_PYTYPE_UNKNOWN)
            return 0;
        if (lf_tree_text_eq(m->src, attr, "stat") && n_args(call) == 0)
            *member = "stat_judged";
        else if (lf_tree_text_eq(m->src, attr, "exists") && n_args(call) == 0)
            *member = "exists_judged";
        else if (lf_tree_text_eq(m->src, attr, "read_text") && read_text_arguments(m->src, call))
            *member = "read_text_judged";
        else if (lf_tree_text_eq(m->src, attr, "read_bytes") && n_args(call) == 0)
            *member = "read_bytes_judged";
        else
            return 0;
        *method = 1;
        path = recv;
    }
    if (ts_node_is_null(path))
        return 0;
    lf_pkey k = lf_pylock_key_of(l, path);
    return lf_pylock_find(l, &k) == key;
}

/* A stale takeover: the stats and reads of the lock before the removal in
 * its function, and in the module's own functions it calls before it (`existing
 * = read()`), each becomes its judged drop-in, and the removal unlink_judged.
 *
 * The judged drop-ins return what the calls they replace return, so swapping
 * a judgement that turns out not to precede a removal changes nothing; what
 * matters is that the removal finds this process's latest judgement of the
 * path. On a way to the removal that judged nothing (a `try` whose stat
 * failed), the removal finds either no judgement and removes by name, as
 * before, or an older one and removes only the object judged then, if it is
 * still there unchanged: never something nobody looked at. */
static char *takeover_edits(lf_pylock *l, lf301_py_site *s, const lf_pylock_event *ev) {
    lf_pysem *m = l->m;
    size_t judged = 0;
    uint32_t at = ts_node_start_byte(ev->node);
    int param = l->keys[ev->key].key.kind == LF_PKEY_BIND; /* one key per function: helpers judge another */
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != ev->scope || ts_node_start_byte(c->node) >= at)
            continue;
        const char *member;
        int method;
        if (judgement_form(l, c->node, ev->key, &member, &method)) {
            if (!lf_pylock_plain_args(c->node))
                return lf_xasprintf("the judgement at line %u unpacks its arguments (`*args`, `**kwargs`)",
                                    lf_py_line(m->src, c->node));
            push(s, c->node, member, method);
            judged += strcmp(member, "exists_judged") != 0; /* existence alone binds nothing worth removing */
            continue;
        }
        int skip = 0;
        int32_t f = param ? -1 : lf_pylock_local_callee(l, c->node, &skip);
        if (f < 0 || f == ev->scope)
            continue;
        for (size_t j = 0; j < m->n_calls; j++) {
            const lf_pycall *h = &m->calls[j];
            if (h->scope != f || !judgement_form(l, h->node, ev->key, &member, &method))
                continue;
            int dup = 0;
            for (size_t k = 0; k < s->n_edits && !dup; k++)
                dup = ts_node_eq(s->edits[k].call, h->node);
            if (dup)
                continue;
            if (!lf_pylock_plain_args(h->node))
                return lf_xasprintf("the judgement at line %u unpacks its arguments (`*args`, `**kwargs`)",
                                    lf_py_line(m->src, h->node));
            push(s, h->node, member, method);
            judged += strcmp(member, "exists_judged") != 0;
        }
    }
    if (!judged)
        return lf_xstrdup("no stat or read of the lock comes before the removal in its function or in a helper it "
                          "calls first (the lock is judged by existence alone, or not at all): there is no judged "
                          "object to bind the removal to");
    return removal_edit(l, s, ev->node, "unlink_judged");
}

/* Every exclusive create of the lock's key in the module, each a call the fix
 * swaps (or one it swapped before); NULL, or a reason. */
static char *create_edits(lf_pylock *l, lf301_py_site *s, int32_t key) {
    lf_pysem *m = l->m;
    static const char *const os_open[] = {"os.open", NULL};
    static const char *const opens[] = {"open", "io.open", NULL};
    size_t creates = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        int link = 0;
        TSNode created = lf_pylock_exclusive_create(l, call, &link);
        if (ts_node_is_null(created))
            continue;
        lf_pkey k = lf_pylock_key_of(l, created);
        if (lf_pylock_find(l, &k) != key)
            continue;
        creates++;
        unsigned line = lf_py_line(m->src, call);
        if (lf_pylock_lockrt_call(m, call, "open_exclusive") || lf_pylock_lockrt_call(m, call, "open_exclusive_file"))
            continue; /* swapped already */
        if (!lf_pylock_plain_args(call))
            return lf_xasprintf("the create at line %u unpacks its arguments (`*args`, `**kwargs`)", line);
        if (lf_pylock_callee_any(m, call, os_open)) {
            if (has_keyword(m, call, "dir_fd"))
                return lf_xasprintf("the create at line %u is relative to a directory descriptor (`dir_fd=`)", line);
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
    if (!creates)
        return lf_xstrdup("the module has no exclusive create of this lock that the fix could swap (it is created "
                          "by a lock class, a helper's parameter or another module): a release would not know "
                          "what this process made");
    return NULL;
}

/* Would `lockrt.x` at the call name the module-level import of the binding
 * (there, or the one the fix adds)? */
static int lockrt_free_at(lf_pysem *m, TSNode call) {
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, call), "lockrt", ts_node_start_byte(call));
    if (!b) {
        size_t n;
        lf_pysem_bindings_of(m, 0, "lockrt", &n);
        return n == 0; /* a module-level `lockrt` bound later would shadow the import the fix adds */
    }
    return b->kind == LF_PYBIND_IMPORT && b->scope == 0 && b->qualname && strlen(b->qualname) >= 6 &&
           !strcmp(b->qualname + strlen(b->qualname) - 6, "lockrt");
}

lf301_py_site *lf301_py_site_make(lf_pylock *l, const lf_pylock_event *ev, int release) {
    lf301_py_site *s = lf_xcalloc(1, sizeof *s);
    const lf_pylock_key *k = &l->keys[ev->key];
    if (k->flags & LF_LOCK_FLOCK)
        return declined(s, lf_xstrdup("the lock file is locked with flock/lockf: removing it at all is the bug, "
                                      "and a rewrite that stops removing it changes the module's protocol"));
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
    char *why;
    if (release) {
        why = create_edits(l, s, ev->key);
        if (!why)
            why = removal_edit(l, s, ev->node, "unlink_owned");
    } else {
        s->takeover = 1;
        why = takeover_edits(l, s, ev);
    }
    for (size_t i = 0; i < s->n_edits && !why; i++)
        if (!lockrt_free_at(l->m, s->edits[i].call))
            why = lf_xasprintf("the name `lockrt` is bound to something other than the vendored binding at line %u",
                               lf_py_line(l->m->src, s->edits[i].call));
    return why ? declined(s, why) : s;
}

void lf301_py_site_free(void *site) {
    lf301_py_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s->edits);
    free(s);
}
