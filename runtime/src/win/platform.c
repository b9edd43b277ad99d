/* Windows clock, sleep, randomness, identity of this process, drive type. */
#include "win_util.h"

#include <bcrypt.h>
#include <stdlib.h>
#include <string.h>

wchar_t *lockrt__widen(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
        free(w);
        return NULL;
    }
    return w;
}

int64_t lockrt__filetime_to_unix_ns(FILETIME ft)
{
    uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return ((int64_t)t - 116444736000000000LL) * 100;
}

uint64_t lockrt__monotonic_ms(void)
{
    return (uint64_t)GetTickCount64();
}

int64_t lockrt__wall_ms(void)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    return lockrt__filetime_to_unix_ns(ft) / 1000000;
}

void lockrt__sleep_ms(uint32_t ms)
{
    Sleep(ms);
}

int lockrt__random_bytes(void *buf, size_t n)
{
    NTSTATUS st = BCryptGenRandom(NULL, buf, (ULONG)n, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
    return st >= 0 ? LOCKRT_OK : LOCKRT_EIO;
}

int lockrt__hostname(char *buf, size_t cap)
{
    wchar_t w[256];
    DWORD n = sizeof w / sizeof w[0];
    if (!GetComputerNameExW(ComputerNameDnsHostname, w, &n))
        return LOCKRT_EIO;
    if (WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, (int)cap, NULL, NULL) <= 0)
        return LOCKRT_EIO;
    return LOCKRT_OK;
}

int64_t lockrt__self_pid(void)
{
    return (int64_t)GetCurrentProcessId();
}

/* UNC paths and mapped network drives use the lockfile strategy: byte-range
 * locks over SMB depend on the server and on oplock/caching settings. */
bool lockrt__is_network_fs(const char *path)
{
    wchar_t *w = lockrt__widen(path);
    if (!w)
        return false;
    wchar_t full[MAX_PATH * 2], volume[MAX_PATH * 2];
    DWORD n = GetFullPathNameW(w, (DWORD)(sizeof full / sizeof full[0]), full, NULL);
    free(w);
    if (n == 0 || n >= sizeof full / sizeof full[0])
        return false;
    if (full[0] == L'\\' && full[1] == L'\\') {
        /* \\?\C:\ and \\.\ are local device paths; \\server\share and \\?\UNC\ are not */
        if ((full[2] == L'?' || full[2] == L'.') && full[3] == L'\\')
            return _wcsnicmp(full + 4, L"UNC\\", 4) == 0;
        return true;
    }
    if (!GetVolumePathNameW(full, volume, (DWORD)(sizeof volume / sizeof volume[0])))
        return false;
    return GetDriveTypeW(volume) == DRIVE_REMOTE;
}

int lockrt__handle_identity(HANDLE h, uint64_t hash, lockrt_identity *id,
                            BY_HANDLE_FILE_INFORMATION *info)
{
    BY_HANDLE_FILE_INFORMATION local;
    if (!info)
        info = &local;
    if (!GetFileInformationByHandle(h, info))
        return LOCKRT_EIO;
    id->dev = info->dwVolumeSerialNumber;
    id->ino = ((uint64_t)info->nFileIndexHigh << 32) | info->nFileIndexLow;
    id->size = ((uint64_t)info->nFileSizeHigh << 32) | info->nFileSizeLow;
    id->mtime_ns = lockrt__filetime_to_unix_ns(info->ftLastWriteTime);
    id->content_hash = hash;
    return LOCKRT_OK;
}

int lockrt__hash_handle(HANDLE h, char *buf, size_t cap, size_t *len, uint64_t *hash,
                        uint64_t limit)
{
    LARGE_INTEGER zero;
    zero.QuadPart = 0;
    if (!SetFilePointerEx(h, zero, NULL, FILE_BEGIN))
        return LOCKRT_EIO;
    char chunk[4096];
    uint64_t hv = LOCKRT__FNV_SEED;
    size_t copied = 0;
    uint64_t total = 0;
    for (;;) {
        DWORD want = sizeof chunk, got = 0;
        if (limit - total < want)
            want = (DWORD)(limit - total) + 1;
        if (!ReadFile(h, chunk, want, &got, NULL))
            return LOCKRT_EIO;
        if (got == 0)
            break;
        total += got;
        if (total > limit)
            return LOCKRT_EMISMATCH;
        hv = lockrt__fnv1a(chunk, got, hv);
        if (buf && copied < cap) {
            size_t take = got < cap - copied ? got : cap - copied;
            memcpy(buf + copied, chunk, take);
            copied += take;
        }
    }
    if (len)
        *len = copied;
    *hash = hv;
    return LOCKRT_OK;
}
