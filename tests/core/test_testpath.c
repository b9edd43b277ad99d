/* lf_is_test_path: test code by the names test runners collect. */
#include "lf_test.h"
#include "lf_testpath.h"

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
    CHECK(!lf_is_test_path(NULL));
    CHECK(!lf_is_test_path(""));
    TEST_MAIN_END();
}
