#include "lf_config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_jsonpos.h"
#include "lf_util.h"

#define LF_CONFIG_NAME ".lockfix.json"
#define LF_CONFIG_MAX_BYTES (1024 * 1024)

static const char *const k_keys[] = {"select", "ignore", "exclude", "severity", "fail_on"};
#define KEYS_HINT "select, ignore, exclude, severity, fail_on"

void lf_config_init(lf_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->fail_on = LF_SEV_WARNING;
}

int lf_config_selector_matches(const char *selector, const lf_rule *rule) {
    if (strcmp(selector, "ALL") == 0)
        return 1;
    if (strcmp(selector, rule->name) == 0)
        return 1;
    size_t n = strlen(selector);
    return n > 0 && strncmp(rule->id, selector, n) == 0;
}

static int override_names(const char *key, const lf_rule *rule) {
    return strcmp(key, rule->id) == 0 || strcmp(key, rule->name) == 0;
}

lf_severity lf_config_rule_severity(const lf_config *cfg, const lf_rule *rule) {
    if (!cfg)
        return rule->severity;
    if (cfg->n_select) {
        int selected = 0;
        for (size_t i = 0; i < cfg->n_select && !selected; i++)
            selected = lf_config_selector_matches(cfg->select[i], rule);
        if (!selected)
            return LF_SEV_NONE;
    }
    for (size_t i = 0; i < cfg->n_ignore; i++)
        if (lf_config_selector_matches(cfg->ignore[i], rule))
            return LF_SEV_NONE;
    lf_severity sev = rule->severity;
    for (size_t i = 0; i < cfg->n_severity; i++)
        if (override_names(cfg->severity[i].rule_id, rule))
            sev = cfg->severity[i].severity;
    return sev;
}

int lf_config_excluded(const lf_config *cfg, const char *relpath) {
    if (!cfg)
        return 0;
    for (size_t i = 0; i < cfg->n_exclude; i++)
        if (lf_glob_match(cfg->exclude[i], relpath))
            return 1;
    return 0;
}

/* ---- loading ---- */

typedef struct cfg_doc {
    const char *path;
    char *text;
    size_t len;
    cJSON *root;
    size_t root_off;
} cfg_doc;

static char *read_text(const char *path, size_t *len, char **err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = lf_xasprintf("%s: cannot read config: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        *err = lf_xasprintf("%s: cannot read config: not a regular file", path);
        return NULL;
    }
    if (st.st_size > LF_CONFIG_MAX_BYTES) {
        fclose(f);
        *err = lf_xasprintf("%s: cannot read config: larger than %d bytes", path, LF_CONFIG_MAX_BYTES);
        return NULL;
    }
    char *buf = lf_xmalloc((size_t)st.st_size + 1);
    size_t n = fread(buf, 1, (size_t)st.st_size, f);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        *err = lf_xasprintf("%s: cannot read config: read error", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static char *doc_error(const cfg_doc *d, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *doc_error(const cfg_doc *d, size_t off, const char *fmt, ...) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_printf(&sb, "%s:%u: ", d->path, lf_jsonpos_line(d->text, d->len, off));
    va_list ap;
    va_start(ap, fmt);
    lf_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    return lf_strbuf_detach(&sb);
}

/* d->text (owned, NUL-terminated) and d->len are set: parse them. */
static int doc_parse(cfg_doc *d, char **err) {
    const char *path = d->path;
    if (memchr(d->text, '\0', d->len)) {
        *err = lf_xasprintf("%s: not a JSON text (contains a NUL byte)", path);
        return 0;
    }
    d->root_off = lf_jsonpos_root(d->text, d->len);
    if (d->root_off >= d->len) {
        *err = doc_error(d, d->root_off, "empty file: expected a JSON object");
        return 0;
    }
    const char *end = NULL;
    /* Length includes the terminating NUL: cJSON checks for it after the value. */
    d->root = cJSON_ParseWithLengthOpts(d->text, d->len + 1, &end, 1);
    if (!d->root) {
        size_t off = end && end >= d->text ? (size_t)(end - d->text) : 0;
        if (off > d->len)
            off = d->len;
        /* Show what the parser choked on, trimmed to one short line. */
        size_t n = 0;
        while (off + n < d->len && n < 20 && d->text[off + n] != '\n' && d->text[off + n] != '\r')
            n++;
        if (n == 0)
            *err = doc_error(d, off, "invalid JSON: unexpected end of file");
        else
            *err = doc_error(d, off, "invalid JSON near '%.*s'", (int)n, d->text + off);
        return 0;
    }
    if (!cJSON_IsObject(d->root)) {
        *err = doc_error(d, d->root_off, "expected a JSON object at the top level");
        return 0;
    }
    return 1;
}

static int doc_open(cfg_doc *d, const char *path, char **err) {
    memset(d, 0, sizeof *d);
    d->path = path;
    d->text = read_text(path, &d->len, err);
    return d->text && doc_parse(d, err);
}

static void doc_close(cfg_doc *d) {
    cJSON_Delete(d->root);
    free(d->text);
}

static size_t member_index(const cJSON *obj, const cJSON *item) {
    size_t i = 0;
    for (const cJSON *c = obj->child; c && c != item; c = c->next)
        i++;
    return i;
}

/* Read an array of non-empty strings. */
static int read_string_list(const cfg_doc *d, const cJSON *item, size_t val_off, char ***out, size_t *n_out,
                            char **err) {
    if (!cJSON_IsArray(item)) {
        *err = doc_error(d, val_off, "\"%s\" must be an array of strings", item->string);
        return 0;
    }
    size_t n = (size_t)cJSON_GetArraySize(item), i = 0;
    char **list = lf_xcalloc(n ? n : 1, sizeof *list);
    for (const cJSON *e = item->child; e; e = e->next, i++) {
        if (!cJSON_IsString(e) || e->valuestring[0] == '\0') {
            /* Located only on error: finding element i walks the array from its
             * start, which for every element would be quadratic in its length. */
            size_t off = lf_jsonpos_element(d->text, d->len, val_off, i);
            *err = doc_error(d, off, "\"%s\"[%zu] must be a non-empty string", item->string, i);
            for (size_t k = 0; k < i; k++)
                free(list[k]);
            free(list);
            return 0;
        }
        list[i] = lf_xstrdup(e->valuestring);
    }
    *out = list;
    *n_out = n;
    return 1;
}

static int read_severity_map(const cfg_doc *d, const cJSON *item, size_t val_off, lf_config *cfg, char **err) {
    if (!cJSON_IsObject(item)) {
        *err = doc_error(d, val_off,
                         "\"severity\" must be an object mapping rule ids to \"error\", \"warning\", \"info\" or \"off\"");
        return 0;
    }
    size_t n = (size_t)cJSON_GetArraySize(item), i = 0;
    cfg->severity = lf_xcalloc(n ? n : 1, sizeof *cfg->severity);
    for (const cJSON *e = item->child; e; e = e->next, i++) {
        /* Member i is located only on error (each lookup walks the object). */
        lf_severity sev;
        if (e->string[0] == '\0') {
            *err = doc_error(d, lf_jsonpos_member_key(d->text, d->len, val_off, i), "\"severity\" has an empty rule id");
            return 0;
        }
        if (!cJSON_IsString(e) || !lf_severity_parse(e->valuestring, &sev)) {
            size_t off = lf_jsonpos_member_value(d->text, d->len, val_off, i);
            if (cJSON_IsString(e))
                *err = doc_error(d, off,
                                 "severity of \"%s\" must be \"error\", \"warning\", \"info\" or \"off\", not \"%s\"",
                                 e->string, e->valuestring);
            else
                *err = doc_error(d, off, "severity of \"%s\" must be a string: \"error\", \"warning\", \"info\" or \"off\"",
                                 e->string);
            return 0;
        }
        cfg->severity[i].rule_id = lf_xstrdup(e->string);
        cfg->severity[i].severity = sev;
        cfg->n_severity = i + 1;
    }
    return 1;
}

static int read_fail_on(const cfg_doc *d, const cJSON *item, size_t val_off, lf_config *cfg, char **err) {
    lf_severity sev;
    if (!cJSON_IsString(item) || !lf_severity_parse(item->valuestring, &sev) || sev == LF_SEV_NONE) {
        *err = doc_error(d, val_off, "\"fail_on\" must be \"error\", \"warning\" or \"info\"");
        return 0;
    }
    cfg->fail_on = sev;
    return 1;
}

static int config_read(cfg_doc *d, const char *path, lf_config *out, char **err);

int lf_config_load(const char *path, lf_config *out, char **err) {
    *err = NULL;
    lf_config_init(out);
    cfg_doc d;
    if (!doc_open(&d, path, err)) {
        doc_close(&d);
        return 0;
    }
    return config_read(&d, path, out, err);
}

int lf_config_parse(const char *text, size_t len, const char *path, lf_config *out, char **err) {
    *err = NULL;
    lf_config_init(out);
    if (len > LF_CONFIG_MAX_BYTES) {
        *err = lf_xasprintf("%s: cannot read config: larger than %d bytes", path, LF_CONFIG_MAX_BYTES);
        return 0;
    }
    cfg_doc d;
    memset(&d, 0, sizeof d);
    d.path = path;
    d.text = lf_xmalloc(len + 1);
    memcpy(d.text, text, len);
    d.text[len] = '\0';
    d.len = len;
    if (!doc_parse(&d, err)) {
        doc_close(&d);
        return 0;
    }
    return config_read(&d, path, out, err);
}

/* The members of an opened document (closed here) into out. */
static int config_read(cfg_doc *dp, const char *path, lf_config *out, char **err) {
    cfg_doc d = *dp;
    out->path = lf_xstrdup(path);
    int ok = 1;
    size_t i = 0;
    for (const cJSON *item = d.root->child; item && ok; item = item->next, i++) {
        size_t key_off = lf_jsonpos_member_key(d.text, d.len, d.root_off, i);
        size_t val_off = lf_jsonpos_member_value(d.text, d.len, d.root_off, i);
        size_t k = 0;
        while (k < sizeof k_keys / sizeof k_keys[0] && strcmp(item->string, k_keys[k]) != 0)
            k++;
        if (k == sizeof k_keys / sizeof k_keys[0]) {
            *err = doc_error(&d, key_off, "unknown key \"%s\" (expected one of: " KEYS_HINT ")", item->string);
            ok = 0;
            break;
        }
        for (const cJSON *prev = d.root->child; prev != item; prev = prev->next) {
            if (strcmp(prev->string, item->string) == 0) {
                *err = doc_error(&d, key_off, "duplicate key \"%s\"", item->string);
                ok = 0;
                break;
            }
        }
        if (!ok)
            break;
        switch (k) {
        case 0: ok = read_string_list(&d, item, val_off, &out->select, &out->n_select, err); break;
        case 1: ok = read_string_list(&d, item, val_off, &out->ignore, &out->n_ignore, err); break;
        case 2: ok = read_string_list(&d, item, val_off, &out->exclude, &out->n_exclude, err); break;
        case 3: ok = read_severity_map(&d, item, val_off, out, err); break;
        default: ok = read_fail_on(&d, item, val_off, out, err); break;
        }
    }
    doc_close(&d);
    if (!ok) {
        lf_config_free(out);
        lf_config_init(out);
    }
    return ok;
}

/* ---- checking entries against the loaded rules ---- */

static int selector_known(const char *sel, const lf_ruleset *rules) {
    for (size_t i = 0; i < rules->n_rules; i++)
        if (lf_config_selector_matches(sel, rules->rules[i]))
            return 1;
    return 0;
}

static int override_known(const char *key, const lf_ruleset *rules) {
    for (size_t i = 0; i < rules->n_rules; i++)
        if (override_names(key, rules->rules[i]))
            return 1;
    return 0;
}

int lf_config_check_rules(const lf_config *cfg, const lf_ruleset *rules, char **err) {
    *err = NULL;
    if (!cfg->path)
        return 1;
    cfg_doc d;
    if (!doc_open(&d, cfg->path, err)) {
        doc_close(&d);
        return 0;
    }
    int ok = 1;
    static const char *const lists[] = {"select", "ignore"};
    for (size_t l = 0; l < 2 && ok; l++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(d.root, lists[l]);
        if (!item)
            continue;
        size_t val_off = lf_jsonpos_member_value(d.text, d.len, d.root_off, member_index(d.root, item));
        size_t i = 0;
        for (const cJSON *e = item->child; e && ok; e = e->next, i++) {
            if (cJSON_IsString(e) && !selector_known(e->valuestring, rules)) {
                *err = doc_error(&d, lf_jsonpos_element(d.text, d.len, val_off, i),
                                 "\"%s\": unknown rule selector \"%s\" (see `lockfix rules`)", lists[l],
                                 e->valuestring);
                ok = 0;
            }
        }
    }
    const cJSON *sev = cJSON_GetObjectItemCaseSensitive(d.root, "severity");
    if (ok && sev) {
        size_t val_off = lf_jsonpos_member_value(d.text, d.len, d.root_off, member_index(d.root, sev));
        size_t i = 0;
        for (const cJSON *e = sev->child; e && ok; e = e->next, i++) {
            if (!override_known(e->string, rules)) {
                *err = doc_error(&d, lf_jsonpos_member_key(d.text, d.len, val_off, i),
                                 "\"severity\": unknown rule \"%s\" (see `lockfix rules`)", e->string);
                ok = 0;
            }
        }
    }
    doc_close(&d);
    return ok;
}

/* ---- discovery ---- */

/* Shown to the user: relative to the working directory when below it. */
static char *display_path(const char *abs) {
    char *cwd = getcwd(NULL, 0);
    char *out = NULL;
    if (cwd) {
        size_t n = strlen(cwd);
        if (strcmp(cwd, "/") == 0)
            out = lf_xstrdup(abs + 1);
        else if (strncmp(abs, cwd, n) == 0 && abs[n] == '/')
            out = lf_xstrdup(abs + n + 1);
    }
    free(cwd);
    return out ? out : lf_xstrdup(abs);
}

char *lf_config_discover(const char *start_dir) {
    char *dir = realpath(start_dir, NULL);
    if (!dir)
        return NULL;
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
    }
    char *found = NULL;
    for (;;) {
        char *candidate = lf_xasprintf("%s%s" LF_CONFIG_NAME, dir, strcmp(dir, "/") == 0 ? "" : "/");
        if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode)) {
            found = display_path(candidate);
            free(candidate);
            break;
        }
        free(candidate);
        char *slash = strrchr(dir, '/');
        if (!slash || strcmp(dir, "/") == 0)
            break;
        if (slash == dir)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    free(dir);
    return found;
}

static void free_list(char **list, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void lf_config_free(lf_config *cfg) {
    if (!cfg)
        return;
    free(cfg->path);
    free_list(cfg->select, cfg->n_select);
    free_list(cfg->ignore, cfg->n_ignore);
    free_list(cfg->exclude, cfg->n_exclude);
    for (size_t i = 0; i < cfg->n_severity; i++)
        free(cfg->severity[i].rule_id);
    free(cfg->severity);
    lf_config_init(cfg);
}
