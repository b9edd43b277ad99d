/* lockrt_harness internals: the counter file's JSON and process spawning. */
#ifndef LOCKRT_HARNESS_H
#define LOCKRT_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* The counter file: a flat JSON object of integer counts, {"c0": 3, "py1": 5}. */
typedef struct hj_entry {
    char *key;
    int64_t value;
} hj_entry;

typedef struct hj_counters {
    hj_entry *items;
    size_t count, cap;
} hj_counters;

/* 0 on success, -1 when the bytes are not such an object (a torn or foreign file). */
int hj_parse(const char *buf, size_t len, hj_counters *out);
int64_t *hj_find(hj_counters *c, const char *key);
int hj_set(hj_counters *c, const char *key, int64_t value);
/* Malloc'd text "{\"k\": v, ...}\n"; NULL on allocation failure. */
char *hj_format(const hj_counters *c, size_t *len);
void hj_free(hj_counters *c);

/* Platform helpers. */
typedef struct hs_proc {
#ifdef _WIN32
    void *process;
#else
    int pid;
#endif
} hs_proc;

int hs_self_path(char *buf, size_t cap);
int hs_spawn(const char *exe, const char *const *argv, hs_proc *proc);
/* Exit status of the child, or 128+signal; -1 on wait failure. */
int hs_wait(hs_proc *proc);
/* Whole file into a malloc'd buffer; 1 = missing (buf NULL), 0 = read, -1 = error. */
int hs_read_file(const char *path, char **buf, size_t *len);
void hs_sleep_us(unsigned us);
uint64_t hs_now_us(void);
#endif
