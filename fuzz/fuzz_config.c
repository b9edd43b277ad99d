/* Target (e): .lockfix.json through lf_config_parse (the loader behind
 * lf_config_load), then what a scan does with a loaded config: check its
 * entries against the rules, judge each rule's severity, and match its exclude
 * globs against a few short paths (short on purpose: glob cost on long names is
 * item 5 of issue 11, pinned by its own tests, not a fuzzer timeout). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "lf_config.h"

static const char *const k_paths[] = {"a.py", "src/pkg/mod.py", "vendor/x/y.ts", ".hidden/z.tsx", "dir with space/q.py"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lf_config cfg;
    char *err = NULL;
    if (!lf_config_parse((const char *)data, size, ".lockfix.json", &cfg, &err)) {
        if (!err || strncmp(err, ".lockfix.json", 13) != 0)
            lf_fuzz_fail("a refused config must name its file: %s", err ? err : "(no message)");
        if (cfg.n_select || cfg.n_ignore || cfg.n_exclude || cfg.n_severity)
            lf_fuzz_fail("a refused config must come back empty");
        free(err);
        lf_config_free(&cfg);
        return 0;
    }
    const lf_ruleset *rules = lf_fuzz_rules();
    if (!lf_config_check_rules(&cfg, rules, &err)) {
        if (!err)
            lf_fuzz_fail("lf_config_check_rules failed without a message");
        free(err);
    }
    for (size_t i = 0; i < rules->n_rules; i++) {
        lf_severity s = lf_config_rule_severity(&cfg, rules->rules[i]);
        if (s > LF_SEV_ERROR)
            lf_fuzz_fail("severity %d out of range", (int)s);
    }
    for (size_t i = 0; i < sizeof k_paths / sizeof k_paths[0]; i++)
        (void)lf_config_excluded(&cfg, k_paths[i]);
    lf_config_free(&cfg);
    return 0;
}
