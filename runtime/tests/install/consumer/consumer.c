/* Builds against an installed lockrt (pkg-config or find_package) and uses it. */
#include <lockrt.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    if (lockrt_confined_path(dir, "consumer.lock", path, sizeof path) != LOCKRT_OK)
        return 1;
    lockrt_options o;
    lockrt_options_init(&o);
    o.timeout_ms = 1000;
    for (int s = LOCKRT_STRATEGY_OSLOCK; s <= LOCKRT_STRATEGY_LOCKFILE; s++) {
        o.strategy = (lockrt_strategy)s;
        lockrt_lock *l = NULL;
        int rc = lockrt_acquire(path, &o, &l);
        if (rc != LOCKRT_OK) {
            fprintf(stderr, "acquire: %s\n", lockrt_strerror(rc));
            return 1;
        }
        if (lockrt_lock_strategy(l) != (lockrt_strategy)s || lockrt_release(l) != LOCKRT_OK)
            return 1;
        if (s == LOCKRT_STRATEGY_OSLOCK && remove(path) != 0)
            return 1;
    }
    char data[4096];
    if (lockrt_confined_path(dir, "consumer.json", data, sizeof data) != LOCKRT_OK ||
        lockrt_write_atomic(data, "{}\n", 3, 0) != LOCKRT_OK)
        return 1;
    printf("consumer ok: lockrt %d.%d.%d, %s\n", LOCKRT_VERSION_MAJOR, LOCKRT_VERSION_MINOR,
           LOCKRT_VERSION_PATCH, lockrt_strerror(LOCKRT_OK));
    return 0;
}
