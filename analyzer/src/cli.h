/* cli: the `lockfix` subcommands. Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit code. */
#ifndef LF_CLI_H
#define LF_CLI_H

/* Exit codes shared by every subcommand (documented in README and --help). */
enum {
    LF_EXIT_OK = 0,       /* nothing at or above --fail-on */
    LF_EXIT_FINDINGS = 1, /* findings at or above --fail-on */
    LF_EXIT_USAGE = 2     /* bad usage, unreadable/malformed config or rules, I/O error */
};

#ifndef LOCKFIX_VERSION
#define LOCKFIX_VERSION "0.0.0-dev"
#endif
#define LOCKFIX_INFORMATION_URI "https://github.com/lockfix/lockfix"

int lf_cmd_scan(int argc, char **argv);
int lf_cmd_rules(int argc, char **argv);
int lf_cmd_explain(int argc, char **argv);
/* Provided by cli_fix.c (the fix engine's CLI). */
int lf_cmd_fix(int argc, char **argv);

#endif
