/* lf_tsarena: the memory of one parse, from a region (lf_tsarena.h). */
#include "lf_tsarena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "lf_util.h"

#define ALIGN 16u
#define CHUNK_BYTES ((size_t)1 << 20)
/* Memory kept across resets: a region grown past this by one large file gives
 * the excess back instead of holding it for the rest of the scan. */
#define RETAIN_BYTES ((size_t)64 << 20)

/* Each block is preceded by its size, so realloc knows how much to copy. */
typedef struct block_head {
    size_t size;
    size_t pad; /* keeps the block 16-aligned */
} block_head;

typedef struct chunk {
    struct chunk *next;
    size_t cap, used;
    size_t pad;
    unsigned char data[];
} chunk;

struct lf_tsarena {
    chunk *head, *cur;
    size_t handed_out;
};

static _Thread_local lf_tsarena *t_arena;

static size_t round_up(size_t n) { return (n + (ALIGN - 1)) & ~(size_t)(ALIGN - 1); }

static void *arena_alloc(lf_tsarena *a, size_t n) {
    if (n > SIZE_MAX / 2)
        return lf_xmalloc(n); /* no such memory: dies with the out-of-memory message */
    size_t need = sizeof(block_head) + round_up(n ? n : 1);
    chunk *c = a->cur;
    while (c && c->cap - c->used < need)
        c = c->next;
    if (!c) {
        size_t cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;
        c = lf_xmalloc(sizeof *c + cap);
        c->cap = cap;
        c->used = 0;
        /* after the current chunk: the ones after it are still unused */
        if (a->cur) {
            c->next = a->cur->next;
            a->cur->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    a->cur = c;
    block_head *h = (block_head *)(c->data + c->used);
    h->size = n;
    c->used += need;
    a->handed_out += n;
    return h + 1;
}

static void *arena_realloc(lf_tsarena *a, void *p, size_t n) {
    if (!p)
        return arena_alloc(a, n);
    block_head *h = (block_head *)p - 1;
    if (n <= h->size)
        return p;
    /* the last block of the current chunk grows where it is */
    chunk *c = a->cur;
    unsigned char *end = (unsigned char *)p + round_up(h->size ? h->size : 1);
    if (c && end == c->data + c->used && (size_t)(c->data + c->cap - (unsigned char *)p) >= round_up(n)) {
        c->used = (size_t)((unsigned char *)p - c->data) + round_up(n);
        a->handed_out += n - h->size;
        h->size = n;
        return p;
    }
    void *q = arena_alloc(a, n);
    memcpy(q, p, h->size);
    return q;
}

static void *ts_alloc_malloc(size_t n) {
    lf_tsarena *a = t_arena;
    return a ? arena_alloc(a, n) : lf_xmalloc(n ? n : 1);
}

static void *ts_alloc_calloc(size_t n, size_t size) {
    lf_tsarena *a = t_arena;
    if (!a)
        return lf_xcalloc(n ? n : 1, size ? size : 1);
    if (size && n > SIZE_MAX / size)
        return lf_xcalloc(n, size); /* overflows: dies with the out-of-memory message */
    void *p = arena_alloc(a, n * size);
    memset(p, 0, n * size);
    return p;
}

static void *ts_alloc_realloc(void *p, size_t n) {
    lf_tsarena *a = t_arena;
    return a ? arena_realloc(a, p, n) : lf_xrealloc(p, n ? n : 1);
}

static void ts_alloc_free(void *p) {
    if (!t_arena)
        free(p); /* inside the window, the region is freed whole */
}

static void install_once(void) { ts_set_allocator(ts_alloc_malloc, ts_alloc_calloc, ts_alloc_realloc, ts_alloc_free); }

void lf_tsarena_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_once);
}

lf_tsarena *lf_tsarena_new(void) {
    lf_tsarena_install();
    return lf_xcalloc(1, sizeof(lf_tsarena));
}

void lf_tsarena_free(lf_tsarena *a) {
    if (!a)
        return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void lf_tsarena_enter(lf_tsarena *a) { t_arena = a; }

void lf_tsarena_leave(void) { t_arena = NULL; }

void lf_tsarena_reset(lf_tsarena *a) {
    size_t kept = 0;
    chunk **link = &a->head;
    while (*link) {
        chunk *c = *link;
        if (kept + c->cap > RETAIN_BYTES) {
            *link = c->next;
            free(c);
            continue;
        }
        kept += c->cap;
        c->used = 0;
        link = &c->next;
    }
    a->cur = a->head;
    a->handed_out = 0;
}

size_t lf_tsarena_used(const lf_tsarena *a) { return a->handed_out; }
