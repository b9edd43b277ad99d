/*
 * Lockfile records and identity-bound removal on Windows.
 *
 * CREATE_NEW is the O_EXCL of Win32: it fails if anything (a reparse point
 * included) has the name. Every other open uses FILE_FLAG_OPEN_REPARSE_POINT so
 * a symlink or junction at a lock path is opened as itself and refused, never
 * followed.
 *
 * Deleting is done on a handle, not a name: open with DELETE access sharing only
 * FILE_SHARE_READ, so while we verify nobody can write, rename or delete the
 * object; verify identity and content on that handle; then mark it
 * delete-on-close with SetFileInformationByHandle(FileDispositionInfo). The
 * object verified is the object deleted -- the atomic compare-and-delete that
 * POSIX lacks (src/unix/record_io.c renames to a private name instead).
 *
 * A deleted-but-still-open file leaves its name "delete pending": every open
 * and CREATE_NEW of the name fails with ERROR_ACCESS_DENIED until the last
 * handle closes. That is contention, not a permission problem: retry.
 */
#include "win_util.h"

#include <stdlib.h>
#include <string.h>

static int classify(const wchar_t *w, bool creating)
{
    DWORD e = GetLastError();
    switch (e) {
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
        return creating ? LOCKRT__BUSY : LOCKRT_EIO;
    case ERROR_FILE_NOT_FOUND:
        return LOCKRT_ENOENT;
    case ERROR_PATH_NOT_FOUND:
        return LOCKRT_ENOENT;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return LOCKRT__BUSY;
    case ERROR_ACCESS_DENIED: {
        DWORD attrs = GetFileAttributesW(w);
        if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY))
            return LOCKRT_EBADTYPE;
        if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_REPARSE_POINT))
            return LOCKRT_ESYMLINK;
        /* delete pending: going away; for a creator, the name is about to be free */
        return creating ? LOCKRT__BUSY : LOCKRT_ENOENT;
    }
    default:
        return LOCKRT_EIO;
    }
}

static int check_type(HANDLE h, BY_HANDLE_FILE_INFORMATION *info)
{
    if (!GetFileInformationByHandle(h, info))
        return LOCKRT_EIO;
    if (info->dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        return LOCKRT_ESYMLINK;
    if ((info->dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) || GetFileType(h) != FILE_TYPE_DISK)
        return LOCKRT_EBADTYPE;
    return LOCKRT_OK;
}

int lockrt__record_create(const char *path, const char *bytes, size_t len, lockrt_identity *id)
{
    wchar_t *w = lockrt__widen(path);
    if (!w)
        return LOCKRT_EINVAL;
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE | DELETE, FILE_SHARE_READ | FILE_SHARE_DELETE,
                           NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        int rc = classify(w, true);
        free(w);
        return rc;
    }
    free(w);
    DWORD written = 0;
    BOOL ok = WriteFile(h, bytes, (DWORD)len, &written, NULL) && written == len;
    /* NTFS may stamp LastWriteTime again when a written handle is closed, which
     * would make the identity we capture now differ from what others (and our
     * own release) see later. A time set explicitly on the handle is kept. */
    FILETIME now;
    GetSystemTimeAsFileTime(&now);
    ok = ok && SetFileTime(h, NULL, NULL, &now);
    int rc = ok ? lockrt__handle_identity(h, lockrt__fnv1a(bytes, len, LOCKRT__FNV_SEED), id, NULL)
                : LOCKRT_EIO;
    if (rc != LOCKRT_OK) {
        /* Our own fresh object, still open: delete it by handle. */
        FILE_DISPOSITION_INFO di = {TRUE};
        SetFileInformationByHandle(h, FileDispositionInfo, &di, sizeof di);
    }
    CloseHandle(h);
    return rc;
}

/* Identity (and up to cap bytes) of the file at path, from one handle. A file
 * larger than max_size is not read: LOCKRT__TOO_BIG, *id filled but for its
 * content hash (0). */
#define LOCKRT__TOO_BIG 2
static int capture(const char *path, char *buf, size_t cap, size_t *len, lockrt_identity *id,
                   uint64_t max_size)
{
    wchar_t *w = lockrt__widen(path);
    if (!w)
        return LOCKRT_EINVAL;
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        int rc = classify(w, false);
        free(w);
        return rc == LOCKRT__BUSY ? LOCKRT_EMISMATCH : rc;
    }
    free(w);
    BY_HANDLE_FILE_INFORMATION before;
    int rc = check_type(h, &before);
    uint64_t hash = 0;
    uint64_t size_before = 0;
    if (rc == LOCKRT_OK)
        size_before = ((uint64_t)before.nFileSizeHigh << 32) | before.nFileSizeLow;
    if (rc == LOCKRT_OK && size_before > max_size) {
        rc = lockrt__handle_identity(h, 0, id, NULL);
        CloseHandle(h);
        return rc == LOCKRT_OK ? LOCKRT__TOO_BIG : rc;
    }
    if (rc == LOCKRT_OK)
        rc = lockrt__hash_handle(h, buf, cap, len, &hash, size_before);
    if (rc == LOCKRT_OK) {
        rc = lockrt__handle_identity(h, hash, id, NULL);
        if (rc == LOCKRT_OK &&
            (id->size != size_before ||
             id->mtime_ns != lockrt__filetime_to_unix_ns(before.ftLastWriteTime)))
            rc = LOCKRT_EMISMATCH; /* written while we read: a torn identity */
    }
    CloseHandle(h);
    return rc;
}

int lockrt__record_capture(const char *path, char *buf, size_t cap, size_t *len, lockrt_identity *id)
{
    int rc = capture(path, buf, cap, len, id, cap);
    if (rc == LOCKRT__TOO_BIG) {
        *len = 0;
        return LOCKRT_ECORRUPT; /* larger than any record: not one, never read */
    }
    return rc;
}

int lockrt_identity_of(const char *path, lockrt_identity *out)
{
    if (!path || !*path || !out)
        return LOCKRT_EINVAL;
    return capture(path, NULL, 0, NULL, out, UINT64_MAX);
}

int lockrt_unlink_if_identical(const char *path, const lockrt_identity *judged,
                               const lockrt_options *opts)
{
    (void)opts;
    return lockrt__unlink_if_identical(path, judged, NULL);
}

int lockrt__unlink_if_identical(const char *path, const lockrt_identity *judged,
                                const lockrt_test_hooks *hooks)
{
    if (!path || !*path || !judged)
        return LOCKRT_EINVAL;
    wchar_t *w = lockrt__widen(path);
    if (!w)
        return LOCKRT_EINVAL;
    HANDLE h = INVALID_HANDLE_VALUE;
    int rc = LOCKRT_EIO;
    /* Another reader holding the file without FILE_SHARE_DELETE makes our open
     * fail with a sharing violation for a moment: bounded retry. */
    for (int attempt = 0; attempt < 50; attempt++) {
        h = CreateFileW(w, GENERIC_READ | DELETE, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                        FILE_FLAG_OPEN_REPARSE_POINT, NULL);
        if (h != INVALID_HANDLE_VALUE)
            break;
        rc = classify(w, false);
        if (rc != LOCKRT__BUSY)
            break;
        Sleep(2);
    }
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return rc == LOCKRT__BUSY ? LOCKRT_EIO : rc;

    BY_HANDLE_FILE_INFORMATION info;
    rc = check_type(h, &info);
    if (rc != LOCKRT_OK) {
        CloseHandle(h);
        return rc;
    }
    /* Windows has no quarantine name: the handle pins the object instead. */
    if (hooks && hooks->after_quarantine)
        hooks->after_quarantine(path, hooks->hook_arg);
    uint64_t hash = 0;
    lockrt_identity now;
    uint64_t size = ((uint64_t)info.nFileSizeHigh << 32) | info.nFileSizeLow;
    /* A different size is a mismatch without reading a byte. */
    rc = size == judged->size ? lockrt__hash_handle(h, NULL, 0, NULL, &hash, size) : LOCKRT_EMISMATCH;
    if (rc == LOCKRT_OK)
        rc = lockrt__handle_identity(h, hash, &now, NULL);
    if (rc == LOCKRT_OK && !lockrt__identity_equal(&now, judged))
        rc = LOCKRT_EMISMATCH;
    if (rc == LOCKRT_OK) {
        FILE_DISPOSITION_INFO di = {TRUE};
        if (!SetFileInformationByHandle(h, FileDispositionInfo, &di, sizeof di))
            rc = LOCKRT_EIO;
    }
    CloseHandle(h);
    return rc;
}
