#include "lf_command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lf_util.h"

/* Output kept while the command runs: enough for any sensible number of last lines. */
#define KEEP_BYTES (64 * 1024)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void keep_output(lf_strbuf *out, const char *buf, size_t n) {
    lf_strbuf_append(out, buf, n);
    if (out->len > 2 * KEEP_BYTES) {
        memmove(out->data, out->data + out->len - KEEP_BYTES, KEEP_BYTES);
        out->len = KEEP_BYTES;
        out->data[out->len] = '\0';
    }
}

/* Read what is available; returns 0 at end of file. */
static int drain(int fd, lf_strbuf *out) {
    char buf[8192];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
            keep_output(out, buf, (size_t)n);
            continue;
        }
        if (n == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return errno == EAGAIN || errno == EWOULDBLOCK; /* other errors: treat as closed */
    }
}

static char *last_lines(const lf_strbuf *out, size_t n_lines) {
    size_t end = out->len;
    while (end && (out->data[end - 1] == '\n' || out->data[end - 1] == '\r'))
        end--;
    size_t start = end, seen = 0;
    while (start > 0) {
        if (out->data[start - 1] == '\n' && ++seen == n_lines)
            break;
        start--;
    }
    return lf_xstrndup(out->data ? out->data + start : "", end - start);
}

static void child(const char *cmd, const char *cwd, int out_fd) {
    setpgid(0, 0);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGIO, SIG_DFL); /* ignored by lf_tempfile for its lease probe; an ignore survives exec */
    if (cwd && chdir(cwd) != 0) {
        dprintf(STDERR_FILENO, "lockfix: cannot enter %s: %s\n", cwd, strerror(errno));
        _exit(127);
    }
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    dprintf(STDERR_FILENO, "lockfix: cannot run /bin/sh: %s\n", strerror(errno));
    _exit(127);
}

int lf_command_run(const char *cmd, const char *cwd, unsigned timeout_s, size_t tail_lines, lf_command_result *r) {
    memset(r, 0, sizeof *r);
    r->timeout_s = timeout_s;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        r->error = lf_xasprintf("cannot create a pipe: %s", strerror(errno));
        return 0;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        r->error = lf_xasprintf("cannot fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0)
        child(cmd, cwd, fds[1]);
    setpgid(pid, pid); /* also here: no window where a kill of the group misses it */
    close(fds[1]);
    int fd = fds[0];
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    lf_strbuf out;
    lf_strbuf_init(&out);
    double deadline = timeout_s ? now_s() + timeout_s : 0;
    int status = 0, open_fd = 1;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = 0x7f00; /* cannot happen for our own child; read as exit 127 */
            break;
        }
        if (deadline && now_s() >= deadline) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            r->timed_out = 1;
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(open_fd ? &p : NULL, open_fd ? 1 : 0, 50) > 0)
            open_fd = drain(fd, &out);
    }
    /* The shell is gone: take what it wrote, then stop anything it left behind. */
    if (open_fd)
        drain(fd, &out);
    kill(-pid, SIGKILL);
    close(fd);

    r->ran = 1;
    if (!r->timed_out) {
        if (WIFEXITED(status))
            r->exit_code = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            r->signal = WTERMSIG(status);
    }
    r->tail = last_lines(&out, tail_lines);
    lf_strbuf_free(&out);
    return !r->timed_out && !r->signal && r->exit_code == 0;
}

void lf_command_result_free(lf_command_result *r) {
    free(r->tail);
    free(r->error);
    memset(r, 0, sizeof *r);
}

char *lf_command_outcome(const lf_command_result *r) {
    if (!r->ran)
        return lf_xasprintf("could not run: %s", r->error ? r->error : "unknown error");
    if (r->timed_out)
        return lf_xasprintf("timed out after %u s", r->timeout_s);
    if (r->signal)
        return lf_xasprintf("killed by signal %d", r->signal);
    return lf_xasprintf("exit %d", r->exit_code);
}

char *lf_command_substitute_dir(const char *cmd, const char *dir, int *has_dir) {
    lf_strbuf quoted, sb;
    lf_strbuf_init(&quoted);
    lf_strbuf_putc(&quoted, '\'');
    for (const char *c = dir; *c; c++) {
        if (*c == '\'')
            lf_strbuf_puts(&quoted, "'\\''");
        else
            lf_strbuf_putc(&quoted, *c);
    }
    lf_strbuf_putc(&quoted, '\'');
    lf_strbuf_init(&sb);
    *has_dir = 0;
    for (const char *c = cmd; *c;) {
        if (strncmp(c, "{dir}", 5) == 0) {
            lf_strbuf_puts(&sb, quoted.data);
            *has_dir = 1;
            c += 5;
        } else {
            lf_strbuf_putc(&sb, *c++);
        }
    }
    lf_strbuf_free(&quoted);
    return lf_strbuf_detach(&sb);
}
