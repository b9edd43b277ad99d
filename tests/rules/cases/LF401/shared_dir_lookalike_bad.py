"""Directories that other writers share: made with exist_ok=True, made only
when missing (another run finds it there), or made with its FileExistsError
swallowed. The fixed temp name in them is shared by concurrent writers."""
import json
import os
from pathlib import Path


def save_settings(root: Path, data: dict) -> None:
    config_dir = root / "config"
    config_dir.mkdir(parents=True, exist_ok=True)
    target = config_dir / "settings.json"
    tmp = config_dir / f".{target.name}.tmp"
    tmp.write_text(json.dumps(data))
    tmp.replace(target)


def save_state(root: str, data: dict) -> None:
    state_dir = os.path.join(root, "state")
    if not os.path.isdir(state_dir):
        os.mkdir(state_dir)
    target = os.path.join(state_dir, "state.json")
    tmp = target + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, target)


def save_cache(root: str, data: dict) -> None:
    cache_dir = os.path.join(root, "cache")
    try:
        os.mkdir(cache_dir)
    except FileExistsError:
        pass
    target = os.path.join(cache_dir, "index.json")
    tmp = target + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, target)
