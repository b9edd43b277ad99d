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

void tu_write_record(const char *path, int64_t pid, uint64_t start_time, const char *host,
                     const char *token)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "{\"pid\":%lld,\"start_time\":%llu,\"host\":\"%s\",\"token\":\"%s\"}\n",
             (long long)pid, (unsigned long long)start_time, host, token);
    tu_write_file(path, buf);
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
