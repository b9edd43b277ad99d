import pathlib
import sys

_tests = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_tests / "cli"))
sys.path.insert(0, str(_tests / "formats"))
