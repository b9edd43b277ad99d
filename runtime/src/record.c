/*
 * The lockfile strategy's owner record: one line of JSON,
 *   {"pid":N,"start_time":N,"host":"...","token":"<32 hex>"}\n
 * Written by lockrt, read by lockrt and by other tools (docs/lockrt.md), so the
 * parser accepts any key order, whitespace and unknown keys, but requires all four.
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

int lockrt__record_format(const lockrt_owner *o, char *buf, size_t cap)
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

/* ---- a strict little parser for one flat JSON object ---- */

typedef struct {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Decodes into out (NUL-terminated, at most cap-1 bytes). \u escapes above 0x7f
 * are encoded as UTF-8; surrogates are rejected. */
static int parse_string(cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    if (c->p >= c->end || *c->p != '"')
        return -1;
    c->p++;
    while (c->p < c->end && *c->p != '"') {
        unsigned ch = (unsigned char)*c->p++;
        if (ch < 0x20)
            return -1;
        if (ch == '\\') {
            if (c->p >= c->end)
                return -1;
            char e = *c->p++;
            switch (e) {
            case '"': ch = '"'; break;
            case '\\': ch = '\\'; break;
            case '/': ch = '/'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                if (c->end - c->p < 4)
                    return -1;
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(c->p[i]);
                    if (h < 0)
                        return -1;
                    v = v * 16 + (unsigned)h;
                }
                c->p += 4;
                if (v >= 0xd800 && v <= 0xdfff)
                    return -1;
                char u[3];
                size_t un;
                if (v < 0x80) {
                    u[0] = (char)v;
                    un = 1;
                } else if (v < 0x800) {
                    u[0] = (char)(0xc0 | (v >> 6));
                    u[1] = (char)(0x80 | (v & 0x3f));
                    un = 2;
                } else {
                    u[0] = (char)(0xe0 | (v >> 12));
                    u[1] = (char)(0x80 | ((v >> 6) & 0x3f));
                    u[2] = (char)(0x80 | (v & 0x3f));
                    un = 3;
                }
                if (n + un >= cap)
                    return -1;
                memcpy(out + n, u, un);
                n += un;
                continue;
            }
            default: return -1;
            }
        }
        if (n + 1 >= cap)
            return -1;
        out[n++] = (char)ch;
    }
    if (c->p >= c->end)
        return -1;
    c->p++;
    out[n] = '\0';
    return 0;
}

static int parse_int(cursor *c, int64_t *sval, uint64_t *uval, bool *negative)
{
    bool neg = false;
    uint64_t v = 0;
    if (c->p < c->end && *c->p == '-') {
        neg = true;
        c->p++;
    }
    const char *start = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
        c->p++;
    }
    if (c->p == start)
        return -1;
    if (c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E'))
        return -1;
    *negative = neg;
    *uval = v;
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        *sval = neg ? INT64_MIN : INT64_MAX;
    else
        *sval = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* Skip a value of a key we do not know: strings, numbers, true/false/null only
 * (a record never nests). */
static int skip_value(cursor *c)
{
    char scratch[LOCKRT__RECORD_MAX];
    if (c->p >= c->end)
        return -1;
    if (*c->p == '"')
        return parse_string(c, scratch, sizeof scratch);
    if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9')) {
        while (c->p < c->end && strchr("+-.eE0123456789", *c->p))
            c->p++;
        return 0;
    }
    static const char *const words[] = {"true", "false", "null"};
    for (size_t i = 0; i < 3; i++) {
        size_t wl = strlen(words[i]);
        if ((size_t)(c->end - c->p) >= wl && memcmp(c->p, words[i], wl) == 0) {
            c->p += wl;
            return 0;
        }
    }
    return -1;
}

static bool is_hex_token(const char *t)
{
    size_t n = strlen(t);
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (hexval(t[i]) < 0)
            return false;
    return true;
}

int lockrt__record_parse(const char *buf, size_t len, lockrt_owner *out)
{
    cursor c = {buf, buf + len};
    bool have_pid = false, have_start = false, have_host = false, have_token = false;
    memset(out, 0, sizeof *out);
    skip_ws(&c);
    if (c.p >= c.end || *c.p != '{')
        return LOCKRT_ECORRUPT;
    c.p++;
    skip_ws(&c);
    if (c.p < c.end && *c.p == '}')
        return LOCKRT_ECORRUPT;
    for (;;) {
        char key[32];
        skip_ws(&c);
        if (parse_string(&c, key, sizeof key) != 0)
            return LOCKRT_ECORRUPT;
        skip_ws(&c);
        if (c.p >= c.end || *c.p != ':')
            return LOCKRT_ECORRUPT;
        c.p++;
        skip_ws(&c);
        int64_t sv;
        uint64_t uv;
        bool neg;
        if (strcmp(key, "pid") == 0) {
            if (parse_int(&c, &sv, &uv, &neg) != 0 || neg || sv <= 0 || uv > (uint64_t)INT64_MAX)
                return LOCKRT_ECORRUPT;
            out->pid = sv;
            have_pid = true;
        } else if (strcmp(key, "start_time") == 0) {
            if (parse_int(&c, &sv, &uv, &neg) != 0 || neg)
                return LOCKRT_ECORRUPT;
            out->start_time = uv;
            have_start = true;
        } else if (strcmp(key, "host") == 0) {
            if (parse_string(&c, out->host, sizeof out->host) != 0)
                return LOCKRT_ECORRUPT;
            have_host = true;
        } else if (strcmp(key, "token") == 0) {
            if (parse_string(&c, out->token, sizeof out->token) != 0 || !is_hex_token(out->token))
                return LOCKRT_ECORRUPT;
            have_token = true;
        } else if (skip_value(&c) != 0) {
            return LOCKRT_ECORRUPT;
        }
        skip_ws(&c);
        if (c.p < c.end && *c.p == ',') {
            c.p++;
            continue;
        }
        if (c.p < c.end && *c.p == '}') {
            c.p++;
            break;
        }
        return LOCKRT_ECORRUPT;
    }
    skip_ws(&c);
    if (c.p != c.end)
        return LOCKRT_ECORRUPT;
    if (!have_pid || !have_start || !have_host || !have_token)
        return LOCKRT_ECORRUPT;
    return LOCKRT_OK;
}
