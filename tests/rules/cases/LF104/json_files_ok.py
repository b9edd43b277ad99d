import json


def convert(src_path, dst_path):
    with open(src_path) as fh:
        data = json.load(fh)
    with open(dst_path, "w") as fh:
        json.dump(data, fh)


def pretty(path):
    with open(path) as fh:
        text = fh.read()
    with open(path, "w") as fh:
        json.dump(json.loads(text), fh, indent=2)
