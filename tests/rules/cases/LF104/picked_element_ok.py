# A release script sets a fixed key of the entry a loop picked, with nothing
# in the module locking the document: nothing shows another writer, and the
# fixed store alone is not taken as a lost update.
import json


def bump(path, name, version):
    with open(path) as f:
        data = json.load(f)
    for plugin in data["plugins"]:
        if plugin["name"] == name:
            plugin["version"] = version
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
