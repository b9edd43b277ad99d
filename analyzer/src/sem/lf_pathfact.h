/* lf_pathfact: facts about where a path lives, one vocabulary for both
 * languages (the front ends lf_pylock_per_user and lf_tslock_per_user only
 * say what each expression is).
 *
 * "Under a per-user directory": the path is built on the user's own home or
 * per-user directories (`os.homedir()`, `Path.home()`, `expanduser("~")`,
 * $HOME / $USERPROFILE, the XDG_* base directories, APPDATA / LOCALAPPDATA,
 * platformdirs' user_* directories). Every process that can open such a lock
 * or pidfile runs as that user (a home directory is not shared between
 * users), so a pid found there that this process may not signal (EPERM) is a
 * reused pid of another user, never a live holder: LF303's "EPERM read as
 * dead" is then the right reading. A temp directory (/tmp, os.tmpdir(),
 * $TMPDIR), a project or working directory, /var/run, or any path the
 * analysis cannot trace is not per-user.
 *
 * The question is asked of the path's base only: the first part of a join,
 * the left of `/` or `+`, the first interpolation of a template or f-string
 * that starts with one. Where the base has several possible values (`a ||
 * b`, `a or b`, a conditional, a parameter's arguments at each of the
 * module's calls, a function's returns, an env override with a default),
 * every one must be per-user or an empty string, and at least one is. */
#ifndef LF_PATHFACT_H
#define LF_PATHFACT_H

#include <stddef.h>
#include <tree_sitter/api.h>

typedef enum lf_pathfact_kind {
    LF_PF_OTHER = 0, /* not per-user, or not known to be */
    LF_PF_PER_USER,  /* a per-user root */
    LF_PF_NEUTRAL,   /* adds no directory (an empty string, None): decides nothing */
    LF_PF_FOLLOW,    /* per-user when every node the front end put in `next` is */
} lf_pathfact_kind;

/* A front end's answer for one node: its kind, and for LF_PF_FOLLOW the nodes
 * it depends on (at most max, in next; *n_next of them). A front end that has
 * more than max returns LF_PF_OTHER. */
typedef lf_pathfact_kind (*lf_pathfact_step)(void *ud, TSNode n, TSNode *next, size_t max, size_t *n_next);

#define LF_PATHFACT_FANOUT 8 /* nodes one step may depend on */
#define LF_PATHFACT_BUDGET 96 /* nodes one question visits: past it the answer is "not per-user" */

/* Is the path expression under a per-user directory? Iterative, bounded by
 * LF_PATHFACT_BUDGET steps (a cycle of names runs out of budget: no). */
int lf_pathfact_per_user(TSNode expr, lf_pathfact_step step, void *ud);

/* Does the environment variable name a per-user directory (HOME,
 * USERPROFILE, XDG_*_HOME, XDG_RUNTIME_DIR, APPDATA, LOCALAPPDATA)? */
int lf_pathfact_env_per_user(const char *name, size_t len);

/* Is a name the code gives a directory one it calls a home (`home`,
 * `homeDir`, `shipyardHome`, `CLAUDE_HOME`, `config_home`)? Asked only of a
 * base the analysis cannot follow (an imported constant, a parameter no call
 * in the module passes): the name is then the only thing known about it. */
int lf_pathfact_home_name(const char *name, size_t len);

#endif
