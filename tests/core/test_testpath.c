/* lf_is_test_path: test code by the names test runners collect; lf_is_test_module:
 * by what a module is (it imports a test framework, or sits under test/, and
 * registers tests at top level). */
#include "lf_test.h"
#include "lf_testpath.h"

#include <tree_sitter/api.h>

#include "lf_lang.h"
#include "lf_source.h"
#include "lf_tree.h"

/* Parse text as path in lang and ask lf_is_test_module. */
static int module_is_test(const char *path, lf_lang lang, const char *text) {
    lf_source src;
    lf_source_from_text(&src, path, lang, text, strlen(text));
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lf_lang_grammar(lang));
    TSTree *t = ts_parser_parse_string(p, NULL, src.text, (uint32_t)src.len);
    int r = lf_is_test_module(&src, ts_tree_root_node(t));
    lf_tree_delete(t);
    ts_parser_delete(p);
    lf_source_free(&src);
    return r;
}

static void python_modules(void) {
    const lf_lang py = LF_LANG_PYTHON;
    /* a framework import and a test, anywhere */
    CHECK(module_is_test("pkg/checks.py", py, "import pytest\n\ndef test_state():\n    pass\n"));
    CHECK(module_is_test("pkg/checks.py", py, "import unittest\nclass StateCase(unittest.TestCase):\n    pass\n"));
    CHECK(module_is_test("pkg/checks.py", py, "from hypothesis import given\nclass TestState:\n    pass\n"));
    CHECK(module_is_test("pkg/fixtures.py", py, "import pytest\n@pytest.fixture\ndef store(tmp_path):\n    pass\n"));
    CHECK(module_is_test("pkg/checks.py", py, "from unittest import mock\n@mock.patch('x')\ndef test_x(m):\n    pass\n"));
    /* a test under tests/ needs no import (pytest's own asserts) */
    CHECK(module_is_test("tests/state_checks.py", py, "def test_state():\n    assert 1\n"));
    /* product code: mock imported for a fallback, a pytest plugin's hooks,
     * a test-named function outside tests/ without a framework */
    CHECK(!module_is_test("pkg/state.py", py, "from unittest import mock\ndef load():\n    pass\n"));
    CHECK(!module_is_test("pkg/plugin.py", py, "import pytest\ndef pytest_configure(config):\n    pass\n"));
    CHECK(!module_is_test("pkg/diag.py", py, "def test_connection():\n    pass\n"));
    /* a test nested in a function is not collected */
    CHECK(!module_is_test("pkg/state.py", py, "import pytest\ndef run():\n    def test_x():\n        pass\n"));
    /* a fixture program under tests/ defines no test */
    CHECK(!module_is_test("tests/fixtures/daemon.py", py, "import os\ndef main():\n    pass\n"));
}

static void ts_modules(void) {
    const lf_lang ts = LF_LANG_TYPESCRIPT;
    CHECK(module_is_test("pkg/ci.ts", ts, "import { expect, test } from '@jest/globals'\ntest('ci', () => {})\n"));
    CHECK(module_is_test("lib/v.mocha.js", ts, "const { expect } = require('chai')\ndescribe('v', function () {})\n"));
    CHECK(module_is_test("lib/v.js", ts, "const assert = require('node:assert')\nawait test('v', async () => {})\n"));
    CHECK(module_is_test("lib/v.ts", ts, "import { describe } from 'vitest'\ndescribe.each([1])('n %s', (n) => {})\n"));
    CHECK(module_is_test("lib/v.js", ts, "const t = require('tap')\nt.test('v', (t) => {})\n"));
    /* under test/: the runner's globals, and a `fooTest` registration wrapper */
    CHECK(module_is_test("test/programmatic/version.js", ts, "const fs = require('fs')\ndescribe('v', () => {})\n"));
    CHECK(module_is_test("cli-integ/tests/init/init.integtest.ts", ts,
                         "import { integTest } from '../../lib'\nintegTest('init', withTemp(async (c) => {}))\n"));
    /* product code: assert used without tests, a framework imported by a
     * runner script that registers none, `it`-named helpers outside test/ */
    CHECK(!module_is_test("src/store.ts", ts, "import assert from 'node:assert'\nassert(process.env.HOME, 'home')\n"));
    CHECK(!module_is_test("scripts/run.js", ts, "const Mocha = require('mocha')\nnew Mocha().run()\n"));
    CHECK(!module_is_test("src/cli.ts", ts, "test('x', () => {})\n"));
    /* a fixture program under test/ registers no test; a test nested in a
     * function is not top-level; a one-argument call is no registration */
    CHECK(!module_is_test("test/fixtures/app/state.js", ts, "const fs = require('fs')\nmain('x')\n"));
    CHECK(!module_is_test("test/app.js", ts, "function f() { describe('v', () => {}) }\n"));
    CHECK(!module_is_test("test/app.js", ts, "const re = /a/\nre.test('abc')\n"));
}

int main(void) {
    /* pytest and unittest */
    CHECK(lf_is_test_path("pkg/tests/test_state.py"));
    CHECK(lf_is_test_path("test_state.py"));
    CHECK(lf_is_test_path("pkg/state_test.py"));
    CHECK(lf_is_test_path("tests/conftest.py"));
    CHECK(!lf_is_test_path("pkg/state.py"));
    CHECK(!lf_is_test_path("pkg/testing.py"));
    CHECK(!lf_is_test_path("pkg/contest.py"));
    CHECK(!lf_is_test_path("pkg/latest_test.pyc"));
    /* jest, vitest, mocha, node --test */
    CHECK(lf_is_test_path("src/core/hook.test.ts"));
    CHECK(lf_is_test_path("src/store.spec.mjs"));
    CHECK(lf_is_test_path("src/__tests__/store.ts"));
    CHECK(lf_is_test_path("src/__mocks__/fs.js"));
    CHECK(!lf_is_test_path("src/store.ts"));
    CHECK(!lf_is_test_path("src/test.ts"));
    CHECK(!lf_is_test_path("src/latest.ts"));
    CHECK(!lf_is_test_path(".test"));
    /* Plain test/ and tests/ directories hold fixtures of real programs. */
    CHECK(!lf_is_test_path("tests/rules/cases/LF104/json_files_bad.py"));
    CHECK(!lf_is_test_path("test/fixtures/app/state.js"));
    /* an npm scope of test packages, not a skill named *-testing */
    CHECK(lf_is_test_path("packages/@aws-cdk-testing/cli-integ/lib/with-cdk-app.ts"));
    CHECK(!lf_is_test_path("skills/webapp-testing/scripts/server.py"));
    CHECK(!lf_is_test_path("packages/@scope/cli-testing.ts"));
    CHECK(!lf_is_test_path("packages/@-testing/x.ts"));
    CHECK(!lf_is_test_path(NULL));
    CHECK(!lf_is_test_path(""));
    python_modules();
    ts_modules();
    TEST_MAIN_END();
}
