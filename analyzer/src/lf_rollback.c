#include "lf_rollback.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_fix.h"
#include "lf_util.h"

typedef enum { REWRITTEN, CREATED } change_kind;

typedef struct change {
    change_kind kind;
    char *path;
    /* REWRITTEN: the original bytes (borrowed from the source as read) and the
     * file as the fix left it, so undo can prove it is still that file. */
    const char *original;
    size_t original_len;
    lf_source written;
    /* CREATED: what was written, and the outermost directory created for it. */
    char *content;
    size_t content_len;
    char *created_dir;
} change;

struct lf_rollback {
    LF_VEC(change) changes;
};

lf_rollback *lf_rollback_new(void) { return lf_xcalloc(1, sizeof(lf_rollback)); }

void lf_rollback_free(lf_rollback *rb) {
    if (!rb)
        return;
    for (size_t i = 0; i < rb->changes.len; i++) {
        change *c = &rb->changes.items[i];
        free(c->path);
        if (c->kind == REWRITTEN)
            lf_source_free(&c->written);
        free(c->content);
        free(c->created_dir);
    }
    LF_VEC_FREE(&rb->changes);
    free(rb);
}

static int exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

/* The outermost missing directory on the way to path's parent, or NULL. */
static char *outermost_missing_dir(const char *path) {
    char *dir = lf_xstrdup(path);
    char *missing = NULL;
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
        if (exists(dir))
            break;
        free(missing);
        missing = lf_xstrdup(dir);
    }
    free(dir);
    return missing;
}

int lf_rollback_create(lf_rollback *rb, const char *path, const char *content, size_t len, char **err) {
    int existed = exists(path);
    char *created_dir = existed ? NULL : outermost_missing_dir(path);
    if (!lf_fix_create(path, content, len, err)) {
        /* lf_fix_create may have made directories before failing. */
        if (created_dir) {
            change c = {.kind = CREATED, .path = NULL, .created_dir = created_dir};
            LF_VEC_PUSH(&rb->changes, c);
        }
        return 0;
    }
    if (existed) /* the same content was already there: nothing to take back */
        return 1;
    change c = {.kind = CREATED, .path = lf_xstrdup(path), .content = lf_xstrndup(content, len), .content_len = len,
                .created_dir = created_dir};
    LF_VEC_PUSH(&rb->changes, c);
    return 1;
}

int lf_rollback_write(lf_rollback *rb, const char *path, const lf_source *src, const char *text, size_t len,
                      char **err) {
    if (!lf_fix_write(path, src, text, len, err))
        return 0;
    change c = {.kind = REWRITTEN, .path = lf_xstrdup(path)};
    c.original = lf_source_bytes(src, &c.original_len);
    char *why = NULL;
    lf_load_status st = lf_source_load(path, src->lang, &c.written, &why);
    size_t written_len = 0;
    const char *written = st == LF_LOAD_OK ? lf_source_bytes(&c.written, &written_len) : NULL;
    if (st != LF_LOAD_OK || written_len != len || memcmp(written, text, len) != 0) {
        /* Changed between our rename and this read: not ours to take back. */
        *err = lf_xasprintf("%s: changed by someone else right after the fix was written%s%s", path,
                            why ? ": " : "", why ? why : "");
        free(why);
        if (st == LF_LOAD_OK)
            lf_source_free(&c.written);
        free(c.path);
        return 0;
    }
    LF_VEC_PUSH(&rb->changes, c);
    return 1;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    int r = type == FTW_DP ? rmdir(path) : unlink(path);
    if (r != 0) {
        fprintf(stderr, "lockfix: cannot remove %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

/* Remove a directory the fix created, with whatever appeared in it since;
 * symbolic links are removed, never followed, and other mounts never entered. */
static int remove_created_dir(const char *dir) {
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) == 0;
}

/* 1 when path is a regular file holding exactly content. */
static int holds(const char *path, const char *content, size_t len) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len;
    if (same) {
        char *buf = lf_xmalloc(len + 1);
        size_t got = 0;
        while (got < len) {
            ssize_t n = read(fd, buf + got, len - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        same = got == len && memcmp(buf, content, len) == 0;
        free(buf);
    }
    close(fd);
    return same;
}

static int undo_one(const change *c, lf_strbuf *problems) {
    if (c->kind == REWRITTEN) {
        char *err = NULL;
        if (lf_fix_write(c->path, &c->written, c->original, c->original_len, &err))
            return 1;
        lf_strbuf_printf(problems, "%s%s", problems->len ? "; " : "", err);
        free(err);
        return 0;
    }
    if (c->path) {
        if (!holds(c->path, c->content, c->content_len)) {
            lf_strbuf_printf(problems, "%s%s: not removed: it no longer holds what the fix created",
                             problems->len ? "; " : "", c->path);
            return 0; /* and its directory stays, with it */
        }
        if (unlink(c->path) != 0) {
            lf_strbuf_printf(problems, "%s%s: not removed: %s", problems->len ? "; " : "", c->path, strerror(errno));
            return 0;
        }
    }
    if (c->created_dir && exists(c->created_dir) && !remove_created_dir(c->created_dir)) {
        lf_strbuf_printf(problems, "%s%s: not removed completely", problems->len ? "; " : "", c->created_dir);
        return 0;
    }
    return 1;
}

int lf_rollback_undo(lf_rollback *rb, char **err) {
    lf_strbuf problems;
    lf_strbuf_init(&problems);
    int ok = 1;
    for (size_t i = rb->changes.len; i-- > 0;)
        ok &= undo_one(&rb->changes.items[i], &problems);
    if (!ok)
        *err = lf_strbuf_detach(&problems);
    lf_strbuf_free(&problems);
    return ok;
}
