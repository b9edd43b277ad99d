/* SARIF 2.1.0 report (one run). Columns are Unicode code points, as lockfix
 * counts them (run.columnKind); paths are URIs relative to %SRCROOT%, the
 * working directory, unless the user named an absolute path. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lf_fingerprint.h"
#include "lf_fix.h"
#include "lf_report.h"
#include "lf_witness.h"

#define SRCROOT "%SRCROOT%"

static const char *sarif_level(lf_severity s) {
    switch (s) {
    case LF_SEV_ERROR: return "error";
    case LF_SEV_WARNING: return "warning";
    case LF_SEV_INFO: return "note";
    default: return "none";
    }
}

/* RFC 3986: keep unreserved characters and '/', percent-encode the rest. */
static void put_uri_path(lf_strbuf *sb, const char *path) {
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("-._~/", *p))
            lf_strbuf_putc(sb, (char)*p);
        else
            lf_strbuf_printf(sb, "%%%02X", *p);
    }
}

static void add_artifact_location(cJSON *parent, const char *path) {
    cJSON *al = cJSON_AddObjectToObject(parent, "artifactLocation");
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (path[0] == '/') {
        lf_strbuf_puts(&sb, "file://");
        put_uri_path(&sb, path);
        cJSON_AddStringToObject(al, "uri", sb.data);
    } else {
        put_uri_path(&sb, path);
        cJSON_AddStringToObject(al, "uri", sb.data);
        cJSON_AddStringToObject(al, "uriBaseId", SRCROOT);
    }
    lf_strbuf_free(&sb);
}

static void add_text(cJSON *parent, const char *key, const char *text) {
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    cJSON_AddStringToObject(o, "text", text ? text : "");
}

static const char *example_lang(const lf_rule *r) {
    return (r->languages & LF_LANG_BIT(LF_LANG_PYTHON)) ? "python" : "typescript";
}

static void put_section(lf_strbuf *text, lf_strbuf *md, const char *title, const char *body, const char *code_lang) {
    if (!body || !*body)
        return;
    if (text->len)
        lf_strbuf_puts(text, "\n\n");
    if (md->len)
        lf_strbuf_puts(md, "\n\n");
    lf_strbuf_printf(text, "%s\n%s", title, body);
    if (code_lang) {
        size_t n = strlen(body);
        lf_strbuf_printf(md, "## %s\n\n```%s\n%s%s```", title, code_lang, body, n && body[n - 1] == '\n' ? "" : "\n");
    } else {
        lf_strbuf_printf(md, "## %s\n\n%s", title, body);
    }
}

static cJSON *rule_json(const lf_rule *r) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "id", r->id);
    cJSON_AddStringToObject(j, "name", r->name);
    add_text(j, "shortDescription", r->summary ? r->summary : r->name);
    add_text(j, "fullDescription", r->docs.what ? r->docs.what : r->summary);
    lf_strbuf text, md;
    lf_strbuf_init(&text);
    lf_strbuf_init(&md);
    put_section(&text, &md, "What it does", r->docs.what, NULL);
    put_section(&text, &md, "Why is this bad?", r->docs.why, NULL);
    put_section(&text, &md, "Example", r->docs.example, example_lang(r));
    put_section(&text, &md, "Use instead", r->docs.use_instead, example_lang(r));
    put_section(&text, &md, "Fix safety", r->docs.fix_safety, NULL);
    if (r->docs.known_problems)
        put_section(&text, &md, "Known problems", r->docs.known_problems, NULL);
    cJSON *help = cJSON_AddObjectToObject(j, "help");
    cJSON_AddStringToObject(help, "text", text.len ? text.data : (r->summary ? r->summary : r->name));
    cJSON_AddStringToObject(help, "markdown", md.len ? md.data : (r->summary ? r->summary : r->name));
    lf_strbuf_free(&text);
    lf_strbuf_free(&md);
    cJSON *dc = cJSON_AddObjectToObject(j, "defaultConfiguration");
    cJSON_AddStringToObject(dc, "level", sarif_level(r->severity));
    cJSON *props = cJSON_AddObjectToObject(j, "properties");
    cJSON *langs = cJSON_AddArrayToObject(props, "languages");
    for (int l = 0; l < LF_LANG_COUNT; l++)
        if (r->languages & LF_LANG_BIT(l))
            cJSON_AddItemToArray(langs, cJSON_CreateString(lf_lang_name((lf_lang)l)));
    cJSON_AddStringToObject(props, "fixSafety", lf_fix_safety_name(r->fix_safety));
    cJSON_AddStringToObject(props, "severity", lf_severity_name(r->severity));
    cJSON *tags = cJSON_AddArrayToObject(props, "tags");
    cJSON_AddItemToArray(tags, cJSON_CreateString("concurrency"));
    cJSON_AddItemToArray(tags, cJSON_CreateString("correctness"));
    return j;
}

static void add_region(cJSON *parent, const char *key, uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col) {
    cJSON *r = cJSON_AddObjectToObject(parent, key);
    cJSON_AddNumberToObject(r, "startLine", line);
    cJSON_AddNumberToObject(r, "startColumn", col);
    cJSON_AddNumberToObject(r, "endLine", end_line);
    cJSON_AddNumberToObject(r, "endColumn", end_col);
}

/* region.snippet: the flagged text; contextRegion: the whole lines around it,
 * so a viewer without the checkout still sees the code. */
static void add_snippets(cJSON *phys, const lf_source *src, const lf_finding *fd) {
    cJSON *region = cJSON_GetObjectItemCaseSensitive(phys, "region");
    uint32_t start = fd->start_byte, end = fd->end_byte;
    if (end > src->len)
        end = (uint32_t)src->len;
    if (start > end)
        start = end;
    char *text = lf_xstrndup(src->text + start, end - start);
    add_text(region, "snippet", text);
    free(text);
    size_t n_lines = lf_source_n_lines(src);
    if (fd->line == 0 || fd->line > n_lines || fd->end_line < fd->line || fd->end_line > n_lines)
        return;
    uint32_t ctx_start = lf_source_line_start(src, fd->line - 1);
    uint32_t ctx_end = lf_source_line_start(src, fd->end_line);
    cJSON *ctx = cJSON_AddObjectToObject(phys, "contextRegion");
    cJSON_AddNumberToObject(ctx, "startLine", fd->line);
    cJSON_AddNumberToObject(ctx, "endLine", fd->end_line);
    text = lf_xstrndup(src->text + ctx_start, ctx_end - ctx_start);
    add_text(ctx, "snippet", text);
    free(text);
}

static cJSON *fix_json(const lf_scan_file *f, const lf_finding *fd) {
    cJSON *fix = cJSON_CreateObject();
    add_text(fix, "description", fd->fix->title ? fd->fix->title : "lockfix fix");
    /* safe: `lockfix fix` applies it; unsafe: only with --unsafe-fixes */
    cJSON *props = cJSON_AddObjectToObject(fix, "properties");
    cJSON_AddStringToObject(props, "safety",
                            lf_fix_safety_name(lf_fix_is_unsafe(fd) ? LF_FIX_UNSAFE : fd->rule->fix_safety));
    cJSON *changes = cJSON_AddArrayToObject(fix, "artifactChanges");
    cJSON *change = cJSON_CreateObject();
    add_artifact_location(change, fd->path);
    cJSON *reps = cJSON_AddArrayToObject(change, "replacements");
    for (size_t i = 0; i < fd->fix->n_edits; i++) {
        const lf_edit *e = &fd->fix->edits[i];
        uint32_t sl, sc, el, ec;
        lf_source_position(&f->src, e->start, &sl, &sc);
        lf_source_position(&f->src, e->end, &el, &ec);
        cJSON *rep = cJSON_CreateObject();
        add_region(rep, "deletedRegion", sl, sc, el, ec);
        if (e->text && *e->text)
            add_text(rep, "insertedContent", e->text);
        cJSON_AddItemToArray(reps, rep);
    }
    cJSON_AddItemToArray(changes, change);
    /* A file the fix creates: one insertion into an empty artifact. */
    for (size_t i = 0; i < fd->fix->n_new_files; i++) {
        const lf_new_file *nf = &fd->fix->new_files[i];
        const char *slash = strrchr(fd->path, '/');
        char *path = slash ? lf_xasprintf("%.*s/%s", (int)(slash - fd->path), fd->path, nf->path) : lf_xstrdup(nf->path);
        cJSON *nc = cJSON_CreateObject();
        add_artifact_location(nc, path);
        cJSON *nreps = cJSON_AddArrayToObject(nc, "replacements");
        cJSON *rep = cJSON_CreateObject();
        add_region(rep, "deletedRegion", 1, 1, 1, 1);
        add_text(rep, "insertedContent", nf->content);
        cJSON_AddItemToArray(nreps, rep);
        cJSON_AddItemToArray(changes, nc);
        free(path);
    }
    return fix;
}

/* Stable across unrelated edits: rule, path and the flagged line's text
 * (trimmed), plus the occurrence count of that triple within the file. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t line_hash(const lf_scan_file *f, const lf_finding *fd) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv1a(h, fd->rule->id, strlen(fd->rule->id) + 1);
    h = fnv1a(h, fd->path, strlen(fd->path) + 1);
    if (f->has_source) {
        size_t len;
        const char *line = lf_source_line(&f->src, fd->line, &len);
        while (len && (*line == ' ' || *line == '\t')) {
            line++;
            len--;
        }
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        h = fnv1a(h, line, len);
    }
    return h;
}

/* One threadFlowLocation: the step's place, "A: <text>", its event as the
 * location's kind and its place in the whole interleaving (executionOrder,
 * 1-based, the same number in both code flows). */
static cJSON *step_json(const lf_finding *fd, const lf_witness_step *st, size_t order) {
    cJSON *tfl = cJSON_CreateObject();
    cJSON *loc = cJSON_AddObjectToObject(tfl, "location");
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
    add_artifact_location(phys, fd->path);
    add_region(phys, "region", st->line, st->col, st->end_line, st->end_col);
    char *msg = lf_xasprintf("%zu. %s: %s", order, lf_witness_process_name(st->process), st->text ? st->text : "");
    add_text(loc, "message", msg);
    free(msg);
    cJSON *kinds = cJSON_AddArrayToObject(tfl, "kinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString(lf_witness_event_name(st->event)));
    cJSON_AddNumberToObject(tfl, "nestingLevel", 0);
    cJSON_AddNumberToObject(tfl, "executionOrder", (double)order);
    return tfl;
}

/* The witness as codeFlows (docs/output-formats.md). The first code flow is
 * the SARIF model of concurrency: one threadFlow per process, each with its
 * own steps, interleaved by executionOrder. A viewer that draws a thread flow
 * as one list (GitHub code scanning's "Show paths") would show the processes
 * one after another and lose the interleaving, so the second code flow holds
 * the whole interleaving as a single thread flow, in execution order. */
static cJSON *code_flows_json(const lf_finding *fd) {
    const lf_witness *w = fd->witness;
    cJSON *flows = cJSON_CreateArray();
    char *summary = lf_xasprintf("%s (%s)", w->outcome ? w->outcome : "", w->platform ? w->platform : "");
    cJSON *per = cJSON_CreateObject();
    add_text(per, "message", summary);
    cJSON *tfs = cJSON_AddArrayToObject(per, "threadFlows");
    unsigned np = lf_witness_processes(w);
    for (unsigned p = 0; p < np; p++) {
        size_t mine = 0;
        for (size_t i = 0; i < w->n_steps; i++)
            mine += w->steps[i].process == p;
        if (!mine) /* a process the outcome names but that has no step here (LF303's owner) */
            continue;
        cJSON *tf = cJSON_CreateObject();
        char *id = lf_xasprintf("process %s", lf_witness_process_name(p));
        cJSON_AddStringToObject(tf, "id", id);
        add_text(tf, "message", id);
        free(id);
        cJSON *locs = cJSON_AddArrayToObject(tf, "locations");
        for (size_t i = 0; i < w->n_steps; i++)
            if (w->steps[i].process == p)
                cJSON_AddItemToArray(locs, step_json(fd, &w->steps[i], i + 1));
        cJSON_AddItemToArray(tfs, tf);
    }
    cJSON_AddItemToArray(flows, per);
    cJSON *all = cJSON_CreateObject();
    add_text(all, "message", summary);
    cJSON *one = cJSON_CreateObject();
    cJSON_AddStringToObject(one, "id", "interleaving");
    add_text(one, "message", "the processes' steps in the order they run");
    cJSON *locs = cJSON_AddArrayToObject(one, "locations");
    for (size_t i = 0; i < w->n_steps; i++)
        cJSON_AddItemToArray(locs, step_json(fd, &w->steps[i], i + 1));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(all, "threadFlows"), one);
    cJSON_AddItemToArray(flows, all);
    free(summary);
    return flows;
}

/* The other places the finding involves (the judgement, the helper, the write,
 * the removal), as SARIF relatedLocations: each distinct region the witness
 * steps point at, other than the finding's own, once, in the order of its
 * first step, with that step's event and text ("judge: reads the lock's
 * age"). A viewer that shows no code flows still lists them. */
static cJSON *related_locations_json(const lf_finding *fd) {
    const lf_witness *w = fd->witness;
    cJSON *rel = cJSON_CreateArray();
    int id = 1;
    for (size_t i = 0; i < w->n_steps; i++) {
        const lf_witness_step *st = &w->steps[i];
        if (st->line == fd->line && st->col == fd->col && st->end_line == fd->end_line && st->end_col == fd->end_col)
            continue;
        size_t j = 0;
        while (j < i && !(w->steps[j].line == st->line && w->steps[j].col == st->col &&
                          w->steps[j].end_line == st->end_line && w->steps[j].end_col == st->end_col))
            j++;
        if (j < i)
            continue;
        cJSON *loc = cJSON_CreateObject();
        cJSON_AddNumberToObject(loc, "id", id++);
        cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
        add_artifact_location(phys, fd->path);
        add_region(phys, "region", st->line, st->col, st->end_line, st->end_col);
        char *msg = lf_xasprintf("%s: %s", lf_witness_event_name(st->event), st->text ? st->text : "");
        add_text(loc, "message", msg);
        free(msg);
        cJSON_AddItemToArray(rel, loc);
    }
    return rel;
}

static cJSON *result_json(const lf_scan *s, const lf_scan_file *f, size_t k) {
    const lf_finding *fd = &f->findings[k];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "ruleId", fd->rule->id);
    cJSON_AddNumberToObject(j, "ruleIndex", (double)lf_report_rule_index(s, fd->rule));
    cJSON_AddStringToObject(j, "level", sarif_level(fd->severity));
    add_text(j, "message", fd->message);
    cJSON *locs = cJSON_AddArrayToObject(j, "locations");
    cJSON *loc = cJSON_CreateObject();
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
    add_artifact_location(phys, fd->path);
    add_region(phys, "region", fd->line, fd->col, fd->end_line, fd->end_col);
    if (f->has_source)
        add_snippets(phys, &f->src, fd);
    cJSON_AddItemToArray(locs, loc);

    uint64_t h = line_hash(f, fd);
    size_t occurrence = 0;
    for (size_t i = 0; i < k; i++)
        if (f->findings[i].rule == fd->rule && line_hash(f, &f->findings[i]) == h)
            occurrence++;
    char fp[40];
    snprintf(fp, sizeof fp, "%016llx:%zu", (unsigned long long)h, occurrence + 1);
    cJSON *pf = cJSON_AddObjectToObject(j, "partialFingerprints");
    cJSON_AddStringToObject(pf, "lockfixLineHash/v1", fp);
    /* The identity `scan --baseline` matches on (lf_fingerprint.h); every
     * finding from the engine has one. */
    if (fd->fingerprint[0])
        cJSON_AddStringToObject(pf, LF_FINGERPRINT_SARIF_KEY, fd->fingerprint);

    if (fd->witness && fd->witness->n_steps) {
        cJSON *rel = related_locations_json(fd);
        if (cJSON_GetArraySize(rel) > 0)
            cJSON_AddItemToObject(j, "relatedLocations", rel);
        else
            cJSON_Delete(rel);
        cJSON_AddItemToObject(j, "codeFlows", code_flows_json(fd));
    }

    if (fd->fix && f->has_source) {
        cJSON *fixes = cJSON_AddArrayToObject(j, "fixes");
        cJSON_AddItemToArray(fixes, fix_json(f, fd));
    }
    cJSON *props = cJSON_AddObjectToObject(j, "properties");
    cJSON_AddStringToObject(props, "ruleName", fd->rule->name);
    if (!fd->fix && fd->no_fix_reason)
        cJSON_AddStringToObject(props, "noFixReason", fd->no_fix_reason);
    if (fd->witness && fd->witness->platform)
        cJSON_AddStringToObject(props, "witnessPlatform", fd->witness->platform);
    return j;
}

static void add_srcroot(cJSON *run) {
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        return;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "file://");
    put_uri_path(&sb, cwd);
    if (sb.data[sb.len - 1] != '/')
        lf_strbuf_putc(&sb, '/');
    cJSON *bases = cJSON_AddObjectToObject(run, "originalUriBaseIds");
    cJSON *root = cJSON_AddObjectToObject(bases, SRCROOT);
    cJSON_AddStringToObject(root, "uri", sb.data);
    lf_strbuf_free(&sb);
    free(cwd);
}

void lf_report_sarif(lf_strbuf *out, const lf_scan *s) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(root, "version", "2.1.0");
    cJSON *runs = cJSON_AddArrayToObject(root, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);

    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "lockfix");
    cJSON_AddStringToObject(driver, "version", LOCKFIX_VERSION);
    cJSON_AddStringToObject(driver, "semanticVersion", LOCKFIX_VERSION);
    cJSON_AddStringToObject(driver, "informationUri", LOCKFIX_INFORMATION_URI);
    cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
    for (size_t i = 0; i < s->rules.n_rules; i++)
        cJSON_AddItemToArray(rules, rule_json(s->rules.rules[i]));

    cJSON *invs = cJSON_AddArrayToObject(run, "invocations");
    cJSON *inv = cJSON_CreateObject();
    cJSON_AddItemToArray(invs, inv);
    cJSON_AddBoolToObject(inv, "executionSuccessful", s->n_analysis_errors == 0);
    if (s->n_skips || s->n_partial) {
        cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
        for (size_t i = 0; i < s->n_skips; i++) {
            cJSON *n = cJSON_CreateObject();
            cJSON_AddStringToObject(n, "level", s->skips[i].kind == LF_SKIP_ANALYSIS_ERROR ? "error" : "warning");
            char *raw = lf_xasprintf("skipping %s: %s", s->skips[i].path, s->skips[i].reason);
            int lossy;
            char *msg = lf_report_utf8(raw, &lossy); /* the URI below keeps the exact bytes */
            add_text(n, "message", msg);
            free(msg);
            free(raw);
            cJSON *locs = cJSON_AddArrayToObject(n, "locations");
            cJSON *loc = cJSON_CreateObject();
            add_artifact_location(cJSON_AddObjectToObject(loc, "physicalLocation"), s->skips[i].path);
            cJSON_AddItemToArray(locs, loc);
            cJSON *props = cJSON_AddObjectToObject(n, "properties");
            cJSON_AddStringToObject(props, "skipKind", lf_skip_kind_name(s->skips[i].kind));
            cJSON_AddItemToArray(notes, n);
        }
        for (size_t i = 0; i < s->n_files; i++) {
            if (!s->files[i].partial_depth)
                continue;
            const char *path = s->files[i].walked->path;
            cJSON *n = cJSON_CreateObject();
            cJSON_AddStringToObject(n, "level", "warning");
            char *msg = lf_xasprintf("%s: %s", path, lf_scan_partial_reason());
            add_text(n, "message", msg);
            free(msg);
            cJSON *locs = cJSON_AddArrayToObject(n, "locations");
            cJSON *loc = cJSON_CreateObject();
            add_artifact_location(cJSON_AddObjectToObject(loc, "physicalLocation"), path);
            cJSON_AddItemToArray(locs, loc);
            cJSON *props = cJSON_AddObjectToObject(n, "properties");
            cJSON_AddBoolToObject(props, "partiallyAnalyzed", 1);
            cJSON_AddItemToArray(notes, n);
        }
    }

    add_srcroot(run);
    cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
    cJSON *results = cJSON_AddArrayToObject(run, "results");
    for (size_t i = 0; i < s->n_files; i++)
        for (size_t k = 0; k < s->files[i].n_findings; k++)
            cJSON_AddItemToArray(results, result_json(s, &s->files[i], k));

    lf_report_put_json(out, root);
    cJSON_Delete(root);
}
