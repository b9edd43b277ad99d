/* confined_path and write_atomic on Windows. */
#include "win_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int lockrt__name_ok(const char *name);

/* Final (resolved) path of an existing object, following reparse points. */
static bool final_path(const wchar_t *w, wchar_t *out, DWORD cap)
{
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    DWORD n = GetFinalPathNameByHandleW(h, out, cap, FILE_NAME_NORMALIZED);
    CloseHandle(h);
    return n > 0 && n < cap;
}

int lockrt_confined_path(const char *dir, const char *name, char *out, size_t out_size)
{
    if (!dir || !*dir || !out || out_size == 0)
        return LOCKRT_EINVAL;
    if (!lockrt__name_ok(name))
        return LOCKRT_EESCAPE;
    size_t dl = strlen(dir);
    bool sep = dir[dl - 1] == '/' || dir[dl - 1] == '\\';
    int n = snprintf(out, out_size, "%s%s%s", dir, sep ? "" : "\\", name);
    if (n < 0 || (size_t)n >= out_size)
        return LOCKRT_EINVAL;
    wchar_t *w = lockrt__widen(out);
    if (!w)
        return LOCKRT_EESCAPE;
    DWORD attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES || !(attrs & FILE_ATTRIBUTE_REPARSE_POINT)) {
        free(w);
        return LOCKRT_OK; /* missing, or a real entry of dir */
    }
    /* A reparse point (symlink, junction): where does it lead, and where does dir
     * lead? Both resolved, so a state dir behind a junction is no false alarm. A
     * dangling link is refused: we cannot tell where a write would land. */
    wchar_t *wd = lockrt__widen(dir);
    wchar_t target[MAX_PATH * 4], root[MAX_PATH * 4];
    bool ok = wd && final_path(w, target, MAX_PATH * 4) && final_path(wd, root, MAX_PATH * 4);
    free(w);
    free(wd);
    if (!ok)
        return LOCKRT_EESCAPE;
    size_t rl = wcslen(root);
    if (rl > 0 && root[rl - 1] == L'\\')
        rl--;
    if (_wcsnicmp(root, target, rl) != 0 || (target[rl] != L'\\' && target[rl] != L'\0'))
        return LOCKRT_EESCAPE;
    return LOCKRT_OK;
}

int lockrt_write_atomic(const char *path, const void *data, size_t len, unsigned mode)
{
    (void)mode; /* no POSIX modes on Windows; the new file inherits the dir's ACL */
    if (!path || !*path || (!data && len > 0) || len > 0xffffffffu)
        return LOCKRT_EINVAL;
    const char *slash = strrchr(path, '/');
    const char *bslash = strrchr(path, '\\');
    if (bslash && (!slash || bslash > slash))
        slash = bslash;
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    if (!*base)
        return LOCKRT_EINVAL;
    wchar_t *wpath = lockrt__widen(path);
    if (!wpath)
        return LOCKRT_EINVAL;

    char tmp[4096];
    wchar_t *wtmp = NULL;
    HANDLE h = INVALID_HANDLE_VALUE;
    int rc = LOCKRT_EIO;
    for (int attempt = 0; attempt < 16 && h == INVALID_HANDLE_VALUE; attempt++) {
        char hex[17];
        if ((rc = lockrt__random_hex(hex, 8)) != LOCKRT_OK)
            break;
        if (snprintf(tmp, sizeof tmp, "%.*s.%s.%s.tmp", (int)dirlen, path, base, hex) >= (int)sizeof tmp) {
            rc = LOCKRT_EINVAL;
            break;
        }
        free(wtmp);
        wtmp = lockrt__widen(tmp);
        if (!wtmp) {
            rc = LOCKRT_EINVAL;
            break;
        }
        h = CreateFileW(wtmp, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (h == INVALID_HANDLE_VALUE) {
            DWORD e = GetLastError();
            if (e == ERROR_PATH_NOT_FOUND || e == ERROR_FILE_NOT_FOUND) {
                rc = LOCKRT_ENOENT;
                break;
            }
            if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS && e != ERROR_ACCESS_DENIED) {
                rc = LOCKRT_EIO;
                break;
            }
        }
    }
    if (h == INVALID_HANDLE_VALUE) {
        free(wtmp);
        free(wpath);
        return rc == LOCKRT_OK ? LOCKRT_EIO : rc;
    }
    DWORD written = 0;
    BOOL ok = (len == 0 || (WriteFile(h, data, (DWORD)len, &written, NULL) && written == len)) &&
              FlushFileBuffers(h);
    CloseHandle(h);
    if (!ok) {
        DeleteFileW(wtmp);
        free(wtmp);
        free(wpath);
        return LOCKRT_EIO;
    }
    /* MoveFileExW fails with ACCESS_DENIED / SHARING_VIOLATION while another
     * process has the target open without FILE_SHARE_DELETE (editors, virus
     * scanners, a plain fopen reader): those go away, so retry, but bounded. */
    rc = LOCKRT_EIO;
    DWORD nap = 1;
    for (int attempt = 0; attempt < 100; attempt++) {
        if (MoveFileExW(wtmp, wpath, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            rc = LOCKRT_OK;
            break;
        }
        DWORD e = GetLastError();
        if (e == ERROR_PATH_NOT_FOUND) {
            rc = LOCKRT_ENOENT;
            break;
        }
        if (e != ERROR_ACCESS_DENIED && e != ERROR_SHARING_VIOLATION && e != ERROR_LOCK_VIOLATION)
            break;
        Sleep(nap);
        if (nap < 32)
            nap *= 2;
    }
    if (rc != LOCKRT_OK)
        DeleteFileW(wtmp);
    free(wtmp);
    free(wpath);
    return rc;
}
