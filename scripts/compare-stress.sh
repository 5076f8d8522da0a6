#!/usr/bin/env bash
# ycsb stress against the real cassandra-stress on the local node: write and
# read at several thread counts, the two tools run alternately (the machine
# is shared and noisy: compare the ratios, not the absolute figures), then
# the peak RSS of ours at 1,000 threads.
#
# For each thread count and command it prints op/s (the Results block's Op
# rate) and the client's CPU per operation: user+sys of the client process
# (GNU time, which counts the JVM's threads too) over the operations. Each
# tool writes and reads its own keyspace (cmp_stress_theirs, cmp_stress_ours,
# replication factor 1), written over by each run; nothing else on the node is
# touched, and the node is never stopped. Every run is no-warmup and cl=ONE.
#
# The real tool is the scylladb/cassandra-stress fork of Apache Cassandra's
# tools/stress, built from its repository into
# ~/.cache/ycsb-reference/cassandra-stress (bin/cassandra-stress).
#
# The third command of each thread count is the blog-post user profile
# (frontend/stress/testdata/blogpost.yaml) with ops(insert=1,singlepost=2,timeline=1)
# and n=PROFILE_N, both tools in its keyspace stresscql.
#
# Usage: scripts/compare-stress.sh   (THREADS="8 64 500" WRITE_N=200000
#        READ_N=100000 PROFILE_N=50000 RSS_THREADS=1000 NODE=127.0.0.1 by default;
#        CSTRESS=path/to/cassandra-stress, YCSB=path/to/ycsb)
#
#        scripts/compare-stress.sh profile
#   runs user profiles instead (frontend/stress/user_interop_test.go): both tools write
#   the blog-post profile and two with clustering columns and many types
#   (frontend/stress/testdata) into keyspaces ks_userprof_*, the tables must hold the
#   same rows value for value, and each tool's queries read the other's rows.
#   Then the original's example profiles (examples/*.yaml of its repository,
#   CSTRESS_MIRROR) the same way, and the golden rows of
#   frontend/stress/testdata/original_*.txt, which the real tool wrote
#   (USERPROF_CAPTURE=1 rewrites them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == profile ]]; then
    CSTRESS=${CSTRESS:-$HOME/.cache/ycsb-reference/cassandra-stress/bin/cassandra-stress}
    [[ -x $CSTRESS ]] || { echo "no cassandra-stress at $CSTRESS (build scylladb/cassandra-stress there, or set CSTRESS)" >&2; exit 2; }
    # the original's own example profiles, from its fetched repository
    MIRROR=${CSTRESS_MIRROR:-/work/.mirror/scylladb+cassandra-stress/repo}
    EX=$(mktemp -d); trap 'rm -rf "$EX"' EXIT
    if [[ -d $MIRROR ]]; then
        for f in $(git -C "$MIRROR" ls-tree --name-only HEAD examples/ | grep '\.yaml$'); do
            git -C "$MIRROR" show "HEAD:$f" >"$EX/$(basename "$f")"
        done
    else
        echo "no repository at $MIRROR (CSTRESS_MIRROR): the example profiles are skipped" >&2
    fi
    CSTRESS=$CSTRESS CSTRESS_EXAMPLES=$EX go test -count=1 -v -run 'TestUserInterop|TestUserOriginalRows' ./frontend/stress/ ./workload/cassandrastress/
    exit

fi
THREADS=${THREADS:-8 64 500}
WRITE_N=${WRITE_N:-200000}
READ_N=${READ_N:-100000}
PROFILE_N=${PROFILE_N:-50000}
RSS_THREADS=${RSS_THREADS:-1000}
NODE=${NODE:-127.0.0.1}
CSTRESS=${CSTRESS:-$HOME/.cache/ycsb-reference/cassandra-stress/bin/cassandra-stress}
YCSB=${YCSB:-}
[[ -x $CSTRESS ]] || { echo "no cassandra-stress at $CSTRESS (build scylladb/cassandra-stress there, or set CSTRESS)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
if [[ -z $YCSB ]]; then
    go build -o bin/ycsb ./cmd/ycsb
    YCSB=bin/ycsb
fi
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

# tool name: the command line of one tool.
tool() { if [[ $1 == theirs ]]; then echo "$CSTRESS"; else echo "$YCSB stress"; fi; }

# measure who cmd n threads: runs one tool, prints "op/s cpu_us_per_op peak_kib".
measure() {
    local who=$1 cmd=$2 n=$3 threads=$4 out=$W/$1-$2-$4
    local opts=() groups=(-schema 'replication(factor=1)' "keyspace=cmp_stress_$who")
    if [[ $cmd == user ]]; then
        # The profile names its keyspace: both tools write stresscql.
        opts=("profile=frontend/stress/testdata/blogpost.yaml" "ops(insert=1,singlepost=2,timeline=1)") groups=()
    fi
    # shellcheck disable=SC2046
    if ! /usr/bin/time -f '%U %S %M' -o "$out.time" $(tool "$who") "$cmd" "${opts[@]}" "n=$n" no-warmup cl=ONE \
        -rate "threads=$threads" "${groups[@]}" -node "$NODE" -log no-settings >"$out.log" 2>&1; then
        echo "$who $cmd threads=$threads failed:" >&2; tail -20 "$out.log" >&2; exit 1
    fi
    local rate ops
    rate=$(sed -n 's/^Op rate *: *\([0-9,]*\) op\/s.*/\1/p' "$out.log" | tr -d ,)
    ops=$(sed -n 's/^Total partitions *: *\([0-9,]*\) .*/\1/p' "$out.log" | tr -d ,)
    read -r u s m <"$out.time"
    awk -v r="$rate" -v u="$u" -v s="$s" -v n="${ops:-$n}" -v m="$m" 'BEGIN { printf "%d %.1f %d\n", r, (u + s) * 1e6 / n, m }'
}


echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-7s %-5s %10s %10s %7s %12s %12s %7s\n' threads cmd "theirs/s" "ours/s" ratio "theirs µs/op" "ours µs/op" ratio
first=theirs
for t in $THREADS; do
    for cmd in write read user; do
        n=$WRITE_N; [[ $cmd == read ]] && n=$READ_N; [[ $cmd == user ]] && n=$PROFILE_N
        second=ours; [[ $first == ours ]] && second=theirs
        a=$(measure "$first" "$cmd" "$n" "$t"); b=$(measure "$second" "$cmd" "$n" "$t")
        if [[ $first == theirs ]]; then th=$a; us=$b; else th=$b; us=$a; fi
        read -r tr tc _ <<<"$th"; read -r ur uc _ <<<"$us"
        awk -v t="$t" -v c="$cmd" -v tr="$tr" -v ur="$ur" -v tc="$tc" -v uc="$uc" \
            'BEGIN { printf "%-7s %-5s %10d %10d %7.2f %12.1f %12.1f %7.2f\n", t, c, tr, ur, ur / tr, tc, uc, uc / tc }'
        # alternate which tool goes first
        first=$second
    done
done
read -r r _ m <<<"$(measure ours write "$READ_N" "$RSS_THREADS")"
echo "ours: write n=$READ_N -rate threads=$RSS_THREADS: $r op/s, peak RSS $((m / 1024)) MiB"
