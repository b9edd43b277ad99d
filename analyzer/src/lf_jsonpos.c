#include "lf_jsonpos.h"

#include <string.h>

static size_t skip_ws(const char *t, size_t len, size_t i) {
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

static size_t skip_string(const char *t, size_t len, size_t i) {
    for (i++; i < len && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i < len ? i + 1 : len;
}

/* The text is valid JSON, so balancing brackets outside strings finds the end. */
static size_t skip_value(const char *t, size_t len, size_t i) {
    if (i >= len)
        return len;
    if (t[i] == '"')
        return skip_string(t, len, i);
    if (t[i] == '{' || t[i] == '[') {
        int depth = 0;
        while (i < len) {
            char c = t[i];
            if (c == '"') {
                i = skip_string(t, len, i);
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            i++;
        }
        return len;
    }
    while (i < len && !strchr(",]} \t\r\n", t[i]))
        i++;
    return i;
}

size_t lf_jsonpos_root(const char *text, size_t len) {
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    return skip_ws(text, len, i);
}

/* Walk the container at `at` to its index-th item. For objects *key is the
 * key offset and the return value the value offset. */
static size_t nth_item(const char *t, size_t len, size_t at, size_t index, char open, size_t *key) {
    if (at == LF_JSONPOS_NONE || at >= len || t[at] != open)
        return LF_JSONPOS_NONE;
    size_t i = skip_ws(t, len, at + 1);
    for (size_t n = 0; i < len && t[i] != (open == '{' ? '}' : ']'); n++) {
        size_t k = i;
        if (open == '{') {
            i = skip_string(t, len, i);
            i = skip_ws(t, len, i);
            i = skip_ws(t, len, i + 1); /* past ':' */
        }
        if (n == index) {
            if (key)
                *key = k;
            return i;
        }
        i = skip_ws(t, len, skip_value(t, len, i));
        if (i < len && t[i] == ',')
            i = skip_ws(t, len, i + 1);
    }
    return LF_JSONPOS_NONE;
}

size_t lf_jsonpos_member_key(const char *text, size_t len, size_t obj, size_t index) {
    size_t key = LF_JSONPOS_NONE;
    if (nth_item(text, len, obj, index, '{', &key) == LF_JSONPOS_NONE)
        return LF_JSONPOS_NONE;
    return key;
}

size_t lf_jsonpos_member_value(const char *text, size_t len, size_t obj, size_t index) {
    return nth_item(text, len, obj, index, '{', NULL);
}

size_t lf_jsonpos_element(const char *text, size_t len, size_t arr, size_t index) {
    return nth_item(text, len, arr, index, '[', NULL);
}

unsigned lf_jsonpos_line(const char *text, size_t len, size_t off) {
    if (off == LF_JSONPOS_NONE)
        return 1;
    unsigned line = 1;
    for (size_t i = 0; i < off && i < len; i++)
        if (text[i] == '\n')
            line++;
    return line;
}
