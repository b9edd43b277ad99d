"""os.makedirs in the old idiom for exist_ok (re-raise unless EEXIST, then go
on as if it were made) only makes sure a directory exists: no lock is taken
or waited for, so clearing the directory out later removes no lock."""
import errno
import os
import shutil


def ensure_dir(path):
    try:
        os.makedirs(path)
    except OSError as err:
        if err.errno != errno.EEXIST:
            raise


def reset_cache(path):
    ensure_dir(path)
    if os.path.exists(path):
        shutil.rmtree(path)
    ensure_dir(path)
