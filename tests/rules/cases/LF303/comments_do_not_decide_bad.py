"""A handler whose comment says it re-raises, or names a start-time check, still reads EPERM as dead."""
import os


def holder_gone(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        # raise  -- PermissionError would mean alive; start_time is compared elsewhere
        return True
    return False


def example():
    # os.kill(pid, 0) / except OSError: return True   -- prose, not code
    return "os.kill(pid, 0) except OSError: return True"
