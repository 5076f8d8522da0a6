#!/usr/bin/env bash
# report-example.sh: the README's example report. Loads the same data set
# into Pebble and RocksDB, runs workload A on each for a fixed time after a
# warm-up, and draws both runs on one HTML page with ycsb report --html;
# with chromium installed it also takes a PNG screenshot of the page.
#
# Usage: scripts/report-example.sh [-p name=value]...
#   Every -p is passed to every load and run, on both engines.
#
# Environment (defaults):
#   RECORDCOUNT=200000  THREADS=2  DURATION=20 (seconds measured)  WARMUP=5
#   WORKLOAD=a                 workloads/workload<x>
#   ENGINES="pebble rocksdb"
#   DATADIR=ycsb-data/report-example   each engine gets DATADIR/<engine>
#   OUT=ycsb-data/report-example/out   JSON reports, report.html, report.png
#   SCREENSHOT=<path>          also copy the PNG there (make report-example
#                              uses docs/img/report-example.png)
#   YCSB=<path>                binary to use; default: build ./cmd/ycsb with -tags rocksdb
set -euo pipefail

cd "$(dirname "$0")/.."

RECORDCOUNT=${RECORDCOUNT:-200000}
THREADS=${THREADS:-2}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-5}
WORKLOAD=${WORKLOAD:-a}
ENGINES=${ENGINES:-"pebble rocksdb"}
DATADIR=${DATADIR:-ycsb-data/report-example}
OUT=${OUT:-$DATADIR/out}
SCREENSHOT=${SCREENSHOT:-}

# shellcheck source=scripts/compare-common.sh
. scripts/compare-common.sh
p_args report-example "$@"
[ -f "workloads/workload$WORKLOAD" ] || { echo "report-example: no workloads/workload$WORKLOAD" >&2; exit 2; }
mkdir -p "$OUT"

if [ -z "${YCSB:-}" ]; then
	YCSB="$OUT/ycsb"
	echo "building $YCSB with -tags rocksdb ..." >&2
	go build -tags rocksdb -o "$YCSB" ./cmd/ycsb
fi

inputs=()
for e in $ENGINES; do
	dir="$DATADIR/$e"
	echo "$e: load $RECORDCOUNT records into $dir" >&2
	"$YCSB" load "$e" -P "workloads/workload$WORKLOAD" -threads "$THREADS" -p recordcount="$RECORDCOUNT" \
		-p engine.dir="$dir" -p engine.fresh=true -p report.json="$OUT/$e-load.json" "${extra[@]}" \
		>"$OUT/$e-load.txt" 2>"$OUT/$e-load.err" ||
		{ echo "report-example: $e load failed:" >&2; tail -3 "$OUT/$e-load.err" >&2; exit 1; }
	echo "$e: run workload$WORKLOAD for ${WARMUP}s warm-up + ${DURATION}s" >&2
	"$YCSB" run "$e" -P "workloads/workload$WORKLOAD" -threads "$THREADS" -p recordcount="$RECORDCOUNT" \
		-p operationcount=0 -p maxexecutiontime=$((WARMUP + DURATION)) -p warmup="$WARMUP" \
		-p report.interval=0.5 -p engine.dir="$dir" -p report.json="$OUT/$e-run.json" "${extra[@]}" \
		>"$OUT/$e-run.txt" 2>"$OUT/$e-run.err" ||
		{ echo "report-example: $e run failed:" >&2; tail -3 "$OUT/$e-run.err" >&2; exit 1; }
	inputs+=("$e=$OUT/$e-run.json")
done

"$YCSB" report --html -o "$OUT/report.html" \
	-title "YCSB workload $WORKLOAD: $(echo $ENGINES | sed 's/ / vs /g'), $RECORDCOUNT records, $THREADS threads" "${inputs[@]}"

browser=""
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null; then browser=$b; break; fi
done
if [ -n "$browser" ]; then
	profile=$(mktemp -d)
	"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars --window-size=1280,1900 \
		--virtual-time-budget=5000 --screenshot="$OUT/report.png" "file://$PWD/$OUT/report.html" 2>/dev/null
	rm -rf "$profile"
	echo "screenshot: $OUT/report.png" >&2
	if [ -n "$SCREENSHOT" ]; then
		mkdir -p "$(dirname "$SCREENSHOT")"
		cp "$OUT/report.png" "$SCREENSHOT"
		echo "copied to $SCREENSHOT" >&2
	fi
else
	echo "report-example: no chromium: no screenshot (apt-get install -y chromium)" >&2
fi
echo "report: $OUT/report.html" >&2
