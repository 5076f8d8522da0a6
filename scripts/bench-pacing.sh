#!/usr/bin/env bash
# The client's own timing in paced runs (-target), beside the reference YCSB
# 0.17.0's (scripts/reference-ycsb.sh, BasicDB with basicdb.verbose=false):
# with the no-op basic binding every microsecond of intended latency is the
# client's, its wake-ups late and its threads waiting for a CPU. Both tools
# run workload C with measurement.interval=both and
# hdrhistogram.percentiles=50,99, operationcount = target × DURATION (about
# DURATION seconds a run), alternately (ours, reference, ours, ...), RUNS
# rounds, each tool a process of its own under GNU time.
#
# For each run it prints the [Intended-READ] p50 and p99 (from the intended
# start: what a user of the paced system waits), the [READ] p99 (service
# time), the throughput (the tool's own [OVERALL] figure: its run time
# includes starting the threads, a 50 ms tick's random start delay in the
# reference at 1,000 threads), the CPU per operation (user+sys of the whole
# process over its READ operations: the JVM's start, JIT and GC threads
# count too), the CPU ratio ours/reference of that round (on the
# reference's row), the peak RSS (ours runs a copy of its binary, see below)
# and for ours the [SCHEDULE] wake-up lateness p50 and p99 (the reference
# reports none: "-"). Then per case the median of each tool's runs and the
# ratios ours/reference of the medians ("-" where the reference's is 0).
# One markdown table, aligned; a reference run that fails is a "failed" row
# and leaves the medians. The machine's load skews every figure: a load
# average above 1 at the start is warned about.
#
# Cases (CASES="4:1000 16:20000 1000:20000", threads:target ops/s):
#   4 threads at 1,000 ops/s, 16 at 20,000, and 1,000 threads at 20,000
#   (a thousand sleeping workers: the peak RSS column is the one to read).
#
# Usage: scripts/bench-pacing.sh   (DURATION=10 RUNS=2 CASES="..." by default;
#        YCSB=path/to/ycsb measures that binary instead of building bin/ycsb;
#        YCSB_CACHE as scripts/reference-ycsb.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
RUNS=${RUNS:-2}
CASES=${CASES:-4:1000 16:20000 1000:20000}
YCSB=${YCSB:-}

# Every setting checked before anything is built or run.
[[ -x /usr/bin/time ]] || { echo "bench-pacing: needs GNU time at /usr/bin/time" >&2; exit 2; }
[[ $DURATION =~ ^[1-9][0-9]{0,4}$ ]] || { echo "bench-pacing: DURATION=$DURATION: want whole seconds, 1 to 99999" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]{0,2}$ ]] || { echo "bench-pacing: RUNS=$RUNS: want 1 to 999" >&2; exit 2; }
for c in $CASES; do
    [[ $c =~ ^[1-9][0-9]{0,4}:[1-9][0-9]{0,7}$ ]] ||
        { echo "bench-pacing: CASES: \"$c\": want threads:target, e.g. 16:20000" >&2; exit 2; }
done
[[ -n ${CASES// /} ]] || { echo "bench-pacing: CASES is empty" >&2; exit 2; }
[[ -z $YCSB || -x $YCSB ]] || { echo "bench-pacing: YCSB=$YCSB: not an executable file" >&2; exit 2; }

if [[ -z $YCSB ]]; then
    go build -o bin/ycsb ./cmd/ycsb
    YCSB=bin/ycsb
fi
scripts/reference-ycsb.sh fetch >/dev/null
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
# A binary the linker has just written runs with some 9 MiB more resident
# than a copy of it (scripts/bench-memory.sh): the runs use a copy, so that
# the peak RSS does not depend on how recently the binary was built.
cp "$YCSB" "$W/ycsb"
YCSB=$W/ycsb

props=(-P workloads/workloadc -p measurement.interval=both -p "hdrhistogram.percentiles=50,99")
ours=("$YCSB" run basic)
reference=(scripts/reference-ycsb.sh client -t -db site.ycsb.BasicDB -p basicdb.verbose=false)

# row_of log time: a run's figures from its report and GNU time's
# "%U %S %M", tab-separated: intended p50, intended p99, READ p99, op/s,
# CPU µs/op, peak RSS MiB, wake p50, wake p99 ("-" where the report has no
# [SCHEDULE] rows); nothing when the report lacks a row.
row_of() {
    awk -F', ' -v t="$(tail -1 "$2")" '
        { v[$1 "," $2] = $3 }
        END {
            split(t, tm, " ")
            n = v["[READ],Operations"]
            ip50 = v["[Intended-READ],50thPercentileLatency(us)"]
            ip99 = v["[Intended-READ],99thPercentileLatency(us)"]
            rp99 = v["[READ],99thPercentileLatency(us)"]
            tp = v["[OVERALL],Throughput(ops/sec)"]
            if (n == "" || n + 0 == 0 || ip50 == "" || ip99 == "" || rp99 == "" || tp == "" || tm[3] == "") exit
            w50 = v["[SCHEDULE],50thPercentileWakeLateness(us)"]
            w99 = v["[SCHEDULE],99thPercentileWakeLateness(us)"]
            printf "%s\t%s\t%s\t%.0f\t%.1f\t%.0f\t%s\t%s\n", ip50, ip99, rp99, tp,
                (tm[1] + tm[2]) * 1e6 / n, tm[3] / 1024, (w50 == "" ? "-" : w50), (w99 == "" ? "-" : w99)
        }' "$1"
}

# run_tool who threads target out: one run; prints its row_of, or nothing
# when it failed (its output's tail on stderr).
run_tool() {
    local who=$1 threads=$2 target=$3 out=$4 cmd rc=0
    if [[ $who == ours ]]; then cmd=("${ours[@]}"); else cmd=("${reference[@]}"); fi
    /usr/bin/time -f '%U %S %M' -o "$out.time" "${cmd[@]}" "${props[@]}" -threads "$threads" -target "$target" \
        -p operationcount=$((target * DURATION)) >"$out.log" 2>"$out.err" || rc=$?
    if (( rc == 0 )); then
        local row
        row=$(row_of "$out.log" "$out.time")
        if [[ -n $row ]]; then echo "$row"; return; fi
        echo "bench-pacing: $who $threads:$target: rows missing from its report" >&2
    else
        echo "bench-pacing: $who $threads:$target failed, exit status $rc" >&2
    fi
    tail -5 "$out.err" >&2
}

# median fmt: of the figures on stdin, one a line, "-" skipped, printed with
# fmt; "-" when none.
median() {
    awk '$1 != "-"' | sort -n | awk -v f="$1" '{a[NR] = $1}
        END {if (NR == 0) print "-"; else printf f "\n", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
# ratio a b: a / b to two places, or "-" when b is 0 or either is missing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $load, ${DURATION}s runs, $RUNS rounds, workload C, basic binding"
if awk -v l="${load%% *}" 'BEGIN { exit !(l > 1) }'; then
    echo "# warning: load average ${load%% *} is above 1: other processes share the cores, the figures are skewed"
fi

T=$W/table # tab-separated rows, aligned at the end
printf 'case\ttool\trun\tIntended-READ p50 us\tIntended-READ p99 us\tREAD p99 us\top/s\tCPU us/op\tCPU ours/ref\tpeak RSS MiB\twake p50 us\twake p99 us\n' >"$T"
for c in $CASES; do
    IFS=: read -r threads target <<<"$c"
    name="$threads thr, $target/s"
    for r in $(seq "$RUNS"); do
        ours_cpu=-
        for who in ours reference; do
            echo "bench-pacing: $name, $who, run $r" >&2
            row=$(run_tool "$who" "$threads" "$target" "$W/$threads-$target-$who-$r")
            if [[ -z $row ]]; then
                [[ $who == ours ]] && exit 1 # the subject of the benchmark is broken
                printf '%s\t%s\t%s\tfailed\t-\t-\t-\t-\t-\t-\t-\t-\n' "$name" "$who" "$r" >>"$T"
                continue
            fi
            echo "$row" >>"$W/$c-$who.all"
            IFS=$'\t' read -r ip50 ip99 rp99 tp cpu rss w50 w99 <<<"$row"
            if [[ $who == ours ]]; then
                ours_cpu=$cpu pair=-
            else
                pair=$(ratio "$ours_cpu" "$cpu")
            fi
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$who" "$r" \
                "$ip50" "$ip99" "$rp99" "$tp" "$cpu" "$pair" "$rss" "$w50" "$w99" >>"$T"
        done
    done
    declare -A med=()
    for who in ours reference; do
        for col in 1 2 3 4 5 6 7 8; do
            if [[ -s $W/$c-$who.all ]]; then
                fmt=%.10g
                [[ $col == 5 ]] && fmt=%.1f # CPU us/op, as in the runs' rows
                med[$who,$col]=$(cut -f$col "$W/$c-$who.all" | median "$fmt")
            else
                med[$who,$col]=-
            fi
        done
    done
    {
        printf '%s\tours\tmedian\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\t%s\n' "$name" \
            "${med[ours,1]}" "${med[ours,2]}" "${med[ours,3]}" "${med[ours,4]}" "${med[ours,5]}" \
            "${med[ours,6]}" "${med[ours,7]}" "${med[ours,8]}"
        printf '%s\treference\tmedian\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\n' "$name" \
            "${med[reference,1]}" "${med[reference,2]}" "${med[reference,3]}" "${med[reference,4]}" "${med[reference,5]}" \
            "$(ratio "${med[ours,5]}" "${med[reference,5]}")" "${med[reference,6]}"
        printf '%s\tours/ref\tratio\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\n' "$name" \
            "$(ratio "${med[ours,1]}" "${med[reference,1]}")" "$(ratio "${med[ours,2]}" "${med[reference,2]}")" \
            "$(ratio "${med[ours,3]}" "${med[reference,3]}")" "$(ratio "${med[ours,4]}" "${med[reference,4]}")" \
            "$(ratio "${med[ours,5]}" "${med[reference,5]}")" "$(ratio "${med[ours,5]}" "${med[reference,5]}")" \
            "$(ratio "${med[ours,6]}" "${med[reference,6]}")"
    } >>"$T"
done

# The table in markdown, every column padded to its widest cell: text
# columns to the left, figures to the right.
awk -F'\t' '
    { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } rows = NR; cols = NF }
    END {
        for (r = 1; r <= rows; r++) {
            line = "|"
            for (i = 1; i <= cols; i++) line = line sprintf(" %" (i <= 2 ? "-" : "") w[i] "s |", cell[r, i])
            print line
            if (r == 1) {
                line = "|"
                for (i = 1; i <= cols; i++) { d = sprintf("%" w[i] "s", ""); gsub(/ /, "-", d); line = line (i <= 2 ? ":" d "-|" : "-" d ":|") }
                print line
            }
        }
    }' "$T"
