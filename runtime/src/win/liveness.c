/*
 * Process liveness on Windows.
 *
 * OpenProcess fails with ERROR_INVALID_PARAMETER when no process has the id:
 * dead. ERROR_ACCESS_DENIED means it exists but is protected or another user's:
 * alive (the EPERM of Windows). An opened process may already have exited while
 * some handle keeps its object around: a signalled process handle means dead.
 * Windows recycles pids quickly, so the record's start time (the creation
 * FILETIME from GetProcessTimes) is compared whenever the record carries one.
 */
#include "win_util.h"

static uint64_t filetime_u64(FILETIME ft)
{
    return ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

int lockrt_process_start_time(int64_t pid, uint64_t *out)
{
    if (pid <= 0 || pid > 0xffffffffLL || !out)
        return LOCKRT_EINVAL;
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h)
        return GetLastError() == ERROR_INVALID_PARAMETER ? LOCKRT_ENOENT : LOCKRT_EIO;
    FILETIME created, exited, kernel, user;
    BOOL ok = GetProcessTimes(h, &created, &exited, &kernel, &user);
    CloseHandle(h);
    if (!ok)
        return LOCKRT_EIO;
    *out = filetime_u64(created);
    return LOCKRT_OK;
}

lockrt_liveness lockrt_process_alive(int64_t pid, uint64_t start_time)
{
    if (pid <= 0 || pid > 0xffffffffLL)
        return LOCKRT_UNKNOWN;
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, (DWORD)pid);
    if (!h && GetLastError() == ERROR_ACCESS_DENIED)
        h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h) {
        DWORD e = GetLastError();
        if (e == ERROR_INVALID_PARAMETER)
            return LOCKRT_DEAD;
        return e == ERROR_ACCESS_DENIED ? LOCKRT_ALIVE : LOCKRT_UNKNOWN;
    }
    lockrt_liveness verdict = LOCKRT_ALIVE;
    if (WaitForSingleObject(h, 0) == WAIT_OBJECT_0) {
        verdict = LOCKRT_DEAD; /* exited; only its handle table entry lingers */
    } else {
        DWORD code;
        if (GetExitCodeProcess(h, &code) && code != STILL_ACTIVE)
            verdict = LOCKRT_DEAD;
    }
    if (verdict == LOCKRT_ALIVE && start_time != 0) {
        FILETIME created, exited, kernel, user;
        if (GetProcessTimes(h, &created, &exited, &kernel, &user) &&
            filetime_u64(created) != start_time)
            verdict = LOCKRT_DEAD; /* the pid was recycled */
    }
    CloseHandle(h);
    return verdict;
}
