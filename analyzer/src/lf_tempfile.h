/* lf_tempfile: the temporary files lockfix creates (the temp beside a file that
 * `fix --apply` rewrites or creates, the temp of `--output`) are registered
 * here and removed when the process ends early: on SIGINT, SIGTERM, SIGHUP and
 * at exit, as git's tempfile.c does.
 *
 * The signal handler is async-signal-safe: it only reads slots whose paths were
 * copied in before they were marked live, calls unlink(2), restores the default
 * action and re-raises the signal (so the exit status still says "killed by
 * SIGTERM"). Only the process that created a temp removes it: a child forked
 * by `fix --verify` that is signalled before its exec leaves the temps alone.
 */
#ifndef LF_TEMPFILE_H
#define LF_TEMPFILE_H

#include <stddef.h>

/* Install the handlers and the atexit hook (idempotent; done by the first create). */
void lf_tempfile_install(void);

/* mkostemp over "<dir of target>/.<base of target><suffix>XXXXXX" (suffix such as
 * ".lockfix-"), registered for cleanup. Returns the fd (O_CLOEXEC) and, in
 * *slot, the registration; -1 with errno set (ENAMETOOLONG when the path does
 * not fit a slot, EMFILE when every slot is taken). The path is lf_tempfile_path(slot). */
int lf_tempfile_create(const char *target, const char *suffix, int *slot);

const char *lf_tempfile_path(int slot);

/* The temp is gone or has been renamed into place: forget it (no unlink). */
void lf_tempfile_forget(int slot);

/* unlink the temp and forget it. */
void lf_tempfile_remove(int slot);

/* Number of live registrations (tests). */
size_t lf_tempfile_live(void);

#endif
