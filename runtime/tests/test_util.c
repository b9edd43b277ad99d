#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void tu_write_file(const char *path, const char *content)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    size_t n = strlen(content);
    CHECK(write(fd, content, n) == (ssize_t)n);
    CHECK(close(fd) == 0);
}

char *tu_read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    CHECK(buf != NULL);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            CHECK(buf != NULL);
        }
        ssize_t got = read(fd, buf + n, cap - n);
        CHECK(got >= 0);
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

bool tu_exists_nofollow(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

bool tu_is_symlink(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

const char *tu_token(const char *tag)
{
    static char bufs[4][33];
    static int next;
    char *t = bufs[next++ % 4];
    size_t n = strlen(tag);
    CHECK(n <= 32);
    memset(t, '0', 32);
    memcpy(t, tag, n);
    t[32] = '\0';
    return t;
}

void tu_write_record(const char *path, int64_t pid, uint64_t start_time, const char *host,
                     const char *tag)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "{\"pid\":%lld,\"start_time\":%llu,\"host\":\"%s\",\"token\":\"%s\"}\n",
             (long long)pid, (unsigned long long)start_time, host, tu_token(tag));
    tu_write_file(path, buf);
}

uint64_t tu_make_sparse(const char *path, const char *head, const char *tail)
{
    static const uint64_t sizes[] = {(uint64_t)1 << 40, (uint64_t)1 << 36, (uint64_t)1 << 32};
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    size_t hl = strlen(head), tl = strlen(tail);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t size = sizes[i];
        if (ftruncate(fd, (off_t)size) != 0)
            continue; /* EFBIG: a smaller one */
        CHECK(pwrite(fd, head, hl, 0) == (ssize_t)hl);
        CHECK(pwrite(fd, tail, tl, (off_t)(size - tl)) == (ssize_t)tl);
        CHECK(close(fd) == 0);
        return size;
    }
    CHECK(!"no sparse file of at least 4 GiB on this filesystem");
    return 0;
}

void tu_age(const char *path, int seconds_ago)
{
    struct timespec ts[2];
    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec -= seconds_ago;
    ts[1] = ts[0];
    CHECK(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) == 0);
}

static size_t read_at(int fd, char *buf, size_t n, off_t off)
{
    ssize_t got = pread(fd, buf, n, off);
    CHECK(got >= 0);
    return (size_t)got;
}

void tu_snap(const char *path, tu_snapshot *out)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->blocks = (uint64_t)st.st_blocks;
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    out->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    CHECK(fd >= 0);
    out->head_len = read_at(fd, out->head, sizeof out->head, 0);
    off_t tail_off = st.st_size > (off_t)sizeof out->tail ? st.st_size - (off_t)sizeof out->tail : 0;
    out->tail_len = read_at(fd, out->tail, sizeof out->tail, tail_off);
    if (out->size <= (64u << 20)) {
        uint64_t h = 0xcbf29ce484222325ULL;
        char chunk[65536];
        off_t off = 0;
        size_t got;
        while ((got = read_at(fd, chunk, sizeof chunk, off)) > 0) {
            for (size_t i = 0; i < got; i++)
                h = (h ^ (unsigned char)chunk[i]) * 0x100000001b3ULL;
            off += (off_t)got;
        }
        out->content_hash = h;
    }
    close(fd);
}

bool tu_snap_equal(const tu_snapshot *a, const tu_snapshot *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->blocks == b->blocks &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns &&
           a->head_len == b->head_len && a->tail_len == b->tail_len &&
           memcmp(a->head, b->head, a->head_len) == 0 && memcmp(a->tail, b->tail, a->tail_len) == 0 &&
           a->content_hash == b->content_hash;
}

uint64_t tu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

pid_t tu_dead_pid(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        _exit(0);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    return pid;
}

pid_t tu_spawn_sleeper(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        for (;;)
            pause();
    }
    return pid;
}

void tu_kill_and_reap(pid_t pid)
{
    kill(pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
}

const char *tu_hostname(void)
{
    static char host[256];
    CHECK(gethostname(host, sizeof host) == 0);
    host[sizeof host - 1] = '\0';
    return host;
}

int tu_count_entries(const char *dir, const char *needle)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, needle))
            n++;
    closedir(d);
    return n;
}
