#!/bin/sh
# lockrt_harness command line: usage errors, a corrupt counter file, foreign keys
# kept, the summary line. Usage: harness_cli_test.sh HARNESS WORK_DIR
set -u
H=$1
W=$2
rm -rf "$W"
mkdir -p "$W"
fail=0
expect() { # expected-exit description command...
    want=$1
    what=$2
    shift 2
    "$@" >"$W/out" 2>"$W/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $what: exit $got, want $want"
        cat "$W/out" "$W/err"
        fail=1
    else
        echo "ok   $what"
    fi
}
expect 2 "no mode" "$H"
expect 2 "unknown mode" "$H" frobnicate --file "$W/f" --lock "$W/l" --strategy oslock --iters 1
expect 2 "bad strategy" "$H" worker --file "$W/f" --lock "$W/l" --key k --iters 1 --strategy flock
expect 2 "missing --iters" "$H" worker --file "$W/f" --lock "$W/l" --key k --strategy oslock
expect 2 "bad key" "$H" worker --file "$W/f" --lock "$W/l" --key 'a"b' --iters 1 --strategy oslock
expect 2 "procs out of range" "$H" run --procs 0 --iters 1 --file "$W/f" --lock "$W/l" --strategy oslock
expect 2 "negative iters" "$H" run --procs 1 --iters -3 --file "$W/f" --lock "$W/l" --strategy oslock

printf '{"c0": 4, "torn' >"$W/torn.json"
expect 3 "torn counter file is reported" "$H" worker --file "$W/torn.json" --lock "$W/t.lock" --key c0 --iters 1 --strategy oslock

printf '{ "py0" : 7,\n "c0": 2 }\n' >"$W/mixed.json"
expect 0 "worker keeps foreign keys" "$H" worker --file "$W/mixed.json" --lock "$W/m.lock" --key c0 --iters 3 --strategy lockfile
if ! grep -q '"py0": 7' "$W/mixed.json" || ! grep -q '"c0": 5' "$W/mixed.json"; then
    echo "FAIL counter content: $(cat "$W/mixed.json")"
    fail=1
fi

expect 0 "run summary" "$H" run --procs 2 --iters 5 --file "$W/s.json" --lock "$W/s.lock" --strategy oslock
if ! grep -q '^{"expected":10,"total":10,"keys_expected":2,"keys_present":2,' "$W/out"; then
    echo "FAIL summary line: $(cat "$W/out")"
    fail=1
fi
expect 1 "--expect-loss fails when nothing was lost" "$H" run --procs 2 --iters 5 --file "$W/s.json" --lock "$W/s.lock" --strategy oslock --expect-loss
exit $fail
