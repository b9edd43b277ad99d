"""LF101 gate: no lock module and no mkdir in the code (only in this string:
"mkdir"), but an exclusive open() whose failure is swallowed: the gate must
let the file through on its "x" mode."""
import os


def append_line(log_path, line):
    marker = log_path + ".lock"
    try:
        fd = open(marker, "x")
        fd.close()
    except FileExistsError:
        pass  # someone else is writing; go ahead regardless
    try:
        with open(log_path) as fh:
            lines = fh.read().splitlines()
        lines.append(line)
        with open(log_path, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    finally:
        try:
            os.remove(marker)
        except OSError:
            pass
