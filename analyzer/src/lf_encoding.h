/* lf_encoding: the text encoding of a source file, and conversion between it
 * and the UTF-8 the analysis reads (glibc iconv).
 *
 * Python: a PEP 263 declaration on line 1 or 2, found and named the way
 * CPython's tokenizer does it (line 2 counts only under a blank or comment-only
 * line 1; "latin-1", "iso-8859-1", "utf-8-sig"... normalised as CPython does,
 * other names through Python's common aliases, then iconv), and a UTF-8
 * byte-order mark, which only a "utf-8" declaration may accompany. TS/JS: a
 * UTF-8 byte-order mark, or UTF-16 LE/BE behind its byte-order mark. Anything
 * else is UTF-8. Decoding keeps lines: each encoding here writes a line break
 * as the same characters, so line N of the text is line N of the file.
 */
#ifndef LF_ENCODING_H
#define LF_ENCODING_H

#include <stddef.h>

#include "lf_lang.h"
#include "lf_util.h"

#define LF_ENCODING_NAME_MAX 48

typedef enum lf_encoding_kind {
    LF_ENC_UTF8 = 0, /* the bytes after any byte-order mark are the UTF-8 text itself */
    LF_ENC_ICONV,    /* another ASCII-compatible encoding (a Python declaration): transcoded */
    LF_ENC_UTF16     /* UTF-16 behind its byte-order mark (TS/JS): transcoded */
} lf_encoding_kind;

typedef struct lf_encoding {
    lf_encoding_kind kind;
    unsigned bom_len;                 /* bytes of byte-order mark before the text: 0, 2 or 3 */
    unsigned decl_line;               /* Python: the line of the coding declaration, 0 when none */
    char name[LF_ENCODING_NAME_MAX];  /* for messages: the declared name, "UTF-16LE", "utf-8"; "" when
                                         the file is UTF-8 and says nothing */
    char iconv[LF_ENCODING_NAME_MAX]; /* iconv's name for it (transcoded kinds only) */
} lf_encoding;

typedef enum lf_decode_status {
    LF_DECODE_OK = 0,
    LF_DECODE_BINARY,      /* a NUL byte (a NUL character, in UTF-16 text) */
    LF_DECODE_BAD_UTF8,    /* UTF-8 (declared or by default) with a malformed sequence */
    LF_DECODE_BAD_ENCODING /* an unknown or unusable encoding, bytes it cannot decode, a conflicting BOM */
} lf_decode_status;

/* Decide how buf[0..len) (a file of language lang, NUL-terminated at len) is
 * encoded, and decode it. On LF_DECODE_OK, *enc describes the encoding and
 * *text is NULL when the UTF-8 text is buf itself from enc->bom_len on (no
 * copy made), else a malloc'd NUL-terminated UTF-8 text of *text_len bytes.
 * Otherwise *why is a malloc'd reason without the path ("binary file (NUL
 * byte)", "line 3: byte 0x81 (byte offset 41) is not cp1252, the encoding
 * line 1 declares"). */
lf_decode_status lf_encoding_decode(const char *buf, size_t len, lf_lang lang, lf_encoding *enc, char **text,
                                    size_t *text_len, char **why);

/* Append utf8[0..len) encoded as enc (no byte-order mark) to out. Returns 1,
 * or 0 when a character cannot be encoded, with *bad set to its offset in utf8
 * (out then holds what came before it), or to len when iconv could only
 * approximate some character (never accepted). */
int lf_encoding_encode(const lf_encoding *enc, const char *utf8, size_t len, lf_strbuf *out, size_t *bad);

/* The name a PEP 263 declaration in buf (the file's bytes after any BOM)
 * gives, as written, into name (at most cap - 1 bytes, truncated), with its
 * 1-based line in *line. Returns 0 when there is none. */
int lf_encoding_python_declaration(const char *buf, size_t len, char *name, size_t cap, unsigned *line);

/* CPython's own normalisation of a declared name (tokenizer.c, get_normal_name):
 * "utf-8" for utf-8 / utf_8 / UTF-8-sig..., "iso-8859-1" for latin-1 /
 * iso-8859-1 / iso-latin-1 and their "-suffixed" forms, else NULL. */
const char *lf_encoding_cpython_normal_name(const char *name);

/* Length of the well-formed UTF-8 sequence at s (RFC 3629), 0 when malformed. */
size_t lf_utf8_seq_len(const unsigned char *s, size_t avail);
/* Offset of the first NUL byte or malformed UTF-8 sequence in text[0..len), len when none. */
size_t lf_utf8_first_bad(const char *text, size_t len);

#endif
