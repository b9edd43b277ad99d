#!/usr/bin/env bash
# False-positive rate on an installed Python (docs/accuracy.md): count the lines
# of every .py file under the given roots and scan them with lockfix; every
# finding there must then be reviewed by hand (the stdlib and site-packages are
# not the bug class's home, so most findings are false positives).
#   scripts/fp_rate.sh build/analyzer/lockfix /usr/lib/python3.11 /usr/lib/python3/dist-packages
set -euo pipefail
lockfix=$1
shift
lines=$(find "$@" -name '*.py' -type f -print0 | xargs -0 cat | wc -l)
"$lockfix" scan --no-config --format text "$@" 2>/dev/null | grep -E ': LF[0-9]+ ' || true
echo "lines: $lines"
