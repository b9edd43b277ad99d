"""LF401 gate: a bare replace() imported from a module that is not os is still a
rename to the rule's query (its two-argument bare replace/rename pattern), so
the gate must let this file through."""
from dataclasses import replace


def save(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    replace(path + ".tmp", path)
