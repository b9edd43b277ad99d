/* LF104: one function reads a state document, changes it and writes it back to
 * the same place with no lock held. The query finds reader and writer calls;
 * pairing them (same key, the written value is the one read) and proving no
 * lock is in play needs the function's flow, decided here. */
#include <stdlib.h>
#include <string.h>

#include "lf_py.h"

/* Any of these in the function means a lock is (or may be) held: a locked
 * update is LF101's business or correct, never LF104's. */
static const char *const k_lock_words[] = {"lock", "Lock", "LOCK", "acquire", "mutex", NULL};

typedef struct write_site {
    TSNode write, key, data, scope;
} write_site;

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    size_t n = lf_ctx_match_count(ctx);
    LF_VEC(write_site) writes = {0};
    for (size_t k = 0; k < n; k++) {
        write_site w;
        if (lf_ctx_capture(ctx, k, "write", &w.write) && lf_ctx_capture(ctx, k, "wkey", &w.key) &&
            lf_ctx_capture(ctx, k, "wdata", &w.data)) {
            w.scope = lf_py_scope(w.write);
            LF_VEC_PUSH(&writes, w);
        }
    }
    TSNode last_fn = {0};
    int have_last = 0, last_locks = 0;
    for (size_t i = 0; i < n && writes.len; i++) {
        TSNode read, key;
        if (!lf_ctx_capture(ctx, i, "read", &read) || !lf_ctx_capture(ctx, i, "key", &key))
            continue;
        TSNode assign = ts_node_parent(read);
        if (ts_node_is_null(assign) || strcmp(ts_node_type(assign), "assignment") != 0)
            continue;
        TSNode var = ts_node_child_by_field_name(assign, "left", 4);
        if (ts_node_is_null(var) || strcmp(ts_node_type(var), "identifier") != 0)
            continue;
        TSNode fn = lf_py_scope(read);
        if (strcmp(ts_node_type(fn), "function_definition") != 0)
            continue;
        /* Matches come in source order: one text scan per function, not per read. */
        if (!have_last || !ts_node_eq(fn, last_fn)) {
            last_fn = fn;
            have_last = 1;
            last_locks = lf_py_text_has(src, fn, k_lock_words);
        }
        if (last_locks)
            continue;
        for (size_t k = 0; k < writes.len; k++) {
            const write_site *w = &writes.items[k];
            if (ts_node_start_byte(w->write) <= ts_node_end_byte(read) || !ts_node_eq(w->scope, fn))
                continue;
            if (lf_py_same_text(src, w->key, key) && lf_py_same_text(src, w->data, var)) {
                lf_ctx_emit(ctx, read, NULL, i);
                break;
            }
        }
    }
    LF_VEC_FREE(&writes);
}

const lf_check lf104_unlocked_rmw_check = {"lf104_unlocked_rmw", run};
