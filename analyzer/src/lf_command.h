/* lf_command: run a user's shell command (`lockfix fix --verify CMD`) and keep
 * the end of what it printed.
 *
 * The command runs as `/bin/sh -c CMD` in its own process group, with stdin
 * from /dev/null and stdout and stderr captured together; only the last lines
 * are kept, for the summary. When the shell exits, whatever it left running in
 * its process group is killed, so nothing it started keeps changing files while
 * lockfix inspects or restores them. */
#ifndef LF_COMMAND_H
#define LF_COMMAND_H

#include <stddef.h>

typedef struct lf_command_result {
    int ran;        /* 0: could not be started (error set) */
    int exit_code;  /* when exited normally */
    int signal;     /* when killed by a signal (0 otherwise) */
    int timed_out;  /* killed after timeout_s seconds */
    unsigned timeout_s;
    char *tail;     /* last lines of the combined output (malloc'd, "" when silent) */
    char *error;    /* why it could not run (malloc'd) */
} lf_command_result;

/* Run cmd in cwd (NULL: the current directory). timeout_s 0 waits forever.
 * Returns 1 when the command ran and exited 0. */
int lf_command_run(const char *cmd, const char *cwd, unsigned timeout_s, size_t tail_lines, lf_command_result *r);
void lf_command_result_free(lf_command_result *r);

/* "exit 1", "killed by signal 9", "timed out after 30 s", "could not run: ..." (malloc'd). */
char *lf_command_outcome(const lf_command_result *r);

/* cmd with every "{dir}" replaced by dir quoted for the shell (malloc'd);
 * *has_dir tells whether there was one. */
char *lf_command_substitute_dir(const char *cmd, const char *dir, int *has_dir);

#endif
