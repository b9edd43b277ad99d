/*
 * OS lock strategy on Windows: LockFileEx on byte 0 (length 1) of a lock file
 * that is never deleted.
 *
 * The handle shares read, write and delete, so holding the lock never makes
 * another process's open fail with a sharing violation (which would look like
 * an I/O error rather than contention) and never blocks tools that read the
 * file. LockFileEx locks belong to the handle: two acquisitions in one process
 * exclude each other, and the lock dies with the handle when a holder is
 * killed. Byte 0, length 1 is what msvcrt.locking(fd, LK_NBLCK, 1) takes at
 * offset 0, so a pure-Python fallback interoperates.
 *
 * FILE_FLAG_OPEN_REPARSE_POINT opens a symlink/junction itself instead of its
 * target; we then refuse it (ESYMLINK) without having created anything.
 */
#include "win_util.h"

#include <stdlib.h>
#include <string.h>

static int classify_open_failure(const wchar_t *w)
{
    DWORD e = GetLastError();
    if (e == ERROR_PATH_NOT_FOUND)
        return LOCKRT_ENOENT;
    if (e == ERROR_SHARING_VIOLATION || e == ERROR_LOCK_VIOLATION)
        return LOCKRT__BUSY;
    if (e == ERROR_ACCESS_DENIED) {
        DWORD attrs = GetFileAttributesW(w);
        if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY))
            return LOCKRT_EBADTYPE;
        /* A delete-pending name answers ACCESS_DENIED to every open until the
         * last handle closes: transient. */
        return LOCKRT__BUSY;
    }
    return LOCKRT_EIO;
}

static int open_lock_file(lockrt_lock *lock)
{
    wchar_t *w = lockrt__widen(lock->path);
    if (!w)
        return LOCKRT_EINVAL;
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        int rc = classify_open_failure(w);
        free(w);
        return rc;
    }
    free(w);
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(h, &info)) {
        CloseHandle(h);
        return LOCKRT_EIO;
    }
    if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
        CloseHandle(h);
        return LOCKRT_ESYMLINK;
    }
    if ((info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) || GetFileType(h) != FILE_TYPE_DISK) {
        CloseHandle(h);
        return LOCKRT_EBADTYPE;
    }
    lock->handle = h;
    return LOCKRT_OK;
}

/* The name may have been deleted (we share delete) and re-created since we
 * opened it; a lock on the orphan would exclude nobody. */
static bool name_still_ours(const lockrt_lock *lock, uint64_t *size)
{
    BY_HANDLE_FILE_INFORMATION mine, now;
    if (!GetFileInformationByHandle(lock->handle, &mine))
        return false;
    wchar_t *w = lockrt__widen(lock->path);
    if (!w)
        return false;
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    BOOL ok = GetFileInformationByHandle(h, &now);
    CloseHandle(h);
    *size = ((uint64_t)now.nFileSizeHigh << 32) | now.nFileSizeLow;
    return ok && mine.dwVolumeSerialNumber == now.dwVolumeSerialNumber &&
           mine.nFileIndexHigh == now.nFileIndexHigh && mine.nFileIndexLow == now.nFileIndexLow;
}

/* A non-empty file may be a lockfile-strategy owner record (another process
 * forced that strategy on this path): its live owner holds the lock, not us.
 * Anything else holds nothing and is left as it is; at most one record's worth
 * is read, whatever the file's size. */
static bool record_holds(const lockrt_lock *lock, uint64_t size)
{
    if (size > LOCKRT__RECORD_MAX)
        return false;
    char buf[LOCKRT__RECORD_MAX];
    size_t len = 0;
    uint64_t hash;
    int rc = lockrt__hash_handle(lock->handle, buf, sizeof buf, &len, &hash, LOCKRT__RECORD_MAX);
    if (rc == LOCKRT_EMISMATCH)
        return false; /* grew past any record's size while we read */
    if (rc != LOCKRT_OK)
        return true;
    return lockrt__judge_record(buf, len) == LOCKRT_ENOTSTALE;
}

static bool usable(const lockrt_lock *lock)
{
    uint64_t size = 0;
    return name_still_ours(lock, &size) && (size == 0 || !record_holds(lock, size));
}

static int lock_range(HANDLE h, DWORD flags)
{
    OVERLAPPED ov;
    ZeroMemory(&ov, sizeof ov);
    if (LockFileEx(h, flags, 0, 1, 0, &ov))
        return LOCKRT_OK;
    DWORD e = GetLastError();
    if (e == ERROR_LOCK_VIOLATION || e == ERROR_IO_PENDING)
        return LOCKRT__BUSY;
    return LOCKRT_EIO;
}

static void unlock_and_close(lockrt_lock *lock)
{
    OVERLAPPED ov;
    ZeroMemory(&ov, sizeof ov);
    UnlockFileEx(lock->handle, 0, 1, 0, &ov);
    CloseHandle(lock->handle);
    lock->handle = NULL;
}

static int oslock_try(lockrt_lock *lock, const lockrt_options *opts, void *ctx)
{
    (void)opts;
    (void)ctx;
    for (int round = 0; round < 8; round++) {
        if (!lock->handle) {
            int rc = open_lock_file(lock);
            if (rc != LOCKRT_OK)
                return rc;
        }
        int rc = lock_range(lock->handle, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY);
        if (rc != LOCKRT_OK)
            return rc;
        if (usable(lock))
            return LOCKRT_OK;
        unlock_and_close(lock);
    }
    return LOCKRT__BUSY;
}

static int oslock_wait_forever(lockrt_lock *lock)
{
    for (;;) {
        if (!lock->handle) {
            int rc = open_lock_file(lock);
            if (rc == LOCKRT__BUSY) {
                Sleep(1);
                continue;
            }
            if (rc != LOCKRT_OK)
                return rc;
        }
        int rc = lock_range(lock->handle, LOCKFILE_EXCLUSIVE_LOCK);
        if (rc != LOCKRT_OK)
            return rc == LOCKRT__BUSY ? LOCKRT_EIO : rc;
        if (usable(lock))
            return LOCKRT_OK;
        unlock_and_close(lock);
    }
}

/* A bounded wait polls LockFileEx(LOCKFILE_FAIL_IMMEDIATELY) with backoff; an
 * unbounded one blocks in LockFileEx. */
int lockrt__oslock_wait(lockrt_lock *lock, const lockrt_options *opts)
{
    if (opts->timeout_ms < 0)
        return oslock_wait_forever(lock);
    return lockrt__wait_loop(lock, opts, oslock_try, NULL);
}

int lockrt__oslock_release(lockrt_lock *lock)
{
    if (!lock->handle)
        return LOCKRT_OK;
    OVERLAPPED ov;
    ZeroMemory(&ov, sizeof ov);
    int rc = UnlockFileEx(lock->handle, 0, 1, 0, &ov) ? LOCKRT_OK : LOCKRT_EIO;
    if (!CloseHandle(lock->handle) && rc == LOCKRT_OK)
        rc = LOCKRT_EIO;
    lock->handle = NULL;
    return rc;
}

void lockrt__oslock_abandon(lockrt_lock *lock)
{
    if (lock->handle) {
        CloseHandle(lock->handle);
        lock->handle = NULL;
    }
}

/* Windows opens a handle per acquisition and keeps none (kept_fd.c is the
 * Unix side's reason to keep them). */
void lockrt_close_idle_descriptors(void)
{
}

unsigned lockrt_set_kept_descriptors(unsigned max)
{
    (void)max;
    return 0;
}

/* No probe is needed on Windows: an OS-lock holder keeps the file open with
 * write access, and lockrt_unlink_if_identical opens with FILE_SHARE_READ only,
 * so the removal fails with a sharing violation while any such holder exists. */
int lockrt__oslock_probe_begin(const char *path, intptr_t *probe)
{
    (void)path;
    *probe = 0;
    return LOCKRT_OK;
}

void lockrt__oslock_probe_end(intptr_t probe)
{
    (void)probe;
}
