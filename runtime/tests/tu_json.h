/* A small JSON reader for the shared test vectors (runtime/tests/vectors): enough
 * JSON for that file, for the C test programs only. Strings come back as bytes:
 * \u0000-\u00ff is one byte each (the vectors' convention for raw bytes); any
 * other \u escape is refused. Numbers keep their text. */
#ifndef LOCKRT_TU_JSON_H
#define LOCKRT_TU_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { TJ_NULL, TJ_BOOL, TJ_NUMBER, TJ_STRING, TJ_ARRAY, TJ_OBJECT } tj_type;

typedef struct tj_value {
    tj_type type;
    bool boolean;
    char *text;              /* TJ_STRING (NUL-terminated, may hold NULs) / TJ_NUMBER */
    size_t len;              /* bytes in text */
    struct tj_value **items; /* TJ_ARRAY / TJ_OBJECT values */
    char **keys;             /* TJ_OBJECT */
    size_t count;
} tj_value;

/* NULL on a syntax error; *error_at receives the offset. */
tj_value *tj_parse(const char *text, size_t len, size_t *error_at);
void tj_free(tj_value *v);
/* Member of an object, or NULL. */
const tj_value *tj_get(const tj_value *obj, const char *key);
/* A string member's bytes (and length), or NULL when absent or not a string. */
const char *tj_str(const tj_value *obj, const char *key, size_t *len);
bool tj_true(const tj_value *obj, const char *key);
#endif
