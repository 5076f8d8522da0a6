#!/usr/bin/env bash
# compare-engines.sh: run the same YCSB workloads on each embedded engine
# with identical settings, and print a side-by-side table (throughput, the
# client's verdict, p50/p95/p99 per operation, errors, disk size, write
# amplification, block-cache hit rate, the compaction debt each run
# inherited and left, the time settling took) parsed from the text
# reports, and an HTML page with one chart per workload and one colour per
# engine (docs/engines.md).
#
# Usage: scripts/compare-engines.sh [-p name=value]...
#   Every -p is passed to every load and run, on every engine (for example
#   -p engine.sync=true or -p engine.compression=zstd).
#
# Environment (defaults):
#   RECORDCOUNT=100000  OPERATIONCOUNT=100000  THREADS=2
#   MAXTIME=15                 seconds a workload runs at most (maxexecutiontime): a run
#                              ends at OPERATIONCOUNT operations or MAXTIME, the first reached
#   WORKLOADS="a b c d e f"    workloads/workload<x>, each run after the one load
#   ENGINES="pebble rocksdb badger bbolt sqlite" the engines compared, in this order
#   STATE=snapshot             snapshot: every workload runs on a copy of the loaded (and,
#                              with SETTLE=load, settled) store, so that each starts from
#                              the same state; chain: the workloads run in order on one
#                              store, each inheriting what the ones before it left
#   DATADIR=ycsb-data/compare  each engine gets DATADIR/<engine> (emptied at load) and,
#                              with STATE=snapshot, DATADIR/<engine>.run for the copy
#   SETTLE=load                after which phases each engine settles (engine.settle=true:
#                              flush and compact until no compaction debt, docs/engines.md):
#                              load, all (every phase) or none
#   OUT=<temporary dir>        where the reports are kept
#   YCSB=<path>                binary to use; default: build ./cmd/ycsb with -tags rocksdb
#   CAPACITY_SLO=""            e.g. "READ.p99<=1ms": after the workloads, each engine's
#                              capacity at that objective (ycsb capacity), on
#                              workload$CAPACITY_WORKLOAD (default a) with
#                              CAPACITY_STEPTIME (default 10) seconds a step
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/compare-common.sh
. scripts/compare-common.sh

RECORDCOUNT=${RECORDCOUNT:-100000}
OPERATIONCOUNT=${OPERATIONCOUNT:-100000}
THREADS=${THREADS:-2}
MAXTIME=${MAXTIME:-15}
WORKLOADS=${WORKLOADS:-"a b c d e f"}
ENGINES=${ENGINES:-"pebble rocksdb badger bbolt sqlite"}
STATE=${STATE:-snapshot}
DATADIR=${DATADIR:-ycsb-data/compare}
SETTLE=${SETTLE:-load}

for v in RECORDCOUNT OPERATIONCOUNT THREADS MAXTIME; do
	[[ ${!v} =~ ^[1-9][0-9]{0,9}$ ]] || { echo "compare-engines: $v=${!v}: want a positive integer" >&2; exit 2; }
done
case "$SETTLE" in
load | all | none) ;;
*) echo "compare-engines: SETTLE=$SETTLE: want load, all or none" >&2; exit 2 ;;
esac
case "$STATE" in
snapshot | chain) ;;
*) echo "compare-engines: STATE=$STATE: want snapshot or chain" >&2; exit 2 ;;
esac
[ -n "${ENGINES// /}" ] || { echo "compare-engines: ENGINES is empty" >&2; exit 2; }
for e in $ENGINES; do
	[[ $e =~ ^[a-z0-9]+$ ]] || { echo "compare-engines: ENGINES: $e is not an engine name" >&2; exit 2; }
done
settle_load=() settle_run=()
[ "$SETTLE" = none ] || settle_load=(-p engine.settle=true)
[ "$SETTLE" != all ] || settle_run=(-p engine.settle=true)

p_args compare-engines "$@"

for w in $WORKLOADS; do
	[ -f "workloads/workload$w" ] || { echo "compare-engines: no workloads/workload$w" >&2; exit 2; }
done
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/compare-engines.XXXXXX")}

if [ -z "${YCSB:-}" ]; then
	YCSB="$OUT/ycsb"
	echo "building $YCSB with -tags rocksdb ..." >&2
	go build -tags rocksdb -o "$YCSB" ./cmd/ycsb
fi
mkdir -p "$OUT"

# The table shows p50 beside p95 and p99 (0.17.0 reports only the latter by default).
common=(-threads "$THREADS" -p recordcount="$RECORDCOUNT" -p hdrhistogram.percentiles=50,95,99)
# A workload's run ends at OPERATIONCOUNT operations or after MAXTIME seconds.
runlen=(-p operationcount="$OPERATIONCOUNT" -p maxexecutiontime="$MAXTIME")

phases="load"
nw=0
for w in $WORKLOADS; do phases="$phases $w"; nw=$((nw + 1)); done
set -- $ENGINES
printf 'compare-engines: %d engine(s) x (a load of %s records, settled: %s; %d workload(s) of at most %s s each, %s)\n' \
	"$#" "$RECORDCOUNT" "$SETTLE" "$nw" "$MAXTIME" "$([ "$STATE" = snapshot ] && echo "each on a copy of the loaded store" || echo "in order on one store")" >&2
started=$SECONDS

for e in $ENGINES; do
	dir="$DATADIR/$e"
	echo "$e: load ($RECORDCOUNT records) into $dir" >&2
	"$YCSB" load "$e" -P workloads/workloada "${common[@]}" -p engine.dir="$dir" -p engine.fresh=true \
		-p report.json="$OUT/$e-load.json" "${settle_load[@]}" "${extra[@]}" >"$OUT/$e-load.txt" 2>"$OUT/$e-load.err" ||
		{ echo "compare-engines: $e load failed:" >&2; tail -3 "$OUT/$e-load.err" >&2; exit 1; }
	for w in $WORKLOADS; do
		rdir=$dir
		if [ "$STATE" = snapshot ]; then
			# A copy of the closed store: every workload starts from the
			# state the load left, not from what the workloads before it
			# wrote or left to compact.
			rdir="$dir.run"
			rm -rf "$rdir"
			cp -a --reflink=auto "$dir" "$rdir"
		fi
		echo "$e: run workload$w (at most $OPERATIONCOUNT operations, $MAXTIME s) in $rdir" >&2
		"$YCSB" run "$e" -P "workloads/workload$w" "${common[@]}" "${runlen[@]}" -p engine.dir="$rdir" \
			-p report.json="$OUT/$e-$w.json" "${settle_run[@]}" "${extra[@]}" >"$OUT/$e-$w.txt" 2>"$OUT/$e-$w.err" ||
			{ echo "compare-engines: $e workload$w failed:" >&2; tail -3 "$OUT/$e-$w.err" >&2; exit 1; }
	done
	[ "$STATE" != snapshot ] || rm -rf "$dir.run"
done

# report FILE prints "key<TAB>value" rows for one report.
report() {
	awk -F', ' '
	$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" { printf "throughput(ops/s)\t%.0f\n", $3 }
	$1 == "[OVERALL]" && $2 == "RunTime(ms)" { printf "run time(s)\t%.1f\n", $3 / 1000 }
	# One row per limit the client ran into (CPU-BOUND, GC-PAUSES, ...).
	$1 == "[CLIENT]" && $2 == "Verdict" { verdict = verdict (verdict == "" ? "" : ", ") substr($0, index($0, "Verdict, ") + 9) }
	$1 == "[ENGINE]" && $2 == "MemtablesFlushed" { flushed = $3 }
	$1 == "[ENGINE]" && $2 == "LiveSSTableBytesAfterSettle" { live_after = $3 }
	$1 == "[ENGINE]" && $2 == "DiskSizeAfterSettle(bytes)" { disk_after = $3 }
	$1 == "[ENGINE]" && $2 == "DiskSize(bytes)" { printf "disk(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "WriteAmplification" { printf "write-amp\t%s\n", $3 }
	$1 == "[ENGINE]" && $2 == "BlockCacheHitRate(%)" { hit = $3 }
	$1 == "[ENGINE]" && $2 == "BlockCacheDataHitRate(%)" { datahit = $3 }
	$1 == "[ENGINE]" && $2 == "CompactionBytesWritten" { printf "compaction written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 ~ /(AtStart|AtEnd|AfterSettle)$/ {
		when = substr($2, match($2, /(AtStart|AtEnd|AfterSettle)$/))
		k = substr($2, 1, length($2) - length(when))
		debt[when, k] = $3; debts[when] = 1
	}
	$1 == "[ENGINE]" && $2 == "SettleTime(ms)" { settle = sprintf("%.1f", $3 / 1000) }
	$1 == "[ENGINE]" && $2 == "Settled" { settled = $3 }
	'"$OPS_AWK"'
	END {
		# Every kind of block on both engines; data blocks alone where the
		# engine counts them apart (RocksDB).
		if (verdict != "") printf "verdict\t%s\n", verdict
		if (hit != "") printf "cache-hit(%%)\t%s\n", hit
		if (hit != "") printf "cache-hit data blocks(%%)\t%s\n", (datahit == "" ? "-" : datahit)
		# Compaction debt: pending MiB / L0 files / L0 sublevels / running compactions.
		m = split("AtStart AtEnd AfterSettle", whens, " ")
		for (i = 1; i <= m; i++) {
			w = whens[i]
			if (!(w in debts)) continue
			printf "debt %s(pendMiB/L0files/subl/running)\t%.0f/%s/%s/%s\n", (w == "AtStart" ? "inherited" : w == "AtEnd" ? "left" : "after settling"),
				debt[w, "PendingCompactionBytes"] / 1048576, debt[w, "L0Files"], debt[w, "L0Sublevels"], debt[w, "RunningCompactions"]
		}
		if (settle != "") printf "settle(s)\t%s%s\n", settle, (settled == 1 ? "" : " (gave up)")
		# The state the next phase opens: flushed and settled, or not.
		if (flushed == "0") printf "state left\tnot flushed\n"
		else if (flushed == "1") printf "state left (tables/disk MiB)\tsettled %.1f/%.1f\n", live_after / 1048576, disk_after / 1048576
		'"$OPS_AWK_END"'
	}' "$1"
}

set -- $ENGINES
printf '\nrecordcount=%s operationcount=%s maxtime=%ss threads=%s state=%s settle=%s %s (took %d s)\n' "$RECORDCOUNT" "$OPERATIONCOUNT" "$MAXTIME" "$THREADS" \
	"$STATE" "$SETTLE" "${extra[*]:-}" $((SECONDS - started))
engine_table "$phases" "$@"

pages=()
for e in "$@"; do
	for ph in $phases; do
		g=$ph
		[ "$ph" = load ] || g="workload$ph"
		pages+=("$e $g=$OUT/$e-$ph.json")
	done
done
"$YCSB" report --html -groups -o "$OUT/engines.html" -title "$(echo $ENGINES | sed 's/ /, /g'): recordcount=$RECORDCOUNT, threads=$THREADS, $STATE" "${pages[@]}" >/dev/null &&
	printf '\npage: %s\n' "$OUT/engines.html"

if [ -n "${CAPACITY_SLO:-}" ]; then
	cw=${CAPACITY_WORKLOAD:-a}
	for e in "$@"; do
		echo "$e: capacity at $CAPACITY_SLO on workload$cw" >&2
		"$YCSB" capacity "$e" -P "workloads/workload$cw" "${common[@]}" -p engine.dir="$DATADIR/$e" \
			-p slo="$CAPACITY_SLO" -p capacity.steptime="${CAPACITY_STEPTIME:-10}" -p report.json="$OUT/$e-capacity.json" \
			"${extra[@]}" >"$OUT/$e-capacity.txt" 2>"$OUT/$e-capacity.err" ||
			{ echo "compare-engines: $e capacity failed:" >&2; tail -3 "$OUT/$e-capacity.err" >&2; exit 1; }
	done
	printf '\ncapacity at %s, workload%s\n' "$CAPACITY_SLO" "$cw"
	{
		printf 'engine\tmax(ops/s)\tachieved(ops/s)\tfirst failing(ops/s)\tsteps\tlimit\n'
		for e in "$@"; do
			awk -F', ' -v e="$e" '
			$1 == "[CAPACITY]" && $2 == "MaxThroughput(ops/sec)" { max = $3 }
			$1 == "[CAPACITY]" && $2 == "AchievedThroughput(ops/sec)" { ach = $3 }
			$1 == "[CAPACITY]" && $2 == "FirstFailing(ops/sec)" { ff = $3 }
			$1 == "[CAPACITY]" && $2 ~ /^Step / { n++ }
			$1 == "[CAPACITY]" && $2 == "Limit" { lim = substr($0, index($0, "Limit, ") + 7) }
			END { printf "%s\t%.0f\t%.0f\t%s\t%d\t%s\n", e, max, ach, (ff == "" ? "-" : sprintf("%.0f", ff)), n, lim }' "$OUT/$e-capacity.txt"
		done
	} | column -t -s $'\t'
	pages=()
	for e in "$@"; do pages+=("$e=$OUT/$e-capacity.json"); done
	"$YCSB" report --html -o "$OUT/capacity.html" -title "capacity at $CAPACITY_SLO, workload$cw" "${pages[@]}" >/dev/null &&
		printf 'chart: %s\n' "$OUT/capacity.html"
fi
printf '\nreports: %s\n' "$OUT"
