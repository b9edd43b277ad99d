"""An account lock that prefers portalocker and falls back to fcntl, each
imported only where the one before it failed. When neither imports (Windows
without portalocker), the NameError of the fallback is swallowed (line 32)
and the lock method returns as if it held the lock, so two syncs of one
account run at once. The handlers that refuse on contention raise an
exception they construct: that call is no work of the lock method."""
try:
    import portalocker
except ImportError:
    try:
        import fcntl
    except ImportError:
        pass


class AccountLocked(Exception):
    pass


class Account:
    def __init__(self, path):
        self._lockfilepath = path
        self._lockfd = None

    def lock(self):
        self._lockfd = open(self._lockfilepath, "w")
        try:
            portalocker.lock(self._lockfd, portalocker.LOCK_EX)
        except NameError:
            try:
                fcntl.lockf(self._lockfd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except NameError:
                pass
            except OSError:
                raise AccountLocked("account %s is locked" % self._lockfilepath)
        except OSError:
            self._lockfd.close()
            raise AccountLocked("account %s is locked" % self._lockfilepath)
