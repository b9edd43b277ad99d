#include "lf_encoding.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- UTF-8 ---- */

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 when it is malformed. */
size_t lf_utf8_seq_len(const unsigned char *s, size_t avail) {
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* One pass for both checks (source is read whole, and most of it is never
 * parsed, so each pass over it counts). */
size_t lf_utf8_first_bad(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        /* Source is mostly ASCII without NULs: skip 8 bytes at a time while no
         * byte has its high bit set or is zero. */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            uint64_t zero = (w - 0x0101010101010101ull) & ~w;
            if ((w | zero) & 0x8080808080808080ull)
                break;
            i += 8;
        }
        if (i >= len)
            break;
        if (s[i] == 0)
            return i;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = lf_utf8_seq_len(s + i, len - i);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}

/* ---- PEP 263 declarations, read as CPython's tokenizer reads them ---- */

static int is_py_space(char c) { return c == ' ' || c == '\t' || c == '\f'; }
/* ASCII only, whatever the locale (CPython's Py_ISALNUM). */
static int is_ascii_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* End of the line starting at p (after its terminator: "\n", "\r\n" or a lone
 * "\r", which CPython reads as line ends too). */
static const char *line_end(const char *p, const char *end) {
    while (p < end && *p != '\n' && *p != '\r')
        p++;
    if (p < end && *p == '\r')
        p++;
    else if (p < end) /* '\n' */
        return p + 1;
    if (p < end && *p == '\n')
        p++;
    return p;
}

/* tokenizer.c get_coding_spec: the line must be a comment (only whitespace
 * before '#'); the first "coding" followed by ':' or '=', optional blanks, then
 * a non-empty run of [A-Za-z0-9_.-] (PEP 263: ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)).
 * size includes the line terminator, as in CPython (its bounds use size - 6). */
static int coding_spec(const char *s, size_t size, const char **name, size_t *name_len) {
    size_t i = 0;
    for (; i + 6 < size; i++) {
        if (s[i] == '#')
            break;
        if (!is_py_space(s[i]))
            return 0;
    }
    for (; i + 6 < size; i++) {
        if (memcmp(s + i, "coding", 6) != 0)
            continue;
        const char *t = s + i + 6;
        if (*t != ':' && *t != '=')
            continue;
        const char *end = s + size;
        do
            t++;
        while (t < end && (*t == ' ' || *t == '\t'));
        const char *begin = t;
        while (t < end && (is_ascii_alnum(*t) || *t == '-' || *t == '_' || *t == '.'))
            t++;
        if (t > begin) {
            *name = begin;
            *name_len = (size_t)(t - begin);
            return 1;
        }
    }
    return 0;
}

/* tokenizer.c check_coding_spec: after a line without a declaration, line 2 is
 * still looked at only when that line held nothing but blanks and a comment. */
static int only_comment_or_blank(const char *s, size_t size) {
    for (size_t i = 0; i < size; i++) {
        if (s[i] == '#' || s[i] == '\n' || s[i] == '\r')
            return 1;
        if (!is_py_space(s[i]))
            return 0;
    }
    return 1;
}

int lf_encoding_python_declaration(const char *buf, size_t len, char *name, size_t cap, unsigned *line) {
    const char *p = buf, *end = buf + len;
    for (unsigned ln = 1; ln <= 2 && p < end; ln++) {
        const char *e = line_end(p, end);
        const char *nm;
        size_t n;
        if (coding_spec(p, (size_t)(e - p), &nm, &n)) {
            if (n >= cap)
                n = cap - 1;
            memcpy(name, nm, n);
            name[n] = '\0';
            *line = ln;
            return 1;
        }
        if (!only_comment_or_blank(p, (size_t)(e - p)))
            return 0;
        p = e;
    }
    return 0;
}

const char *lf_encoding_cpython_normal_name(const char *s) {
    char buf[13];
    int i;
    for (i = 0; i < 12 && s[i]; i++)
        buf[i] = s[i] == '_' ? '-' : (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    buf[i] = '\0';
    if (strcmp(buf, "utf-8") == 0 || strncmp(buf, "utf-8-", 6) == 0)
        return "utf-8";
    if (strcmp(buf, "latin-1") == 0 || strcmp(buf, "iso-8859-1") == 0 || strcmp(buf, "iso-latin-1") == 0 ||
        strncmp(buf, "latin-1-", 8) == 0 || strncmp(buf, "iso-8859-1-", 11) == 0 ||
        strncmp(buf, "iso-latin-1-", 12) == 0)
        return "iso-8859-1";
    return NULL;
}

/* encodings.normalize_encoding after codecs' lower-casing: runs of anything
 * but ASCII letters, digits and '.' become one '_', none at either end. */
static void python_codec_key(const char *name, char *out, size_t cap) {
    size_t n = 0;
    int punct = 0;
    for (const char *c = name; *c && n + 2 < cap; c++) {
        if (is_ascii_alnum(*c) || *c == '.') {
            if (punct && n)
                out[n++] = '_';
            out[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
            punct = 0;
        } else {
            punct = 1;
        }
    }
    out[n] = '\0';
}

/* The aliases of Python's encodings/aliases.py that real files declare most,
 * by codec; other names go to iconv as written (glibc knows most of them:
 * cp1251, iso-8859-15, koi8-r, shift_jis, euc-jp, gbk, big5...). */
typedef struct codec_alias {
    const char *iconv; /* "" for UTF-8 */
    const char *keys;  /* python_codec_key forms, space-separated */
} codec_alias;

static const codec_alias k_aliases[] = {
    {"", "utf_8 utf8 u8 utf utf8_ucs2 utf8_ucs4 cp65001 utf_8_sig"},
    {"ISO-8859-1", "latin_1 latin1 latin l1 iso8859_1 iso_8859_1 iso8859 8859 cp819 ibm819 iso_ir_100 "
                   "csisolatin1 iso_8859_1_1987"},
    {"CP1252", "cp1252 windows_1252 1252"},
    {"ASCII", "ascii us_ascii 646 us ansi_x3.4_1968 ansi_x3_4_1968 ansi_x3.4_1986 cp367 csascii ibm367 "
              "iso646_us iso_646.irv_1991 iso_ir_6"},
    {"ISO-8859-15", "iso8859_15 iso_8859_15 latin9 latin_9 l9"},
};

/* 1 with *iconv_name ("" for UTF-8) when key is one of k_aliases. */
static int known_alias(const char *key, const char **iconv_name) {
    size_t klen = strlen(key);
    for (size_t a = 0; a < sizeof k_aliases / sizeof *k_aliases; a++) {
        for (const char *p = k_aliases[a].keys; *p;) {
            const char *sp = strchr(p, ' ');
            size_t n = sp ? (size_t)(sp - p) : strlen(p);
            if (n == klen && memcmp(p, key, n) == 0) {
                *iconv_name = k_aliases[a].iconv;
                return 1;
            }
            p += n + (sp != NULL);
        }
    }
    /* windows_1250 ... windows_1258 are cp1250 ... cp1258 in both worlds. */
    static const char *const k_windows[] = {"CP1250", "CP1251", "CP1252", "CP1253", "CP1254",
                                            "CP1255", "CP1256", "CP1257", "CP1258"};
    if (strncmp(key, "windows_125", 11) == 0 && key[11] >= '0' && key[11] <= '8' && key[12] == '\0') {
        *iconv_name = k_windows[key[11] - '0'];
        return 1;
    }
    return 0;
}

/* ---- iconv ---- */

/* convert()'s result for a conversion glibc counts as irreversible: no
 * character is ever approximated, so it is a failure, at no one offset. */
#define LF_CONVERT_LOSSY (-1)

/* Convert in[0..len) through cd, appending to out. Returns 0; or EILSEQ /
 * EINVAL with *bad the offset in `in` of the sequence that does not convert
 * (malformed, unrepresentable, or cut off by the end); or LF_CONVERT_LOSSY;
 * or another errno. */
static int convert(iconv_t cd, const char *in, size_t len, lf_strbuf *out, size_t *bad) {
    char *ip = (char *)in; /* iconv's prototype is not const-correct; it only reads */
    size_t il = len;
    size_t irreversible = 0, extra = len * 3 + 16;
    int flushing = 0;
    (void)iconv(cd, NULL, NULL, NULL, NULL);
    for (;;) {
        lf_strbuf_reserve(out, extra);
        char *op = out->data + out->len;
        size_t room = out->cap - out->len - 1, ol = room;
        size_t r = flushing ? iconv(cd, NULL, NULL, &op, &ol) : iconv(cd, &ip, &il, &op, &ol);
        int e = errno;
        out->len += room - ol;
        out->data[out->len] = '\0';
        if (r != (size_t)-1) {
            irreversible += r;
            if (flushing)
                break;
            flushing = 1; /* a stateful encoding may still owe a shift sequence */
            continue;
        }
        if (e == E2BIG) { /* grow geometrically: every round makes room */
            extra = out->cap + 16;
            continue;
        }
        *bad = (size_t)(ip - in);
        return e;
    }
    return irreversible ? LF_CONVERT_LOSSY : 0;
}

/* 1 when the encoding reads every ASCII byte as that character (PEP 263: the
 * declaration itself must be readable before the file is decoded; this also
 * keeps line breaks where they are). UTF-16, UTF-32, UTF-7, EBCDIC are not. */
static int ascii_compatible(iconv_t cd) {
    char ascii[127];
    for (int i = 0; i < 127; i++)
        ascii[i] = (char)(i + 1);
    lf_strbuf out;
    lf_strbuf_init(&out);
    size_t bad;
    int ok = convert(cd, ascii, sizeof ascii, &out, &bad) == 0 && out.len == sizeof ascii &&
             memcmp(out.data, ascii, sizeof ascii) == 0;
    lf_strbuf_free(&out);
    return ok;
}

/* iconv_open(to, from), trying the names glibc may know a Python codec name by. */
static iconv_t open_declared(const char *declared, const char *key, char *used, size_t cap) {
    char dashed[LF_ENCODING_NAME_MAX];
    snprintf(dashed, sizeof dashed, "%s", key);
    for (char *c = dashed; *c; c++)
        if (*c == '_')
            *c = '-';
    const char *candidates[] = {declared, key, dashed};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        if (!*candidates[i])
            continue;
        iconv_t cd = iconv_open("UTF-8", candidates[i]);
        if (cd != (iconv_t)-1) {
            snprintf(used, cap, "%s", candidates[i]);
            return cd;
        }
    }
    return (iconv_t)-1;
}

/* 1-based line of the failure: the text decoded before it ends on that line. */
static size_t line_of_decoded(const lf_strbuf *decoded) {
    size_t line = 1;
    for (size_t i = 0; i < decoded->len; i++)
        if (decoded->data[i] == '\n')
            line++;
    return line;
}

/* ---- decoding a file ---- */

static lf_decode_status fail(lf_decode_status st, char **why, char *msg) {
    *why = msg;
    return st;
}

/* The text after the BOM is the file's own UTF-8: check it, as before any
 * encoding was read. */
static lf_decode_status decode_utf8(const char *buf, size_t len, const lf_encoding *enc, char **why) {
    const char *text = buf + enc->bom_len;
    size_t tlen = len - enc->bom_len;
    size_t bad = lf_utf8_first_bad(text, tlen);
    if (bad == tlen)
        return LF_DECODE_OK;
    /* A NUL anywhere makes the file binary, even after an invalid UTF-8 byte. */
    if (text[bad] == '\0' || memchr(text + bad, '\0', tlen - bad))
        return fail(LF_DECODE_BINARY, why, lf_xstrdup("binary file (NUL byte)"));
    /* Name the line so the user can find the stray byte. */
    size_t line = 1;
    for (size_t i = 0; i < bad; i++)
        if (text[i] == '\n')
            line++;
    return fail(LF_DECODE_BAD_UTF8, why,
                lf_xasprintf("line %zu: invalid UTF-8 (byte offset %zu)", line, bad + enc->bom_len));
}

/* Transcode the bytes after the BOM to UTF-8 with iconv. */
static lf_decode_status decode_iconv(const char *buf, size_t len, const lf_encoding *enc, char **text,
                                     size_t *text_len, char **why) {
    iconv_t cd = iconv_open("UTF-8", enc->iconv);
    if (cd == (iconv_t)-1)
        return fail(LF_DECODE_BAD_ENCODING, why, lf_xasprintf("cannot decode %s here: %s", enc->name, strerror(errno)));
    lf_strbuf out;
    lf_strbuf_init(&out);
    size_t bad = 0;
    int e = convert(cd, buf + enc->bom_len, len - enc->bom_len, &out, &bad);
    iconv_close(cd);
    if (e == 0 && memchr(out.data ? out.data : "", '\0', out.len)) {
        lf_strbuf_free(&out);
        return fail(LF_DECODE_BINARY, why, lf_xasprintf("binary file (NUL character in its %s text)", enc->name));
    }
    if (e != 0) {
        size_t line = line_of_decoded(&out), at = bad + enc->bom_len;
        lf_strbuf_free(&out);
        char declared[64] = "";
        if (enc->decl_line)
            snprintf(declared, sizeof declared, ", the encoding line %u declares", enc->decl_line);
        if (e == LF_CONVERT_LOSSY)
            return fail(LF_DECODE_BAD_ENCODING, why, lf_xasprintf("does not decode reversibly as %s%s", enc->name,
                                                                  declared));
        if (e == EINVAL)
            return fail(LF_DECODE_BAD_ENCODING, why,
                        lf_xasprintf("line %zu: ends inside a %s character (byte offset %zu)%s", line, enc->name, at,
                                     declared));
        if (e != EILSEQ)
            return fail(LF_DECODE_BAD_ENCODING, why, lf_xasprintf("cannot decode %s: %s", enc->name, strerror(e)));
        if (enc->kind == LF_ENC_UTF16) /* a lone surrogate: a byte says nothing */
            return fail(LF_DECODE_BAD_ENCODING, why,
                        lf_xasprintf("line %zu: invalid %s (byte offset %zu)", line, enc->name, at));
        return fail(LF_DECODE_BAD_ENCODING, why,
                    lf_xasprintf("line %zu: byte 0x%02X (byte offset %zu) is not valid %s%s", line,
                                 (unsigned char)buf[at], at, enc->name, declared));
    }
    *text_len = out.len;
    *text = out.data ? lf_strbuf_detach(&out) : lf_xstrdup("");
    return LF_DECODE_OK;
}

/* Python: the declaration names the encoding (CPython's normalisation first,
 * then the common aliases, then iconv's own names). */
static lf_decode_status python_encoding(const char *buf, size_t len, lf_encoding *enc, char **why) {
    char declared[LF_ENCODING_NAME_MAX];
    unsigned line;
    if (!lf_encoding_python_declaration(buf + enc->bom_len, len - enc->bom_len, declared, sizeof declared, &line))
        return LF_DECODE_OK;
    enc->decl_line = line;
    snprintf(enc->name, sizeof enc->name, "%s", declared);
    const char *normal = lf_encoding_cpython_normal_name(declared);
    if (enc->bom_len && !(normal && strcmp(normal, "utf-8") == 0))
        /* CPython compares its normal name with "utf-8": even "utf8" fails. */
        return fail(LF_DECODE_BAD_ENCODING, why,
                    lf_xasprintf("UTF-8 byte-order mark, but line %u declares encoding '%s' (Python rejects the "
                                 "file: encoding problem with BOM)",
                                 line, declared));
    char key[LF_ENCODING_NAME_MAX];
    python_codec_key(declared, key, sizeof key);
    const char *iconv_name = NULL;
    if (normal)
        iconv_name = strcmp(normal, "utf-8") == 0 ? "" : "ISO-8859-1";
    else if (!known_alias(key, &iconv_name))
        iconv_name = NULL;
    if (iconv_name && !*iconv_name)
        return LF_DECODE_OK; /* UTF-8 under another spelling */
    iconv_t cd = iconv_name ? iconv_open("UTF-8", iconv_name) : open_declared(declared, key, enc->iconv, sizeof enc->iconv);
    if (cd == (iconv_t)-1)
        return fail(LF_DECODE_BAD_ENCODING, why,
                    lf_xasprintf("line %u declares encoding '%s', which lockfix does not know", line, declared));
    if (iconv_name)
        snprintf(enc->iconv, sizeof enc->iconv, "%s", iconv_name);
    int compat = ascii_compatible(cd);
    iconv_close(cd);
    if (!compat)
        return fail(LF_DECODE_BAD_ENCODING, why,
                    lf_xasprintf("line %u declares encoding '%s', which is not ASCII-compatible (lockfix reads "
                                 "Python source only in encodings that keep ASCII as it is)",
                                 line, declared));
    enc->kind = LF_ENC_ICONV;
    return LF_DECODE_OK;
}

lf_decode_status lf_encoding_decode(const char *buf, size_t len, lf_lang lang, lf_encoding *enc, char **text,
                                    size_t *text_len, char **why) {
    memset(enc, 0, sizeof *enc);
    *text = NULL;
    *text_len = 0;
    *why = NULL;
    const unsigned char *u = (const unsigned char *)buf;
    if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        enc->bom_len = 3;
        snprintf(enc->name, sizeof enc->name, "utf-8");
    } else if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
        int le = u[0] == 0xFF;
        if (lang == LF_LANG_PYTHON)
            return fail(LF_DECODE_BAD_ENCODING, why,
                        lf_xasprintf("UTF-16 %s text (byte-order mark): Python source must be in an ASCII-compatible "
                                     "encoding",
                                     le ? "LE" : "BE"));
        enc->kind = LF_ENC_UTF16;
        enc->bom_len = 2;
        snprintf(enc->name, sizeof enc->name, "%s", le ? "UTF-16LE" : "UTF-16BE");
        snprintf(enc->iconv, sizeof enc->iconv, "%s", enc->name);
    }
    if (lang == LF_LANG_PYTHON) {
        lf_decode_status st = python_encoding(buf, len, enc, why);
        if (st != LF_DECODE_OK)
            return st;
    }
    if (enc->kind == LF_ENC_UTF8)
        return decode_utf8(buf, len, enc, why);
    /* Python forbids NUL bytes in source in any encoding; a UTF-16 file's are
     * judged on its characters (decode_iconv). */
    if (enc->kind == LF_ENC_ICONV && memchr(buf, '\0', len))
        return fail(LF_DECODE_BINARY, why, lf_xstrdup("binary file (NUL byte)"));
    return decode_iconv(buf, len, enc, text, text_len, why);
}

int lf_encoding_encode(const lf_encoding *enc, const char *utf8, size_t len, lf_strbuf *out, size_t *bad) {
    if (enc->kind == LF_ENC_UTF8) {
        lf_strbuf_append(out, utf8, len);
        return 1;
    }
    iconv_t cd = iconv_open(enc->iconv, "UTF-8");
    if (cd == (iconv_t)-1) {
        *bad = 0;
        return 0;
    }
    int e = convert(cd, utf8, len, out, bad);
    iconv_close(cd);
    if (e == LF_CONVERT_LOSSY)
        *bad = len;
    return e == 0;
}
