/* lf_witness: the interleaving that makes a finding lose data (issue 22).
 *
 * A witness is the shortest schedule of two (or three) processes running the
 * flagged code that produces the failure: each step names the process (A, B,
 * C), what it does (read, write, judge, remove, ...) and the node of the
 * source the check judged for it, so every step points at a real line. The
 * check builds it from the nodes it already holds (checks/lf_witness_build.h)
 * and hands it to the engine with lf_ctx_witness right after emitting; the
 * engine fills in lines and columns.
 *
 * A witness is explanation, not identity: it is never part of a finding's
 * fingerprint (lf_fingerprint.h), so baselines and suppressions do not move
 * when it changes. */
#ifndef LF_WITNESS_H
#define LF_WITNESS_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_source.h"

typedef enum lf_wit_event {
    LF_WIT_UNLOCKED = 0, /* enters the path that runs without the lock (its test, handler or copy) */
    LF_WIT_READ,         /* reads the shared document */
    LF_WIT_WRITE,        /* writes the shared document (or its temp) */
    LF_WIT_APPEND,       /* appends to the shared file */
    LF_WIT_CREATE,       /* creates a file exclusively (takes the lock) */
    LF_WIT_LOCK,         /* takes an OS lock on an open file, or waits for it */
    LF_WIT_JUDGE,        /* judges a lock stale or its owner (existence, stat, age, contents) */
    LF_WIT_PROBE,        /* probes the owner's pid (kill(pid, 0)) */
    LF_WIT_MISREAD,      /* reads the probe's outcome the wrong way (its error handler) */
    LF_WIT_REMOVE,       /* removes a path by name */
    LF_WIT_RENAME,       /* renames (moves) a path over another */
    LF_WIT_TEMP,         /* opens the temp name for writing (truncating it) */
    LF_WIT_RESOLVE,      /* resolves a path (realpath) */
    LF_WIT_ACQUIRE_FAILS, /* fails to take the lock, and the error is swallowed */
    LF_WIT_SECTION,      /* runs the critical section (its first statement) with no lock */
} lf_wit_event;

#define LF_WIT_EVENT_COUNT 15

typedef struct lf_witness_step {
    unsigned process;    /* 0 = A, 1 = B, 2 = C */
    lf_wit_event event;
    uint32_t start_byte, end_byte; /* the node the check judged */
    uint32_t line, col, end_line, end_col; /* 1-based, filled by lf_witness_locate */
    char *text;          /* what the process does there, one line, without the process letter */
} lf_witness_step;

typedef struct lf_witness {
    lf_witness_step *steps; /* in the global order of the interleaving */
    size_t n_steps, cap;
    char *platform;         /* where it happens: "any platform", "only where fcntl is missing", ... */
    char *outcome;          /* what is lost, one sentence */
} lf_witness;

/* "read", "write", ... as in the JSON and SARIF output (docs/output-formats.md). */
const char *lf_witness_event_name(lf_wit_event ev);
/* "A", "B", "C". */
const char *lf_witness_process_name(unsigned process);

lf_witness *lf_witness_new(const char *platform);
/* Append a step at node `at` (a null node is ignored: no step without a place). */
void lf_witness_step_at(lf_witness *w, unsigned process, lf_wit_event ev, TSNode at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void lf_witness_set_outcome(lf_witness *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fill every step's line and column from src. */
void lf_witness_locate(lf_witness *w, const lf_source *src);
/* The number of processes the witness uses (highest process + 1). */
unsigned lf_witness_processes(const lf_witness *w);
void lf_witness_free(lf_witness *w);

#endif
