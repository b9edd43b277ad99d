"""A directory made to work in and removed afterwards (test.support's
temp_dir): the failure to make it is swallowed with a warning, but nothing
names it a lock and nothing waits on it, so no lock is skipped."""
import contextlib
import os
import shutil
import warnings


@contextlib.contextmanager
def temp_dir(path, quiet=False):
    created = False
    try:
        os.mkdir(path)
        created = True
    except OSError as exc:
        if not quiet:
            raise
        warnings.warn(f"unable to create {path!r}: {exc}", RuntimeWarning)
    try:
        yield path
    finally:
        if created:
            shutil.rmtree(path)


def write_report(path, text):
    with temp_dir(path, quiet=True) as d:
        with open(os.path.join(d, "report.txt"), "w") as f:
            f.write(text)
