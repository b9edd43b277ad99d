/* lf_testpath: test code by path, the way test runners collect it, and by content. */
#include "lf_testpath.h"

#include "lf_lang.h"
#include "lf_tree.h"

#include <string.h>

static int dir_is_test(const char *s, size_t n) {
    /* Only the directories no product code is named after: a `tests/` tree may
     * hold fixtures of real programs (this repository's own do). */
    static const char *const dirs[] = {"__tests__", "__mocks__", NULL};
    for (size_t i = 0; dirs[i]; i++)
        if (strlen(dirs[i]) == n && !memcmp(s, dirs[i], n))
            return 1;
    /* An npm scope named for testing (`@aws-cdk-testing/`): a publisher's
     * namespace for its test infrastructure (integration-test harnesses,
     * fixture apps), whose packages run only inside test processes. Plain
     * `*-testing` directories do not count: in agent plugins they name
     * product skills (`webapp-testing/`, `outside-in-testing/`). */
    return n > 9 && s[0] == '@' && !memcmp(s + n - 8, "-testing", 8);
}

static int name_is_test(const char *name) {
    size_t n = strlen(name);
    const char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".py"))
        return !strncmp(name, "test_", 5) || !strcmp(name, "conftest.py") ||
               (n > 8 && !strcmp(name + n - 8, "_test.py"));
    /* foo.test.ts, foo.spec.mjs: the second-to-last component */
    if (!dot || dot == name)
        return 0;
    const char *p = dot;
    while (p > name && p[-1] != '.')
        p--;
    if (p == name)
        return 0;
    size_t len = (size_t)(dot - p);
    return (len == 4 && !memcmp(p, "test", 4)) || (len == 4 && !memcmp(p, "spec", 4));
}

int lf_is_test_path(const char *path) {
    if (!path)
        return 0;
    const char *start = path;
    for (const char *s = path;; s++) {
        if (*s == '/' || *s == '\0') {
            if (*s == '\0')
                return name_is_test(start);
            if (dir_is_test(start, (size_t)(s - start)))
                return 1;
            start = s + 1;
        }
    }
}

/* ---- test code by content ---- */

/* Is some directory component of path one of `dirs`? */
static int path_has_dir(const char *path, const char *const *dirs) {
    if (!path)
        return 0;
    const char *start = path;
    for (const char *s = path; *s; s++) {
        if (*s != '/')
            continue;
        size_t n = (size_t)(s - start);
        for (size_t i = 0; dirs[i]; i++)
            if (strlen(dirs[i]) == n && !memcmp(start, dirs[i], n))
                return 1;
        start = s + 1;
    }
    return 0;
}

/* The node's text into buf (truncated, NUL-terminated); "" for a null node. */
static const char *node_text(const lf_source *src, TSNode n, char *buf, size_t cap) {
    buf[0] = '\0';
    if (ts_node_is_null(n))
        return buf;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b > src->len || a > b)
        return buf;
    size_t len = b - a < cap - 1 ? b - a : cap - 1;
    memcpy(buf, src->text + a, len);
    buf[len] = '\0';
    return buf;
}

static int in_list(const char *s, const char *const *names) {
    for (size_t i = 0; names[i]; i++)
        if (!strcmp(s, names[i]))
            return 1;
    return 0;
}

/* Python: does a dotted module name start with one of the test frameworks? */
static int py_framework(const lf_source *src, TSNode dotted) {
    static const char *const fw[] = {"pytest", "unittest", "nose", "nose2", "hypothesis", NULL};
    char buf[64];
    if (lf_tree_is(dotted, "aliased_import"))
        dotted = lf_tree_field(dotted, "name");
    if (!lf_tree_is(dotted, "dotted_name"))
        return 0;
    return in_list(node_text(src, ts_node_named_child(dotted, 0), buf, sizeof buf), fw);
}

static int py_imports_framework(const lf_source *src, TSNode stmt) {
    if (lf_tree_is(stmt, "import_from_statement"))
        return py_framework(src, lf_tree_field(stmt, "module_name"));
    if (!lf_tree_is(stmt, "import_statement"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++)
        if (py_framework(src, ts_node_named_child(stmt, i)))
            return 1;
    return 0;
}

/* A test pytest or unittest collects (`def test*`, `class Test*`, a
 * `*TestCase` subclass) or a pytest fixture, defined at top level. */
static int py_defines_test(const lf_source *src, TSNode stmt) {
    char buf[256];
    if (lf_tree_is(stmt, "decorated_definition")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
            TSNode d = ts_node_named_child(stmt, i);
            if (lf_tree_is(d, "decorator") && strstr(node_text(src, d, buf, sizeof buf), "fixture"))
                return 1;
        }
        stmt = lf_tree_field(stmt, "definition");
    }
    const char *name = node_text(src, lf_tree_field(stmt, "name"), buf, sizeof buf);
    if (lf_tree_is(stmt, "function_definition"))
        return !strncmp(name, "test", 4);
    if (!lf_tree_is(stmt, "class_definition"))
        return 0;
    if (!strncmp(name, "Test", 4))
        return 1;
    TSNode bases = lf_tree_field(stmt, "superclasses");
    for (uint32_t i = 0; !ts_node_is_null(bases) && i < ts_node_named_child_count(bases); i++) {
        const char *b = node_text(src, ts_node_named_child(bases, i), buf, sizeof buf);
        size_t n = strlen(b);
        if (n >= 8 && !strcmp(b + n - 8, "TestCase"))
            return 1;
    }
    return 0;
}

/* TS/JS: a module specifier naming a test framework ("mocha", "node:test",
 * "vitest/config" does not: only the framework and its assertion entries). */
static int ts_framework(const lf_source *src, TSNode str) {
    static const char *const fw[] = {
        "mocha", "jest", "@jest/globals", "vitest", "node:test", "ava", "tap", "uvu", "uvu/assert", "chai",
        "assert", "assert/strict", "node:assert", "node:assert/strict", "should", "@playwright/test", NULL};
    char buf[64];
    if (!lf_tree_is(str, "string"))
        return 0;
    const char *t = node_text(src, str, buf, sizeof buf);
    size_t n = strlen(t);
    if (n < 2)
        return 0;
    buf[n - 1] = '\0';
    return in_list(t + 1, fw);
}

/* `require("x")` under a declaration's value (`require("chai").expect` too). */
static int ts_requires_framework(const lf_source *src, TSNode value) {
    char buf[16];
    for (int hops = 0; hops < 8 && !ts_node_is_null(value); hops++) {
        if (lf_tree_is(value, "member_expression")) {
            value = lf_tree_field(value, "object");
            continue;
        }
        if (!lf_tree_is(value, "call_expression"))
            return 0;
        TSNode fn = lf_tree_field(value, "function");
        if (lf_tree_is(fn, "identifier") && !strcmp(node_text(src, fn, buf, sizeof buf), "require")) {
            TSNode args = lf_tree_field(value, "arguments");
            return ts_node_named_child_count(args) == 1 && ts_framework(src, ts_node_named_child(args, 0));
        }
        value = fn;
    }
    return 0;
}

static int ts_imports_framework(const lf_source *src, TSNode stmt) {
    if (lf_tree_is(stmt, "import_statement"))
        return ts_framework(src, lf_tree_field(stmt, "source"));
    if (!lf_tree_is(stmt, "lexical_declaration") && !lf_tree_is(stmt, "variable_declaration"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
        TSNode d = ts_node_named_child(stmt, i);
        if (lf_tree_is(d, "variable_declarator") && ts_requires_framework(src, lf_tree_field(d, "value")))
            return 1;
    }
    return 0;
}

/* A callee that registers a test: describe/it/test/suite & co, reached
 * through `.each(...)`, `.only`, `.skip`, `.concurrent` (`test.each(t)(...)`,
 * `describe.skip(...)`), a framework object's method (tap's `t.test`), or a
 * `fooTest` wrapper (aws-cdk's `integTest`). */
static int ts_registers(const lf_source *src, TSNode callee) {
    static const char *const names[] = {"describe", "it", "test", "suite", "context", "specify", "fdescribe",
                                        "fit", "xdescribe", "xit", "xtest", NULL};
    char buf[64];
    for (int hops = 0; hops < 8 && !ts_node_is_null(callee); hops++) {
        if (lf_tree_is(callee, "call_expression")) {
            callee = lf_tree_field(callee, "function");
            continue;
        }
        if (lf_tree_is(callee, "member_expression")) {
            const char *prop = node_text(src, lf_tree_field(callee, "property"), buf, sizeof buf);
            if (!strcmp(prop, "test") || !strcmp(prop, "describe"))
                return 1;
            callee = lf_tree_field(callee, "object");
            continue;
        }
        if (!lf_tree_is(callee, "identifier"))
            return 0;
        const char *id = node_text(src, callee, buf, sizeof buf);
        size_t n = strlen(id);
        return in_list(id, names) || (n > 4 && !strcmp(id + n - 4, "Test") && id[0] >= 'a' && id[0] <= 'z');
    }
    return 0;
}

/* A top-level statement `describe("name", ...)` (possibly awaited). */
static int ts_registers_test(const lf_source *src, TSNode stmt) {
    if (!lf_tree_is(stmt, "expression_statement"))
        return 0;
    TSNode call = ts_node_named_child(stmt, 0);
    if (lf_tree_is(call, "await_expression"))
        call = ts_node_named_child(call, 0);
    if (!lf_tree_is(call, "call_expression"))
        return 0;
    TSNode args = lf_tree_field(call, "arguments");
    if (!lf_tree_is(args, "arguments") || ts_node_named_child_count(args) < 2)
        return 0;
    TSNode name = ts_node_named_child(args, 0);
    if (!lf_tree_is(name, "string") && !lf_tree_is(name, "template_string"))
        return 0;
    return ts_registers(src, lf_tree_field(call, "function"));
}

int lf_is_test_module(const lf_source *src, TSNode root) {
    static const char *const py_dirs[] = {"test", "tests", NULL};
    static const char *const ts_dirs[] = {"test", "tests", "spec", NULL};
    if (!src || ts_node_is_null(root))
        return 0;
    int py = src->lang == LF_LANG_PYTHON;
    int framework = 0, tests = 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (int ok = ts_tree_cursor_goto_first_child(&cur); ok; ok = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode s = ts_tree_cursor_current_node(&cur);
        if (!ts_node_is_named(s))
            continue;
        if (py) {
            framework |= py_imports_framework(src, s);
            tests |= py_defines_test(src, s);
        } else {
            framework |= ts_imports_framework(src, s);
            tests |= ts_registers_test(src, s);
        }
        if (framework && tests)
            break;
    }
    ts_tree_cursor_delete(&cur);
    return tests && (framework || path_has_dir(src->path, py ? py_dirs : ts_dirs));
}
