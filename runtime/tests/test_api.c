/* lockrt API tests: records, strategies, identity-bound removal, confinement,
 * atomic writes, liveness, symlink refusal, foreign files at lock paths. Fault
 * scenarios are in test_faults.c; the record grammar and the judgements shared
 * with the bindings are in test_vectors.c. */
#include "lockrt_test_hooks.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static lockrt_options opts_for(lockrt_strategy s, int64_t timeout_ms)
{
    lockrt_options o;
    lockrt_options_init(&o);
    o.strategy = s;
    o.timeout_ms = timeout_ms;
    return o;
}

static void strerror_covers_every_code(void)
{
    const char *seen[14];
    for (int code = 0; code >= -13; code--) {
        const char *s = lockrt_strerror(code);
        CHECK(s != NULL && *s);
        CHECK(strcmp(s, lockrt_strerror(-99)) != 0);
        for (int j = 0; j < -code; j++)
            CHECK(strcmp(seen[j], s) != 0);
        seen[-code] = s;
    }
    CHECK(strstr(lockrt_strerror(-14), "unknown") != NULL);
    CHECK(strstr(lockrt_strerror(1), "unknown") != NULL);
    CHECK(strstr(lockrt_strerror(LOCKRT_ETIMEDOUT), "timed out") != NULL);
}

static void options_defaults(void)
{
    lockrt_options o;
    memset(&o, 0xab, sizeof o);
    lockrt_options_init(&o);
    CHECK_EQ_INT(o.strategy, LOCKRT_STRATEGY_AUTO);
    CHECK_EQ_INT(o.timeout_ms, 10000);
    CHECK_EQ_INT(o.poll_min_ms, 1);
    CHECK_EQ_INT(o.poll_max_ms, 5);
}

static bool is_hex32(const char *s)
{
    if (strlen(s) != 32)
        return false;
    for (int i = 0; i < 32; i++)
        if (!strchr("0123456789abcdef", s[i]))
            return false;
    return true;
}

static void lockfile_record_format(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("state.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_LOCKFILE);
    CHECK(is_hex32(lockrt_lock_token(l)));

    uint64_t st = 0;
    CHECK_EQ_INT(lockrt_process_start_time(getpid(), &st), LOCKRT_OK);
    CHECK(st > 0);
    char want[1024];
    snprintf(want, sizeof want, "{\"pid\":%d,\"start_time\":%llu,\"host\":\"%s\",\"token\":\"%s\"}\n",
             (int)getpid(), (unsigned long long)st, tu_hostname(), lockrt_lock_token(l));
    size_t len;
    char *got = tu_read_file("state.lock", &len);
    CHECK(got != NULL);
    CHECK(strcmp(got, want) == 0); /* byte for byte: other tools parse this line */
    free(got);

    lockrt_owner owner;
    CHECK_EQ_INT(lockrt_owner_read("state.lock", &owner), LOCKRT_OK);
    CHECK_EQ_INT(owner.pid, getpid());
    CHECK(owner.start_time == st);
    CHECK(strcmp(owner.host, tu_hostname()) == 0);
    CHECK(strcmp(owner.token, lockrt_lock_token(l)) == 0);

    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("state.lock"));
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void owner_record_parser(void)
{
    /* The full grammar is pinned by the shared vectors (test_vectors.c); here,
     * the file-level rules of lockrt_owner_read. */
    lockrt_owner o;
    tu_write_record("r", 7, 0, "h", "00ff");
    CHECK_EQ_INT(lockrt_owner_read("r", &o), LOCKRT_OK);
    CHECK_EQ_INT(o.pid, 7);
    CHECK(o.start_time == 0);
    CHECK(strcmp(o.host, "h") == 0);
    CHECK(strcmp(o.token, tu_token("00ff")) == 0);
    /* What the old, tolerant parser took (any key order, spaces, unknown keys, a
     * short token) is not a record lockrt writes: refused. */
    tu_write_file("r", " {\"token\":\"00ff\",\"note\":\"x\",\"host\":\"h\",\"start_time\":0,\"pid\":7}\r\n");
    CHECK_EQ_INT(lockrt_owner_read("r", &o), LOCKRT_ECORRUPT);
    CHECK_EQ_INT(o.pid, 0); /* nothing half-filled on refusal */
    /* Larger than a record can be: refused without being read. */
    char big[LOCKRT_HOST_MAX * 8];
    memset(big, ' ', sizeof big);
    big[sizeof big - 1] = '\0';
    tu_write_file("r", big);
    CHECK_EQ_INT(lockrt_owner_read("r", &o), LOCKRT_ECORRUPT);
    CHECK_EQ_INT(lockrt_owner_read("missing", &o), LOCKRT_ENOENT);
    CHECK_EQ_INT(lockrt_owner_read(NULL, &o), LOCKRT_EINVAL);
}

static void oslock_excludes_and_keeps_file(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ_INT(lockrt_acquire("os.lock", &o, &a), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(a), LOCKRT_STRATEGY_OSLOCK);
    CHECK(strcmp(lockrt_lock_token(a), "") == 0);
    /* Same process, second acquisition: flock is per open file description, so
     * this is refused exactly as another process would be. */
    CHECK_EQ_INT(lockrt_acquire("os.lock", &o, &b), LOCKRT_ETIMEDOUT);
    CHECK(b == NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        lockrt_lock *c = NULL;
        lockrt_options w = opts_for(LOCKRT_STRATEGY_OSLOCK, 50);
        _exit(lockrt_acquire("os.lock", &w, &c) == LOCKRT_ETIMEDOUT ? 0 : 1);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat before;
    CHECK(lstat("os.lock", &before) == 0);
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);
    struct stat after;
    CHECK(lstat("os.lock", &after) == 0); /* never unlinked on release */
    CHECK(before.st_ino == after.st_ino);
    CHECK_EQ_INT(lockrt_acquire("os.lock", &o, &b), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(b), LOCKRT_OK);
}

static void oslock_relocks_when_name_replaced(void)
{
    /* Someone else (not lockrt) unlinks the lock file while we wait: the waiter
     * must not keep a lock on the orphaned inode. */
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ_INT(lockrt_acquire("os.lock", &o, &a), LOCKRT_OK);
    CHECK(unlink("os.lock") == 0);
    /* The name is free of our inode now, so a new acquirer locks a new inode. */
    CHECK_EQ_INT(lockrt_acquire("os.lock", &o, &b), LOCKRT_OK);
    struct stat st;
    CHECK(lstat("os.lock", &st) == 0);
    CHECK_EQ_INT(lockrt_release(b), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);
}

static void lockfile_excludes_and_removes_record(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ_INT(lockrt_acquire("lf.lock", &o, &a), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_acquire("lf.lock", &o, &b), LOCKRT_ETIMEDOUT); /* owner (us) is alive */
    o.timeout_ms = 30;
    CHECK_EQ_INT(lockrt_acquire("lf.lock", &o, &b), LOCKRT_ETIMEDOUT);
    CHECK(tu_exists_nofollow("lf.lock"));
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("lf.lock"));
    CHECK_EQ_INT(lockrt_acquire("lf.lock", &o, &b), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(b), LOCKRT_OK);
}

static void release_detects_replaced_record(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *a = NULL;
    CHECK_EQ_INT(lockrt_acquire("lf.lock", &o, &a), LOCKRT_OK);
    /* Someone wrongly replaced our record: release must not delete theirs. */
    CHECK(unlink("lf.lock") == 0);
    tu_write_record("lf.lock", getpid(), 0, tu_hostname(), "beef");
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_EMISMATCH);
    char *s = tu_read_file("lf.lock", NULL);
    CHECK(s && strstr(s, tu_token("beef")));
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void strategy_from_env_and_options(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_AUTO, 0);
    lockrt_lock *l = NULL;
    unsetenv(LOCKRT_ENV_STRATEGY);
    CHECK_EQ_INT(lockrt_acquire("a.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_OSLOCK); /* local fs */
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    setenv(LOCKRT_ENV_STRATEGY, "lockfile", 1);
    CHECK_EQ_INT(lockrt_acquire("b.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_LOCKFILE);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    setenv(LOCKRT_ENV_STRATEGY, "oslock", 1);
    CHECK_EQ_INT(lockrt_acquire("c.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_OSLOCK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    /* An explicit option wins over the environment. */
    lockrt_options f = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    CHECK_EQ_INT(lockrt_acquire("d.lock", &f, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_LOCKFILE);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    setenv(LOCKRT_ENV_STRATEGY, "flock-please", 1);
    CHECK_EQ_INT(lockrt_acquire("e.lock", &o, &l), LOCKRT_EINVAL);
    CHECK(l == NULL);
    setenv(LOCKRT_ENV_STRATEGY, "auto", 1);
    CHECK_EQ_INT(lockrt_acquire("e.lock", &o, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_lock_strategy(l), LOCKRT_STRATEGY_OSLOCK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

    lockrt_options bad = opts_for((lockrt_strategy)7, 0);
    CHECK_EQ_INT(lockrt_acquire("f.lock", &bad, &l), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_acquire("", &o, &l), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_acquire(NULL, &o, &l), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_acquire("g.lock", &o, NULL), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_release(NULL), LOCKRT_EINVAL);
}

static void null_options_mean_defaults(void)
{
    unsetenv(LOCKRT_ENV_STRATEGY);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("n.lock", NULL, &l), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
}

/* Contenders that (wrongly) use different strategies on one path still exclude
 * each other: the reclaimer probes the OS lock before removing, an OS-lock
 * acquirer defers to a live owner record, and an OS-lock file (empty: not an
 * owner record) is never removed by a lockfile acquirer. */
static void mixed_strategies_exclude(void)
{
    lockrt_options os = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_options lf = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *a = NULL, *b = NULL;

    CHECK_EQ_INT(lockrt_acquire("m.lock", &os, &a), LOCKRT_OK);
    tu_snapshot before, after;
    tu_snap("m.lock", &before);
    CHECK_EQ_INT(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ETIMEDOUT); /* young: held */
    CHECK_EQ_INT(lockrt_reclaim_if_stale("m.lock", NULL), LOCKRT_ECORRUPT);
    tu_age("m.lock", 120);
    tu_snap("m.lock", &before);
    /* old: a lockfile acquirer says what is in the way instead of removing it */
    CHECK_EQ_INT(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ECORRUPT);
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ECORRUPT); /* idle: still never removed */
    tu_snap("m.lock", &after);
    CHECK(tu_snap_equal(&before, &after));
    CHECK(unlink("m.lock") == 0);

    /* a lockfile holder's live record keeps OS-lock acquirers out */
    CHECK_EQ_INT(lockrt_acquire("m.lock", &lf, &b), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_acquire("m.lock", &os, &a), LOCKRT_ETIMEDOUT);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        lockrt_lock *c = NULL;
        lockrt_options w = opts_for(LOCKRT_STRATEGY_OSLOCK, 100);
        _exit(lockrt_acquire("m.lock", &w, &c) == LOCKRT_ETIMEDOUT ? 0 : 1);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_EQ_INT(lockrt_release(b), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_acquire("m.lock", &os, &a), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);

    /* a dead owner's record does not block an OS-lock acquirer */
    tu_write_record("d.lock", tu_dead_pid(), 0, tu_hostname(), "dd");
    CHECK_EQ_INT(lockrt_acquire("d.lock", &os, &a), LOCKRT_OK);
    /* ... and while it holds that file, the record is not reclaimed under it */
    CHECK_EQ_INT(lockrt_reclaim_if_stale("d.lock", NULL), LOCKRT_ENOTSTALE);
    CHECK(tu_exists_nofollow("d.lock"));
    CHECK_EQ_INT(lockrt_release(a), LOCKRT_OK);
}

/* ---- symlinks at lock paths: refused, never followed, never deleted ---- */

static void plant_symlink(const char *target_content, bool dangling)
{
    if (!dangling)
        tu_write_file("victim", target_content);
    CHECK(symlink(dangling ? "nowhere" : "victim", "sym.lock") == 0);
}

static void check_symlink_untouched(const char *target_content, bool dangling)
{
    CHECK(tu_is_symlink("sym.lock"));
    if (dangling) {
        CHECK(!tu_exists_nofollow("nowhere")); /* not created through the link */
    } else {
        char *s = tu_read_file("victim", NULL);
        CHECK(s && strcmp(s, target_content) == 0);
        free(s);
    }
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void symlink_refused_by_acquire(void)
{
    static const lockrt_strategy strategies[] = {LOCKRT_STRATEGY_OSLOCK, LOCKRT_STRATEGY_LOCKFILE};
    for (int dangling = 0; dangling < 2; dangling++) {
        for (int s = 0; s < 2; s++) {
            const char *content = "precious\n";
            plant_symlink(content, dangling);
            lockrt_options o = opts_for(strategies[s], 200);
            lockrt_lock *l = NULL;
            CHECK_EQ_INT(lockrt_acquire("sym.lock", &o, &l), LOCKRT_ESYMLINK);
            CHECK(l == NULL);
            check_symlink_untouched(content, dangling);
            CHECK(unlink("sym.lock") == 0);
            unlink("victim");
        }
    }
}

static void symlink_refused_by_removals(void)
{
    const char *content = "{\"pid\":999999,\"start_time\":1,\"host\":\"x\",\"token\":\"ab\"}\n";
    for (int dangling = 0; dangling < 2; dangling++) {
        plant_symlink(content, dangling);
        lockrt_owner owner;
        lockrt_identity id;
        memset(&id, 0, sizeof id);
        CHECK_EQ_INT(lockrt_owner_read("sym.lock", &owner), LOCKRT_ESYMLINK);
        CHECK_EQ_INT(lockrt_reclaim_if_stale("sym.lock", NULL), LOCKRT_ESYMLINK);
        CHECK_EQ_INT(lockrt_release_if_owned("sym.lock", "ab", NULL), LOCKRT_ESYMLINK);
        CHECK_EQ_INT(lockrt_identity_of("sym.lock", &id), LOCKRT_ESYMLINK);
        CHECK_EQ_INT(lockrt_unlink_if_identical("sym.lock", &id, NULL), LOCKRT_ESYMLINK);
        check_symlink_untouched(content, dangling);
        CHECK(unlink("sym.lock") == 0);
        unlink("victim");
    }
}

/* Our record replaced by a symlink while we held the lock: release refuses it. */
static void release_refuses_symlink(void)
{
    tu_write_file("victim", "precious\n");
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("h.lock", &o, &l), LOCKRT_OK);
    CHECK(unlink("h.lock") == 0);
    CHECK(symlink("victim", "h.lock") == 0);
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_ESYMLINK);
    CHECK(tu_is_symlink("h.lock"));
    char *s = tu_read_file("victim", NULL);
    CHECK(s && strcmp(s, "precious\n") == 0);
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

/* A symlink swapped in after the quarantine rename is restored, not deleted. */
static void swap_in_symlink(const char *qpath, void *arg)
{
    (void)arg;
    CHECK(unlink(qpath) == 0);
    CHECK(symlink("victim", qpath) == 0);
}

static void symlink_swapped_into_quarantine_is_restored(void)
{
    tu_write_file("victim", "precious\n");
    tu_write_file("x.lock", "record\n");
    lockrt_identity id;
    CHECK_EQ_INT(lockrt_identity_of("x.lock", &id), LOCKRT_OK);
    lockrt_test_hooks hooks = {NULL, swap_in_symlink, NULL};
    CHECK_EQ_INT(lockrt_test_unlink_if_identical("x.lock", &id, &hooks), LOCKRT_EMISMATCH);
    CHECK(tu_is_symlink("x.lock"));
    char *s = tu_read_file("victim", NULL);
    CHECK(s && strcmp(s, "precious\n") == 0);
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void special_files_refused(void)
{
    CHECK(mkfifo("fifo.lock", 0644) == 0);
    CHECK(mkdir("dir.lock", 0755) == 0);
    static const lockrt_strategy strategies[] = {LOCKRT_STRATEGY_OSLOCK, LOCKRT_STRATEGY_LOCKFILE};
    for (int s = 0; s < 2; s++) {
        lockrt_options o = opts_for(strategies[s], 100);
        lockrt_lock *l = NULL;
        CHECK_EQ_INT(lockrt_acquire("fifo.lock", &o, &l), LOCKRT_EBADTYPE); /* and no hang */
        CHECK_EQ_INT(lockrt_acquire("dir.lock", &o, &l), LOCKRT_EBADTYPE);
    }
    CHECK_EQ_INT(lockrt_reclaim_if_stale("fifo.lock", NULL), LOCKRT_EBADTYPE);
    CHECK_EQ_INT(lockrt_reclaim_if_stale("dir.lock", NULL), LOCKRT_EBADTYPE);
    struct stat st;
    CHECK(lstat("fifo.lock", &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK(lstat("dir.lock", &st) == 0 && S_ISDIR(st.st_mode));
}

static void missing_directory_is_enoent(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("nodir/x.lock", &o, &l), LOCKRT_ENOENT);
    o.strategy = LOCKRT_STRATEGY_LOCKFILE;
    CHECK_EQ_INT(lockrt_acquire("nodir/x.lock", &o, &l), LOCKRT_ENOENT);
}

/* ---- reclaim and release ---- */

static void reclaim_dead_owner(void)
{
    pid_t dead = tu_dead_pid();
    tu_write_record("d.lock", dead, 12345, tu_hostname(), "0123");
    CHECK_EQ_INT(lockrt_reclaim_if_stale("d.lock", NULL), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("d.lock"));
    CHECK_EQ_INT(lockrt_reclaim_if_stale("d.lock", NULL), LOCKRT_ENOENT);
    /* acquire reclaims on its own */
    tu_write_record("d.lock", dead, 0, tu_hostname(), "0123");
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("d.lock", &o, &l), LOCKRT_OK);
    lockrt_owner owner;
    CHECK_EQ_INT(lockrt_owner_read("d.lock", &owner), LOCKRT_OK);
    CHECK_EQ_INT(owner.pid, getpid());
    CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void reclaim_keeps_live_and_foreign_owners(void)
{
    uint64_t st = 0;
    CHECK_EQ_INT(lockrt_process_start_time(getpid(), &st), LOCKRT_OK);
    tu_write_record("live.lock", getpid(), st, tu_hostname(), "aa");
    CHECK_EQ_INT(lockrt_reclaim_if_stale("live.lock", NULL), LOCKRT_ENOTSTALE);
    tu_write_record("nost.lock", getpid(), 0, tu_hostname(), "aa"); /* start unknown */
    CHECK_EQ_INT(lockrt_reclaim_if_stale("nost.lock", NULL), LOCKRT_ENOTSTALE);
    pid_t dead = tu_dead_pid();
    tu_write_record("far.lock", dead, 1, "some-other-host.example", "aa");
    CHECK_EQ_INT(lockrt_reclaim_if_stale("far.lock", NULL), LOCKRT_ENOTSTALE);
    CHECK(tu_exists_nofollow("live.lock") && tu_exists_nofollow("nost.lock") &&
          tu_exists_nofollow("far.lock"));
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 20);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("far.lock", &o, &l), LOCKRT_ETIMEDOUT);
}

static void nonrecord_grace_then_ecorrupt(void)
{
    /* Age never breaks a record that names a live owner. */
    tu_write_record("old.lock", getpid(), 0, tu_hostname(), "aa");
    tu_age("old.lock", 120);
    CHECK_EQ_INT(lockrt_reclaim_if_stale("old.lock", NULL), LOCKRT_ENOTSTALE);
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 50);
    lockrt_lock *l = NULL;
    CHECK_EQ_INT(lockrt_acquire("old.lock", &o, &l), LOCKRT_ETIMEDOUT);
    /* A non-record turns from "held" (it may be a record whose creator has not
     * written it yet) into LOCKRT_ECORRUPT once older than the 30 s grace. */
    tu_write_file("c.lock", "");
    tu_age("c.lock", 25);
    CHECK_EQ_INT(lockrt_acquire("c.lock", &o, &l), LOCKRT_ETIMEDOUT);
    tu_age("c.lock", 35);
    CHECK_EQ_INT(lockrt_acquire("c.lock", &o, &l), LOCKRT_ECORRUPT);
    o.timeout_ms = -1; /* even a wait without deadline ends: the file will not go away */
    CHECK_EQ_INT(lockrt_acquire("c.lock", &o, &l), LOCKRT_ECORRUPT);
    CHECK(tu_exists_nofollow("c.lock"));
}

/* Item 4 of issue 11: a file at a lock path that is not a complete, well-formed
 * owner record is never removed, whatever its age and size; both strategies
 * leave it byte for byte, and every wait ends within its timeout. */
typedef enum { FOREIGN_JSON, FOREIGN_GARBAGE, FOREIGN_EMPTY, FOREIGN_SPARSE, FOREIGN_TRAILING,
               FOREIGN_DUPLICATE, FOREIGN_KINDS } foreign_kind;

static void make_foreign(const char *path, foreign_kind kind)
{
    char rec[512];
    pid_t dead = tu_dead_pid(); /* a record naming it would be reclaimable */
    snprintf(rec, sizeof rec, "{\"pid\":%d,\"start_time\":0,\"host\":\"%s\",\"token\":\"%s\"}",
             (int)dead, tu_hostname(), tu_token("f0"));
    switch (kind) {
    case FOREIGN_JSON: { /* a user's 2 MB JSON file that even carries the record's keys */
        size_t n = 2u << 20;
        char *buf = malloc(n + 1);
        CHECK(buf != NULL);
        int k = snprintf(buf, n, "{\"pid\":%d,\"start_time\":0,\"host\":\"%s\",\"token\":\"%s\",\"data\":\"",
                         (int)dead, tu_hostname(), tu_token("f0"));
        memset(buf + k, 'x', n - (size_t)k - 3);
        memcpy(buf + n - 3, "\"}\n", 3);
        buf[n] = '\0';
        tu_write_file(path, buf);
        free(buf);
        break;
    }
    case FOREIGN_GARBAGE: {
        char buf[201];
        uint64_t x = 0x9e3779b97f4a7c15ULL;
        for (int i = 0; i < 200; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[i] = (char)(1 + x % 255); /* no NUL: tu_write_file writes a C string */
        }
        buf[200] = '\0';
        tu_write_file(path, buf);
        break;
    }
    case FOREIGN_EMPTY:
        tu_write_file(path, "");
        break;
    case FOREIGN_SPARSE:
        tu_make_sparse(path, rec, "\n");
        break;
    case FOREIGN_TRAILING: { /* a dead owner's record, then one byte more */
        char buf[600];
        snprintf(buf, sizeof buf, "%s\nx", rec);
        tu_write_file(path, buf);
        break;
    }
    case FOREIGN_DUPLICATE: { /* a dead owner's record with its pid given twice */
        char buf[600];
        snprintf(buf, sizeof buf, "{\"pid\":%d,\"pid\":%d%s\n", (int)dead, (int)dead,
                 strchr(rec, ','));
        tu_write_file(path, buf);
        break;
    }
    default:
        CHECK(0);
    }
}

static void foreign_files_are_never_removed(void)
{
    static const char *const names[] = {"json", "garbage", "empty", "sparse", "trailing", "duplicate"};
    enum { TIMEOUT_MS = 300, HANG_GUARD_MS = 10000 };
    for (int kind = 0; kind < FOREIGN_KINDS; kind++) {
        for (int old = 0; old < 2; old++) {
            char path[64];
            snprintf(path, sizeof path, "%s-%s.lock", names[kind], old ? "old" : "young");
            make_foreign(path, (foreign_kind)kind);
            if (old)
                tu_age(path, 10 * 365 * 24 * 3600);
            tu_snapshot before, after;
            tu_snap(path, &before);
            fprintf(stderr, "    %s (%llu bytes)\n", path, (unsigned long long)before.size);

            lockrt_owner owner;
            CHECK_EQ_INT(lockrt_owner_read(path, &owner), LOCKRT_ECORRUPT);
            CHECK_EQ_INT(lockrt_reclaim_if_stale(path, NULL), LOCKRT_ECORRUPT);
            CHECK_EQ_INT(lockrt_release_if_owned(path, tu_token("f0"), NULL), LOCKRT_ECORRUPT);

            /* lockfile strategy: held while young (wait, time out), reported once old */
            lockrt_options lf = opts_for(LOCKRT_STRATEGY_LOCKFILE, TIMEOUT_MS);
            lockrt_lock *l = NULL;
            uint64_t t0 = tu_now_ms();
            int rc = lockrt_acquire(path, &lf, &l);
            uint64_t waited = tu_now_ms() - t0;
            CHECK_EQ_INT(rc, old ? LOCKRT_ECORRUPT : LOCKRT_ETIMEDOUT);
            CHECK(l == NULL);
            CHECK(waited < HANG_GUARD_MS); /* not a timing test: a hang guard */

            /* OS lock strategy: the flock is the lock; the file is neither read
             * past a record's size, nor changed, nor removed */
            lockrt_options os = opts_for(LOCKRT_STRATEGY_OSLOCK, TIMEOUT_MS);
            t0 = tu_now_ms();
            CHECK_EQ_INT(lockrt_acquire(path, &os, &l), LOCKRT_OK);
            CHECK(tu_now_ms() - t0 < HANG_GUARD_MS);
            CHECK_EQ_INT(lockrt_release(l), LOCKRT_OK);

            tu_snap(path, &after);
            CHECK(tu_snap_equal(&before, &after));
            CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
            CHECK(unlink(path) == 0);
        }
    }
}

static void release_if_owned_checks_token(void)
{
    tu_write_record("o.lock", getpid(), 0, tu_hostname(), "abcd");
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", tu_token("dcba"), NULL), LOCKRT_ENOTOWNER);
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", "abcd", NULL), LOCKRT_ENOTOWNER); /* whole token */
    CHECK(tu_exists_nofollow("o.lock"));
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", tu_token("abcd"), NULL), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("o.lock"));
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", tu_token("abcd"), NULL), LOCKRT_ENOENT);
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", "", NULL), LOCKRT_EINVAL);
    tu_write_file("o.lock", "garbage");
    CHECK_EQ_INT(lockrt_release_if_owned("o.lock", "abcd", NULL), LOCKRT_ECORRUPT);
    CHECK(tu_exists_nofollow("o.lock"));
}

/* ---- identity-bound unlink ---- */

static void unlink_if_identical_basic(void)
{
    tu_write_file("f", "one\n");
    lockrt_identity id, id2;
    CHECK_EQ_INT(lockrt_identity_of("f", &id), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_identity_of("f", &id2), LOCKRT_OK);
    CHECK(memcmp(&id, &id2, sizeof id) == 0);
    CHECK(id.size == 4);

    /* Same inode, same size, same mtime, different bytes: the hash tells. */
    struct stat st;
    CHECK(stat("f", &st) == 0);
    int fd = open("f", O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, "two\n", 4, 0) == 4);
    close(fd);
    struct timespec ts[2] = {st.st_atim, st.st_mtim};
    CHECK(utimensat(AT_FDCWD, "f", ts, 0) == 0);
    CHECK_EQ_INT(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_EMISMATCH);
    char *s = tu_read_file("f", NULL);
    CHECK(s && strcmp(s, "two\n") == 0);
    free(s);

    CHECK_EQ_INT(lockrt_identity_of("f", &id), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_OK);
    CHECK(!tu_exists_nofollow("f"));
    CHECK_EQ_INT(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_ENOENT);
    CHECK_EQ_INT(lockrt_identity_of("f", &id), LOCKRT_ENOENT);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);
}

static void modify_quarantined(const char *qpath, void *arg)
{
    (void)arg;
    int fd = open(qpath, O_WRONLY | O_APPEND);
    CHECK(fd >= 0 && write(fd, "+", 1) == 1);
    close(fd);
}

static void occupy_name_during_quarantine(const char *qpath, void *arg)
{
    (void)qpath;
    tu_write_file((const char *)arg, "newcomer\n");
}

static void quarantine_mismatch_is_put_back(void)
{
    tu_write_file("q.lock", "judged\n");
    lockrt_identity id;
    CHECK_EQ_INT(lockrt_identity_of("q.lock", &id), LOCKRT_OK);
    lockrt_test_hooks hooks = {NULL, modify_quarantined, NULL};
    CHECK_EQ_INT(lockrt_test_unlink_if_identical("q.lock", &id, &hooks), LOCKRT_EMISMATCH);
    char *s = tu_read_file("q.lock", NULL);
    CHECK(s && strcmp(s, "judged\n+") == 0); /* restored under its own name */
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 0);

    /* The name was taken while ours was in quarantine: nothing is replaced; the
     * quarantined object stays under its quarantine name. */
    CHECK_EQ_INT(lockrt_identity_of("q.lock", &id), LOCKRT_OK);
    lockrt_test_hooks h3 = {NULL, occupy_name_during_quarantine, (void *)"q.lock"};
    /* identical object but the name got occupied: the quarantined one matches and
     * is deleted; the newcomer is untouched */
    CHECK_EQ_INT(lockrt_test_unlink_if_identical("q.lock", &id, &h3), LOCKRT_OK);
    s = tu_read_file("q.lock", NULL);
    CHECK(s && strcmp(s, "newcomer\n") == 0);
    free(s);
}

static int hook_calls;
static void modify_and_occupy(const char *qpath, void *arg)
{
    hook_calls++;
    modify_quarantined(qpath, NULL);
    tu_write_file((const char *)arg, "newcomer\n");
}

static void quarantine_restore_never_replaces(void)
{
    tu_write_file("r.lock", "judged\n");
    lockrt_identity id;
    CHECK_EQ_INT(lockrt_identity_of("r.lock", &id), LOCKRT_OK);
    lockrt_test_hooks hooks = {NULL, modify_and_occupy, (void *)"r.lock"};
    CHECK_EQ_INT(lockrt_test_unlink_if_identical("r.lock", &id, &hooks), LOCKRT_EMISMATCH);
    CHECK_EQ_INT(hook_calls, 1);
    char *s = tu_read_file("r.lock", NULL);
    CHECK(s && strcmp(s, "newcomer\n") == 0);
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", "lockrt-q"), 1); /* the mismatched object, kept */
}

/* ---- confined_path ---- */

static void confined_path_rules(void)
{
    char out[4096];
    CHECK(mkdir("state", 0755) == 0);
    CHECK(mkdir("elsewhere", 0755) == 0);
    tu_write_file("elsewhere/secret", "s");
    CHECK_EQ_INT(lockrt_confined_path("state", "a.json", out, sizeof out), LOCKRT_OK);
    CHECK(strcmp(out, "state/a.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state/", "a.json", out, sizeof out), LOCKRT_OK);
    CHECK(strcmp(out, "state/a.json") == 0);

    /* state dir behind a symlink, target missing: accepted (the realpath bug). */
    CHECK(symlink("state", "link-to-state") == 0);
    CHECK_EQ_INT(lockrt_confined_path("link-to-state", "new.json", out, sizeof out), LOCKRT_OK);
    CHECK(strcmp(out, "link-to-state/new.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path(lrt_path("link-to-state"), "new.json", out, sizeof out), LOCKRT_OK);
    /* existing regular target inside a symlinked dir: accepted */
    tu_write_file("state/old.json", "{}");
    CHECK_EQ_INT(lockrt_confined_path("link-to-state", "old.json", out, sizeof out), LOCKRT_OK);

    /* symlinks at the target */
    CHECK(symlink("../elsewhere/secret", "state/escape.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "escape.json", out, sizeof out), LOCKRT_EESCAPE);
    CHECK_EQ_INT(lockrt_confined_path("link-to-state", "escape.json", out, sizeof out), LOCKRT_EESCAPE);
    CHECK(symlink("/etc/passwd", "state/abs.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "abs.json", out, sizeof out), LOCKRT_EESCAPE);
    CHECK(symlink("../elsewhere/missing", "state/dangling-out.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "dangling-out.json", out, sizeof out), LOCKRT_EESCAPE);
    CHECK(symlink("old.json", "state/inside.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "inside.json", out, sizeof out), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_confined_path("link-to-state", "inside.json", out, sizeof out), LOCKRT_OK);
    CHECK(symlink("not-yet.json", "state/dangling-in.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "dangling-in.json", out, sizeof out), LOCKRT_OK);
    /* a dangling link whose parent component leaves the dir */
    CHECK(symlink("../elsewhere", "state/hop") == 0);
    CHECK(symlink("hop/missing", "state/via-hop.json") == 0);
    CHECK_EQ_INT(lockrt_confined_path("state", "via-hop.json", out, sizeof out), LOCKRT_EESCAPE);

    static const char *const bad[] = {"", ".", "..", "a/b", "/abs", "a\\b", "../x", "a\nb",
                                      "\x01", "tab\there", "del\x7f", "x/"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(lockrt_confined_path("state", bad[i], out, sizeof out), LOCKRT_EESCAPE);
    CHECK_EQ_INT(lockrt_confined_path("state", NULL, out, sizeof out), LOCKRT_EESCAPE);
    CHECK_EQ_INT(lockrt_confined_path("state", "ok", out, 5), LOCKRT_EINVAL); /* too small */
    CHECK_EQ_INT(lockrt_confined_path("", "ok", out, sizeof out), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_confined_path("state", "ok", NULL, 10), LOCKRT_EINVAL);
    /* "..." and names with dots are ordinary names */
    CHECK_EQ_INT(lockrt_confined_path("state", "...", out, sizeof out), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_confined_path("state", ".hidden", out, sizeof out), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_confined_path("state", "sess-\xc3\xa9.json", out, sizeof out), LOCKRT_OK);
}

/* ---- write_atomic ---- */

static void write_atomic_replaces_and_cleans_up(void)
{
    CHECK_EQ_INT(lockrt_write_atomic("w.json", "first\n", 6, 0), LOCKRT_OK);
    char *s = tu_read_file("w.json", NULL);
    CHECK(s && strcmp(s, "first\n") == 0);
    free(s);
    struct stat st;
    CHECK(stat("w.json", &st) == 0);
    CHECK_EQ_INT(st.st_mode & 0777, 0644 & ~(unsigned)umask(022));
    CHECK_EQ_INT(lockrt_write_atomic("w.json", "second\n", 7, 0600), LOCKRT_OK);
    s = tu_read_file("w.json", NULL);
    CHECK(s && strcmp(s, "second\n") == 0);
    free(s);
    CHECK(stat("w.json", &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK_EQ_INT(lockrt_write_atomic("empty", "", 0, 0), LOCKRT_OK);
    CHECK(stat("empty", &st) == 0 && st.st_size == 0);
    CHECK_EQ_INT(lockrt_write_atomic("nodir/w.json", "x", 1, 0), LOCKRT_ENOENT);
    CHECK_EQ_INT(lockrt_write_atomic(lrt_path("abs.json"), "abs", 3, 0), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_write_atomic("", "x", 1, 0), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_write_atomic("x", NULL, 1, 0), LOCKRT_EINVAL);
    CHECK_EQ_INT(lockrt_write_atomic("dir/", "x", 1, 0), LOCKRT_EINVAL);
    CHECK_EQ_INT(tu_count_entries(".", ".tmp"), 0);

    /* A symlink at the target is replaced, never written through. */
    tu_write_file("victim", "precious\n");
    CHECK(symlink("victim", "link.json") == 0);
    CHECK_EQ_INT(lockrt_write_atomic("link.json", "new\n", 4, 0), LOCKRT_OK);
    CHECK(!tu_is_symlink("link.json"));
    s = tu_read_file("victim", NULL);
    CHECK(s && strcmp(s, "precious\n") == 0);
    free(s);
    CHECK_EQ_INT(tu_count_entries(".", ".tmp"), 0);
}

static void write_atomic_readers_never_see_partial(void)
{
    enum { SIZE = 256 * 1024, WRITES = 60 };
    char *a = malloc(SIZE), *b = malloc(SIZE);
    CHECK(a && b);
    memset(a, 'a', SIZE);
    memset(b, 'b', SIZE);
    CHECK_EQ_INT(lockrt_write_atomic("big", a, SIZE, 0), LOCKRT_OK);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        for (int i = 0; i < WRITES; i++)
            if (lockrt_write_atomic("big", i % 2 ? a : b, SIZE, 0) != LOCKRT_OK)
                _exit(1);
        _exit(0);
    }
    int reads = 0, done = 0, st = 0;
    while (!done) {
        done = waitpid(pid, &st, WNOHANG) == pid;
        size_t len;
        char *s = tu_read_file("big", &len);
        CHECK(s != NULL);
        CHECK_EQ_INT(len, SIZE);
        CHECK(memcmp(s, a, SIZE) == 0 || memcmp(s, b, SIZE) == 0);
        free(s);
        reads++;
    }
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(reads > 0);
    CHECK_EQ_INT(tu_count_entries(".", ".tmp"), 0);
    free(a);
    free(b);
}

/* A child forked while the lock is held releases its copy of the handle: the
 * parent keeps the lock (a third process cannot take it) until it releases. */
static void forked_copy_release_keeps_parents_lock(void)
{
    const lockrt_strategy strategies[] = {LOCKRT_STRATEGY_OSLOCK, LOCKRT_STRATEGY_LOCKFILE};
    const char *const paths[] = {"forked-os.lock", "forked-lf.lock"};
    for (size_t s = 0; s < 2; s++) {
        lockrt_options o = opts_for(strategies[s], 0);
        const char *path = paths[s];
        lockrt_lock *held = NULL;
        CHECK_EQ_INT(lockrt_acquire(path, &o, &held), LOCKRT_OK);
        pid_t child = fork();
        CHECK(child >= 0);
        if (child == 0)
            _exit(lockrt_release(held) == LOCKRT_OK ? 0 : 1);
        int st = 0;
        CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0);
        pid_t prober = fork();
        CHECK(prober >= 0);
        if (prober == 0) {
            lockrt_lock *l = NULL;
            _exit(lockrt_acquire(path, &o, &l) == LOCKRT_ETIMEDOUT ? 0 : 1);
        }
        CHECK(waitpid(prober, &st, 0) == prober && WIFEXITED(st));
        CHECK_EQ_INT(WEXITSTATUS(st), 0); /* still held by the parent */
        CHECK_EQ_INT(lockrt_release(held), LOCKRT_OK);
        lockrt_lock *again = NULL;
        CHECK_EQ_INT(lockrt_acquire(path, &o, &again), LOCKRT_OK);
        CHECK_EQ_INT(lockrt_release(again), LOCKRT_OK);
    }
}

/* ---- liveness ---- */

static void process_liveness(void)
{
    uint64_t st = 0;
    CHECK_EQ_INT(lockrt_process_start_time(getpid(), &st), LOCKRT_OK);
    CHECK_EQ_INT(lockrt_process_alive(getpid(), 0), LOCKRT_ALIVE);
    CHECK_EQ_INT(lockrt_process_alive(getpid(), st), LOCKRT_ALIVE);
    CHECK_EQ_INT(lockrt_process_alive(getpid(), st + 1), LOCKRT_DEAD); /* pid reused */
    pid_t dead = tu_dead_pid();
    CHECK_EQ_INT(lockrt_process_alive(dead, 0), LOCKRT_DEAD);
    uint64_t dst;
    CHECK_EQ_INT(lockrt_process_start_time(dead, &dst), LOCKRT_ENOENT);

    /* A zombie has exited: it holds nothing, though kill(pid, 0) still finds it. */
    pid_t z = fork();
    CHECK(z >= 0);
    if (z == 0)
        _exit(0);
    for (int i = 0; i < 2000; i++) {
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)z);
        int fd = open(path, O_RDONLY);
        CHECK(fd >= 0);
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        CHECK(n > 0);
        buf[n] = 0;
        if (strstr(buf, ") Z "))
            break;
        usleep(1000);
    }
    CHECK(kill(z, 0) == 0);
    CHECK_EQ_INT(lockrt_process_alive(z, 0), LOCKRT_DEAD);
    int ws;
    CHECK(waitpid(z, &ws, 0) == z);

    /* Numbers that cannot name a process here: never read as dead (kill() would
     * take 0 and negatives as process groups). More in the shared vectors. */
    CHECK_EQ_INT(lockrt_process_alive(0, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive(-1, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive(-5, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive(INT64_MIN, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive((int64_t)1 << 31, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive((int64_t)1 << 40, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_alive(INT64_MAX, 0), LOCKRT_UNKNOWN);
    CHECK_EQ_INT(lockrt_process_start_time(0, &st), LOCKRT_EINVAL);
}

int main(int argc, char **argv)
{
    static const lrt_test tests[] = {
        LRT_TEST(strerror_covers_every_code),
        LRT_TEST(options_defaults),
        LRT_TEST(lockfile_record_format),
        LRT_TEST(owner_record_parser),
        LRT_TEST(oslock_excludes_and_keeps_file),
        LRT_TEST(oslock_relocks_when_name_replaced),
        LRT_TEST(lockfile_excludes_and_removes_record),
        LRT_TEST(release_detects_replaced_record),
        LRT_TEST(strategy_from_env_and_options),
        LRT_TEST(null_options_mean_defaults),
        LRT_TEST(mixed_strategies_exclude),
        LRT_TEST(symlink_refused_by_acquire),
        LRT_TEST(symlink_refused_by_removals),
        LRT_TEST(release_refuses_symlink),
        LRT_TEST(symlink_swapped_into_quarantine_is_restored),
        LRT_TEST(special_files_refused),
        LRT_TEST(missing_directory_is_enoent),
        LRT_TEST(reclaim_dead_owner),
        LRT_TEST(reclaim_keeps_live_and_foreign_owners),
        LRT_TEST(nonrecord_grace_then_ecorrupt),
        LRT_TEST(foreign_files_are_never_removed),
        LRT_TEST(release_if_owned_checks_token),
        LRT_TEST(unlink_if_identical_basic),
        LRT_TEST(quarantine_mismatch_is_put_back),
        LRT_TEST(quarantine_restore_never_replaces),
        LRT_TEST(confined_path_rules),
        LRT_TEST(write_atomic_replaces_and_cleans_up),
        LRT_TEST(write_atomic_readers_never_see_partial),
        LRT_TEST(forked_copy_release_keeps_parents_lock),
        LRT_TEST(process_liveness),
    };
    return lrt_run(tests, sizeof tests / sizeof tests[0], argc, argv);
}
