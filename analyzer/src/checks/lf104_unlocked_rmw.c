/* LF104: one function reads a state document, changes it and writes it back to
 * the same place with no lock held. The query finds readers (`read_state(k)`,
 * `json.load(f)`, `json.loads(p.read_text())`) and writers (`write_state(k, v)`,
 * `json.dump(v, f)`, `p.write_text(json.dumps(v))`); this check resolves file
 * objects to the path they were opened from, pairs a read with a later write of
 * the same path/key whose value is the one read, and drops functions where a
 * lock is in play. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
#include "lf_py.h"

/* Any of these in the function means a lock is (or may be) held: a locked
 * update is LF101's business or correct, never LF104's. */
static const char *const k_lock_words[] = {"lock", "Lock", "LOCK", "acquire", "mutex", NULL};

typedef struct write_site {
    TSNode write, key, data, scope;
} write_site;

static int is_open_call(const lf_source *src, TSNode n) {
    if (strcmp(ts_node_type(n), "call") != 0)
        return 0;
    TSNode fn = ts_node_child_by_field_name(n, "function", 8);
    return !ts_node_is_null(fn) && (lf_py_is(src, fn, "open") || lf_py_is(src, fn, "io.open"));
}

/* The `with open(P) as F:` that binds F around `at`, giving P. */
static int with_open_path(const lf_source *src, TSNode f, TSNode at, TSNode *path) {
    TSNode cur = ts_node_parent(at);
    for (int steps = 0; steps < 64 && !ts_node_is_null(cur); steps++, cur = ts_node_parent(cur)) {
        if (strcmp(ts_node_type(cur), "with_statement") != 0)
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(cur); i++) {
            TSNode clause = ts_node_named_child(cur, i);
            if (strcmp(ts_node_type(clause), "with_clause") != 0)
                continue;
            for (uint32_t k = 0; k < ts_node_named_child_count(clause); k++) {
                TSNode item = ts_node_named_child(clause, k);
                TSNode v = ts_node_child_by_field_name(item, "value", 5);
                if (ts_node_is_null(v) || strcmp(ts_node_type(v), "as_pattern") != 0)
                    continue;
                TSNode alias = ts_node_child_by_field_name(v, "alias", 5);
                TSNode opened = ts_node_named_child(v, 0);
                if (ts_node_is_null(alias) || !lf_py_same_text(src, ts_node_named_child(alias, 0), f) ||
                    !is_open_call(src, opened))
                    continue;
                return lf_py_call_arg(opened, 0, path);
            }
        }
    }
    return 0;
}

/* What a reader's or writer's key names: the path behind a file object or an
 * open()/read_text() call, else the key expression itself. */
static TSNode resolve_key(const lf_source *src, TSNode key, TSNode at) {
    key = lf_py_unwrap_path(src, key);
    TSNode p;
    if (is_open_call(src, key) && lf_py_call_arg(key, 0, &p))
        return lf_py_unwrap_path(src, p);
    TSNode name;
    if (lf_py_call_name(key, &name) && (lf_py_is(src, name, "read_text") || lf_py_is(src, name, "read_bytes")) &&
        lf_py_call_receiver(key, &p))
        return lf_py_unwrap_path(src, p);
    if (strcmp(ts_node_type(key), "identifier") == 0 && with_open_path(src, key, at, &p))
        return lf_py_unwrap_path(src, p);
    return key;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_tssem(ctx)) {
        lf104_ts_run(ctx);
        return;
    }
    const lf_source *src = lf_ctx_source(ctx);
    size_t n = lf_ctx_match_count(ctx);
    LF_VEC(write_site) writes = {0};
    for (size_t k = 0; k < n; k++) {
        write_site w;
        if (lf_ctx_capture(ctx, k, "write", &w.write) && lf_ctx_capture(ctx, k, "wkey", &w.key) &&
            lf_ctx_capture(ctx, k, "wdata", &w.data)) {
            w.key = resolve_key(src, w.key, w.write);
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
        key = resolve_key(src, key, read);
        for (size_t k = 0; k < writes.len; k++) {
            const write_site *w = &writes.items[k];
            if (ts_node_start_byte(w->write) <= ts_node_end_byte(read) || !ts_node_eq(w->scope, fn))
                continue;
            if (lf_py_same_text(src, w->key, key) && lf_py_same_text(src, w->data, var)) {
                /* Name the path, not the file object it was read through. */
                TSQueryCapture caps[2];
                caps[0].node = read;
                caps[0].index = (uint32_t)lf_query_capture_id(ctx->query, "read");
                caps[1].node = key;
                caps[1].index = (uint32_t)lf_query_capture_id(ctx->query, "key");
                char *msg = lf_render_message(lf_ctx_rule(ctx)->message, src, ctx->query, caps, 2);
                lf_ctx_emit(ctx, read, msg, SIZE_MAX);
                free(msg);
                break;
            }
        }
    }
    LF_VEC_FREE(&writes);
}

const lf_check lf104_unlocked_rmw_check = {"lf104_unlocked_rmw", run};
