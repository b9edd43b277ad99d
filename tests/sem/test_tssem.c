/* The TS/JS semantic model: callees through ES imports, CommonJS require and
 * destructuring, the promise API under one name, injected fs objects,
 * util.promisify, local aliases and shadowing; path keys; hostile nesting
 * (the model never recurses). */
#include <stdlib.h>
#include <string.h>

#include "../engine/lf_test_check.h"
#include "sem_fixture.h"
#include "lf_lang.h"
#include "lf_source.h"
#include "lf_tree.h"
#include "lf_tssem.h"
#include "lf_util.h"

typedef struct parsed {
    sem_fixture t;
    lf_tssem *m;
} parsed;

static void parse_as(parsed *p, const char *text, const char *name, lf_lang lang) {
    sem_fixture_parse(&p->t, text, name, lang);
    p->m = lf_tssem_build(&p->t.src, ts_tree_root_node(p->t.tree));
}

static void done(parsed *p) {
    lf_tssem_free(p->m);
    sem_fixture_free(&p->t);
}

static TSNode find(parsed *p, const char *type, const char *text, int nth) {
    return sem_fixture_find(&p->t, type, text, nth);
}

static void check_callee(int line, const char *code, const char *call, const char *want, lf_lang lang) {
    parsed p;
    parse_as(&p, code, lang == LF_LANG_TSX ? "t.tsx" : "t.ts", lang);
    TSNode n = find(&p, "call_expression", call, 0);
    const char *got = ts_node_is_null(n) ? "<no such call>" : lf_tssem_callee(p.m, n);
    g_run++;
    if (!streq(got, want)) {
        g_fail++;
        fprintf(stderr, "%s:%d: FAIL: callee of `%s`: want %s, got %s\n", __FILE__, line, call, want ? want : "NULL",
                got ? got : "NULL");
    }
    done(&p);
}
#define CALLEE(code, call, want) check_callee(__LINE__, code, call, want, LF_LANG_TYPESCRIPT)
#define CALLEE_TSX(code, call, want) check_callee(__LINE__, code, call, want, LF_LANG_TSX)

static void test_es_imports(void) {
    CALLEE("import * as fs from 'node:fs';\nfs.rmSync(p);\n", "fs.rmSync(p)", "fs.rmSync");
    CALLEE("import fs from 'fs';\nfs.unlinkSync(p);\n", "fs.unlinkSync(p)", "fs.unlinkSync");
    CALLEE("import { rmSync as zap } from 'node:fs';\nzap(p);\n", "zap(p)", "fs.rmSync");
    CALLEE("import { rm } from 'fs/promises';\nawait rm(p);\n", "rm(p)", "fs/promises.rm");
    CALLEE("import * as fsp from 'node:fs/promises';\nawait fsp.rm(p);\n", "fsp.rm(p)", "fs/promises.rm");
    CALLEE("import { promises as fsp } from 'fs';\nawait fsp.unlink(p);\n", "fsp.unlink(p)", "fs/promises.unlink");
    CALLEE("import fs from 'fs';\nawait fs.promises.rm(p);\n", "fs.promises.rm(p)", "fs/promises.rm");
    CALLEE("import { default as fs } from 'fs';\nfs.rmdirSync(p);\n", "fs.rmdirSync(p)", "fs.rmdirSync");
    CALLEE("import fs = require('fs');\nfs.rmSync(p);\n", "fs.rmSync(p)", "fs.rmSync");
    CALLEE("import fse from 'fs-extra';\nfse.removeSync(p);\n", "fse.removeSync(p)", "fs.removeSync");
    CALLEE("import { rimraf } from 'rimraf';\nawait rimraf(p);\n", "rimraf(p)", "rimraf.rimraf");
    CALLEE_TSX("import * as fs from 'fs';\nconst C = () => { fs.rmSync(p); return <div/>; };\n", "fs.rmSync(p)",
               "fs.rmSync");
    /* hoisting: the import below the use still binds it */
    CALLEE("function f() { fs.rmSync(p); }\nimport * as fs from 'fs';\n", "fs.rmSync(p)", "fs.rmSync");
}

static void test_commonjs(void) {
    CALLEE("const fs = require('fs');\nfs.rmSync(p);\n", "fs.rmSync(p)", "fs.rmSync");
    CALLEE("const { unlinkSync } = require('node:fs');\nunlinkSync(p);\n", "unlinkSync(p)", "fs.unlinkSync");
    CALLEE("const { rmSync: rm2 } = require('fs');\nrm2(p);\n", "rm2(p)", "fs.rmSync");
    CALLEE("const { promises: { rm } } = require('fs');\nrm(p);\n", "rm(p)", "fs/promises.rm");
    CALLEE("const fsp = require('fs').promises;\nfsp.rm(p);\n", "fsp.rm(p)", "fs/promises.rm");
    CALLEE("const { promises: fsp } = require('fs');\nfsp.rmdir(p);\n", "fsp.rmdir(p)", "fs/promises.rmdir");
    CALLEE("var fs = require('graceful-fs');\nfs.unlink(p, cb);\n", "fs.unlink(p, cb)", "fs.unlink");
    CALLEE("const rimraf = require('rimraf');\nrimraf.sync(p);\n", "rimraf.sync(p)", "rimraf.sync");
    CALLEE("const fs = require('fs');\nconst { rm } = fs.promises;\nrm(p);\n", "rm(p)", "fs/promises.rm");
    CALLEE("async function f() { const fs = await import('node:fs'); fs.rmSync(p); }\n", "fs.rmSync(p)",
           "fs.rmSync");
}

static void test_injected_and_promisify(void) {
    CALLEE("function f(options) { options.fs.rmdir(p, cb); }\n", "options.fs.rmdir(p, cb)", "fs.rmdir");
    CALLEE("function f(fs) { fs.unlinkSync(p); }\n", "fs.unlinkSync(p)", "fs.unlinkSync");
    CALLEE("class L { constructor(o) { this.fs = o.fs; } r() { this.fs.unlink(p); } }\n", "this.fs.unlink(p)",
           "fs.unlink");
    CALLEE("const fs = require('fs');\nclass L { constructor(o) { this.fs = o.fs || fs; } r() { this.fs.rmSync(p); } }\n",
           "this.fs.rmSync(p)", "fs.rmSync");
    CALLEE("const fs = require('fs');\nconst util = require('util');\nconst unlinkP = util.promisify(fs.unlink);\n"
           "unlinkP(p);\n",
           "unlinkP(p)", "fs.unlink");
    CALLEE("import { promisify } from 'node:util';\nimport * as fs from 'fs';\nconst rmdirP = promisify(fs.rmdir);\n"
           "await rmdirP(p);\n",
           "rmdirP(p)", "fs.rmdir");
    CALLEE("const fs = require('fs');\nconst zap = fs.unlinkSync;\nzap(p);\n", "zap(p)", "fs.unlinkSync");
}

static void test_globals_and_shadowing(void) {
    CALLEE("process.kill(pid, 0);\n", "process.kill(pid, 0)", "process.kill");
    CALLEE("const x = Date.now();\n", "Date.now()", "Date.now");
    CALLEE("JSON.parse(s);\n", "JSON.parse(s)", "JSON.parse");
    CALLEE("import * as fs from 'fs';\nfunction f(fs) { fs.rmSync(p); }\n", "fs.rmSync(p)", "fs.rmSync");
    CALLEE("import * as fs from 'fs';\nfunction f() { const fs = makeFs(); fs.rmSync(p); }\n", "fs.rmSync(p)", NULL);
    CALLEE("const rm = (p) => 0;\nrm(p);\n", "rm(p)", NULL);
    CALLEE("a = b;\nb = a;\na(1);\n", "a(1)", NULL); /* an alias cycle ends, unresolved */
    CALLEE("const x = require(name);\nx.rmSync(p);\n", "x.rmSync(p)", NULL);
}

static void test_keys_and_locals(void) {
    parsed p;
    parse_as(&p,
             "const fs = require('fs');\nconst path = require('path');\n"
             "class Lock {\n  constructor(dir) { this.lockPath = path.join(dir, 'x.lock'); }\n"
             "  acquire() { fs.mkdirSync(this.lockPath); }\n  release() { removeIt(this.lockPath); }\n}\n"
             "function removeIt(target) { const t = target; fs.rmSync(t, { recursive: true }); }\n"
             "const q = path.join(d, 'package-lock.json');\n",
             "t.js", LF_LANG_TYPESCRIPT);
    TSNode a = find(&p, "member_expression", "this.lockPath", 1);
    TSNode b = find(&p, "member_expression", "this.lockPath", 2);
    CHECK(streq(lf_tssem_path_key(p.m, a), lf_tssem_path_key(p.m, b)), "one field, one key");
    TSNode rm = find(&p, "call_expression", "fs.rmSync(t, { recursive: true })", 0);
    const char *k = lf_tssem_path_key(p.m, lf_tssem_arg(rm, 0));
    CHECK(k && strncmp(k, "param:", 6) == 0, "a local follows to the parameter: %s", k ? k : "NULL");
    const lf_tsbinding *pb = lf_tssem_key_param(p.m, k);
    CHECK(pb && lf_tree_text_eq(&p.t.src, pb->target, "target"), "key names the parameter");
    TSNode call = find(&p, "call_expression", "removeIt(this.lockPath)", 0);
    int32_t s = lf_tssem_local_callee(p.m, call);
    CHECK(s > 0 && strcmp(p.m->scopes[s].name, "removeIt") == 0, "local callee");
    TSNode q = find(&p, "identifier", "q", 0);
    CHECK(lf_tssem_is_package_lockfile(lf_tssem_path_key(p.m, q)), "package-lock.json by its key");
    CHECK(!lf_tssem_is_package_lockfile(lf_tssem_path_key(p.m, a)), "x.lock is not a package lock file");
    CHECK(!p.m->esm, "CommonJS module");
    done(&p);
    parse_as(&p, "import fs from 'fs';\nexport const f = () => fs.rmSync(p);\n", "t.mjs", LF_LANG_TYPESCRIPT);
    CHECK(p.m->esm, "ES module");
    done(&p);
}

static void test_deep(void) {
    /* 20000 nested arrows and a 20000-long member chain: linear, no recursion */
    enum { N = 20000 };
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, "import * as fs from 'fs';\nconst f = ");
    for (int i = 0; i < N; i++)
        lf_strbuf_puts(&sb, "() => ");
    lf_strbuf_puts(&sb, "fs.rmSync(p);\nconst g = a");
    for (int i = 0; i < N; i++)
        lf_strbuf_puts(&sb, ".b");
    lf_strbuf_puts(&sb, ".c(1);\n");
    char *code = lf_strbuf_detach(&sb);
    parsed p;
    parse_as(&p, code, "t.ts", LF_LANG_TYPESCRIPT);
    CHECK(p.m->n_scopes == N + 1, "scopes: %zu", p.m->n_scopes);
    TSNode n = find(&p, "call_expression", "fs.rmSync(p)", 0);
    CHECK(streq(lf_tssem_callee(p.m, n), "fs.rmSync"), "deep callee");
    done(&p);
    free(code);
}

int main(void) {
    test_es_imports();
    test_commonjs();
    test_injected_and_promisify();
    test_globals_and_shadowing();
    test_keys_and_locals();
    test_deep();
    return lf_test_check_summary();
}
