/* LF303: a kill(pid, 0) liveness probe read wrongly.
 *
 * Two ways, one finding per probe:
 *  - every error reads as "dead" (the query's first pattern decides it alone and
 *    captures @finding): EPERM means alive;
 *  - success is trusted although the pid came from a lock record and nothing in
 *    the module compares the process start time (captures @reuse_probe): after
 *    the owner died, its pid may be reused by any process, which then "holds"
 *    the lock forever. Decided here: the pid is assigned, in the probe's scope,
 *    from something that reads a record (a file read, a JSON load, a "pid"
 *    field), the scope is about a lock or pid file, and the module never
 *    mentions a start time. A pid passed in as a parameter is the caller's
 *    business, so a plain `alive(pid)` helper is not flagged. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
#include "lf_py.h"

static const char *const k_record_reads[] = {"read", "load", "[\"pid\"]", "['pid']", ".get(\"pid\"", ".get('pid'",
                                              ".pid", "split", NULL};
static const char *const k_lock_words[] = {"lock", "Lock", "LOCK", "owner", "pidfile", "pid_file", ".pid", NULL};
static const char *const k_start_time[] = {"start_time", "starttime", "startTime", "create_time", "/proc/",
                                           "GetProcessTimes", "psutil", "boot_id", "process_start", NULL};

typedef struct pid_source {
    const lf_source *src;
    TSNode pid, probe;
    int from_record;
} pid_source;

/* An assignment to the pid name, before the probe, from a record read. */
static int visit_assignment(TSNode a, void *ud) {
    pid_source *p = ud;
    if (ts_node_start_byte(a) >= ts_node_start_byte(p->probe))
        return 0;
    TSNode left = ts_node_child_by_field_name(a, "left", 4);
    TSNode right = ts_node_child_by_field_name(a, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !lf_py_same_text(p->src, left, p->pid))
        return 1;
    p->from_record = lf_py_text_has(p->src, right, k_record_reads);
    return 1; /* the last assignment before the probe decides */
}

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    LF_VEC(uint32_t) flagged = {0};
    /* First the misread handlers, so a probe gets the more specific finding. */
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode at;
        if (lf_ctx_capture(ctx, i, "finding", &at)) {
            lf_ctx_emit(ctx, at, NULL, i);
            LF_VEC_PUSH(&flagged, ts_node_start_byte(at));
        }
    }
    int module_checks_start = -1;
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode probe, pid;
        if (!lf_ctx_capture(ctx, i, "reuse_probe", &probe) || !lf_ctx_capture(ctx, i, "pid", &pid))
            continue;
        int seen = 0;
        for (size_t k = 0; k < flagged.len; k++)
            seen |= flagged.items[k] == ts_node_start_byte(probe);
        if (seen)
            continue;
        if (module_checks_start < 0)
            module_checks_start = lf_py_text_has(src, lf_ctx_root(ctx), k_start_time);
        if (module_checks_start)
            break;
        TSNode scope = lf_py_scope(probe);
        pid_source p = {src, pid, probe, 0};
        lf_py_walk(scope, "assignment", 1, visit_assignment, &p);
        if (!p.from_record || !lf_py_text_has(src, scope, k_lock_words))
            continue;
        char *call = lf_node_text(src, probe);
        char *msg = lf_xasprintf("%s trusts a pid read from a lock record without comparing the process start time: "
                                 "once the owner dies its pid can be reused, and the lock is then never reclaimed "
                                 "(or is judged held by a stranger)",
                                 call);
        lf_ctx_emit(ctx, probe, msg, SIZE_MAX);
        LF_VEC_PUSH(&flagged, ts_node_start_byte(probe));
        free(msg);
        free(call);
    }
    LF_VEC_FREE(&flagged);
}

const lf_check lf303_liveness_check = {"lf303_liveness", run};
