/* lf_testpath: test code by path, the way test runners collect it. */
#include "lf_testpath.h"

#include <string.h>

static int dir_is_test(const char *s, size_t n) {
    /* Only the directories no product code is named after: a `tests/` tree may
     * hold fixtures of real programs (this repository's own do). */
    static const char *const dirs[] = {"__tests__", "__mocks__", NULL};
    for (size_t i = 0; dirs[i]; i++)
        if (strlen(dirs[i]) == n && !memcmp(s, dirs[i], n))
            return 1;
    return 0;
}

static int name_is_test(const char *name) {
    size_t n = strlen(name);
    const char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".py"))
        return !strncmp(name, "test_", 5) || !strcmp(name, "conftest.py") ||
               (n > 8 && !strcmp(name + n - 8, "_test.py"));
    /* foo.test.ts, foo.spec.mjs: the second-to-last component */
    if (!dot || dot == name)
        return 0;
    const char *p = dot;
    while (p > name && p[-1] != '.')
        p--;
    if (p == name)
        return 0;
    size_t len = (size_t)(dot - p);
    return (len == 4 && !memcmp(p, "test", 4)) || (len == 4 && !memcmp(p, "spec", 4));
}

int lf_is_test_path(const char *path) {
    if (!path)
        return 0;
    const char *start = path;
    for (const char *s = path;; s++) {
        if (*s == '/' || *s == '\0') {
            if (*s == '\0')
                return name_is_test(start);
            if (dir_is_test(start, (size_t)(s - start)))
                return 1;
            start = s + 1;
        }
    }
}
