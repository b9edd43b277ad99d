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
 * waiters waiting. Declined, with the reason: a lock directory, a lock that
 * records no pid, a stat'ed path the test cannot name again. */
#ifndef LF302_TS_SITE_H
#define LF302_TS_SITE_H

#include <tree_sitter/api.h>

typedef struct lf302_ts_site {
    char *decline;       /* why the fix does not apply (malloc'd), or NULL */
    TSNode cmp;          /* the comparison */
    TSNode path;         /* the stat'ed lock path, as spelled at the stat (valid where cmp is) */
    int stale_when_true; /* the comparison is true for a stale lock (else for a fresh one) */
} lf302_ts_site;

void lf302_ts_site_free(void *site);

#endif
