/* lf_glob_match: the --exclude / config "exclude" glob language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_test.h"
#include "lf_util.h"

int main(void) {
    /* No '/': matches any single component. */
    CHECK(lf_glob_match("vendor", "vendor"));
    CHECK(lf_glob_match("vendor", "a/vendor/b.py"));
    CHECK(!lf_glob_match("vendor", "a/vendors/b.py"));
    CHECK(lf_glob_match("*.py", "a/b/c.py"));
    CHECK(!lf_glob_match("*.py", "a/b/c.pyi"));
    CHECK(lf_glob_match("test_*", "pkg/test_state.py"));
    CHECK(lf_glob_match("?.py", "x/a.py"));
    CHECK(!lf_glob_match("?.py", "x/ab.py"));
    /* The fast paths (a plain name, `*SUFFIX`) answer as the state sets do. */
    CHECK(lf_glob_match("*.ts", "a/b.ts"));
    CHECK(lf_glob_match("*.ts", ".ts"));
    CHECK(lf_glob_match("*.ts", "a.ts/b.py"));
    CHECK(!lf_glob_match("*.ts", "a/b.tsx"));
    CHECK(!lf_glob_match("*.ts", "a/ts"));
    CHECK(lf_glob_match("*", "a/b"));
    CHECK(lf_glob_match("*.min.js", "dist/app.min.js"));
    CHECK(!lf_glob_match("*.min.js", "dist/app.min.jsx"));
    CHECK(!lf_glob_match("vendor", "vendor.py"));
    CHECK(!lf_glob_match("vendor", ""));
    CHECK(lf_glob_match("*", ""));
    {
        /* ... on many names: `*L` against `**L` (a component has no '/', so the
         * general matcher reads both alike), `L` against L with its last
         * character as a class. */
        static const char *const parts[] = {"a", ".ts", "ts", ".", "b.ts", "x.min.js", ".js", "min", ""};
        static const char *const lits[] = {".ts", "ts", ".min.js", "a", "b.ts", "."};
        unsigned seed = 12345;
        for (int round = 0; round < 2000; round++) {
            char path[128] = "";
            int k = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 4;
            for (int j = 0; j < k; j++) {
                if (j)
                    strcat(path, "/");
                strcat(path, parts[((seed = seed * 1103515245u + 12345u) >> 16) % 9]);
            }
            const char *lit = lits[((seed = seed * 1103515245u + 12345u) >> 16) % 6];
            char fast[32], slow[32];
            snprintf(fast, sizeof fast, "*%s", lit);
            snprintf(slow, sizeof slow, "**%s", lit);
            CHECK(lf_glob_match(fast, path) == lf_glob_match(slow, path));
            size_t n = strlen(lit);
            snprintf(slow, sizeof slow, "%.*s[%c]", (int)(n - 1), lit, lit[n - 1]);
            CHECK(lf_glob_match(lit, path) == lf_glob_match(slow, path));
        }
    }
    /* With '/': anchored at the root, '*' stays inside a component. */
    CHECK(lf_glob_match("fixtures/negative/*", "fixtures/negative/ok.py"));
    CHECK(!lf_glob_match("fixtures/negative/*", "fixtures/negative/sub/ok.py"));
    CHECK(!lf_glob_match("fixtures/negative/*", "x/fixtures/negative/ok.py"));
    CHECK(lf_glob_match("/fixtures/*.py", "fixtures/a.py"));
    /* '**' crosses components, including none. */
    CHECK(lf_glob_match("fixtures/**", "fixtures/negative/sub/ok.py"));
    CHECK(lf_glob_match("**/gen/*.ts", "a/b/gen/x.ts"));
    CHECK(lf_glob_match("**/gen/*.ts", "gen/x.ts"));
    CHECK(lf_glob_match("src/**/*.py", "src/x.py"));
    CHECK(lf_glob_match("src/**/*.py", "src/a/b/x.py"));
    CHECK(!lf_glob_match("src/**/*.py", "lib/a/x.py"));
    /* Character classes. */
    CHECK(lf_glob_match("test_[abc].py", "test_b.py"));
    CHECK(!lf_glob_match("test_[abc].py", "test_d.py"));
    CHECK(lf_glob_match("test_[!abc].py", "test_d.py"));
    CHECK(lf_glob_match("v[0-9]", "lib/v7/x.py"));
    CHECK(!lf_glob_match("v[0-9]", "lib/vx/x.py"));
    /* Pathological patterns stay linear in the name: counted in matcher steps
     * (lf_work_steps), never seconds. The old backtracking matcher took minutes on
     * `*a*a*a*a*a*b` against a 200-character name. */
    {
        static const char *const pats[] = {"*a*a*a*a*a*b", "**a**a**a**a**a**b", "x/*a*a*a*a*a*a*a*b", NULL};
        for (size_t k = 0; pats[k]; k++) {
            unsigned long long steps[2];
            for (int r = 0; r < 2; r++) {
                size_t len = r ? 800 : 200;
                char *name = lf_xmalloc(len + 3);
                memcpy(name, "x/", 2);
                memset(name + 2, 'a', len);
                name[len + 2] = 0;
                unsigned long long before = lf_work_steps;
                CHECK(!lf_glob_match(pats[k], name));
                steps[r] = lf_work_steps - before;
                free(name);
            }
            /* A quarter of the name, a quarter of the steps (linear), and at most a
             * few steps per (pattern token, character) pair. */
            double ratio = (double)steps[1] / (double)steps[0];
            printf("glob %s: %llu steps at 200 chars, %llu at 800 (ratio %.2f)\n", pats[k], steps[0], steps[1], ratio);
            CHECK(ratio > 3.5 && ratio < 4.5);
            CHECK(steps[1] < 4ull * 802 * (strlen(pats[k]) + 1));
        }
    }
    TEST_MAIN_END();
}
