/* lf_testpath: is a source file test code, by the conventions test runners
 * use to find it (pytest, unittest, jest/vitest/mocha, node --test)? */
#ifndef LF_TESTPATH_H
#define LF_TESTPATH_H

/* A path (as reported, '/'-separated) with a directory component
 * `__tests__` or `__mocks__` (jest's), or a file name `test_*.py`,
 * `*_test.py`, `conftest.py`, `*.test.<ext>` or `*.spec.<ext>`. Plain
 * `test/` and `tests/` directories do not count: they also hold fixtures that
 * are copies of real programs. */
int lf_is_test_path(const char *path);

#endif
