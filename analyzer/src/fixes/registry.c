/* Name -> fix generator table. A rule's JSON "fix": {"generator": ...} names one. */
#include <string.h>

#include "lf_check.h"
#include "lf_util.h"

/* Each fixer lives in its own file under fixes/ and is declared here. */
extern const lf_fixer lf101_lockrt;
extern const lf_fixer lf104_lockrt;
extern const lf_fixer lf201_confined_path;
extern const lf_fixer lf301_release_owned;
extern const lf_fixer lf302_holder_alive;
extern const lf_fixer lf303_esrch;
extern const lf_fixer lf401_unique_temp;

static const lf_fixer *const k_fixers[] = {
    &lf101_lockrt,
    &lf104_lockrt,
    &lf201_confined_path,
    &lf301_release_owned,
    &lf302_holder_alive,
    &lf303_esrch,
    &lf401_unique_temp,
    NULL,
};

const lf_fixer *lf_fixer_find(const char *name) {
    for (size_t i = 0; k_fixers[i]; i++)
        if (strcmp(k_fixers[i]->name, name) == 0)
            return k_fixers[i];
    return NULL;
}

int lf_fix_site_declines(const void *site, const char *decline, char **why) {
    if (!site || decline) {
        *why = lf_xstrdup(site ? decline : "the check recognised no rewritable site here");
        return 1;
    }
    return 0;
}
