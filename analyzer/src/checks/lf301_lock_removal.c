/* LF301: a lock path removed by name with no identity check binding the
 * removal to the object that was judged. The query finds removals of
 * lock-named paths; this check drops package-manager lock files (data, not
 * locks) — also through a name assigned from one — and functions that compare
 * the file's identity (st_dev/st_ino, samestat) before removing it. */
#include <string.h>

#include "lf_py.h"

static const char *const k_package_locks[] = {
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "uv.lock", "Cargo.lock", "poetry.lock", "Gemfile.lock",
    "composer.lock", "Pipfile.lock", "flake.lock", "bun.lock", "bun.lockb", "mix.lock", "pubspec.lock",
    "packages.lock.json", "Podfile.lock", "npm-shrinkwrap.json", NULL};

static const char *const k_identity_words[] = {"st_ino", "samestat", "samefile", "same_file", NULL};

typedef struct assigned {
    const lf_source *src;
    TSNode name;
    int package_lock;
} assigned;

static int visit_assignment(TSNode n, void *ud) {
    assigned *a = ud;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (!ts_node_is_null(left) && !ts_node_is_null(right) && lf_py_same_text(a->src, left, a->name) &&
        lf_py_text_has(a->src, right, k_package_locks)) {
        a->package_lock = 1;
        return 0;
    }
    return 1;
}

static int names_package_lock(const lf_source *src, TSNode target, TSNode scope, TSNode root) {
    if (lf_py_text_has(src, target, k_package_locks))
        return 1;
    if (strcmp(ts_node_type(target), "identifier") != 0)
        return 0;
    assigned a = {src, target, 0};
    lf_py_walk(scope, "assignment", 1, visit_assignment, &a);
    if (!a.package_lock && !ts_node_eq(scope, root))
        lf_py_walk(root, "assignment", 1, visit_assignment, &a);
    return a.package_lock;
}

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    TSNode root = lf_ctx_root(ctx);
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode removal, target;
        if (!lf_ctx_capture(ctx, i, "remove", &removal) || !lf_ctx_capture(ctx, i, "target", &target))
            continue;
        TSNode scope = lf_py_scope(removal);
        if (names_package_lock(src, target, scope, root))
            continue;
        if (strcmp(ts_node_type(scope), "function_definition") == 0 && lf_py_text_has(src, scope, k_identity_words))
            continue;
        lf_ctx_emit(ctx, removal, NULL, i);
    }
}

const lf_check lf301_lock_removal_check = {"lf301_lock_removal", run};
