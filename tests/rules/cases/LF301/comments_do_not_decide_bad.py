"""Comments that name an identity check, a re-raise or a blocking wait decide nothing."""
import fcntl
import os


def run_locked(lock_path, work):
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # block until we own it
    try:
        work()
    finally:
        # st_ino / st_dev compared with os.fstat(fd) before this (it is not):
        # if os.stat(lock_path).st_ino != os.fstat(fd).st_ino: raise
        os.unlink(lock_path)
        os.close(fd)


def describe(path):
    # fcntl.flock(fd, fcntl.LOCK_EX); os.unlink(path)  -- an example in a comment
    # os.mkdir(path) then shutil.rmtree(path) after os.path.exists(path)
    return "os.unlink(%s) after fcntl.flock" % path
