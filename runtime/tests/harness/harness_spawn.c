/* Process spawning and file reading for the harness: posix_spawn on Unix,
 * CreateProcessW on Windows (which has no fork). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>

static wchar_t *widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w)
        MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
    return w;
}

int hs_self_path(char *buf, size_t cap)
{
    wchar_t w[MAX_PATH * 2];
    DWORD n = GetModuleFileNameW(NULL, w, (DWORD)(sizeof w / sizeof w[0]));
    if (n == 0 || n >= sizeof w / sizeof w[0])
        return -1;
    return WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)cap, NULL, NULL) > 0 ? 0 : -1;
}

/* Quote one argument the way CommandLineToArgvW / the CRT parse it. */
static void append_quoted(char **cmd, size_t *len, size_t *cap, const char *arg)
{
    size_t need = *len + strlen(arg) * 2 + 4;
    if (need > *cap) {
        *cap = need * 2;
        *cmd = realloc(*cmd, *cap);
    }
    char *o = *cmd + *len;
    *o++ = '"';
    size_t backslashes = 0;
    for (const char *p = arg; *p; p++) {
        if (*p == '\\') {
            backslashes++;
        } else if (*p == '"') {
            for (size_t i = 0; i < backslashes + 1; i++)
                *o++ = '\\';
            backslashes = 0;
        } else {
            backslashes = 0;
        }
        *o++ = *p;
    }
    for (size_t i = 0; i < backslashes; i++)
        *o++ = '\\';
    *o++ = '"';
    *o++ = ' ';
    *o = '\0';
    *len = (size_t)(o - *cmd);
}

int hs_spawn(const char *exe, const char *const *argv, hs_proc *proc)
{
    size_t len = 0, cap = 256;
    char *cmd = malloc(cap);
    if (!cmd)
        return -1;
    cmd[0] = '\0';
    for (size_t i = 0; argv[i]; i++)
        append_quoted(&cmd, &len, &cap, argv[i]);
    wchar_t *wcmd = widen(cmd), *wexe = widen(exe);
    free(cmd);
    if (!wcmd || !wexe) {
        free(wcmd);
        free(wexe);
        return -1;
    }
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    BOOL ok = FALSE;
    for (int attempt = 0; attempt < 5 && !ok; attempt++) {
        ok = CreateProcessW(wexe, wcmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
        if (!ok) {
            fprintf(stderr, "lockrt_harness: CreateProcessW failed (%lu), attempt %d\n",
                    (unsigned long)GetLastError(), attempt + 1);
            Sleep(100); /* seen transiently under a loaded Wine */
        }
    }
    free(wcmd);
    free(wexe);
    if (!ok)
        return -1;
    CloseHandle(pi.hThread);
    proc->process = pi.hProcess;
    return 0;
}

int hs_wait(hs_proc *proc)
{
    DWORD code = 0;
    if (WaitForSingleObject(proc->process, INFINITE) != WAIT_OBJECT_0 ||
        !GetExitCodeProcess(proc->process, &code)) {
        CloseHandle(proc->process);
        return -1;
    }
    CloseHandle(proc->process);
    return (int)code;
}

/* Share read/write/delete so that a concurrent MoveFileExW replacing the file is
 * not refused because we happen to be reading it. */
int hs_read_file(const char *path, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    wchar_t *w = widen(path);
    if (!w)
        return -1;
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        return (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) ? 1 : -1;
    }
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    if (!b) {
        CloseHandle(h);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            cap *= 2;
            char *t = realloc(b, cap + 1);
            if (!t) {
                free(b);
                CloseHandle(h);
                return -1;
            }
            b = t;
        }
        DWORD got = 0;
        if (!ReadFile(h, b + n, (DWORD)(cap - n), &got, NULL)) {
            free(b);
            CloseHandle(h);
            return -1;
        }
        if (got == 0)
            break;
        n += got;
    }
    CloseHandle(h);
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

void hs_sleep_us(unsigned us)
{
    Sleep(us / 1000 ? us / 1000 : 1);
}

uint64_t hs_now_us(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (uint64_t)((double)c.QuadPart * 1e6 / (double)f.QuadPart);
}

#else
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int hs_self_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

int hs_spawn(const char *exe, const char *const *argv, hs_proc *proc)
{
    pid_t pid;
    int rc = posix_spawn(&pid, exe, NULL, NULL, (char *const *)argv, environ);
    if (rc != 0)
        return -1;
    proc->pid = (int)pid;
    return 0;
}

int hs_wait(hs_proc *proc)
{
    int status;
    pid_t r;
    do {
        r = waitpid(proc->pid, &status, 0);
    } while (r < 0 && errno == EINTR);
    if (r < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

int hs_read_file(const char *path, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 1 : -1;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    if (!b) {
        close(fd);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            cap *= 2;
            char *t = realloc(b, cap + 1);
            if (!t) {
                free(b);
                close(fd);
                return -1;
            }
            b = t;
        }
        ssize_t got = read(fd, b + n, cap - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            free(b);
            close(fd);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

void hs_sleep_us(unsigned us)
{
    struct timespec ts = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

uint64_t hs_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
#endif
