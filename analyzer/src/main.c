/* lockfix: command dispatch, --help, --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char k_usage[] =
    "usage: lockfix [--help] [--version] COMMAND [ARGS]\n"
    "\n"
    "Find (and fix) unsafe lock fallbacks in Python and TypeScript/JavaScript.\n"
    "\n"
    "Commands:\n"
    "  scan [PATH...]     report findings (text, json, sarif, github)\n"
    "  fix [PATH...]      show (--diff) or apply (--apply) the safe fixes\n"
    "  rules              list the rules\n"
    "  explain RULE       print a rule's documentation\n"
    "\n"
    "`lockfix COMMAND --help` describes each command.\n"
    "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage or I/O error.\n";

static int cmd_fix(int argc, char **argv) {
#ifdef LF_HAVE_CMD_FIX
    return lf_cmd_fix(argc, argv);
#else
    (void)argc;
    (void)argv;
    fputs("lockfix fix: not available in this build\n", stderr);
    return LF_EXIT_USAGE;
#endif
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} k_commands[] = {
    {"scan", lf_cmd_scan},
    {"fix", cmd_fix},
    {"rules", lf_cmd_rules},
    {"explain", lf_cmd_explain},
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(k_usage, stderr);
        return LF_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(k_usage, stdout);
        return LF_EXIT_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("lockfix %s\n", LOCKFIX_VERSION);
        return LF_EXIT_OK;
    }
    /* `lockfix help scan` == `lockfix scan --help` */
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            fputs(k_usage, stdout);
            return LF_EXIT_OK;
        }
        for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; i++) {
            if (strcmp(argv[2], k_commands[i].name) == 0) {
                char *help_argv[] = {argv[2], "--help", NULL};
                return k_commands[i].run(2, help_argv);
            }
        }
        fprintf(stderr, "lockfix: unknown command '%s'\n", argv[2]);
        return LF_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; i++)
        if (strcmp(cmd, k_commands[i].name) == 0)
            return k_commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "lockfix: unknown command '%s' (see `lockfix --help`)\n", cmd);
    return LF_EXIT_USAGE;
}
