/*
 * lockrt tests for Windows, run under Wine by run_wine_tests.sh (or natively).
 * Windows has no fork(): multi-process cases spawn this program again in a
 * helper mode with CreateProcessW.
 *
 *   lockrt_wintest                       run every test (each in its own subdir)
 *   lockrt_wintest hold LOCK STRATEGY READY   acquire, create READY, sleep forever
 *   lockrt_wintest contend LOCK STRATEGY TIMEOUT_MS   exit 0 acquired, 3 timed out
 *   lockrt_wintest exit                  exit at once (a pid that then is dead)
 *   lockrt_wintest crt-hold LOCK READY   lock LOCK as old Python code does with
 *                                        msvcrt.locking(fd, LK_NBLCK, 1), create READY, sleep
 *   lockrt_wintest crt-try LOCK          exit 0 if msvcrt-style locking of LOCK succeeds, 3 if held
 */
#include <windows.h>

#include <fcntl.h>
#include <io.h>
#include <sys/locking.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockrt.h"
#include "lockrt_test_hooks.h"

static int failures;
static const char *current;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            printf("    %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
            failures++;                                                                 \
            return;                                                                     \
        }                                                                               \
    } while (0)
#define CHECK_EQ(a, b)                                                                  \
    do {                                                                                \
        long long a_ = (long long)(a), b_ = (long long)(b);                             \
        if (a_ != b_) {                                                                 \
            printf("    %s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__,     \
                   __LINE__, #a, a_, #b, b_);                                           \
            failures++;                                                                 \
            return;                                                                     \
        }                                                                               \
    } while (0)

static char self_exe[MAX_PATH * 2];

static lockrt_options opts_for(lockrt_strategy s, int64_t timeout_ms)
{
    lockrt_options o;
    lockrt_options_init(&o);
    o.strategy = s;
    o.timeout_ms = timeout_ms;
    return o;
}

static lockrt_strategy parse_strategy(const char *s)
{
    return strcmp(s, "lockfile") == 0 ? LOCKRT_STRATEGY_LOCKFILE : LOCKRT_STRATEGY_OSLOCK;
}

static void write_file(const char *path, const char *content)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

static int exists(const char *path)
{
    return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES;
}

static int count_entries(const char *needle)
{
    WIN32_FIND_DATAA fd;
    HANDLE h = FindFirstFileA("*", &fd);
    int n = 0;
    if (h == INVALID_HANDLE_VALUE)
        return 0;
    do {
        if (strstr(fd.cFileName, needle))
            n++;
    } while (FindNextFileA(h, &fd));
    FindClose(h);
    return n;
}

static HANDLE spawn_self(const char *args, DWORD *pid)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "\"%s\" %s", self_exe, args);
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    ZeroMemory(&si, sizeof si);
    si.cb = sizeof si;
    /* Under a loaded Wine, process creation occasionally fails transiently. */
    BOOL ok = FALSE;
    for (int attempt = 0; attempt < 5 && !ok; attempt++) {
        ok = CreateProcessA(self_exe, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
        if (!ok) {
            printf("    CreateProcess failed (%lu), attempt %d\n", GetLastError(), attempt + 1);
            Sleep(100);
        }
    }
    if (!ok)
        return NULL;
    CloseHandle(pi.hThread);
    if (pid)
        *pid = pi.dwProcessId;
    return pi.hProcess;
}

static DWORD wait_exit(HANDLE h)
{
    DWORD code = 999;
    WaitForSingleObject(h, INFINITE);
    GetExitCodeProcess(h, &code);
    CloseHandle(h);
    return code;
}

/* The 32-digit token for a short hex tag (right-padded with '0'). */
static const char *token_of(const char *tag)
{
    static char bufs[4][33];
    static int next;
    char *t = bufs[next++ % 4];
    memset(t, '0', 32);
    memcpy(t, tag, strlen(tag) < 32 ? strlen(tag) : 32);
    t[32] = '\0';
    return t;
}

/* An owner record in the exact form lockrt writes. */
static void write_record(const char *path, long long pid, unsigned long long st, const char *host,
                         const char *tag)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "{\"pid\":%lld,\"start_time\":%llu,\"host\":\"%s\",\"token\":\"%s\"}\n",
             pid, st, host, token_of(tag));
    write_file(path, buf);
}

static const char *hostname(void)
{
    static char host[256];
    wchar_t w[256];
    DWORD n = 256;
    GetComputerNameExW(ComputerNameDnsHostname, w, &n);
    WideCharToMultiByte(CP_UTF8, 0, w, -1, host, sizeof host, NULL, NULL);
    return host;
}

static DWORD dead_pid(void)
{
    DWORD pid = 0;
    HANDLE h = spawn_self("exit", &pid);
    if (!h)
        return 0;
    wait_exit(h);
    return pid;
}

/* ---- tests ---- */

static void strerror_covers_every_code(void)
{
    for (int code = 0; code >= -13; code--) {
        CHECK(lockrt_strerror(code) != NULL);
        CHECK(strcmp(lockrt_strerror(code), lockrt_strerror(-99)) != 0);
    }
    CHECK(strcmp(lockrt_strerror(-14), lockrt_strerror(-99)) == 0);
}

static void oslock_excludes_and_keeps_file(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ(lockrt_acquire("os.lock", &o, &a), LOCKRT_OK);
    CHECK_EQ(lockrt_lock_strategy(a), LOCKRT_STRATEGY_OSLOCK);
    CHECK_EQ(lockrt_acquire("os.lock", &o, &b), LOCKRT_ETIMEDOUT);
    HANDLE c = spawn_self("contend os.lock oslock 100", NULL);
    CHECK(c != NULL);
    CHECK_EQ(wait_exit(c), 3);
    CHECK_EQ(lockrt_release(a), LOCKRT_OK);
    CHECK(exists("os.lock"));
    c = spawn_self("contend os.lock oslock 5000", NULL);
    CHECK_EQ(wait_exit(c), 0);
}

static void lockfile_record_and_release(void)
{
    lockrt_options o = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ(lockrt_acquire("lf.lock", &o, &a), LOCKRT_OK);
    const char *token = lockrt_lock_token(a);
    CHECK(strlen(token) == 32);
    unsigned long long st = 0;
    uint64_t st64 = 0;
    CHECK_EQ(lockrt_process_start_time(GetCurrentProcessId(), &st64), LOCKRT_OK);
    st = st64;
    char want[1024];
    snprintf(want, sizeof want, "{\"pid\":%lu,\"start_time\":%llu,\"host\":\"%s\",\"token\":\"%s\"}\n",
             (unsigned long)GetCurrentProcessId(), st, hostname(), token);
    char *got = read_file("lf.lock");
    CHECK(got && strcmp(got, want) == 0);
    free(got);
    CHECK_EQ(lockrt_acquire("lf.lock", &o, &b), LOCKRT_ETIMEDOUT);
    HANDLE c = spawn_self("contend lf.lock lockfile 100", NULL);
    CHECK_EQ(wait_exit(c), 3);
    CHECK_EQ(lockrt_release(a), LOCKRT_OK);
    CHECK(!exists("lf.lock"));
    c = spawn_self("contend lf.lock lockfile 5000", NULL);
    CHECK_EQ(wait_exit(c), 0);
    CHECK(!exists("lf.lock"));
}

static void liveness(void)
{
    uint64_t st = 0;
    DWORD me = GetCurrentProcessId();
    CHECK_EQ(lockrt_process_start_time(me, &st), LOCKRT_OK);
    CHECK_EQ(lockrt_process_alive(me, 0), LOCKRT_ALIVE);
    CHECK_EQ(lockrt_process_alive(me, st), LOCKRT_ALIVE);
    CHECK_EQ(lockrt_process_alive(me, st + 1), LOCKRT_DEAD);
    DWORD dead = dead_pid();
    CHECK(dead != 0);
    CHECK_EQ(lockrt_process_alive(dead, 0), LOCKRT_DEAD);
    CHECK_EQ(lockrt_process_alive(0, 0), LOCKRT_UNKNOWN);
    CHECK_EQ(lockrt_process_alive(-5, 0), LOCKRT_UNKNOWN);
    CHECK_EQ(lockrt_process_alive((int64_t)1 << 32, 0), LOCKRT_UNKNOWN);
    CHECK_EQ(lockrt_process_alive(INT64_MAX, 0), LOCKRT_UNKNOWN);
}

static void reclaim_rules(void)
{
    DWORD dead = dead_pid();
    write_record("d.lock", dead, 5, hostname(), "0123");
    CHECK_EQ(lockrt_reclaim_if_stale("d.lock", NULL), LOCKRT_OK);
    CHECK(!exists("d.lock"));
    uint64_t st = 0;
    CHECK_EQ(lockrt_process_start_time(GetCurrentProcessId(), &st), LOCKRT_OK);
    write_record("l.lock", GetCurrentProcessId(), st, hostname(), "0123");
    CHECK_EQ(lockrt_reclaim_if_stale("l.lock", NULL), LOCKRT_ENOTSTALE);
    write_record("r.lock", GetCurrentProcessId(), st + 99, hostname(), "0123");
    CHECK_EQ(lockrt_reclaim_if_stale("r.lock", NULL), LOCKRT_OK); /* pid reused */
    write_record("f.lock", dead, 5, "another-host", "0123");
    CHECK_EQ(lockrt_reclaim_if_stale("f.lock", NULL), LOCKRT_ENOTSTALE);
    write_record("o.lock", GetCurrentProcessId(), st, hostname(), "abcd");
    CHECK_EQ(lockrt_release_if_owned("o.lock", token_of("dcba"), NULL), LOCKRT_ENOTOWNER);
    CHECK_EQ(lockrt_release_if_owned("o.lock", token_of("abcd"), NULL), LOCKRT_OK);
    CHECK(!exists("o.lock"));
}

static void install_successor(const char *lock_path, void *arg)
{
    (void)arg;
    DeleteFileA(lock_path);
    uint64_t st = 0;
    lockrt_process_start_time(GetCurrentProcessId(), &st);
    write_record(lock_path, GetCurrentProcessId(), st, hostname(), "5cce55");
}

static void successor_survives_reclaim(void)
{
    DWORD dead = dead_pid();
    write_record("s.lock", dead, 0, hostname(), "dead");
    lockrt_test_hooks hooks = {install_successor, NULL, NULL};
    CHECK_EQ(lockrt_test_reclaim_if_stale("s.lock", &hooks), LOCKRT_EMISMATCH);
    lockrt_owner owner;
    CHECK_EQ(lockrt_owner_read("s.lock", &owner), LOCKRT_OK);
    CHECK(strcmp(owner.token, token_of("5cce55")) == 0);
}

static void unlink_if_identical_binds_identity(void)
{
    write_file("f", "one\n");
    lockrt_identity id;
    CHECK_EQ(lockrt_identity_of("f", &id), LOCKRT_OK);
    write_file("f", "two\n");
    CHECK_EQ(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_EMISMATCH);
    CHECK(exists("f"));
    CHECK_EQ(lockrt_identity_of("f", &id), LOCKRT_OK);
    CHECK_EQ(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_OK);
    CHECK(!exists("f"));
    CHECK_EQ(lockrt_unlink_if_identical("f", &id, NULL), LOCKRT_ENOENT);
}

static void write_atomic_and_no_temp(void)
{
    CHECK_EQ(lockrt_write_atomic("w.json", "first\n", 6, 0), LOCKRT_OK);
    /* a reader holding the file open with ordinary sharing (no FILE_SHARE_DELETE)
     * is waited out, not failed on */
    HANDLE r = CreateFileA("w.json", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, 0, NULL);
    CHECK(r != INVALID_HANDLE_VALUE);
    CloseHandle(r);
    CHECK_EQ(lockrt_write_atomic("w.json", "second\n", 7, 0), LOCKRT_OK);
    char *s = read_file("w.json");
    CHECK(s && strcmp(s, "second\n") == 0);
    free(s);
    CHECK_EQ(lockrt_write_atomic("nodir\\w.json", "x", 1, 0), LOCKRT_ENOENT);
    CHECK_EQ(count_entries(".tmp"), 0);
}

static void confined_path_names(void)
{
    char out[1024];
    CreateDirectoryA("state", NULL);
    CHECK_EQ(lockrt_confined_path("state", "a.json", out, sizeof out), LOCKRT_OK);
    CHECK(strcmp(out, "state\\a.json") == 0);
    static const char *const bad[] = {"", ".", "..", "a/b", "a\\b", "c:x", "a:stream", "a\nb",
                                      "x?", "x*", "trail.", "trail "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(lockrt_confined_path("state", bad[i], out, sizeof out), LOCKRT_EESCAPE);
}

static void symlink_refused(void)
{
    write_file("victim", "precious\n");
    if (!CreateSymbolicLinkA("sym.lock", "victim", 0x2 /* ALLOW_UNPRIVILEGED_CREATE */) &&
        !CreateSymbolicLinkA("sym.lock", "victim", 0)) {
        printf("    (symbolic links unavailable here: %lu; check skipped)\n", GetLastError());
        return;
    }
    DWORD attrs = GetFileAttributesA("sym.lock");
    if (attrs == INVALID_FILE_ATTRIBUTES || !(attrs & FILE_ATTRIBUTE_REPARSE_POINT)) {
        printf("    (symlink is not a reparse point here; check skipped)\n");
        return;
    }
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 100);
    lockrt_lock *l = NULL;
    CHECK_EQ(lockrt_acquire("sym.lock", &o, &l), LOCKRT_ESYMLINK);
    o.strategy = LOCKRT_STRATEGY_LOCKFILE;
    CHECK_EQ(lockrt_acquire("sym.lock", &o, &l), LOCKRT_ESYMLINK);
    CHECK_EQ(lockrt_reclaim_if_stale("sym.lock", NULL), LOCKRT_ESYMLINK);
    lockrt_identity id;
    memset(&id, 0, sizeof id);
    CHECK_EQ(lockrt_unlink_if_identical("sym.lock", &id, NULL), LOCKRT_ESYMLINK);
    attrs = GetFileAttributesA("sym.lock");
    CHECK(attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_REPARSE_POINT));
    char *s = read_file("victim");
    CHECK(s && strcmp(s, "precious\n") == 0);
    free(s);
}

static void age_file_by(const char *path, unsigned long long seconds)
{
    HANDLE h = CreateFileA(path, FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, 0, NULL);
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    ULARGE_INTEGER u;
    u.LowPart = ft.dwLowDateTime;
    u.HighPart = ft.dwHighDateTime;
    u.QuadPart -= seconds * 10000000ULL;
    ft.dwLowDateTime = u.LowPart;
    ft.dwHighDateTime = u.HighPart;
    SetFileTime(h, NULL, NULL, &ft);
    CloseHandle(h);
}

static void age_file(const char *path)
{
    age_file_by(path, 120);
}

/* What identifies a file and its bytes: index, size, write time, content. */
typedef struct {
    BY_HANDLE_FILE_INFORMATION info;
    unsigned long long hash;
} snapshot;

static int snap(const char *path, snapshot *out)
{
    memset(out, 0, sizeof *out);
    HANDLE h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(h, &out->info))
        return 0;
    out->info.ftLastAccessTime.dwLowDateTime = out->info.ftLastAccessTime.dwHighDateTime = 0;
    unsigned long long hv = 0xcbf29ce484222325ULL;
    char chunk[65536];
    DWORD got;
    while (ReadFile(h, chunk, sizeof chunk, &got, NULL) && got > 0)
        for (DWORD i = 0; i < got; i++)
            hv = (hv ^ (unsigned char)chunk[i]) * 0x100000001b3ULL;
    out->hash = hv;
    CloseHandle(h);
    return 1;
}

/* A file at a lock path that is not an owner record is never removed, whatever
 * its age or size; the wait ends within its timeout. */
static void foreign_files_are_never_removed(void)
{
    static const char *const kinds[] = {"big", "garbage", "empty", "trailing"};
    DWORD dead = dead_pid();
    char rec[512];
    snprintf(rec, sizeof rec, "{\"pid\":%lu,\"start_time\":0,\"host\":\"%s\",\"token\":\"%s\"}\n",
             (unsigned long)dead, hostname(), token_of("f0"));
    for (int k = 0; k < 4; k++) {
        for (int old = 0; old < 2; old++) {
            char path[64];
            snprintf(path, sizeof path, "%s-%d.lock", kinds[k], old);
            if (k == 0) { /* 2 MB that begins like a dead owner's record */
                FILE *f = fopen(path, "wb");
                CHECK(f != NULL);
                fputs(rec, f);
                for (int i = 0; i < 2 * 1024 * 1024; i++)
                    fputc('x', f);
                fclose(f);
            } else if (k == 1) {
                write_file(path, "\x01\xfe garbage \x7f{\"pid\":");
            } else if (k == 2) {
                write_file(path, "");
            } else {
                char buf[600];
                snprintf(buf, sizeof buf, "%sx", rec);
                write_file(path, buf);
            }
            if (old)
                age_file_by(path, 10ULL * 365 * 24 * 3600);
            snapshot before, after;
            CHECK(snap(path, &before));
            lockrt_owner owner;
            CHECK_EQ(lockrt_owner_read(path, &owner), LOCKRT_ECORRUPT);
            CHECK_EQ(lockrt_reclaim_if_stale(path, NULL), LOCKRT_ECORRUPT);
            lockrt_options lf = opts_for(LOCKRT_STRATEGY_LOCKFILE, 300);
            lockrt_lock *l = NULL;
            DWORD t0 = GetTickCount();
            CHECK_EQ(lockrt_acquire(path, &lf, &l), old ? LOCKRT_ECORRUPT : LOCKRT_ETIMEDOUT);
            CHECK(GetTickCount() - t0 < 10000); /* a hang guard, not a timing test */
            lockrt_options os = opts_for(LOCKRT_STRATEGY_OSLOCK, 300);
            CHECK_EQ(lockrt_acquire(path, &os, &l), LOCKRT_OK);
            CHECK_EQ(lockrt_release(l), LOCKRT_OK);
            CHECK(snap(path, &after));
            CHECK(before.hash == after.hash);
            CHECK(before.info.nFileIndexHigh == after.info.nFileIndexHigh &&
                  before.info.nFileIndexLow == after.info.nFileIndexLow);
            CHECK(before.info.nFileSizeHigh == after.info.nFileSizeHigh &&
                  before.info.nFileSizeLow == after.info.nFileSizeLow);
            CHECK(CompareFileTime(&before.info.ftLastWriteTime, &after.info.ftLastWriteTime) == 0);
        }
    }
}

static void mixed_strategies_exclude(void)
{
    lockrt_options os = opts_for(LOCKRT_STRATEGY_OSLOCK, 0);
    lockrt_options lf = opts_for(LOCKRT_STRATEGY_LOCKFILE, 0);
    lockrt_lock *a = NULL, *b = NULL;
    CHECK_EQ(lockrt_acquire("m.lock", &os, &a), LOCKRT_OK);
    CHECK_EQ(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ETIMEDOUT); /* young: held */
    age_file("m.lock");
    CHECK_EQ(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ECORRUPT); /* an OS-lock file: not a record */
    CHECK(exists("m.lock"));
    CHECK_EQ(lockrt_release(a), LOCKRT_OK);
    CHECK_EQ(lockrt_acquire("m.lock", &lf, &b), LOCKRT_ECORRUPT); /* idle: still never removed */
    CHECK(exists("m.lock"));
    CHECK(DeleteFileA("m.lock"));
    CHECK_EQ(lockrt_acquire("m.lock", &lf, &b), LOCKRT_OK);
    CHECK_EQ(lockrt_acquire("m.lock", &os, &a), LOCKRT_ETIMEDOUT);
    HANDLE c = spawn_self("contend m.lock oslock 100", NULL);
    CHECK_EQ(wait_exit(c), 3);
    CHECK_EQ(lockrt_release(b), LOCKRT_OK);
    CHECK_EQ(lockrt_acquire("m.lock", &os, &a), LOCKRT_OK);
    CHECK_EQ(lockrt_release(a), LOCKRT_OK);
}

/* LF101's fix replaces `msvcrt.locking(fd, LK_LOCK/LK_NBLCK, 1)` on a file
 * opened at offset 0 with lockrt. During a rollout old and patched processes
 * run side by side, so the two must exclude each other: Python's
 * msvcrt.locking is the CRT's _locking() (LockFile on [pos, pos+n)), and
 * lockrt's OS lock is LockFileEx on byte 0, length 1. Windows byte-range
 * locks conflict across handles and processes, whoever took them. */
static int crt_lock(const char *path, int *fd_out)
{
    int fd = _open(path, _O_RDWR | _O_CREAT | _O_BINARY, 0644);
    if (fd < 0)
        return -1;
    if (_locking(fd, _LK_NBLCK, 1) != 0) {
        _close(fd);
        return 1;
    }
    *fd_out = fd;
    return 0;
}

static void msvcrt_locking_and_oslock_exclude(void)
{
    /* Old code holds, patched code waits. */
    DeleteFileA("ready");
    HANDLE h = spawn_self("crt-hold crt.lock ready", NULL);
    CHECK(h != NULL);
    for (int i = 0; i < 3000 && !exists("ready"); i++)
        Sleep(5);
    CHECK(exists("ready"));
    lockrt_options o = opts_for(LOCKRT_STRATEGY_OSLOCK, 300);
    lockrt_lock *l = NULL;
    CHECK_EQ(lockrt_acquire("crt.lock", &o, &l), LOCKRT_ETIMEDOUT);
    CHECK(TerminateProcess(h, 9));
    CHECK_EQ(wait_exit(h), 9);
    o.timeout_ms = 10000;
    CHECK_EQ(lockrt_acquire("crt.lock", &o, &l), LOCKRT_OK);
    /* Patched code holds, old code is refused (another process). */
    HANDLE c = spawn_self("crt-try crt.lock", NULL);
    CHECK(c != NULL);
    CHECK_EQ(wait_exit(c), 3);
    CHECK_EQ(lockrt_release(l), LOCKRT_OK);
    c = spawn_self("crt-try crt.lock", NULL);
    CHECK(c != NULL);
    CHECK_EQ(wait_exit(c), 0);
}

static void killed_holder(const char *strategy, int trials)
{
    for (int t = 0; t < trials; t++) {
        char args[512];
        DeleteFileA("ready");
        snprintf(args, sizeof args, "hold k.lock %s ready", strategy);
        HANDLE h = spawn_self(args, NULL);
        CHECK(h != NULL);
        for (int i = 0; i < 3000 && !exists("ready"); i++)
            Sleep(5);
        CHECK(exists("ready"));
        CHECK(TerminateProcess(h, 9));
        CHECK_EQ(wait_exit(h), 9);
        lockrt_options o = opts_for(parse_strategy(strategy), 10000);
        lockrt_lock *l = NULL;
        CHECK_EQ(lockrt_acquire("k.lock", &o, &l), LOCKRT_OK); /* within the bound */
        CHECK_EQ(lockrt_release(l), LOCKRT_OK);
    }
}

static void killed_holder_lockfile(void)
{
    killed_holder("lockfile", 10);
    CHECK(!exists("k.lock"));
}

static void killed_holder_oslock(void)
{
    killed_holder("oslock", 10);
}

/* ---- driver ---- */

typedef struct {
    const char *name;
    void (*fn)(void);
} test;

static int run_all(void)
{
    static const test tests[] = {
        {"strerror_covers_every_code", strerror_covers_every_code},
        {"oslock_excludes_and_keeps_file", oslock_excludes_and_keeps_file},
        {"msvcrt_locking_and_oslock_exclude", msvcrt_locking_and_oslock_exclude},
        {"lockfile_record_and_release", lockfile_record_and_release},
        {"liveness", liveness},
        {"reclaim_rules", reclaim_rules},
        {"successor_survives_reclaim", successor_survives_reclaim},
        {"unlink_if_identical_binds_identity", unlink_if_identical_binds_identity},
        {"write_atomic_and_no_temp", write_atomic_and_no_temp},
        {"confined_path_names", confined_path_names},
        {"symlink_refused", symlink_refused},
        {"mixed_strategies_exclude", mixed_strategies_exclude},
        {"foreign_files_are_never_removed", foreign_files_are_never_removed},
        {"killed_holder_lockfile", killed_holder_lockfile},
        {"killed_holder_oslock", killed_holder_oslock},
    };
    int failed_tests = 0;
    char base[MAX_PATH];
    GetCurrentDirectoryA(sizeof base, base);
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        char dir[MAX_PATH * 2];
        snprintf(dir, sizeof dir, "%s\\wt-%s-%lu", base, tests[i].name, (unsigned long)GetTickCount());
        CreateDirectoryA(dir, NULL);
        SetCurrentDirectoryA(dir);
        current = tests[i].name;
        int before = failures;
        DWORD t0 = GetTickCount();
        tests[i].fn();
        printf("%s %-40s %6lu ms\n", failures == before ? "ok  " : "FAIL", tests[i].name,
               (unsigned long)(GetTickCount() - t0));
        fflush(stdout);
        if (failures != before)
            failed_tests++;
        SetCurrentDirectoryA(base);
    }
    printf("%d failed\n", failed_tests);
    return failed_tests ? 1 : 0;
}

int main(int argc, char **argv)
{
    GetModuleFileNameA(NULL, self_exe, sizeof self_exe);
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc >= 2 && strcmp(argv[1], "exit") == 0)
        return 0;
    if (argc >= 5 && strcmp(argv[1], "hold") == 0) {
        lockrt_options o = opts_for(parse_strategy(argv[3]), 10000);
        lockrt_lock *l = NULL;
        if (lockrt_acquire(argv[2], &o, &l) != LOCKRT_OK)
            return 2;
        write_file(argv[4], "ready");
        Sleep(INFINITE);
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "contend") == 0) {
        lockrt_options o = opts_for(parse_strategy(argv[3]), atol(argv[4]));
        lockrt_lock *l = NULL;
        int rc = lockrt_acquire(argv[2], &o, &l);
        if (rc == LOCKRT_ETIMEDOUT)
            return 3;
        if (rc != LOCKRT_OK)
            return 4;
        return lockrt_release(l) == LOCKRT_OK ? 0 : 5;
    }
    if (argc >= 4 && strcmp(argv[1], "crt-hold") == 0) {
        int fd;
        if (crt_lock(argv[2], &fd) != 0)
            return 2;
        write_file(argv[3], "ready");
        Sleep(INFINITE);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "crt-try") == 0) {
        int fd;
        int rc = crt_lock(argv[2], &fd);
        if (rc < 0)
            return 4;
        if (rc > 0)
            return 3;
        _locking(fd, _LK_UNLCK, 1);
        _close(fd);
        return 0;
    }
    if (argc == 1)
        return run_all();
    fprintf(stderr, "usage: lockrt_wintest [hold LOCK S READY | contend LOCK S MS | crt-hold LOCK READY | crt-try LOCK | exit]\n");
    return 2;
}
