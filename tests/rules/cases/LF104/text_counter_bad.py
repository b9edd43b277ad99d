"""A hook counter kept as text: read, stepped and written back unlocked."""
from pathlib import Path

STATE_DIR = Path.home() / ".hook-state"
COUNTER = STATE_DIR / "nudges"


def read_counter(state_dir: Path, name: str) -> int:
    try:
        path = state_dir / name
        return int(path.read_text(encoding="utf-8").strip())
    except (ValueError, OSError):
        return 0


def increment_counter(state_dir: Path, name: str) -> int:
    count = read_counter(state_dir, name) + 1
    (state_dir / name).write_text(str(count), encoding="utf-8")
    return count


def bump_nudges() -> None:
    with open(COUNTER) as f:
        n = int(f.read())
    with open(COUNTER, "w") as f:
        f.write(str(n + 1))
