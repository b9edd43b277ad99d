/* lf_tsowner: does a removal run only while the lock's record names this
 * process (TS/JS)?
 *
 * `if (rec.pid === process.pid) rm(lock)`, `if (rec?.ownerId !== ownerId)
 * return; ... rm(lock)`, `if (current.startsWith(owner)) unlink(lock)`: the
 * removal runs only when what was just read from the lock names this very
 * process or acquisition, so it is this holder's own release, whatever the
 * function looked at first. A holder's lock changes hands only when someone
 * breaks it. Where the module breaks it only after judging its holder dead,
 * nobody breaks it while the holder runs this: nothing to bind, not
 * reported. Where the module breaks it on existence or age alone
 * (LF_TSLOCK_BROKEN_LIVE), a holder paused between the read and the removal
 * can lose it meanwhile and then delete its successor's lock: reported. */
#include <stdint.h>

#include "lf_tree.h"
#include "lf_tsowner.h"

#define MAX_BACK 32 /* statements looked back at, per removal, for `if (<not mine>) return;` */

/* The identifier a value is read from: `rec` of `rec`, `rec.pid`,
 * `rec?.ownerId`, `info["pid"]`, `await x`; else a null node. */
static TSNode read_root(TSNode e) {
    e = lf_tssem_unwrap(e);
    for (int i = 0; i < 16 && (lf_tree_is(e, "member_expression") || lf_tree_is(e, "subscript_expression")); i++)
        e = lf_tssem_unwrap(lf_tree_field(e, "object"));
    return lf_tree_is(e, "identifier") ? e : (TSNode){0};
}

typedef struct call_scan {
    const lf_source *src;
    TSNode path;      /* record_read: a call handed this path's text */
    int found;        /* record_read: such a call; token_value: a call given a non-literal */
    int made;         /* token_value: a call given only literals, or process.pid */
} call_scan;

static lf_walk_action find_read_of(TSNode n, void *ud) {
    call_scan *c = ud;
    if (!lf_tree_is(n, "call_expression"))
        return LF_WALK_CONTINUE;
    TSNode args = lf_tree_field(n, "arguments");
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
        if (lf_tree_same_text(c->src, lf_tssem_unwrap(ts_node_named_child(args, i)), c->path)) {
            c->found = 1;
            return LF_WALK_STOP;
        }
    return LF_WALK_CONTINUE;
}

static int is_literal(TSNode n) {
    static const char *const kinds[] = {"string", "number", "true", "false", "null", "undefined", NULL};
    for (size_t i = 0; kinds[i]; i++)
        if (lf_tree_is(n, kinds[i]))
            return 1;
    return 0;
}

/* A call handed something other than literals (found: it may read a file);
 * a call given only literals or process.pid (made: a value made here). */
static lf_walk_action find_reading_call(TSNode n, void *ud) {
    call_scan *c = ud;
    if (lf_tree_is(n, "member_expression") && lf_tree_text_eq(c->src, n, "process.pid")) {
        c->made = 1;
        return LF_WALK_SKIP;
    }
    if (!lf_tree_is(n, "call_expression") && !lf_tree_is(n, "new_expression"))
        return LF_WALK_CONTINUE;
    TSNode args = lf_tree_field(n, "arguments");
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
        if (!is_literal(ts_node_named_child(args, i))) {
            c->found = 1;
            return LF_WALK_STOP;
        }
    c->made = 1;
    return LF_WALK_CONTINUE;
}

/* The declared function scope s belongs to (lf_tslock_fn_of's answer, which
 * this layer below lf_tslock reads off the model): 0 for the program. */
static int32_t fn_of(const lf_tssem *m, int32_t s) { return s > 0 ? m->scopes[s].fn : s; }

/* Is e read from the lock at `path`: a name bound to a value holding a call
 * handed the path (`readFileSync(lock)`, `readRecord(lockDir)`), directly or
 * through one more name (`JSON.parse(content)`)? */
static int record_read(lf_tssem *m, TSNode e, TSNode path) {
    TSNode id = read_root(e);
    for (int hop = 0; hop < 2 && !ts_node_is_null(id); hop++) {
        const lf_tsbinding *b = lf_tssem_binding_of(m, id);
        if (!b || (b->kind != LF_TSBIND_VAR && b->kind != LF_TSBIND_ASSIGN) || ts_node_is_null(b->value))
            return 0;
        call_scan c = {m->src, path, 0, 0};
        lf_tree_walk(b->value, find_read_of, &c);
        if (c.found)
            return 1;
        /* JSON.parse(text): one more name */
        TSNode v = lf_tssem_unwrap(b->value), next = {0};
        if (lf_tree_is(v, "call_expression")) {
            TSNode args = lf_tree_field(v, "arguments");
            if (!ts_node_is_null(args) && ts_node_named_child_count(args) >= 1)
                next = read_root(ts_node_named_child(args, 0));
        }
        id = next;
    }
    return 0;
}

/* The value a property of a record this function builds holds
 * (`owner.nonce` with `const owner = { nonce: randomUUID(), ... }`), else
 * a null node. */
static TSNode own_field_value(lf_tssem *m, TSNode e) {
    if (!lf_tree_is(e, "member_expression"))
        return (TSNode){0};
    TSNode obj = lf_tssem_unwrap(lf_tree_field(e, "object")), prop = lf_tree_field(e, "property");
    if (!lf_tree_is(obj, "identifier"))
        return (TSNode){0};
    const lf_tsbinding *b = lf_tssem_binding_of(m, obj);
    if (!b || b->kind != LF_TSBIND_VAR || b->member || ts_node_is_null(b->value))
        return (TSNode){0};
    TSNode lit = lf_tssem_unwrap(b->value);
    if (!lf_tree_is(lit, "object"))
        return (TSNode){0};
    for (uint32_t i = 0; i < ts_node_named_child_count(lit); i++) {
        TSNode pair = ts_node_named_child(lit, i);
        if (lf_tree_is(pair, "pair") && lf_tree_same_text(m->src, lf_tree_field(pair, "key"), prop))
            return lf_tssem_unwrap(lf_tree_field(pair, "value"));
    }
    return (TSNode){0};
}

/* A token made of no read: process.pid, or a name bound to a value made
 * here from process.pid or calls given only literals, and handing no call
 * anything else (`${process.pid}:${randomUUID()}`,
 * `randomBytes(16).toString("hex")`); not a copy of another value
 * (`judged = last.pid`: a pid judged elsewhere). *param: e is a parameter of
 * the module's function (own_token asks its callers). */
static int token_value(lf_tssem *m, TSNode e, const lf_tsbinding **param) {
    *param = NULL;
    e = lf_tssem_unwrap(e);
    for (int hop = 0; hop < 4; hop++) {
        TSNode v = own_field_value(m, e);
        if (ts_node_is_null(v))
            break;
        e = v;
    }
    if (ts_node_is_null(e) || is_literal(e))
        return 0;
    if (lf_tree_text_eq(m->src, e, "process.pid"))
        return 1;
    /* `input.pid ?? process.pid`: an option a caller may pass, else this
     * process's pid (the module's own callers pass none that is not theirs) */
    if (lf_tree_is(e, "binary_expression") && lf_tree_text_eq(m->src, lf_tree_field(e, "operator"), "??") &&
        lf_tree_text_eq(m->src, lf_tssem_unwrap(lf_tree_field(e, "right")), "process.pid"))
        return 1;
    /* `randomUUID()`, `crypto.randomBytes(16).toString("hex")`: made here */
    if (lf_tree_is(e, "call_expression")) {
        call_scan c = {.src = m->src};
        lf_tree_walk(e, find_reading_call, &c);
        return !c.found && c.made;
    }
    TSNode id = read_root(e);
    if (ts_node_is_null(id) || !ts_node_eq(id, e))
        return 0;
    const lf_tsbinding *b = lf_tssem_binding_of(m, id);
    if (!b)
        return 0;
    if ((b->kind == LF_TSBIND_VAR || b->kind == LF_TSBIND_ASSIGN) && !b->member && !ts_node_is_null(b->value)) {
        if (is_literal(lf_tssem_unwrap(b->value)))
            return 0;
        call_scan c = {.src = m->src};
        lf_tree_walk(b->value, find_reading_call, &c);
        return !c.found && c.made;
    }
    if (b->kind == LF_TSBIND_PARAM)
        *param = b;
    return 0;
}

/* Is e this process's own identity: a token (token_value), or a parameter
 * every caller in the module (one or more) hands one? */
static int own_token(lf_tssem *m, TSNode e) {
    const lf_tsbinding *b;
    if (token_value(m, e, &b))
        return 1;
    if (!b)
        return 0;
    int idx = lf_tssem_param_index(m, b->scope, b);
    int32_t fn = fn_of(m, b->scope);
    size_t calls = 0;
    for (int32_t c = idx >= 0 && fn > 0 ? lf_tssem_first_caller(m, fn) : -1; c >= 0; c = lf_tssem_next_caller(m, c)) {
        TSNode args = lf_tree_field(m->calls[c].node, "arguments");
        const lf_tsbinding *again;
        if (ts_node_is_null(args) || (uint32_t)idx >= ts_node_named_child_count(args) ||
            !token_value(m, ts_node_named_child(args, (uint32_t)idx), &again))
            return 0;
        calls++;
    }
    return calls > 0;
}

/* Does cond hold only when the lock's record (read from path) names this
 * process (want 1), or only when it does not (want 0)? `a === b`, `a !== b`,
 * `a.startsWith(b)`, `!x`, and `&&` (want 1) / `||` (want 0) of such. */
static int owner_test(lf_tssem *m, TSNode cond, TSNode path, int want) {
    struct {
        TSNode n;
        int want;
    } stack[16];
    int top = 0;
    stack[top].n = cond;
    stack[top++].want = want;
    while (top > 0) {
        top--;
        TSNode c = stack[top].n;
        int w = stack[top].want;
        for (int steps = 0; steps < 16; steps++) {
            c = lf_tssem_unwrap(c);
            if (!lf_tree_is(c, "unary_expression") || !lf_tree_text_eq(m->src, lf_tree_field(c, "operator"), "!"))
                break;
            c = lf_tree_field(c, "argument");
            w = !w;
        }
        if (lf_tree_is(c, "binary_expression")) {
            TSNode op = lf_tree_field(c, "operator"), left = lf_tree_field(c, "left"), right = lf_tree_field(c, "right");
            if (lf_tree_text_eq(m->src, op, w ? "&&" : "||")) {
                if (top + 2 <= (int)(sizeof stack / sizeof *stack)) {
                    stack[top].n = left;
                    stack[top++].want = w;
                    stack[top].n = right;
                    stack[top++].want = w;
                }
                continue;
            }
            int eq = lf_tree_text_eq(m->src, op, "===") || lf_tree_text_eq(m->src, op, "==");
            int ne = lf_tree_text_eq(m->src, op, "!==") || lf_tree_text_eq(m->src, op, "!=");
            if ((w ? eq : ne) && ((record_read(m, left, path) && own_token(m, right)) ||
                                  (record_read(m, right, path) && own_token(m, left))))
                return 1;
            continue;
        }
        if (!w || !lf_tree_is(c, "call_expression"))
            continue;
        TSNode fn = lf_tree_field(c, "function"), args = lf_tree_field(c, "arguments");
        if (!lf_tree_is(fn, "member_expression") || ts_node_is_null(args) || ts_node_named_child_count(args) != 1)
            continue;
        TSNode prop = lf_tree_field(fn, "property");
        if (!lf_tree_text_eq(m->src, prop, "startsWith") && !lf_tree_text_eq(m->src, prop, "includes"))
            continue;
        TSNode arg = ts_node_named_child(args, 0);
        if (lf_tree_is(arg, "template_string")) /* `${owner}\n` */
            for (uint32_t i = 0; i < ts_node_named_child_count(arg); i++) {
                TSNode sub = ts_node_named_child(arg, i);
                if (lf_tree_is(sub, "template_substitution") && ts_node_named_child_count(sub) == 1)
                    arg = ts_node_named_child(sub, 0);
            }
        if (record_read(m, lf_tree_field(fn, "object"), path) && own_token(m, arg))
            return 1;
    }
    return 0;
}

int lf_tsowner_checked(lf_tssem *m, TSNode removal, TSNode path) {
    if (ts_node_is_null(removal) || ts_node_is_null(path))
        return 0;
    int32_t f = fn_of(m, lf_tssem_scope_of(m, removal));
    TSNode fn = f >= 0 ? m->scopes[f].node : (TSNode){0}, cur = removal;
    int back = 0;
    for (int steps = 0; steps < 64 && !ts_node_is_null(cur) && !ts_node_eq(cur, fn); steps++) {
        TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p))
            break;
        if (lf_tree_is(p, "if_statement") && ts_node_eq(lf_tree_field(p, "consequence"), cur) &&
            owner_test(m, lf_tree_field(p, "condition"), path, 1))
            return 1;
        if (lf_tree_is(p, "else_clause")) {
            TSNode ifs = ts_node_parent(p);
            if (lf_tree_is(ifs, "if_statement") && owner_test(m, lf_tree_field(ifs, "condition"), path, 0))
                return 1;
        }
        /* the owner test leads the release: a few statements back, not a
         * walk of the whole block per removal */
        if (lf_tree_is(p, "statement_block"))
            for (TSNode x = ts_node_prev_named_sibling(cur); !ts_node_is_null(x) && back++ < MAX_BACK;
                 x = ts_node_prev_named_sibling(x))
                if (lf_tree_is(x, "if_statement") && ts_node_is_null(lf_tree_field(x, "alternative")) &&
                    lf_tssem_leaves(lf_tree_field(x, "consequence")) &&
                    owner_test(m, lf_tree_field(x, "condition"), path, 0))
                    return 1;
        cur = p;
    }
    return 0;
}
