/* LF302's TS/JS site: an age test of a lock file that records its holder's
 * pid, as the check (checks/lf302_ts.c) found it, handed to the fix
 * (fixes/lf302_holder_alive.c), which adds "and its holder is gone" to it:
 *
 *     Date.now() - st.mtimeMs > staleMs    ->  (Date.now() - st.mtimeMs > staleMs && !holderAliveSync(LOCK))
 *     Date.now() - st.mtimeMs <= staleMs   ->  (Date.now() - st.mtimeMs <= staleMs || holderAliveSync(LOCK))
 *
 * holderAliveSync (the vendored lockrt.cjs) reads the pid the lock records
 * and answers true only for a live process that started before the lock was
 * last written (so not a reused pid), on Linux; anything it cannot tell
 * answers false and the age decides, as before. An unsafe fix: a live holder
 * is never broken any more, however long it holds, so a hung one keeps its
 * waiters waiting. A lock that records no pid is made to record it where the
 * module creates it, when that is its one exclusive create, nothing else
 * writes it and nothing reads what it holds (a process that has not the fix
 * leaves an empty lock, and holderAliveSync answers false for it: the age
 * decides, as before). Declined, with the reason: a lock directory, a lock
 * that records no pid the fix can add, a stat'ed path the test cannot name
 * again. */
#ifndef LF302_TS_SITE_H
#define LF302_TS_SITE_H

#include <tree_sitter/api.h>

/* How a lock that records no pid is made to record its holder's, so that
 * there is a holder to judge: its one exclusive create writes it. */
typedef enum lf302_ts_record {
    LF302_TS_RECORD_NONE = 0, /* the lock records the pid already */
    LF302_TS_RECORD_DATA,     /* `writeFileSync(LOCK, "", { flag: "wx" })`: the data becomes String(process.pid) */
    LF302_TS_RECORD_FD,       /* `FD = openSync(LOCK, "wx")`: writeSync(FD, String(process.pid)) follows it */
    LF302_TS_RECORD_HANDLE,   /* `H = await open(LOCK, "wx")`: await H.writeFile(String(process.pid)) follows it */
} lf302_ts_record;

typedef struct lf302_ts_site {
    char *decline;       /* why the fix does not apply (malloc'd), or NULL */
    TSNode cmp;          /* the comparison */
    TSNode path;         /* the stat'ed lock path, as spelled at the stat (valid where cmp is) */
    int stale_when_true; /* the comparison is true for a stale lock (else for a fresh one) */
    lf302_ts_record record;
    TSNode record_at;    /* DATA: the data argument replaced; FD, HANDLE: the statement the write follows */
    TSNode record_fd;    /* FD, HANDLE: the descriptor's (FileHandle's) name or field, as assigned */
} lf302_ts_site;

void lf302_ts_site_free(void *site);

#endif
