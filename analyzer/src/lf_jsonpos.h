/* lf_jsonpos: byte offsets inside a JSON text that cJSON has already accepted,
 * so errors about its content can name a line (cJSON keeps no positions). */
#ifndef LF_JSONPOS_H
#define LF_JSONPOS_H

#include <stddef.h>

#define LF_JSONPOS_NONE ((size_t)-1)

/* Offset of the top-level value (after whitespace and a UTF-8 BOM). */
size_t lf_jsonpos_root(const char *text, size_t len);
/* Offset of the key of the index-th member of the object starting at obj. */
size_t lf_jsonpos_member_key(const char *text, size_t len, size_t obj, size_t index);
/* Offset of the value of the index-th member of the object starting at obj. */
size_t lf_jsonpos_member_value(const char *text, size_t len, size_t obj, size_t index);
/* Offset of the index-th element of the array starting at arr. */
size_t lf_jsonpos_element(const char *text, size_t len, size_t arr, size_t index);
/* 1-based line of an offset (LF_JSONPOS_NONE maps to line 1). */
unsigned lf_jsonpos_line(const char *text, size_t len, size_t off);

#endif
