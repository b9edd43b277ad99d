/* `lockfix rules` (the catalogue) and `lockfix explain ID` (one rule's doc). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "lf_engine.h"
#include "lf_report.h"
#include "lf_rule.h"
#include "lf_source.h"
#include "lf_util.h"
#include "lf_witness.h"

static const char k_rules_usage[] =
    "usage: lockfix rules [--format text|json] [--rules DIR]\n"
    "\n"
    "List the rules: id, name, default severity, languages and fix safety.\n"
    "\n"
    "Options:\n"
    "  --format FORMAT   text (default) or json\n"
    "  --rules DIR       also load the rule files (*.json) in DIR (repeatable)\n"
    "  -h, --help        show this help\n";

static const char k_explain_usage[] =
    "usage: lockfix explain [--rules DIR] RULE\n"
    "\n"
    "Print a rule's documentation: What it does / Why is this bad? / Example /\n"
    "Use instead / Fix safety. RULE is an id (LF101) or a name (unlocked-fallback).\n"
    "\n"
    "Options:\n"
    "  --rules DIR       also load the rule files (*.json) in DIR (repeatable)\n"
    "  -h, --help        show this help\n";

/* "python, typescript": TSX is the TypeScript grammar for JSX files, not a
 * separate language to a reader. */
static char *languages_text(unsigned mask) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (mask & LF_LANG_BIT(LF_LANG_PYTHON))
        lf_strbuf_puts(&sb, "python");
    if (mask & (LF_LANG_BIT(LF_LANG_TYPESCRIPT) | LF_LANG_BIT(LF_LANG_TSX)))
        lf_strbuf_printf(&sb, "%stypescript", sb.len ? ", " : "");
    return lf_strbuf_detach(&sb);
}

/* Built-in rules plus each --rules DIR; prints the error and returns 0 on failure. */
static int load_rules(lf_ruleset *rules, char **dirs, size_t n_dirs) {
    char *err = NULL;
    memset(rules, 0, sizeof *rules);
    if (!lf_ruleset_load_builtin(rules, &err)) {
        fprintf(stderr, "lockfix: %s\n", err);
        free(err);
        return 0;
    }
    for (size_t i = 0; i < n_dirs; i++) {
        if (!lf_ruleset_load_dir(rules, dirs[i], &err)) {
            fprintf(stderr, "lockfix: %s\n", err);
            free(err);
            return 0;
        }
    }
    return 1;
}

/* Takes the value of "--name VALUE" or "--name=VALUE"; NULL if argv[*i] is not it. */
static const char *opt_value(const char *name, int argc, char **argv, int *i, int *missing) {
    size_t n = strlen(name);
    const char *a = argv[*i];
    *missing = 0;
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=') {
        (*i)++;
        return a + n + 1;
    }
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    *i += 2;
    return argv[*i - 1];
}

static void print_rules_text(const lf_ruleset *rules) {
    int w_name = 4;
    for (size_t i = 0; i < rules->n_rules; i++) {
        int n = (int)strlen(rules->rules[i]->name);
        if (n > w_name)
            w_name = n;
    }
    printf("%-6s  %-*s  %-8s  %-20s  %s\n", "ID", w_name, "NAME", "SEVERITY", "LANGUAGES", "FIX");
    for (size_t i = 0; i < rules->n_rules; i++) {
        const lf_rule *r = rules->rules[i];
        char *langs = languages_text(r->languages);
        char *fl = r->fix_languages ? languages_text(r->fix_languages) : NULL;
        printf("%-6s  %-*s  %-8s  %-20s  %s%s%s%s\n", r->id, w_name, r->name, lf_severity_name(r->severity), langs,
               lf_fix_safety_name(r->fix_safety), fl ? " (" : "", fl ? fl : "", fl ? " only)" : "");
        free(fl);
        free(langs);
    }
}

static void add_opt_string(cJSON *o, const char *key, const char *v) {
    if (v)
        cJSON_AddStringToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void print_rules_json(const lf_ruleset *rules) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON *arr = cJSON_AddArrayToObject(root, "rules");
    for (size_t i = 0; i < rules->n_rules; i++) {
        const lf_rule *r = rules->rules[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "id", r->id);
        cJSON_AddStringToObject(j, "name", r->name);
        add_opt_string(j, "summary", r->summary);
        cJSON_AddStringToObject(j, "severity", lf_severity_name(r->severity));
        cJSON *langs = cJSON_AddArrayToObject(j, "languages");
        for (int l = 0; l < LF_LANG_COUNT; l++)
            if (r->languages & LF_LANG_BIT(l))
                cJSON_AddItemToArray(langs, cJSON_CreateString(lf_lang_name((lf_lang)l)));
        cJSON_AddStringToObject(j, "fix_safety", lf_fix_safety_name(r->fix_safety));
        if (r->fix_languages) {
            cJSON *fl = cJSON_AddArrayToObject(j, "fix_languages");
            for (int l = 0; l < LF_LANG_COUNT; l++)
                if (r->fix_languages & LF_LANG_BIT(l))
                    cJSON_AddItemToArray(fl, cJSON_CreateString(lf_lang_name((lf_lang)l)));
        }
        cJSON *docs = cJSON_AddObjectToObject(j, "docs");
        add_opt_string(docs, "what", r->docs.what);
        add_opt_string(docs, "why", r->docs.why);
        add_opt_string(docs, "example", r->docs.example);
        add_opt_string(docs, "use_instead", r->docs.use_instead);
        add_opt_string(docs, "fix_safety", r->docs.fix_safety);
        add_opt_string(docs, "known_problems", r->docs.known_problems);
        add_opt_string(j, "origin", r->origin);
        cJSON_AddItemToArray(arr, j);
    }
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_report_put_json(&sb, root);
    fputs(sb.data, stdout);
    lf_strbuf_free(&sb);
    cJSON_Delete(root);
}

int lf_cmd_rules(int argc, char **argv) {
    char **dirs = NULL;
    size_t n_dirs = 0;
    int json = 0, rc = LF_EXIT_USAGE;
    for (int i = 1; i < argc;) {
        int missing;
        const char *v;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(k_rules_usage, stdout);
            rc = LF_EXIT_OK;
            goto out;
        } else if ((v = opt_value("--format", argc, argv, &i, &missing)) != NULL) {
            if (strcmp(v, "json") == 0) {
                json = 1;
            } else if (strcmp(v, "text") == 0) {
                json = 0;
            } else {
                fprintf(stderr, "lockfix rules: --format: expected text or json, got \"%s\"\n", v);
                goto out;
            }
        } else if (!missing && (v = opt_value("--rules", argc, argv, &i, &missing)) != NULL) {
            dirs = lf_xrealloc(dirs, (n_dirs + 1) * sizeof *dirs);
            dirs[n_dirs++] = (char *)v;
        } else {
            if (missing)
                fprintf(stderr, "lockfix rules: option %s needs a value\n", argv[i]);
            else
                fprintf(stderr, "lockfix rules: unexpected argument '%s' (see `lockfix rules --help`)\n", argv[i]);
            goto out;
        }
    }
    lf_ruleset rules;
    if (load_rules(&rules, dirs, n_dirs)) {
        if (json)
            print_rules_json(&rules);
        else
            print_rules_text(&rules);
        rc = LF_EXIT_OK;
    }
    lf_ruleset_free(&rules);
out:
    free(dirs);
    return rc;
}

static void print_section(const char *title, const char *body, int code) {
    if (!body || !*body)
        return;
    printf("\n%s\n", title);
    const char *p = body;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n == 0)
            printf("\n");
        else
            printf("%s%.*s\n", code ? "    " : "  ", (int)n, p);
        if (!nl)
            break;
        p = nl + 1;
    }
}

/* The example analysed like any file (Python when the rule covers Python and
 * the example parses as Python, else TypeScript): each of the rule's findings
 * there with its witness, so the explanation shows how the example loses data
 * with the same steps a scan would report. Silent when it yields none. */
static void print_example_witness(const lf_ruleset *rules, const lf_rule *r) {
    const char *ex = r->docs.example;
    if (!ex || !*ex)
        return;
    size_t len = strlen(ex);
    int py = (r->languages & LF_LANG_BIT(LF_LANG_PYTHON)) && lf_engine_parses_cleanly(LF_LANG_PYTHON, ex, len);
    lf_source src;
    lf_source_from_text(&src, py ? "example.py" : "example.ts", py ? LF_LANG_PYTHON : LF_LANG_TYPESCRIPT, ex, len);
    lf_engine_options opts = {.rules = rules, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_finding *fs = NULL;
    size_t n = 0;
    char *err = NULL;
    int printed = 0;
    if (lf_engine_analyze(eng, &src, &fs, &n, &err) == 0) {
        for (size_t i = 0; i < n; i++) {
            if (fs[i].rule != r || !fs[i].witness)
                continue;
            lf_strbuf out;
            lf_strbuf_init(&out);
            lf_report_text_witness(&out, 0, fs[i].witness);
            printf("%s  the finding at line %u:\n%s", printed ? "\n" : "\nWitness (how the example loses data)\n",
                   fs[i].line, out.data ? out.data : "");
            lf_strbuf_free(&out);
            printed = 1;
        }
    }
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&fs[i]);
    free(fs);
    free(err);
    lf_engine_free(eng);
    lf_source_free(&src);
}

int lf_cmd_explain(int argc, char **argv) {
    char **dirs = NULL;
    size_t n_dirs = 0;
    const char *id = NULL;
    int rc = LF_EXIT_USAGE;
    for (int i = 1; i < argc;) {
        int missing;
        const char *v;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(k_explain_usage, stdout);
            rc = LF_EXIT_OK;
            goto out;
        } else if ((v = opt_value("--rules", argc, argv, &i, &missing)) != NULL) {
            dirs = lf_xrealloc(dirs, (n_dirs + 1) * sizeof *dirs);
            dirs[n_dirs++] = (char *)v;
        } else if (missing || argv[i][0] == '-' || id) {
            if (missing)
                fprintf(stderr, "lockfix explain: option %s needs a value\n", argv[i]);
            else
                fprintf(stderr, "lockfix explain: unexpected argument '%s' (see `lockfix explain --help`)\n", argv[i]);
            goto out;
        } else {
            id = argv[i++];
        }
    }
    if (!id) {
        fprintf(stderr, "lockfix explain: which rule? (e.g. `lockfix explain LF101`; `lockfix rules` lists them)\n");
        goto out;
    }
    lf_ruleset rules;
    if (load_rules(&rules, dirs, n_dirs)) {
        const lf_rule *r = NULL;
        for (size_t i = 0; i < rules.n_rules && !r; i++)
            if (strcasecmp(rules.rules[i]->id, id) == 0 || strcmp(rules.rules[i]->name, id) == 0)
                r = rules.rules[i];
        if (!r) {
            fprintf(stderr, "lockfix explain: unknown rule \"%s\" (`lockfix rules` lists them)\n", id);
        } else {
            char *langs = languages_text(r->languages);
            printf("%s %s\n", r->id, r->name);
            printf("severity: %s; languages: %s; fix: %s", lf_severity_name(r->severity), langs,
                   lf_fix_safety_name(r->fix_safety));
            if (r->fix_languages) {
                char *fl = languages_text(r->fix_languages);
                printf(" (%s only)", fl);
                free(fl);
            }
            printf("\n");
            free(langs);
            if (r->summary)
                printf("\n%s\n", r->summary);
            print_section("What it does", r->docs.what, 0);
            print_section("Why is this bad?", r->docs.why, 0);
            print_section("Example", r->docs.example, 1);
            print_example_witness(&rules, r);
            print_section("Use instead", r->docs.use_instead, 1);
            print_section("Fix safety", r->docs.fix_safety, 0);
            if (r->docs.known_problems)
                print_section("Known problems", r->docs.known_problems, 0);
            rc = LF_EXIT_OK;
        }
    }
    lf_ruleset_free(&rules);
out:
    free(dirs);
    return rc;
}
