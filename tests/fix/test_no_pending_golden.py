"""A golden file's pending replacement (GOLDEN.new, written by
LOCKFIX_REGEN_GOLDEN=1) must be reviewed with scripts/review-golden, not left
in the tree: accepting it replaces the golden file, rejecting it removes it."""
import os

from conftest import SRC


def pending(root):
    found = []
    for top in ("tests", "fixtures"):
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            found += [os.path.relpath(os.path.join(dirpath, f), root) for f in files if f.endswith(".new")]
    return sorted(found)


def test_no_golden_new_file_is_left_in_the_tree():
    left = pending(SRC)
    assert not left, "golden changes not reviewed (run scripts/review-golden): " + ", ".join(left)
