/* Lexical helpers of the TS/JS check gates (lf_tsgate.h). */
#include "lf_tsgate.h"

#include <string.h>

#include "lf_util.h"

int lf_tsgate_name_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c >= 0x80;
}

int lf_tsgate_each_name(const char *text, size_t len, int (*fn)(const char *s, size_t n, void *ud), void *ud) {
    for (size_t i = 0; i < len;) {
        if (!lf_tsgate_name_byte((unsigned char)text[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && lf_tsgate_name_byte((unsigned char)text[j]))
            j++;
        lf_work(j - i);
        int r = fn(text + i, j - i, ud);
        if (r)
            return r;
        i = j;
    }
    return 0;
}

int lf_tsgate_has_any(const char *text, size_t len, const char *const *words) {
    for (size_t i = 0; words[i]; i++) {
        size_t w = strlen(words[i]);
        if (len >= w && memmem(text, len, words[i], w))
            return 1;
    }
    return 0;
}

int lf_tsgate_run_is_any(const char *s, size_t n, const char *const *names) {
    /* a non-ASCII byte may be part of the name (a Unicode letter) or end it
     * (U+00A0 and the other Zs spaces are whitespace to JS): each ASCII
     * stretch between two of them may be a name of its own */
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && (unsigned char)s[b] < 0x80)
            b++;
        for (size_t i = 0; names[i] && b > a; i++)
            if (strlen(names[i]) == b - a && !memcmp(s + a, names[i], b - a))
                return 1;
        a = b + 1;
    }
    return 0;
}
