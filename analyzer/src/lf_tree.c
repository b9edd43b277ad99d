#include "lf_tree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

/* lf_tree_field (and lf_tree_is, inline in lf_tree.h) are in nearly every loop
 * of the checks, fixes and model: each counts one step of lf_work_steps, the
 * complexity tests' measure. */

/* Field ids by name, cached per thread: ts_node_child_by_field_name looks the
 * name up with a linear string search over the grammar's fields on every call,
 * which was a quarter of a whole-stdlib scan. Callers pass string literals, so
 * the pointer is the key; the strcmp keeps a reused buffer correct. */
typedef struct field_slot {
    const TSLanguage *lang;
    const char *name;
    TSFieldId id;
} field_slot;
/* Direct-mapped on a multiplicative hash of both pointers: with 128 slots and
 * the low pointer bits as the index, the hot fields of three grammars evicted
 * each other and one lookup in forty paid the linear search. */
#define FIELD_CACHE_BITS 10
static _Thread_local field_slot g_field_cache[1u << FIELD_CACHE_BITS];

/* Child-by-field answers, memoised per thread: the model, the lock facts and
 * every check ask the same few fields (a call's "function", an attribute's
 * "object") of the same nodes again and again, and tree-sitter answers each by
 * walking the parent's children through the grammar's field map (about a
 * tenth of a whole-library scan). Direct-mapped on the node's id, which is
 * unique within a live tree; lf_tree_delete moves the epoch on, so a tree
 * freed and another allocated at the same address never read a stale entry. */
typedef struct field_memo {
    const void *id;
    const TSTree *tree;
    uint32_t epoch;
    TSFieldId field;
    TSNode child;
} field_memo;
#define FIELD_MEMO_SLOTS 4096u
static _Thread_local field_memo g_field_memo[FIELD_MEMO_SLOTS];
static _Thread_local uint32_t g_field_epoch = 1;

void lf_tree_delete(TSTree *tree) {
    if (!tree)
        return;
    g_field_epoch++;
    ts_tree_delete(tree);
}

void lf_tree_forget(const TSTree *tree) {
    (void)tree;
    g_field_epoch++;
}

TSNode lf_tree_field(TSNode n, const char *field) {
    lf_work(1);
    if (ts_node_is_null(n))
        return n;
    const TSLanguage *lang = ts_node_language(n);
    uint64_t fh = ((uint64_t)(uintptr_t)field ^ ((uint64_t)(uintptr_t)lang << 7)) * 0x9E3779B97F4A7C15ull;
    field_slot *s = &g_field_cache[fh >> (64 - FIELD_CACHE_BITS)];
    if (s->lang != lang || s->name != field || strcmp(s->name, field) != 0) {
        s->lang = lang;
        s->name = field;
        s->id = ts_language_field_id_for_name(lang, field, (uint32_t)strlen(field));
    }
    if (!s->id)
        return (TSNode){0};
    uintptr_t h = ((uintptr_t)n.id >> 3) * 0x9E3779B1u + s->id;
    field_memo *e = &g_field_memo[(h ^ (h >> 15)) & (FIELD_MEMO_SLOTS - 1)];
    if (e->id == n.id && e->tree == n.tree && e->field == s->id && e->epoch == g_field_epoch)
        return e->child;
    TSNode c = ts_node_child_by_field_id(n, s->id);
    e->id = n.id;
    e->tree = n.tree;
    e->field = s->id;
    e->epoch = g_field_epoch;
    e->child = c;
    return c;
}

uint32_t lf_tree_max_depth(TSNode root, uint32_t stop_at) {
    if (ts_node_is_null(root))
        return 0;
    TSTreeCursor c = ts_tree_cursor_new(root);
    uint32_t depth = 0, max = 0;
    for (;;) {
        lf_work(1);
        /* A subtree of n visible nodes is at most n - 1 levels deep: one too small
         * to reach past stop_at is not entered (most of a real tree is never
         * visited; this walk cost a sixth of a parse when it went everywhere). */
        uint64_t reach = (uint64_t)depth + ts_node_descendant_count(ts_tree_cursor_current_node(&c)) - 1;
        if (reach > stop_at && ts_tree_cursor_goto_first_child(&c)) {
            if (++depth > max) {
                max = depth;
                if (max > stop_at)
                    break;
            }
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c))
                goto done;
            depth--;
        }
    }
done:
    ts_tree_cursor_delete(&c);
    return max;
}

int lf_tree_cursor_step(TSTreeCursor *c, int enter) {
    if (enter && ts_tree_cursor_goto_first_child(c))
        return 1;
    while (!ts_tree_cursor_goto_next_sibling(c))
        if (!ts_tree_cursor_goto_parent(c))
            return 0;
    return 1;
}

TSNode lf_tree_enclosing(TSNode n, const char *kind, int (*stop)(TSNode)) {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (stop(p))
            break;
        if (lf_tree_is(p, kind))
            return p;
    }
    return (TSNode){0};
}

int lf_tree_runs_in(TSNode n, TSNode block, int (*stop)(TSNode)) {
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, block); p = ts_node_parent(p))
        if (stop(p))
            return 0;
    return 1;
}

int lf_tree_within(TSNode inner, TSNode outer) {
    if (ts_node_is_null(inner) || ts_node_is_null(outer))
        return 0;
    return ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

static int is_noise(TSNode c) { return ts_node_is_extra(c) || lf_tree_is(c, "comment"); }

TSNode lf_tree_child(TSNode n, uint32_t i) {
    if (ts_node_is_null(n))
        return n;
    uint32_t k = 0, count = ts_node_named_child_count(n);
    for (uint32_t j = 0; j < count; j++) {
        TSNode c = ts_node_named_child(n, j);
        if (is_noise(c))
            continue;
        if (k++ == i)
            return c;
    }
    return (TSNode){0};
}

uint32_t lf_tree_child_count(TSNode n) {
    if (ts_node_is_null(n))
        return 0;
    uint32_t k = 0, count = ts_node_named_child_count(n);
    for (uint32_t j = 0; j < count; j++)
        if (!is_noise(ts_node_named_child(n, j)))
            k++;
    return k;
}

TSNode lf_tree_unparen(TSNode n) {
    while (lf_tree_is(n, "parenthesized_expression") && lf_tree_child_count(n) == 1)
        n = lf_tree_child(n, 0);
    return n;
}

int lf_tree_same_text(const lf_source *src, TSNode a, TSNode b) {
    if (ts_node_is_null(a) || ts_node_is_null(b))
        return 0;
    uint32_t la = ts_node_end_byte(a) - ts_node_start_byte(a), lb = ts_node_end_byte(b) - ts_node_start_byte(b);
    return la == lb && memcmp(src->text + ts_node_start_byte(a), src->text + ts_node_start_byte(b), la) == 0;
}

int lf_tree_text_eq(const lf_source *src, TSNode n, const char *s) {
    if (ts_node_is_null(n))
        return 0;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    size_t len = strlen(s);
    return b <= src->len && a <= b && (size_t)(b - a) == len && memcmp(src->text + a, s, len) == 0;
}

char *lf_tree_text(const lf_source *src, TSNode n) {
    if (ts_node_is_null(n))
        return lf_xstrdup("");
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b > src->len)
        b = (uint32_t)src->len;
    if (a > b)
        a = b;
    return lf_xstrndup(src->text + a, b - a);
}

int lf_tree_walk(TSNode root, lf_tree_visit_fn visit, void *ud) {
    if (ts_node_is_null(root))
        return 0;
    TSTreeCursor c = ts_tree_cursor_new(root);
    int stopped = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        int descend = 1;
        lf_work(1);
        if (ts_node_is_named(n)) {
            lf_walk_action a = visit(n, ud);
            if (a == LF_WALK_STOP) {
                stopped = 1;
                break;
            }
            descend = a != LF_WALK_SKIP;
        }
        if (descend && ts_tree_cursor_goto_first_child(&c))
            continue;
        int moved = 0;
        while (!(moved = ts_tree_cursor_goto_next_sibling(&c)))
            if (!ts_tree_cursor_goto_parent(&c))
                break;
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&c);
    return stopped;
}

typedef struct mention_ctx {
    const lf_source *src;
    const char *name;
    const char *const *types;
    int found;
} mention_ctx;

static const char *const k_identifier_types[] = {"identifier", NULL};

static lf_walk_action visit_mention(TSNode n, void *ud) {
    mention_ctx *m = ud;
    const char *t = ts_node_type(n);
    for (size_t i = 0; m->types[i]; i++) {
        if (strcmp(t, m->types[i]) == 0 && lf_tree_text_eq(m->src, n, m->name)) {
            m->found = 1;
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

int lf_tree_mentions(const lf_source *src, TSNode n, const char *name, const char *const *types) {
    mention_ctx m = {src, name, types ? types : k_identifier_types, 0};
    lf_tree_walk(n, visit_mention, &m);
    return m.found;
}

/* ---- structural equality ---- */

typedef struct node_pair {
    TSNode a, b;
} node_pair;

static int same_bytes(const lf_source *sa, TSNode a, const lf_source *sb, TSNode b) {
    uint32_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
    uint32_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
    return a1 - a0 == b1 - b0 && memcmp(sa->text + a0, sb->text + b0, a1 - a0) == 0;
}

/* A string's prefix letters (`f`, `rb`, ...), lower-cased, without the quotes. */
static void string_prefix(const lf_source *src, TSNode start, char out[8]) {
    size_t k = 0;
    for (uint32_t i = ts_node_start_byte(start); i < ts_node_end_byte(start) && k < 7; i++) {
        char ch = src->text[i];
        if (ch == '"' || ch == '\'')
            break;
        out[k++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    }
    out[k] = 0;
}

/* Children that take part in the comparison: comments never do; with
 * LF_TREE_EQ_IGNORE_ANNOTATION an annotated assignment keeps only its target and
 * value; with LF_TREE_EQ_STRING_CONTENT a string keeps only its content. */
static int counts(TSNode parent, const char *field, TSNode c, unsigned flags) {
    if (is_noise(c))
        return 0;
    if ((flags & LF_TREE_EQ_IGNORE_ANNOTATION) && lf_tree_is(parent, "assignment")) {
        if (field)
            return strcmp(field, "left") == 0 || strcmp(field, "right") == 0;
        return strcmp(ts_node_type(c), "=") == 0;
    }
    if ((flags & LF_TREE_EQ_STRING_CONTENT) && lf_tree_is(parent, "string"))
        return !lf_tree_is(c, "string_start") && !lf_tree_is(c, "string_end");
    return 1;
}

/* The counted children of n, in order, appended to out (a cursor walks them:
 * ts_node_child(n, i) would cost O(i) each). */
typedef LF_VEC(TSNode) node_vec;
static void counted_children(TSTreeCursor *cur, TSNode n, unsigned flags, node_vec *out) {
    ts_tree_cursor_reset(cur, n);
    if (!ts_tree_cursor_goto_first_child(cur))
        return;
    do {
        TSNode c = ts_tree_cursor_current_node(cur);
        if (counts(n, ts_tree_cursor_current_field_name(cur), c, flags))
            LF_VEC_PUSH(out, c);
    } while (ts_tree_cursor_goto_next_sibling(cur));
}

int lf_tree_equal(const lf_source *src_a, TSNode a, const lf_source *src_b, TSNode b, unsigned flags) {
    if (ts_node_is_null(a) || ts_node_is_null(b))
        return ts_node_is_null(a) && ts_node_is_null(b);
    LF_VEC(node_pair) stack = {0};
    node_vec ca = {0}, cb = {0};
    TSTreeCursor cur = ts_tree_cursor_new(a);
    node_pair first = {a, b};
    LF_VEC_PUSH(&stack, first);
    int equal = 1;
    while (equal && stack.len) {
        node_pair p = stack.items[--stack.len];
        lf_work(1);
        if (ts_node_symbol(p.a) != ts_node_symbol(p.b)) {
            equal = 0;
            break;
        }
        if ((flags & LF_TREE_EQ_IGNORE_ANNOTATION) && lf_tree_is(p.a, "assignment")) {
            /* A bare annotation (`x: int`) has no value: it binds nothing at run time. */
            if (ts_node_is_null(lf_tree_field(p.a, "right")) != ts_node_is_null(lf_tree_field(p.b, "right"))) {
                equal = 0;
                break;
            }
        }
        if ((flags & LF_TREE_EQ_STRING_CONTENT) && lf_tree_is(p.a, "string")) {
            char pa[8], pb[8];
            string_prefix(src_a, ts_node_child(p.a, 0), pa);
            string_prefix(src_b, ts_node_child(p.b, 0), pb);
            if (strcmp(pa, pb) != 0) {
                equal = 0;
                break;
            }
        }
        uint32_t na = ts_node_child_count(p.a), nb = ts_node_child_count(p.b);
        if (na == 0 || nb == 0) {
            equal = na == nb && same_bytes(src_a, p.a, src_b, p.b);
            continue;
        }
        ca.len = cb.len = 0;
        counted_children(&cur, p.a, flags, &ca);
        counted_children(&cur, p.b, flags, &cb);
        if (ca.len != cb.len) {
            equal = 0;
            break;
        }
        /* Pushed in reverse so that they are compared in order. */
        for (size_t i = ca.len; i-- > 0;) {
            node_pair q = {ca.items[i], cb.items[i]};
            LF_VEC_PUSH(&stack, q);
        }
    }
    ts_tree_cursor_delete(&cur);
    LF_VEC_FREE(&stack);
    LF_VEC_FREE(&ca);
    LF_VEC_FREE(&cb);
    return equal;
}

uint64_t lf_tree_hash(const lf_source *src, TSNode n, unsigned flags) {
    uint64_t h = 1469598103934665603ull;
    if (ts_node_is_null(n))
        return h;
    node_vec stack = {0}, kids = {0};
    TSTreeCursor cur = ts_tree_cursor_new(n);
    LF_VEC_PUSH(&stack, n);
    while (stack.len) {
        TSNode x = stack.items[--stack.len];
        lf_work(1);
        h = (h ^ ts_node_symbol(x)) * 1099511628211ull;
        if (ts_node_child_count(x) == 0) {
            for (uint32_t i = ts_node_start_byte(x); i < ts_node_end_byte(x); i++)
                h = (h ^ (unsigned char)src->text[i]) * 1099511628211ull;
            continue;
        }
        if ((flags & LF_TREE_EQ_STRING_CONTENT) && lf_tree_is(x, "string")) {
            char pre[8];
            string_prefix(src, ts_node_child(x, 0), pre);
            for (const char *c = pre; *c; c++)
                h = (h ^ (unsigned char)*c) * 1099511628211ull;
        }
        kids.len = 0;
        counted_children(&cur, x, flags, &kids);
        h = (h ^ kids.len) * 1099511628211ull;
        for (size_t i = kids.len; i-- > 0;)
            LF_VEC_PUSH(&stack, kids.items[i]);
    }
    ts_tree_cursor_delete(&cur);
    LF_VEC_FREE(&stack);
    LF_VEC_FREE(&kids);
    return h;
}

/* Merkle hashes: a node's hash mixes its symbol, its bytes (leaf) or string
 * prefix, its counted-children count and its children's hashes, so trees that
 * lf_tree_equal accepts hash equal. One post-order pass gives every node's hash,
 * which keeps hashing all the nested calls of a 100k-deep chain linear (hashing
 * each call's subtree separately was quadratic). */
typedef struct merkle_frame {
    TSNode node;
    size_t first; /* index in the value stack where its children's hashes start */
    int expanded;
} merkle_frame;

static uint64_t fnv(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

static size_t node_slot(const TSNode *keys, size_t cap, TSNode n) {
    uintptr_t k = (uintptr_t)n.id ^ ((uintptr_t)ts_node_start_byte(n) << 20);
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

void lf_tree_hash_nodes(const lf_source *src, TSNode root, unsigned flags, const TSNode *nodes, size_t n,
                        uint64_t *out) {
    if (ts_node_is_null(root) || n == 0)
        return;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    TSNode *keys = lf_xcalloc(cap, sizeof *keys);
    size_t *idx = lf_xcalloc(cap, sizeof *idx);
    for (size_t i = 0; i < n; i++) {
        size_t k = node_slot(keys, cap, nodes[i]);
        while (!ts_node_is_null(keys[k]) && !ts_node_eq(keys[k], nodes[i]))
            k = (k + 1) & (cap - 1);
        if (ts_node_is_null(keys[k])) {
            keys[k] = nodes[i];
            idx[k] = i;
        }
    }
    LF_VEC(merkle_frame) stack = {0};
    LF_VEC(uint64_t) vals = {0};
    node_vec kids = {0};
    TSTreeCursor cur = ts_tree_cursor_new(root);
    merkle_frame f0 = {root, 0, 0};
    LF_VEC_PUSH(&stack, f0);
    while (stack.len) {
        merkle_frame *f = &stack.items[stack.len - 1];
        TSNode x = f->node;
        lf_work(1);
        if (!f->expanded && ts_node_child_count(x) > 0) {
            f->expanded = 1;
            f->first = vals.len;
            kids.len = 0;
            counted_children(&cur, x, flags, &kids);
            for (size_t i = kids.len; i-- > 0;) {
                merkle_frame c = {kids.items[i], 0, 0};
                LF_VEC_PUSH(&stack, c);
            }
            continue;
        }
        uint64_t h = fnv(1469598103934665603ull, ts_node_symbol(x));
        if (ts_node_child_count(x) == 0) {
            h = fnv(h, 0x1eaf);
            for (uint32_t i = ts_node_start_byte(x); i < ts_node_end_byte(x); i++)
                h = fnv(h, (unsigned char)src->text[i]);
        } else {
            if ((flags & LF_TREE_EQ_STRING_CONTENT) && lf_tree_is(x, "string")) {
                char pre[8];
                string_prefix(src, ts_node_child(x, 0), pre);
                for (const char *c = pre; *c; c++)
                    h = fnv(h, (unsigned char)*c);
            }
            h = fnv(h, vals.len - f->first);
            for (size_t i = f->first; i < vals.len; i++)
                h = fnv(h, vals.items[i]);
            vals.len = f->first;
        }
        size_t k = node_slot(keys, cap, x);
        for (; !ts_node_is_null(keys[k]); k = (k + 1) & (cap - 1))
            if (ts_node_eq(keys[k], x)) {
                out[idx[k]] = h;
                break;
            }
        stack.len--;
        LF_VEC_PUSH(&vals, h);
    }
    /* A node listed twice got its hash through the first copy. */
    for (size_t i = 0; i < n; i++) {
        size_t k = node_slot(keys, cap, nodes[i]);
        while (!ts_node_eq(keys[k], nodes[i]))
            k = (k + 1) & (cap - 1);
        out[i] = out[idx[k]];
    }
    ts_tree_cursor_delete(&cur);
    LF_VEC_FREE(&stack);
    LF_VEC_FREE(&vals);
    LF_VEC_FREE(&kids);
    free(keys);
    free(idx);
}

/* ---- lines (a line ends at "\n", "\r\n" or a lone "\r", as Python reads it) ---- */

uint32_t lf_tree_line_start(const lf_source *src, uint32_t at) {
    if (at > src->len)
        at = (uint32_t)src->len;
    while (at > 0 && src->text[at - 1] != '\n' && src->text[at - 1] != '\r')
        at--;
    return at;
}

uint32_t lf_tree_next_line_start(const lf_source *src, uint32_t at) {
    while (at < src->len && src->text[at] != '\n' && src->text[at] != '\r')
        at++;
    if (at < src->len && src->text[at] == '\r') {
        at++;
        if (at < src->len && src->text[at] == '\n')
            at++;
    } else if (at < src->len) {
        at++;
    }
    return at;
}

int lf_tree_starts_line(const lf_source *src, TSNode n) {
    uint32_t at = ts_node_start_byte(n);
    for (uint32_t i = lf_tree_line_start(src, at); i < at; i++)
        if (src->text[i] != ' ' && src->text[i] != '\t' && src->text[i] != '\f')
            return 0;
    return 1;
}

char *lf_tree_line_indent(const lf_source *src, uint32_t at) {
    uint32_t s = lf_tree_line_start(src, at), e = s;
    while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t' || src->text[e] == '\f'))
        e++;
    return lf_xstrndup(src->text + s, e - s);
}

/* ---- node index ---- */

/* Node ids are addresses inside tree-sitter's subtree pool, spaced by a
 * fixed stride from a base that changes from run to run (ASLR, the heap's
 * state). A multiplicative hash read from fixed middle bits clustered for
 * some bases: the probes, and the step counts of the complexity pins, then
 * varied between runs of the same input. Every bit of the address is mixed
 * in (splitmix64's finaliser), so the probe count no longer depends on where
 * the pool landed. */
static size_t id_slot(const void *id, size_t mask) {
    uint64_t x = (uint64_t)(uintptr_t)id;
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return (size_t)x & mask;
}

static TSNode record_node(const void *records, size_t stride, size_t node_offset, size_t i) {
    TSNode n;
    memcpy(&n, (const char *)records + i * stride + node_offset, sizeof n);
    return n;
}

void lf_node_index_build(lf_node_index *ix, const void *records, size_t n, size_t stride, size_t node_offset) {
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    ix->slots = lf_xcalloc(cap, sizeof *ix->slots);
    ix->mask = cap - 1;
    for (size_t i = 0; i < n; i++) {
        size_t k = id_slot(record_node(records, stride, node_offset, i).id, ix->mask);
        while (ix->slots[k])
            k = (k + 1) & ix->mask;
        ix->slots[k] = (int32_t)i + 1;
    }
}

int32_t lf_node_index_find(const lf_node_index *ix, const void *records, size_t stride, size_t node_offset, TSNode n) {
    if (!ix->slots || ts_node_is_null(n))
        return -1;
    for (size_t k = id_slot(n.id, ix->mask); ix->slots[k]; k = (k + 1) & ix->mask) {
        lf_work(1);
        int32_t i = ix->slots[k] - 1;
        if (ts_node_eq(record_node(records, stride, node_offset, (size_t)i), n))
            return i;
    }
    return -1;
}

void lf_node_index_free(lf_node_index *ix) {
    free(ix->slots);
    ix->slots = NULL;
    ix->mask = 0;
}

int lf_node_set_add(lf_node_set *s, TSNode n) {
    if (ts_node_is_null(n))
        return 0;
    if (2 * (s->len + 1) > s->mask + 1) {
        size_t cap = s->mask ? 2 * (s->mask + 1) : 64;
        const void **ids = lf_xcalloc(cap, sizeof *ids);
        for (size_t i = 0; s->ids && i <= s->mask; i++) {
            if (!s->ids[i])
                continue;
            size_t j = id_slot(s->ids[i], cap - 1);
            while (ids[j])
                j = (j + 1) & (cap - 1);
            ids[j] = s->ids[i];
        }
        free(s->ids);
        s->ids = ids;
        s->mask = cap - 1;
    }
    size_t j = id_slot(n.id, s->mask);
    while (s->ids[j]) {
        if (s->ids[j] == n.id)
            return 0;
        j = (j + 1) & s->mask;
    }
    s->ids[j] = n.id;
    s->len++;
    return 1;
}

void lf_node_set_free(lf_node_set *s) {
    free(s->ids);
    memset(s, 0, sizeof *s);
}

int lf_tree_spells_lock(const lf_source *src, TSNode root, const char *const *types, int max_nodes) {
    if (ts_node_is_null(root))
        return 0;
    TSTreeCursor c = ts_tree_cursor_new(root);
    int found = 0;
    for (int more = 1, seen = 0; more && !found && seen < max_nodes; seen++) {
        TSNode n = ts_tree_cursor_current_node(&c);
        lf_work(1);
        if (lf_str_in_list(ts_node_type(n), types))
            found = lf_text_spells_lock(src->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
        more = lf_tree_cursor_step(&c, 1);
    }
    ts_tree_cursor_delete(&c);
    return found;
}
