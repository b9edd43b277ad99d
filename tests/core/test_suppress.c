/* lf_suppress: directive forms, the line-above rule, strings that only look
 * like comments. */
#include <stdlib.h>

#include "lf_source.h"
#include "lf_suppress.h"
#include "lf_test.h"

static int suppressed(lf_lang lang, const char *text, uint32_t line, const char *rule) {
    lf_source src;
    lf_source_from_text(&src, "t", lang, text, strlen(text));
    int r = lf_suppressed(&src, line, rule);
    lf_source_free(&src);
    return r;
}

#define PY LF_LANG_PYTHON
#define TS LF_LANG_TYPESCRIPT

static void test_python(void) {
    /* Same line, listed rule. */
    CHECK(suppressed(PY, "x = f()  # lockfix: ignore[LF101]\n", 1, "LF101"));
    CHECK(!suppressed(PY, "x = f()  # lockfix: ignore[LF101]\n", 1, "LF201"));
    /* Comma lists, spaces, any case for the tag and ids. */
    CHECK(suppressed(PY, "x = f()  # lockfix: ignore[LF101, LF201]\n", 1, "LF201"));
    CHECK(suppressed(PY, "x = f()  #lockfix:ignore[LF101,LF201]\n", 1, "LF201"));
    CHECK(suppressed(PY, "x = f()  # LockFix: ignore[lf401]\n", 1, "LF401"));
    /* Bare: every rule. */
    CHECK(suppressed(PY, "x = f()  # lockfix: ignore\n", 1, "LF301"));
    CHECK(suppressed(PY, "x = f()  # lockfix: ignore -- reviewed\n", 1, "LF301"));
    CHECK(!suppressed(PY, "x = f()  # lockfix: ignored\n", 1, "LF301"));
    CHECK(!suppressed(PY, "x = f()  # lockfix: ignore-this\n", 1, "LF301"));
    /* Unterminated list: not a directive. */
    CHECK(!suppressed(PY, "x = f()  # lockfix: ignore[LF101\n", 1, "LF101"));
    /* After other tools' directives in the same comment. */
    CHECK(suppressed(PY, "x = f()  # noqa: E501 lockfix: ignore[LF101]\n", 1, "LF101"));
    /* Line above: only a comment-only line counts. */
    CHECK(suppressed(PY, "# lockfix: ignore[LF101]\nx = f()\n", 2, "LF101"));
    CHECK(suppressed(PY, "def g():\n    # lockfix: ignore[LF101]\n    x = f()\n", 3, "LF101"));
    CHECK(!suppressed(PY, "y = 1  # lockfix: ignore[LF101]\nx = f()\n", 2, "LF101"));
    CHECK(!suppressed(PY, "# lockfix: ignore[LF101]\n\nx = f()\n", 3, "LF101"));
    /* The line below does not count. */
    CHECK(!suppressed(PY, "x = f()\n# lockfix: ignore[LF101]\n", 1, "LF101"));
    /* Inside a string: not a comment. */
    CHECK(!suppressed(PY, "x = f('# lockfix: ignore[LF101]')\n", 1, "LF101"));
    CHECK(!suppressed(PY, "x = f(\"# lockfix: ignore\")\n", 1, "LF101"));
    CHECK(!suppressed(PY, "x = f(\"it's # lockfix: ignore\")\n", 1, "LF101"));
    CHECK(!suppressed(PY, "x = f('a\\'# lockfix: ignore')\n", 1, "LF101"));
    /* A '#' in a string before the real comment. */
    CHECK(suppressed(PY, "x = f('#')  # lockfix: ignore[LF101]\n", 1, "LF101"));
    /* '//' is not a Python comment. */
    CHECK(!suppressed(PY, "x = a // 2  // lockfix: ignore\n", 1, "LF101"));
    /* CRLF line endings. */
    CHECK(suppressed(PY, "# lockfix: ignore[LF101]\r\nx = f()\r\n", 2, "LF101"));
    /* Out of range lines. */
    CHECK(!suppressed(PY, "x = 1\n", 0, "LF101"));
    CHECK(!suppressed(PY, "x = 1\n", 9, "LF101"));
}

static void test_typescript(void) {
    CHECK(suppressed(TS, "fs.rmSync(lock);  // lockfix: ignore[LF301]\n", 1, "LF301"));
    CHECK(suppressed(TS, "// lockfix: ignore[LF301]\nfs.rmSync(lock);\n", 2, "LF301"));
    CHECK(!suppressed(TS, "fs.rmSync(lock);  # lockfix: ignore[LF301]\n", 1, "LF301"));
    CHECK(!suppressed(TS, "const u = 'http://x/ lockfix: ignore';\n", 1, "LF301"));
    CHECK(!suppressed(TS, "const u = `// lockfix: ignore`;\n", 1, "LF301"));
    CHECK(suppressed(TS, "const u = 'http://x';  // lockfix: ignore\n", 1, "LF301"));
}

int main(void) {
    test_python();
    test_typescript();
    TEST_MAIN_END();
}
