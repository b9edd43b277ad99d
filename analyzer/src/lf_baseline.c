#include "lf_baseline.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lf_jsonpos.h"
#include "lf_report.h"
#include "lf_util.h"

/* A baseline of a big monorepo is large, but never this large. */
#define LF_BASELINE_MAX_BYTES (256 * 1024 * 1024)

typedef struct entry {
    char *fingerprint;
    int used;
} entry;

struct lf_baseline {
    entry *entries; /* sorted by fingerprint, no duplicates */
    size_t n;
};

static char *located(const char *path, const char *text, size_t len, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static char *located(const char *path, const char *text, size_t len, size_t off, const char *fmt, ...) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_printf(&sb, "%s:%u: ", path, lf_jsonpos_line(text, len, off));
    va_list ap;
    va_start(ap, fmt);
    lf_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    return lf_strbuf_detach(&sb);
}

static int cmp_entry(const void *a, const void *b) {
    return strcmp(((const entry *)a)->fingerprint, ((const entry *)b)->fingerprint);
}

static size_t member_index(const cJSON *obj, const cJSON *item) {
    size_t i = 0;
    for (const cJSON *c = obj->child; c && c != item; c = c->next)
        i++;
    return i;
}

static lf_baseline *parse(const char *path, const char *text, size_t len, char **err) {
    size_t root_off = lf_jsonpos_root(text, len);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (!root) {
        size_t off = end && end >= text && (size_t)(end - text) <= len ? (size_t)(end - text) : len;
        *err = located(path, text, len, off, "not a lockfix baseline: invalid JSON");
        return NULL;
    }
    lf_baseline *b = NULL;
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "lockfix_baseline");
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
    if (!cJSON_IsObject(root) || !version) {
        *err = located(path, text, len, root_off,
                       "not a lockfix baseline: expected an object with \"lockfix_baseline\": %d "
                       "(written by `lockfix scan --write-baseline`)",
                       LF_BASELINE_VERSION);
        goto out;
    }
    size_t version_off = lf_jsonpos_member_value(text, len, root_off, member_index(root, version));
    if (!cJSON_IsNumber(version)) {
        *err = located(path, text, len, version_off, "\"lockfix_baseline\" must be the number %d", LF_BASELINE_VERSION);
        goto out;
    }
    if (version->valuedouble != LF_BASELINE_VERSION) {
        *err = located(path, text, len, version_off, "baseline format %g is not supported (lockfix %s reads format %d)",
                       version->valuedouble, LOCKFIX_VERSION, LF_BASELINE_VERSION);
        goto out;
    }
    if (!cJSON_IsArray(findings)) {
        size_t off = findings ? lf_jsonpos_member_value(text, len, root_off, member_index(root, findings)) : root_off;
        *err = located(path, text, len, off, "\"findings\" must be an array");
        goto out;
    }
    size_t arr_off = lf_jsonpos_member_value(text, len, root_off, member_index(root, findings));
    b = lf_xcalloc(1, sizeof *b);
    b->entries = lf_xcalloc((size_t)cJSON_GetArraySize(findings) + 1, sizeof *b->entries);
    size_t index = 0;
    for (const cJSON *f = findings->child; f; f = f->next, index++) {
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(f, "fingerprint");
        if (!cJSON_IsObject(f) || !cJSON_IsString(fp) || !*fp->valuestring) {
            *err = located(path, text, len, lf_jsonpos_element(text, len, arr_off, index),
                           "findings[%zu]: expected an object with a \"fingerprint\" string", index);
            lf_baseline_free(b);
            b = NULL;
            goto out;
        }
        b->entries[b->n++].fingerprint = lf_xstrdup(fp->valuestring);
    }
    if (b->n > 1)
        qsort(b->entries, b->n, sizeof *b->entries, cmp_entry);
    size_t kept = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (kept && strcmp(b->entries[kept - 1].fingerprint, b->entries[i].fingerprint) == 0) {
            free(b->entries[i].fingerprint);
            continue;
        }
        b->entries[kept++] = b->entries[i];
    }
    b->n = kept;
out:
    cJSON_Delete(root);
    return b;
}

lf_baseline *lf_baseline_load(const char *path, char **err) {
    size_t len = 0;
    char *text = lf_read_text_file(path, "baseline", LF_BASELINE_MAX_BYTES, &len, err);
    if (!text)
        return NULL;
    lf_baseline *b = NULL;
    if (memchr(text, '\0', len))
        *err = lf_xasprintf("%s: not a lockfix baseline (contains a NUL byte)", path);
    else
        b = parse(path, text, len, err);
    free(text);
    return b;
}

void lf_baseline_free(lf_baseline *b) {
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->entries[i].fingerprint);
    free(b->entries);
    free(b);
}

void lf_baseline_filter(lf_baseline *b, lf_scan *s, lf_baseline_result *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < s->n_files; i++) {
        lf_scan_file *f = &s->files[i];
        size_t kept = 0;
        for (size_t k = 0; k < f->n_findings; k++) {
            entry key = {f->findings[k].fingerprint, 0};
            entry *e = bsearch(&key, b->entries, b->n, sizeof *b->entries, cmp_entry);
            if (e) {
                e->used = 1;
                out->matched++;
                lf_finding_free_contents(&f->findings[k]);
                continue;
            }
            f->findings[kept++] = f->findings[k];
        }
        f->n_findings = kept;
    }
    for (size_t i = 0; i < b->n; i++)
        out->stale += !b->entries[i].used;
}

void lf_baseline_render(const lf_scan *s, lf_strbuf *out) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "lockfix_baseline", LF_BASELINE_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "lockfix");
    cJSON_AddStringToObject(tool, "version", LOCKFIX_VERSION);
    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (size_t i = 0; i < s->n_files; i++) {
        const lf_scan_file *f = &s->files[i];
        for (size_t k = 0; k < f->n_findings; k++) {
            const lf_finding *fd = &f->findings[k];
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "fingerprint", fd->fingerprint);
            cJSON_AddStringToObject(j, "rule_id", fd->rule->id);
            cJSON_AddStringToObject(j, "path", fd->path);
            cJSON_AddNumberToObject(j, "line", fd->line);
            cJSON_AddStringToObject(j, "message", fd->message ? fd->message : "");
            cJSON_AddItemToArray(findings, j);
        }
    }
    lf_report_put_json(out, root);
    cJSON_Delete(root);
}
