/*
 * lockrt Node-API addon: the lockrt C library for Node.js.
 *
 * Every operation is an `op` that runs either inline (sync form) or on the libuv
 * thread pool through napi async work (promise form), so a lock wait never blocks
 * the event loop. index.js turns options into plain arguments and errors into
 * LockrtError; this file only marshals.
 *
 * A lock handle is a JS external owning the lockrt_lock. It is released only by
 * release(): a handle that is garbage collected unreleased keeps its lock until
 * the process exits, exactly like a leaked descriptor. Releasing it from the
 * collector could end a critical section that is still running.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockrt.h"

#define PATH_OUT_MAX 4096

typedef enum op_kind {
    OP_ACQUIRE,
    OP_CONFINED_PATH,
    OP_WRITE_ATOMIC,
    OP_RELEASE_IF_OWNED,
    OP_RECLAIM_IF_STALE,
    OP_PROCESS_ALIVE
} op_kind;

typedef struct op {
    op_kind kind;
    char *path;  /* lock path / dir / target path */
    char *arg;   /* name (confined_path) / token (release_if_owned) */
    const void *data;
    size_t len;
    unsigned mode;
    lockrt_options opts;
    int64_t pid;
    bool pid_out_of_range; /* an integer beyond int64 */
    uint64_t start_time;
    /* results */
    int status;
    int liveness;
    lockrt_lock *lock;
    char out[PATH_OUT_MAX];
    /* promise form */
    napi_ref data_ref;
    napi_async_work work;
    napi_deferred deferred;
} op;

typedef struct lock_handle {
    lockrt_lock *lock;
} lock_handle;

static const char *status_name(int status)
{
    static const char *const names[] = {
        "LOCKRT_OK", "LOCKRT_ETIMEDOUT", "LOCKRT_EINVAL", "LOCKRT_ESYMLINK",
        "LOCKRT_EBADTYPE", "LOCKRT_EESCAPE", "LOCKRT_EMISMATCH", "LOCKRT_ENOTOWNER",
        "LOCKRT_ENOTSTALE", "LOCKRT_ENOENT", "LOCKRT_ECORRUPT", "LOCKRT_ENOMEM",
        "LOCKRT_EIO", "LOCKRT_ENOTSUP"};
    if (status <= 0 && -status < (int)(sizeof names / sizeof names[0]))
        return names[-status];
    return "LOCKRT_EUNKNOWN";
}

/* ---------------------------------------------------------------- errors */

static napi_value make_error(napi_env env, int status, const char *path)
{
    const char *code = status_name(status);
    const char *text = lockrt_strerror(status);
    size_t n = strlen(text) + strlen(code) + (path ? strlen(path) : 0) + 16;
    char *msg = malloc(n);
    napi_value js_msg, js_code, err, value;
    if (msg == NULL)
        return NULL;
    if (path)
        snprintf(msg, n, "%s (%s): %s", text, code, path);
    else
        snprintf(msg, n, "%s (%s)", text, code);
    napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &js_msg);
    free(msg);
    napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &js_code);
    napi_create_error(env, js_code, js_msg, &err);
    napi_create_int32(env, status, &value);
    napi_set_named_property(env, err, "status", value);
    if (path) {
        napi_create_string_utf8(env, path, NAPI_AUTO_LENGTH, &value);
        napi_set_named_property(env, err, "path", value);
    }
    return err;
}

static napi_value throw_status(napi_env env, int status, const char *path)
{
    napi_value err = make_error(env, status, path);
    if (err)
        napi_throw(env, err);
    return NULL;
}

static napi_value throw_type(napi_env env, const char *msg)
{
    napi_throw_type_error(env, "LOCKRT_EINVAL", msg);
    return NULL;
}

/* ---------------------------------------------------------------- arguments */

/* Copies a JS string into a fresh NUL-terminated UTF-8 buffer. An embedded NUL
 * is refused: C would silently lock (or write) a shorter path than was asked. */
static bool get_string(napi_env env, napi_value v, char **out, const char *what)
{
    size_t len = 0;
    napi_valuetype t;
    *out = NULL;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_string) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s must be a string", what);
        throw_type(env, msg);
        return false;
    }
    napi_get_value_string_utf8(env, v, NULL, 0, &len);
    *out = malloc(len + 1);
    if (*out == NULL) {
        throw_status(env, LOCKRT_ENOMEM, NULL);
        return false;
    }
    napi_get_value_string_utf8(env, v, *out, len + 1, &len);
    if (strlen(*out) != len) {
        free(*out);
        *out = NULL;
        throw_status(env, LOCKRT_EINVAL, NULL);
        return false;
    }
    return true;
}

/* A pid: an integral Number or a BigInt. *out_of_range is set (and *out left 0)
 * for an integer beyond int64; a fraction, NaN or another type is refused (1.5
 * must not become pid 1). */
static bool get_pid(napi_env env, napi_value v, int64_t *out, bool *out_of_range)
{
    napi_valuetype t;
    bool lossless = false;
    *out = 0;
    *out_of_range = false;
    if (napi_typeof(env, v, &t) != napi_ok)
        return false;
    if (t == napi_bigint) {
        if (napi_get_value_bigint_int64(env, v, out, &lossless) != napi_ok)
            return false;
        if (!lossless) {
            *out = 0;
            *out_of_range = true;
        }
        return true;
    }
    if (t != napi_number)
        return false;
    double d;
    napi_get_value_double(env, v, &d);
    if (d != d || d - d != 0)
        return false; /* NaN, or an infinity (d - d is NaN) */
    if (d >= 9223372036854775808.0 || d < -9223372036854775808.0) {
        *out_of_range = true; /* integral: a double this large always is */
        return true;
    }
    if ((double)(int64_t)d != d)
        return false; /* a fraction */
    *out = (int64_t)d;
    return true;
}

static bool get_int64(napi_env env, napi_value v, int64_t *out)
{
    napi_valuetype t;
    bool lossless;
    napi_typeof(env, v, &t);
    if (t == napi_bigint)
        return napi_get_value_bigint_int64(env, v, out, &lossless) == napi_ok && lossless;
    if (t != napi_number)
        return false;
    double d;
    napi_get_value_double(env, v, &d);
    if (d != d)
        return false;
    if (d > 9.2e18)
        *out = INT64_MAX;
    else if (d < -9.2e18)
        *out = INT64_MIN;
    else
        *out = (int64_t)d;
    return true;
}

static bool get_uint64(napi_env env, napi_value v, uint64_t *out)
{
    napi_valuetype t;
    bool lossless;
    napi_typeof(env, v, &t);
    if (t == napi_bigint)
        return napi_get_value_bigint_uint64(env, v, out, &lossless) == napi_ok && lossless;
    int64_t i;
    if (!get_int64(env, v, &i) || i < 0)
        return false;
    *out = (uint64_t)i;
    return true;
}

static void op_free(napi_env env, op *o)
{
    if (o->data_ref)
        napi_delete_reference(env, o->data_ref);
    free(o->path);
    free(o->arg);
    free(o);
}

/* ---------------------------------------------------------------- run + outcome */

static void op_run(op *o)
{
    switch (o->kind) {
    case OP_ACQUIRE:
        /* The C library's wait: one backoff and one judgement of what sits at
         * the lock path for every binding (docs/lockrt.md, "Waiting"). */
        o->status = lockrt_acquire(o->path, &o->opts, &o->lock);
        break;
    case OP_CONFINED_PATH:
        o->status = lockrt_confined_path(o->path, o->arg, o->out, sizeof o->out);
        break;
    case OP_WRITE_ATOMIC:
        o->status = lockrt_write_atomic(o->path, o->data, o->len, o->mode);
        break;
    case OP_RELEASE_IF_OWNED:
        o->status = lockrt_release_if_owned(o->path, o->arg, NULL);
        break;
    case OP_RECLAIM_IF_STALE:
        o->status = lockrt_reclaim_if_stale(o->path, NULL);
        break;
    case OP_PROCESS_ALIVE:
        /* A pid beyond 64 bits names no process anywhere: unknown, as lockrt
         * answers for any number outside the platform's pid range. */
        o->liveness = o->pid_out_of_range ? (int)LOCKRT_UNKNOWN
                                          : (int)lockrt_process_alive(o->pid, o->start_time);
        o->status = LOCKRT_OK;
        break;
    }
}

static void handle_finalize(napi_env env, void *data, void *hint)
{
    (void)env;
    (void)hint;
    /* An unreleased lock stays held (see the header comment); only the wrapper goes. */
    free(data);
}

/* Turns a finished op into a JS value (*value) or an error object (*error). */
static void op_outcome(napi_env env, op *o, napi_value *value, napi_value *error)
{
    *value = NULL;
    *error = NULL;
    switch (o->kind) {
    case OP_ACQUIRE:
        if (o->status == LOCKRT_OK) {
            lock_handle *h = malloc(sizeof *h);
            if (h == NULL) {
                lockrt_release(o->lock);
                *error = make_error(env, LOCKRT_ENOMEM, o->path);
                return;
            }
            h->lock = o->lock;
            napi_create_external(env, h, handle_finalize, NULL, value);
        } else if (o->status == LOCKRT_ETIMEDOUT) {
            napi_get_null(env, value);
        } else {
            *error = make_error(env, o->status, o->path);
        }
        return;
    case OP_CONFINED_PATH:
        if (o->status == LOCKRT_OK)
            napi_create_string_utf8(env, o->out, NAPI_AUTO_LENGTH, value);
        else
            *error = make_error(env, o->status, o->path);
        return;
    case OP_WRITE_ATOMIC:
        if (o->status == LOCKRT_OK)
            napi_get_undefined(env, value);
        else
            *error = make_error(env, o->status, o->path);
        return;
    case OP_RELEASE_IF_OWNED:
    case OP_RECLAIM_IF_STALE:
        if (o->status == LOCKRT_OK)
            napi_get_boolean(env, true, value);
        else if (o->status == LOCKRT_ENOENT || o->status == LOCKRT_EMISMATCH ||
                 o->status == LOCKRT_ENOTOWNER || o->status == LOCKRT_ENOTSTALE)
            napi_get_boolean(env, false, value);
        else
            *error = make_error(env, o->status, o->path);
        return;
    case OP_PROCESS_ALIVE: {
        static const char *const names[] = {"dead", "alive", "unknown"};
        int i = o->liveness >= 0 && o->liveness <= 2 ? o->liveness : 2;
        napi_create_string_utf8(env, names[i], NAPI_AUTO_LENGTH, value);
        return;
    }
    }
}

static napi_value op_sync(napi_env env, op *o)
{
    napi_value value, error;
    op_run(o);
    op_outcome(env, o, &value, &error);
    op_free(env, o);
    if (error) {
        napi_throw(env, error);
        return NULL;
    }
    return value;
}

static void async_execute(napi_env env, void *data)
{
    (void)env;
    op_run(data);
}

static void async_complete(napi_env env, napi_status status, void *data)
{
    op *o = data;
    napi_value value = NULL, error = NULL;
    if (status == napi_ok) {
        op_outcome(env, o, &value, &error);
    } else {
        if (o->kind == OP_ACQUIRE && o->status == LOCKRT_OK && o->lock)
            lockrt_release(o->lock);
        error = make_error(env, LOCKRT_EIO, o->path);
    }
    if (error)
        napi_reject_deferred(env, o->deferred, error);
    else
        napi_resolve_deferred(env, o->deferred, value);
    napi_delete_async_work(env, o->work);
    op_free(env, o);
}

static napi_value op_async(napi_env env, op *o)
{
    napi_value promise, name;
    napi_create_promise(env, &o->deferred, &promise);
    napi_create_string_utf8(env, "lockrt", NAPI_AUTO_LENGTH, &name);
    if (napi_create_async_work(env, NULL, name, async_execute, async_complete, o, &o->work) != napi_ok ||
        napi_queue_async_work(env, o->work) != napi_ok) {
        napi_reject_deferred(env, o->deferred, make_error(env, LOCKRT_EIO, o->path));
        op_free(env, o);
    }
    return promise;
}

/* The last argument of every binding says whether to return a promise. */
static napi_value op_dispatch(napi_env env, op *o, napi_value async_flag)
{
    bool async = false;
    napi_get_value_bool(env, async_flag, &async);
    return async ? op_async(env, o) : op_sync(env, o);
}

static op *op_new(napi_env env, op_kind kind)
{
    op *o = calloc(1, sizeof *o);
    if (o == NULL)
        throw_status(env, LOCKRT_ENOMEM, NULL);
    else
        o->kind = kind;
    return o;
}

#define GET_ARGS(n)                                                            \
    size_t argc = (n);                                                         \
    napi_value argv[(n)];                                                      \
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);                      \
    if (argc < (n))                                                            \
        return throw_type(env, "lockrt: missing arguments");

/* ---------------------------------------------------------------- bindings */

/* acquire(path, timeoutMs, strategyCode, async) -> handle | null */
static napi_value js_acquire(napi_env env, napi_callback_info info)
{
    GET_ARGS(4)
    int64_t timeout;
    int32_t strategy;
    if (!get_int64(env, argv[1], &timeout))
        return throw_type(env, "timeout must be a number of milliseconds");
    if (napi_get_value_int32(env, argv[2], &strategy) != napi_ok || strategy < 0 || strategy > 2)
        return throw_status(env, LOCKRT_EINVAL, NULL);
    op *o = op_new(env, OP_ACQUIRE);
    if (o == NULL)
        return NULL;
    if (!get_string(env, argv[0], &o->path, "path")) {
        op_free(env, o);
        return NULL;
    }
    lockrt_options_init(&o->opts);
    o->opts.timeout_ms = timeout;
    o->opts.strategy = (lockrt_strategy)strategy;
    return op_dispatch(env, o, argv[3]);
}

static lock_handle *get_handle(napi_env env, napi_value v)
{
    void *data = NULL;
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
        napi_get_value_external(env, v, &data) != napi_ok || data == NULL) {
        throw_type(env, "not a lockrt lock handle");
        return NULL;
    }
    return data;
}

/* release(handle) -> undefined; a second release does nothing */
static napi_value js_release(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    lock_handle *h = get_handle(env, argv[0]);
    if (h == NULL)
        return NULL;
    if (h->lock) {
        lockrt_lock *lock = h->lock;
        h->lock = NULL;
        int status = lockrt_release(lock);
        if (status != LOCKRT_OK)
            return throw_status(env, status, NULL);
    }
    return NULL;
}

/* handleInfo(handle) -> {held, strategy, token} */
static napi_value js_handle_info(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    lock_handle *h = get_handle(env, argv[0]);
    if (h == NULL)
        return NULL;
    napi_value obj, v;
    napi_create_object(env, &obj);
    napi_get_boolean(env, h->lock != NULL, &v);
    napi_set_named_property(env, obj, "held", v);
    if (h->lock) {
        lockrt_strategy s = lockrt_lock_strategy(h->lock);
        napi_create_string_utf8(env, s == LOCKRT_STRATEGY_LOCKFILE ? "lockfile" : "oslock",
                                NAPI_AUTO_LENGTH, &v);
        napi_set_named_property(env, obj, "strategy", v);
        napi_create_string_utf8(env, lockrt_lock_token(h->lock), NAPI_AUTO_LENGTH, &v);
        napi_set_named_property(env, obj, "token", v);
    }
    return obj;
}

/* confinedPath(dir, name, async) -> string */
static napi_value js_confined_path(napi_env env, napi_callback_info info)
{
    GET_ARGS(3)
    op *o = op_new(env, OP_CONFINED_PATH);
    if (o == NULL)
        return NULL;
    if (!get_string(env, argv[0], &o->path, "dir") || !get_string(env, argv[1], &o->arg, "name")) {
        op_free(env, o);
        return NULL;
    }
    return op_dispatch(env, o, argv[2]);
}

/* writeAtomic(path, buffer, mode, async) -> undefined */
static napi_value js_write_atomic(napi_env env, napi_callback_info info)
{
    GET_ARGS(4)
    bool is_buffer = false;
    void *data = NULL;
    size_t len = 0;
    uint32_t mode = 0;
    napi_is_buffer(env, argv[1], &is_buffer);
    if (!is_buffer)
        return throw_type(env, "data must be a Buffer");
    napi_get_buffer_info(env, argv[1], &data, &len);
    napi_get_value_uint32(env, argv[2], &mode);
    op *o = op_new(env, OP_WRITE_ATOMIC);
    if (o == NULL)
        return NULL;
    if (!get_string(env, argv[0], &o->path, "path")) {
        op_free(env, o);
        return NULL;
    }
    o->data = data;
    o->len = len;
    o->mode = mode;
    /* The buffer must outlive the thread-pool write. */
    napi_create_reference(env, argv[1], 1, &o->data_ref);
    return op_dispatch(env, o, argv[3]);
}

/* releaseIfOwned(path, token, async) -> boolean */
static napi_value js_release_if_owned(napi_env env, napi_callback_info info)
{
    GET_ARGS(3)
    op *o = op_new(env, OP_RELEASE_IF_OWNED);
    if (o == NULL)
        return NULL;
    if (!get_string(env, argv[0], &o->path, "path") || !get_string(env, argv[1], &o->arg, "token")) {
        op_free(env, o);
        return NULL;
    }
    return op_dispatch(env, o, argv[2]);
}

/* reclaimIfStale(path, async) -> boolean */
static napi_value js_reclaim_if_stale(napi_env env, napi_callback_info info)
{
    GET_ARGS(2)
    op *o = op_new(env, OP_RECLAIM_IF_STALE);
    if (o == NULL)
        return NULL;
    if (!get_string(env, argv[0], &o->path, "path")) {
        op_free(env, o);
        return NULL;
    }
    return op_dispatch(env, o, argv[1]);
}

/* processAlive(pid, startTime, async) -> "alive" | "dead" | "unknown" */
static napi_value js_process_alive(napi_env env, napi_callback_info info)
{
    GET_ARGS(3)
    int64_t pid;
    bool out_of_range;
    uint64_t start;
    if (!get_pid(env, argv[0], &pid, &out_of_range))
        return throw_type(env, "pid must be an integer (number or bigint)");
    if (!get_uint64(env, argv[1], &start))
        return throw_type(env, "startTime must be a non-negative number or bigint");
    op *o = op_new(env, OP_PROCESS_ALIVE);
    if (o == NULL)
        return NULL;
    o->pid = pid;
    o->pid_out_of_range = out_of_range;
    o->start_time = start;
    return op_dispatch(env, o, argv[2]);
}

/* processStartTime(pid) -> bigint | null */
static napi_value js_process_start_time(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    int64_t pid;
    bool out_of_range;
    uint64_t start = 0;
    napi_value v;
    if (!get_pid(env, argv[0], &pid, &out_of_range))
        return throw_type(env, "pid must be an integer (number or bigint)");
    if (out_of_range || lockrt_process_start_time(pid, &start) != LOCKRT_OK) {
        napi_get_null(env, &v);
        return v;
    }
    napi_create_bigint_uint64(env, start, &v);
    return v;
}

/* ownerRead(path) -> {pid, startTime, host, token} */
static napi_value js_owner_read(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    char *path;
    lockrt_owner owner;
    napi_value obj, v;
    if (!get_string(env, argv[0], &path, "path"))
        return NULL;
    int status = lockrt_owner_read(path, &owner);
    if (status != LOCKRT_OK) {
        throw_status(env, status, path);
        free(path);
        return NULL;
    }
    free(path);
    napi_create_object(env, &obj);
    /* A Number while exact (every real pid), a BigInt beyond 2^53. */
    if (owner.pid <= ((int64_t)1 << 53) - 1)
        napi_create_int64(env, owner.pid, &v);
    else
        napi_create_bigint_int64(env, owner.pid, &v);
    napi_set_named_property(env, obj, "pid", v);
    napi_create_bigint_uint64(env, owner.start_time, &v);
    napi_set_named_property(env, obj, "startTime", v);
    napi_create_string_utf8(env, owner.host, strnlen(owner.host, sizeof owner.host), &v);
    napi_set_named_property(env, obj, "host", v);
    napi_create_string_utf8(env, owner.token, strnlen(owner.token, sizeof owner.token), &v);
    napi_set_named_property(env, obj, "token", v);
    return obj;
}

/* strerror(status) -> string */
static napi_value js_strerror(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    int32_t status = 0;
    napi_value v;
    napi_get_value_int32(env, argv[0], &status);
    napi_create_string_utf8(env, lockrt_strerror(status), NAPI_AUTO_LENGTH, &v);
    return v;
}

/* closeIdleDescriptors() -> undefined: close the unlocked lock-file descriptors
 * the library keeps for this process's next acquisition (held locks stay). */
static napi_value js_close_idle_descriptors(napi_env env, napi_callback_info info)
{
    (void)info;
    lockrt_close_idle_descriptors();
    napi_value v;
    napi_get_undefined(env, &v);
    return v;
}

/* setKeptDescriptors(max) -> previous bound (0 keeps none, at most 64) */
static napi_value js_set_kept_descriptors(napi_env env, napi_callback_info info)
{
    GET_ARGS(1)
    uint32_t max = 0;
    if (napi_get_value_uint32(env, argv[0], &max) != napi_ok) {
        napi_throw_type_error(env, NULL, "setKeptDescriptors: max must be a non-negative integer");
        return NULL;
    }
    napi_value v;
    napi_create_uint32(env, lockrt_set_kept_descriptors(max), &v);
    return v;
}

static napi_value init(napi_env env, napi_value exports)
{
    napi_property_descriptor props[] = {
        {"acquire", NULL, js_acquire, NULL, NULL, NULL, napi_enumerable, NULL},
        {"release", NULL, js_release, NULL, NULL, NULL, napi_enumerable, NULL},
        {"handleInfo", NULL, js_handle_info, NULL, NULL, NULL, napi_enumerable, NULL},
        {"confinedPath", NULL, js_confined_path, NULL, NULL, NULL, napi_enumerable, NULL},
        {"writeAtomic", NULL, js_write_atomic, NULL, NULL, NULL, napi_enumerable, NULL},
        {"releaseIfOwned", NULL, js_release_if_owned, NULL, NULL, NULL, napi_enumerable, NULL},
        {"reclaimIfStale", NULL, js_reclaim_if_stale, NULL, NULL, NULL, napi_enumerable, NULL},
        {"processAlive", NULL, js_process_alive, NULL, NULL, NULL, napi_enumerable, NULL},
        {"processStartTime", NULL, js_process_start_time, NULL, NULL, NULL, napi_enumerable, NULL},
        {"ownerRead", NULL, js_owner_read, NULL, NULL, NULL, napi_enumerable, NULL},
        {"strerror", NULL, js_strerror, NULL, NULL, NULL, napi_enumerable, NULL},
        {"closeIdleDescriptors", NULL, js_close_idle_descriptors, NULL, NULL, NULL, napi_enumerable, NULL},
        {"setKeptDescriptors", NULL, js_set_kept_descriptors, NULL, NULL, NULL, napi_enumerable, NULL},
    };
    napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
    return exports;
}

#ifdef NODE_API_MODULE_GET_API_VERSION
/* NAPI_MODULE_INIT defines this entry point without declaring it first, which
 * clang's -Wmissing-prototypes (an error here) reports. */
NAPI_MODULE_EXPORT int32_t NODE_API_MODULE_GET_API_VERSION(void);
#endif

NAPI_MODULE_INIT()
{
    return init(env, exports);
}
