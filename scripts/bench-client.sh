#!/usr/bin/env bash
# Client-side speed of the engine with the no-op basic binding: the figures
# of the core's speed goals. Prints throughput and operations per CPU-second
# (user+sys of the whole process) for each case, best of RUNS runs.
# With REFERENCE=1 it runs the reference YCSB 0.17.0 (scripts/reference-ycsb.sh,
# basicdb.verbose=false) on the same cases too: VM speed drifts, the ratio
# between the two tools measured minutes apart does much less.
#
# Usage: scripts/bench-client.sh   (RUNS=3 OPS=10000000 REFERENCE=0 by default;
#        YCSB=path/to/ycsb measures that binary instead of building bin/ycsb)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
OPS=${OPS:-10000000}
REFERENCE=${REFERENCE:-0}
YCSB=${YCSB:-}
if [[ -z $YCSB ]]; then
    go build -o bin/ycsb ./cmd/ycsb
    YCSB=bin/ycsb
fi

# bench name threads workload client...
bench() {
    local name=$1 threads=$2 workload=$3
    shift 3
    local best_tp=0 best_cpu=0
    for _ in $(seq "$RUNS"); do
        local tmp tpline
        tmp=$(mktemp)
        tpline=$(/usr/bin/time -f "%U %S" -o "$tmp" "$@" -P "workloads/$workload" -p recordcount=100000 \
            -p operationcount="$OPS" -p requestdistribution=zipfian -threads "$threads" 2>/dev/null | grep '^\[OVERALL\], Throughput')
        local out
        out="CPU $(tail -1 "$tmp")"$'\n'"$tpline"
        rm -f "$tmp"
        local cpu tp
        cpu=$(echo "$out" | awk '/^CPU/ {printf "%.0f", '"$OPS"' / ($2 + $3)}')
        tp=$(echo "$out" | awk -F', ' '/Throughput/ {printf "%.0f", $3}')
        (( tp > best_tp )) && best_tp=$tp
        (( cpu > best_cpu )) && best_cpu=$cpu
    done
    printf "%-40s %12s ops/s %12s ops/CPU-s\n" "$name" "$best_tp" "$best_cpu"
}

ours=("$YCSB" run basic)
reference=(scripts/reference-ycsb.sh client -t -db site.ycsb.BasicDB -p basicdb.verbose=false)
if [[ $REFERENCE == 1 ]]; then
    scripts/reference-ycsb.sh fetch >/dev/null
fi

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "workloada, 1 thread:1:workloada" "workloadc, 1 thread:1:workloadc" "workloada, 2 threads:2:workloada"; do
    IFS=: read -r name threads workload <<<"$c"
    bench "$name" "$threads" "$workload" "${ours[@]}"
    if [[ $REFERENCE == 1 ]]; then
        bench "$name (reference)" "$threads" "$workload" "${reference[@]}"
    fi
done
