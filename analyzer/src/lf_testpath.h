/* lf_testpath: is a source file test code, by the conventions test runners
 * use to find it (pytest, unittest, jest/vitest/mocha, node --test), or by
 * what the module itself is (it imports a test framework and registers tests)?
 * The engine runs no built-in check on test code: its fixtures, mocks and
 * assertions look like the bug class without being state that processes of
 * the product share. */
#ifndef LF_TESTPATH_H
#define LF_TESTPATH_H

#include <tree_sitter/api.h>

#include "lf_source.h"

/* A path (as reported, '/'-separated) with a directory component
 * `__tests__` or `__mocks__` (jest's) or an npm scope named for testing
 * (`@aws-cdk-testing/`), or a file name `test_*.py`,
 * `*_test.py`, `conftest.py`, `*.test.<ext>` or `*.spec.<ext>`. Plain
 * `test/` and `tests/` directories do not count on their own: they also hold
 * fixtures that are copies of real programs (lf_is_test_module decides
 * there by content). */
int lf_is_test_path(const char *path);

/* Test code by content, for a file its name does not give away
 * (`*.integtest.ts`, `test/ci.ts`, `version.mocha.js`). Only the module's
 * top-level statements are read (a cursor over the root's children: linear in
 * their number).
 *  - Python: a module that defines tests at top level (`def test*`, a `Test*`
 *    class or a `*TestCase` subclass, a `@pytest.fixture`) and either imports
 *    a test framework (pytest, unittest, nose, nose2, hypothesis) or sits under
 *    a `test`/`tests` directory. A product module that only imports
 *    `unittest.mock`, or a pytest plugin's hooks, defines no tests.
 *  - TS/JS: a module that registers tests at top level (`describe(...)`,
 *    `it(...)`, `test(...)`, `suite(...)`, their `.each`/`.only`/`.skip`
 *    forms, and a `fooTest('name', ...)` wrapper such as aws-cdk's
 *    `integTest`: a string name first) and either imports a test framework
 *    (mocha, jest, @jest/globals, vitest, node:test, ava, tap, uvu, chai,
 *    assert, should, @playwright/test) or sits under a `test`/`tests`/`spec`
 *    directory, whose runners provide those names as globals. A fixture that
 *    copies a real program under `test/` registers no tests. */
int lf_is_test_module(const lf_source *src, TSNode root);

#endif
