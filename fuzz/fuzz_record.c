/* Target (f): lockrt's owner-record parser, the gate before lockrt may remove a
 * file (runtime/src/record.c, docs/lockrt.md section 2). Whatever it accepts
 * must round-trip: formatting the parsed owner gives back the input byte for
 * byte, since the parser promises to accept exactly what the formatter writes
 * and nothing else (no other order, whitespace, escape, or trailing byte). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockrt_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* Exactly `size` bytes on the heap, so ASan catches a read one past the end. */
    char *buf = malloc(size ? size : 1);
    memcpy(buf, data, size);
    lockrt_owner o;
    memset(&o, 0xA5, sizeof o);
    int rc = lockrt__record_parse(buf, size, &o);
    if (rc == LOCKRT_OK) {
        if (memchr(o.host, '\0', sizeof o.host) == NULL || memchr(o.token, '\0', sizeof o.token) == NULL) {
            fprintf(stderr, "parsed owner has an unterminated host or token\n");
            abort();
        }
        char out[4 * LOCKRT__RECORD_MAX];
        int n = lockrt__record_format(&o, out, sizeof out);
        if (n < 0 || (size_t)n != size || memcmp(out, buf, size) != 0) {
            fprintf(stderr, "record accepted but does not round-trip: in %zu bytes, out %d bytes\n", size, n);
            abort();
        }
    } else if (rc != LOCKRT_ECORRUPT) {
        fprintf(stderr, "record parse returned %d (expected LOCKRT_OK or LOCKRT_ECORRUPT)\n", rc);
        abort();
    }
    free(buf);
    return 0;
}
