/* Complexity pins, in steps (lf_work_steps), never seconds: the analysis of one
 * file, checks and fixes together, must cost linear work in
 *  - the number of LF101 sites in the file (100 vs 400 sites: ratio about 4;
 *    400 sites once took 10.7 s), and
 *  - the length of a `1+1+...` chain next to a fixable site (25k vs 100k terms;
 *    a 100k-term chain once took over a minute), and
 *  - the length of a method chain `x.f().f()...` (25k vs 100k calls) in Python
 *    and in TypeScript, where every call starts at one byte (looking calls up
 *    by start byte alone once made a 100k chain take 50 s), and
 *  - the number of functions holding the genre's lock protocol (50 vs 200:
 *    each age check and pid probe once asked every call of the module what it
 *    writes; each TypeScript fix walked the whole file for the name it
 *    imports and read the module's header again; the protocol swap
 *    recognised every lock of the module per request), the number of such
 *    blocks in one Python function (each removal walked the function for a
 *    yield, each rename the module for an unlink), and the depth of a chain
 *    of helpers a lock is handed down, and
 *  - the number of lock helpers in a TypeScript module (50 vs 200: LF302
 *    asked every call of the module who calls an age helper, per age, and
 *    LF101 every call for a swallowing helper's callers, per helper).
 * lf_work_steps counts the tree walks, field and type tests, equality and
 * hashing steps and the model's climbs (lf_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_engine.h"
#include "lf_rule.h"
#include "lf_util.h"

static int g_failed;
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            g_failed = 1;                                                                                              \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                               \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

typedef struct run_result {
    unsigned long long steps;
    size_t findings, fixed;
} run_result;

static run_result analyze_with(const lf_ruleset *set, const char *name, lf_lang lang, const char *code, int fixes) {
    lf_engine_options opts = {.rules = set, .want_fixes = fixes, .use_prefilter = 1};
    lf_engine *eng = lf_engine_new(&opts);
    lf_source src;
    lf_source_from_text(&src, name, lang, code, strlen(code));
    lf_finding *f = NULL;
    size_t n = 0;
    char *err = NULL;
    run_result r = {0, 0, 0};
    unsigned long long before = lf_work_steps;
    int rc = lf_engine_analyze(eng, &src, &f, &n, &err);
    r.steps = lf_work_steps - before;
    CHECK(rc == 0, "analysis failed: %s", err ? err : "?");
    free(err);
    for (size_t i = 0; i < n; i++) {
        r.findings++;
        if (f[i].fix)
            r.fixed++;
        lf_finding_free_contents(&f[i]);
    }
    free(f);
    lf_source_free(&src);
    lf_engine_free(eng);
    return r;
}

static run_result analyze_as(const lf_ruleset *set, const char *name, lf_lang lang, const char *code) {
    return analyze_with(set, name, lang, code, 1);
}

static run_result analyze(const lf_ruleset *set, const char *code) {
    return analyze_as(set, "t.py", LF_LANG_PYTHON, code);
}

/* n LF101 sites (each also an LF104 read-modify-write), one module. */
static char *lf101_sites(size_t n) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import os, sys\nif sys.platform != \"win32\":\n    import fcntl\nelse:\n    fcntl = None\n");
    for (size_t i = 0; i < n; i++)
        lf_strbuf_printf(&sb,
                         "\n\ndef bump_%zu(path):\n"
                         "    if fcntl is not None:\n"
                         "        fd = os.open(path + \".lock%zu\", os.O_CREAT | os.O_RDWR)\n"
                         "        fcntl.flock(fd, fcntl.LOCK_EX)\n"
                         "        try:\n"
                         "            d = read(path)\n"
                         "            write(path, d + %zu)\n"
                         "            return d\n"
                         "        finally:\n"
                         "            fcntl.flock(fd, fcntl.LOCK_UN)\n"
                         "            os.close(fd)\n"
                         "    d = read(path)\n"
                         "    write(path, d + %zu)\n"
                         "    return d\n",
                         i, i, i, i);
    return lf_strbuf_detach(&sb);
}

/* An LF401 site with a `1+1+...` chain of n terms between the temp's open and
 * the replace (the fix relates the two across it). */
static char *plus_chain(size_t n) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import json, os\n\n\ndef write_state(path, data):\n    tmp = path + \".tmp\"\n"
                        "    with open(tmp, \"w\") as f:\n        json.dump(data, f)\n    x = 1");
    for (size_t i = 1; i < n; i++)
        lf_strbuf_puts(&sb, "+1");
    lf_strbuf_puts(&sb, "\n    os.replace(tmp, path)\n");
    return lf_strbuf_detach(&sb);
}

/* A method chain of n calls inside a function that also holds a shared-temp
 * site (LF401 in both languages), so the checks and the fix walk past it. */
static char *method_chain(size_t n, lf_lang lang) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (lang == LF_LANG_PYTHON)
        lf_strbuf_puts(&sb, "import json, os\n\n\ndef write_state(path, data):\n    tmp = path + \".tmp\"\n"
                            "    with open(tmp, \"w\") as f:\n        json.dump(data, f)\n    y = x");
    else
        lf_strbuf_puts(&sb, "import * as fs from \"node:fs\";\n\nexport function writeState(path: string, data: string) {\n"
                            "  const tmp = path + \".tmp\";\n  fs.writeFileSync(tmp, data);\n  const y = x");
    for (size_t i = 0; i < n; i++)
        lf_strbuf_puts(&sb, ".f()");
    lf_strbuf_puts(&sb, lang == LF_LANG_PYTHON ? "\n    os.replace(tmp, path)\n" : ";\n  fs.renameSync(tmp, path);\n}\n");
    return lf_strbuf_detach(&sb);
}

static void ratio_check(const char *what, run_result small, run_result big, double scale);

/* n LF401 sites, each a temp derived from its target and renamed onto it, in
 * n functions (`per_function`) or all in one function, with a str.replace
 * beside each: the check looks for temps only in the scopes of renames, each
 * scope once. Pinned with fixes off: the fix's import placement
 * (lf_pyfix_ensure_import_as) scans the module's statements per finding. Not
 * pinned yet: many renames in one function (each walks its scope again). */
static char *lf401_sites(size_t n, int per_function) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import os\n");
    if (!per_function)
        lf_strbuf_puts(&sb, "\n\ndef save(path, data):\n");
    for (size_t i = 0; i < n; i++) {
        if (per_function)
            lf_strbuf_printf(&sb, "\n\ndef save_%zu(path, data):\n", i);
        lf_strbuf_printf(&sb,
                         "    tmp%zu = path + \".t%zu\"\n"
                         "    with open(tmp%zu, \"w\") as f%zu:\n"
                         "        f%zu.write(data.replace(\"a\", \"b\"))\n"
                         "    os.replace(tmp%zu, path)\n",
                         i, i, i, i, i, i);
    }
    return lf_strbuf_detach(&sb);
}

static void lf401_pin(const lf_ruleset *set, const char *what, int per_function) {
    char *a = lf401_sites(100, per_function), *b = lf401_sites(400, per_function);
    run_result ra = analyze_with(set, "t.py", LF_LANG_PYTHON, a, 0);
    run_result rb = analyze_with(set, "t.py", LF_LANG_PYTHON, b, 0);
    CHECK(ra.findings == 100 && rb.findings == 400, "%s: %zu and %zu findings", what, ra.findings, rb.findings);
    ratio_check(what, ra, rb, 4.0);
    free(a);
    free(b);
}

static void chain_pin(const lf_ruleset *set, const char *what, const char *name, lf_lang lang) {
    char *a = method_chain(25000, lang), *b = method_chain(100000, lang);
    run_result ra = analyze_as(set, name, lang, a), rb = analyze_as(set, name, lang, b);
    CHECK(ra.findings == 1 && rb.findings == 1 && ra.fixed == 1 && rb.fixed == 1, "%s: %zu/%zu findings, %zu/%zu fixed",
          what, ra.findings, rb.findings, ra.fixed, rb.fixed);
    ratio_check(what, ra, rb, 4.0);
    free(a);
    free(b);
}

/* One block of the genre's lock protocol: an exclusive create, a stale
 * judgement by age and its removal, a read-modify-write of the state through
 * a shared temp, a pid probe that reads every error as dead. Every Python
 * check has something to look at in it. */
static void py_protocol_block(lf_strbuf *sb, size_t i, const char *indent) {
    lf_strbuf_printf(sb,
                     "%slock%zu = path + \".lock%zu\"\n"
                     "%stry:\n"
                     "%s    fd%zu = os.open(lock%zu, os.O_CREAT | os.O_EXCL | os.O_WRONLY)\n"
                     "%sexcept FileExistsError:\n"
                     "%s    if time.time() - os.path.getmtime(lock%zu) > 30:\n"
                     "%s        os.unlink(lock%zu)\n"
                     "%sd%zu = json.load(open(path))\n"
                     "%sd%zu[\"n\"] = d%zu.get(\"n\", 0) + 1\n"
                     "%swith open(path + \".tmp\", \"w\") as f%zu:\n"
                     "%s    json.dump(d%zu, f%zu)\n"
                     "%sos.replace(path + \".tmp\", path)\n"
                     "%stry:\n"
                     "%s    os.kill(pid, 0)\n"
                     "%sexcept OSError:\n"
                     "%s    os.unlink(lock%zu)\n",
                     indent, i, i, indent, indent, i, i, indent, indent, i, indent, i, indent, i, indent, i, i, indent,
                     i, indent, i, i, indent, indent, indent, indent, indent, i);
}

/* The same in TypeScript: a `wx` create, an mtime judgement and removal, a
 * read-modify-write through a shared temp, a pid probe. */
static void ts_protocol_block(lf_strbuf *sb, size_t i) {
    lf_strbuf_printf(sb,
                     "  const lock%zu = path + \".lock%zu\";\n"
                     "  try {\n"
                     "    fs.writeFileSync(lock%zu, String(process.pid), { flag: \"wx\" });\n"
                     "  } catch {\n"
                     "    if (Date.now() - fs.statSync(lock%zu).mtimeMs > 30000) fs.rmSync(lock%zu, { force: true });\n"
                     "  }\n"
                     "  const d%zu = JSON.parse(fs.readFileSync(path, \"utf8\"));\n"
                     "  d%zu.n = (d%zu.n ?? 0) + 1;\n"
                     "  fs.writeFileSync(path + \".tmp\", JSON.stringify(d%zu));\n"
                     "  fs.renameSync(path + \".tmp\", path);\n"
                     "  try {\n"
                     "    process.kill(pid, 0);\n"
                     "  } catch {\n"
                     "    fs.unlinkSync(lock%zu);\n"
                     "  }\n",
                     i, i, i, i, i, i, i, i, i, i);
}

/* n protocol blocks in one function (one_function), or one per function. */
static char *protocol_module(size_t n, lf_lang lang, int one_function) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (lang == LF_LANG_PYTHON) {
        lf_strbuf_puts(&sb, "import json, os, time\n");
        if (one_function)
            lf_strbuf_puts(&sb, "\n\ndef update(path, pid):\n");
        for (size_t i = 0; i < n; i++) {
            if (!one_function)
                lf_strbuf_printf(&sb, "\n\ndef update_%zu(path, pid):\n", i);
            py_protocol_block(&sb, i, "    ");
        }
    } else {
        lf_strbuf_puts(&sb, "import * as fs from \"node:fs\";\n");
        if (one_function)
            lf_strbuf_puts(&sb, "\nexport function update(path: string, pid: number) {\n");
        for (size_t i = 0; i < n; i++) {
            if (!one_function)
                lf_strbuf_printf(&sb, "\nexport function update%zu(path: string, pid: number) {\n", i);
            ts_protocol_block(&sb, i);
            if (!one_function)
                lf_strbuf_puts(&sb, "}\n");
        }
        if (one_function)
            lf_strbuf_puts(&sb, "}\n");
    }
    return lf_strbuf_detach(&sb);
}

/* A lock created at the top of a chain of n helpers, each handing the path
 * down to the next, and removed by name at the bottom after a look at its
 * age: the removal and the judgement flow up the whole chain. */
static char *helper_chain(size_t n, lf_lang lang) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (lang == LF_LANG_PYTHON) {
        lf_strbuf_puts(&sb, "import os, time\n\n\ndef step_0(p):\n"
                            "    if time.time() - os.path.getmtime(p) > 30:\n        os.unlink(p)\n");
        for (size_t i = 1; i < n; i++)
            lf_strbuf_printf(&sb, "\n\ndef step_%zu(p):\n    step_%zu(p)\n", i, i - 1);
        lf_strbuf_printf(&sb, "\n\ndef acquire(d):\n    lock = d + \"/state.lock\"\n"
                              "    try:\n        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))\n"
                              "    except FileExistsError:\n        step_%zu(lock)\n",
                         n - 1);
    } else {
        lf_strbuf_puts(&sb, "import * as fs from \"node:fs\";\n\nfunction step0(p: string) {\n"
                            "  if (Date.now() - fs.statSync(p).mtimeMs > 30000) fs.rmSync(p, { force: true });\n}\n");
        for (size_t i = 1; i < n; i++)
            lf_strbuf_printf(&sb, "\nfunction step%zu(p: string) {\n  step%zu(p);\n}\n", i, i - 1);
        lf_strbuf_printf(&sb, "\nexport function acquire(d: string) {\n  const lock = d + \"/state.lock\";\n"
                              "  try {\n    fs.writeFileSync(lock, String(process.pid), { flag: \"wx\" });\n"
                              "  } catch {\n    step%zu(lock);\n  }\n}\n",
                         n - 1);
    }
    return lf_strbuf_detach(&sb);
}

/* n locks, each with a helper that returns the lock's age, called only in
 * the handler of a failed owner-record read: every age asks who calls its
 * helper (LF302's age_without_record), and once asked every call of the
 * module per age. Each lock also breaks by age inline (a finding per block). */
static char *age_helper_module(size_t n, lf_lang lang, int unused) {
    (void)lang;
    (void)unused;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import * as fs from \"node:fs\";\n");
    for (size_t i = 0; i < n; i++)
        lf_strbuf_printf(&sb,
                         "\nfunction lockAge%zu(p: string): number {\n"
                         "  return Date.now() - fs.statSync(p).mtimeMs;\n}\n"
                         "\nexport function acquire%zu(p: string) {\n"
                         "  try {\n    fs.writeFileSync(p, String(process.pid), { flag: \"wx\" });\n"
                         "  } catch {\n"
                         "    try {\n      process.kill(Number(fs.readFileSync(p, \"utf8\")), 0);\n"
                         "    } catch {\n      if (lockAge%zu(p) > 30000) fs.rmSync(p, { force: true });\n    }\n"
                         "  }\n}\n"
                         "\nexport function breakOld%zu(p: string) {\n"
                         "  if (Date.now() - fs.statSync(p).mtimeMs > 30000) fs.rmSync(p, { force: true });\n}\n",
                         i, i, i, i);
    return lf_strbuf_detach(&sb);
}

/* Findings grow with the input in proportion (or stay put, same_findings), and
 * so does the work, checks and fixes together. */
static void growth_pin(const lf_ruleset *set, const char *what, lf_lang lang, char *(*make)(size_t, lf_lang, int),
                       int arg, size_t small, size_t big, int same_findings, int fixes) {
    const char *name = lang == LF_LANG_PYTHON ? "t.py" : "t.ts";
    char *a = make(small, lang, arg), *b = make(big, lang, arg);
    run_result ra = analyze_with(set, name, lang, a, fixes), rb = analyze_with(set, name, lang, b, fixes);
    /* the same number per added block (or none added) */
    CHECK(ra.findings > 0 && (same_findings ? rb.findings == ra.findings
                                            : rb.findings > ra.findings && (rb.findings - ra.findings) % (big - small) == 0),
          "%s: %zu findings small, %zu large", what, ra.findings, rb.findings);
    ratio_check(what, ra, rb, (double)big / (double)small);
    free(a);
    free(b);
}

static char *chain_of(size_t n, lf_lang lang, int unused) {
    (void)unused;
    return helper_chain(n, lang);
}

/* LF104's gate, before any parse: many defs of one name (a class's __init__
 * each) and as many uses of it, and an import line that names load many
 * times. Each use and each def is asked once per round of its fixpoint. */
static char *lf104_gate_module(size_t n) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import json\nfrom json import (");
    for (size_t i = 0; i < n; i++)
        lf_strbuf_puts(&sb, "load, ");
    lf_strbuf_puts(&sb, "dump)\n\n");
    for (size_t i = 0; i < n; i++)
        lf_strbuf_printf(&sb,
                         "class C%zu:\n    def __init__(self):\n        super().__init__()\n"
                         "        self.v = json.load(open('x'))\n\n\n"
                         "def f%zu():\n    C%zu()\n    return __init__\n\n\n",
                         i, i, i);
    return lf_strbuf_detach(&sb);
}

static void lf104_gate_pin(void) {
    const lf_check *c = lf_check_find("lf104_unlocked_rmw");
    char *a = lf104_gate_module(500), *b = lf104_gate_module(2000);
    run_result ra = {0}, rb = {0};
    unsigned long long before = lf_work_steps;
    int ha = lf_check_gate(c, "m.py", a, strlen(a), LF_LANG_PYTHON);
    ra.steps = lf_work_steps - before;
    before = lf_work_steps;
    int hb = lf_check_gate(c, "m.py", b, strlen(b), LF_LANG_PYTHON);
    rb.steps = lf_work_steps - before;
    /* no one function reads and writes: f calls a reader (C's __init__) and nothing writes */
    CHECK(!ha && !hb, "LF104 gate: %d and %d (want both skipped)", ha, hb);
    ratio_check("LF104 gate, 500 vs 2000 defs of one name and their uses", ra, rb, 4.0);
    free(a);
    free(b);
}

static void ratio_check(const char *what, run_result small, run_result big, double scale) {
    double ratio = (double)big.steps / (double)(small.steps ? small.steps : 1);
    printf("%s: %llu steps small, %llu steps large (x%.0f input): ratio %.2f\n", what, small.steps, big.steps, scale,
           ratio);
    CHECK(ratio > scale * 0.8 && ratio < scale * 1.25, "%s: ratio %.2f is not linear (expected about %.0f)", what,
          ratio, scale);
}

int main(void) {
    lf_ruleset set = {0};
    char *err = NULL;
    if (!lf_ruleset_load_builtin(&set, &err)) {
        printf("FAIL builtin rules: %s\n", err);
        return 1;
    }
    char *a = lf101_sites(100), *b = lf101_sites(400);
    run_result ra = analyze(&set, a), rb = analyze(&set, b);
    /* One LF101 finding per site, each fixed. */
    CHECK(ra.findings == 100 && rb.findings == 400, "LF101 sites: %zu and %zu findings", ra.findings, rb.findings);
    CHECK(ra.fixed == 100 && rb.fixed == 400, "LF101 sites: %zu and %zu fixed", ra.fixed, rb.fixed);
    ratio_check("LF101 check+fix, 100 vs 400 sites", ra, rb, 4.0);
    free(a);
    free(b);

    char *c = plus_chain(25000), *d = plus_chain(100000);
    run_result rc = analyze(&set, c), rd = analyze(&set, d);
    CHECK(rc.findings == 1 && rd.findings == 1 && rc.fixed == 1 && rd.fixed == 1,
          "plus chain: %zu/%zu findings, %zu/%zu fixed", rc.findings, rd.findings, rc.fixed, rd.fixed);
    ratio_check("'+' chain next to an LF401 site, 25k vs 100k terms", rc, rd, 4.0);
    free(c);
    free(d);
    lf401_pin(&set, "LF401 check, 100 vs 400 renames in as many functions", 1);
    lf104_gate_pin();
    chain_pin(&set, "method chain in Python, 25k vs 100k calls", "t.py", LF_LANG_PYTHON);
    chain_pin(&set, "method chain in TypeScript, 25k vs 100k calls", "t.ts", LF_LANG_TYPESCRIPT);
    /* The checks and fixes over many functions, in one long function, and
     * up a chain of helpers (lock facts flow through each call once). Not
     * pinned yet, and quadratic today: many protocol blocks in one TypeScript
     * function (each LF401 and LF301 site walks the function again, and a
     * takeover's check builds the function's flow graph per site). */
    growth_pin(&set, "Python check+fix, 50 vs 200 protocol blocks in as many functions", LF_LANG_PYTHON,
               protocol_module, 0, 50, 200, 0, 1);
    growth_pin(&set, "TypeScript check, 50 vs 200 protocol blocks in as many functions", LF_LANG_TYPESCRIPT,
               protocol_module, 0, 50, 200, 0, 0);
    growth_pin(&set, "Python check+fix, 50 vs 200 protocol blocks in one function", LF_LANG_PYTHON, protocol_module, 1,
               50, 200, 0, 1);
    growth_pin(&set, "TypeScript check+fix, 50 vs 200 protocol blocks in as many functions", LF_LANG_TYPESCRIPT,
               protocol_module, 0, 50, 200, 0, 1);
    growth_pin(&set, "Python check+fix, a chain of 100 vs 400 helpers", LF_LANG_PYTHON, chain_of, 0, 100, 400, 1, 1);
    growth_pin(&set, "TypeScript check+fix, a chain of 100 vs 400 helpers", LF_LANG_TYPESCRIPT, chain_of, 0, 100,
               400, 1, 1);
    growth_pin(&set, "TypeScript check, 50 vs 200 age helpers called in a failed record read's handler",
               LF_LANG_TYPESCRIPT, age_helper_module, 0, 50, 200, 0, 0);
    lf_ruleset_free(&set);
    printf("%s\n", g_failed ? "FAILED" : "ok");
    return g_failed;
}
