#include "lf_cfg.h"

#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

typedef struct raw_edge {
    uint32_t from, to;
    unsigned exceptional;
} raw_edge;

struct lf_cfg {
    LF_VEC(lf_cfg_node) nodes;
    LF_VEC(raw_edge) raw;
    lf_cfg_edge *edges;
    size_t n_edges;
    /* syntax node id -> graph node, open addressing (STMT and CLAUSE nodes) */
    const void **keys;
    uint32_t *vals;
    size_t cap;
    size_t used;
};

static size_t slot_of(const void *id, size_t cap) {
    uint64_t h = (uint64_t)(uintptr_t)id;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (size_t)(h & (cap - 1));
}

static void map_grow(lf_cfg *g) {
    size_t cap = g->cap ? g->cap * 2 : 64;
    const void **keys = lf_xcalloc(cap, sizeof *keys);
    uint32_t *vals = lf_xcalloc(cap, sizeof *vals);
    for (size_t i = 0; i < g->cap; i++) {
        if (!g->keys[i])
            continue;
        size_t s = slot_of(g->keys[i], cap);
        while (keys[s])
            s = (s + 1) & (cap - 1);
        keys[s] = g->keys[i];
        vals[s] = g->vals[i];
    }
    free(g->keys);
    free(g->vals);
    g->keys = keys;
    g->vals = vals;
    g->cap = cap;
}

lf_cfg *lf_cfg_new(void) {
    lf_cfg *g = lf_xcalloc(1, sizeof *g);
    TSNode none;
    memset(&none, 0, sizeof none);
    lf_cfg_add(g, LF_CFG_ENTRY, none);
    lf_cfg_add(g, LF_CFG_EXIT, none);
    return g;
}

void lf_cfg_free(lf_cfg *g) {
    if (!g)
        return;
    LF_VEC_FREE(&g->nodes);
    LF_VEC_FREE(&g->raw);
    free(g->edges);
    free(g->keys);
    free(g->vals);
    free(g);
}

uint32_t lf_cfg_add(lf_cfg *g, lf_cfg_kind kind, TSNode stmt) {
    lf_cfg_node n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    n.stmt = stmt;
    uint32_t id = (uint32_t)g->nodes.len;
    LF_VEC_PUSH(&g->nodes, n);
    lf_work(1);
    if ((kind == LF_CFG_STMT || kind == LF_CFG_CLAUSE) && stmt.id) {
        if ((g->used + 1) * 2 > g->cap)
            map_grow(g);
        size_t s = slot_of(stmt.id, g->cap);
        while (g->keys[s] && g->keys[s] != stmt.id)
            s = (s + 1) & (g->cap - 1);
        if (!g->keys[s])
            g->used++;
        g->keys[s] = stmt.id;
        g->vals[s] = id;
    }
    return id;
}

void lf_cfg_add_edge(lf_cfg *g, uint32_t from, uint32_t to, int exceptional) {
    raw_edge e = {from, to, exceptional ? 1u : 0u};
    LF_VEC_PUSH(&g->raw, e);
    lf_work(1);
}

static int raw_cmp(const void *a, const void *b) {
    const raw_edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (int)x->exceptional - (int)y->exceptional;
}

void lf_cfg_seal(lf_cfg *g) {
    qsort(g->raw.items, g->raw.len, sizeof *g->raw.items, raw_cmp);
    free(g->edges);
    g->edges = lf_xcalloc(g->raw.len ? g->raw.len : 1, sizeof *g->edges);
    g->n_edges = 0;
    for (size_t i = 0; i < g->nodes.len; i++) {
        g->nodes.items[i].succ = 0;
        g->nodes.items[i].n_succ = 0;
    }
    for (size_t i = 0; i < g->raw.len; i++) {
        const raw_edge *e = &g->raw.items[i];
        /* the same pair twice is one edge; a normal and an exceptional edge
         * between the same pair stay two (they carry different states) */
        if (i && e->from == g->raw.items[i - 1].from && e->to == g->raw.items[i - 1].to &&
            e->exceptional == g->raw.items[i - 1].exceptional)
            continue;
        lf_cfg_node *n = &g->nodes.items[e->from];
        if (!n->n_succ)
            n->succ = (uint32_t)g->n_edges;
        n->n_succ++;
        g->edges[g->n_edges].to = e->to;
        g->edges[g->n_edges].exceptional = e->exceptional;
        g->n_edges++;
    }
}

size_t lf_cfg_size(const lf_cfg *g) { return g->nodes.len; }

int lf_cfg_reaches(const lf_cfg *g, uint32_t from, uint32_t to) {
    size_t n = g->nodes.len;
    if (from >= n || to >= n)
        return 0;
    unsigned char *seen = lf_xcalloc(n, 1);
    uint32_t *stack = lf_xmalloc(n * sizeof *stack);
    size_t sp = 0;
    int found = 0;
    stack[sp++] = from;
    while (sp && !found) {
        uint32_t v = stack[--sp];
        const lf_cfg_node *nd = &g->nodes.items[v];
        const lf_cfg_edge *e = lf_cfg_edges_of(g, v);
        for (uint32_t k = 0; k < nd->n_succ && !found; k++) {
            if (e[k].to == to)
                found = 1;
            else if (!seen[e[k].to]) {
                seen[e[k].to] = 1;
                stack[sp++] = e[k].to;
            }
        }
    }
    free(seen);
    free(stack);
    return found;
}

const lf_cfg_node *lf_cfg_node_at(const lf_cfg *g, uint32_t id) {
    return id < g->nodes.len ? &g->nodes.items[id] : NULL;
}

const lf_cfg_edge *lf_cfg_edges_of(const lf_cfg *g, uint32_t id) { return &g->edges[g->nodes.items[id].succ]; }

int32_t lf_cfg_find(const lf_cfg *g, TSNode stmt) {
    if (!g->cap || !stmt.id)
        return -1;
    size_t s = slot_of(stmt.id, g->cap);
    while (g->keys[s]) {
        lf_work(1);
        if (g->keys[s] == stmt.id)
            return (int32_t)g->vals[s];
        s = (s + 1) & (g->cap - 1);
    }
    return -1;
}

/* Marks what ENTRY reaches (iterative DFS). */
static unsigned char *reach(const lf_cfg *g) {
    size_t n = g->nodes.len;
    unsigned char *seen = lf_xcalloc(n ? n : 1, 1);
    uint32_t *stack = lf_xmalloc((n ? n : 1) * sizeof *stack);
    size_t sp = 0;
    stack[sp++] = LF_CFG_ENTRY_ID;
    seen[LF_CFG_ENTRY_ID] = 1;
    while (sp) {
        uint32_t v = stack[--sp];
        const lf_cfg_node *nd = &g->nodes.items[v];
        for (uint32_t k = 0; k < nd->n_succ; k++) {
            uint32_t w = g->edges[nd->succ + k].to;
            lf_work(1);
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp++] = w;
            }
        }
    }
    free(stack);
    return seen;
}

void lf_cfg_lockstate_run(const lf_cfg *g, const uint64_t *gen, const uint64_t *kill, uint64_t entry,
                          lf_cfg_lockstate *out) {
    lf_cfg_lockstate_run_raising(g, gen, kill, NULL, entry, out);
}

void lf_cfg_lockstate_run_raising(const lf_cfg *g, const uint64_t *gen, const uint64_t *kill,
                                  const uint64_t *raise_gen, uint64_t entry, lf_cfg_lockstate *out) {
    size_t n = g->nodes.len;
    out->n = n;
    out->must_in = lf_xcalloc(n ? n : 1, sizeof *out->must_in);
    out->may_in = lf_xcalloc(n ? n : 1, sizeof *out->may_in);
    unsigned char *live = reach(g);
    /* must starts at "everything" (the top of the intersection) on reachable
     * nodes and only shrinks; may starts empty and only grows */
    for (size_t i = 0; i < n; i++)
        out->must_in[i] = live[i] ? ~(uint64_t)0 : 0;
    out->must_in[LF_CFG_ENTRY_ID] = entry;
    out->may_in[LF_CFG_ENTRY_ID] = entry;
    uint32_t *work = lf_xmalloc((n ? n : 1) * sizeof *work);
    unsigned char *queued = lf_xcalloc(n ? n : 1, 1);
    size_t head = 0, len = 0; /* a ring of at most n entries: each node is queued once at a time */
    work[len++] = LF_CFG_ENTRY_ID;
    queued[LF_CFG_ENTRY_ID] = 1;
    /* ENTRY's must set must not be widened by the intersection with its own
     * (nonexistent) predecessors: it is pinned, other nodes meet their edges */
    unsigned char *touched = lf_xcalloc(n ? n : 1, 1);
    touched[LF_CFG_ENTRY_ID] = 1;
    while (len) {
        uint32_t v = work[head];
        head = (head + 1) % n;
        len--;
        queued[v] = 0;
        const lf_cfg_node *nd = &g->nodes.items[v];
        uint64_t in_must = out->must_in[v], in_may = out->may_in[v];
        uint64_t out_must = (in_must & ~kill[v]) | gen[v];
        uint64_t out_may = (in_may & ~kill[v]) | gen[v];
        for (uint32_t k = 0; k < nd->n_succ; k++) {
            const lf_cfg_edge *e = &g->edges[nd->succ + k];
            uint64_t raised = raise_gen ? raise_gen[v] : 0;
            uint64_t em = e->exceptional ? in_must | raised : out_must;
            uint64_t ey = e->exceptional ? in_may | raised : out_may;
            uint32_t w = e->to;
            lf_work(1);
            uint64_t nm = touched[w] ? (out->must_in[w] & em) : em;
            uint64_t ny = out->may_in[w] | ey;
            if (w == LF_CFG_ENTRY_ID)
                continue; /* a loop back to ENTRY cannot happen; ENTRY stays pinned */
            if (!touched[w] || nm != out->must_in[w] || ny != out->may_in[w]) {
                touched[w] = 1;
                out->must_in[w] = nm;
                out->may_in[w] = ny;
                if (!queued[w]) {
                    queued[w] = 1;
                    work[(head + len) % n] = w;
                    len++;
                }
            }
        }
    }
    free(touched);
    free(queued);
    free(work);
    out->reachable = live;
}

void lf_cfg_lockstate_free(lf_cfg_lockstate *s) {
    free(s->must_in);
    free(s->may_in);
    free(s->reachable);
    s->must_in = s->may_in = NULL;
    s->reachable = NULL;
    s->n = 0;
}
