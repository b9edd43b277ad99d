/* The report writers on a hand-built scan: exact text and github output
 * (escaping included), JSON and SARIF structure, fix regions, skipped files. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "../core/lf_test.h"
#include "lf_report.h"

static const char k_src[] =
    "import os\n"
    "\tx = 1  # tab before\n"
    "caf\xC3\xA9 = path + \".tmp\"\n";

static lf_rule r101 = {.id = "LF101", .name = "unlocked-fallback", .summary = "critical section reachable unlocked",
                       .severity = LF_SEV_ERROR, .languages = 1u << LF_LANG_PYTHON, .fix_safety = LF_FIX_SAFE,
                       .docs = {.what = "Flags X.", .why = "Because Y.", .example = "bad()\n",
                                .use_instead = "good()\n", .fix_safety = "Safe."}};
static lf_rule r401 = {.id = "LF401", .name = "shared-temp-name", .summary = "fixed temp name",
                       .severity = LF_SEV_WARNING, .languages = 1u << LF_LANG_PYTHON, .fix_safety = LF_FIX_SAFE};

static void build_scan(lf_scan *s, lf_walk_file *wf, lf_rule **rules) {
    memset(s, 0, sizeof *s);
    rules[0] = &r101;
    rules[1] = &r401;
    s->rules.rules = rules;
    s->rules.n_rules = 2;
    lf_config_init(&s->config);
    s->n_files = 1;
    s->files = lf_xcalloc(1, sizeof *s->files);
    lf_scan_file *f = &s->files[0];
    wf->path = "dir/a,b:c%.py";
    f->walked = wf;
    lf_source_from_text(&f->src, wf->path, LF_LANG_PYTHON, k_src, sizeof k_src - 1);
    f->has_source = f->analyzed = 1;
    f->n_findings = 2;
    f->findings = lf_xcalloc(2, sizeof *f->findings);
    lf_finding *a = &f->findings[0];
    a->rule = &r101;
    a->path = f->src.path;
    a->start_byte = 11; /* 'x' on line 2, after the tab */
    a->end_byte = 16;
    a->line = 2, a->col = 2, a->end_line = 2, a->end_col = 7;
    a->severity = LF_SEV_ERROR;
    a->message = lf_xstrdup("100% unlocked: first, second\nthird\r");
    a->no_fix_reason = lf_xstrdup("shape not recognized");
    lf_finding *b = &f->findings[1];
    b->rule = &r401;
    b->path = f->src.path;
    b->start_byte = 39; /* path + ".tmp" on line 3 (after "café = ") */
    b->end_byte = 52;
    b->line = 3, b->col = 8, b->end_line = 3, b->end_col = 21;
    b->severity = LF_SEV_WARNING;
    b->message = lf_xstrdup("temp name is fixed");
    b->fix = lf_xcalloc(1, sizeof *b->fix);
    b->fix->title = lf_xstrdup("use a unique temp name");
    lf_fix_add_edit(b->fix, 39, 52, "unique()");
    lf_fix_add_edit(b->fix, 0, 0, "import tempfile\n");
    s->n_skips = 1;
    s->skips = lf_xcalloc(1, sizeof *s->skips);
    s->skips[0].path = lf_xstrdup("dir/blob.py");
    s->skips[0].kind = LF_SKIP_BINARY;
    s->skips[0].reason = lf_xstrdup("binary file (NUL byte)");
}

static void free_scan(lf_scan *s) {
    lf_scan_file *f = &s->files[0];
    for (size_t i = 0; i < f->n_findings; i++)
        lf_finding_free_contents(&f->findings[i]);
    free(f->findings);
    lf_source_free(&f->src);
    free(s->files);
    free(s->skips[0].path);
    free(s->skips[0].reason);
    free(s->skips);
}

static void test_github(const lf_scan *s) {
    lf_strbuf out;
    lf_strbuf_init(&out);
    lf_report_github(&out, s);
    CHECK_STR(out.data,
              "::error file=dir/a%2Cb%3Ac%25.py,line=2,col=2,endLine=2,endColumn=7,title=LF101 unlocked-fallback"
              "::100%25 unlocked: first, second%0Athird%0D\n"
              "::warning file=dir/a%2Cb%3Ac%25.py,line=3,col=8,endLine=3,endColumn=21,title=LF401 shared-temp-name"
              "::temp name is fixed\n");
    lf_strbuf_free(&out);
}

static void test_text(const lf_scan *s) {
    lf_strbuf out;
    lf_strbuf_init(&out);
    lf_report_text(&out, s);
    CHECK_STR(out.data,
              "dir/a,b:c%.py:2:2: LF101 100% unlocked: first, second third \n"
              "  2 | \tx = 1  # tab before\n"
              "    | \t^~~~~\n"
              "    = no fix: shape not recognized\n"
              "\n"
              "dir/a,b:c%.py:3:8: LF401 temp name is fixed\n"
              "  3 | caf\xC3\xA9 = path + \".tmp\"\n"
              "    |        ^~~~~~~~~~~~~\n"
              "    = fix: use a unique temp name\n"
              "\n"
              "Found 2 findings (1 error, 1 warning) in 1 file; 1 fixable with `lockfix fix`; 1 file skipped\n");
    lf_strbuf_free(&out);
}

static cJSON *at(cJSON *o, const char *path) {
    /* "a.b.0.c": objects by key, arrays by index */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "."); tok && o; tok = strtok(NULL, "."))
        o = (*tok >= '0' && *tok <= '9') ? cJSON_GetArrayItem(o, atoi(tok)) : cJSON_GetObjectItemCaseSensitive(o, tok);
    return o;
}

static double num(cJSON *o, const char *path) {
    cJSON *v = at(o, path);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const char *str(cJSON *o, const char *path) {
    cJSON *v = at(o, path);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_json(const lf_scan *s) {
    lf_strbuf out;
    lf_strbuf_init(&out);
    lf_report_json(&out, s);
    cJSON *j = cJSON_Parse(out.data);
    CHECK(j != NULL);
    CHECK_INT(num(j, "schema_version"), 1);
    CHECK_STR(str(j, "tool.name"), "lockfix");
    CHECK_INT(cJSON_GetArraySize(at(j, "findings")), 2);
    CHECK_STR(str(j, "findings.0.path"), "dir/a,b:c%.py");
    CHECK_INT(num(j, "findings.0.line"), 2);
    CHECK_INT(num(j, "findings.0.column"), 2);
    CHECK_INT(num(j, "findings.0.end_line"), 2);
    CHECK_INT(num(j, "findings.0.end_column"), 7);
    CHECK_STR(str(j, "findings.0.rule_id"), "LF101");
    CHECK_STR(str(j, "findings.0.rule_name"), "unlocked-fallback");
    CHECK_STR(str(j, "findings.0.severity"), "error");
    CHECK_STR(str(j, "findings.0.message"), "100% unlocked: first, second\nthird\r");
    CHECK(cJSON_IsFalse(at(j, "findings.0.fix.available")));
    CHECK_STR(str(j, "findings.0.fix.reason"), "shape not recognized");
    CHECK(cJSON_IsTrue(at(j, "findings.1.fix.available")));
    CHECK_STR(str(j, "findings.1.fix.title"), "use a unique temp name");
    CHECK_INT(num(j, "findings.1.fix.edits.0.start_line"), 3);
    CHECK_INT(num(j, "findings.1.fix.edits.0.start_column"), 8); /* code points: é is one column */
    CHECK_INT(num(j, "findings.1.fix.edits.0.end_column"), 21);
    CHECK_INT(num(j, "findings.1.fix.edits.0.start_byte"), 39);
    CHECK_STR(str(j, "findings.1.fix.edits.0.content"), "unique()");
    CHECK_INT(num(j, "summary.findings"), 2);
    CHECK_INT(num(j, "summary.errors"), 1);
    CHECK_INT(num(j, "summary.warnings"), 1);
    CHECK_INT(num(j, "summary.fixable"), 1);
    CHECK_INT(num(j, "summary.failing"), 2);
    CHECK_INT(num(j, "summary.files_skipped"), 1);
    CHECK_STR(str(j, "summary.fail_on"), "warning");
    CHECK_STR(str(j, "skipped.0.path"), "dir/blob.py");
    CHECK_STR(str(j, "skipped.0.kind"), "binary");
    CHECK_STR(str(j, "skipped.0.reason"), "binary file (NUL byte)");
    cJSON_Delete(j);
    lf_strbuf_free(&out);
}

static void test_sarif(const lf_scan *s) {
    lf_strbuf out;
    lf_strbuf_init(&out);
    lf_report_sarif(&out, s);
    cJSON *j = cJSON_Parse(out.data);
    CHECK(j != NULL);
    CHECK_STR(str(j, "version"), "2.1.0");
    cJSON *run = at(j, "runs.0");
    CHECK_STR(str(run, "tool.driver.name"), "lockfix");
    CHECK(str(run, "tool.driver.informationUri") != NULL);
    CHECK_STR(str(run, "tool.driver.rules.0.id"), "LF101");
    CHECK_STR(str(run, "tool.driver.rules.0.name"), "unlocked-fallback");
    CHECK_STR(str(run, "tool.driver.rules.0.shortDescription.text"), "critical section reachable unlocked");
    CHECK_STR(str(run, "tool.driver.rules.0.fullDescription.text"), "Flags X.");
    CHECK_STR(str(run, "tool.driver.rules.0.help.text"),
              "What it does\nFlags X.\n\nWhy is this bad?\nBecause Y.\n\nExample\nbad()\n\n\nUse instead\ngood()\n\n\n"
              "Fix safety\nSafe.");
    CHECK_STR(str(run, "tool.driver.rules.0.help.markdown"),
              "## What it does\n\nFlags X.\n\n## Why is this bad?\n\nBecause Y.\n\n## Example\n\n```python\nbad()\n```"
              "\n\n## Use instead\n\n```python\ngood()\n```\n\n## Fix safety\n\nSafe.");
    CHECK_STR(str(run, "tool.driver.rules.0.defaultConfiguration.level"), "error");
    CHECK_STR(str(run, "tool.driver.rules.1.defaultConfiguration.level"), "warning");
    CHECK_STR(str(run, "tool.driver.rules.0.properties.fixSafety"), "safe");
    CHECK_STR(str(run, "columnKind"), "unicodeCodePoints");
    const char *base = str(run, "originalUriBaseIds.%SRCROOT%.uri");
    CHECK(base && strncmp(base, "file:///", 8) == 0 && base[strlen(base) - 1] == '/');

    CHECK_STR(str(run, "results.0.ruleId"), "LF101");
    CHECK_INT(num(run, "results.0.ruleIndex"), 0);
    CHECK_STR(str(run, "results.0.level"), "error");
    CHECK_STR(str(run, "results.0.message.text"), "100% unlocked: first, second\nthird\r");
    CHECK_STR(str(run, "results.0.locations.0.physicalLocation.artifactLocation.uri"), "dir/a%2Cb%3Ac%25.py");
    CHECK_STR(str(run, "results.0.locations.0.physicalLocation.artifactLocation.uriBaseId"), "%SRCROOT%");
    CHECK_INT(num(run, "results.0.locations.0.physicalLocation.region.startLine"), 2);
    CHECK_INT(num(run, "results.0.locations.0.physicalLocation.region.startColumn"), 2);
    CHECK_INT(num(run, "results.0.locations.0.physicalLocation.region.endLine"), 2);
    CHECK_INT(num(run, "results.0.locations.0.physicalLocation.region.endColumn"), 7);
    CHECK_STR(str(run, "results.0.locations.0.physicalLocation.region.snippet.text"), "x = 1");
    CHECK_STR(str(run, "results.0.locations.0.physicalLocation.contextRegion.snippet.text"), "\tx = 1  # tab before\n");
    CHECK(at(run, "results.0.fixes") == NULL);
    CHECK_STR(str(run, "results.0.properties.noFixReason"), "shape not recognized");
    const char *fp0 = str(run, "results.0.partialFingerprints.lockfixLineHash/v1");
    const char *fp1 = str(run, "results.1.partialFingerprints.lockfixLineHash/v1");
    CHECK(fp0 && fp1 && strcmp(fp0, fp1) != 0);

    CHECK_INT(num(run, "results.1.ruleIndex"), 1);
    CHECK_STR(str(run, "results.1.level"), "warning");
    CHECK_STR(str(run, "results.1.fixes.0.description.text"), "use a unique temp name");
    cJSON *rep = at(run, "results.1.fixes.0.artifactChanges.0.replacements");
    CHECK_INT(cJSON_GetArraySize(rep), 2);
    CHECK_INT(num(rep, "0.deletedRegion.startLine"), 3);
    CHECK_INT(num(rep, "0.deletedRegion.startColumn"), 8);
    CHECK_INT(num(rep, "0.deletedRegion.endColumn"), 21);
    CHECK_STR(str(rep, "0.insertedContent.text"), "unique()");
    CHECK_INT(num(rep, "1.deletedRegion.startLine"), 1);
    CHECK_INT(num(rep, "1.deletedRegion.startColumn"), 1);
    CHECK_INT(num(rep, "1.deletedRegion.endColumn"), 1);
    CHECK_STR(str(rep, "1.insertedContent.text"), "import tempfile\n");

    CHECK(cJSON_IsTrue(at(run, "invocations.0.executionSuccessful")));
    CHECK_STR(str(run, "invocations.0.toolExecutionNotifications.0.message.text"),
              "skipping dir/blob.py: binary file (NUL byte)");
    CHECK_STR(str(run, "invocations.0.toolExecutionNotifications.0.level"), "warning");
    cJSON_Delete(j);
    lf_strbuf_free(&out);
}

int main(void) {
    lf_scan s;
    lf_walk_file wf = {0};
    lf_rule *rules[2];
    build_scan(&s, &wf, rules);
    test_github(&s);
    test_text(&s);
    test_json(&s);
    test_sarif(&s);
    free_scan(&s);
    TEST_MAIN_END();
}
