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
/* Write an owner record for pid/start_time/host at path (not through lockrt). */
void tu_write_record(const char *path, int64_t pid, uint64_t start_time, const char *host,
                     const char *token);
/* A pid that certainly names no process: a child that exited and was reaped. */
pid_t tu_dead_pid(void);
/* A child that sleeps until killed. */
pid_t tu_spawn_sleeper(void);
void tu_kill_and_reap(pid_t pid);
const char *tu_hostname(void);
/* Number of directory entries whose name contains `needle`. */
int tu_count_entries(const char *dir, const char *needle);
#endif
