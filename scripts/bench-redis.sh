#!/usr/bin/env bash
# The redis binding's speed beside go-ycsb's redis binding, the reference
# YCSB 0.17.0's (jedis 2.9.0) and redis-benchmark (the server's own C
# client: the floor), in one sitting on the same server (scripts/redis.sh's,
# started if it is not running). The server runs on the same cores as the
# clients: compare the ratios, not one absolute figure, and only on a quiet
# machine.
#
# Cases, each at every THREADS (requests in flight: the tools' threads,
# redis-benchmark's connections):
#   read    point reads of whole records, keys drawn uniformly from RECORDS
#           (workload C: HGETALL for ours and the reference, HMGET of the
#           ten fields for go-ycsb, HGETALL for redis-benchmark)
#   update  point updates of one field (HSET of field0, 100 bytes)
# Data: RECORDS records of ten 100-byte fields, loaded once per sitting:
# in the reference's layout in database 0 by ours (read by ours and by the
# reference: the same keys), in go-ycsb's layout in database 1 by go-ycsb
# (its keys are its own), and as bench:<12 digits> hashes for
# redis-benchmark (written with redis-cli --pipe).
#
# For each run: op/s (each tool's own figure) and the client's CPU per
# operation: user+sys of its process under GNU time, less that of the same
# tool's run of one operation at the same THREADS (its start, connections
# and exit: a JVM's start alone is a second of CPU), over OPS-1. Each round
# rotates the order of the tools; the summary gives each case's median.
#
# Environment:
#   RECORDS   records (default 100000)
#   OPS       operations per run (default 200000)
#   THREADS   requests in flight (default "16 64")
#   ROUNDS    rounds (default 3)
#   TOOLS     a subset of "ours goycsb reference redis-benchmark"
#   REF_CACHE the reference tools (default ~/.cache/ycsb-reference; see the
#             reference tools' build script): go-ycsb and javaycsb/{lib,redis,redis-lib}
#   YCSB      our binary (default: bin/ycsb, built with make build)
#   REDIS_PORT the server's port (default 6379)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
cd "$REPO"
RECORDS="${RECORDS:-100000}"
OPS="${OPS:-200000}"
THREADS="${THREADS:-16 64}"
ROUNDS="${ROUNDS:-3}"
TOOLS="${TOOLS:-ours goycsb reference redis-benchmark}"
REF="${REF_CACHE:-$HOME/.cache/ycsb-reference}"
YCSB="${YCSB:-$REPO/bin/ycsb}"
PORT="${REDIS_PORT:-6379}"
ADDR="127.0.0.1:$PORT"

say() { echo "bench-redis: $*" >&2; }
die() { echo "bench-redis: $*" >&2; exit 2; }

for v in RECORDS OPS ROUNDS PORT; do
    [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: want a positive integer"
done
((OPS >= 2)) || die "OPS=$OPS: want at least 2 (a run of one operation is the baseline)"
for n in $THREADS; do [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "THREADS=$THREADS: want positive integers"; done
for t in $TOOLS; do
    case "$t" in ours | goycsb | reference | redis-benchmark) ;; *) die "TOOLS: unknown tool $t (want ours goycsb reference redis-benchmark)" ;; esac
done
has() { [[ " $TOOLS " == *" $1 "* ]]; }
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed"
if has goycsb && [[ ! -x "$REF/go-ycsb" ]]; then die "no go-ycsb at $REF/go-ycsb (build the reference tools, or leave goycsb out of TOOLS)"; fi
if has reference && [[ ! -d "$REF/javaycsb/redis" ]]; then die "no reference redis binding at $REF/javaycsb/redis (build the reference tools, or leave reference out of TOOLS)"; fi
if has ours; then
    [[ -x "$YCSB" ]] || { say "building $YCSB"; make -s build BIN="$YCSB"; }
fi

REDIS_PORT="$PORT" scripts/redis.sh start >&2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
WL="$REPO/workloads/workloadc"
common=(-p "recordcount=$RECORDS" -p requestdistribution=uniform -p fieldcount=10 -p fieldlength=100)

load() {
    say "loading $RECORDS records for each tool"
    redis-cli -p "$PORT" FLUSHALL >/dev/null
    redis-cli -p "$PORT" -n 1 FLUSHALL >/dev/null
    if has ours || has reference; then
        "$YCSB" load redis -P "$WL" "${common[@]}" -p "redis.addr=$ADDR" -threads 16 >"$W/load-ours" 2>&1 ||
            { cat "$W/load-ours" >&2; die "our load failed"; }
    fi
    if has goycsb; then
        "$REF/go-ycsb" load redis -P "$WL" "${common[@]}" -p "redis.addr=$ADDR" -p redis.db=1 -p threadcount=16 >"$W/load-goycsb" 2>&1 ||
            { cat "$W/load-goycsb" >&2; die "go-ycsb's load failed"; }
    fi
    if has redis-benchmark; then
        local v
        v=$(printf 'x%.0s' $(seq 100))
        awk -v n="$RECORDS" -v v="$v" 'BEGIN {
            for (i = 0; i < n; i++) {
                k = sprintf("bench:%012d", i)
                printf "*22\r\n$4\r\nHSET\r\n$%d\r\n%s\r\n", length(k), k
                for (f = 0; f < 10; f++) printf "$6\r\nfield%d\r\n$100\r\n%s\r\n", f, v
            }
        }' | redis-cli -p "$PORT" --pipe >"$W/load-bench" 2>&1 || { cat "$W/load-bench" >&2; die "redis-benchmark's data failed"; }
    fi
}

# run TOOL CASE THREADS [OPS]: prints "ops_per_s cpu_seconds"
run() {
    local tool=$1 case=$2 n=$3 OPS=${4:-$OPS} out="$W/out" tm="$W/time"
    local mix=(-p readproportion=1 -p updateproportion=0 -p readallfields=true)
    [[ "$case" == update ]] && mix=(-p readproportion=0 -p updateproportion=1 -p writeallfields=false)
    local ops
    case "$tool" in
    ours)
        /usr/bin/time -f '%U %S' -o "$tm" "$YCSB" run redis -P "$WL" "${common[@]}" "${mix[@]}" -p "operationcount=$OPS" \
            -p "redis.addr=$ADDR" -threads "$n" >"$out" 2>&1
        ops=$(sed -n 's/^\[OVERALL\], Throughput(ops\/sec), //p' "$out") ;;
    reference)
        /usr/bin/time -f '%U %S' -o "$tm" java -cp "$REF/javaycsb/lib/*:$REF/javaycsb/redis:$REF/javaycsb/redis-lib/*" \
            site.ycsb.Client -t -db site.ycsb.db.RedisClient -P "$WL" "${common[@]}" "${mix[@]}" -p "operationcount=$OPS" \
            -p redis.host=127.0.0.1 -p "redis.port=$PORT" -threads "$n" >"$out" 2>&1
        ops=$(sed -n 's/^\[OVERALL\], Throughput(ops\/sec), //p' "$out") ;;
    goycsb)
        /usr/bin/time -f '%U %S' -o "$tm" "$REF/go-ycsb" run redis -P "$WL" "${common[@]}" "${mix[@]}" -p "operationcount=$OPS" \
            -p "redis.addr=$ADDR" -p redis.db=1 -p "threadcount=$n" >"$out" 2>&1
        ops=$(sed -n 's/^TOTAL .*OPS: \([0-9.]*\),.*/\1/p' "$out" | tail -1) ;;
    redis-benchmark)
        local v cmd
        v=$(printf 'y%.0s' $(seq 100))
        cmd=(HGETALL 'bench:__rand_int__')
        [[ "$case" == update ]] && cmd=(HSET 'bench:__rand_int__' field0 "$v")
        /usr/bin/time -f '%U %S' -o "$tm" redis-benchmark -h 127.0.0.1 -p "$PORT" -c "$n" -n "$OPS" -r "$RECORDS" -q "${cmd[@]}" >"$out" 2>&1
        ops=$(tr '\r' '\n' <"$out" | sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1) ;;
    esac
    [[ -n "$ops" ]] || { cat "$out" >&2; die "$tool $case $n: no throughput in its output"; }
    awk -v ops="$ops" '{ printf "%.0f %.3f\n", ops, $1 + $2 }' "$tm"
}

# measure TOOL CASE THREADS: prints "ops_per_s cpu_us_per_op", the CPU of
# the tool's one-operation run at THREADS taken off.
measure() {
    local base=$W/base-$1-$3
    [[ -f "$base" ]] || run "$1" read "$3" 1 | awk '{ print $2 }' >"$base"
    run "$1" "$2" "$3" | awk -v b="$(cat "$base")" -v n="$OPS" '{ printf "%s %.1f\n", $1, ($2 - b) * 1e6 / (n - 1) }'
}

load
results="$W/results"
: >"$results"
read -r -a tools <<<"$TOOLS"
for ((r = 0; r < ROUNDS; r++)); do
    for case in read update; do
        for n in $THREADS; do
            for ((i = 0; i < ${#tools[@]}; i++)); do
                t=${tools[$(((i + r) % ${#tools[@]}))]}
                res=$(measure "$t" "$case" "$n")
                say "round $((r + 1)) $case $n in flight $t: $res (op/s, client µs/op)"
                echo "$case $n $t $res" >>"$results"
            done
        done
    done
done

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $RECORDS records, $OPS operations per run, median of $ROUNDS rounds"
printf '| case | in flight |'
for t in "${tools[@]}"; do printf ' %s op/s | %s µs/op |' "$t" "$t"; done
echo
printf '|---|---|'
for _ in "${tools[@]}"; do printf -- '---|---|'; done
echo
for case in read update; do
    for n in $THREADS; do
        printf '| %s | %s |' "$case" "$n"
        for t in "${tools[@]}"; do
            o=$(awk -v c="$case" -v n="$n" -v t="$t" '$1 == c && $2 == n && $3 == t { print $4 }' "$results" | median)
            u=$(awk -v c="$case" -v n="$n" -v t="$t" '$1 == c && $2 == n && $3 == t { print $5 }' "$results" | median)
            printf ' %s | %s |' "$o" "$u"
        done
        echo
    done
done
