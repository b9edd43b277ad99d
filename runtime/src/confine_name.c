/* Name validation shared by every platform's confined_path. */
#include "lockrt_internal.h"

#include <string.h>

/* A state-file name is one path component: no separators of either platform
 * (a name valid on Unix must not escape on Windows), no "."/"..", no control
 * characters (NUL cannot reach us inside a C string; the rest are refused so a
 * name cannot smuggle newlines into logs or records), and on Windows none of the
 * characters the Win32 namespace reserves (":" would open an alternate stream). */
int lockrt__name_ok(const char *name);
int lockrt__name_ok(const char *name)
{
    if (!name || !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || *p == '/' || *p == '\\')
            return 0;
#ifdef _WIN32
        if (strchr("<>:\"|?*", *p))
            return 0;
#endif
    }
#ifdef _WIN32
    size_t n = strlen(name);
    if (name[n - 1] == '.' || name[n - 1] == ' ')
        return 0; /* Win32 strips these: "a." and "a" are the same file */
#endif
    return 1;
}
