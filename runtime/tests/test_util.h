/* Helpers shared by the C test groups. */
#ifndef LOCKRT_TEST_UTIL_H
#define LOCKRT_TEST_UTIL_H

#include "lockrt.h"
#include "runner.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

void tu_write_file(const char *path, const char *content);
/* Whole file, malloc'd and NUL-terminated; NULL when missing. */
char *tu_read_file(const char *path, size_t *len);
bool tu_exists_nofollow(const char *path);
bool tu_is_symlink(const char *path);
/* Write an owner record for pid/start_time/host at path (not through lockrt), in
 * the exact form lockrt writes. `tag` is a short hex tag; the record's token is
 * tu_token(tag). */
void tu_write_record(const char *path, int64_t pid, uint64_t start_time, const char *host,
                     const char *tag);
/* The 32-digit token for a hex tag: the tag, right-padded with '0' (static,
 * rotating buffers). */
const char *tu_token(const char *tag);
/* A sparse file of at least 4 GiB at path (1 TiB where the filesystem allows:
 * reading it whole would take minutes), with `head` at offset 0 and `tail` at
 * its end. Returns its size. */
uint64_t tu_make_sparse(const char *path, const char *head, const char *tail);
/* Set a file's mtime (and atime) `seconds_ago` into the past. */
void tu_age(const char *path, int seconds_ago);
/* What a file is, to prove it untouched: inode, size, mtime, ctime (a rename
 * or a write changes it), allocated blocks, the bytes at both ends and, for a
 * file of at most 64 MiB, a hash of all of its bytes. */
typedef struct tu_snapshot {
    uint64_t dev, ino, size, blocks;
    int64_t mtime_ns, ctime_ns;
    char head[64], tail[64];
    size_t head_len, tail_len;
    uint64_t content_hash; /* 0 for larger files (a sparse one: head, tail, blocks) */
} tu_snapshot;
void tu_snap(const char *path, tu_snapshot *out);
bool tu_snap_equal(const tu_snapshot *a, const tu_snapshot *b);
/* Milliseconds from a monotonic clock. */
uint64_t tu_now_ms(void);
/* A pid that certainly names no process: a child that exited and was reaped. */
pid_t tu_dead_pid(void);
/* A child that sleeps until killed. */
pid_t tu_spawn_sleeper(void);
void tu_kill_and_reap(pid_t pid);
const char *tu_hostname(void);
/* Number of directory entries whose name contains `needle`. */
int tu_count_entries(const char *dir, const char *needle);
#endif
