/* lf_config: every error message (file, line, problem), discovery upward,
 * selection semantics, rule checking. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_config.h"
#include "lf_test.h"
#include "lf_util.h"

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/* Load `text` as c.json; expect failure with exactly `want`. */
static void expect_error(const char *text, const char *want) {
    write_file("c.json", text);
    lf_config cfg;
    char *err = NULL;
    CHECK(!lf_config_load("c.json", &cfg, &err));
    CHECK_STR(err, want);
    free(err);
    lf_config_free(&cfg);
}

static void test_errors(void) {
    expect_error("", "c.json:1: empty file: expected a JSON object");
    expect_error("  \n\n", "c.json:3: empty file: expected a JSON object");
    expect_error("[]\n", "c.json:1: expected a JSON object at the top level");
    expect_error("{\n  \"select\": [\"LF1\"],\n  \"selct\": []\n}\n",
                 "c.json:3: unknown key \"selct\" (expected one of: select, ignore, exclude, severity, fail_on)");
    expect_error("{\n  \"select\": [\"LF1\",]\n}\n", "c.json:2: invalid JSON near ']'");
    expect_error("{\n  \"select\": [\"LF1\"]\n", "c.json:3: invalid JSON: unexpected end of file");
    expect_error("{\"select\": []}\n{}", "c.json:2: invalid JSON near '{}'");
    expect_error("{\n\n  \"select\": \"LF101\"\n}", "c.json:3: \"select\" must be an array of strings");
    expect_error("{\"ignore\": [\n  \"LF101\",\n  3\n]}", "c.json:3: \"ignore\"[1] must be a non-empty string");
    expect_error("{\"exclude\": [\"\"]}", "c.json:1: \"exclude\"[0] must be a non-empty string");
    expect_error("{\n \"severity\": [\"LF302\"]\n}",
                 "c.json:2: \"severity\" must be an object mapping rule ids to \"error\", \"warning\", \"info\" or \"off\"");
    expect_error("{\n \"severity\": {\n  \"LF302\": \"error\",\n  \"LF303\": \"fatal\"\n }\n}",
                 "c.json:4: severity of \"LF303\" must be \"error\", \"warning\", \"info\" or \"off\", not \"fatal\"");
    expect_error("{\"severity\": {\"LF302\": 2}}",
                 "c.json:1: severity of \"LF302\" must be a string: \"error\", \"warning\", \"info\" or \"off\"");
    expect_error("{\"severity\": {\"\": \"off\"}}", "c.json:1: \"severity\" has an empty rule id");
    expect_error("{\n\"fail_on\": \"off\"}", "c.json:2: \"fail_on\" must be \"error\", \"warning\" or \"info\"");
    expect_error("{\"fail_on\": true}", "c.json:1: \"fail_on\" must be \"error\", \"warning\" or \"info\"");
    expect_error("{\n \"select\": [],\n \"select\": [\"LF1\"]\n}", "c.json:3: duplicate key \"select\"");
    /* A key that looks like a known one inside a string value is not confused with it. */
    expect_error("{\"exclude\": [\"selct\"],\n \"selct\": 1}",
                 "c.json:2: unknown key \"selct\" (expected one of: select, ignore, exclude, severity, fail_on)");
    expect_error("{\"a\\\"b\": 1}",
                 "c.json:1: unknown key \"a\"b\" (expected one of: select, ignore, exclude, severity, fail_on)");

    lf_config cfg;
    char *err = NULL;
    CHECK(!lf_config_load("does-not-exist.json", &cfg, &err));
    CHECK_STR(err, "does-not-exist.json: cannot read config: No such file or directory");
    free(err);
    mkdir("adir.json", 0755);
    CHECK(!lf_config_load("adir.json", &cfg, &err));
    CHECK(err && strstr(err, "adir.json: cannot read config:") == err);
    free(err);
    write_file("nul.json", "{}");
    FILE *f = fopen("nul.json", "ab");
    fputc('\0', f);
    fclose(f);
    CHECK(!lf_config_load("nul.json", &cfg, &err));
    CHECK_STR(err, "nul.json: not a JSON text (contains a NUL byte)");
    free(err);
}

static void test_valid(void) {
    write_file("ok.json",
               "\xEF\xBB\xBF{\n"
               "  \"select\": [\"LF1\", \"LF401\"],\n"
               "  \"ignore\": [\"LF104\"],\n"
               "  \"exclude\": [\"fixtures/negative/**\", \"*_test.py\"],\n"
               "  \"severity\": {\"LF401\": \"error\", \"LF101\": \"off\"},\n"
               "  \"fail_on\": \"error\"\n"
               "}\n");
    lf_config cfg;
    char *err = NULL;
    CHECK(lf_config_load("ok.json", &cfg, &err));
    CHECK(err == NULL);
    CHECK_STR(cfg.path, "ok.json");
    CHECK_INT(cfg.n_select, 2);
    CHECK_INT(cfg.n_ignore, 1);
    CHECK_INT(cfg.n_exclude, 2);
    CHECK_INT(cfg.n_severity, 2);
    CHECK_INT(cfg.fail_on, LF_SEV_ERROR);
    CHECK(lf_config_excluded(&cfg, "fixtures/negative/a/b.py"));
    CHECK(lf_config_excluded(&cfg, "lib/state_test.py"));
    CHECK(!lf_config_excluded(&cfg, "lib/state.py"));

    lf_rule r101 = {.id = "LF101", .name = "unlocked-fallback", .severity = LF_SEV_ERROR};
    lf_rule r104 = {.id = "LF104", .name = "unlocked-read-modify-write", .severity = LF_SEV_WARNING};
    lf_rule r201 = {.id = "LF201", .name = "realpath-missing-target", .severity = LF_SEV_ERROR};
    lf_rule r401 = {.id = "LF401", .name = "shared-temp-name", .severity = LF_SEV_WARNING};
    CHECK_INT(lf_config_rule_severity(&cfg, &r101), LF_SEV_NONE);  /* selected, then "off" */
    CHECK_INT(lf_config_rule_severity(&cfg, &r104), LF_SEV_NONE);  /* ignored */
    CHECK_INT(lf_config_rule_severity(&cfg, &r201), LF_SEV_NONE);  /* not selected */
    CHECK_INT(lf_config_rule_severity(&cfg, &r401), LF_SEV_ERROR); /* override */
    CHECK_INT(lf_config_rule_severity(NULL, &r104), LF_SEV_WARNING);

    lf_rule *list[] = {&r101, &r104, &r201, &r401};
    lf_ruleset rules = {.rules = list, .n_rules = 4};
    CHECK(lf_config_check_rules(&cfg, &rules, &err));
    lf_config_free(&cfg);

    lf_config empty;
    lf_config_init(&empty);
    CHECK_INT(lf_config_rule_severity(&empty, &r201), LF_SEV_ERROR);
    CHECK_INT(empty.fail_on, LF_SEV_WARNING);

    /* Names and ALL select too; ignore wins over select. */
    char *sel[] = {"shared-temp-name"};
    lf_config by_name;
    lf_config_init(&by_name);
    by_name.select = sel;
    by_name.n_select = 1;
    CHECK_INT(lf_config_rule_severity(&by_name, &r401), LF_SEV_WARNING);
    CHECK_INT(lf_config_rule_severity(&by_name, &r101), LF_SEV_NONE);
    char *all[] = {"ALL"}, *ign[] = {"LF4"};
    by_name.select = all;
    by_name.ignore = ign;
    by_name.n_ignore = 1;
    CHECK_INT(lf_config_rule_severity(&by_name, &r101), LF_SEV_ERROR);
    CHECK_INT(lf_config_rule_severity(&by_name, &r401), LF_SEV_NONE);

    /* Entries that name no rule: an error with the entry's line. */
    write_file("unknown.json", "{\n  \"select\": [\n    \"LF1\",\n    \"LF999\"\n  ]\n}\n");
    CHECK(lf_config_load("unknown.json", &cfg, &err));
    CHECK(!lf_config_check_rules(&cfg, &rules, &err));
    CHECK_STR(err, "unknown.json:4: \"select\": unknown rule selector \"LF999\" (see `lockfix rules`)");
    free(err);
    lf_config_free(&cfg);
    write_file("unknown2.json", "{\"ignore\": [],\n \"severity\": {\n  \"LF101\": \"info\",\n  \"nope\": \"off\"}}\n");
    CHECK(lf_config_load("unknown2.json", &cfg, &err));
    CHECK(!lf_config_check_rules(&cfg, &rules, &err));
    CHECK_STR(err, "unknown2.json:4: \"severity\": unknown rule \"nope\" (see `lockfix rules`)");
    free(err);
    lf_config_free(&cfg);
}

static void test_discover(void) {
    mkdir("proj", 0755);
    mkdir("proj/a", 0755);
    mkdir("proj/a/b", 0755);
    write_file("proj/.lockfix.json", "{}");
    write_file("proj/a/b/x.py", "");
    char *p = lf_config_discover("proj/a/b");
    CHECK_STR(p, "proj/.lockfix.json"); /* relative to the working directory when below it */
    free(p);
    p = lf_config_discover("proj/a/b/x.py"); /* a file: start from its directory */
    CHECK_STR(p, "proj/.lockfix.json");
    free(p);
    write_file("proj/a/.lockfix.json", "{}");
    p = lf_config_discover("proj/a/b");
    CHECK_STR(p, "proj/a/.lockfix.json"); /* nearest wins */
    free(p);
    CHECK(chdir("proj/a/b") == 0);
    p = lf_config_discover(".");
    char *want = realpath("../.lockfix.json", NULL);
    CHECK_STR(p, want); /* above the working directory: absolute */
    free(want);
    free(p);
    CHECK(chdir("../../..") == 0);
    CHECK(lf_config_discover("no/such/dir") == NULL);
}

int main(void) {
    char tmpl[] = "/tmp/lf_test_config.XXXXXX";
    if (!mkdtemp(tmpl) || chdir(tmpl) != 0)
        return 2;
    test_errors();
    test_valid();
    test_discover();
    char *cmd = lf_xasprintf("rm -rf '%s'", tmpl);
    if (chdir("/") != 0 || system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", tmpl);
    free(cmd);
    TEST_MAIN_END();
}
