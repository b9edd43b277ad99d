/* Name -> check table. A rule's JSON "check" field names one of these. */
#include <string.h>

#include "lf_check.h"

/* Each check lives in its own file under checks/ and is declared here. */
extern const lf_check lf101_unlocked_fallback_check;
extern const lf_check lf103_unlocked_append_check;
extern const lf_check lf104_unlocked_rmw_check;
extern const lf_check lf201_realpath_missing_check;
extern const lf_check lf301_lock_removal_check;
extern const lf_check lf302_mtime_staleness_check;
extern const lf_check lf303_liveness_check;
extern const lf_check lf401_shared_temp_check;

static const lf_check *const k_checks[] = {
    &lf101_unlocked_fallback_check,
    &lf103_unlocked_append_check,
    &lf104_unlocked_rmw_check,
    &lf201_realpath_missing_check,
    &lf301_lock_removal_check,
    &lf302_mtime_staleness_check,
    &lf303_liveness_check,
    &lf401_shared_temp_check,
    NULL,
};

const lf_check *lf_check_find(const char *name) {
    for (size_t i = 0; k_checks[i]; i++)
        if (strcmp(k_checks[i]->name, name) == 0)
            return k_checks[i];
    return NULL;
}

/* Message names a check fills from nodes it found itself (lf_ctx_emit_named_site)
 * rather than from query captures, by language: LF401's Python temp spellings are
 * recognised in C, near the renames, so its Python query captures no @temp. */
typedef struct check_names {
    const lf_check *check;
    lf_lang lang;
    const char *const *names; /* NULL-terminated */
} check_names;

static const char *const k_lf401_names[] = {"temp", "base", NULL};
static const check_names k_check_names[] = {
    {&lf401_shared_temp_check, LF_LANG_PYTHON, k_lf401_names},
};

int lf_check_renders(const lf_check *check, lf_lang lang, const char *name) {
    for (size_t i = 0; i < sizeof k_check_names / sizeof *k_check_names; i++) {
        if (k_check_names[i].check != check || k_check_names[i].lang != lang)
            continue;
        for (size_t k = 0; k_check_names[i].names[k]; k++)
            if (strcmp(k_check_names[i].names[k], name) == 0)
                return 1;
    }
    return 0;
}
