"""Compatibility shim: the package's modules import FileLock from here."""

import warnings

try:
    from filelock import FileLock
except ImportError:
    warnings.warn("filelock missing: writes are not serialised")

    class FileLock:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None


__all__ = ["FileLock"]
