"""A command script whose subcommands run in branches of one if/elif chain:
the read of `list` returns and the one of `show` ends its branch, so neither
reaches the write of `add`; the read of `add` is the update (reported there),
and a read in a branch that returns before a later write is none."""
import json


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


def main(cmd, path, item):
    if cmd == "list":
        doc = load(path)
        print(doc["items"])
        return
    elif cmd == "show":
        with open(path) as f:
            one = json.load(f)
        print(one)
    elif cmd == "add":
        doc = load(path)
        doc["items"].append(item)
        save(path, doc)


def early(path, verbose):
    if verbose:
        with open(path) as f:
            seen = json.load(f)
        print(seen)
        return
    with open(path, "w") as f:
        json.dump({"fresh": True}, f)
