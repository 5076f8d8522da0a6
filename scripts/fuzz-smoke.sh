#!/usr/bin/env bash
# Run each fuzz target for a short time (FUZZTIME, default 10s).
set -euo pipefail
cd "$(dirname "$0")/.."
t="${FUZZTIME:-10s}"
grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do
    pkg="./$(dirname "${f#./}")"
    # A target behind a build tag (//go:build rocksdb) runs with that tag.
    tags=$(sed -n '1s,^//go:build \([a-z0-9]*\)$,-tags=\1,p' "$f")
    for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | cut -d' ' -f2); do
        echo "fuzz: $pkg $fn"
        go test $tags -run '^$' -fuzz "^$fn\$" -fuzztime "$t" "$pkg"
    done
done
