/*
 * lockrt_harness: the lost-update harness (CLI documented in docs/lockrt.md).
 *
 *   lockrt_harness run --procs N --iters M --file F --lock L
 *                      --strategy oslock|lockfile|none [--hold-us U]
 *                      [--timeout-ms T] [--key-prefix P] [--expect-loss]
 *   lockrt_harness worker --file F --lock L --key K --iters M
 *                      --strategy oslock|lockfile|none [--hold-us U] [--timeout-ms T]
 *                      [--go PATH]
 *
 * A worker does M read-modify-write increments of its own key in the JSON counter
 * file F, writing through lockrt_write_atomic so an unlocked run shows lost
 * updates (a stale read written back), never torn files. `run` spawns N workers
 * (separate processes: posix_spawn / CreateProcessW of this program), then checks
 * that every increment and every key survived and prints one JSON line.
 *
 * Start barrier: `run` gives its workers `--go F.go`; each worker creates
 * `F.go.ready.<key>` and waits for F.go, which `run` creates once every worker
 * is ready. Without it, process start-up (slow under Wine or on a loaded
 * machine) can outlast a whole worker, the workers never overlap, and the
 * unlocked control "passes" by not racing at all.
 *
 * Exit codes: 0 = as expected (nothing lost; or, with --expect-loss, something
 * lost), 1 = the expectation failed, 2 = usage, 3 = the counter file is not a
 * counter object (torn/corrupt), 4 = lock error, 5 = lock wait timed out,
 * 6 = I/O error, 7 = a worker failed.
 */
#include "harness.h"
#include "lockrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_EXPECT = 1, EXIT_USAGE = 2, EXIT_CORRUPT = 3, EXIT_LOCK = 4,
       EXIT_TIMEOUT = 5, EXIT_IO = 6, EXIT_WORKER = 7 };

typedef struct args {
    const char *mode, *file, *lock, *key, *strategy, *key_prefix, *go;
    long procs, iters, hold_us, timeout_ms;
    int expect_loss;
} args;

static int usage(const char *msg)
{
    fprintf(stderr,
            "lockrt_harness: %s\n"
            "usage: lockrt_harness run --procs N --iters M --file F --lock L\n"
            "                          --strategy oslock|lockfile|none [--hold-us U]\n"
            "                          [--timeout-ms T] [--key-prefix P] [--expect-loss]\n"
            "       lockrt_harness worker --file F --lock L --key K --iters M\n"
            "                          --strategy oslock|lockfile|none [--hold-us U] [--timeout-ms T]\n",
            msg);
    return EXIT_USAGE;
}

static int parse_long(const char *s, long min, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < min)
        return -1;
    *out = v;
    return 0;
}

static int key_ok(const char *k)
{
    if (!*k || strlen(k) > 64)
        return 0;
    for (const char *p = k; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '.'))
            return 0;
    return 1;
}

static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->procs = -1;
    a->iters = -1;
    a->timeout_ms = 120000;
    a->key_prefix = "c";
    if (argc < 2)
        return usage("missing mode");
    a->mode = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(o, "--expect-loss") == 0) {
            a->expect_loss = 1;
            continue;
        }
        if (!v)
            return usage("option without value");
        i++;
        if (strcmp(o, "--file") == 0)
            a->file = v;
        else if (strcmp(o, "--lock") == 0)
            a->lock = v;
        else if (strcmp(o, "--key") == 0)
            a->key = v;
        else if (strcmp(o, "--strategy") == 0)
            a->strategy = v;
        else if (strcmp(o, "--key-prefix") == 0)
            a->key_prefix = v;
        else if (strcmp(o, "--go") == 0)
            a->go = v;
        else if (strcmp(o, "--procs") == 0) {
            if (parse_long(v, 1, &a->procs) != 0 || a->procs > 256)
                return usage("--procs must be 1..256");
        } else if (strcmp(o, "--iters") == 0) {
            if (parse_long(v, 0, &a->iters) != 0)
                return usage("--iters must be >= 0");
        } else if (strcmp(o, "--hold-us") == 0) {
            if (parse_long(v, 0, &a->hold_us) != 0 || a->hold_us > 10000000)
                return usage("--hold-us must be 0..10000000");
        } else if (strcmp(o, "--timeout-ms") == 0) {
            if (parse_long(v, -1, &a->timeout_ms) != 0)
                return usage("--timeout-ms must be >= -1");
        } else
            return usage("unknown option");
    }
    if (!a->file || !a->lock || !a->strategy || a->iters < 0)
        return usage("--file, --lock, --strategy and --iters are required");
    if (strcmp(a->strategy, "oslock") && strcmp(a->strategy, "lockfile") && strcmp(a->strategy, "none"))
        return usage("--strategy must be oslock, lockfile or none");
    return 0;
}

/* Read the counter file: missing or empty = {}. -1 = not a counter object. */
static int load_counters(const char *file, hj_counters *c)
{
    char *buf;
    size_t len;
    int rc = hs_read_file(file, &buf, &len);
    if (rc < 0)
        return -2;
    if (rc == 1 || len == 0) {
        free(buf);
        memset(c, 0, sizeof *c);
        return 0;
    }
    rc = hj_parse(buf, len, c);
    free(buf);
    return rc;
}

static int store_counters(const char *file, const hj_counters *c)
{
    size_t len;
    char *text = hj_format(c, &len);
    if (!text)
        return -1;
    int rc = LOCKRT_EIO;
    for (int attempt = 0; attempt < 5 && rc != LOCKRT_OK; attempt++)
        rc = lockrt_write_atomic(file, text, len, 0644);
    free(text);
    return rc == LOCKRT_OK ? 0 : -1;
}

/* One read-modify-write of the worker's key; 0 or an exit code. */
static int increment(const args *a, long hold_us)
{
    hj_counters c;
    int rc = load_counters(a->file, &c);
    if (rc != 0) {
        fprintf(stderr, "worker %s: counter file %s\n", a->key, rc == -1 ? "is corrupt" : "unreadable");
        return rc == -1 ? EXIT_CORRUPT : EXIT_IO;
    }
    int64_t *slot = hj_find(&c, a->key);
    int64_t next = slot ? *slot + 1 : 1;
    if (hj_set(&c, a->key, next) != 0) {
        hj_free(&c);
        return EXIT_IO;
    }
    if (hold_us > 0)
        hs_sleep_us((unsigned)hold_us);
    rc = store_counters(a->file, &c);
    hj_free(&c);
    if (rc != 0) {
        fprintf(stderr, "worker %s: write failed\n", a->key);
        return EXIT_IO;
    }
    return 0;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

static int touch_file(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    return fclose(f);
}

#define BARRIER_WAIT_US (120u * 1000u * 1000u)

/* Worker side of the start barrier: announce readiness, wait for go. */
static int barrier_wait(const args *a)
{
    char ready[8192];
    if ((size_t)snprintf(ready, sizeof ready, "%s.ready.%s", a->go, a->key) >= sizeof ready)
        return usage("--go path too long");
    if (touch_file(ready) != 0) {
        fprintf(stderr, "worker %s: cannot create %s\n", a->key, ready);
        return EXIT_IO;
    }
    uint64_t deadline = hs_now_us() + BARRIER_WAIT_US;
    while (!file_exists(a->go)) {
        if (hs_now_us() > deadline) {
            fprintf(stderr, "worker %s: no go signal after 120 s\n", a->key);
            return EXIT_IO;
        }
        hs_sleep_us(500);
    }
    return EXIT_OK;
}

static int worker(const args *a)
{
    if (!a->key || !key_ok(a->key))
        return usage("worker needs --key of [A-Za-z0-9_.-]");
    if (a->go) {
        int rc = barrier_wait(a);
        if (rc != EXIT_OK)
            return rc;
    }
    lockrt_options opts;
    lockrt_options_init(&opts);
    opts.timeout_ms = a->timeout_ms;
    int use_lock = strcmp(a->strategy, "none") != 0;
    opts.strategy = strcmp(a->strategy, "lockfile") == 0 ? LOCKRT_STRATEGY_LOCKFILE : LOCKRT_STRATEGY_OSLOCK;
    for (long i = 0; i < a->iters; i++) {
        lockrt_lock *lock = NULL;
        if (use_lock) {
            int rc = lockrt_acquire(a->lock, &opts, &lock);
            if (rc != LOCKRT_OK) {
                fprintf(stderr, "worker %s: acquire: %s\n", a->key, lockrt_strerror(rc));
                return rc == LOCKRT_ETIMEDOUT ? EXIT_TIMEOUT : EXIT_LOCK;
            }
        }
        int fail = increment(a, a->hold_us);
        if (fail) {
            if (lock)
                lockrt_release(lock);
            return fail;
        }
        if (use_lock) {
            int rc = lockrt_release(lock);
            if (rc != LOCKRT_OK) {
                fprintf(stderr, "worker %s: release: %s\n", a->key, lockrt_strerror(rc));
                return EXIT_LOCK;
            }
        }
    }
    return EXIT_OK;
}

static int run(const args *a)
{
    if (a->procs < 1)
        return usage("run needs --procs");
    if (!key_ok(a->key_prefix))
        return usage("bad --key-prefix");
    char self[4096];
    if (hs_self_path(self, sizeof self) != 0) {
        fprintf(stderr, "lockrt_harness: cannot find own executable\n");
        return EXIT_IO;
    }
    if (lockrt_write_atomic(a->file, "{}\n", 3, 0644) != LOCKRT_OK) {
        fprintf(stderr, "lockrt_harness: cannot initialise %s\n", a->file);
        return EXIT_IO;
    }
    hs_proc *procs = calloc((size_t)a->procs, sizeof *procs);
    if (!procs)
        return EXIT_IO;
    char iters[32], hold[32], timeout[32], go[4096];
    if ((size_t)snprintf(go, sizeof go, "%s.go", a->file) >= sizeof go)
        return usage("--file path too long");
    remove(go);
    snprintf(iters, sizeof iters, "%ld", a->iters);
    snprintf(hold, sizeof hold, "%ld", a->hold_us);
    snprintf(timeout, sizeof timeout, "%ld", a->timeout_ms);
    uint64_t t0 = hs_now_us();
    long spawned = 0, failed = 0;
    for (long i = 0; i < a->procs; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s%ld", a->key_prefix, i);
        const char *argv[] = {self, "worker", "--file", a->file, "--lock", a->lock, "--key", key,
                              "--iters", iters, "--strategy", a->strategy, "--hold-us", hold,
                              "--timeout-ms", timeout, "--go", go, NULL};
        if (hs_spawn(self, argv, &procs[i]) != 0) {
            fprintf(stderr, "lockrt_harness: spawn failed\n");
            failed++;
            break;
        }
        spawned++;
    }
    /* Release the workers together once all of them are up (see the header). */
    uint64_t deadline = hs_now_us() + BARRIER_WAIT_US;
    for (long i = 0; i < spawned && !failed;) {
        char ready[8192];
        snprintf(ready, sizeof ready, "%s.ready.%s%ld", go, a->key_prefix, i);
        if (file_exists(ready)) {
            i++;
        } else if (hs_now_us() > deadline) {
            fprintf(stderr, "lockrt_harness: worker %ld not ready after 120 s\n", i);
            break; /* a worker that failed early exits on its own; the go below frees the rest */
        } else {
            hs_sleep_us(500);
        }
    }
    if (touch_file(go) != 0) {
        fprintf(stderr, "lockrt_harness: cannot create %s\n", go);
        failed++;
    }
    for (long i = 0; i < spawned; i++) {
        int code = hs_wait(&procs[i]);
        if (code != 0) {
            fprintf(stderr, "lockrt_harness: worker %ld exited with %d\n", i, code);
            failed++;
        }
    }
    free(procs);
    remove(go);
    for (long i = 0; i < spawned; i++) {
        char ready[8192];
        snprintf(ready, sizeof ready, "%s.ready.%s%ld", go, a->key_prefix, i);
        remove(ready);
    }
    double elapsed_ms = (double)(hs_now_us() - t0) / 1000.0;

    hj_counters c;
    int rc = load_counters(a->file, &c);
    if (rc != 0) {
        printf("{\"error\":\"counter file %s\"}\n", rc == -1 ? "corrupt" : "unreadable");
        return rc == -1 ? EXIT_CORRUPT : EXIT_IO;
    }
    long long total = 0;
    long present = 0;
    for (long i = 0; i < a->procs; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s%ld", a->key_prefix, i);
        int64_t *v = hj_find(&c, key);
        if (v) {
            present++;
            total += *v;
        }
    }
    hj_free(&c);
    long long expected = (long long)a->procs * a->iters;
    printf("{\"expected\":%lld,\"total\":%lld,\"keys_expected\":%ld,\"keys_present\":%ld,"
           "\"strategy\":\"%s\",\"procs\":%ld,\"iters\":%ld,\"hold_us\":%ld,"
           "\"workers_failed\":%ld,\"elapsed_ms\":%.1f}\n",
           expected, total, a->procs, present, a->strategy, a->procs, a->iters, a->hold_us, failed,
           elapsed_ms);
    fflush(stdout);
    if (failed)
        return EXIT_WORKER;
    int lost = total != expected || present != a->procs;
    if (a->expect_loss)
        return lost ? EXIT_OK : EXIT_EXPECT;
    return lost ? EXIT_EXPECT : EXIT_OK;
}

int main(int argc, char **argv)
{
    args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    if (strcmp(a.mode, "worker") == 0)
        return worker(&a);
    if (strcmp(a.mode, "run") == 0)
        return run(&a);
    return usage("mode must be run or worker");
}
