/* lf_tslock: lock identity by use for TS/JS modules (see lf_tslock.h). */
#include "lf_tslock.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lf_cfg.h"
#include "lf_tscfg.h"
#include "lf_tsowner.h"
#include "lf_tree.h"
#include "lf_util.h"

enum { MAX_ROUNDS = 6 };

int32_t lf_tslock_fn_of(const lf_tssem *m, int32_t scope) {
    return scope > 0 ? m->scopes[scope].fn : scope;
}

/* What a `.text()`/`.json()` call on a Bun file handle is: "readFile" for
 * its text, "readJson" for its parsed JSON, else NULL. */
static const char *bun_read_method(lf_tssem *m, TSNode member) {
    TSNode prop = lf_tree_field(member, "property");
    TSNode c = ts_node_parent(member);
    if (!lf_tree_is(c, "call_expression") || !ts_node_eq(lf_tree_field(c, "function"), member))
        return NULL;
    if (lf_tree_text_eq(m->src, prop, "json"))
        return "readJson";
    return lf_tree_text_eq(m->src, prop, "text") || lf_tree_text_eq(m->src, prop, "arrayBuffer") ||
                   lf_tree_text_eq(m->src, prop, "bytes")
               ? "readFile"
               : NULL;
}

typedef struct bun_walk {
    lf_tssem *m;
    TSNode name;
    const char *op;
} bun_walk;

static lf_walk_action bun_handle_read(TSNode n, void *ud) {
    bun_walk *w = ud;
    if (w->op)
        return LF_WALK_STOP;
    if (lf_tree_is(n, "member_expression") && lf_tree_is(lf_tree_field(n, "object"), "identifier") &&
        lf_tree_equal(w->m->src, lf_tree_field(n, "object"), w->m->src, w->name, 0))
        w->op = bun_read_method(w->m, n);
    return LF_WALK_CONTINUE;
}

/* `Bun.file(p)` reads p where its text or JSON is taken: `Bun.file(p).text()`,
 * or `const f = Bun.file(p); ... await f.json()` in the same function. A
 * handle only tested (`.exists()`) or written reads nothing. */
static const char *bun_file_read(lf_tssem *m, TSNode call) {
    TSNode p = ts_node_parent(call);
    if (lf_tree_is(p, "member_expression") && ts_node_eq(lf_tree_field(p, "object"), call))
        return bun_read_method(m, p);
    if (!lf_tree_is(p, "variable_declarator") || !lf_tree_is(lf_tree_field(p, "name"), "identifier"))
        return NULL;
    int32_t s = lf_tssem_scope_of(m, call);
    bun_walk w = {m, lf_tree_field(p, "name"), NULL};
    lf_tree_walk(m->scopes[s].node, bun_handle_read, &w);
    return w.op;
}

/* A method of a Bun file handle (`Bun.file(p).delete()`, or `f.exists()`
 * with `const f = Bun.file(p)`), or of a path class's object (`const v =
 * Path.from(p); await v.stat()`): the Bun.file or Path.from call, *op what
 * the method does to p; null otherwise. A Bun file's text and JSON are reads
 * of Bun.file itself (bun_file_read). */
static TSNode bun_handle_call(lf_tssem *m, TSNode call, const char **op) {
    static const char *const methods[][2] = {{"exists", "exists"}, {"stat", "stat"}, {"delete", "unlink"},
                                             {"unlink", "unlink"}};
    TSNode fn = lf_tree_field(call, "function");
    if (!lf_tree_is(fn, "member_expression"))
        return (TSNode){0};
    TSNode prop = lf_tree_field(fn, "property");
    *op = NULL;
    for (size_t i = 0; i < sizeof methods / sizeof *methods && !*op; i++)
        if (lf_tree_text_eq(m->src, prop, methods[i][0]))
            *op = methods[i][1];
    if (!*op)
        return (TSNode){0};
    TSNode h = lf_tssem_unwrap(lf_tree_field(fn, "object"));
    if (lf_tree_is(h, "identifier"))
        h = lf_tssem_unwrap(lf_tssem_resolve_value(m, h));
    const char *q = lf_tree_is(h, "call_expression") ? lf_tssem_callee(m, h) : NULL;
    int path_object = lf_tree_is(h, "call_expression") && lf_tssem_path_class_conversion(m, h);
    if ((!q || strcmp(q, "Bun.file") != 0) && !path_object)
        return (TSNode){0};
    return h;
}

TSNode lf_tslock_fs_path(lf_tssem *m, TSNode call) {
    const char *op;
    TSNode h = bun_handle_call(m, call, &op);
    return lf_tssem_arg(ts_node_is_null(h) ? call : h, 0);
}

const char *lf_tslock_fs_op(lf_tssem *m, TSNode call) {
    const char *q = lf_tssem_callee(m, call);
    const char *bun_op = NULL;
    if (!ts_node_is_null(bun_handle_call(m, call, &bun_op)))
        return bun_op;
    if (!q)
        return NULL;
    const char *op = NULL;
    /* the creates of the lockrt.cjs LF301's fix vendors are the same creates
     * (its releases are identity-bound: no removal by name); its takeover's
     * judgements are the same reads and stats, and its judged removals still
     * take the lock over (LF301 reports them no more, checks/lf301_ts.c; the
     * break of a live holder by age they still are, LF302, stays) */
    if (strncmp(q, "./lockrt.cjs.", 13) == 0) {
        static const char *const as[][2] = {
            {"writeFileExclusiveSync", "writeFile"}, {"writeFileExclusive", "writeFile"},
            {"openExclusiveSync", "open"},           {"openExclusive", "open"},
            {"readFileJudgedSync", "readFile"},
            {"readFileJudged", "readFile"},          {"statJudgedSync", "stat"},
            {"statJudged", "stat"},                  {"lstatJudgedSync", "lstat"},
            {"lstatJudged", "lstat"},                {"unlinkJudgedSync", "unlink"},
            {"unlinkJudged", "unlink"},              {"rmJudgedSync", "rm"},
            {"rmJudged", "rm"},                      {"unlinkBoundSync", "unlink"},
            {"unlinkBound", "unlink"},               {"rmBoundSync", "rm"},
            {"rmBound", "rm"},                       {"mkdirExclusiveSync", "mkdir"},
            {"mkdirExclusive", "mkdir"},             {"rmdirJudgedSync", "rmdir"},
            {"rmdirJudged", "rmdir"},                {"rmdirBoundSync", "rmdir"},
            {"rmdirBound", "rmdir"},
        };
        for (size_t i = 0; i < sizeof as / sizeof *as; i++)
            if (!strcmp(q + 13, as[i][0]))
                return as[i][1];
        return NULL;
    }
    /* Bun's file API (opencode's plugins run on Bun): `Bun.write(p, data)`
     * writes p; `Bun.file(p)` reads it where its text or JSON is taken */
    if (strcmp(q, "Bun.write") == 0)
        return "writeFile";
    if (strcmp(q, "Bun.file") == 0)
        return bun_file_read(m, call);
    if (strncmp(q, "fs/promises.", 12) == 0)
        op = q + 12;
    else if (strncmp(q, "fs.", 3) == 0)
        op = q + 3;
    else if (strcmp(q, "rimraf") == 0 || strncmp(q, "rimraf.", 7) == 0 || strcmp(q, "del") == 0 ||
             strncmp(q, "del.", 4) == 0)
        return "rm";
    if (!op || strchr(op, '.') != NULL) {
        if (op && strcmp(op, "realpathSync.native") == 0)
            return "realpath";
        if (op && strcmp(op, "realpath.native") == 0)
            return "realpath";
        return NULL;
    }
    size_t n = strlen(op);
    if (n > 4 && strcmp(op + n - 4, "Sync") == 0)
        n -= 4;
    /* fs-extra spells its JSON forms both ways (readJSON is readJson) */
    if (n > 4 && strncmp(op + n - 4, "JSON", 4) == 0) {
        char spelled[64];
        if (n >= sizeof spelled)
            return NULL;
        memcpy(spelled, op, n - 3);
        memcpy(spelled + n - 3, "son", 3);
        return lf_tssem_intern(m, spelled, n);
    }
    return n == strlen(op) ? op : lf_tssem_intern(m, op, n);
}

static int op_in(const char *op, const char *const *set) {
    for (size_t i = 0; op && set[i]; i++)
        if (strcmp(op, set[i]) == 0)
            return 1;
    return 0;
}

static const char *const k_remove[] = {"rm", "unlink", "rmdir", "remove", "emptyDir", NULL};
static const char *const k_presence[] = {"stat", "lstat", "exists", "access", "pathExists", NULL};
static const char *const k_content[] = {"readFile", "readJson", "readJSON", "readlink", NULL};
/* Reads that tell whether a process exists when aimed at /proc/<pid>. */
static const char *const k_proc_reads[] = {"readFile", "readlink", "exists", "stat", "lstat", "access", "readdir", NULL};
/* Lock libraries whose argument is the lock file itself. */
static const char *const k_lock_libs[] = {"lockfile.lock", "lockfile.lockSync", "lockfile.check",
                                          "lockfile.checkSync",
                                          /* the protocol swap's lock (fixes/lf_tsswap.c) */
                                          "./lockrt.cjs.takeLock", "./lockrt.cjs.takeLockSync",
                                          "./lockrt.cjs.takeLockDir", "./lockrt.cjs.takeLockDirSync", NULL};
/* Their releases: npm lockfile's unlock unlinks the path by name. */
static const char *const k_lock_lib_releases[] = {"lockfile.unlock", "lockfile.unlockSync", NULL};

/* Does this npm lockfile take (`lockfile.lock(p, { stale: 10000 }, cb)`)
 * break stale locks: an options object, or a name bound to one, with a
 * `stale` property? The library then unlinks a lock older than that by its
 * mtime and takes it, whether its holder is alive or only slow. */
static int lockfile_breaks_stale(lf_tssem *m, const char *callee, TSNode call) {
    if (strcmp(callee, "lockfile.lock") != 0 && strcmp(callee, "lockfile.lockSync") != 0)
        return 0;
    TSNode o = lf_tssem_resolve_value(m, lf_tssem_arg(call, 1));
    if (!lf_tree_is(o, "object"))
        return 0;
    uint32_t n = ts_node_named_child_count(o);
    for (uint32_t i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(o, i);
        if ((lf_tree_is(p, "pair") && lf_tree_text_eq(m->src, lf_tree_field(p, "key"), "stale")) ||
            (lf_tree_is(p, "shorthand_property_identifier") && lf_tree_text_eq(m->src, p, "stale")))
            return 1;
    }
    return 0;
}

/* Lock libraries that lock a resource (their own lock path is theirs). */
static const char *const k_resource_locks[] = {"proper-lockfile.lock", "proper-lockfile.lockSync",
                                               "proper-lockfile", "async-lock", "lockrt.exclusiveLock",
                                               "lockrt.exclusiveLockSync", "lockrt.withExclusiveLock", "lockrt.exclusiveLockAsync",
                                               "lockrt.withExclusiveLockAsync", NULL};

/* A flags literal exactly as spelled between its quotes, malloc'd; NULL for
 * anything else, escapes and substitutions included: Node takes only a few
 * short plain spellings, and a flag that is visible verbatim in the source is
 * what lets the rules' TS/JS prefilters look for `'wx` and `"a'` (rules/README.md). */
static char *flag_literal(const lf_source *src, TSNode n) {
    n = lf_tree_unparen(n);
    if (!lf_tree_is(n, "string") && !lf_tree_is(n, "template_string"))
        return NULL;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b - a < 2 || b - a > 8)
        return NULL;
    const char *t = src->text + a + 1;
    size_t len = b - a - 2;
    if (memchr(t, '\\', len) || memchr(t, '$', len))
        return NULL;
    return lf_xstrndup(t, len);
}

/* The flags argument's value: the argument itself, or an options object's
 * `flag` (`{ flag: FLAGS }`), each followed to what a const holds (`const FLAGS
 * = constants.O_CREAT | constants.O_EXCL`). */
static TSNode flag_value(lf_tssem *m, TSNode arg) {
    arg = lf_tssem_resolve_value(m, arg);
    if (ts_node_is_null(arg) || !lf_tree_is(arg, "object"))
        return arg;
    uint32_t k = ts_node_named_child_count(arg);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(arg, i);
        if (!lf_tree_is(p, "pair"))
            continue;
        TSNode key = lf_tree_field(p, "key");
        if (lf_tree_text_eq(m->src, key, "flag") || lf_tree_text_eq(m->src, key, "flags"))
            return lf_tssem_resolve_value(m, lf_tree_field(p, "value"));
    }
    return (TSNode){0};
}

/* The flags string of an open/writeFile/createWriteStream (the literal, or an
 * object's `flag`/`flags`), malloc'd; NULL when not a plain literal. */
static char *flags_of(lf_tssem *m, TSNode arg) {
    TSNode v = flag_value(m, arg);
    return ts_node_is_null(v) ? NULL : flag_literal(m->src, v);
}

static int flag_is(const char *f, const char *const *set) {
    for (size_t i = 0; f && set[i]; i++)
        if (!strcmp(f, set[i]))
            return 1;
    return 0;
}
/* Node's exclusive flags, and its append flags (any other string throws). */
static const char *const k_excl_flags[] = {"wx", "wx+", "ax", "ax+", NULL};
static const char *const k_append_flags[] = {"a", "a+", "ax", "ax+", "as", "as+", NULL};

/* A flag chosen between an exclusive create and a plain write (`{ flag:
 * force ? "w" : "wx" }`): the module's acquire, whose forced form is its
 * takeover by overwriting; the create is what makes the path a lock. */
static int excl_choice(lf_tssem *m, TSNode v) {
    v = lf_tree_unparen(v);
    if (!lf_tree_is(v, "ternary_expression"))
        return 0;
    char *a = flag_literal(m->src, lf_tree_field(v, "consequence"));
    char *b = flag_literal(m->src, lf_tree_field(v, "alternative"));
    int excl = (flag_is(a, k_excl_flags) && b && (!strcmp(b, "w") || !strcmp(b, "w+"))) ||
               (flag_is(b, k_excl_flags) && a && (!strcmp(a, "w") || !strcmp(a, "w+")));
    free(a);
    free(b);
    return excl;
}

/* An open for a plain (truncating) write: "w", "w+". */
static int f_is_write(lf_tssem *m, TSNode fl) {
    char *f = flags_of(m, fl);
    int w = f && (!strcmp(f, "w") || !strcmp(f, "w+"));
    free(f);
    return w;
}

/* A read-only open: no flag (Node's default is "r"), or "r"/"rs". */
static int f_is_read(lf_tssem *m, TSNode fl) {
    if (ts_node_is_null(fl))
        return 1;
    char *f = flags_of(m, fl);
    int r = f && (!strcmp(f, "r") || !strcmp(f, "rs"));
    free(f);
    return r;
}

static int mentions(const lf_source *src, TSNode n, const char *needle) {
    if (ts_node_is_null(n))
        return 0;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return memmem(src->text + a, b - a, needle, strlen(needle)) != NULL;
}

/* `{ recursive: true }` */
static int recursive_opt(lf_tssem *m, TSNode arg) {
    arg = lf_tssem_resolve_value(m, arg);
    if (!lf_tree_is(arg, "object"))
        return 0;
    uint32_t k = ts_node_named_child_count(arg);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(arg, i);
        if (lf_tree_is(p, "pair") && lf_tree_text_eq(m->src, lf_tree_field(p, "key"), "recursive") &&
            !lf_tree_text_eq(m->src, lf_tree_field(p, "value"), "false"))
            return 1;
        if (lf_tree_is(p, "shorthand_property_identifier") && lf_tree_text_eq(m->src, p, "recursive"))
            return 1;
    }
    return 0;
}

/* Does a walk up the tree from a node inside a function stop at n: a
 * function of any form, or the program? */
static int function_boundary(TSNode n) {
    const char *t = ts_node_type(n);
    return !strcmp(t, "arrow_function") || !strcmp(t, "function_declaration") || !strcmp(t, "function_expression") ||
           !strcmp(t, "method_definition") || !strcmp(t, "program");
}

/* The scope an event's call runs in (the innermost: a callback's own), or
 * the event's function when its node is no recorded call. */
static int32_t event_scope(const lf_tssem *m, const lf_tslock_event *ev) {
    const lf_tscall *c = lf_tssem_call(m, ev->node);
    return c ? c->scope : ev->fn;
}

/* Is scope `inner` the scope `outer` or nested in it? */
static int scope_within(const lf_tssem *m, int32_t inner, int32_t outer) {
    for (int32_t s = inner; s >= 0; s = m->scopes[s].parent)
        if (s == outer)
            return 1;
    return 0;
}

/* Does callback scope `cb` run as a step of its enclosing code: the call it
 * is handed to is awaited or its value used (`await withRetry(() =>
 * stat(p))`, `const r = await f(() => ...)`), not a handler registered to run
 * later (`.action(async () => stop())` as a statement of its own)? */
static int callback_runs_inline(const lf_tssem *m, int32_t cb) {
    TSNode cur = m->scopes[cb].node;
    for (int steps = 0; steps < 32; steps++) {
        TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p) || function_boundary(p))
            return 0;
        const char *t = ts_node_type(p);
        if (!strcmp(t, "await_expression") || !strcmp(t, "variable_declarator") ||
            !strcmp(t, "assignment_expression") || !strcmp(t, "return_statement"))
            return 1;
        if (!strcmp(t, "expression_statement"))
            return 0;
        cur = p;
    }
    return 0;
}

/* Did a look made in scope `look` run before a removal in scope `rm` of the
 * same declared function: `look` is `rm` or encloses it, or the callbacks
 * between `look` and the scope they share run inline (awaited steps). A look
 * in a sibling handler registered to run later did not. */
static int look_precedes(const lf_tssem *m, int32_t look, int32_t rm) {
    if (scope_within(m, rm, look))
        return 1;
    for (int32_t s = look; s >= 0 && !scope_within(m, rm, s); s = m->scopes[s].parent)
        if (!callback_runs_inline(m, s))
            return 0;
    return 1;
}

/* Is a call's failure handled around it in its own function: a
 * `.catch`/`.then` on its promise, or a try whose catch does something?
 * *at_boundary says whether the walk reached the function's edge. */
static int handled_around(lf_tssem *m, TSNode call, int *at_boundary) {
    TSNode cur = call;
    for (int steps = 0; steps < 64; steps++) {
        TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p))
            return 0;
        const char *t = ts_node_type(p);
        if (!strcmp(t, "member_expression") && ts_node_eq(lf_tree_field(p, "object"), cur) &&
            (lf_tree_text_eq(m->src, lf_tree_field(p, "property"), "catch") ||
             lf_tree_text_eq(m->src, lf_tree_field(p, "property"), "then")))
            return 1;
        if (!strcmp(t, "try_statement") && ts_node_eq(lf_tree_field(p, "body"), cur)) {
            TSNode body = lf_tree_field(lf_tree_field(p, "handler"), "body");
            if (!ts_node_is_null(body) && lf_tree_child_count(body) > 0)
                return 1;
        }
        if (function_boundary(p)) {
            *at_boundary = strcmp(t, "program") != 0;
            return 0;
        }
        cur = p;
    }
    return 0;
}

typedef struct result_probe {
    const lf_source *src;
    const char *name;
    int found;
} result_probe;

static lf_walk_action visit_result_error(TSNode n, void *ud) {
    result_probe *rp = ud;
    if (lf_tree_is(n, "member_expression")) {
        TSNode obj = lf_tree_field(n, "object"), prop = lf_tree_field(n, "property");
        if (lf_tree_is(obj, "identifier") && lf_tree_text_eq(rp->src, obj, rp->name) &&
            (lf_tree_text_eq(rp->src, prop, "error") || lf_tree_text_eq(rp->src, prop, "err"))) {
            rp->found = 1;
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* A create through an fs wrapper that returns its failure instead of throwing
 * it (`const r = await fse.mkdir(dir); if (r.fails && r.error.code === "EEXIST")`,
 * @zokugun/fs-extra-plus): the function that binds the result and reads its
 * error handles the create's failure. */
static int failure_returned(lf_tssem *m, TSNode call) {
    TSNode v = call, p = ts_node_parent(call);
    while (!ts_node_is_null(p) && (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression"))) {
        v = p;
        p = ts_node_parent(p);
    }
    if (!lf_tree_is(p, "variable_declarator") || !ts_node_eq(lf_tree_field(p, "value"), v))
        return 0;
    TSNode id = lf_tree_field(p, "name");
    if (!lf_tree_is(id, "identifier"))
        return 0;
    TSNode body = p;
    for (int steps = 0; steps < 64 && !ts_node_is_null(body) && !function_boundary(body); steps++)
        body = ts_node_parent(body);
    if (ts_node_is_null(body))
        return 0;
    char *name = lf_tree_text(m->src, id);
    result_probe rp = {.src = m->src, .name = name, .found = 0};
    lf_tree_walk(body, visit_result_error, &rp);
    free(name);
    return rp.found;
}

/* Is the failure of an exclusive create handled where it is made: an
 * error-first callback, a `.catch(...)` on its promise, or a try whose catch
 * does something, around the create or around a call of the module's
 * function that makes it? Then the code relies on the create's exclusivity
 * (a lock); an unguarded create just makes a file or directory. */
static int failure_handled(lf_tssem *m, TSNode call) {
    size_t n = lf_tssem_nargs(call);
    TSNode last = n ? lf_tssem_unwrap(lf_tssem_arg(call, (uint32_t)n - 1)) : (TSNode){0};
    if (lf_tree_is(last, "arrow_function") || lf_tree_is(last, "function_expression") || lf_tree_is(last, "function"))
        return 1;
    /* callback form handing the error on to a callback it was given
     * (`fs.writeFile(p, pid, { flag: "wx" }, callback)`): the caller's
     * callback gets EEXIST, so the create's exclusivity is relied on */
    if (n >= 2 && lf_tree_is(last, "identifier")) {
        const char *q = lf_tssem_callee(m, call);
        size_t ql = q ? strlen(q) : 0;
        const lf_tscall *c = lf_tssem_call(m, call);
        uint32_t a = ts_node_start_byte(last), b = ts_node_end_byte(last);
        const lf_tsbinding *bd =
            c ? lf_tssem_binding_at(m, c->scope, lf_tssem_intern(m, m->src->text + a, b - a), a) : NULL;
        if (ql > 0 && !(ql > 4 && !strcmp(q + ql - 4, "Sync")) && bd && bd->kind == LF_TSBIND_PARAM)
            return 1;
    }
    int at_boundary = 0;
    if (handled_around(m, call, &at_boundary) || failure_returned(m, call))
        return 1;
    /* a create in the module's own function (`const write = () =>
     * openSync(p, "wx")`) that a call handles the failure of: that caller
     * relies on the exclusivity (one level of calls) */
    int32_t s = at_boundary ? lf_tssem_scope_of(m, call) : -1;
    int calls = 0;
    for (int32_t c = s > 0 ? lf_tssem_first_caller(m, s) : -1; c >= 0 && calls < 16;
         c = lf_tssem_next_caller(m, c), calls++) {
        int ignored = 0;
        if (handled_around(m, m->calls[c].node, &ignored))
            return 1;
    }
    return 0;
}

/* Does a path expression name something under /proc/<pid> (not /proc/self,
 * not /proc/meminfo): `path.join("/proc", pid, "cmdline")`, `/proc/${pid}`,
 * "/proc/" + pid? Reading it is a liveness probe of pid. */
static int proc_pid_path(lf_tssem *m, TSNode p) {
    p = lf_tssem_resolve_value(m, p);
    if (lf_tree_is(p, "call_expression")) {
        const char *c = lf_tssem_callee(m, p);
        if (!c || (strcmp(c, "path.join") != 0 && strcmp(c, "path.resolve") != 0) || lf_tssem_nargs(p) < 2)
            return 0;
        char *first = lf_tssem_name_string(m->src, lf_tssem_unwrap(lf_tssem_arg(p, 0)));
        int proc = first && (!strcmp(first, "/proc") || !strcmp(first, "/proc/"));
        free(first);
        TSNode second = lf_tssem_unwrap(lf_tssem_arg(p, 1));
        return proc && !lf_tree_is(second, "string") && !lf_tree_is(second, "template_string");
    }
    TSNode head = p;
    if (lf_tree_is(p, "binary_expression"))
        head = lf_tssem_unwrap(lf_tree_field(p, "left"));
    else if (!lf_tree_is(p, "template_string"))
        return 0;
    uint32_t a = ts_node_start_byte(head), b = ts_node_end_byte(head);
    const char *t = m->src->text + a;
    /* a literal "/proc/" followed by something computed */
    if (lf_tree_is(p, "template_string"))
        return b - a > 8 && !strncmp(t, "`/proc/${", 9);
    return (lf_tree_is(head, "string") && b - a == 8 && !strncmp(t + 1, "/proc/", 6));
}

/* What a written value holds when it is a name: the variable's value, or a
 * field's (`this.pidString = \`${process.pid}\``), one hop. */
static TSNode written_value(lf_tssem *m, TSNode v) {
    v = lf_tssem_unwrap(v);
    /* `JSON.stringify(lockData, null, 2)`: the record serialised */
    if (lf_tree_is(v, "call_expression")) {
        const char *q = lf_tssem_callee(m, v);
        if (!q || strcmp(q, "JSON.stringify") != 0)
            return (TSNode){0};
        v = lf_tssem_unwrap(lf_tssem_arg(v, 0));
    }
    if (lf_tree_is(v, "identifier"))
        return lf_tssem_resolve_value(m, v);
    return lf_tssem_this_field_value(m, v);
}

/* Is the existence test `look` the whole condition of an `if` whose only
 * statement removes the path it tests (`if (existsSync(p)) unlinkSync(p)`)? */
static int guards_only_its_removal(lf_tssem *m, TSNode look) {
    const char *op = lf_tslock_fs_op(m, look);
    if (!op || (strcmp(op, "exists") && strcmp(op, "access") && strcmp(op, "pathExists")))
        return 0;
    TSNode cond = look, ifs = ts_node_parent(look);
    while (lf_tree_is(ifs, "parenthesized_expression") || lf_tree_is(ifs, "await_expression")) {
        cond = ifs;
        ifs = ts_node_parent(ifs);
    }
    if (!lf_tree_is(ifs, "if_statement") || !ts_node_eq(lf_tree_field(ifs, "condition"), cond) ||
        !ts_node_is_null(lf_tree_field(ifs, "alternative")))
        return 0;
    TSNode st = lf_tree_field(ifs, "consequence");
    if (lf_tree_is(st, "statement_block")) {
        if (ts_node_named_child_count(st) != 1)
            return 0;
        st = ts_node_named_child(st, 0);
    }
    if (!lf_tree_is(st, "expression_statement"))
        return 0;
    TSNode call = lf_tssem_unwrap(ts_node_named_child(st, 0));
    const char *rop = lf_tree_is(call, "call_expression") ? lf_tslock_fs_op(m, call) : NULL;
    return rop && op_in(rop, k_remove) &&
           lf_tree_same_text(m->src, lf_tssem_unwrap(lf_tssem_arg(call, 0)), lf_tssem_unwrap(lf_tssem_arg(look, 0)));
}

typedef struct builder {
    lf_tslock *l;
    LF_VEC(lf_tslock_key) keys;
    LF_VEC(lf_tslock_event) events;
    const char **slot_key; /* interned key -> index, open addressing */
    int32_t *slot_idx;
    size_t cap;
} builder;

/* Is a path key spelled with a part unique to this process or this call
 * (`${target}.tmp.${process.pid}.${randomUUID()}`)? No other process ever
 * opens that name, so it excludes no one: an atomic write's temp, never a lock
 * (a lock's name is shared by every process it excludes). */
static int unique_name(const char *key) {
    static const char *const parts[] = {"process.pid", "randomUUID(", "randomBytes(", "Math.random(", "nanoid(",
                                        "uuidv4(", NULL};
    for (size_t i = 0; key && parts[i]; i++)
        if (strstr(key, parts[i]))
            return 1;
    return 0;
}

static size_t slot_of(const builder *b, const char *key) {
    return (size_t)(((uintptr_t)key >> 3) * 11400714819323198485ull) & (b->cap - 1);
}

static int32_t key_add(builder *b, const char *key) {
    if (!key)
        return -1;
    if ((b->keys.len + 1) * 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        free(b->slot_key);
        free(b->slot_idx);
        b->cap = cap;
        b->slot_key = lf_xcalloc(cap, sizeof *b->slot_key);
        b->slot_idx = lf_xcalloc(cap, sizeof *b->slot_idx);
        for (size_t i = 0; i < b->keys.len; i++) {
            size_t j = slot_of(b, b->keys.items[i].key);
            while (b->slot_key[j])
                j = (j + 1) & (cap - 1);
            b->slot_key[j] = b->keys.items[i].key;
            b->slot_idx[j] = (int32_t)i;
        }
    }
    size_t j = slot_of(b, key); /* keys are interned: pointer compare */
    while (b->slot_key[j]) {
        if (b->slot_key[j] == key)
            return b->slot_idx[j];
        j = (j + 1) & (b->cap - 1);
    }
    lf_tslock_key k;
    memset(&k, 0, sizeof k);
    k.key = key;
    k.flags = (lf_tssem_is_package_lockfile(key) ? LF_TSLOCK_PKG : 0u) | (unique_name(key) ? LF_TSLOCK_UNIQUE : 0u);
    LF_VEC_PUSH(&b->keys, k);
    b->slot_key[j] = key;
    b->slot_idx[j] = (int32_t)(b->keys.len - 1);
    return (int32_t)(b->keys.len - 1);
}

static void flag(builder *b, int32_t key, unsigned f, TSNode at) {
    if (key < 0)
        return;
    lf_tslock_key *k = &b->keys.items[key];
    if ((f & LF_TSLOCK_USES) && !(k->flags & LF_TSLOCK_USES) && !ts_node_is_null(at))
        k->evidence = at;
    k->flags |= f;
}

static void event(builder *b, lf_tslock_event_kind kind, int32_t fn, TSNode node, int32_t key, TSNode target) {
    lf_tslock_event e = {kind, fn, node, key, 0, 0, LF_TSJUDGED_NONE, target, -1, 0, 0};
    LF_VEC_PUSH(&b->events, e);
}

typedef struct id_walk {
    builder *b;
    lf_tssem *m;
} id_walk;

/* The file an owner record was read from: `rec` is (a field of) a value read
 * by a call chain from a path (`readMetadata(lock)`, `JSON.parse(readFileSync(p))`,
 * `parseInt(await readFile(pidfile))`): the innermost call's first argument. */
static TSNode record_source(lf_tssem *m, TSNode rec) {
    rec = lf_tssem_unwrap(rec);
    while (lf_tree_is(rec, "member_expression") || lf_tree_is(rec, "subscript_expression"))
        rec = lf_tssem_unwrap(lf_tree_field(rec, "object"));
    if (!lf_tree_is(rec, "identifier"))
        return (TSNode){0};
    TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, rec));
    TSNode path = {0};
    for (int depth = 0; depth < 4 && lf_tree_is(v, "call_expression"); depth++) {
        path = lf_tssem_unwrap(lf_tssem_arg(v, 0));
        v = path;
    }
    return lf_tree_is(path, "call_expression") ? (TSNode){0} : path;
}

/* `rec.pid === process.pid`: the file rec was read from records its owner's
 * pid, whoever wrote it (a lock by use, like a pid written there). */
static void owner_compare(id_walk *w, TSNode n) {
    TSNode op = lf_tree_field(n, "operator");
    if (ts_node_is_null(op) || !(lf_tree_text_eq(w->m->src, op, "===") || lf_tree_text_eq(w->m->src, op, "==") ||
                                 lf_tree_text_eq(w->m->src, op, "!==") || lf_tree_text_eq(w->m->src, op, "!=")))
        return;
    TSNode l = lf_tssem_unwrap(lf_tree_field(n, "left")), r = lf_tssem_unwrap(lf_tree_field(n, "right"));
    const char *ql = lf_tree_is(l, "member_expression") ? lf_tssem_qualname(w->m, l) : NULL;
    const char *qr = lf_tree_is(r, "member_expression") ? lf_tssem_qualname(w->m, r) : NULL;
    TSNode rec = ql && !strcmp(ql, "process.pid") ? r : qr && !strcmp(qr, "process.pid") ? l : (TSNode){0};
    if (ts_node_is_null(rec))
        return;
    TSNode path = record_source(w->m, rec);
    if (!ts_node_is_null(path))
        flag(w->b, key_add(w->b, lf_tssem_path_key(w->m, path)), LF_TSLOCK_PID, n);
}

static lf_walk_action visit_identity(TSNode n, void *ud) {
    id_walk *w = ud;
    if (lf_tree_is(n, "binary_expression"))
        owner_compare(w, n);
    if (lf_tree_is(n, "member_expression")) {
        TSNode p = lf_tree_field(n, "property");
        if (lf_tree_text_eq(w->m->src, p, "ino") || lf_tree_text_eq(w->m->src, p, "dev"))
            event(w->b, LF_TSEV_IDENTITY, lf_tslock_fn_of(w->m, lf_tssem_scope_of(w->m, n)), n, -1, (TSNode){0});
    }
    return LF_WALK_CONTINUE;
}

/* The binary expression a read of `pid` may be an operand of, through what
 * lf_tssem_unwrap strips (owner_compare decides). */
static void push_compare(lf_tsnode_vec *out, TSNode member) {
    TSNode cur = member;
    for (int i = 0; i < 64; i++) {
        TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p))
            return;
        const char *t = ts_node_type(p);
        if (!strcmp(t, "binary_expression")) {
            LF_VEC_PUSH(out, p);
            return;
        }
        if (strcmp(t, "parenthesized_expression") != 0 && strcmp(t, "await_expression") != 0 &&
            strcmp(t, "yield_expression") != 0 && strcmp(t, "non_null_expression") != 0 &&
            strcmp(t, "as_expression") != 0 && strcmp(t, "satisfies_expression") != 0 &&
            strcmp(t, "type_assertion") != 0 && strcmp(t, "sequence_expression") != 0)
            return;
        cur = p;
    }
}

/* The member expression whose property is t, or null. */
static TSNode member_of(TSNode t) {
    TSNode up = ts_node_parent(t);
    if (!lf_tree_is(t, "property_identifier") || !lf_tree_is(up, "member_expression") ||
        !ts_node_eq(lf_tree_field(up, "property"), t))
        return (TSNode){0};
    return up;
}

/* The nodes visit_identity acts on, without walking the tree: .ino/.dev
 * reads, and the comparisons one of whose operands is a member expression
 * naming process.pid: spelled `X.pid`, or `this.f` for a field whose value
 * does (lf_tssem_qualname's only way to rename a member's last part). */
static void identity_candidates(lf_tssem *m, lf_tsnode_vec *out) {
    lf_tsnode_vec t = {0};
    lf_tssem_tokens(m, "ino", &t);
    lf_tssem_tokens(m, "dev", &t);
    for (size_t i = 0; i < t.len; i++) {
        TSNode mem = member_of(t.items[i]);
        if (!ts_node_is_null(mem) && (lf_tree_text_eq(m->src, t.items[i], "ino") || lf_tree_text_eq(m->src, t.items[i], "dev")))
            LF_VEC_PUSH(out, mem);
    }
    t.len = 0;
    lf_tssem_tokens(m, "pid", &t);
    int any_pid = 0;
    for (size_t i = 0; i < t.len; i++) {
        TSNode mem = member_of(t.items[i]);
        if (!ts_node_is_null(mem) && lf_tree_text_eq(m->src, t.items[i], "pid")) {
            push_compare(out, mem);
            any_pid = 1;
        }
    }
    for (size_t i = 0; any_pid && i < m->n_bindings; i++) {
        const lf_tsbinding *bd = &m->bindings[i];
        if (bd->kind != LF_TSBIND_FIELD || strncmp(bd->name, "this.", 5) != 0)
            continue;
        const char *q = lf_tree_is(bd->target, "member_expression") ? lf_tssem_qualname(m, bd->target) : NULL;
        if (!q || strcmp(q, "process.pid") != 0)
            continue;
        t.len = 0;
        lf_tssem_tokens(m, bd->name + 5, &t);
        for (size_t j = 0; j < t.len; j++) {
            TSNode mem = member_of(t.items[j]);
            if (!ts_node_is_null(mem) && lf_tree_is(lf_tree_field(mem, "object"), "this") &&
                lf_tree_text_eq(m->src, t.items[j], bd->name + 5))
                push_compare(out, mem);
        }
    }
    LF_VEC_FREE(&t);
    lf_tssem_preorder(out);
}

/* `X.map((v) => ...)` (forEach, filter, some, every, flatMap) with v the
 * callback's first parameter: X, the array it walks; null otherwise. */
static TSNode callback_array(lf_tssem *m, TSNode fn, TSNode var) {
    static const char *const walks[] = {"map", "forEach", "filter", "some", "every", "flatMap", NULL};
    if (!lf_tree_is(fn, "arrow_function") && !lf_tree_is(fn, "function_expression"))
        return (TSNode){0};
    TSNode param = lf_tree_field(fn, "parameter"); /* `file => ...` */
    if (ts_node_is_null(param)) {
        TSNode ps = lf_tree_field(fn, "parameters");
        TSNode first = ts_node_is_null(ps) || !ts_node_named_child_count(ps) ? (TSNode){0} : ts_node_named_child(ps, 0);
        param = lf_tree_is(first, "required_parameter") ? lf_tree_field(first, "pattern") : first;
    }
    if (!lf_tree_is(param, "identifier") || !lf_tree_equal(m->src, param, m->src, var, 0))
        return (TSNode){0};
    TSNode args = ts_node_parent(fn), call = ts_node_parent(args);
    TSNode callee = lf_tree_is(call, "call_expression") ? lf_tree_field(call, "function") : (TSNode){0};
    if (!lf_tree_is(args, "arguments") || !ts_node_eq(ts_node_named_child(args, 0), fn) ||
        !lf_tree_is(callee, "member_expression"))
        return (TSNode){0};
    for (size_t i = 0; walks[i]; i++)
        if (lf_tree_text_eq(m->src, lf_tree_field(callee, "property"), walks[i]))
            return lf_tssem_unwrap(lf_tree_field(callee, "object"));
    return (TSNode){0};
}

/* The for-of loop around `from`, in its function, whose variable is the
 * identifier `var`, or the array method's callback around it whose first
 * parameter `var` is (callback_array), or null; *iterable: what it walks
 * (unwrapped, a const followed to its value). */
static TSNode enclosing_for_of(lf_tssem *m, TSNode from, TSNode var, TSNode *iterable) {
    *iterable = (TSNode){0};
    for (TSNode cur = ts_node_parent(from); !ts_node_is_null(cur); cur = ts_node_parent(cur)) {
        if (function_boundary(cur)) {
            /* `lockFiles.map(async (file) => { ... unlink(join(dir, file)) })` */
            TSNode right = callback_array(m, cur, var);
            if (ts_node_is_null(right))
                break;
            if (lf_tree_is(right, "identifier"))
                right = lf_tssem_unwrap(lf_tssem_resolve_value(m, right));
            *iterable = right;
            return cur;
        }
        TSNode left = lf_tree_field(cur, "left");
        if (!lf_tree_is(cur, "for_in_statement") || !lf_tree_text_eq(m->src, lf_tree_field(cur, "operator"), "of") ||
            !lf_tree_is(left, "identifier") || !lf_tree_equal(m->src, left, m->src, var, 0))
            continue;
        TSNode right = lf_tssem_unwrap(lf_tree_field(cur, "right"));
        if (lf_tree_is(right, "identifier"))
            right = lf_tssem_unwrap(lf_tssem_resolve_value(m, right));
        *iterable = right;
        return cur;
    }
    return (TSNode){0};
}

/* The array literal a for-of loop around `call` walks, when `arg` is that
 * loop's variable (`for (const file of [a, b]) unlink(file)`, or a const
 * holding the literal): a null node otherwise. */
static TSNode loop_array(lf_tssem *m, TSNode call, TSNode arg) {
    arg = lf_tssem_unwrap(arg);
    TSNode right;
    if (!lf_tree_is(arg, "identifier") || ts_node_is_null(enclosing_for_of(m, call, arg, &right)))
        return (TSNode){0};
    return lf_tree_is(right, "array") ? right : (TSNode){0};
}

/* Does an expression spell a lock in one of its names or literal parts
 * (`lockDir`, `LOCK_DIR`, `".locks"`)? At most 64 nodes are looked at. */
static int ts_spells_lock(const lf_source *src, TSNode e) {
    static const char *const leaves[] = {"identifier", "property_identifier", "string_fragment", NULL};
    return lf_tree_spells_lock(src, e, leaves, 64);
}

typedef struct listing_search {
    const lf_source *src;
    TSNode var; /* the loop's variable */
    int found;
} listing_search;

/* `f.endsWith(".lock")`, `f.startsWith("lock-")`, `f.includes(".lock")`,
 * `f.match(/\.lock$/)` on the loop's variable, with a literal spelling a lock. */
static lf_walk_action visit_lock_filter(TSNode n, void *ud) {
    listing_search *s = ud;
    if (!lf_tree_is(n, "call_expression"))
        return LF_WALK_CONTINUE;
    TSNode fn = lf_tree_field(n, "function");
    if (!lf_tree_is(fn, "member_expression") ||
        !lf_tree_equal(s->src, lf_tssem_unwrap(lf_tree_field(fn, "object")), s->src, s->var, 0))
        return LF_WALK_CONTINUE;
    TSNode prop = lf_tree_field(fn, "property");
    static const char *const tests[] = {"endsWith", "startsWith", "includes", "match", "test", NULL};
    int is_test = 0;
    for (size_t i = 0; tests[i] && !is_test; i++)
        is_test = lf_tree_text_eq(s->src, prop, tests[i]);
    if (is_test && ts_spells_lock(s->src, lf_tree_field(n, "arguments"))) {
        s->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Does the path `arg` (removed or judged by `call`) name an entry of a
 * listing of lock files: `join(D, f)` / `resolve(D, f)` / `${D}/${f}` (or a
 * const bound to one) with f the variable of an enclosing for-of over
 * `readdir(D)` / `readdirSync(D)` (awaited, or a const bound to it), where D
 * or a filter on f in the loop spells a lock? */
static int lock_listing(lf_tssem *m, TSNode call, TSNode arg, TSNode *dir_out) {
    TSNode p = lf_tssem_unwrap(arg);
    if (lf_tree_is(p, "identifier"))
        p = lf_tssem_unwrap(lf_tssem_resolve_value(m, p));
    TSNode dir = {0}, var = {0};
    if (lf_tree_is(p, "call_expression")) {
        const char *q = lf_tssem_callee(m, p);
        static const char *const joins[] = {"path.join", "path.resolve", "node:path.join", "node:path.resolve",
                                            "path.posix.join", NULL};
        if (!q || !lf_str_in_list(q, joins) || lf_tssem_nargs(p) < 2)
            return 0;
        dir = lf_tssem_arg(p, 0);
        var = lf_tssem_unwrap(lf_tssem_arg(p, lf_tssem_nargs(p) - 1));
    } else if (lf_tree_is(p, "template_string")) {
        TSNode first = {0}, last = {0};
        for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
            TSNode c = ts_node_named_child(p, i);
            if (!lf_tree_is(c, "template_substitution"))
                continue;
            if (ts_node_is_null(first))
                first = c;
            last = c;
        }
        if (ts_node_is_null(first) || ts_node_eq(first, last) || ts_node_named_child_count(last) != 1)
            return 0;
        dir = ts_node_named_child(first, 0);
        var = lf_tssem_unwrap(ts_node_named_child(last, 0));
    } else {
        return 0;
    }
    if (!lf_tree_is(var, "identifier"))
        return 0;
    *dir_out = dir;
    TSNode right;
    TSNode loop = enclosing_for_of(m, call, var, &right);
    if (ts_node_is_null(loop))
        return 0;
    /* the listing itself, or its entries kept by a filter that spells a
     * lock (`const locks = (await readdir(d)).filter((f) => f.endsWith(".lock"))`),
     * through the consts they are bound to */
    int filtered = 0;
    for (int hops = 0; hops < 6; hops++) {
        if (lf_tree_is(right, "await_expression") && ts_node_named_child_count(right) == 1) {
            right = lf_tssem_unwrap(ts_node_named_child(right, 0));
            continue;
        }
        if (lf_tree_is(right, "identifier")) {
            TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, right));
            if (ts_node_is_null(v) || ts_node_eq(v, right))
                break;
            right = v;
            continue;
        }
        TSNode fn = lf_tree_is(right, "call_expression") ? lf_tree_field(right, "function") : (TSNode){0};
        if (lf_tree_is(fn, "member_expression") && lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "filter")) {
            filtered |= ts_spells_lock(m->src, lf_tree_field(right, "arguments"));
            right = lf_tssem_unwrap(lf_tree_field(fn, "object"));
            continue;
        }
        break;
    }
    const char *op = lf_tree_is(right, "call_expression") ? lf_tslock_fs_op(m, right) : NULL;
    if (!op || strcmp(op, "readdir") != 0)
        return 0;
    TSNode listed = lf_tssem_arg(right, 0);
    if (filtered || ts_spells_lock(m->src, dir) || ts_spells_lock(m->src, lf_tssem_resolve_value(m, dir)) ||
        ts_spells_lock(m->src, listed) || ts_spells_lock(m->src, lf_tssem_resolve_value(m, listed)))
        return 1;
    listing_search s = {m->src, var, 0};
    lf_tree_walk(lf_tree_field(loop, "body"), visit_lock_filter, &s);
    return s.found;
}

/* A function imported from one of the project's own modules (a relative
 * specifier: `import { removePath } from "./fs-utils.js"`) whose name says it
 * removes a path: remove*, delete*, unlink*, rm*, rimraf, optionally after
 * safe/force (`safeUnlink`, `forceRemove`). The analysis sees one file, so
 * the name is all there is of that sibling module's summary; a library's
 * function (a bare specifier) is never read by its name. */
static int sibling_remove_helper(const char *q) {
    if (!lf_tssem_project_callee(q))
        return 0;
    /* the vendored lockrt.cjs is no unknown sibling: its removals are
     * identity-bound (unlinkOwned, rmOwned, releaseIfOwned) or mapped to
     * what they are by lf_tslock_fs_op (the judged ones) */
    if (strncmp(q, "./lockrt.cjs.", 13) == 0)
        return 0;
    const char *name = strrchr(q, '.');
    if (!name || name[1] == '\0' || strchr(name + 1, '/'))
        return 0;
    name++;
    if (!strncmp(name, "safe", 4) && name[4] >= 'A' && name[4] <= 'Z')
        name += 4;
    else if (!strncmp(name, "force", 5) && name[5] >= 'A' && name[5] <= 'Z')
        name += 5;
    static const char *const verbs[] = {"remove", "Remove", "delete", "Delete", "unlink", "Unlink", "rm", "Rm",
                                        "rimraf", NULL};
    for (size_t i = 0; verbs[i]; i++) {
        size_t n = strlen(verbs[i]);
        /* the verb alone, or followed by a capitalised object (removePath, rmDir) */
        if (!strncmp(name, verbs[i], n) && (name[n] == '\0' || (name[n] >= 'A' && name[n] <= 'Z')))
            return 1;
    }
    return 0;
}

/* Is the rename `call` (a0 -> a1) a quarantine: the function later moves the
 * file back (`link(a1, a0)` or `rename(a1, a0)`) when the copy it grabbed
 * turns out live? Grabbing the lock under a private name and judging that
 * copy binds the judgement to the object removed; a live lock goes back. */
static int quarantine_rename(lf_tssem *m, TSNode call, TSNode a0, TSNode a1) {
    int32_t scope = lf_tssem_scope_of(m, call);
    int32_t fn = lf_tslock_fn_of(m, scope);
    const char *from = lf_tssem_path_key(m, a0), *to = lf_tssem_path_key(m, a1);
    if (!from || !to || from == to || fn <= 0)
        return 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (lf_tslock_fn_of(m, c->scope) != fn || ts_node_start_byte(c->node) <= ts_node_end_byte(call))
            continue;
        const char *op = lf_tslock_fs_op(m, c->node);
        if (!op || (strcmp(op, "link") != 0 && strcmp(op, "rename") != 0))
            continue;
        if (lf_tssem_path_key(m, lf_tssem_arg(c->node, 0)) == to &&
            lf_tssem_path_key(m, lf_tssem_arg(c->node, 1)) == from)
            return 1;
    }
    return 0;
}

typedef struct param_search {
    const lf_source *src;
    const lf_tsbinding *params[8];
    size_t n;
    TSNode path; /* a parameter named in the path names the file, not what is stored in it */
    int found;
} param_search;

static lf_walk_action visit_param_use(TSNode n, void *ud) {
    param_search *s = ud;
    if (!lf_tree_is(n, "identifier") && !lf_tree_is(n, "shorthand_property_identifier"))
        return LF_WALK_CONTINUE;
    for (size_t i = 0; i < s->n && !s->found; i++)
        if (lf_tree_text_eq(s->src, n, s->params[i]->name) && !mentions(s->src, s->path, s->params[i]->name))
            s->found = 1;
    return s->found ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

/* Does the write `writeFile(path, data)` store a value its function's caller
 * hands in (`put(key, value)`: `JSON.stringify({ value, expiresAt })`), a
 * parameter other than the ones the path is made from? An owner record
 * (`process.pid`, a clock reading, a token made here) is no such value. */
static int stores_callers_value(lf_tssem *m, const lf_tslock_event *ev) {
    const char *op = lf_tslock_fs_op(m, ev->node);
    if (!op || strcmp(op, "writeFile") != 0 || ev->fn <= 0)
        return 0;
    param_search s;
    memset(&s, 0, sizeof s);
    s.src = m->src;
    s.path = ev->target;
    for (uint32_t i = 0; i < 8; i++) {
        const lf_tsbinding *p = lf_tssem_param(m, ev->fn, i);
        if (!p)
            break;
        s.params[s.n++] = p;
    }
    TSNode data = lf_tssem_unwrap(lf_tssem_arg(ev->node, 1));
    TSNode parts[3];
    parts[0] = data;
    parts[1] = lf_tree_is(data, "identifier") ? lf_tssem_resolve_value(m, data) : (TSNode){0};
    parts[2] = written_value(m, data);
    for (size_t i = 0; i < 3; i++)
        if (mentions(m->src, parts[i], "process.pid") || mentions(m->src, parts[i], "pid"))
            return 0; /* an owner record (a pid), whatever else the caller adds to it */
    for (size_t i = 0; i < 3 && !s.found && s.n; i++)
        if (!ts_node_is_null(parts[i]))
            lf_tree_walk(parts[i], visit_param_use, &s);
    return s.found;
}

/* Can the removal call remove a directory: rmdir, a recursive rm? (Unlinking
 * a legacy lock *file* of the library's lock's name cannot touch the
 * library's directory.) */
int lf_tslock_removes_directory(lf_tssem *m, TSNode call) {
    const char *op = lf_tslock_fs_op(m, call);
    return op && (strcmp(op, "rmdir") == 0 || (strcmp(op, "rm") == 0 && recursive_opt(m, lf_tssem_arg(call, 1))));
}

/* `${X}.lock` or `X + ".lock"`, followed through a const: X, else null. */
static TSNode dot_lock_base(lf_tssem *m, TSNode e) {
    e = lf_tssem_unwrap(e);
    if (lf_tree_is(e, "identifier"))
        e = lf_tssem_unwrap(lf_tssem_resolve_value(m, e));
    if (lf_tree_is(e, "template_string") && ts_node_named_child_count(e) == 2) {
        TSNode sub = ts_node_named_child(e, 0), frag = ts_node_named_child(e, 1);
        if (lf_tree_is(sub, "template_substitution") && lf_tree_text_eq(m->src, frag, ".lock"))
            return ts_node_named_child(sub, 0);
        /* `${lockPath}${LOCK_DIR_SUFFIX}` with `const LOCK_DIR_SUFFIX = '.lock'` */
        if (lf_tree_is(sub, "template_substitution") && lf_tree_is(frag, "template_substitution") &&
            ts_node_named_child_count(frag) == 1) {
            TSNode v = lf_tssem_unwrap(ts_node_named_child(frag, 0));
            if (lf_tree_is(v, "identifier"))
                v = lf_tssem_unwrap(lf_tssem_resolve_value(m, v));
            if (lf_tree_is(v, "string") &&
                (lf_tree_text_eq(m->src, v, "\".lock\"") || lf_tree_text_eq(m->src, v, "'.lock'")))
                return ts_node_named_child(sub, 0);
        }
    }
    if (lf_tree_is(e, "binary_expression") && lf_tree_text_eq(m->src, lf_tree_field(e, "operator"), "+")) {
        TSNode r = lf_tree_field(e, "right");
        if (lf_tree_is(r, "string") &&
            (lf_tree_text_eq(m->src, r, "\".lock\"") || lf_tree_text_eq(m->src, r, "'.lock'")))
            return lf_tree_field(e, "left");
    }
    return (TSNode){0};
}

/* proper-lockfile keeps the lock of `lock(file)` as the directory
 * `${file}.lock`, and takes, refreshes, judges stale and releases it itself.
 * A removal of that directory by name in the module (`rmdir(\`${file}.lock\`)`
 * after `await release()`) deletes whichever process's lock it is by then: the
 * key is that library's lock (LIBDIR). */
static void library_dirs(builder *b, lf_tssem *m) {
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *take = &b->events.items[i];
        const char *q = take->kind == LF_TSEV_ACQUIRE && take->key < 0 ? lf_tssem_callee(m, take->node) : NULL;
        if (!q || strncmp(q, "proper-lockfile", 15) != 0 || ts_node_is_null(take->target))
            continue;
        const char *file = lf_tssem_path_key(m, take->target);
        for (size_t j = 0; file && j < b->events.len; j++) {
            lf_tslock_event *ev = &b->events.items[j];
            if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || ev->via_helper)
                continue;
            TSNode base = dot_lock_base(m, ev->target);
            if (ts_node_is_null(base) || lf_tssem_path_key(m, base) != file)
                continue;
            if (!lf_tslock_removes_directory(m, ev->node))
                continue;
            flag(b, ev->key, LF_TSLOCK_HELPER | LF_TSLOCK_LIBDIR | LF_TSLOCK_DIR, take->node);
            if (ts_node_is_null(b->keys.items[ev->key].library_take))
                b->keys.items[ev->key].library_take = take->node;
        }
    }
}

/* Is a name made fresh for each file (`${uuid}.lock` with `const uuid =
 * generateUuid()`, `randomUUID()`, `nanoid()`, `randomBytes(...)` in it,
 * directly or through a const)? At most 64 nodes are looked at. */
static int fresh_name(lf_tssem *m, TSNode e) {
    static const char *const makers[] = {"uuid", "Uuid", "UUID", "nanoid", "randomBytes", NULL};
    lf_tsnode_vec st = {0};
    LF_VEC_PUSH(&st, e);
    int found = 0, hops = 0;
    for (size_t budget = 64; st.len && budget && !found; budget--) {
        TSNode n = lf_tssem_unwrap(st.items[--st.len]);
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "call_expression")) {
            TSNode fn = lf_tree_field(n, "function");
            if (lf_tree_is(fn, "member_expression"))
                fn = lf_tree_field(fn, "property");
            uint32_t a = ts_node_start_byte(fn), z = ts_node_end_byte(fn);
            for (size_t i = 0; makers[i] && !found; i++)
                found = memmem(m->src->text + a, z - a, makers[i], strlen(makers[i])) != NULL;
            continue;
        }
        if (lf_tree_is(n, "identifier")) {
            TSNode v = lf_tssem_resolve_value(m, n);
            if (!ts_node_eq(v, n) && hops++ < 8)
                LF_VEC_PUSH(&st, v);
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&st, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&st);
    return found;
}

/* A listing of lock files whose every file the module writes there is named
 * fresh (`join(dir, \`${uuid}.lock\`)`): each name has one writer ever, so a
 * sweep that removes an entry it judged can delete no successor's file (no
 * successor takes that name; LF301 leaves it alone). The entries stay the
 * owners' records: a live owner judged dead (LF303) still loses its own. */
static void unique_listings(builder *b, lf_tssem *m) {
    for (size_t k = 0; k < b->keys.len; k++) {
        const char *dir = b->keys.items[k].listing_dir;
        if (!dir)
            continue;
        size_t made = 0, fresh = 0;
        for (size_t i = 0; i < b->events.len; i++) {
            const lf_tslock_event *ev = &b->events.items[i];
            if ((ev->kind != LF_TSEV_CREATE && ev->kind != LF_TSEV_OVERWRITE) || ev->via_helper)
                continue;
            TSNode t = lf_tssem_unwrap(ev->target);
            if (lf_tree_is(t, "identifier"))
                t = lf_tssem_unwrap(lf_tssem_resolve_value(m, t));
            const char *q = lf_tree_is(t, "call_expression") ? lf_tssem_callee(m, t) : NULL;
            if (!q || (strcmp(q, "path.join") != 0 && strcmp(q, "node:path.join") != 0) || lf_tssem_nargs(t) != 2 ||
                lf_tssem_path_key(m, lf_tssem_arg(t, 0)) != dir)
                continue;
            made++;
            fresh += (size_t)((ev->key >= 0 && unique_name(b->keys.items[ev->key].key)) ||
                              fresh_name(m, lf_tssem_arg(t, 1)));
        }
        if (made && fresh == made)
            b->keys.items[k].flags |= LF_TSLOCK_FRESH;
    }
}

/* Is the callee a process-liveness predicate imported from another module of
 * the project (a relative specifier: `../util/proc.isProcessAlive`) or one of
 * the npm packages made for it? Its name is all that is in sight: is/check/has,
 * then process/pid/owner/holder, then alive/running/exists/active. */
static int imported_liveness(const char *callee) {
    static const char *const packages[] = {"is-running", "process-exists", "is-process-running", NULL};
    if (op_in(callee, packages))
        return 1;
    if (!lf_tssem_project_callee(callee))
        return 0;
    const char *name = strrchr(callee, '.');
    if (!name || strchr(name, '/'))
        return 0;
    name++;
    static const char *const verbs[] = {"is", "check", "has", ""};
    static const char *const whos[] = {"process", "pid", "proc", "owner", "holder", ""};
    static const char *const states[] = {"alive", "running", "exists", "active", "live"};
    for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++) {
        size_t nv = strlen(verbs[v]);
        if (strncasecmp(name, verbs[v], nv) != 0)
            continue;
        for (size_t w = 0; w < sizeof whos / sizeof *whos; w++) {
            const char *p = name + nv;
            size_t nw = strlen(whos[w]);
            if (strncasecmp(p, whos[w], nw) != 0)
                continue;
            p += nw;
            if (nw && !strncasecmp(p, "is", 2) && p[2] >= 'A' && p[2] <= 'Z')
                p += 2; /* pidIsAlive */
            for (size_t st = 0; st < sizeof states / sizeof *states; st++)
                if (!strcasecmp(p, states[st]) && (nv || nw))
                    return 1;
        }
    }
    return 0;
}

/* Does an argument list hand `name` the value true: `{ force: true }` (the
 * callee destructures its options) or a plain `true` in the place of the
 * parameter named so? */
static int passes_true(lf_tssem *m, TSNode call, int32_t h, const char *name) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "true")) {
            const lf_tsbinding *p = lf_tssem_param(m, h, i);
            if (p && !p->member && !strcmp(p->name, name))
                return 1;
        }
        if (!lf_tree_is(a, "object"))
            continue;
        uint32_t k = ts_node_named_child_count(a);
        for (uint32_t j = 0; j < k; j++) {
            TSNode pr = ts_node_named_child(a, j);
            if (lf_tree_is(pr, "pair") && lf_tree_text_eq(m->src, lf_tree_field(pr, "key"), name) &&
                lf_tree_is(lf_tree_field(pr, "value"), "true"))
                return 1;
        }
    }
    return 0;
}

/* The create of key k in function h chooses its flag by a parameter (`{ flag:
 * force ? "w" : "wx" }`, excl_choice): each call of h that forces it (`{
 * force: true }`) rewrites the lock whoever holds it, a takeover by overwrite
 * in the calling function (judged there or not: the main pass decides). */
static void forced_calls(builder *b, lf_tssem *m, int32_t h, TSNode flv, int32_t k, TSNode target) {
    TSNode v = lf_tree_unparen(flv);
    TSNode cond = lf_tree_is(v, "ternary_expression") ? lf_tssem_unwrap(lf_tree_field(v, "condition")) : (TSNode){0};
    if (h <= 0 || !lf_tree_is(cond, "identifier"))
        return;
    const lf_tsbinding *bd = lf_tssem_binding_of(m, cond);
    if (!bd || bd->kind != LF_TSBIND_PARAM || bd->scope != h)
        return;
    for (int32_t c = lf_tssem_first_caller(m, h); c >= 0; c = lf_tssem_next_caller(m, c)) {
        int32_t caller = lf_tslock_fn_of(m, m->calls[c].scope);
        if (caller != h && passes_true(m, m->calls[c].node, h, bd->name))
            event(b, LF_TSEV_OVERWRITE, caller, m->calls[c].node, k, target);
    }
}

static void direct_events(builder *b, lf_tssem *m) {
    /* A module that locks its own `.lock` files through proper-lockfile & co
     * (sentinels: the library's lock is `<sentinel>.lock`) lists and prunes
     * resources those locks guard, not locks. When the paths it locks are
     * its data files, the `.lock` entries it lists are the library's locks
     * themselves. */
    int resource_locks = 0;
    for (size_t i = 0; i < m->n_calls && !resource_locks; i++) {
        const lf_tscall *c = &m->calls[i];
        if (!c->callee || !op_in(c->callee, k_resource_locks))
            continue;
        TSNode locked = lf_tssem_arg(c->node, 0);
        resource_locks = ts_node_is_null(locked) || ts_spells_lock(m->src, locked) ||
                         ts_spells_lock(m->src, lf_tssem_resolve_value(m, locked));
    }
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        TSNode call = c->node;
        int32_t fn = lf_tslock_fn_of(m, c->scope);
        /* a seam's forwarder (`mkdir: (p, o) => mkdir(p, o)`): its callers' calls are the operation */
        if (c->callee && lf_tssem_forwarder_body(m, call))
            continue;
        /* arguments only for the calls that use them: most of a bundle's calls are none of these */
        if (c->callee && strcmp(c->callee, "process.kill") == 0) {
            if (lf_tssem_signal_zero(m->src, lf_tssem_arg(call, 1)))
                event(b, LF_TSEV_PROBE, fn, call, -1, lf_tssem_arg(call, 0));
            continue;
        }
        /* a liveness predicate of another module of the project, or of a
         * package made for it (`isProcessAlive(holder.pid)` imported from
         * "../worktree/tmux"): its body is out of sight, its verdict on the
         * pid it is handed is a probe's */
        if (c->callee && lf_tssem_nargs(call) >= 1 && imported_liveness(c->callee)) {
            event(b, LF_TSEV_PROBE, fn, call, -1, lf_tssem_arg(call, 0));
            b->events.items[b->events.len - 1].imported = 1;
            continue;
        }
        /* LF303's fix's probe (lockrt.cjs's killProbeSync(pid, file)) is the same probe */
        if (c->callee && strcmp(c->callee, "./lockrt.cjs.killProbeSync") == 0) {
            event(b, LF_TSEV_PROBE, fn, call, -1, lf_tssem_arg(call, 0));
            continue;
        }
        if (c->callee && op_in(c->callee, k_lock_libs)) {
            TSNode a0 = lf_tssem_arg(call, 0);
            int32_t k = key_add(b, lf_tssem_path_key(m, a0));
            flag(b, k, LF_TSLOCK_HELPER, call);
            event(b, LF_TSEV_ACQUIRE, fn, call, k, a0);
            if (lockfile_breaks_stale(m, c->callee, call)) {
                /* npm lockfile with `stale`: the library unlinks a lock
                 * whose mtime is older than that, its holder alive or not */
                lf_tslock_key *key = &b->keys.items[k];
                key->flags |= LF_TSLOCK_BROKEN | LF_TSLOCK_BROKEN_LIVE;
                if (ts_node_is_null(key->broken_at))
                    key->broken_at = call;
            }
            continue;
        }
        if (c->callee && op_in(c->callee, k_lock_lib_releases)) {
            /* npm lockfile's unlock: an unlink by name, no owner check */
            TSNode a0 = lf_tssem_arg(call, 0);
            event(b, LF_TSEV_REMOVE, fn, call, key_add(b, lf_tssem_path_key(m, a0)), a0);
            continue;
        }
        if (c->callee && op_in(c->callee, k_resource_locks)) {
            event(b, LF_TSEV_ACQUIRE, fn, call, -1, lf_tssem_arg(call, 0));
            continue;
        }
        const char *op = lf_tslock_fs_op(m, call);
        if (!op && sibling_remove_helper(c->callee) && lf_tssem_nargs(call) >= 1) {
            TSNode p0 = lf_tssem_arg(call, 0);
            event(b, LF_TSEV_REMOVE, fn, call, key_add(b, lf_tssem_path_key(m, p0)), p0);
            continue;
        }
        if (!op)
            continue;
        TSNode a0 = lf_tslock_fs_path(m, call);
        if (ts_node_is_null(a0))
            continue;
        TSNode a1 = lf_tssem_arg(call, 1), a2 = lf_tssem_arg(call, 2);
        if (op_in(op, k_proc_reads) && proc_pid_path(m, a0)) {
            event(b, LF_TSEV_PROBE, fn, call, -1, a0);
            continue;
        }
        if (strcmp(op, "link") == 0) {
            /* a hard link of a written temp onto the path: a lock only if
             * the module reads the file back and probes pids (link_locks) */
            if (!ts_node_is_null(a1) && failure_handled(m, call))
                event(b, LF_TSEV_CREATE, fn, call, key_add(b, lf_tssem_path_key(m, a1)), a1);
            continue;
        }
        if (strcmp(op, "symlink") == 0) {
            /* a lock only if the module reads the link back (below) */
            if (!ts_node_is_null(a1) && failure_handled(m, call))
                event(b, LF_TSEV_CREATE, fn, call, key_add(b, lf_tssem_path_key(m, a1)), a1);
            continue;
        }
        if (op_in(op, k_remove) || strcmp(op, "rename") == 0) {
            if (strcmp(op, "rename") == 0 && quarantine_rename(m, call, a0, a1))
                continue;
            TSNode arr = loop_array(m, call, a0);
            uint32_t n_el = ts_node_is_null(arr) ? 0 : ts_node_named_child_count(arr);
            /* `for (const f of [pidPath, lockPath]) unlink(f)`: each element */
            for (uint32_t j = 0; j < n_el && j < 16; j++) {
                TSNode el = ts_node_named_child(arr, j);
                if (lf_tree_is(el, "comment") || lf_tree_is(el, "spread_element"))
                    continue;
                event(b, LF_TSEV_REMOVE, fn, call, key_add(b, lf_tssem_path_key(m, el)), el);
            }
            if (!n_el) {
                int32_t k = key_add(b, lf_tssem_path_key(m, a0));
                TSNode listed_dir = {0};
                if (!resource_locks && lock_listing(m, call, a0, &listed_dir)) {
                    flag(b, k, LF_TSLOCK_LISTED, call);
                    if (!b->keys.items[k].listing_dir)
                        b->keys.items[k].listing_dir = lf_tssem_path_key(m, listed_dir);
                }
                event(b, LF_TSEV_REMOVE, fn, call, k, a0);
            }
        } else if (strcmp(op, "mkdir") == 0) {
            if (!recursive_opt(m, a1)) {
                int32_t k = key_add(b, lf_tssem_path_key(m, a0));
                flag(b, k, LF_TSLOCK_CREATED | LF_TSLOCK_DIR | (failure_handled(m, call) ? LF_TSLOCK_EXCL : 0u), call);
                event(b, LF_TSEV_CREATE, fn, call, k, a0);
            }
        } else if (strcmp(op, "open") == 0 || strcmp(op, "writeFile") == 0 || strcmp(op, "createWriteStream") == 0 ||
                   strcmp(op, "appendFile") == 0) {
            TSNode fl = strcmp(op, "writeFile") == 0 || strcmp(op, "appendFile") == 0 ? a2 : a1;
            char *f = flags_of(m, fl);
            TSNode flv = flag_value(m, fl);
            int excl = flag_is(f, k_excl_flags) || mentions(m->src, fl, "O_EXCL") || mentions(m->src, flv, "O_EXCL") ||
                       excl_choice(m, flv);
            int append = flag_is(f, k_append_flags) || mentions(m->src, fl, "O_APPEND") ||
                         mentions(m->src, flv, "O_APPEND") || strcmp(op, "appendFile") == 0;
            free(f);
            int32_t k = key_add(b, lf_tssem_path_key(m, a0));
            if (excl) {
                flag(b, k,
                     LF_TSLOCK_CREATED | LF_TSLOCK_FILE | (failure_handled(m, call) ? LF_TSLOCK_EXCL : 0u) |
                         (append ? LF_TSLOCK_EXCL_APPEND : 0u),
                     call);
                event(b, LF_TSEV_CREATE, fn, call, k, a0);
                forced_calls(b, m, fn, flv, k, a0);
            } else if (append) {
                flag(b, k, LF_TSLOCK_APPENDED, call);
                event(b, LF_TSEV_APPEND, fn, call, k, a0);
            } else if (strcmp(op, "writeFile") == 0 || (strcmp(op, "open") == 0 && f_is_write(m, fl))) {
                event(b, LF_TSEV_OVERWRITE, fn, call, k, a0);
            } else if (strcmp(op, "open") == 0 && f_is_read(m, fl)) {
                /* `handle = await open(p, "r")`, then its readFile: a read of the record */
                event(b, LF_TSEV_JUDGE, fn, call, k, a0);
                b->events.items[b->events.len - 1].content = 1;
            }
            if (strcmp(op, "writeFile") == 0 &&
                (mentions(m->src, a1, "process.pid") || mentions(m->src, written_value(m, a1), "process.pid")))
                flag(b, k, LF_TSLOCK_PID, call);
        } else if (op_in(op, k_presence) || op_in(op, k_content)) {
            int32_t k = key_add(b, lf_tssem_path_key(m, a0));
            event(b, LF_TSEV_JUDGE, fn, call, k, a0);
            b->events.items[b->events.len - 1].content = op_in(op, k_content);
        }
    }
    /* a guarded symlink whose target the module reads back, in a module that
     * judges processes' liveness, is a pid lock (pidlock's); an installer's
     * link that it reads back to see whether it is its own is not */
    size_t n = b->events.len;
    int probes = 0;
    for (size_t i = 0; i < n && !probes; i++)
        probes = b->events.items[i].kind == LF_TSEV_PROBE;
    for (size_t i = 0; i < n && probes; i++) {
        lf_tslock_event *c = &b->events.items[i];
        if (c->kind != LF_TSEV_CREATE || c->key < 0 || !lf_tree_is(c->node, "call_expression") ||
            strcmp(lf_tslock_fs_op(m, c->node) ? lf_tslock_fs_op(m, c->node) : "", "symlink") != 0)
            continue;
        for (size_t j = 0; j < n; j++) {
            const lf_tslock_event *r = &b->events.items[j];
            const char *rop = r->kind == LF_TSEV_JUDGE && r->key == c->key ? lf_tslock_fs_op(m, r->node) : NULL;
            if (rop && strcmp(rop, "readlink") == 0) {
                flag(b, c->key, LF_TSLOCK_CREATED | LF_TSLOCK_EXCL | LF_TSLOCK_FILE, c->node);
                break;
            }
        }
    }
}

/* Calls of the module's own functions: argument key <-> parameter key. */
typedef struct link {
    TSNode call;
    int32_t fn;     /* caller */
    int32_t callee; /* scope */
    int32_t arg_key, param_key;
    TSNode arg;
    int returned; /* return_links': the caller's `call:F` key -> the key F returns; copies no events */
} link;
typedef LF_VEC(link) link_vec;

/* Calls of the module's own functions, argument key -> parameter key, only
 * where something can flow. Flags and events start at the keys the direct
 * events and owner compares touched (seeds) and flow along links only; a link
 * whose parameter is not a seed and is not handed on (through some chain of
 * calls) to a seed parameter moves nothing any check reads: its parameter
 * gets no flag worth having (ARG on a key with no events, no onward link),
 * gives none (HELPER up needs EXCL/PID/HELPER on the parameter), and has no
 * events to copy up. So the argument keys (the costly part: a text key per
 * expression) are built only for the links that can matter: a bundle's
 * thousands of helper calls with no file-system use cost a parameter lookup
 * each. Links keep their source order; rounds settle the same. */
static void collect_links(builder *b, lf_tssem *m, link_vec *out) {
    /* a parameter's key is the same at every call: asked once per binding */
    int32_t *param_key = lf_xmalloc((m->n_bindings + 1) * sizeof *param_key);
    for (size_t i = 0; i <= m->n_bindings; i++)
        param_key[i] = INT32_MIN;
    link_vec all = {0};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        int32_t s = lf_tssem_local_callee(m, call);
        if (s <= 0 || !lf_tssem_param(m, s, 0))
            continue;
        /* the first 8 arguments in one pass (lf_tssem_arg counts from the first) */
        TSNode args[8];
        size_t n = 0;
        TSNode list = lf_tree_field(call, "arguments");
        uint32_t k = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
        int tagged = !lf_tree_is(list, "arguments"); /* a tagged template: its parts count, as nulls */
        for (uint32_t j = 0; j < k && n < 8; j++) {
            TSNode c = ts_node_named_child(list, j);
            if (!lf_tree_is(c, "comment"))
                args[n++] = tagged ? (TSNode){0} : c;
        }
        for (uint32_t j = 0; j < n; j++) {
            const lf_tsbinding *p = lf_tssem_param(m, s, j);
            if (!p)
                break;
            TSNode arg = args[j];
            /* a parameter handed on keeps its key now; any other argument's
             * key waits until its link is known to matter */
            const char *apk = lf_tssem_param_path_key(m, arg);
            int32_t ak = apk ? key_add(b, apk) : INT32_MIN;
            int32_t *pk = &param_key[p - m->bindings];
            if (*pk == INT32_MIN)
                *pk = key_add(b, lf_tssem_path_key(m, p->target));
            if (*pk < 0)
                continue; /* every use of links skips a link without a parameter key */
            link lk = {call, lf_tslock_fn_of(m, m->calls[i].scope), s, ak, *pk, arg, 0};
            LF_VEC_PUSH(&all, lk);
        }
    }
    free(param_key);
    /* seeds, then the parameters handed on to a needed parameter */
    size_t nk = b->keys.len ? b->keys.len : 1;
    unsigned char *need = lf_xcalloc(nk, 1);
    for (size_t i = 0; i < b->keys.len; i++)
        need[i] = b->keys.items[i].flags != 0;
    for (size_t i = 0; i < b->events.len; i++)
        if (b->events.items[i].key >= 0)
            need[b->events.items[i].key] = 1;
    /* worklist over the links into each parameter key */
    int32_t *head = lf_xmalloc(nk * sizeof *head);
    int32_t *next = lf_xmalloc((all.len + 1) * sizeof *next);
    int32_t *todo = lf_xmalloc(nk * sizeof *todo);
    size_t n_todo = 0;
    for (size_t i = 0; i < nk; i++) {
        head[i] = -1;
        if (need[i])
            todo[n_todo++] = (int32_t)i;
    }
    for (size_t i = all.len; i-- > 0;) {
        next[i] = head[all.items[i].param_key];
        head[all.items[i].param_key] = (int32_t)i;
    }
    while (n_todo) {
        int32_t key = todo[--n_todo];
        for (int32_t i = head[key]; i >= 0; i = next[i]) {
            int32_t ak = all.items[i].arg_key;
            if (ak >= 0 && !need[ak]) {
                need[ak] = 1;
                todo[n_todo++] = ak;
            }
        }
    }
    free(head);
    free(next);
    free(todo);
    for (size_t i = 0; i < all.len; i++) {
        link lk = all.items[i];
        if (!need[lk.param_key])
            continue;
        if (lk.arg_key == INT32_MIN)
            lk.arg_key = key_add(b, lf_tssem_path_key(m, lk.arg));
        LF_VEC_PUSH(out, lk);
    }
    free(need);
    LF_VEC_FREE(&all);
}

/* Lock uses flow up (a helper that creates its parameter makes the
 * argument a lock) and down (an argument that is a lock makes the
 * parameter one); flags only grow, so a few rounds settle chains. */
static void flow_uses(builder *b, const link_vec *links) {
    for (int round = 0; round < MAX_ROUNDS; round++) {
        int changed = 0;
        for (size_t i = 0; i < links->len; i++) {
            const link *lk = &links->items[i];
            if (lk->arg_key < 0 || lk->param_key < 0)
                continue;
            lf_tslock_key *ak = &b->keys.items[lk->arg_key], *pk = &b->keys.items[lk->param_key];
            if ((pk->flags & (LF_TSLOCK_EXCL | LF_TSLOCK_PID | LF_TSLOCK_HELPER)) && !(ak->flags & LF_TSLOCK_HELPER)) {
                flag(b, lk->arg_key, LF_TSLOCK_HELPER, lk->call);
                changed = 1;
            }
            ak = &b->keys.items[lk->arg_key];
            pk = &b->keys.items[lk->param_key];
            if (lf_tslock_is_lock(ak->flags) && !(pk->flags & LF_TSLOCK_ARG)) {
                flag(b, lk->param_key, LF_TSLOCK_ARG, lk->arg);
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

/* An event a helper's own module-level path (`expr:`, `name:`) brought up
 * to its caller. */
static int module_path_via_helper(const builder *b, const lf_tslock_event *ev) {
    const char *k = ev->key >= 0 ? b->keys.items[ev->key].key : "";
    return ev->via_helper && ev->helper_key == ev->key && (!strncmp(k, "expr:", 5) || !strncmp(k, "name:", 5));
}

/* Does the removal call hand the function's verdict to its caller right
 * after: is the next statement, leaving the try block it ends, `return
 * <value>` (`removePidFile(); return false`)? A status check that removes
 * a dead owner's record and answers "not running" is what its callers
 * start a new holder on. */
static int status_verdict(TSNode call) {
    TSNode st = call;
    for (int up = 0; up < 6 && !ts_node_is_null(st) && !lf_tree_is(st, "expression_statement"); up++)
        st = ts_node_parent(st);
    if (ts_node_is_null(st) || !lf_tree_is(st, "expression_statement"))
        return 0;
    for (int out = 0; out < 4; out++) {
        TSNode next = ts_node_next_named_sibling(st);
        while (!ts_node_is_null(next) && lf_tree_is(next, "comment"))
            next = ts_node_next_named_sibling(next);
        if (!ts_node_is_null(next))
            return lf_tree_is(next, "return_statement") && ts_node_named_child_count(next) > 0;
        TSNode block = ts_node_parent(st), owner = ts_node_parent(block);
        if (!lf_tree_is(block, "statement_block") || !lf_tree_is(owner, "try_statement"))
            return 0;
        st = owner;
    }
    return 0;
}

/* A pid lock's record by use: a function reads the file, probes the pid
 * it holds and removes the file when the owner is judged dead (aws-cdk's
 * `_currentWriter`: readFile, process.kill(pid, 0), unlink). The pid may
 * have been written through a field or a helper the model does not follow;
 * reading it back and judging its owner is what makes the file a lock,
 * in a module that has no other lock. */
static int pid_records(builder *b) {
    int any = 0;
    /* a module with a lock by use excludes with that one: its other pid
     * records are what the holder publishes (a server's url and pid); the
     * entries of a sweep of lock files are those locks again, no other one */
    for (size_t i = 0; i < b->keys.len; i++)
        if (lf_tslock_is_lock(b->keys.items[i].flags) &&
            (b->keys.items[i].flags & LF_TSLOCK_USES) != LF_TSLOCK_LISTED)
            return 0;
    /* a probe of the module's own (kill(pid, 0), /proc): another module's
     * predicate read by its name judges locks, it does not make one */
    int own_probe = 0;
    for (size_t i = 0; i < b->events.len && !own_probe; i++)
        own_probe = b->events.items[i].kind == LF_TSEV_PROBE && !b->events.items[i].imported;
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        /* judged by another module's predicate, or through helpers naming a
         * module-level path of their own (a daemon manager's `readPid()`,
         * `isRunning(pid)`, `cleanPid()` over one PID_FILE it writes
         * plainly): a pid file only where the removal is a status check's
         * "not running" (status_verdict), which starts a second daemon when
         * it deletes a fresh one's file. Else a published record (a session
         * restored on start, a sweep of sessions), never exclusive. */
        /* nor through a sibling module's remover read by its name
         * (`removeDurable(tombstonePath)`): a name says it removes, not that
         * what it removes keeps anyone out */
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || ev->judged != LF_TSJUDGED_LIVENESS ||
            ((!own_probe || module_path_via_helper(b, ev)) && !status_verdict(ev->node)) ||
            (b->keys.items[ev->key].flags & (LF_TSLOCK_USES | LF_TSLOCK_PKG)) ||
            (!ev->via_helper && !lf_tslock_fs_op(b->l->m, ev->node)))
            continue;
        for (size_t j = 0; j < i; j++) {
            const lf_tslock_event *r = &b->events.items[j];
            if (r->kind == LF_TSEV_JUDGE && r->content && r->key == ev->key &&
                r->fn == ev->fn) {
                flag(b, ev->key, LF_TSLOCK_PID, r->node);
                any = 1;
                break;
            }
        }
    }
    return any;
}

/* A helper probing with `process.kill(pid, signal || 0)`: does this call of
 * it hand in a signal (`_sendSignal(pid, "SIGTERM")`)? Then the call stops
 * the process; only the calls passing none (or 0) probe it. */
static int signals_instead(lf_tssem *m, TSNode kill, int32_t helper, TSNode call) {
    if (!lf_tree_is(kill, "call_expression"))
        return 0;
    TSNode sig = lf_tssem_unwrap(lf_tssem_arg(kill, 1));
    if (!lf_tree_is(sig, "binary_expression"))
        return 0;
    TSNode name = lf_tssem_unwrap(lf_tree_field(sig, "left"));
    const lf_tsbinding *bd = lf_tree_is(name, "identifier") ? lf_tssem_binding_of(m, name) : NULL;
    int j = bd && bd->kind == LF_TSBIND_PARAM && bd->scope == helper ? lf_tssem_param_index(m, helper, bd) : -1;
    if (j < 0)
        return 0;
    TSNode a = lf_tssem_unwrap(lf_tssem_arg(call, (uint32_t)j));
    return !ts_node_is_null(a) && !lf_tree_is(a, "undefined") &&
           !(lf_tree_is(a, "number") && lf_tree_text_eq(m->src, a, "0"));
}

/* A lock claimed by writing it: the module writes the path plainly (a
 * check-then-write acquire: `if (!exists(lockPath)) writeFile(lockPath,
 * String(Date.now()))`), removes it once it has judged it (its age, its
 * existence, its owner), and names it a lock (`lockPath`, `${dir}/x.lock`).
 * Nothing made it exclusively, so two starters can both "take" it; that is
 * the protocol's own bug, and its judged removals and ages are this model's
 * questions all the same, as in Python (LF_LOCK_CLAIM). A module with a lock
 * by use already excludes with that one. */
static int claim_records(builder *b) {
    for (size_t i = 0; i < b->keys.len; i++)
        if (lf_tslock_is_lock(b->keys.items[i].flags))
            return 0;
    lf_tssem *m = b->l->m;
    int any = 0;
    const unsigned never = LF_TSLOCK_USES | LF_TSLOCK_PKG | LF_TSLOCK_UNIQUE | LF_TSLOCK_STORED | LF_TSLOCK_INFO |
                           LF_TSLOCK_LIBDIR | LF_TSLOCK_APPENDED;
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || ev->judged == LF_TSJUDGED_NONE ||
            (b->keys.items[ev->key].flags & never) || (!ev->via_helper && !lf_tslock_fs_op(m, ev->node)) ||
            !ts_spells_lock(m->src, ev->target))
            continue;
        for (size_t j = 0; j < b->events.len; j++) {
            const lf_tslock_event *w = &b->events.items[j];
            if (w->kind == LF_TSEV_OVERWRITE && w->key == ev->key && !w->via_helper) {
                flag(b, ev->key, LF_TSLOCK_CLAIM, w->node);
                any = 1;
                break;
            }
        }
    }
    return any;
}

/* The parameter a key names, when it is one of a top-level function's or of
 * a method's (its sibling functions' parameters of the same name are the
 * same API argument: `lock(filename)` / `unlock(filename)`), else NULL. */
/* Is scope s a function of the module's API: a top-level function, one
 * assigned in a top-level declaration, or a method? */
static int api_function(const lf_tssem *m, int32_t s) {
    const lf_tsscope *sc = s > 0 ? &m->scopes[s] : NULL;
    return sc && sc->fn == s && (sc->parent == 0 || sc->cls >= 0);
}

static const lf_tsbinding *api_param(lf_tssem *m, const char *key) {
    const lf_tsbinding *p = lf_tssem_key_param(m, key);
    if (!p || !api_function(m, p->scope))
        return NULL;
    /* not a property of an object literal (`{ symlink: (target, path) =>
     * ... }`: an adapter's operation, no part of the module's lock API) */
    return lf_tree_is(ts_node_parent(m->scopes[p->scope].node), "pair") ? NULL : p;
}

/* Which locks the module breaks somewhere (BREAKABLE): a broken key, the
 * parameters such a lock is handed to, and a removed parameter of a sibling
 * function named like a breakable lock parameter (kesla's `unlock(filename)`
 * beside `lock(filename)`, katulong's `releaseFileLock(lockPath)`): a release
 * by name of any of these can delete a successor's lock. */
/* A removed parameter named like a sibling function's lock parameter
 * (`setLock(lockfile)` creates it, `clearLock(lockfile)` removes it) names
 * that lock: the API's callers pass the same path to both. */
/* Do the functions of parameters p and q belong to one API: methods of one
 * class, prototype methods of one constructor, or both plain top-level
 * functions of the module? */
static int same_api(lf_tssem *m, const lf_tsbinding *p, const lf_tsbinding *q) {
    if (m->scopes[p->scope].cls != m->scopes[q->scope].cls)
        return 0;
    TSNode x = lf_tssem_proto_owner(m, p->scope), y = lf_tssem_proto_owner(m, q->scope);
    if (ts_node_is_null(x) || ts_node_is_null(y))
        return ts_node_is_null(x) && ts_node_is_null(y);
    uint32_t xa = ts_node_start_byte(x), xl = ts_node_end_byte(x) - xa;
    uint32_t ya = ts_node_start_byte(y), yl = ts_node_end_byte(y) - ya;
    return xl == yl && !memcmp(m->src->text + xa, m->src->text + ya, xl);
}

/* The text of an "expr@S:" key after its function's scope, or NULL. */
static const char *expr_key_text(const char *key) {
    if (!key || strncmp(key, "expr@", 5) != 0)
        return NULL;
    const char *c = strchr(key + 5, ':');
    return c ? c + 1 : NULL;
}

/* An expression that names key k: its evidence's path, or a removal's. */
static TSNode key_expr(const builder *b, lf_tssem *m, size_t k) {
    const lf_tslock_key *o = &b->keys.items[k];
    if (lf_tree_is(o->evidence, "call_expression")) {
        TSNode e = lf_tssem_arg(o->evidence, 0);
        if (!ts_node_is_null(e) && lf_tssem_path_key(m, e) == o->key)
            return e;
    }
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->kind == LF_TSEV_REMOVE && ev->key == (int32_t)k && !ev->via_helper && !ts_node_is_null(ev->target))
            return ev->target;
    }
    return (TSNode){0};
}

/* A removed expression over the parameters of one API function, spelled as
 * a sibling's lock is over its own parameters of the same names
 * (`isLocked(name)` reads and removes `join(LOCKS_DIR, name)`,
 * `acquireLock(name)` creates it exclusively): the API's callers pass the
 * same names to both, so it names that lock. Only for a function that does
 * not create the path itself: two functions that each create and remove
 * `${file}.lock` are two protocols, each over the file its callers give. */
static int sibling_expr_lock(const builder *b, lf_tssem *m, const lf_tslock_key *r, TSNode target, size_t k) {
    const lf_tslock_key *o = &b->keys.items[k];
    const char *rt = expr_key_text(r->key), *ot = expr_key_text(o->key);
    if (!rt || !ot || strcmp(rt, ot) != 0)
        return 0;
    TSNode oe = key_expr(b, m, k);
    if (ts_node_is_null(oe))
        return 0;
    const lf_tsbinding *rp = lf_tssem_api_params_expr(m, lf_tssem_resolve_value(m, target));
    const lf_tsbinding *op = lf_tssem_api_params_expr(m, lf_tssem_resolve_value(m, oe));
    return rp && op && rp->scope != op->scope && same_api(m, op, rp);
}

/* Does removed key r name key k as its sibling's lock: r a parameter named as
 * k's parameter in one API (rp, api_param), or, with no such parameter, r an
 * expression over its function's parameters spelled as k's (sibling_expr_lock)? */
static int names_sibling(const builder *b, lf_tssem *m, const lf_tslock_key *r, const lf_tsbinding *rp,
                         TSNode target, size_t k) {
    if (!rp)
        return sibling_expr_lock(b, m, r, target, k);
    const lf_tsbinding *op = api_param(m, b->keys.items[k].key);
    return op && op->name == rp->name && same_api(m, op, rp);
}

static void sibling_locks(builder *b, lf_tssem *m) {
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || ev->via_helper)
            continue;
        lf_tslock_key *r = &b->keys.items[ev->key];
        const lf_tsbinding *rp = lf_tslock_is_lock(r->flags) ? NULL : api_param(m, r->key);
        int by_expr = !lf_tslock_is_lock(r->flags) && !(r->flags & LF_TSLOCK_CREATED) && expr_key_text(r->key);
        if ((!rp && !by_expr) || (r->flags & (LF_TSLOCK_PKG | LF_TSLOCK_APPENDED)))
            continue;
        for (size_t k = 0; k < b->keys.len; k++) {
            const lf_tslock_key *o = &b->keys.items[k];
            if (k == (size_t)ev->key || !(o->flags & (LF_TSLOCK_EXCL | LF_TSLOCK_PID | LF_TSLOCK_HELPER)) ||
                !lf_tslock_is_lock(o->flags))
                continue;
            if (!names_sibling(b, m, r, rp, ev->target, k))
                continue;
            r = &b->keys.items[ev->key];
            r->flags |= LF_TSLOCK_ARG;
            if (ts_node_is_null(r->evidence))
                r->evidence = o->evidence;
            break;
        }
    }
}

static void flow_breakable(builder *b, lf_tssem *m, const link_vec *links) {
    sibling_locks(b, m);
    for (size_t i = 0; i < b->keys.len; i++)
        if (b->keys.items[i].flags & (LF_TSLOCK_BROKEN | LF_TSLOCK_BROKEN_LIVE))
            b->keys.items[i].flags |= LF_TSLOCK_BREAKABLE;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        int changed = 0;
        for (size_t i = 0; i < links->len; i++) {
            const link *lk = &links->items[i];
            if (lk->arg_key < 0 || lk->param_key < 0)
                continue;
            lf_tslock_key *ak = &b->keys.items[lk->arg_key], *pk = &b->keys.items[lk->param_key];
            unsigned moved = ((ak->flags | pk->flags) & LF_TSLOCK_BREAKABLE);
            if (moved && lf_tslock_is_lock(ak->flags) && !(pk->flags & LF_TSLOCK_BREAKABLE)) {
                pk->flags |= LF_TSLOCK_BREAKABLE;
                if (ts_node_is_null(pk->broken_at))
                    pk->broken_at = ak->broken_at;
                if (ts_node_is_null(pk->retaken_at))
                    pk->retaken_at = ak->retaken_at;
                changed = 1;
            }
            if (moved && lf_tslock_is_lock(ak->flags) && !(ak->flags & LF_TSLOCK_BREAKABLE)) {
                ak->flags |= LF_TSLOCK_BREAKABLE;
                if (ts_node_is_null(ak->broken_at))
                    ak->broken_at = pk->broken_at;
                if (ts_node_is_null(ak->retaken_at))
                    ak->retaken_at = pk->retaken_at;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    /* sibling parameters of the same name; only removed ones matter */
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || ev->via_helper)
            continue;
        lf_tslock_key *r = &b->keys.items[ev->key];
        const lf_tsbinding *rp = (r->flags & LF_TSLOCK_BREAKABLE) ? NULL : api_param(m, r->key);
        int by_expr = !(r->flags & (LF_TSLOCK_BREAKABLE | LF_TSLOCK_CREATED)) && expr_key_text(r->key);
        if (!rp && !by_expr)
            continue;
        for (size_t k = 0; k < b->keys.len; k++) {
            const lf_tslock_key *o = &b->keys.items[k];
            if (k == (size_t)ev->key || !(o->flags & LF_TSLOCK_BREAKABLE) || !lf_tslock_is_lock(o->flags))
                continue;
            if (!names_sibling(b, m, r, rp, ev->target, k))
                continue;
            r->flags |= LF_TSLOCK_ARG | LF_TSLOCK_BREAKABLE;
            if (ts_node_is_null(r->evidence))
                r->evidence = o->evidence;
            if (ts_node_is_null(r->broken_at))
                r->broken_at = o->broken_at;
            if (ts_node_is_null(r->retaken_at))
                r->retaken_at = o->retaken_at;
            break;
        }
    }
}

/* Does function `fn` itself create its parameter key `pk` exclusively? */
static int creates_param(const builder *b, const int32_t *head, const int32_t *next, int32_t pk, int32_t fn) {
    for (int32_t e = head[pk]; e >= 0; e = next[e])
        if (b->events.items[e].kind == LF_TSEV_CREATE && b->events.items[e].fn == fn)
            return 1;
    return 0;
}

/* A module with a lock it creates exclusively or takes through a lock
 * library excludes with that one; a file that only holds a pid (a server's
 * published url and pid, a status record) is then information, not a lock,
 * even when the module drops it once its pid is gone. */
/* Is the call's result thrown away: the call (awaited or not) is a whole
 * expression statement? */
static int result_discarded(TSNode call) {
    TSNode cur = call, p = ts_node_parent(call);
    while (!ts_node_is_null(p) && (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression"))) {
        cur = p;
        p = ts_node_parent(p);
    }
    return !ts_node_is_null(p) && lf_tree_is(p, "expression_statement") && ts_node_eq(ts_node_named_child(p, 0), cur);
}

/* Does some function look at key k (a judgement) and then write it? */
static int judged_then_written(const builder *b, int32_t k) {
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *j = &b->events.items[i];
        if (j->kind != LF_TSEV_JUDGE || j->key != k)
            continue;
        for (size_t w = 0; w < b->events.len; w++) {
            const lf_tslock_event *e = &b->events.items[w];
            if (e->key == k && e->fn == j->fn && (e->kind == LF_TSEV_OVERWRITE || e->kind == LF_TSEV_CREATE) &&
                ts_node_start_byte(e->node) > ts_node_start_byte(j->node))
                return 1;
        }
    }
    return 0;
}

/* Did the module itself make k a pid file, by writing its pid there (rather
 * than by comparing an owner record's pid with its own: a lock another
 * module takes, released here)? */
static int pid_written_here(const builder *b, const lf_tslock_key *k) {
    const char *op = lf_tree_is(k->evidence, "call_expression") ? lf_tslock_fs_op(b->l->m, k->evidence) : NULL;
    return op && !strcmp(op, "writeFile");
}

static void info_records(builder *b) {
    int has_lock = 0, probes = 0;
    for (size_t i = 0; i < b->keys.len && !has_lock; i++) {
        unsigned f = b->keys.items[i].flags;
        has_lock = (f & (LF_TSLOCK_EXCL | LF_TSLOCK_HELPER)) && lf_tslock_is_lock(f);
    }
    for (size_t i = 0; i < b->events.len && !probes; i++)
        probes = b->events.items[i].kind == LF_TSEV_PROBE;
    /* Nor, in a module that never asks whether a pid is alive, is a pid file
     * it writes plainly (not exclusively) and never looks at before writing
     * it: nothing here keeps anyone out with it (hotel's daemon publishing
     * its pid, removed on exit). A function that looks at it (exists, stat,
     * reads the record's age) and then writes it is a check-then-take, a
     * lock (CxPilot's runner.lock). */
    for (size_t i = 0; i < b->keys.len && (has_lock || !probes); i++) {
        lf_tslock_key *k = &b->keys.items[i];
        if ((k->flags & LF_TSLOCK_USES) == LF_TSLOCK_PID && !(k->flags & LF_TSLOCK_CREATED) &&
            (has_lock || (pid_written_here(b, k) && !judged_then_written(b, (int32_t)i))))
            k->flags |= LF_TSLOCK_INFO;
    }
}

/* Is `n` inside the byte range of `outer`? */
static int inside(TSNode n, TSNode outer) {
    return !ts_node_is_null(outer) && ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* Does the try body hold another file-system call after the create? Then
 * its catch also sees that call's failures (a temp written `wx`, then
 * renamed onto its target: the catch cleans up this process's own temp). */
static int fs_after(lf_tssem *m, const lf_tslock_event *create, TSNode body) {
    uint32_t from = ts_node_end_byte(create->node);
    for (int32_t i = create->fn >= 0 ? m->scopes[create->fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) >= from && inside(c, body) && lf_tslock_fs_op(m, c))
            return 1;
    }
    return 0;
}

/* Does removal event i sit in the catch of a try whose body creates the
 * same key exclusively in the same function? The create failed: the lock
 * exists and is someone else's, and removing it is a takeover judged on
 * existence alone (standup's `catch { if (late) rmdir(lock) }`). Events are
 * in source order, so the create comes before. Only a removal made there
 * counts, or a call of a helper that judges nothing (judged_by_failed_create). */
static int after_failed_create(const builder *b, size_t i) {
    const lf_tslock_event *ev = &b->events.items[i];
    for (TSNode p = ts_node_parent(ev->node); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (function_boundary(p))
            return 0;
        if (!lf_tree_is(p, "catch_clause"))
            continue;
        TSNode body = lf_tree_field(ts_node_parent(p), "body");
        for (size_t j = i; j-- > 0;) {
            const lf_tslock_event *c = &b->events.items[j];
            if (c->kind == LF_TSEV_CREATE && c->key == ev->key && c->fn == ev->fn && inside(c->node, body))
                return !fs_after(b->l->m, c, body);
        }
    }
    return 0;
}

/* Does a break leave the loop `loop` (one not inside a nested loop, switch
 * or function)? */
typedef struct break_search {
    TSNode loop;
    int found;
} break_search;

static int loop_node(TSNode n) {
    return lf_tree_is(n, "while_statement") || lf_tree_is(n, "for_statement") || lf_tree_is(n, "for_in_statement") ||
           lf_tree_is(n, "do_statement");
}

static lf_walk_action visit_break(TSNode n, void *ud) {
    break_search *s = ud;
    if (s->found)
        return LF_WALK_STOP;
    if (!ts_node_eq(n, s->loop) && (loop_node(n) || lf_tree_is(n, "switch_statement") || function_boundary(n)))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "break_statement"))
        s->found = 1;
    return LF_WALK_CONTINUE;
}

int lf_tslock_event_within(const lf_tslock *l, lf_tslock_event_kind kind, int32_t key, TSNode n) {
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == kind && (key < 0 || l->events[i].key == key) && lf_tree_within(l->events[i].node, n))
            return 1;
    return 0;
}

int lf_tslock_loop_breaks(TSNode loop) {
    break_search bk = {loop, 0};
    lf_tree_walk(loop, visit_break, &bk);
    return bk.found;
}

/* Does a return follow `from` in `body`, outside nested functions? */
typedef struct return_search {
    uint32_t from;
    int found;
} return_search;

static lf_walk_action visit_return_after(TSNode n, void *ud) {
    return_search *s = ud;
    if (s->found)
        return LF_WALK_STOP;
    if (function_boundary(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "return_statement") && ts_node_start_byte(n) > s->from)
        s->found = 1;
    return LF_WALK_CONTINUE;
}

/* Does removal event i follow, in its block, a retry loop of the same
 * function's exclusive create whose success returns from the function and
 * which nothing else leaves but its end (`while (Date.now() < deadline) {
 * try { openSync(lock, "wx"); return } catch { await sleep(20) } }
 * unlinkSync(lock)`)? Then it runs only once every create failed: the lock
 * is someone else's, and removing it takes it over on existence (and the
 * time waited) alone. */
static int after_create_loop(const builder *b, size_t i) {
    const lf_tslock_event *ev = &b->events.items[i];
    for (TSNode a = ev->node; !ts_node_is_null(a) && !function_boundary(a); a = ts_node_parent(a)) {
        for (TSNode s = ts_node_prev_named_sibling(a); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s)) {
            if (!loop_node(s))
                continue;
            for (size_t j = i; j-- > 0;) {
                const lf_tslock_event *c = &b->events.items[j];
                if (c->kind != LF_TSEV_CREATE || c->key != ev->key || c->fn != ev->fn || c->via_helper ||
                    !inside(c->node, s))
                    continue;
                TSNode t = c->node;
                while (!ts_node_is_null(t) && !ts_node_eq(t, s) && !lf_tree_is(t, "try_statement"))
                    t = ts_node_parent(t);
                TSNode body = lf_tree_is(t, "try_statement") ? lf_tree_field(t, "body") : (TSNode){0};
                if (ts_node_is_null(body) || !inside(c->node, body))
                    continue;
                return_search r = {ts_node_end_byte(c->node), 0};
                lf_tree_walk(body, visit_return_after, &r);
                return r.found && !lf_tslock_loop_breaks(s);
            }
        }
    }
    return 0;
}

/* Does the helper the removal ev calls remove the lock without judging
 * anything itself (`releaseLock() { fs.remove(this.lockPath) }`)? Called
 * where its caller's create failed, it is that caller's takeover; a helper
 * that looks or probes first (`reclaimIfDead(file)`) judges for itself. */
static int plain_removal_helper(const builder *b, const lf_tslock_event *ev) {
    int32_t h = lf_tssem_local_callee(b->l->m, ev->node);
    int removes = 0;
    for (size_t j = 0; h > 0 && j < b->events.len; j++) {
        const lf_tslock_event *e = &b->events.items[j];
        if (e->fn != h)
            continue;
        if (e->kind == LF_TSEV_JUDGE || e->kind == LF_TSEV_PROBE || e->kind == LF_TSEV_IDENTITY ||
            e->kind == LF_TSEV_CREATE)
            return 0;
        removes |= e->kind == LF_TSEV_REMOVE && !e->via_helper && e->key == ev->helper_key;
    }
    return removes;
}

/* Is the statement holding the call followed, in its block, by a throw
 * (`catch (e) { cleanup(file); throw e }`): a cleanup on the way out, not a
 * takeover the function goes on from? */
static int rethrown_after(TSNode call) {
    TSNode st = call;
    while (!ts_node_is_null(st) && !function_boundary(st) && !lf_tree_is(ts_node_parent(st), "statement_block"))
        st = ts_node_parent(st);
    if (ts_node_is_null(st) || function_boundary(st))
        return 0;
    for (TSNode n = ts_node_next_named_sibling(st); !ts_node_is_null(n); n = ts_node_next_named_sibling(n))
        if (lf_tree_is(n, "throw_statement"))
            return 1;
    return 0;
}

/* Did the function create the key again between the failed create and the
 * removal (`rmSync(lock); mkdirSync(lock); if (!writeOwner()) ...`)? Then the
 * helper's removal undoes that create of its own. */
static int recreated_before(const builder *b, size_t i) {
    const lf_tslock_event *ev = &b->events.items[i];
    for (TSNode p = ts_node_parent(ev->node); !ts_node_is_null(p) && !function_boundary(p); p = ts_node_parent(p)) {
        if (!lf_tree_is(p, "catch_clause"))
            continue;
        for (size_t j = i; j-- > 0;) {
            const lf_tslock_event *c = &b->events.items[j];
            if (c->kind == LF_TSEV_CREATE && c->key == ev->key && c->fn == ev->fn && inside(c->node, p))
                return 1;
        }
        return 0;
    }
    return 0;
}

/* Is removal event i judged by its function's own exclusive create failing
 * (in its catch, or after its retry loop): made there, or by a call of a
 * helper that removes the lock as it is told, on the way on to take it (not
 * a cleanup before rethrowing, not undoing a create made again since)? */
static int judged_by_failed_create(const builder *b, size_t i) {
    const lf_tslock_event *ev = &b->events.items[i];
    if (!after_failed_create(b, i) && !after_create_loop(b, i))
        return 0;
    return !ev->via_helper ||
           (plain_removal_helper(b, ev) && !rethrown_after(ev->node) && !recreated_before(b, i));
}

/* Does the helper the via-helper removal ev calls create the path it
 * removes, exclusively, before its own removal of it? */
static int helper_claims_own(const builder *b, lf_tssem *m, const lf_tslock_event *ev) {
    int32_t h = lf_tssem_local_callee(m, ev->node);
    int created = 0;
    for (size_t i = 0; h > 0 && i < b->events.len; i++) {
        const lf_tslock_event *d = &b->events.items[i];
        if (d->fn != h || d->key != ev->key || d->via_helper)
            continue;
        if (d->kind == LF_TSEV_CREATE)
            created = 1;
        else if (d->kind == LF_TSEV_REMOVE)
            return created;
    }
    return 0;
}

/* Is the removal i the holder's release of its own create: on every way to
 * it through its function's graph, the function's last event on the lock is
 * an exclusive create of it that succeeded (`mkdirSync(lock); break;` in a
 * retry loop, the work, then `finally { release(lock) }`; or a lock
 * library's take, `lockfile.lockSync(lock)`), however often an
 * earlier turn looked at the lock? A look (or another removal) after the
 * create, a create in a callback or a helper, or a way that skips the create
 * leaves it a removal after a look. The create's failure (an exceptional
 * edge) carries what held before it. */
static int released_after_own_create(const builder *b, const lf_tssem *m, size_t i) {
    const lf_tslock_event *ev = &b->events.items[i];
    TSNode fn = m->scopes[ev->fn].node;
    lf_cfg *g = lf_tscfg_build(m->src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    int nested = 0, creates = 0;
    int32_t at = lf_tscfg_node_of(g, fn, ev->node, &nested);
    if (nested)
        at = -1; /* in a callback: its own graph */
    for (size_t j = 0; at >= 0 && j < b->events.len; j++) {
        const lf_tslock_event *e = &b->events.items[j];
        if (e->key != ev->key || e->fn != ev->fn || j == i)
            continue;
        int inner = 0;
        int32_t id = lf_tscfg_node_of(g, fn, e->node, &inner);
        if (inner)
            id = -1;
        if ((e->kind == LF_TSEV_CREATE || e->kind == LF_TSEV_ACQUIRE) && !e->via_helper && id >= 0) {
            gen[id] = 1; /* its own create, or a lock library's take of the path (npm lockfile) */
            creates++;
        } else if (e->kind == LF_TSEV_JUDGE || e->kind == LF_TSEV_REMOVE || e->kind == LF_TSEV_OVERWRITE) {
            if (id >= 0)
                kill[id] = 1;
        }
    }
    int held = 0;
    if (at >= 0 && creates) {
        for (size_t v = 0; v < n; v++)
            if (kill[v])
                gen[v] = 0; /* a statement that looks and creates (`exists(p) || mkdir(p)`) may not create */
        lf_cfg_lockstate st;
        lf_cfg_lockstate_run(g, gen, kill, 0, &st);
        held = st.reachable[at] && (st.must_in[at] & 1u);
        lf_cfg_lockstate_free(&st);
    }
    free(gen);
    free(kill);
    lf_cfg_free(g);
    return held;
}

/* A guarded hard link onto a path (`writeFileSync(tmp, pid); linkSync(tmp,
 * lock)`, EEXIST handled) is an exclusive create of a file that appears with
 * its content, the way hermit's lifecycle lock is taken. Installers link files
 * into place too; a link is a lock, like a symlink, only in a module that
 * probes processes' liveness and reads the linked path's content back (the
 * owner record): directly, or at a caller handing the path to the linking
 * helper. */
static void link_locks(builder *b, lf_tssem *m, const link_vec *links) {
    size_t n = b->events.len;
    int probes = 0;
    for (size_t i = 0; i < n && !probes; i++)
        probes = b->events.items[i].kind == LF_TSEV_PROBE;
    for (size_t i = 0; i < n && probes; i++) {
        const lf_tslock_event *c = &b->events.items[i];
        const char *op = c->kind == LF_TSEV_CREATE && c->key >= 0 ? lf_tslock_fs_op(m, c->node) : NULL;
        if (!op || strcmp(op, "link") != 0)
            continue;
        int read_back = 0;
        for (size_t j = 0; j < n && !read_back; j++) {
            const lf_tslock_event *r = &b->events.items[j];
            if (r->kind != LF_TSEV_JUDGE || !r->content || r->key < 0)
                continue;
            read_back = r->key == c->key;
            for (size_t k = 0; k < links->len && !read_back; k++) {
                const link *lk = &links->items[k];
                if (lk->param_key != c->key)
                    continue;
                read_back = lk->arg_key == r->key;
                /* or a sibling helper reads back what the caller handed to
                 * both (`tryLink(lockFile)`, then `readHolder(lockFile)`) */
                for (size_t q = 0; q < links->len && !read_back; q++)
                    read_back = links->items[q].param_key == r->key && links->items[q].arg_key == lk->arg_key;
            }
        }
        if (read_back)
            flag(b, c->key, LF_TSLOCK_CREATED | LF_TSLOCK_EXCL | LF_TSLOCK_FILE, c->node);
    }
}

/* The key of the path function s returns, when every `return` of a value in
 * it (not in a nested function) returns one key the model already knows
 * (`return lockPath` after `writeFile(lockPath, pid, {flag: "wx"})`), else -1. */
typedef struct returned_key {
    builder *b;
    lf_tssem *m;
    TSNode body;
    int32_t key; /* -1 none yet, -2 no single key */
} returned_key;

static lf_walk_action visit_returned(TSNode n, void *ud) {
    returned_key *r = ud;
    if (!ts_node_eq(n, r->body) && (lf_tree_is(n, "arrow_function") || lf_tree_is(n, "function_expression") ||
                                    lf_tree_is(n, "function_declaration") || lf_tree_is(n, "method_definition")))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "return_statement") || ts_node_named_child_count(n) == 0)
        return LF_WALK_CONTINUE;
    const char *k = lf_tssem_path_key(r->m, ts_node_named_child(n, 0));
    int32_t at = -1;
    for (size_t i = 0; k && i < r->b->keys.len && at < 0; i++)
        if (r->b->keys.items[i].key == k)
            at = (int32_t)i;
    r->key = at < 0 || (r->key >= 0 && r->key != at) ? -2 : at;
    return r->key == -2 ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

/* `const lockPath = await acquireLock(file); ... releaseLock(lockPath)`: the
 * caller's key `call:acquireLock` is the path acquireLock returns, the lock
 * it creates and breaks there. A link (returned) from the call's key to
 * that key lets the lock's flags reach what the caller hands on, so the
 * release helper's removal is judged as a release of a lock the module
 * breaks, and the call's key is that lock. Only for `call:` keys handed to
 * one of the module's functions (at most a few per module: the scan of the
 * scopes stays linear). */
#define RETURN_LINKS_MAX 16
static void return_links(builder *b, lf_tssem *m, link_vec *links) {
    int32_t want[RETURN_LINKS_MAX];
    size_t n_want = 0, n_links = links->len;
    for (size_t i = 0; i < n_links && n_want < RETURN_LINKS_MAX; i++) {
        int32_t ak = links->items[i].arg_key;
        if (ak < 0 || strncmp(b->keys.items[ak].key, "call:", 5) != 0)
            continue;
        int dup = 0;
        for (size_t j = 0; j < n_want; j++)
            dup |= want[j] == ak;
        if (!dup)
            want[n_want++] = ak;
    }
    for (size_t s = 1; s < m->n_scopes && n_want; s++) {
        if (m->scopes[s].fn != (int32_t)s)
            continue;
        for (size_t j = 0; j < n_want; j++) {
            if (strcmp(m->scopes[s].name, b->keys.items[want[j]].key + 5) != 0)
                continue;
            returned_key r = {b, m, m->scopes[s].node, -1};
            lf_tree_walk(r.body, visit_returned, &r);
            if (r.key >= 0 && r.key != want[j]) {
                link lk = {.call = m->scopes[s].node, .fn = (int32_t)s, .callee = (int32_t)s,
                           .arg_key = want[j], .param_key = r.key, .returned = 1};
                LF_VEC_PUSH(links, lk);
                /* the same lock, made the same way */
                const lf_tslock_key *rk = &b->keys.items[r.key];
                flag(b, want[j],
                     rk->flags & (LF_TSLOCK_EXCL | LF_TSLOCK_PID | LF_TSLOCK_HELPER | LF_TSLOCK_CREATED |
                                  LF_TSLOCK_FILE | LF_TSLOCK_DIR),
                     rk->evidence);
            }
        }
    }
}

/* A path a helper names on its own, the same for every caller: a field, a
 * result of one of the module's functions, or a module-level name or
 * expression (`unlinkSync(LOCK_FILE)` in `release()`). Its removals and
 * judgements inside the helper happen to that path at each call. A
 * parameter's key moves through links instead, and an expression over the
 * helper's locals (`expr@N:`) names a file of that call alone. */
static int helper_own_key(const char *k) {
    return strncmp(k, "call:", 5) == 0 || strncmp(k, "this.", 5) == 0 || strncmp(k, "expr:", 5) == 0 ||
           strncmp(k, "name:", 5) == 0;
}

/* The name a formal parameter binds (`dir`, `dir: string`, `dir = X`), or null. */
static TSNode formal_name(TSNode p) {
    if (lf_tree_is(p, "required_parameter") || lf_tree_is(p, "optional_parameter"))
        p = lf_tree_field(p, "pattern");
    if (lf_tree_is(p, "assignment_pattern"))
        p = lf_tree_field(p, "left");
    return lf_tree_is(p, "identifier") ? p : (TSNode){0};
}

/* A sibling API function's path over its parameters ("expr@api" keys:
 * `path.join(dir || DEFAULT_DIR, PID_FILENAME)` in `remove(dir)`) is the
 * caller's own when the caller, an API function of the same class, hands
 * the helper its own parameters of the same names in the same places
 * (`check(dir)` calling `remove(dir)`). */
static int api_key_passed_on(lf_tssem *m, const char *k, TSNode call, int32_t h, int32_t caller) {
    if (strncmp(k, "expr@api", 8) != 0 || caller <= 0 || m->scopes[caller].fn != caller ||
        m->scopes[caller].cls != m->scopes[h].cls || !(m->scopes[caller].parent == 0 || m->scopes[caller].cls >= 0))
        return 0;
    TSNode params = lf_tree_field(m->scopes[h].node, "parameters");
    uint32_t n = ts_node_named_child_count(params);
    if (!n || lf_tssem_nargs(call) != n)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode name = formal_name(ts_node_named_child(params, i));
        TSNode arg = lf_tssem_unwrap(lf_tssem_arg(call, i));
        if (ts_node_is_null(name) || !lf_tree_is(arg, "identifier") || !lf_tree_same_text(m->src, name, arg))
            return 0;
        uint32_t a = ts_node_start_byte(arg);
        const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, arg),
                                                     lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(arg) - a), a);
        if (!bd || bd->kind != LF_TSBIND_PARAM || bd->scope != caller)
            return 0;
    }
    return 1;
}

/* A parameter of a function that encloses helper h and creates the lock
 * there exclusively (`function write(filename) { openSync(filename, "wx")
 * ... function removePidFile() { unlinkSync(filename) } }`, or a `wx` write
 * of its pid whose failure the function lets its caller see): the closure's
 * path is fixed for each call of it, as a helper's own path is. */
static int closure_key(const builder *b, lf_tssem *m, int32_t key, int32_t h) {
    const lf_tsbinding *p = key >= 0 ? lf_tssem_key_param(m, b->keys.items[key].key) : NULL;
    unsigned f = b->keys.items[key].flags;
    return p && h > 0 && p->scope != h && lf_tssem_scope_within(m, h, p->scope) &&
           ((f & LF_TSLOCK_EXCL) || ((f & LF_TSLOCK_CREATED) && (f & LF_TSLOCK_PID)));
}

/* Where the module computes an age (`Date.now()`, a stat's `mtimeMs`,
 * `mtime`, `ctimeMs`): per declared function, in source order. A read of
 * the owner record followed by an age in the same function is a judgement
 * of the lock's staleness, like a look at its mtime. */
typedef struct age_point {
    int32_t fn;
    uint32_t at;
} age_point;
typedef LF_VEC(age_point) age_vec;

static int cmp_age(const void *a, const void *b) {
    const age_point *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

static void age_points(lf_tssem *m, age_vec *out) {
    for (size_t i = 0; i < m->n_calls; i++)
        if (m->calls[i].callee && !strcmp(m->calls[i].callee, "Date.now")) {
            age_point a = {lf_tslock_fn_of(m, m->calls[i].scope), ts_node_start_byte(m->calls[i].node)};
            LF_VEC_PUSH(out, a);
        }
    static const char *const k_times[] = {"mtimeMs", "mtime", "ctimeMs", "ctime", NULL};
    lf_tsnode_vec t = {0};
    for (size_t w = 0; k_times[w]; w++) {
        t.len = 0;
        lf_tssem_tokens(m, k_times[w], &t);
        for (size_t i = 0; i < t.len; i++) {
            TSNode mem = member_of(t.items[i]);
            if (ts_node_is_null(mem) || !lf_tree_text_eq(m->src, t.items[i], k_times[w]))
                continue;
            age_point a = {lf_tslock_fn_of(m, lf_tssem_scope_of(m, mem)), ts_node_start_byte(mem)};
            LF_VEC_PUSH(out, a);
        }
    }
    LF_VEC_FREE(&t);
    if (out->len)
        qsort(out->items, out->len, sizeof *out->items, cmp_age);
}

/* Does function fn create key k exclusively, or overwrite it (a direct
 * event)? */
static int takes_key(const builder *b, const int32_t *head, const int32_t *next, int32_t k, int32_t fn) {
    for (int32_t e = head[k]; e >= 0; e = next[e]) {
        const lf_tslock_event *ev = &b->events.items[e];
        if (ev->fn == fn && (ev->kind == LF_TSEV_CREATE || ev->kind == LF_TSEV_OVERWRITE))
            return 1;
    }
    return 0;
}

/* The module's functions that return a verdict on a lock: they look at a
 * path (a judgement event of their own) and compute its age or probe a pid
 * (here, or through a liveness helper they call): `isStale(path)`,
 * `_isStale()`, `isLockStale(lockPath)`. verdict[f]: 0 none, else the
 * judgement a removal after a call whose result is used inherits: presence
 * (an age can be exceeded by a live holder) or liveness (a pid probe). */
static unsigned char *verdict_helpers(const builder *b, const lf_tssem *m, const age_vec *ages, const int32_t *head,
                                      const int32_t *next) {
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    unsigned char *judge = lf_xcalloc(ns, 1), *out = lf_xcalloc(ns, 1);
    for (size_t i = 0; i < b->events.len; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->fn <= 0)
            continue;
        /* an acquire helper looks at the lock as part of taking it: what it
         * returns is "acquired", not a verdict on someone else's lock */
        if (ev->kind == LF_TSEV_JUDGE && ev->key >= 0 && !ev->via_helper && !takes_key(b, head, next, ev->key, ev->fn))
            judge[ev->fn] |= 1;
        if (ev->kind == LF_TSEV_PROBE)
            judge[ev->fn] |= 2;
    }
    for (size_t i = 0; i < ages->len; i++)
        if (ages->items[i].fn > 0)
            judge[ages->items[i].fn] |= 4;
    for (size_t f = 1; f < ns; f++)
        if ((judge[f] & 1) && (judge[f] & 6))
            out[f] = (judge[f] & 4) ? LF_TSJUDGED_PRESENCE : LF_TSJUDGED_LIVENESS;
    free(judge);
    return out;
}

/* A liveness verdict helper that looks at its lock only through the
 * module's reader (`checkLock(cwd)`: `const lock = await readLockFile(cwd)`,
 * then a probe of lock.pid) and does nothing else to it (no create, no
 * removal, no age): verdict_helpers sees no look of its own, so its record
 * read becomes one at each call, as a direct read would be, and the helper
 * a liveness verdict: a removal after `if (status.isStale)` is judged by it.
 * Keys of the helper's own (a module path, a field, `getLockPath(cwd)`), not
 * its parameters. */
static void lift_reader_verdicts(builder *b, lf_tssem *m, unsigned char *verdict_of) {
    size_t n = b->events.len, ns = m->n_scopes ? m->n_scopes : 1;
    /* per function: 1 reads a record through a helper, 2 probes, 4 anything else */
    unsigned char *did = lf_xcalloc(ns, 1);
    for (size_t i = 0; i < n; i++) {
        const lf_tslock_event *ev = &b->events.items[i];
        if (ev->fn <= 0 || (size_t)ev->fn >= ns)
            continue;
        if (ev->kind == LF_TSEV_JUDGE && ev->via_helper && ev->content && ev->key >= 0 &&
            !lf_tssem_key_param(m, b->keys.items[ev->key].key))
            did[ev->fn] |= 1;
        else if (ev->kind == LF_TSEV_PROBE)
            did[ev->fn] |= 2;
        else
            did[ev->fn] |= 4;
    }
    for (size_t i = 0; i < n; i++) {
        lf_tslock_event ev = b->events.items[i];
        if (ev.kind != LF_TSEV_JUDGE || ev.fn <= 0 || (size_t)ev.fn >= ns || did[ev.fn] != 3 || verdict_of[ev.fn])
            continue;
        int calls = 0;
        for (int32_t c = lf_tssem_first_caller(m, ev.fn); c >= 0 && calls < 64; c = lf_tssem_next_caller(m, c)) {
            calls++;
            lf_tslock_event lifted = ev;
            lifted.fn = lf_tslock_fn_of(m, m->calls[c].scope);
            lifted.node = m->calls[c].node;
            if (lifted.fn != ev.fn)
                LF_VEC_PUSH(&b->events, lifted);
        }
    }
    for (size_t f = 1; f < ns; f++)
        if (did[f] == 3 && !verdict_of[f])
            verdict_of[f] = LF_TSJUDGED_LIVENESS;
    free(did);
}

static int cmp_events(const void *a, const void *b) {
    const lf_tslock_event *x = a, *y = b;
    uint32_t sx = ts_node_start_byte(x->node), sy = ts_node_start_byte(y->node);
    if (sx != sy)
        return sx < sy ? -1 : 1;
    return (int)x->kind - (int)y->kind;
}

/* Is the clock read at age (position + 1, 0: none) a sweep's: taken once
 * before the innermost loop around the removal (`const now = Date.now();
 * for (const f of readdirSync(dir)) { ... now - ts > STALE ... }`)? A clock
 * read before a release outside any loop is a deadline or a log line, not an
 * age of the record read after it. */
static int sweep_clock(TSNode removal, uint32_t age) {
    if (!age)
        return 0;
    for (TSNode cur = ts_node_parent(removal); !ts_node_is_null(cur); cur = ts_node_parent(cur)) {
        if (function_boundary(cur))
            return 0;
        const char *t = ts_node_type(cur);
        if (!strcmp(t, "for_in_statement") || !strcmp(t, "for_statement") || !strcmp(t, "while_statement") ||
            !strcmp(t, "do_statement"))
            return age - 1 < ts_node_start_byte(cur);
    }
    return 0;
}

static lf_tslock *build(lf_tssem *m) {
    lf_tslock *l = lf_xcalloc(1, sizeof *l);
    l->m = m;
    builder b;
    memset(&b, 0, sizeof b);
    b.l = l;
    direct_events(&b, m);
    library_dirs(&b, m);
    unique_listings(&b, m);
    id_walk iw = {&b, m};
    lf_tsnode_vec cand = {0};
    identity_candidates(m, &cand);
    for (size_t i = 0; i < cand.len; i++)
        visit_identity(cand.items[i], &iw);
    LF_VEC_FREE(&cand);
    link_vec links = {0};
    collect_links(&b, m, &links);
    link_locks(&b, m, &links);
    flow_uses(&b, &links);
    /* removals and judgements of a parameter happen to the caller's argument */
    size_t n_direct = b.events.len;
    int32_t *ev_head = lf_xmalloc((b.keys.len + 1) * sizeof *ev_head);
    int32_t *ev_next = lf_xmalloc((n_direct + 1) * sizeof *ev_next);
    for (size_t k = 0; k <= b.keys.len; k++)
        ev_head[k] = -1;
    for (size_t e = n_direct; e-- > 0;) {
        int32_t k = b.events.items[e].key;
        if (k >= 0) {
            ev_next[e] = ev_head[k];
            ev_head[k] = (int32_t)e;
        }
    }
    /* a helper that removes a path of its own (a field, the result of one of
     * the module's functions: `rmdir(getLockFile(file))`) removes it for the
     * caller too */
    int32_t *fn_head = lf_xmalloc((m->n_scopes + 1) * sizeof *fn_head);
    int32_t *fn_next = lf_xmalloc((n_direct + 1) * sizeof *fn_next);
    for (size_t k = 0; k <= m->n_scopes; k++)
        fn_head[k] = -1;
    for (size_t e = n_direct; e-- > 0;) {
        fn_next[e] = fn_head[b.events.items[e].fn];
        fn_head[b.events.items[e].fn] = (int32_t)e;
    }
    /* Only a probe, or a removal or judgement of a path of the helper's own, moves
     * to its callers: with none, resolving every call's callee finds nothing. */
    int helper_events = 0;
    for (size_t e = 0; e < n_direct && !helper_events; e++) {
        const lf_tslock_event *ev = &b.events.items[e];
        const char *k = ev->key >= 0 ? b.keys.items[ev->key].key : "";
        helper_events = ev->kind == LF_TSEV_PROBE ||
                        ((ev->kind == LF_TSEV_REMOVE || ev->kind == LF_TSEV_JUDGE) &&
                         (helper_own_key(k) || closure_key(&b, m, ev->key, ev->fn) || !strncmp(k, "expr@api", 8)));
    }
    unsigned char *takes_lock = lf_xcalloc(m->n_scopes + 1, 1); /* per callee: 0 unknown, 1 yes, 2 no */
    for (size_t i = 0; i < m->n_calls && helper_events; i++) {
        int32_t s = lf_tssem_local_callee(m, m->calls[i].node);
        if (s <= 0)
            continue;
        int32_t caller = lf_tslock_fn_of(m, m->calls[i].scope);
        for (int32_t e = fn_head[s]; e >= 0 && caller != s; e = fn_next[e]) {
            lf_tslock_event ev = b.events.items[e];
            /* a liveness helper: `if (!isAlive(pid)) rm(lock)`; not an acquire
             * helper that probes the holder and takes the lock itself (its
             * caller's later removal is a release, not a judged break) */
            if (ev.kind == LF_TSEV_PROBE && takes_lock[s] == 0) {
                takes_lock[s] = 2;
                for (int32_t t = fn_head[s]; t >= 0; t = fn_next[t])
                    if (b.events.items[t].kind == LF_TSEV_CREATE || b.events.items[t].kind == LF_TSEV_OVERWRITE)
                        takes_lock[s] = 1;
            }
            if (ev.kind == LF_TSEV_PROBE && takes_lock[s] == 1)
                continue;
            if (ev.kind == LF_TSEV_PROBE && signals_instead(m, ev.node, s, m->calls[i].node))
                continue;
            if (ev.kind == LF_TSEV_PROBE) {
                ev.fn = caller;
                ev.node = m->calls[i].node;
                LF_VEC_PUSH(&b.events, ev);
                continue;
            }
            if (ev.key < 0 || (ev.kind != LF_TSEV_REMOVE && ev.kind != LF_TSEV_JUDGE))
                continue;
            const char *k = b.keys.items[ev.key].key;
            /* a sibling's path over its parameters moves up only from a
             * helper that does not take that lock itself (`remove(dir)`,
             * `readPid(dir)`): an acquire helper's looks and breaks are part
             * of taking it, and its callers hold what it returns */
            if (!helper_own_key(k) && !closure_key(&b, m, ev.key, s) &&
                !(api_key_passed_on(m, k, m->calls[i].node, s, caller) &&
                  !takes_key(&b, ev_head, ev_next, ev.key, s)))
                continue;
            /* an acquire helper's look at its own lock is part of taking it */
            if (ev.kind == LF_TSEV_JUDGE && takes_key(&b, ev_head, ev_next, ev.key, s))
                continue;
            ev.fn = caller;
            ev.node = m->calls[i].node;
            ev.via_helper = 1;
            ev.helper_key = ev.key;
            LF_VEC_PUSH(&b.events, ev);
        }
    }
    free(takes_lock);
    free(fn_head);
    free(fn_next);
    for (size_t i = 0; i < links.len; i++) {
        const link *lk = &links.items[i];
        /* a recursive call (a retry after the break) does not remove again */
        if (lk->param_key < 0 || lk->fn == lk->callee)
            continue;
        for (int32_t e = ev_head[lk->param_key]; e >= 0; e = ev_next[e]) {
            lf_tslock_event ev = b.events.items[e];
            if (ev.key != lk->param_key || ev.key < 0 || lf_tslock_fn_of(m, ev.fn) != lk->callee)
                continue;
            if (ev.kind != LF_TSEV_REMOVE && ev.kind != LF_TSEV_JUDGE && ev.kind != LF_TSEV_CREATE)
                continue;
            /* an acquire helper looks at the lock as part of taking it: the
             * caller that then releases it has judged nothing */
            if (ev.kind == LF_TSEV_JUDGE && creates_param(&b, ev_head, ev_next, lk->param_key, lk->callee))
                continue;
            ev.fn = lk->fn;
            ev.node = lk->call;
            ev.key = lk->arg_key;
            ev.target = lk->arg;
            ev.via_helper = 1;
            ev.helper_key = lk->param_key;
            LF_VEC_PUSH(&b.events, ev);
        }
    }
    return_links(&b, m, &links);
    age_vec ages = {0};
    age_points(m, &ages);
    unsigned char *verdict_of = verdict_helpers(&b, m, &ages, ev_head, ev_next);
    lift_reader_verdicts(&b, m, verdict_of);
    free(ev_head);
    free(ev_next);
    if (b.events.len)
        qsort(b.events.items, b.events.len, sizeof *b.events.items, cmp_events);
    /* how each removal was judged in its function */
    size_t nk = b.keys.len ? b.keys.len : 1, ns = m->n_scopes ? m->n_scopes : 1;
    int32_t *presence = lf_xcalloc(nk, sizeof *presence), *content = lf_xcalloc(nk, sizeof *content);
    int32_t *probe = lf_xcalloc(ns, sizeof *probe), *identity = lf_xcalloc(ns, sizeof *identity);
    /* per key: the function (tag) whose verdict helper judged it, and how;
     * where its owner record was last read; per function: its last age */
    int32_t *verdict = lf_xcalloc(nk, sizeof *verdict);
    int32_t *created = lf_xcalloc(nk, sizeof *created); /* per key: the function (tag) that created it last */
    unsigned char *verdict_kind = lf_xcalloc(nk, 1);
    uint32_t *content_at = lf_xcalloc(nk, sizeof *content_at), *age_at = lf_xcalloc(ns, sizeof *age_at);
    /* per key: the scope its last look ran in (+1). A callback inside a
     * declared function counts as that function, but a look in a handler
     * registered to run later does not come before a removal in a sibling
     * handler (two commands' `.action(async () => start())` and
     * `.action(async () => stop())`); awaited steps (`await withRetry(() =>
     * stat(p))`) do (look_precedes). */
    int32_t *look_scope = lf_xcalloc(nk, sizeof *look_scope);
    /* per key: the helper call its last look came from (position + 1; 0: a
     * look of the function itself). A call that looks at the lock and removes
     * it inside the helper (`await stop(root)`) is the helper's judgement,
     * not one its caller made before the call. */
    uint32_t *look_call = lf_xcalloc(nk, sizeof *look_call);
    size_t next_age = 0;
    for (size_t i = 0; i < b.events.len; i++) {
        lf_tslock_event *ev = &b.events.items[i];
        int32_t tag = ev->fn + 1;
        for (; next_age < ages.len && ages.items[next_age].at < ts_node_start_byte(ev->node); next_age++)
            if (ages.items[next_age].fn >= 0)
                age_at[ages.items[next_age].fn] = ages.items[next_age].at + 1;
        switch (ev->kind) {
        case LF_TSEV_PROBE: probe[ev->fn] = 1; break;
        case LF_TSEV_IDENTITY: identity[ev->fn] = 1; break;
        case LF_TSEV_JUDGE:
            /* after the function's own create, `if (existsSync(p)) unlinkSync(p)`
             * is the creator tidying up what it made, careful about a file
             * already gone: no look at another holder's lock */
            if (ev->key >= 0 && !ev->content && created[ev->key] == tag && guards_only_its_removal(m, ev->node))
                break;
            /* a helper called for its effect alone (`await recoverStale(lock);`)
             * hands the caller no verdict: what it looked at decided its own
             * removals, not the caller's later ones */
            if (ev->key >= 0 && !(ev->via_helper && result_discarded(ev->node))) {
                /* the function's first read of the record: a later re-read
                 * (compare-and-delete: `if (reread === observed) unlink`)
                 * confirms what the age judged, it does not replace it */
                if (ev->content && content[ev->key] != tag)
                    content_at[ev->key] = ts_node_start_byte(ev->node) + 1;
                (ev->content ? content : presence)[ev->key] = tag;
                look_scope[ev->key] = event_scope(m, ev) + 1;
                look_call[ev->key] = ev->via_helper ? ts_node_start_byte(ev->node) + 1 : 0;
                /* `if (await isStale(lock))`: the helper's verdict on it */
                int32_t h = ev->via_helper ? lf_tssem_local_callee(m, ev->node) : -1;
                if (h > 0 && verdict_of[h]) {
                    verdict[ev->key] = tag;
                    verdict_kind[ev->key] = verdict_of[h];
                }
            }
            break;
        case LF_TSEV_CREATE:
            if (ev->key >= 0)
                created[ev->key] = tag;
            break;
        case LF_TSEV_OVERWRITE:
            /* written blind (nothing looked at it or made it in this
             * function) with a value the caller hands in: a stored document */
            if (ev->key >= 0 && !ev->via_helper && presence[ev->key] != tag && content[ev->key] != tag &&
                verdict[ev->key] != tag && created[ev->key] != tag && stores_callers_value(m, ev))
                b.keys.items[ev->key].flags |= LF_TSLOCK_STORED;
            /* rewritten after a look at its age, or after reading its owner
             * record and probing the owner, in this function: a takeover */
            if (ev->key >= 0 && !identity[ev->fn] &&
                (presence[ev->key] == tag || verdict[ev->key] == tag || (content[ev->key] == tag && probe[ev->fn]))) {
                lf_tslock_key *k = &b.keys.items[ev->key];
                int live = presence[ev->key] == tag ||
                           (verdict[ev->key] == tag && verdict_kind[ev->key] == LF_TSJUDGED_PRESENCE);
                k->flags |= LF_TSLOCK_BROKEN | (live ? LF_TSLOCK_BROKEN_LIVE : 0u);
                if (ts_node_is_null(k->broken_at))
                    k->broken_at = ev->node;
                if (ts_node_is_null(k->retaken_at))
                    k->retaken_at = ev->node;
            }
            break;
        case LF_TSEV_REMOVE:
            if (ev->key < 0)
                break;
            if (look_scope[ev->key] && !look_precedes(m, look_scope[ev->key] - 1, event_scope(m, ev))) {
                /* the last look ran in a sibling callback: not before this one */
                if (presence[ev->key] == tag)
                    presence[ev->key] = 0;
                if (content[ev->key] == tag)
                    content[ev->key] = 0;
                if (verdict[ev->key] == tag)
                    verdict[ev->key] = 0;
            }
            if (ev->via_helper && look_call[ev->key] == ts_node_start_byte(ev->node) + 1 &&
                (presence[ev->key] == tag || content[ev->key] == tag)) {
                /* the same call looked: the helper's own judge-then-remove */
                if (presence[ev->key] == tag)
                    presence[ev->key] = 0;
                if (content[ev->key] == tag)
                    content[ev->key] = 0;
            }
            if (probe[ev->fn])
                ev->judged = LF_TSJUDGED_LIVENESS;
            else if (presence[ev->key] == tag || judged_by_failed_create(&b, i))
                ev->judged = LF_TSJUDGED_PRESENCE;
            else if (verdict[ev->key] == tag)
                ev->judged = (lf_tslock_judged)verdict_kind[ev->key];
            /* the owner record read, then an age computed: its recorded
             * time judged, a look at the lock's age */
            else if (content[ev->key] == tag && ev->fn >= 0 &&
                     (age_at[ev->fn] > content_at[ev->key] || sweep_clock(ev->node, age_at[ev->fn])))
                ev->judged = LF_TSJUDGED_PRESENCE;
            else if (content[ev->key] == tag)
                ev->judged = LF_TSJUDGED_CONTENT;
            break;
        default: break;
        }
    }
    /* a removal after the function's own create succeeded on every way to it
     * is the holder's release, whatever an earlier turn of its retry loop
     * looked at (the graph decides; events in source order cannot) */
    for (size_t i = 0; i < b.events.len; i++) {
        lf_tslock_event *ev = &b.events.items[i];
        if (ev->kind == LF_TSEV_REMOVE && ev->key >= 0 && ev->fn >= 0 &&
            (ev->judged == LF_TSJUDGED_PRESENCE || ev->judged == LF_TSJUDGED_LIVENESS) &&
            !judged_by_failed_create(&b, i) && released_after_own_create(&b, m, i))
            ev->judged = LF_TSJUDGED_NONE;
        /* a call of a helper that makes the path itself, exclusively, then
         * removes it (`mkdirSync(claim); try { ... } finally { rmdirSync(claim) }`):
         * it takes and releases a claim of its own, no one else's */
        if (ev->kind == LF_TSEV_REMOVE && ev->via_helper && ev->key >= 0 && ev->helper_key == ev->key &&
            helper_claims_own(&b, m, ev))
            ev->judged = LF_TSJUDGED_NONE;
    }
    /* an identity check through the module's helper (`if (!sameFile(before,
     * after)) throw`, sameFile comparing .ino and .dev) binds the caller's
     * removal as one written inline does; a few levels */
    for (int round = 0; round < 3; round++) {
        int changed = 0;
        for (size_t i = 0; i < m->n_calls; i++) {
            int32_t h = lf_tssem_local_callee(m, m->calls[i].node), fn = lf_tslock_fn_of(m, m->calls[i].scope);
            if (h > 0 && fn >= 0 && h != fn && identity[h] && !identity[fn])
                identity[fn] = changed = 1;
        }
        if (!changed)
            break;
    }
    l->identity_bound = lf_xcalloc(ns, 1);
    for (size_t s = 0; s < ns; s++)
        l->identity_bound[s] = identity[s] != 0;
    /* identity checks anywhere in the function cover its removals; a removal
     * only while the record names this process is a release, whatever was
     * looked at before it */
    for (size_t i = 0; i < b.events.len; i++) {
        lf_tslock_event *ev = &b.events.items[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || identity[ev->fn])
            continue;
        ev->owner_checked = lf_tsowner_checked(m, ev->node, ev->target);
        if (ev->owner_checked)
            continue;
        if (ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE) {
            lf_tslock_key *k = &b.keys.items[ev->key];
            k->flags |= LF_TSLOCK_BROKEN | (ev->judged == LF_TSJUDGED_PRESENCE ? LF_TSLOCK_BROKEN_LIVE : 0u);
            if (ts_node_is_null(k->broken_at))
                k->broken_at = ev->node;
        }
    }
    /* a helper that breaks its parameter breaks the caller's argument; and a
     * lock broken on existence or age is that lock in every helper it is
     * handed to, so the helper's release (lockfile's `unlock(path)`) removes
     * a lock whose holder may have been judged dead while alive. Only
     * BROKEN_LIVE flows down: BROKEN on a parameter means the helper judges
     * it itself. Flags only grow; a few rounds settle chains. What came
     * down from one caller's lock does not go back up to the other
     * arguments of a helper handed several paths (`unlinkQuietly(a)`,
     * `unlinkQuietly(b)`): b is not broken because a is. */
    unsigned char *came_down = lf_xcalloc(nk, 1);
    for (int round = 0; round < MAX_ROUNDS; round++) {
        int changed = 0;
        for (size_t i = 0; i < links.len; i++) {
            const link *lk = &links.items[i];
            if (lk->arg_key < 0 || lk->param_key < 0 || lk->arg_key == lk->param_key)
                continue;
            lf_tslock_key *pk = &b.keys.items[lk->param_key], *ak = &b.keys.items[lk->arg_key];
            unsigned up =
                came_down[lk->param_key] ? 0u : pk->flags & (LF_TSLOCK_BROKEN | LF_TSLOCK_BROKEN_LIVE) & ~ak->flags;
            if (up) {
                ak->flags |= up;
                changed = 1;
            }
            if (ts_node_is_null(ak->broken_at) && !ts_node_is_null(pk->broken_at) && !came_down[lk->param_key])
                ak->broken_at = lk->returned ? pk->broken_at : lk->call;
            if ((ak->flags & LF_TSLOCK_BROKEN_LIVE) && !(pk->flags & LF_TSLOCK_BROKEN_LIVE) &&
                lf_tslock_is_lock(ak->flags)) {
                pk->flags |= LF_TSLOCK_BROKEN_LIVE;
                came_down[lk->param_key] = 1;
                /* handed a lock the module breaks while its holder may live:
                 * the parameter is that lock (its release is judged there) */
                if (!lk->returned)
                    flag(&b, lk->param_key, LF_TSLOCK_ARG, lk->arg);
                if (ts_node_is_null(pk->broken_at))
                    pk->broken_at = ak->broken_at;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
    free(came_down);
    if (pid_records(&b) | claim_records(&b))
        flow_uses(&b, &links);
    info_records(&b);
    flow_breakable(&b, m, &links);
    free(presence);
    free(content);
    free(probe);
    free(identity);
    free(verdict);
    free(created);
    free(verdict_kind);
    free(verdict_of);
    free(content_at);
    free(look_scope);
    free(look_call);
    free(age_at);
    LF_VEC_FREE(&ages);
    LF_VEC_FREE(&links);
    free(b.slot_key);
    free(b.slot_idx);
    l->keys = b.keys.items;
    l->n_keys = b.keys.len;
    l->events = b.events.items;
    l->n_events = b.events.len;
    return l;
}

/* Built once per file and kept by the model: LF103, LF104, LF301 and LF302 all
 * ask, and on a large bundle each build walks every call and the whole tree. */
lf_tslock *lf_tslock_build(lf_tssem *m) {
    if (!m->lock) {
        m->lock = build(m);
        m->lock_free = lf_tslock_free;
    }
    return m->lock;
}

void lf_tslock_free(lf_tslock *l) {
    if (!l)
        return;
    if (l->proto_memo && l->proto_memo_free)
        l->proto_memo_free(l->proto_memo);
    free(l->ev_first);
    free(l->ev_next);
    free(l->identity_bound);
    free(l->keys);
    free(l->events);
    free(l);
}

int32_t lf_tslock_first_event(lf_tslock *l, int32_t fn) {
    size_t n_scopes = l->m->n_scopes + 1;
    if (!l->ev_first) {
        l->ev_first = lf_xmalloc(n_scopes * sizeof *l->ev_first);
        l->ev_next = lf_xmalloc((l->n_events ? l->n_events : 1) * sizeof *l->ev_next);
        for (size_t s = 0; s < n_scopes; s++)
            l->ev_first[s] = -1;
        for (size_t i = l->n_events; i-- > 0;) {
            int32_t f = l->events[i].fn;
            l->ev_next[i] = -1;
            if (f < 0 || (size_t)f >= n_scopes)
                continue;
            l->ev_next[i] = l->ev_first[f];
            l->ev_first[f] = (int32_t)i;
        }
    }
    return fn >= 0 && (size_t)fn < n_scopes ? l->ev_first[fn] : -1;
}

int32_t lf_tslock_next_event(const lf_tslock *l, int32_t ev) { return l->ev_next[ev]; }

/* A file appended to is a log or journal, not a lock, however it was created. */
int lf_tslock_is_lock(unsigned flags) {
    /* a stored document whose recorded pid the module reads back and probes
     * is a pid file (`writePidfile(data)`), not a cache entry */
    unsigned stored = (flags & LF_TSLOCK_PID) ? 0u : LF_TSLOCK_STORED;
    return (flags & LF_TSLOCK_USES) &&
           !(flags & (LF_TSLOCK_PKG | LF_TSLOCK_APPENDED | LF_TSLOCK_INFO | LF_TSLOCK_UNIQUE | stored));
}

int32_t lf_tslock_key_index(lf_tslock *l, TSNode expr) {
    const char *k = lf_tssem_path_key(l->m, expr);
    for (size_t i = 0; k && i < l->n_keys; i++)
        if (l->keys[i].key == k)
            return (int32_t)i;
    return -1;
}

