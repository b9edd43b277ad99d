/* The shared vectors (runtime/tests/vectors/records.json) against the C library:
 * record parsing, the judgement of what sits at a lock path (through
 * reclaim_if_stale and both strategies' acquisitions) and process liveness. The
 * Python (native and pure) and Node runners read the same file. */
#include "test_util.h"
#include "tu_json.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LOCKRT_VECTORS_FILE
#error "LOCKRT_VECTORS_FILE must name runtime/tests/vectors/records.json"
#endif

static tj_value *load_vectors(void)
{
    size_t len = 0;
    char *text = tu_read_file(LOCKRT_VECTORS_FILE, &len);
    CHECK(text != NULL);
    size_t at = 0;
    tj_value *doc = tj_parse(text, len, &at);
    if (!doc)
        fprintf(stderr, "    %s: JSON error at offset %zu\n", LOCKRT_VECTORS_FILE, at);
    CHECK(doc != NULL);
    free(text);
    return doc;
}

static const tj_value *section(const tj_value *doc, const char *name)
{
    const tj_value *v = tj_get(doc, name);
    CHECK(v != NULL && v->type == TJ_ARRAY && v->count > 0);
    return v;
}

static void write_bytes(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    CHECK(write(fd, data, len) == (ssize_t)len);
    CHECK(close(fd) == 0);
}

static bool file_is(const char *path, const char *data, size_t len)
{
    size_t got = 0;
    char *s = tu_read_file(path, &got);
    bool same = s && got == len && memcmp(s, data, len) == 0;
    free(s);
    return same;
}

static void fail_vector(const char *what, const char *name)
{
    fprintf(stderr, "    vector \"%s\": %s\n", name, what);
    CHECK(0);
}

static void records_parse(void)
{
    tj_value *doc = load_vectors();
    const tj_value *records = section(doc, "records");
    for (size_t i = 0; i < records->count; i++) {
        const tj_value *v = records->items[i];
        const char *name = tj_str(v, "name", NULL);
        size_t len = 0;
        const char *bytes = tj_str(v, "bytes", &len);
        const char *expect = tj_str(v, "expect", NULL);
        CHECK(name && bytes && expect);
        write_bytes("r.lock", bytes, len);
        lockrt_owner o;
        int rc = lockrt_owner_read("r.lock", &o);
        if (strcmp(expect, "record") == 0) {
            if (rc != LOCKRT_OK)
                fail_vector("refused, but it is a record", name);
            size_t host_len = 0;
            const char *host = tj_str(v, "host", &host_len);
            CHECK(host != NULL);
            if (o.pid != (int64_t)strtoll(tj_str(v, "pid", NULL), NULL, 10) ||
                o.start_time != (uint64_t)strtoull(tj_str(v, "start_time", NULL), NULL, 10) ||
                strlen(o.host) != host_len || memcmp(o.host, host, host_len) != 0 ||
                strcmp(o.token, tj_str(v, "token", NULL)) != 0)
                fail_vector("parsed into other values", name);
            /* a record of another host is held, never removed */
            if (strcmp(o.host, tu_hostname()) != 0 &&
                lockrt_reclaim_if_stale("r.lock", NULL) != LOCKRT_ENOTSTALE)
                fail_vector("another host's record was not held", name);
        } else {
            CHECK(strcmp(expect, "rejected") == 0);
            const char *reason = tj_str(v, "reason", NULL);
            CHECK(reason && *reason);
            if (rc != LOCKRT_ECORRUPT)
                fail_vector("accepted, but it is not a record", name);
            /* never reclaimable, whatever it says */
            if (lockrt_reclaim_if_stale("r.lock", NULL) != LOCKRT_ECORRUPT)
                fail_vector("reclaim did not answer LOCKRT_ECORRUPT", name);
        }
        if (!file_is("r.lock", bytes, len))
            fail_vector("the file changed", name);
    }
    tj_free(doc);
}

/* ---- symbolic values ---- */

typedef struct {
    pid_t dead, zombie;
    uint64_t self_start;
} fixtures;

static pid_t make_zombie(void)
{
    pid_t z = fork();
    CHECK(z >= 0);
    if (z == 0)
        _exit(0);
    for (int i = 0; i < 5000; i++) { /* until the kernel says Z */
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)z);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        CHECK(fd >= 0);
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        CHECK(n > 0);
        buf[n] = '\0';
        if (strstr(buf, ") Z "))
            return z;
        usleep(1000);
    }
    CHECK(!"the child never became a zombie");
    return z;
}

static void fixtures_up(fixtures *f)
{
    f->dead = tu_dead_pid();
    f->zombie = make_zombie();
    CHECK_EQ_INT(lockrt_process_start_time(getpid(), &f->self_start), LOCKRT_OK);
}

static void fixtures_down(fixtures *f)
{
    int st;
    CHECK(waitpid(f->zombie, &st, 0) == f->zombie);
}

static int64_t pid_of(const fixtures *f, const char *s)
{
    if (strcmp(s, "self") == 0)
        return getpid();
    if (strcmp(s, "dead") == 0)
        return f->dead;
    if (strcmp(s, "zombie") == 0)
        return f->zombie;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    CHECK(errno == 0 && *end == '\0');
    return v;
}

static uint64_t start_of(const fixtures *f, const char *s)
{
    if (strcmp(s, "self") == 0)
        return f->self_start;
    if (strcmp(s, "self+1") == 0)
        return f->self_start + 1;
    return (uint64_t)strtoull(s, NULL, 10);
}

static void host_of(const char *s, char *out, size_t cap)
{
    if (strcmp(s, "self") == 0)
        snprintf(out, cap, "%s", tu_hostname());
    else if (strcmp(s, "self.") == 0)
        snprintf(out, cap, "%s.", tu_hostname());
    else if (strcmp(s, "other") == 0)
        snprintf(out, cap, "elsewhere.invalid");
    else
        snprintf(out, cap, "%s", s);
}

static void judgements(void)
{
    tj_value *doc = load_vectors();
    const tj_value *cases = section(doc, "judgements");
    const char *token = tj_str(doc, "token", NULL);
    CHECK(token != NULL);
    fixtures f;
    fixtures_up(&f);
    for (size_t i = 0; i < cases->count; i++) {
        const tj_value *v = cases->items[i];
        const char *name = tj_str(v, "name", NULL);
        const char *verdict = tj_str(v, "verdict", NULL);
        CHECK(name && verdict);
        char host[300], rec[1024];
        host_of(tj_str(v, "host", NULL), host, sizeof host);
        int n = snprintf(rec, sizeof rec, "{\"pid\":%" PRId64 ",\"start_time\":%" PRIu64
                         ",\"host\":\"%s\",\"token\":\"%s\"}%s%s",
                         pid_of(&f, tj_str(v, "pid", NULL)), start_of(&f, tj_str(v, "start_time", NULL)),
                         host, token, tj_true(v, "drop_newline") ? "" : "\n",
                         tj_str(v, "append", NULL) ? tj_str(v, "append", NULL) : "");
        CHECK(n > 0 && (size_t)n < sizeof rec);
        size_t len = (size_t)n;
        bool stale = strcmp(verdict, "stale") == 0, held = strcmp(verdict, "held") == 0;
        CHECK(stale || held || strcmp(verdict, "not_record") == 0);

        /* reclaim_if_stale: the verdict itself */
        write_bytes("j.lock", rec, len);
        int rc = lockrt_reclaim_if_stale("j.lock", NULL);
        if (rc != (stale ? LOCKRT_OK : held ? LOCKRT_ENOTSTALE : LOCKRT_ECORRUPT))
            fail_vector("reclaim_if_stale gave another verdict", name);
        if (stale ? tu_exists_nofollow("j.lock") : !file_is("j.lock", rec, len))
            fail_vector(stale ? "a stale record was not removed" : "the file changed", name);

        /* OS lock: only a record that holds keeps it out; nothing is changed */
        write_bytes("j.lock", rec, len);
        lockrt_options o;
        lockrt_options_init(&o);
        o.strategy = LOCKRT_STRATEGY_OSLOCK;
        o.timeout_ms = 0;
        lockrt_lock *l = NULL;
        rc = lockrt_acquire("j.lock", &o, &l);
        if (rc != (held ? LOCKRT_ETIMEDOUT : LOCKRT_OK))
            fail_vector("the OS lock judged it otherwise", name);
        if (l)
            CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
        if (!file_is("j.lock", rec, len))
            fail_vector("the OS lock changed the file", name);

        /* lockfile: a stale record is replaced by ours; anything else waits (a
         * young non-record counts as held) */
        o.strategy = LOCKRT_STRATEGY_LOCKFILE;
        l = NULL;
        rc = lockrt_acquire("j.lock", &o, &l);
        if (rc != (stale ? LOCKRT_OK : LOCKRT_ETIMEDOUT))
            fail_vector("the lockfile acquisition judged it otherwise", name);
        if (l) {
            CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
            CHECK(!tu_exists_nofollow("j.lock"));
        } else if (!file_is("j.lock", rec, len)) {
            fail_vector("the lockfile acquisition changed the file", name);
        }
        unlink("j.lock");
        CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
    }
    fixtures_down(&f);
    tj_free(doc);
}

static void liveness(void)
{
    static const char *const names[] = {"dead", "alive", "unknown"};
    tj_value *doc = load_vectors();
    const tj_value *cases = section(doc, "liveness");
    fixtures f;
    fixtures_up(&f);
    size_t ran = 0;
    for (size_t i = 0; i < cases->count; i++) {
        const tj_value *v = cases->items[i];
        const char *name = tj_str(v, "name", NULL);
        const char *expect = tj_str(v, "expect", NULL);
        CHECK(name && expect);
        if (tj_true(v, "beyond_int64"))
            continue; /* int64_t cannot carry it: Python and Node run these */
        lockrt_liveness got = lockrt_process_alive(pid_of(&f, tj_str(v, "pid", NULL)),
                                                   start_of(&f, tj_str(v, "start_time", NULL)));
        CHECK((int)got >= 0 && (int)got <= 2);
        if (strcmp(names[got], expect) != 0) {
            fprintf(stderr, "    got %s\n", names[got]);
            fail_vector("another liveness", name);
        }
        ran++;
    }
    CHECK(ran > 10);
    fixtures_down(&f);
    tj_free(doc);
}

int main(int argc, char **argv)
{
    static const lrt_test tests[] = {
        LRT_TEST(records_parse),
        LRT_TEST(judgements),
        LRT_TEST(liveness),
    };
    return lrt_run(tests, sizeof tests / sizeof tests[0], argc, argv);
}
