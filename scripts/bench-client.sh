#!/usr/bin/env bash
# Client-side speed of the engine with the no-op basic binding: the figures
# of the core's speed goals. Prints throughput and operations per CPU-second
# (user+sys of the whole process) for each case, best of RUNS runs.
#
# Usage: scripts/bench-client.sh   (RUNS=3 OPS=10000000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
OPS=${OPS:-10000000}
go build -o bin/ycsb ./cmd/ycsb

bench() { # name threads workload
    local best_tp=0 best_cpu=0
    for _ in $(seq "$RUNS"); do
        local tmp tpline
        tmp=$(mktemp)
        tpline=$(/usr/bin/time -f "%U %S" -o "$tmp" bin/ycsb run basic -P "workloads/$3" -p recordcount=100000 \
            -p operationcount="$OPS" -p requestdistribution=zipfian -threads "$2" 2>/dev/null | grep 'Throughput')
        local out
        out="CPU $(tail -1 "$tmp")"$'\n'"$tpline"
        rm -f "$tmp"
        local cpu tp
        cpu=$(echo "$out" | awk '/^CPU/ {printf "%.0f", '"$OPS"' / ($2 + $3)}')
        tp=$(echo "$out" | awk -F', ' '/Throughput/ {printf "%.0f", $3}')
        (( tp > best_tp )) && best_tp=$tp
        (( cpu > best_cpu )) && best_cpu=$cpu
    done
    printf "%-28s %12s ops/s %12s ops/CPU-s\n" "$1" "$best_tp" "$best_cpu"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
bench "workloada, 1 thread" 1 workloada
bench "workloadc, 1 thread" 1 workloadc
bench "workloada, 2 threads" 2 workloada
