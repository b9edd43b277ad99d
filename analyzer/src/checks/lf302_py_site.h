/* LF302's Python site: an age test of a lock file that records its holder's
 * pid, as the check (checks/lf302_mtime_staleness.c) found it, handed to the
 * fix (fixes/lf302_holder_alive.c), which adds "and its holder is gone":
 *
 *     time.time() - os.path.getmtime(LOCK) > 30   ->  (time.time() - os.path.getmtime(LOCK) > 30
 *                                                       and not lockrt.holder_alive(LOCK))
 *     (now - rec["ts"]) < ttl                     ->  ((now - rec["ts"]) < ttl or lockrt.holder_alive(LOCK))
 *
 * lockrt.holder_alive (the vendored binding) reads the pid the lock records
 * and answers True only for a live process that started before the lock was
 * last written (so not a reused pid), on Linux; anything it cannot tell
 * answers False and the age decides, as before. An unsafe fix: a live holder
 * is never broken any more, however long it holds. A lock that records no
 * pid is made to record it where the module creates it, when that is its one
 * create (`fd = os.open(LOCK, ... | os.O_EXCL ...)`), nothing else writes it
 * and nothing reads what it holds. Declined, with the reason:
 * a lock directory, a lock that records no pid the fix can add, a comparison the fix cannot
 * orient (chained, or an age not spelled `clock - recorded`), a lock path the
 * test cannot name again. */
#ifndef LF302_PY_SITE_H
#define LF302_PY_SITE_H

#include <tree_sitter/api.h>

typedef struct lf302_py_site {
    char *decline;       /* why the fix does not apply (malloc'd), or NULL */
    TSNode cmp;          /* the comparison */
    TSNode path;         /* the lock path, as spelled where it is read (nameable at cmp) */
    int stale_when_true; /* the comparison is true for a stale lock (else for a fresh one) */
    /* A lock that records no pid is made to record it: `FD = os.open(LOCK,
     * ... O_EXCL ...)`, its one create, gains `os.write(FD, str(os.getpid())
     * .encode())` after it (null: the lock records the pid already). */
    TSNode record_stmt;  /* the statement of the create; for a `with`, the first of its body */
    TSNode record_fd;    /* the name the descriptor (the file, for a `with`) is kept in */
    int record_with;     /* `with open(LOCK, "x") as f:`: `f.write(str(os.getpid()))` goes before record_stmt */
} lf302_py_site;

void lf302_py_site_free(void *site);

#endif
