"""Cache entries confined to the cache root (pathlib style)."""

from pathlib import Path

CACHE_ROOT = Path.home() / ".cache" / "tool"


def entry_path(key: str) -> Path:
    candidate = CACHE_ROOT / key.replace("/", "_")
    if not candidate.resolve().is_relative_to(CACHE_ROOT.resolve()):
        raise ValueError(f"cache key escapes the cache: {key!r}")
    return candidate


def entry_path_str(root, key):
    import os

    path = os.path.join(root, key)
    real = os.path.realpath(path)
    if not real.startswith(os.path.realpath(root) + os.sep):
        raise ValueError(key)
    return path


def evict(key: str) -> None:
    entry_path(key).unlink(missing_ok=True)


def replace_entry(root, key, tmp):
    import os

    os.replace(tmp, entry_path_str(root, key))
