/* lf_tssem_resolve: qualified names, values and path keys over the recorded
 * bindings. Every loop is bounded by a hop count, never by the tree's depth. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_tssem.h"
#include "lf_tssem_internal.h"
#include "lf_util.h"

enum { MAX_HOPS = 24, MAX_PROPS = 16, MAX_CALL_DEPTH = 6 };

const char *lf_tssem_join(lf_tssem *m, const char *a, const char *b) {
    char *s = b ? lf_xasprintf("%s.%s", a, b) : lf_xstrdup(a);
    const char *out;
    /* one name for the promise API however it was reached */
    if (strncmp(s, "fs.promises", 11) == 0 && (s[11] == '\0' || s[11] == '.')) {
        char *t = lf_xasprintf("fs/promises%s", s + 11);
        out = lf_tssem_intern(m, t, strlen(t));
        free(t);
    } else {
        out = lf_tssem_intern(m, s, strlen(s));
    }
    free(s);
    return out;
}

TSNode lf_tssem_unwrap(TSNode n) {
    for (int i = 0; i < 64 && !ts_node_is_null(n); i++) {
        const char *t = ts_node_type(n);
        /* `yield` too: downlevelled async code (tslib's __awaiter) spells
         * `await x` as `yield x`, and its value is what x resolves to */
        if (strcmp(t, "parenthesized_expression") == 0 || strcmp(t, "await_expression") == 0 ||
            strcmp(t, "yield_expression") == 0 ||
            strcmp(t, "non_null_expression") == 0 || strcmp(t, "as_expression") == 0 ||
            strcmp(t, "satisfies_expression") == 0 || strcmp(t, "type_assertion") == 0) {
            TSNode c = {0};
            uint32_t k = ts_node_named_child_count(n);
            for (uint32_t j = 0; j < k; j++) {
                TSNode x = ts_node_named_child(n, j);
                const char *xt = ts_node_type(x);
                if (strcmp(xt, "comment") != 0 && strcmp(xt, "type_arguments") != 0 && strstr(xt, "type") != xt) {
                    c = x;
                    break;
                }
            }
            if (ts_node_is_null(c))
                return n;
            n = c;
            continue;
        }
        /* `(0, fs_1.unlinkSync)(p)`, TypeScript's CommonJS output for an
         * imported call: a sequence's value is its last operand */
        if (strcmp(t, "sequence_expression") == 0) {
            uint32_t k = ts_node_named_child_count(n);
            TSNode last = {0};
            for (uint32_t j = k; j-- > 0;) {
                TSNode x = ts_node_named_child(n, j);
                if (strcmp(ts_node_type(x), "comment") != 0) {
                    last = x;
                    break;
                }
            }
            if (ts_node_is_null(last))
                return n;
            n = last;
            continue;
        }
        return n;
    }
    return n;
}

TSNode lf_tssem_arg(TSNode call, uint32_t i) {
    TSNode args = lf_tree_field(call, "arguments");
    if (ts_node_is_null(args) || !lf_tree_is(args, "arguments"))
        return (TSNode){0};
    uint32_t k = ts_node_named_child_count(args), seen = 0;
    for (uint32_t j = 0; j < k; j++) {
        TSNode c = ts_node_named_child(args, j);
        if (lf_tree_is(c, "comment"))
            continue;
        if (seen++ == i)
            return c;
    }
    return (TSNode){0};
}

size_t lf_tssem_nargs(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    if (ts_node_is_null(args))
        return 0;
    size_t n = 0;
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t j = 0; j < k; j++)
        if (!lf_tree_is(ts_node_named_child(args, j), "comment"))
            n++;
    return n;
}

static int is_global(const char *name) {
    static const char *const k[] = {"process", "JSON",   "Date",       "Math",     "require",
                                    "console", "Buffer", "Promise",    "Object",   "performance",
                                    "String",  "Number", "parseInt",   "parseFloat", "Bun", NULL};
    for (size_t i = 0; k[i]; i++)
        if (strcmp(k[i], name) == 0)
            return 1;
    return 0;
}

/* The callee of a function whose whole body is one call handing on the
 * function's first parameter first (`async (p, o) => rm(p, o)`), else null. */
static TSNode forwarded_callee(const lf_tssem *m, TSNode fn) {
    TSNode none = {0};
    if (!lf_tree_is(fn, "arrow_function") && !lf_tree_is(fn, "function_expression"))
        return none;
    TSNode body = lf_tree_field(fn, "body");
    if (lf_tree_is(body, "statement_block")) {
        if (ts_node_named_child_count(body) != 1 || !lf_tree_is(ts_node_named_child(body, 0), "return_statement"))
            return none;
        body = ts_node_named_child(ts_node_named_child(body, 0), 0);
    }
    body = lf_tssem_unwrap(body);
    if (!lf_tree_is(body, "call_expression"))
        return none;
    TSNode params = lf_tree_field(fn, "parameters"), first = {0};
    if (ts_node_is_null(params)) /* `p => rm(p)` */
        first = lf_tree_field(fn, "parameter");
    else if (ts_node_named_child_count(params) > 0)
        first = lf_tree_field(ts_node_named_child(params, 0), "pattern");
    TSNode arg = lf_tssem_arg(body, 0);
    if (ts_node_is_null(first) || ts_node_is_null(arg) || !lf_tree_is(first, "identifier") ||
        !lf_tree_is(arg, "identifier") || !lf_tree_equal(m->src, first, m->src, arg, 0))
        return none;
    return lf_tree_field(body, "function");
}

int lf_tssem_forwarder_body(const lf_tssem *m, TSNode call) {
    TSNode up = ts_node_parent(call);
    while (lf_tree_is(up, "await_expression") || lf_tree_is(up, "parenthesized_expression"))
        up = ts_node_parent(up);
    if (lf_tree_is(up, "return_statement")) /* `function (p) { return rm(p); }` */
        up = ts_node_parent(ts_node_parent(up));
    if (!lf_tree_is(up, "arrow_function") && !lf_tree_is(up, "function_expression"))
        return 0;
    TSNode fwd = forwarded_callee(m, up);
    return !ts_node_is_null(fwd) && ts_node_eq(fwd, lf_tree_field(call, "function"));
}

/* What a call of `fn` evaluates to when fn is a declared function of the
 * module with no parameters whose whole body is `return <expr>`, else null. */
static TSNode returned_only(lf_tssem *m, TSNode fn) {
    TSNode none = {0};
    if (!lf_tree_is(fn, "identifier"))
        return none;
    const lf_tsbinding *bd = lf_tssem_binding_of(m, fn);
    if (!bd || bd->kind != LF_TSBIND_DEF || !lf_tree_is(bd->value, "function_declaration"))
        return none;
    TSNode params = lf_tree_field(bd->value, "parameters"), body = lf_tree_field(bd->value, "body");
    if (ts_node_is_null(params) || ts_node_named_child_count(params) != 0 || ts_node_is_null(body) ||
        ts_node_named_child_count(body) != 1)
        return none;
    TSNode ret = ts_node_named_child(body, 0);
    if (!lf_tree_is(ret, "return_statement") || ts_node_named_child_count(ret) != 1)
        return none;
    return ts_node_named_child(ret, 0);
}

/* `options.x` where options is a parameter with no default (or `= {}`):
 * what a caller may hand in, of which nothing is known here. */
static int unknown_option(lf_tssem *m, TSNode left) {
    left = lf_tssem_unwrap(left);
    if (!lf_tree_is(left, "member_expression"))
        return 0;
    while (lf_tree_is(left, "member_expression")) {
        if (lf_tree_text_eq(m->src, lf_tree_field(left, "property"), "fs"))
            return 0; /* an injected fs: resolved as one */
        left = lf_tssem_unwrap(lf_tree_field(left, "object"));
    }
    if (!lf_tree_is(left, "identifier") || lf_tree_text_eq(m->src, left, "fs"))
        return 0;
    const lf_tsbinding *bd = lf_tssem_binding_of(m, left);
    if (!bd || bd->kind != LF_TSBIND_PARAM)
        return 0;
    /* no default, or `options = {}`: nothing the module itself supplies */
    return ts_node_is_null(bd->value) ||
           (lf_tree_is(bd->value, "object") && ts_node_named_child_count(bd->value) == 0);
}

/* A frame of qualname resolution: the properties collected so far (outermost
 * first) and, while the callee of a call on the path is being resolved in the
 * frame above it, where to resume if that callee is util.promisify. */
typedef struct qn_frame {
    const char *props[MAX_PROPS];
    int np;
    int hop;
    TSNode resume;
} qn_frame;

/* base.props..., or, with no base, an injected fs object (`options.fs.rmdir`,
 * `this.fs.unlink`: a property called fs whose value is unknown). */
static const char *qualname_finish(lf_tssem *m, const char *base, const qn_frame *f) {
    int np = f->np;
    if (!base) {
        int at = -1;
        for (int i = np; i-- > 0;)
            if (strcmp(f->props[i], "fs") == 0) {
                at = i;
                break;
            }
        if (at < 0)
            return NULL;
        base = "fs";
        np = at;
    }
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, base);
    for (int i = np; i-- > 0;) {
        lf_strbuf_putc(&sb, '.');
        lf_strbuf_puts(&sb, f->props[i]);
    }
    char *s = lf_strbuf_detach(&sb);
    const char *q = lf_tssem_join(m, s, NULL);
    free(s);
    return q;
}

/* What `expr` names, as a qualified name. Iterative: a call on the path
 * (`util.promisify(fs.rm)`) pushes a frame and resolves its callee first,
 * at most MAX_CALL_DEPTH calls deep. */
static const char *qualname_at(lf_tssem *m, TSNode expr) {
    qn_frame frames[MAX_CALL_DEPTH];
    int nf = 0;
    qn_frame cur = {.np = 0};
    for (;;) {
        const char *base = NULL;
        int failed = 0, pushed = 0;
        if (ts_node_is_null(expr))
            failed = 1;
        for (; !failed && cur.hop < MAX_HOPS && !base; cur.hop++) {
            expr = lf_tssem_unwrap(expr);
            const char *t = ts_node_type(expr);
            if (strcmp(t, "member_expression") == 0) {
                TSNode prop = lf_tree_field(expr, "property");
                if (cur.np == MAX_PROPS || ts_node_is_null(prop)) {
                    failed = 1;
                    break;
                }
                uint32_t a = ts_node_start_byte(prop), b = ts_node_end_byte(prop);
                cur.props[cur.np++] = lf_tssem_intern(m, m->src->text + a, b - a);
                expr = lf_tree_field(expr, "object");
                continue;
            }
            if (strcmp(t, "subscript_expression") == 0) {
                char *s = lf_tssem_name_string(m->src, lf_tree_field(expr, "index"));
                if (!s || cur.np == MAX_PROPS) {
                    free(s);
                    break;
                }
                cur.props[cur.np++] = lf_tssem_intern(m, s, strlen(s));
                free(s);
                expr = lf_tree_field(expr, "object");
                continue;
            }
            if (strcmp(t, "identifier") == 0 || strcmp(t, "shorthand_property_identifier") == 0) {
                uint32_t a = ts_node_start_byte(expr), b = ts_node_end_byte(expr);
                const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
                const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, expr), name, a);
                if (!bd) {
                    if (is_global(name) || strcmp(name, "fs") == 0)
                        base = name;
                    break;
                }
                if (bd->kind == LF_TSBIND_IMPORT) {
                    base = bd->qualname;
                    break;
                }
                if (bd->kind == LF_TSBIND_PARAM && strcmp(name, "fs") == 0 && ts_node_is_null(bd->value)) {
                    base = name; /* an injected fs */
                    break;
                }
                if ((bd->kind == LF_TSBIND_VAR || bd->kind == LF_TSBIND_ASSIGN || bd->kind == LF_TSBIND_PARAM) &&
                    !ts_node_is_null(bd->value) && !ts_node_eq(bd->value, expr)) {
                    if (bd->member) {
                        /* destructured: value.<member path>, pushed innermost last */
                        const char *p = bd->member;
                        const char *parts[MAX_PROPS];
                        int k = 0;
                        while (*p && k < MAX_PROPS) {
                            const char *dot = strchr(p, '.');
                            size_t len = dot ? (size_t)(dot - p) : strlen(p);
                            parts[k++] = lf_tssem_intern(m, p, len);
                            p += len + (dot ? 1 : 0);
                            if (!dot)
                                break;
                        }
                        if (cur.np + k > MAX_PROPS) {
                            failed = 1;
                            break;
                        }
                        for (int j = k; j-- > 0;)
                            cur.props[cur.np++] = parts[j];
                    }
                    expr = bd->value;
                    continue;
                }
                break;
            }
            if (strcmp(t, "this") == 0) {
                if (cur.np == 0)
                    break;
                int32_t sc = lf_tssem_scope_of(m, expr);
                int32_t cls = m->scopes[sc].cls;
                char *key = lf_xasprintf("this.%s", cur.props[cur.np - 1]);
                const lf_tsbinding *f = cls >= 0 ? lf_tssem_field(m, cls, lf_tssem_intern(m, key, strlen(key))) : NULL;
                free(key);
                if (f && !ts_node_is_null(f->value)) {
                    cur.np--;
                    expr = f->value;
                    continue;
                }
                break;
            }
            if (strcmp(t, "object") == 0 && cur.np > 0) {
                /* `const _internals = { readFileSync: fs.readFileSync.bind(fs) }`
                 * (a seam for tests): `_internals.readFileSync` is what the
                 * object's property holds */
                const char *want = cur.props[cur.np - 1];
                TSNode v = {0};
                for (uint32_t i = 0; i < ts_node_named_child_count(expr) && ts_node_is_null(v); i++) {
                    TSNode pr = ts_node_named_child(expr, i);
                    if (lf_tree_is(pr, "pair") && lf_tree_text_eq(m->src, lf_tree_field(pr, "key"), want))
                        v = lf_tree_field(pr, "value");
                    else if (lf_tree_is(pr, "shorthand_property_identifier") && lf_tree_text_eq(m->src, pr, want))
                        v = pr; /* `{ rm, writeFile }`: the binding of that name */
                }
                if (ts_node_is_null(v))
                    break;
                /* `{ rm: async (p, o) => rm(p, o) }`: a property that only
                 * forwards its path to another function is that function */
                TSNode fwd = forwarded_callee(m, v);
                cur.np--;
                expr = ts_node_is_null(fwd) ? v : fwd;
                continue;
            }
            if (strcmp(t, "call_expression") == 0) {
                TSNode fn = lf_tree_field(expr, "function");
                /* `fs.readFileSync.bind(fs)`: the function bound */
                if (lf_tree_is(fn, "member_expression") &&
                    lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "bind")) {
                    expr = lf_tree_field(fn, "object");
                    continue;
                }
                if ((lf_tree_is(fn, "identifier") && lf_tree_text_eq(m->src, fn, "require")) || lf_tree_is(fn, "import")) {
                    char *s = lf_tssem_name_string(m->src, lf_tssem_arg(expr, 0));
                    base = s ? lf_tssem_module_name(m, s) : NULL;
                    free(s);
                    break;
                }
                /* `defaultProperLockfile()`: a function of the module's that
                 * only returns what it names is that */
                TSNode ret = returned_only(m, fn);
                if (!ts_node_is_null(ret)) {
                    expr = ret;
                    continue;
                }
                /* Is the callee util.promisify? Resolve fn in a new frame;
                 * this one resumes at the promisified argument if so. */
                if (nf == MAX_CALL_DEPTH)
                    break;
                cur.resume = lf_tssem_arg(expr, 0);
                frames[nf++] = cur;
                cur = (qn_frame){.np = 0};
                expr = fn;
                pushed = 1;
                break;
            }
            if (strcmp(t, "binary_expression") == 0) {
                TSNode op = lf_tree_field(expr, "operator");
                if (!ts_node_is_null(op) && (lf_tree_text_eq(m->src, op, "||") || lf_tree_text_eq(m->src, op, "??"))) {
                    /* `options.filesystem ?? defaultFilesystem`: a caller's
                     * option with nothing known of it runs the default */
                    TSNode left = lf_tree_field(expr, "left");
                    expr = unknown_option(m, left) ? lf_tree_field(expr, "right") : left;
                    continue;
                }
            }
            break;
        }
        if (pushed)
            continue;
        const char *q = failed ? NULL : qualname_finish(m, base, &cur);
        /* Hand the result down: a frame waiting on util.promisify resumes at
         * its argument; one whose callee was anything else ends there. */
        for (;;) {
            if (nf == 0)
                return q;
            cur = frames[--nf];
            if (q && strcmp(q, "util.promisify") == 0)
                break;
            q = qualname_finish(m, NULL, &cur);
        }
        expr = cur.resume;
    }
}

static const char *callee_at(lf_tssem *m, TSNode call) {
    TSNode fn = lf_tree_field(call, "function");
    if (lf_tree_is(fn, "import")) { /* await import("fs") */
        char *s = lf_tssem_name_string(m->src, lf_tssem_arg(call, 0));
        const char *q = s ? lf_tssem_module_name(m, s) : NULL;
        free(s);
        return q ? lf_tssem_intern(m, "import", 6) : NULL;
    }
    return qualname_at(m, fn);
}

const char *lf_tssem_callee_uncached(lf_tssem *m, TSNode call) { return callee_at(m, call); }

const char *lf_tssem_qualname(lf_tssem *m, TSNode expr) { return qualname_at(m, expr); }

/* Order of m->calls: start byte ascending, then end byte descending (pre-order,
 * outer call first). Two calls never share both bytes (a call adds its `(...)`). */
static int call_key_cmp(uint32_t as, uint32_t ae, uint32_t bs, uint32_t be) {
    if (as != bs)
        return as < bs ? -1 : 1;
    if (ae != be)
        return ae > be ? -1 : 1;
    return 0;
}

int lf_tscall_order(const void *a, const void *b) {
    TSNode x = ((const lf_tscall *)a)->node, y = ((const lf_tscall *)b)->node;
    return call_key_cmp(ts_node_start_byte(x), ts_node_end_byte(x), ts_node_start_byte(y), ts_node_end_byte(y));
}

const lf_tscall *lf_tssem_call(const lf_tssem *m, TSNode call) {
    if (m->in->calls_by_node.slots) {
        int32_t k = lf_node_index_find(&m->in->calls_by_node, m->calls, sizeof *m->calls, offsetof(lf_tscall, node), call);
        return k >= 0 ? &m->calls[k] : NULL;
    }
    uint32_t start = ts_node_start_byte(call), end = ts_node_end_byte(call);
    size_t lo = 0, hi = m->n_calls;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        TSNode n = m->calls[mid].node;
        lf_work(1);
        if (call_key_cmp(ts_node_start_byte(n), ts_node_end_byte(n), start, end) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->n_calls && ts_node_eq(m->calls[lo].node, call))
        return &m->calls[lo];
    return NULL;
}

const char *lf_tssem_callee(lf_tssem *m, TSNode call) {
    const lf_tscall *c = lf_tssem_call(m, call);
    return c ? c->callee : callee_at(m, call);
}

int lf_tssem_call_is(lf_tssem *m, TSNode call, const char *const *names) {
    const char *q = lf_tssem_callee(m, call);
    if (!q)
        return 0;
    for (size_t i = 0; names[i]; i++)
        if (strcmp(q, names[i]) == 0)
            return 1;
    return 0;
}

TSNode lf_tssem_resolve_value(lf_tssem *m, TSNode expr) {
    for (int hop = 0; hop < MAX_HOPS; hop++) {
        expr = lf_tssem_unwrap(expr);
        if (!lf_tree_is(expr, "identifier"))
            return expr;
        uint32_t a = ts_node_start_byte(expr), b = ts_node_end_byte(expr);
        const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
        const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, expr), name, a);
        if (!bd || bd->member || ts_node_is_null(bd->value) ||
            (bd->kind != LF_TSBIND_VAR && bd->kind != LF_TSBIND_ASSIGN) || ts_node_eq(bd->value, expr))
            return expr;
        expr = bd->value;
    }
    return expr;
}

static int32_t scope_of_function_node(const lf_tssem *m, TSNode fn) {
    /* scopes are in pre-order, so sorted by start byte */
    uint32_t at = ts_node_start_byte(fn);
    size_t lo = 1, hi = m->n_scopes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ts_node_start_byte(m->scopes[mid].node) < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < m->n_scopes && ts_node_start_byte(m->scopes[i].node) == at; i++)
        if (ts_node_eq(m->scopes[i].node, fn))
            return (int32_t)i;
    return -1;
}

static int32_t local_callee(lf_tssem *m, TSNode call);

/* Asked for every call by lf_tslock's links and again by LF104's helpers: kept per call. */
int32_t lf_tssem_local_callee(lf_tssem *m, TSNode call) {
    lf_tscall *c = (lf_tscall *)lf_tssem_call(m, call); /* the model's own array */
    if (!c)
        return local_callee(m, call);
    if (c->local == LF_TSCALL_UNASKED)
        c->local = local_callee(m, call);
    return c->local;
}

/* The `X` of `X.prototype.name = function ...` when scope s's function is
 * assigned so, else null. */
TSNode lf_tssem_proto_owner(const lf_tssem *m, int32_t s) {
    if (s <= 0)
        return (TSNode){0};
    TSNode a = ts_node_parent(m->scopes[s].node);
    if (!lf_tree_is(a, "assignment_expression"))
        return (TSNode){0};
    TSNode left = lf_tree_field(a, "left");
    if (!lf_tree_is(left, "member_expression"))
        return (TSNode){0};
    TSNode proto = lf_tree_field(left, "object");
    if (!lf_tree_is(proto, "member_expression") || !lf_tree_text_eq(m->src, lf_tree_field(proto, "property"), "prototype"))
        return (TSNode){0};
    TSNode x = lf_tree_field(proto, "object");
    return lf_tree_is(x, "identifier") ? x : (TSNode){0};
}

/* `this.name(...)` in a prototype method (`X.prototype.m = function`): the
 * sibling `X.prototype.name = function ...` at the same level, or -1. Only
 * the function's own parent scope's children are looked at. */
static int32_t proto_method(lf_tssem *m, int32_t scope, TSNode prop) {
    int32_t fn = scope > 0 ? m->scopes[scope].fn : -1;
    TSNode x = lf_tssem_proto_owner(m, fn);
    if (ts_node_is_null(x))
        return -1;
    uint32_t xa = ts_node_start_byte(x), xl = ts_node_end_byte(x) - xa;
    int32_t up = m->scopes[fn].parent;
    for (size_t i = 1; i < m->n_scopes; i++) {
        if (m->scopes[i].parent != up)
            continue;
        TSNode y = lf_tssem_proto_owner(m, (int32_t)i);
        if (ts_node_is_null(y) || ts_node_end_byte(y) - ts_node_start_byte(y) != xl ||
            memcmp(m->src->text + ts_node_start_byte(y), m->src->text + xa, xl) != 0)
            continue;
        TSNode name = lf_tree_field(lf_tree_field(ts_node_parent(m->scopes[i].node), "left"), "property");
        uint32_t na = ts_node_start_byte(name), pa = ts_node_start_byte(prop);
        uint32_t nl = ts_node_end_byte(name) - na;
        if (nl == ts_node_end_byte(prop) - pa && !memcmp(m->src->text + na, m->src->text + pa, nl))
            return (int32_t)i;
    }
    return -1;
}

static int32_t local_callee(lf_tssem *m, TSNode call) {
    TSNode fn = lf_tssem_unwrap(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "identifier")) {
        uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
        const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
        const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, fn), name, a);
        if (!bd || ts_node_is_null(bd->value))
            return -1;
        if (bd->kind == LF_TSBIND_DEF || bd->kind == LF_TSBIND_VAR)
            return scope_of_function_node(m, lf_tssem_unwrap(bd->value));
        return -1;
    }
    if (lf_tree_is(fn, "member_expression") && lf_tssem_is_exports(m->src, lf_tree_field(fn, "object"))) {
        /* exports.unlock(...) of `exports.unlock = function ...` */
        TSNode prop = lf_tree_field(fn, "property");
        for (size_t i = 1; i < m->n_scopes; i++)
            if (m->scopes[i].parent == 0 && lf_tree_text_eq(m->src, prop, m->scopes[i].name))
                return (int32_t)i;
        return -1;
    }
    if (lf_tree_is(fn, "member_expression") && lf_tree_is(lf_tree_field(fn, "object"), "this")) {
        int32_t cls = m->scopes[lf_tssem_scope_of(m, fn)].cls;
        if (cls < 0)
            return proto_method(m, lf_tssem_scope_of(m, fn), lf_tree_field(fn, "property"));
        TSNode prop = lf_tree_field(fn, "property");
        for (int32_t i = m->classes[cls].first_method; i >= 0; i = m->scopes[i].next_method)
            if (lf_tree_text_eq(m->src, prop, m->scopes[i].name))
                return i;
    }
    return -1;
}

static const char *text_key(lf_tssem *m, const char *prefix, TSNode n) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, prefix);
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    for (uint32_t i = a; i < b && i < m->src->len; i++) {
        char c = m->src->text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        lf_strbuf_putc(&sb, c == '\'' ? '"' : c);
    }
    char *s = lf_strbuf_detach(&sb);
    const char *k = lf_tssem_intern(m, s, strlen(s));
    free(s);
    return k;
}

/* The innermost function scope binding an identifier of the expression (a
 * bounded look at its first nodes), or 0 when all its names are module-level
 * or unbound. */
static int32_t local_scope_of(lf_tssem *m, TSNode expr) {
    TSNode stack[64];
    int sp = 0, budget = 128;
    int32_t best = 0;
    stack[sp++] = expr;
    while (sp && budget-- > 0) {
        TSNode n = stack[--sp];
        if (lf_tree_is(n, "identifier")) {
            uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
            const lf_tsbinding *bd =
                lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), lf_tssem_intern(m, m->src->text + a, b - a), a);
            if (bd && bd->scope > best)
                best = bd->scope;
            continue;
        }
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = k; i-- > 0 && sp < 64;)
            stack[sp++] = ts_node_named_child(n, i);
    }
    return best;
}

const lf_tsbinding *lf_tssem_api_params_expr(lf_tssem *m, TSNode expr) {
    TSNode stack[64];
    int sp = 0, budget = 128;
    const lf_tsbinding *param = NULL;
    stack[sp++] = expr;
    while (sp && budget-- > 0) {
        TSNode n = stack[--sp];
        if (lf_tssem_is_function_node(n))
            return NULL;
        if (lf_tree_is(n, "identifier")) {
            uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
            const lf_tsbinding *bd =
                lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), lf_tssem_intern(m, m->src->text + a, b - a), a);
            if (!bd || bd->scope <= 0)
                continue;
            if (bd->kind != LF_TSBIND_PARAM || (param && param->scope != bd->scope))
                return NULL;
            param = bd;
            continue;
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0 && sp < 64;)
            stack[sp++] = ts_node_named_child(n, i);
    }
    const lf_tsscope *sc = param ? &m->scopes[param->scope] : NULL;
    if (budget <= 0 || !sc || sc->fn != param->scope || !(sc->parent == 0 || sc->cls >= 0))
        return NULL;
    return param;
}

/* The class whose methods share an "expr@api" key over their parameters
 * (-1: top-level functions), or -2 when the expression is no such path: not
 * lf_tssem_api_params_expr, or one of an object literal's functions (an
 * adapter's operation, no part of the module's API). */
static int32_t api_key_class(lf_tssem *m, TSNode expr) {
    const lf_tsbinding *p = lf_tssem_api_params_expr(m, expr);
    if (!p || lf_tree_is(ts_node_parent(m->scopes[p->scope].node), "pair"))
        return -2;
    return m->scopes[p->scope].cls >= 0 ? m->scopes[p->scope].cls : -1;
}

/* The value scope s's returns of an object literal put in field `prop`:
 * *found the first, *seen 1, or 2 when two returns disagree. */
static void returned_field(lf_tssem *m, int32_t s, TSNode prop, TSNode *found, int *seen) {
    TSNode st[32];
    int sp = 0;
    st[sp++] = lf_tree_field(m->scopes[s].node, "body");
    for (int budget = 512; sp && budget-- > 0 && *seen < 2;) {
        TSNode n = st[--sp];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "return_statement")) {
            TSNode o = ts_node_named_child_count(n) ? lf_tssem_unwrap(ts_node_named_child(n, 0)) : (TSNode){0};
            for (uint32_t i = 0; lf_tree_is(o, "object") && i < ts_node_named_child_count(o); i++) {
                TSNode pr = ts_node_named_child(o, i);
                TSNode v = {0};
                if (lf_tree_is(pr, "pair") && lf_tree_same_text(m->src, lf_tree_field(pr, "key"), prop))
                    v = lf_tree_field(pr, "value");
                else if (lf_tree_is(pr, "shorthand_property_identifier") && lf_tree_same_text(m->src, pr, prop))
                    v = pr;
                if (ts_node_is_null(v))
                    continue;
                if (ts_node_is_null(*found))
                    *found = v, *seen = 1;
                else if (!lf_tree_same_text(m->src, *found, v))
                    *seen = 2; /* two returns disagree */
            }
            continue;
        }
        if (lf_tree_is(n, "function_declaration") || lf_tree_is(n, "arrow_function") ||
            lf_tree_is(n, "function_expression") || lf_tree_is(n, "method_definition"))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(n) && sp < 32; i++)
            st[sp++] = ts_node_named_child(n, i);
    }
}

/* An untyped parameter (JS): the module's one function whose result every
 * call of the parameter's function in the module passes to it
 * (`releaseLockSync(handle)` with `handle = tryAcquireLockSync(lockPath)`),
 * or -1. */
static int32_t handle_maker(lf_tssem *m, const lf_tsbinding *bd) {
    int32_t fn = bd->scope;
    int idx = fn > 0 ? lf_tssem_param_index(m, fn, bd) : -1;
    if (idx < 0 || idx >= 8)
        return -1;
    int32_t maker = -1;
    int calls = 0;
    for (int32_t c = lf_tssem_first_caller(m, fn); c >= 0; c = lf_tssem_next_caller(m, c)) {
        if (++calls > 16)
            return -1;
        TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, lf_tssem_arg(m->calls[c].node, (uint32_t)idx)));
        int32_t f = lf_tree_is(v, "call_expression") ? lf_tssem_local_callee(m, v) : -1;
        if (f <= 0 || (maker >= 0 && f != maker))
            return -1;
        maker = f;
    }
    return maker;
}

/* `handle.path` with `handle: LockHandle` a parameter: the value the
 * module's function declared to return a LockHandle puts in that field of the
 * object it returns (`return { path: lockPath, fd }`), so the release
 * `unlinkSync(handle.path)` names the lock the acquire created. An untyped
 * parameter (JS) reads the function whose results its callers pass
 * (handle_maker). Null when no function of the module returns one, or their
 * returns disagree. */
static TSNode typed_handle_field(lf_tssem *m, TSNode expr) {
    TSNode obj = lf_tree_field(expr, "object"), prop = lf_tree_field(expr, "property");
    if (!lf_tree_is(obj, "identifier") || !lf_tree_is(prop, "property_identifier"))
        return (TSNode){0};
    uint32_t a = ts_node_start_byte(obj);
    const lf_tsbinding *bd =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, obj), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(obj) - a), a);
    TSNode param = bd && bd->kind == LF_TSBIND_PARAM ? ts_node_parent(bd->target) : (TSNode){0};
    TSNode ann = lf_tree_is(param, "required_parameter") ? lf_tree_field(param, "type") : (TSNode){0};
    TSNode type = !ts_node_is_null(ann) && ts_node_named_child_count(ann) ? ts_node_named_child(ann, 0) : (TSNode){0};
    TSNode found = {0};
    int seen = 0;
    if (!lf_tree_is(type, "type_identifier")) {
        /* no type: the function whose results its callers pass */
        int untyped = bd && bd->kind == LF_TSBIND_PARAM && ts_node_is_null(ann) && lf_tree_is(bd->target, "identifier");
        int32_t maker = untyped ? handle_maker(m, bd) : -1;
        if (maker > 0)
            returned_field(m, maker, prop, &found, &seen);
        return seen == 1 ? found : (TSNode){0};
    }
    for (size_t s = 1; s < m->n_scopes && seen < 2; s++) {
        TSNode rt = lf_tree_field(m->scopes[s].node, "return_type");
        if (ts_node_is_null(rt))
            continue;
        /* the declared return type names the parameter's type (`T | null`) */
        int names = 0;
        TSNode st[32];
        int sp = 0;
        st[sp++] = rt;
        for (int budget = 64; sp && budget-- > 0 && !names;) {
            TSNode n = st[--sp];
            if (lf_tree_is(n, "type_identifier") && lf_tree_same_text(m->src, n, type))
                names = 1;
            for (uint32_t i = 0; i < ts_node_named_child_count(n) && sp < 32; i++)
                st[sp++] = ts_node_named_child(n, i);
        }
        if (names) /* its returns of an object literal: the field's value */
            returned_field(m, (int32_t)s, prop, &found, &seen);
    }
    return seen == 1 ? found : (TSNode){0};
}

/* params_only: NULL wherever the key would not be a parameter's ("param:..."),
 * before paying for it. */
/* Is `e` the parameter named `param` as it is, or converted to the same
 * path (`String(p)`, `p.toString()`, `fileURLToPath(p)`)? */
static int same_path_of(lf_tssem *m, TSNode e, const char *param) {
    e = lf_tssem_unwrap(e);
    if (lf_tree_is(e, "identifier"))
        return lf_tree_text_eq(m->src, e, param);
    if (!lf_tree_is(e, "call_expression"))
        return 0;
    TSNode fn = lf_tree_field(e, "function");
    if (lf_tree_is(fn, "member_expression") && lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "toString") &&
        lf_tssem_nargs(e) == 0)
        return lf_tree_is(lf_tssem_unwrap(lf_tree_field(fn, "object")), "identifier") &&
               lf_tree_text_eq(m->src, lf_tssem_unwrap(lf_tree_field(fn, "object")), param);
    const char *c = lf_tssem_callee(m, e);
    if (c && (!strcmp(c, "String") || !strcmp(c, "url.fileURLToPath")) && lf_tssem_nargs(e) == 1) {
        TSNode a = lf_tssem_unwrap(lf_tssem_arg(e, 0));
        return lf_tree_is(a, "identifier") && lf_tree_text_eq(m->src, a, param);
    }
    return 0;
}

/* Is module function s a path conversion of its one parameter: its body
 * one `return` (or an arrow's expression) of the parameter as it is or
 * converted, on every branch of a conditional (`typeof p === "string" ? p :
 * p.toString()`)? A call of it names the file its argument names. */
static int converts_its_param(lf_tssem *m, int32_t s) {
    const lf_tsscope *sc = &m->scopes[s];
    if (sc->n_params != 1)
        return 0;
    const lf_tsbinding *pb = &m->bindings[sc->first_param];
    if (!lf_tree_is(pb->target, "identifier"))
        return 0;
    TSNode body = lf_tree_field(sc->node, "body"), e = {0};
    if (lf_tree_is(body, "statement_block")) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
            if (!lf_tree_is(ts_node_named_child(body, i), "comment"))
                n++, e = ts_node_named_child(body, i);
        if (n != 1 || !lf_tree_is(e, "return_statement") || !ts_node_named_child_count(e))
            return 0;
        e = ts_node_named_child(e, 0);
    } else {
        e = body;
    }
    e = lf_tssem_unwrap(e);
    if (lf_tree_is(e, "ternary_expression"))
        return same_path_of(m, lf_tree_field(e, "consequence"), pb->name) &&
               same_path_of(m, lf_tree_field(e, "alternative"), pb->name);
    return same_path_of(m, e, pb->name);
}

/* Is the call a path conversion from another module, read by its name
 * since its body is not here: `toPath(p)`, `stringifyIfPath(p)`,
 * `normalizePath(p)`, `resolvePath(p)` (a verb of conversion, then "Path"
 * last)? Its one argument names the file it returns. */
/* A path class's constructor-like conversion of its one argument:
 * `Path.from(p)`, `Path.of(p)` (the object named *Path, imported or local). */
int lf_tssem_path_class_conversion(lf_tssem *m, TSNode call) {
    TSNode fn = lf_tssem_unwrap(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "member_expression"))
        return 0;
    TSNode obj = lf_tree_field(fn, "object"), prop = lf_tree_field(fn, "property");
    if (!lf_tree_is(obj, "identifier") ||
        (!lf_tree_text_eq(m->src, prop, "from") && !lf_tree_text_eq(m->src, prop, "of")))
        return 0;
    uint32_t a = ts_node_start_byte(obj), b = ts_node_end_byte(obj);
    return b - a >= 4 && !memcmp(m->src->text + b - 4, "Path", 4);
}

/* Does the expression use `this`? */
static int mentions_this(TSNode e) {
    TSTreeCursor c = ts_tree_cursor_new(e);
    int found = 0;
    for (int more = 1; more && !found;) {
        found = lf_tree_is(ts_tree_cursor_current_node(&c), "this");
        more = lf_tree_cursor_step(&c, 1);
    }
    ts_tree_cursor_delete(&c);
    return found;
}

static int imported_path_conversion(lf_tssem *m, TSNode call) {
    TSNode fn = lf_tssem_unwrap(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "member_expression"))
        fn = lf_tree_field(fn, "property");
    if (!lf_tree_is(fn, "identifier") && !lf_tree_is(fn, "property_identifier"))
        return 0;
    static const char *const verbs[] = {"to", "stringifyIf", "stringify", "normalize", "normalise", "resolve", NULL};
    uint32_t a = ts_node_start_byte(fn), b = ts_node_end_byte(fn);
    const char *name = m->src->text + a;
    size_t len = b - a;
    if (len < 6 || memcmp(name + len - 4, "Path", 4) != 0)
        return 0;
    for (size_t i = 0; verbs[i]; i++)
        if (strlen(verbs[i]) + 4 == len && !memcmp(name, verbs[i], len - 4))
            return 1;
    return 0;
}

/* The field a `this.name` or `this[kName]` (kName an identifier, a module's
 * Symbol or string constant) names: "name" / "[kName]" (interned), else NULL. */
static const char *this_field(lf_tssem *m, TSNode e) {
    if (!lf_tree_is(lf_tree_field(e, "object"), "this"))
        return NULL;
    TSNode f = {0};
    int computed = 0;
    if (lf_tree_is(e, "member_expression")) {
        f = lf_tree_field(e, "property");
    } else if (lf_tree_is(e, "subscript_expression")) {
        f = lf_tree_field(e, "index");
        computed = 1;
        if (!lf_tree_is(f, "identifier"))
            return NULL;
    }
    if (ts_node_is_null(f))
        return NULL;
    uint32_t a = ts_node_start_byte(f), b = ts_node_end_byte(f);
    if (!computed)
        return lf_tssem_intern(m, m->src->text + a, b - a);
    char *k = lf_xasprintf("[%.*s]", (int)(b - a), m->src->text + a);
    const char *out = lf_tssem_intern(m, k, strlen(k));
    free(k);
    return out;
}

/* The file's `new Name(...)` expressions, collected in one walk on first use. */
static void collect_news(lf_tssem *m) {
    lf_tssem_internal *in = m->in;
    in->news_built = 1;
    TSTreeCursor c = ts_tree_cursor_new(m->root);
    for (int more = 1; more;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        lf_work(1);
        if (lf_tree_is(n, "new_expression") && lf_tree_is(lf_tree_field(n, "constructor"), "identifier"))
            LF_VEC_PUSH(&in->news, n);
        more = lf_tree_cursor_step(&c, 1);
    }
    ts_tree_cursor_delete(&c);
}

/* What field `field` of class cls holds when its constructor is the one
 * place that sets it, to one of its parameters, and the module constructs
 * the class at one place (`new Handle(this.path, ...)`): that argument, named
 * where it is written. A handle made for a lock then names the lock's path.
 * Null otherwise (two places construct it, or set the field, or it is set
 * to anything but a parameter). */
static TSNode constructed_field(lf_tssem *m, int32_t cls, const char *field) {
    lf_tssem_internal *in = m->in;
    for (size_t i = 0; i < in->field_flows.len; i++)
        if (in->field_flows.items[i].cls == cls && in->field_flows.items[i].field == field)
            return in->field_flows.items[i].value;
    lf_tsfield_flow flow = {.cls = cls, .field = field};
    size_t slot = in->field_flows.len;
    LF_VEC_PUSH(&in->field_flows, flow); /* answered below; a lookup meanwhile sees none */
    const lf_tsclass *c = &m->classes[cls];
    int32_t ctor = -1;
    for (int32_t s = c->first_method; s >= 0; s = m->scopes[s].next_method)
        if (strcmp(m->scopes[s].name, "constructor") == 0)
            ctor = s;
    if (ctor < 0 || !c->name || !*c->name)
        return (TSNode){0};
    /* every assignment to the field in the class: one, in the constructor's own body */
    TSNode value = {0};
    int sets = 0;
    TSTreeCursor cur = ts_tree_cursor_new(c->node);
    for (int more = 1; more && sets < 2;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        lf_work(1);
        if ((lf_tree_is(n, "assignment_expression") || lf_tree_is(n, "augmented_assignment_expression")) &&
            this_field(m, lf_tree_field(n, "left")) == field) {
            sets++;
            value = lf_tssem_scope_of(m, n) == ctor && lf_tree_is(n, "assignment_expression")
                        ? lf_tssem_unwrap(lf_tree_field(n, "right"))
                        : (TSNode){0};
        }
        more = lf_tree_cursor_step(&cur, 1);
    }
    ts_tree_cursor_delete(&cur);
    /* `this.path = Path.from(lockPath)`: the parameter, converted */
    if (lf_tree_is(value, "call_expression") && lf_tssem_nargs(value) == 1 && lf_tssem_path_class_conversion(m, value))
        value = lf_tssem_unwrap(lf_tssem_arg(value, 0));
    if (sets != 1 || !lf_tree_is(value, "identifier"))
        return (TSNode){0};
    const lf_tsbinding *pb = lf_tssem_binding_of(m, value);
    if (!pb || pb->kind != LF_TSBIND_PARAM || pb->scope != ctor)
        return (TSNode){0};
    uint32_t index = (uint32_t)(pb - &m->bindings[m->scopes[ctor].first_param]);
    /* the one `new Name(...)` of the module */
    if (!in->news_built)
        collect_news(m);
    TSNode site = {0};
    int sites = 0;
    for (size_t i = 0; i < in->news.len && sites < 2; i++)
        if (lf_tree_text_eq(m->src, lf_tree_field(in->news.items[i], "constructor"), c->name))
            sites++, site = in->news.items[i];
    /* made inside its own class from its own fields (`clone() { return new
     * C(this.path) }`): the field would name itself; a static factory's
     * `new C(pathValue)` names what the factory was given */
    TSNode arg = sites == 1 ? lf_tssem_arg(site, index) : (TSNode){0};
    if (ts_node_is_null(arg) || (lf_tree_within(site, c->node) && mentions_this(arg)))
        return (TSNode){0};
    in->field_flows.items[slot].value = arg;
    return arg;
}

static const char *path_key(lf_tssem *m, TSNode expr, int params_only) {
    for (int hop = 0; hop < MAX_HOPS && !ts_node_is_null(expr); hop++) {
        expr = lf_tssem_unwrap(expr);
        if (lf_tree_is(expr, "identifier")) {
            uint32_t a = ts_node_start_byte(expr), b = ts_node_end_byte(expr);
            const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
            const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, expr), name, a);
            if (bd && bd->kind == LF_TSBIND_PARAM) {
                char *k = lf_xasprintf("param:%d:%s", (int)bd->scope, name);
                const char *out = lf_tssem_intern(m, k, strlen(k));
                free(k);
                return out;
            }
            if (bd && !bd->member && !ts_node_is_null(bd->value) &&
                (bd->kind == LF_TSBIND_VAR || bd->kind == LF_TSBIND_ASSIGN)) {
                expr = bd->value;
                continue;
            }
            return params_only ? NULL : text_key(m, "name:", expr);
        }
        if (params_only && !lf_tree_is(expr, "call_expression"))
            return NULL;
        const char *field = this_field(m, expr);
        if (field) {
            int32_t cls = m->scopes[lf_tssem_scope_of(m, expr)].cls;
            TSNode from = cls >= 0 ? constructed_field(m, cls, field) : (TSNode){0};
            if (!ts_node_is_null(from)) {
                expr = from; /* the handle's field names what its maker was given */
                continue;
            }
            char *k = lf_xasprintf("this.%d.%s", (int)cls, field);
            const char *out = lf_tssem_intern(m, k, strlen(k));
            free(k);
            return out;
        }
        if (lf_tree_is(expr, "call_expression")) {
            const char *c = lf_tssem_callee(m, expr);
            /* wrappers that name the same file */
            if (c && (strcmp(c, "path.resolve") == 0 || strcmp(c, "String") == 0 || strcmp(c, "path.normalize") == 0) &&
                lf_tssem_nargs(expr) == 1) {
                expr = lf_tssem_arg(expr, 0);
                continue;
            }
            int32_t s = lf_tssem_local_callee(m, expr);
            if (s <= 0 && lf_tssem_nargs(expr) == 1 && lf_tssem_path_class_conversion(m, expr)) {
                expr = lf_tssem_arg(expr, 0); /* `Path.from(lockPath)` */
                continue;
            }
            /* `pathValue.toString()`: a path object's own text */
            TSNode callee = lf_tssem_unwrap(lf_tree_field(expr, "function"));
            if (s <= 0 && lf_tssem_nargs(expr) == 0 && lf_tree_is(callee, "member_expression") &&
                lf_tree_text_eq(m->src, lf_tree_field(callee, "property"), "toString")) {
                expr = lf_tree_field(callee, "object");
                continue;
            }
            if (s <= 0 && lf_tssem_nargs(expr) == 1 && imported_path_conversion(m, expr)) {
                expr = lf_tssem_arg(expr, 0); /* `stringifyIfPath(p)` from path-class */
                continue;
            }
            if (s > 0 && lf_tssem_nargs(expr) == 1 && converts_its_param(m, s)) {
                expr = lf_tssem_arg(expr, 0); /* `stringifyIfPath(lockPath)` */
                continue;
            }
            if (params_only)
                return NULL;
            /* a path builder of the module, or of another module of the
             * project (`getPidPath(projectDir)` from "../constants"): one
             * file per builder, whichever function asks */
            if (s > 0 || lf_tssem_project_callee(c)) {
                char *k = lf_xasprintf("call:%s", s > 0 ? m->scopes[s].name : c);
                const char *out = lf_tssem_intern(m, k, strlen(k));
                free(k);
                return out;
            }
        }
        if (lf_tree_is(expr, "member_expression") && !params_only) {
            TSNode v = typed_handle_field(m, expr);
            if (lf_tree_is(v, "shorthand_property_identifier")) {
                /* `{ path }`: what that name holds in the returning function */
                uint32_t a = ts_node_start_byte(v);
                const char *name = lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(v) - a);
                const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, v), name, a);
                if (bd && bd->kind == LF_TSBIND_PARAM) {
                    char *k = lf_xasprintf("param:%d:%s", (int)bd->scope, name);
                    const char *out = lf_tssem_intern(m, k, strlen(k));
                    free(k);
                    return out;
                }
                v = bd && !bd->member && (bd->kind == LF_TSBIND_VAR || bd->kind == LF_TSBIND_ASSIGN) ? bd->value
                                                                                                  : (TSNode){0};
            }
            if (!ts_node_is_null(v)) {
                expr = v;
                continue;
            }
        }
        /* an expression over local names (`node.path`, `join(dir, name)`)
         * names a file of its own function only */
        int32_t local = local_scope_of(m, expr);
        int32_t api = local > 0 ? api_key_class(m, expr) : -2;
        if (api >= -1) {
            char *pre = lf_xasprintf("expr@api%d:", (int)api);
            const char *out = text_key(m, pre, expr);
            free(pre);
            return out;
        }
        if (local > 0) {
            char *pre = lf_xasprintf("expr@%d:", (int)local);
            const char *out = text_key(m, pre, expr);
            free(pre);
            return out;
        }
        return text_key(m, "expr:", expr);
    }
    return NULL;
}

const char *lf_tssem_path_key(lf_tssem *m, TSNode expr) { return path_key(m, expr, 0); }

const char *lf_tssem_param_path_key(lf_tssem *m, TSNode expr) {
    const char *k = path_key(m, expr, 1);
    return k && strncmp(k, "param:", 6) == 0 ? k : NULL;
}

const lf_tsbinding *lf_tssem_key_param(lf_tssem *m, const char *key) {
    if (!key || strncmp(key, "param:", 6) != 0)
        return NULL;
    char *end;
    long scope = strtol(key + 6, &end, 10);
    if (*end != ':')
        return NULL;
    const char *name = lf_tssem_intern(m, end + 1, strlen(end + 1));
    for (int32_t i = lf_tssem_first_binding(m, name); i >= 0; i = m->bindings[i].next)
        if (m->bindings[i].scope == scope && m->bindings[i].kind == LF_TSBIND_PARAM)
            return &m->bindings[i];
    return NULL;
}

int lf_tssem_is_package_lockfile(const char *key) {
    static const char *const k[] = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "npm-shrinkwrap.json",
                                    "bun.lockb",         "bun.lock",  "Cargo.lock",     "uv.lock",
                                    "poetry.lock",       "Gemfile.lock", "composer.lock", "deno.lock", NULL};
    if (!key)
        return 0;
    for (size_t i = 0; k[i]; i++)
        if (strstr(key, k[i]))
            return 1;
    return 0;
}

TSNode lf_tssem_search_values(lf_tssem *m, TSNode e, size_t budget, int skip_functions, lf_tssem_hit_fn hit) {
    TSNode stack[32];
    size_t n = 0, seen = 0;
    stack[n++] = e;
    while (n && seen++ < budget) {
        TSNode x = lf_tssem_unwrap(stack[--n]);
        if (ts_node_is_null(x) ||
            (skip_functions && (lf_tree_is(x, "arrow_function") || lf_tree_is(x, "function_expression"))))
            continue;
        TSNode found = hit(m, x);
        if (!ts_node_is_null(found))
            return found;
        if (lf_tree_is(x, "identifier")) {
            TSNode v = lf_tssem_resolve_value(m, x);
            if (!ts_node_eq(v, x) && n < 32)
                stack[n++] = v;
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(x) && n < 32; i++)
            stack[n++] = ts_node_named_child(x, i);
    }
    return (TSNode){0};
}

int lf_tssem_project_callee(const char *qualname) {
    return qualname && (strncmp(qualname, "./", 2) == 0 || strncmp(qualname, "../", 3) == 0);
}

int lf_tssem_leaves(TSNode b) {
    /* every branch to check must leave: a try leaves when its body and its
     * handler do, an if/else when both arms do (a bounded worklist) */
    TSNode todo[16];
    int n = 0;
    todo[n++] = b;
    while (n > 0) {
        TSNode x = todo[--n];
        while (lf_tree_is(x, "statement_block") || lf_tree_is(x, "else_clause") || lf_tree_is(x, "catch_clause")) {
            if (!lf_tree_is(x, "statement_block")) {
                x = lf_tree_field(x, "body");
                continue;
            }
            uint32_t k = ts_node_named_child_count(x);
            x = k ? ts_node_named_child(x, k - 1) : (TSNode){0};
        }
        if (lf_tree_is(x, "return_statement") || lf_tree_is(x, "throw_statement") ||
            lf_tree_is(x, "continue_statement") || lf_tree_is(x, "break_statement"))
            continue;
        if (n + 2 > 16)
            return 0;
        if (lf_tree_is(x, "try_statement") && !ts_node_is_null(lf_tree_field(x, "handler"))) {
            todo[n++] = lf_tree_field(x, "body");
            todo[n++] = lf_tree_field(x, "handler");
            continue;
        }
        if (lf_tree_is(x, "if_statement") && !ts_node_is_null(lf_tree_field(x, "alternative"))) {
            todo[n++] = lf_tree_field(x, "consequence");
            todo[n++] = lf_tree_field(x, "alternative");
            continue;
        }
        return 0;
    }
    return 1;
}

const lf_tsbinding *lf_tssem_binding_of(lf_tssem *m, TSNode id) {
    uint32_t a = ts_node_start_byte(id);
    return lf_tssem_binding_at(m, lf_tssem_scope_of(m, id), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(id) - a),
                               a);
}

int lf_tssem_signal_zero(const lf_source *src, TSNode sig) {
    sig = lf_tssem_unwrap(sig);
    if (lf_tree_is(sig, "binary_expression")) {
        TSNode op = lf_tree_field(sig, "operator");
        if (lf_tree_text_eq(src, op, "||") || lf_tree_text_eq(src, op, "??"))
            sig = lf_tssem_unwrap(lf_tree_field(sig, "right"));
    }
    return lf_tree_is(sig, "number") && lf_tree_text_eq(src, sig, "0");
}
