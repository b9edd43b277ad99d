/*
 * Kept descriptors of OS-lock files (kept_fd.c says what keeping one must not
 * break). Only descriptors that are unlocked, O_CLOEXEC, and verified at open
 * to be a regular file (dev, ino) are kept.
 */
#ifndef LOCKRT_KEPT_FD_H
#define LOCKRT_KEPT_FD_H

#include "lockrt_internal.h"

#define LOCKRT__KEPT_DEFAULT 16u

/* This process's kept descriptor of `path`, taken out of the cache and checked
 * (fstat: the same regular file as when it was kept), with its identity; -1 if
 * there is none. The caller owns it from then on. */
int lockrt__kept_take(const char *path, uint64_t *dev, uint64_t *ino);

/* Keep an unlocked descriptor of `path` (its identity dev, ino) for the next
 * acquisition: takes ownership of fd. Closes it instead when nothing is to be
 * kept. The oldest kept descriptor is closed when the cache is full. */
void lockrt__kept_put(const char *path, int fd, uint64_t dev, uint64_t ino);
#endif
