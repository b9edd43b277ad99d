/* lf_glob_match: the --exclude / config "exclude" glob language. */
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
    TEST_MAIN_END();
}
