#!/usr/bin/env bash
# Peak resident memory of the client with the no-op basic binding, by thread
# count: what each worker costs before the database does (issue 12 asked for
# 1,000 threads of workload A under 150 MB and 4,000 under 400 MB).
#
# The load inserts OPS records, so that every thread has one to insert (a
# load caps the threads at the record count); the run does OPS operations of
# workload A on RECORDS records. Peak RSS is GNU time's "Maximum resident
# set size", or the process's VmHWM from /proc when /usr/bin/time is missing.
# A binary the linker has just written showed some 9 MiB more resident text
# than a cp of it on the development VM: to compare two builds, measure a
# copy of each (YCSB=...).
#
# Usage: scripts/bench-memory.sh   (THREADS="1 1000 4000" OPS=100000 RECORDS=1000 by default;
#        YCSB=path/to/ycsb measures that binary instead of building bin/ycsb)
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-1 1000 4000}
OPS=${OPS:-100000}
RECORDS=${RECORDS:-1000}
YCSB=${YCSB:-}
if [[ -z $YCSB ]]; then
    go build -o bin/ycsb ./cmd/ycsb
    YCSB=bin/ycsb
fi

# peak_kib command...: runs command, its output discarded, and prints its
# peak RSS in KiB.
peak_kib() {
    if [[ -x /usr/bin/time ]]; then
        local tmp
        tmp=$(mktemp)
        if ! /usr/bin/time -f %M -o "$tmp" "$@" >/dev/null 2>&1; then
            rm -f "$tmp"
            echo "bench-memory: failed: $*" >&2
            return 1
        fi
        tail -1 "$tmp"
        rm -f "$tmp"
        return
    fi
    "$@" >/dev/null 2>&1 &
    local pid=$! hwm=0 v
    while v=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [[ -n $v ]]; do
        hwm=$v
        sleep 0.02
    done
    if ! wait "$pid"; then
        echo "bench-memory: failed: $*" >&2
        return 1
    fi
    echo "$hwm"
}

mib() { awk -v k="$1" 'BEGIN {printf "%.0f", k / 1024}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%8s %14s %14s\n" threads "load peak MiB" "run peak MiB"
for t in $THREADS; do
    load=$(peak_kib "$YCSB" load basic -P workloads/workloada -p recordcount="$OPS" -threads "$t")
    run=$(peak_kib "$YCSB" run basic -P workloads/workloada -p recordcount="$RECORDS" -p operationcount="$OPS" -threads "$t")
    printf "%8s %14s %14s\n" "$t" "$(mib "$load")" "$(mib "$run")"
done
