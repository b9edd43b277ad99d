/* lf_pathfact: see lf_pathfact.h. */
#include "lf_pathfact.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

static const char *const k_env_per_user[] = {"HOME",          "USERPROFILE",     "HOMEPATH",        "XDG_CONFIG_HOME",
                                             "XDG_DATA_HOME", "XDG_STATE_HOME",  "XDG_CACHE_HOME",  "XDG_RUNTIME_DIR",
                                             "APPDATA",       "LOCALAPPDATA",    NULL};

int lf_pathfact_env_per_user(const char *name, size_t len) {
    for (size_t i = 0; k_env_per_user[i]; i++)
        if (strlen(k_env_per_user[i]) == len && !memcmp(k_env_per_user[i], name, len))
            return 1;
    return 0;
}

int lf_pathfact_home_name(const char *name, size_t len) {
    /* letters and digits only, lower-cased: CLAUDE_HOME -> claudehome */
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof buf; i++)
        if (isalnum((unsigned char)name[i]))
            buf[k++] = (char)tolower((unsigned char)name[i]);
    buf[k] = '\0';
    static const char *const ends[] = {"home", "homedir", "homepath", "homedirectory", NULL};
    for (size_t i = 0; ends[i]; i++) {
        size_t e = strlen(ends[i]);
        if (k >= e && !strcmp(buf + k - e, ends[i]))
            return 1;
    }
    return 0;
}

int lf_pathfact_per_user(TSNode expr, lf_pathfact_step step, void *ud) {
    LF_VEC(TSNode) work = {0};
    LF_VEC_PUSH(&work, expr);
    int seen_per_user = 0, other = 0;
    size_t budget = LF_PATHFACT_BUDGET;
    while (work.len && !other) {
        if (!budget--) {
            other = 1;
            break;
        }
        TSNode n = work.items[--work.len];
        if (ts_node_is_null(n)) {
            other = 1;
            break;
        }
        TSNode next[LF_PATHFACT_FANOUT];
        size_t n_next = 0;
        switch (step(ud, n, next, LF_PATHFACT_FANOUT, &n_next)) {
        case LF_PF_PER_USER: seen_per_user = 1; break;
        case LF_PF_NEUTRAL: break;
        case LF_PF_FOLLOW:
            if (!n_next)
                other = 1;
            for (size_t i = 0; i < n_next && i < LF_PATHFACT_FANOUT; i++)
                LF_VEC_PUSH(&work, next[i]);
            break;
        default: other = 1; break;
        }
    }
    LF_VEC_FREE(&work);
    return seen_per_user && !other;
}
