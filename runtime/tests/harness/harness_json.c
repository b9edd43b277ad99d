/* The counter file format of the lost-update harness (shared with the Python and
 * Node workers): a flat JSON object mapping keys to integers. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void skip_ws(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r'))
        (*p)++;
}

static int parse_key(const char **p, const char *end, char **out)
{
    if (*p >= end || **p != '"')
        return -1;
    (*p)++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s)
        return -1;
    while (*p < end && **p != '"') {
        char ch = **p;
        (*p)++;
        if ((unsigned char)ch < 0x20)
            goto bad;
        if (ch == '\\') {
            if (*p >= end)
                goto bad;
            char e = **p;
            (*p)++;
            switch (e) {
            case '"': case '\\': case '/': ch = e; break;
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            default: goto bad; /* \u in keys: not produced by any worker */
            }
        }
        if (n + 2 > cap) {
            cap *= 2;
            char *t = realloc(s, cap);
            if (!t)
                goto bad;
            s = t;
        }
        s[n++] = ch;
    }
    if (*p >= end)
        goto bad;
    (*p)++;
    s[n] = '\0';
    *out = s;
    return 0;
bad:
    free(s);
    return -1;
}

int hj_parse(const char *buf, size_t len, hj_counters *out)
{
    const char *p = buf, *end = buf + len;
    memset(out, 0, sizeof *out);
    skip_ws(&p, end);
    if (p >= end || *p != '{')
        return -1;
    p++;
    skip_ws(&p, end);
    if (p < end && *p == '}') {
        p++;
        skip_ws(&p, end);
        return p == end ? 0 : -1;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(&p, end);
        if (parse_key(&p, end, &key) != 0)
            goto bad;
        skip_ws(&p, end);
        if (p >= end || *p != ':') {
            free(key);
            goto bad;
        }
        p++;
        skip_ws(&p, end);
        int neg = 0;
        if (p < end && *p == '-') {
            neg = 1;
            p++;
        }
        if (p >= end || *p < '0' || *p > '9') {
            free(key);
            goto bad;
        }
        int64_t v = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (v > (INT64_MAX - 9) / 10) {
                free(key);
                goto bad;
            }
            v = v * 10 + (*p - '0');
            p++;
        }
        if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
            free(key);
            goto bad;
        }
        int rc = hj_set(out, key, neg ? -v : v);
        free(key);
        if (rc != 0)
            goto bad;
        skip_ws(&p, end);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end && *p == '}') {
            p++;
            break;
        }
        goto bad;
    }
    skip_ws(&p, end);
    if (p != end)
        goto bad;
    return 0;
bad:
    hj_free(out);
    return -1;
}

int64_t *hj_find(hj_counters *c, const char *key)
{
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->items[i].key, key) == 0)
            return &c->items[i].value;
    return NULL;
}

int hj_set(hj_counters *c, const char *key, int64_t value)
{
    int64_t *slot = hj_find(c, key);
    if (slot) {
        *slot = value;
        return 0;
    }
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        hj_entry *t = realloc(c->items, cap * sizeof *t);
        if (!t)
            return -1;
        c->items = t;
        c->cap = cap;
    }
    size_t kl = strlen(key);
    char *k = malloc(kl + 1);
    if (!k)
        return -1;
    memcpy(k, key, kl + 1);
    c->items[c->count].key = k;
    c->items[c->count].value = value;
    c->count++;
    return 0;
}

char *hj_format(const hj_counters *c, size_t *len)
{
    size_t cap = 4;
    for (size_t i = 0; i < c->count; i++)
        cap += strlen(c->items[i].key) * 2 + 32;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t n = 0;
    out[n++] = '{';
    for (size_t i = 0; i < c->count; i++) {
        if (i)
            n += (size_t)snprintf(out + n, cap - n, ", ");
        out[n++] = '"';
        for (const char *k = c->items[i].key; *k; k++) {
            if (*k == '"' || *k == '\\')
                out[n++] = '\\';
            out[n++] = *k;
        }
        n += (size_t)snprintf(out + n, cap - n, "\": %lld", (long long)c->items[i].value);
    }
    out[n++] = '}';
    out[n++] = '\n';
    out[n] = '\0';
    *len = n;
    return out;
}

void hj_free(hj_counters *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->items[i].key);
    free(c->items);
    memset(c, 0, sizeof *c);
}
