/*
 * The lockfile strategy's owner record: one line of JSON,
 *   {"pid":N,"start_time":N,"host":"...","token":"<32 hex>"}\n
 *
 * The parser accepts exactly the bytes the formatter writes and nothing else: no
 * other key order, no whitespace, no unknown or duplicate keys, no leading zeros,
 * no escape the formatter would not use, no trailing byte. A record is what
 * entitles lockrt to remove a file, so "looks roughly like one" is not enough: a
 * user's JSON file that happens to carry a "pid" key must never qualify. The
 * grammar is in docs/lockrt.md section 2 and the shared test vectors
 * (runtime/tests/vectors/records.json) pin it for every implementation.
 */
#include "lockrt_internal.h"

#include <stdio.h>
#include <string.h>

int lockrt__owner_self(lockrt_owner *out)
{
    memset(out, 0, sizeof *out);
    out->pid = lockrt__self_pid();
    uint64_t st = 0;
    if (lockrt_process_start_time(out->pid, &st) == LOCKRT_OK)
        out->start_time = st;
    int rc = lockrt__hostname(out->host, sizeof out->host);
    if (rc != LOCKRT_OK)
        return rc;
    return lockrt__random_hex(out->token, 16);
}

/* JSON string body with the escapes a hostname could need. */
static int put_json_string(char *buf, size_t cap, size_t *pos, const char *s)
{
    if (*pos >= cap)
        return -1;
    buf[(*pos)++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        const char *piece;
        size_t n;
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            piece = esc;
            n = 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            piece = esc;
            n = 6;
        } else {
            esc[0] = (char)*p;
            piece = esc;
            n = 1;
        }
        if (*pos + n >= cap)
            return -1;
        memcpy(buf + *pos, piece, n);
        *pos += n;
    }
    if (*pos >= cap)
        return -1;
    buf[(*pos)++] = '"';
    return 0;
}

static int format_unchecked(const lockrt_owner *o, char *buf, size_t cap)
{
    size_t pos = 0;
    int n = snprintf(buf, cap, "{\"pid\":%lld,\"start_time\":%llu,\"host\":", (long long)o->pid,
                     (unsigned long long)o->start_time);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    pos = (size_t)n;
    if (put_json_string(buf, cap, &pos, o->host) != 0)
        return -1;
    n = snprintf(buf + pos, cap - pos, ",\"token\":");
    if (n < 0 || (size_t)n >= cap - pos)
        return -1;
    pos += (size_t)n;
    if (put_json_string(buf, cap, &pos, o->token) != 0)
        return -1;
    if (pos + 3 > cap)
        return -1;
    buf[pos++] = '}';
    buf[pos++] = '\n';
    buf[pos] = '\0';
    return (int)pos;
}

/* Never write what parse would refuse (a host that is not UTF-8, too long, ...):
 * a record lockrt cannot read back could never be reclaimed. */
int lockrt__record_format(const lockrt_owner *o, char *buf, size_t cap)
{
    int n = format_unchecked(o, buf, cap);
    lockrt_owner check;
    if (n < 0 || lockrt__record_parse(buf, (size_t)n, &check) != LOCKRT_OK)
        return -1;
    return n;
}

/* ---- the parser: the formatter's output, byte for byte ---- */

typedef struct {
    const char *p, *end;
} cursor;

static bool take(cursor *c, const char *literal)
{
    size_t n = strlen(literal);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, literal, n) != 0)
        return false;
    c->p += n;
    return true;
}

/* A decimal without sign or leading zeros ("0" itself only if allowed), at most max. */
static bool take_uint(cursor *c, bool allow_zero, uint64_t max, uint64_t *out)
{
    const char *start = c->p;
    uint64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p - '0');
        if (v > (max - d) / 10)
            return false; /* beyond max */
        v = v * 10 + d;
        c->p++;
    }
    size_t digits = (size_t)(c->p - start);
    if (digits == 0 || (digits > 1 && *start == '0') || (v == 0 && !allow_zero))
        return false;
    *out = v;
    return true;
}

static int lower_hex(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return -1;
}

/* Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF). */
static bool utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        size_t more;
        unsigned char lo = 0x80, hi = 0xbf;
        if (b < 0x80) {
            i++;
            continue;
        } else if (b >= 0xc2 && b <= 0xdf) {
            more = 1;
        } else if (b >= 0xe0 && b <= 0xef) {
            more = 2;
            if (b == 0xe0)
                lo = 0xa0;
            else if (b == 0xed)
                hi = 0x9f;
        } else if (b >= 0xf0 && b <= 0xf4) {
            more = 3;
            if (b == 0xf0)
                lo = 0x90;
            else if (b == 0xf4)
                hi = 0x8f;
        } else {
            return false;
        }
        if (n - i <= more)
            return false;
        if (s[i + 1] < lo || s[i + 1] > hi)
            return false;
        for (size_t k = 2; k <= more; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xbf)
                return false;
        i += more + 1;
    }
    return true;
}

/* The host string after its opening quote, up to and including the closing one:
 * printable ASCII other than '"' and '\' as itself, bytes >= 0x80 as themselves,
 * \" and \\, and \u00XX (lowercase hex) for the control characters 0x01-0x1f and
 * 0x7f only. The decoded name is UTF-8, without NUL, at most cap-1 bytes. */
static bool take_host(cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    while (c->p < c->end && *c->p != '"') {
        unsigned ch = (unsigned char)*c->p++;
        if (ch == '\\') {
            if (c->p >= c->end)
                return false;
            char e = *c->p++;
            if (e == '"' || e == '\\') {
                ch = (unsigned char)e;
            } else if (e == 'u') {
                if (c->end - c->p < 4 || c->p[0] != '0' || c->p[1] != '0')
                    return false;
                int h1 = lower_hex(c->p[2]), h2 = lower_hex(c->p[3]);
                if (h1 < 0 || h2 < 0)
                    return false;
                ch = (unsigned)(h1 * 16 + h2);
                if (ch == 0 || (ch >= 0x20 && ch != 0x7f))
                    return false; /* the formatter writes these bytes raw (or never) */
                c->p += 4;
            } else {
                return false;
            }
        } else if (ch < 0x20 || ch == 0x7f) {
            return false; /* the formatter escapes these */
        }
        if (n + 1 >= cap)
            return false;
        out[n++] = (char)ch;
    }
    if (c->p >= c->end)
        return false;
    c->p++;
    out[n] = '\0';
    return utf8_valid((const unsigned char *)out, n);
}

static bool take_token(cursor *c, char *out)
{
    enum { TOKEN_HEX = 32 };
    if (c->end - c->p < TOKEN_HEX)
        return false;
    for (int i = 0; i < TOKEN_HEX; i++)
        if (lower_hex(c->p[i]) < 0)
            return false;
    memcpy(out, c->p, TOKEN_HEX);
    out[TOKEN_HEX] = '\0';
    c->p += TOKEN_HEX;
    return true;
}

int lockrt__record_parse(const char *buf, size_t len, lockrt_owner *out)
{
    cursor c = {buf, buf + len};
    uint64_t pid = 0, start = 0;
    memset(out, 0, sizeof *out);
    if (len > LOCKRT__RECORD_MAX)
        return LOCKRT_ECORRUPT;
    bool ok = take(&c, "{\"pid\":") && take_uint(&c, false, (uint64_t)INT64_MAX, &pid) &&
              take(&c, ",\"start_time\":") && take_uint(&c, true, UINT64_MAX, &start) &&
              take(&c, ",\"host\":\"") && take_host(&c, out->host, sizeof out->host) &&
              take(&c, ",\"token\":\"") && take_token(&c, out->token) && take(&c, "\"}\n") &&
              c.p == c.end;
    if (!ok) {
        memset(out, 0, sizeof *out);
        return LOCKRT_ECORRUPT;
    }
    out->pid = (int64_t)pid;
    out->start_time = start;
    return LOCKRT_OK;
}
