/* The rule JSON documents under rules/, compiled into the binary (see cmake/EmbedRules.cmake). */
#ifndef LF_RULES_BUILTIN_H
#define LF_RULES_BUILTIN_H

#include <stddef.h>

typedef struct lf_builtin_rule {
    const char *origin; /* "rules/LF101-unlocked-fallback.json" */
    const char *text;   /* NUL-terminated JSON */
    size_t len;
} lf_builtin_rule;

extern const lf_builtin_rule lf_builtin_rules[]; /* terminated by {NULL, NULL, 0} */
extern const size_t lf_builtin_rules_count;

#endif
