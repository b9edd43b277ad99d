/* LF103: appends to a shared log or journal (JSONL) whose only exclusivity is
 * the exclusive create of its first write: `openSync(file, "wx")` (Node) or
 * `open(path, "x")` / `os.open(path, O_CREAT | O_EXCL)` (Python) on the first
 * flush, then `appendFileSync` / `open(path, "a")` with no writer lock. The
 * create only decides who writes first; every later writer of the same file
 * (two processes resuming one session) appends alongside it and the records
 * interleave.
 *
 * Reported at each append to a path the module also creates exclusively, when
 * no lock is held where the append runs: the appending function takes no lock
 * (a lock library, an exclusive create of a lock, a flock, a call of something
 * named lock/acquire; in TS/JS also a callback handed to such a call) and the
 * log itself is not locked. Python rides on lf_pylock, TS/JS on lf_tslock. */
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pygate.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

static void emit(lf_check_ctx *ctx, TSNode call, TSNode target, TSNode create) {
    const lf_source *src = lf_ctx_source(ctx);
    char *c = lf_py_short(src, call), *what = lf_py_short(src, target);
    char *msg = lf_xasprintf("%s appends to %s, whose only exclusivity is the exclusive create on line %u: that "
                             "decides who writes first, not who writes, so a second process appending to the same "
                             "file interleaves its records with this one's (hold a single-writer lock, e.g. "
                             "lockrt's exclusive lock, for as long as the file is written)",
                             c, what, lf_py_line(src, create));
    lf_ctx_emit(ctx, call, msg, SIZE_MAX);
    lf_ctx_witness(ctx, lf_wit_append(src, create, call, target));
    free(msg);
    free(c);
    free(what);
}

void lf103_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    lf_tslock *l = lf_tslock_build(m);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *ev = &l->events[i];
        if (ev->kind != LF_TSEV_APPEND || ev->key < 0 || !(l->keys[ev->key].flags & LF_TSLOCK_CREATED))
            continue;
        if (lf_ts_lock_held(m, l, ev->node))
            continue;
        TSNode create = {0};
        for (size_t j = 0; j < l->n_events && ts_node_is_null(create); j++)
            if (l->events[j].kind == LF_TSEV_CREATE && l->events[j].key == ev->key)
                create = l->events[j].node;
        if (!ts_node_is_null(create))
            emit(ctx, ev->node, ev->target, create);
    }
}

/* ---- Python ---- */

static const char *const k_open[] = {"open", "io.open", "codecs.open", NULL};
static const char *const k_path_open[] = {"pathlib.Path.open", NULL};
static const char *const k_os_open[] = {"os.open", NULL};

/* The mode is a literal open() accepts that starts with c ("a", "ab", "a+";
 * "x", "xb"): lf_pylock_open_mode, which the prefilter's quoted modes follow. */
static int mode_has(const lf_source *src, TSNode mode, char c) { return lf_pylock_open_mode(src, mode, c, 1); }

/* An append: open(p, "a"), Path(p).open("a"), os.open(p, ...O_APPEND...). */
static int py_append(lf_pysem *m, TSNode call, TSNode *target) {
    const lf_source *src = m->src;
    if (lf_pylock_callee_any(m, call, k_open)) {
        *target = lf_pylock_arg(m, call, 0, "file");
        return mode_has(src, lf_pysem_resolve_value(m, lf_pylock_arg(m, call, 1, "mode")), 'a');
    }
    if (lf_pylock_callee_any(m, call, k_os_open)) {
        *target = lf_pylock_arg(m, call, 0, "path");
        TSNode fl = lf_pylock_arg(m, call, 1, "flags");
        return !ts_node_is_null(fl) && lf_ts_text_has(src, fl, "O_APPEND") && !lf_ts_text_has(src, fl, "O_EXCL");
    }
    if (lf_pylock_callee_any(m, call, k_path_open)) {
        TSNode fn = lf_tree_field(call, "function");
        *target = lf_tree_field(fn, "object");
        return mode_has(src, lf_pysem_resolve_value(m, lf_pylock_arg(m, call, 0, "mode")), 'a');
    }
    return 0;
}

/* The exclusive create (open "x" / os.open O_EXCL) of the file key k names, or null. */
static TSNode py_create(lf_pysem *m, lf_pylock *l, const lf_pkey *key) {
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node, target = {0};
        int excl = 0;
        if (lf_pylock_callee_any(m, call, k_open)) {
            target = lf_pylock_arg(m, call, 0, "file");
            excl = mode_has(m->src, lf_pysem_resolve_value(m, lf_pylock_arg(m, call, 1, "mode")), 'x');
        } else if (lf_pylock_callee_any(m, call, k_os_open)) {
            target = lf_pylock_arg(m, call, 0, "path");
            excl = lf_ts_text_has(m->src, lf_pylock_arg(m, call, 1, "flags"), "O_EXCL");
        }
        if (!excl || ts_node_is_null(target))
            continue;
        lf_pkey k = lf_pylock_key_of(l, target);
        if (lf_pylock_key_eq(m, &k, key))
            return call;
    }
    return (TSNode){0};
}

typedef struct py_append_site {
    TSNode call, target, create;
    lf_pkey key;
} py_append_site;

static void py_run(lf_check_ctx *ctx) {
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    lf_pylock *l = NULL; /* built only for a module that appends */
    LF_VEC(py_append_site) apps = {0};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode target = {0};
        if (!py_append(m, m->calls[i].node, &target) || ts_node_is_null(target))
            continue;
        if (!l)
            l = lf_pylock_build(m);
        py_append_site a;
        memset(&a, 0, sizeof a);
        a.call = m->calls[i].node;
        a.target = target;
        a.key = lf_pylock_key_of(l, target);
        a.create = py_create(m, l, &a.key);
        if (!ts_node_is_null(a.create))
            LF_VEC_PUSH(&apps, a);
    }
    /* a lock taken in the appending function, or on the log itself */
    for (size_t a = 0; a < apps.len; a++) {
        /* a lock acquired in the appending function: any acquisition but the
         * exclusive create of the log itself (lf_pylock reads a handled
         * O_EXCL create as taking a lock) */
        int32_t scope = lf_pysem_scope_of(m, apps.items[a].call);
        int held = 0;
        for (size_t e = 0; e < l->n_events && !held; e++) {
            const lf_pylock_event *ev = &l->events[e];
            if (ev->kind == LF_PYEV_ACQUIRE && ev->scope == scope &&
                (ev->key < 0 || !lf_pylock_key_eq(m, &apps.items[a].key, &l->keys[ev->key].key)))
                held = 1;
        }
        for (size_t k = 0; k < l->n_keys && !held; k++)
            if (lf_pylock_key_eq(m, &apps.items[a].key, &l->keys[k].key) &&
                (l->keys[k].flags & (LF_LOCK_FLOCK | LF_LOCK_MSVCRT | LF_LOCK_HELPER)))
                held = 1;
        if (!held)
            emit(ctx, apps.items[a].call, apps.items[a].target, apps.items[a].create);
    }
    LF_VEC_FREE(&apps);
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx))
        lf103_ts_run(ctx);
    else
        py_run(ctx);
}

/* ---- the gate: could anything here both append and create exclusively? ----
 *
 * py_run reports an append (open, io.open, codecs.open or Path.open with an
 * "a" mode; os.open with O_APPEND) only to a file the module also creates
 * exclusively ("x" mode; os.open with O_EXCL). A mode is the literal itself
 * or the literal a name is bound to (lf_pysem_resolve_value). The prefilter
 * finds the quoted modes, and in a library most 'a' and 'x' are a symbol, a
 * letter, a key. So, on the text with comments and strings blanked, the file
 * holds neither when its code never says `open`, or never says O_APPEND and
 * has no "a" mode that may reach an open(), or never says O_EXCL and has no
 * "x" mode that may. A literal reaches no open() when it is a whole argument
 * (after `(`, `,` or a keyword's `=`) of a call whose name is not open, and
 * not a default in a def's or a class's parameters: `Symbol('x')`,
 * `f(a, 'x')`, `dict(k='a')`. Anywhere else (bound to a name, in a tuple, a
 * list, an expression) it may. */
static int mode_reaches_open(const char *m, size_t n, size_t content, size_t open) {
    size_t q = content;
    while (q > 0 && (m[q - 1] == '\'' || m[q - 1] == '"'))
        q--;
    while (q > 0 && strchr("rRbBuU", m[q - 1]) && m[q - 1])
        q--;
    size_t prev = lf_pygate_back_any(m, q);
    if (prev == LF_PYGATE_NONE)
        return 1;
    char c = m[prev];
    if (c == '=' ? prev > 0 && strchr("=<>!:", m[prev - 1]) && m[prev - 1] : c != '(' && c != ',')
        return 1;
    if (c == '=') { /* a keyword argument: `name=` right after `(` or `,` (not `lambda mode='a'`) */
        size_t k = lf_pygate_back_any(m, prev);
        if (k == LF_PYGATE_NONE || !lf_pygate_ident_byte((unsigned char)m[k]))
            return 1;
        size_t before = lf_pygate_back_any(m, lf_pygate_name_start(m, k + 1));
        if (before == LF_PYGATE_NONE || (m[before] != '(' && m[before] != ','))
            return 1;
    }
    if (open == LF_PYGATE_NONE || m[open] != '(')
        return 1;
    size_t w = lf_pygate_back_any(m, open);
    if (w == LF_PYGATE_NONE || lf_pygate_word(m, n, w, 1) < 0 || !lf_pygate_ident_byte((unsigned char)m[w]))
        return 1; /* a tuple's parentheses, `f()(...)`, a name with a non-ASCII letter */
    size_t ws = lf_pygate_name_start(m, w + 1);
    if ((ws > 0 && (unsigned char)m[ws - 1] >= 0x80) || lf_pygate_is(m, ws, w + 1 - ws, "open") ||
        lf_pygate_keyword(m, ws, w + 1 - ws))
        return 1;
    return lf_pygate_word_before(m, n, ws, "def") || lf_pygate_word_before(m, n, ws, "class");
}

static int gate(lf_gate_text *in) {
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    const char *m = mk->m;
    size_t n = in->len;
    if (!m || !mk->balanced)
        return 1;
    static const char *const opens[] = {"open", NULL}, *const appends[] = {"O_APPEND", NULL},
                             *const excls[] = {"O_EXCL", NULL};
    if (!lf_pygate_says_any(m, n, opens))
        return 0;
    int append = lf_pygate_says_any(m, n, appends), create = lf_pygate_says_any(m, n, excls);
    if (append && create)
        return 1;
    /* one forward pass: the innermost open bracket around each mode literal */
    LF_VEC(size_t) stack = {0};
    size_t next = 0;
    for (size_t i = 0; i < n && next < mk->n_modes && !(append && create); i++) {
        if (i == mk->modes[next].at) {
            size_t encl = stack.len ? stack.items[stack.len - 1] : LF_PYGATE_NONE, tl = mk->modes[next].len;
            const char *t = in->text + i;
            int a = lf_pygate_mode_text(t, tl, 'a', 1), x = lf_pygate_mode_text(t, tl, 'x', 1);
            if (((a && !append) || (x && !create)) && mode_reaches_open(m, n, i, encl)) {
                append |= a;
                create |= x;
            }
            next++;
        }
        if (m[i] == '(' || m[i] == '[' || m[i] == '{')
            LF_VEC_PUSH(&stack, i);
        else if ((m[i] == ')' || m[i] == ']' || m[i] == '}') && stack.len)
            stack.len--;
    }
    LF_VEC_FREE(&stack);
    return append && create;
}

const lf_check lf103_unlocked_append_check = {"lf103_unlocked_append", run, 0, 0, gate}; /* asks the model, not the query */
