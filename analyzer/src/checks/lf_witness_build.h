/* Witnesses for the checks (lf_witness.h): each builder takes the nodes a
 * check already judged (the read and the write, the judgement and the
 * removal, the temp name and the rename, ...) and lays them out as the
 * shortest interleaving of processes that loses data. A check calls one of
 * these right after it emits, as lf_ctx_witness(ctx, lf_wit_...(...)); no
 * builder decides whether there is a finding.
 *
 * The *_py / *_ts builders look up, in the lock model the check itself used,
 * the events around the flagged node (the judgement before a removal, the
 * create that takes the lock, a removal after an age judgement). */
#ifndef LF_WITNESS_BUILD_H
#define LF_WITNESS_BUILD_H

#include <tree_sitter/api.h>

#include "lf_pylock.h"
#include "lf_source.h"
#include "lf_tslock.h"
#include "lf_witness.h"

/* LF104, LF101: A reads, B reads, A writes, B writes back. With `entry`
 * (LF101: the test that leads to the unlocked copy, LF_WIT_UNLOCKED, or the
 * acquisition whose error is swallowed, LF_WIT_ACQUIRE_FAILS), both
 * processes first take the unlocked path there. */
lf_witness *lf_wit_lost_update(const lf_source *src, const char *platform, lf_wit_event entry_ev, TSNode entry,
                               const char *entry_text, TSNode read, TSNode write, TSNode path);
/* LF104: the same with no entry, on every platform. */
lf_witness *lf_wit_read_write(const lf_source *src, TSNode read, TSNode write, TSNode path);
/* LF104, a copy written back whole: A reads (read), B runs another
 * read-modify-write of the document (other_read, other_write), A writes its
 * stale copy back (write). */
lf_witness *lf_wit_stale_copy(const lf_source *src, TSNode read, TSNode write, TSNode other_read, TSNode other_write);
/* LF101 when the unlocked copy has no read and write the witness can name:
 * both processes enter the unlocked path and run its first statement. */
lf_witness *lf_wit_unlocked_section(const lf_source *src, const char *platform, lf_wit_event entry_ev, TSNode entry,
                                    const char *entry_text, TSNode first);
/* LF101, a lock helper's no-op release: A gives up waiting (wait), is handed
 * the release that does nothing (noop) and runs the section (first) while B,
 * the holder or another who gave up, runs it too. */
lf_witness *lf_wit_noop_release(const lf_source *src, TSNode wait, TSNode noop, TSNode first);
/* LF103: A creates the log exclusively, B appends anyway, A appends. */
lf_witness *lf_wit_append(const lf_source *src, TSNode create, TSNode append, TSNode target);
/* LF201: A resolves a target that does not exist yet. */
lf_witness *lf_wit_missing_target(const lf_source *src, TSNode call, int node_realpath);
/* LF201 (Python): B replaces the target (a rename onto it) or deletes it,
 * and A resolves it meanwhile; the single step above when the module has
 * neither. */
lf_witness *lf_wit_missing_target_py(lf_pysem *m, TSNode call, TSNode target);
/* LF303: B probes A's pid and reads EPERM as "dead" in `handler`. */
lf_witness *lf_wit_eperm(const lf_source *src, TSNode probe, TSNode handler);
/* LF303: B probes a pid read from a file that an unrelated process now has. */
lf_witness *lf_wit_pid_reuse(const lf_source *src, TSNode probe);
/* LF401: A and B write the same temp name, then both rename it. */
lf_witness *lf_wit_shared_temp(const lf_source *src, TSNode temp, TSNode rename);

/* LF301: the removal event ev (of l) and how it was judged. */
lf_witness *lf_wit_removal_py(lf_pylock *l, const lf_pylock_event *ev);
lf_witness *lf_wit_removal_ts(lf_tslock *l, const lf_tslock_event *ev);
/* LF301 (Python), a removal in the handler of a failed read of the lock
 * (`read`): B reads A's lock before A has written its record, and removes it. */
lf_witness *lf_wit_failed_read_py(lf_pylock *l, const lf_pylock_event *ev, TSNode read);
lf_witness *lf_wit_failed_read_ts(lf_tslock *l, const lf_tslock_event *ev, TSNode read);
/* LF302: the age judgement `judge` of the lock at path (Python) / key k (TS). */
lf_witness *lf_wit_stale_age_py(lf_pylock *l, TSNode judge, TSNode path);
lf_witness *lf_wit_stale_age_ts(lf_tslock *l, TSNode judge, int32_t k);

#endif
