#include "lf_pyshort.h"

#include <string.h>

#include "lf_util.h"

char *lf_py_short(const lf_source *src, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    const char *t = src->text + a;
    size_t len = b - a;
    const char *nl = memchr(t, '\n', len);
    int cut = 0;
    if (nl) {
        len = (size_t)(nl - t);
        cut = 1;
    }
    /* Cut at 60 code points, never inside a UTF-8 sequence. */
    size_t cps = 0, i = 0;
    for (; i < len; i++) {
        if (((unsigned char)t[i] & 0xC0) != 0x80) {
            if (cps == 60) {
                cut = 1;
                break;
            }
            cps++;
        }
    }
    len = i;
    while (len && (t[len - 1] == ' ' || t[len - 1] == '\t' || t[len - 1] == '\r'))
        len--;
    return lf_xasprintf("%.*s%s", (int)len, t, cut ? "..." : "");
}

unsigned lf_py_line(const lf_source *src, TSNode n) {
    uint32_t line, col;
    lf_source_position(src, ts_node_start_byte(n), &line, &col);
    return line;
}
