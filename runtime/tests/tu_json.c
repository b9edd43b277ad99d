/* See tu_json.h. Recursive descent; the vector file nests three levels deep. */
#include "tu_json.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p, *end;
    int depth;
} reader;

static void skip_ws(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static tj_value *new_value(tj_type type)
{
    tj_value *v = calloc(1, sizeof *v);
    if (v)
        v->type = type;
    return v;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* After the opening quote; returns a malloc'd byte string. */
static char *read_string(reader *r, size_t *len)
{
    size_t cap = 64, n = 0;
    char *out = malloc(cap);
    while (out && r->p < r->end && *r->p != '"') {
        unsigned char ch = (unsigned char)*r->p++;
        if (ch == '\\') {
            if (r->p >= r->end)
                break;
            char e = *r->p++;
            switch (e) {
            case '"': case '\\': case '/': ch = (unsigned char)e; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = r->p < r->end ? hexval(*r->p++) : -1;
                    if (h < 0) {
                        free(out);
                        return NULL;
                    }
                    v = v * 16 + (unsigned)h;
                }
                if (v > 0xff) { /* the vectors write raw bytes only */
                    free(out);
                    return NULL;
                }
                ch = (unsigned char)v;
                break;
            }
            default:
                free(out);
                return NULL;
            }
        }
        if (n + 2 > cap) {
            char *bigger = realloc(out, cap *= 2);
            if (!bigger) {
                free(out);
                return NULL;
            }
            out = bigger;
        }
        out[n++] = (char)ch;
    }
    if (!out || r->p >= r->end) {
        free(out);
        return NULL;
    }
    r->p++; /* closing quote */
    out[n] = '\0';
    *len = n;
    return out;
}

static tj_value *read_value(reader *r);

static bool append(tj_value *v, char *key, tj_value *item)
{
    tj_value **items = realloc(v->items, (v->count + 1) * sizeof *items);
    if (!items)
        return false;
    v->items = items;
    if (v->type == TJ_OBJECT) {
        char **keys = realloc(v->keys, (v->count + 1) * sizeof *keys);
        if (!keys)
            return false;
        v->keys = keys;
        v->keys[v->count] = key;
    }
    v->items[v->count++] = item;
    return true;
}

static tj_value *read_container(reader *r, tj_type type, char close)
{
    tj_value *v = new_value(type);
    if (!v || ++r->depth > 32) {
        tj_free(v);
        return NULL;
    }
    skip_ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        r->depth--;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(r);
        if (type == TJ_OBJECT) {
            size_t klen;
            if (r->p >= r->end || *r->p != '"')
                break;
            r->p++;
            key = read_string(r, &klen);
            skip_ws(r);
            if (!key || r->p >= r->end || *r->p != ':') {
                free(key);
                break;
            }
            r->p++;
        }
        tj_value *item = read_value(r);
        if (!item || !append(v, key, item)) {
            free(key);
            tj_free(item);
            break;
        }
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            r->depth--;
            return v;
        }
        break;
    }
    tj_free(v);
    return NULL;
}

static tj_value *read_value(reader *r)
{
    skip_ws(r);
    if (r->p >= r->end)
        return NULL;
    char c = *r->p;
    if (c == '{' || c == '[') {
        r->p++;
        return read_container(r, c == '{' ? TJ_OBJECT : TJ_ARRAY, c == '{' ? '}' : ']');
    }
    if (c == '"') {
        r->p++;
        tj_value *v = new_value(TJ_STRING);
        if (v && !(v->text = read_string(r, &v->len))) {
            free(v);
            return NULL;
        }
        return v;
    }
    static const struct {
        const char *word;
        tj_type type;
        bool value;
    } words[] = {{"true", TJ_BOOL, true}, {"false", TJ_BOOL, false}, {"null", TJ_NULL, false}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(words[i].word);
        if ((size_t)(r->end - r->p) >= n && memcmp(r->p, words[i].word, n) == 0) {
            r->p += n;
            tj_value *v = new_value(words[i].type);
            if (v)
                v->boolean = words[i].value;
            return v;
        }
    }
    const char *start = r->p;
    while (r->p < r->end && strchr("+-.eE0123456789", *r->p))
        r->p++;
    if (r->p == start)
        return NULL;
    tj_value *v = new_value(TJ_NUMBER);
    if (v && (v->text = malloc((size_t)(r->p - start) + 1))) {
        v->len = (size_t)(r->p - start);
        memcpy(v->text, start, v->len);
        v->text[v->len] = '\0';
        return v;
    }
    free(v);
    return NULL;
}

tj_value *tj_parse(const char *text, size_t len, size_t *error_at)
{
    reader r = {text, text + len, 0};
    tj_value *v = read_value(&r);
    skip_ws(&r);
    if (v && r.p != r.end) {
        tj_free(v);
        v = NULL;
    }
    if (!v && error_at)
        *error_at = (size_t)(r.p - text);
    return v;
}

void tj_free(tj_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        tj_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    free(v);
}

const tj_value *tj_get(const tj_value *obj, const char *key)
{
    if (!obj || obj->type != TJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

const char *tj_str(const tj_value *obj, const char *key, size_t *len)
{
    const tj_value *v = tj_get(obj, key);
    if (!v || v->type != TJ_STRING)
        return NULL;
    if (len)
        *len = v->len;
    return v->text;
}

bool tj_true(const tj_value *obj, const char *key)
{
    const tj_value *v = tj_get(obj, key);
    return v && v->type == TJ_BOOL && v->boolean;
}
