/* Helpers shared by the Windows platform layer. */
#ifndef LOCKRT_WIN_UTIL_H
#define LOCKRT_WIN_UTIL_H

#include <windows.h>

#include "lockrt_internal.h"

/* UTF-8 -> UTF-16, malloc'd; NULL on invalid input or no memory. */
wchar_t *lockrt__widen(const char *s);
/* FILETIME (100 ns since 1601) -> ns since the Unix epoch. */
int64_t lockrt__filetime_to_unix_ns(FILETIME ft);
/* Identity of an open handle plus a content hash computed by the caller. */
int lockrt__handle_identity(HANDLE h, uint64_t hash, lockrt_identity *id,
                            BY_HANDLE_FILE_INFORMATION *info);
/* Read the file from offset 0 through h, hashing it; copy up to cap bytes. Reads
 * at most limit + 1 bytes: more than limit is LOCKRT_EMISMATCH (it grew while
 * we read), so a growing file cannot keep us reading. */
int lockrt__hash_handle(HANDLE h, char *buf, size_t cap, size_t *len, uint64_t *hash,
                        uint64_t limit);
#endif
