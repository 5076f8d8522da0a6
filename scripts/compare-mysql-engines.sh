#!/usr/bin/env bash
# compare-mysql-engines.sh: run the same YCSB workloads on InnoDB and MyRocks
# in one MariaDB (a table on each engine), and print them side by side:
# throughput, p50/p95/p99 per operation, errors, and each engine's own
# statistics over the phase ([ENGINE] rows: InnoDB's buffer pool hit rate
# and disk reads, MyRocks' block cache hit rate, flush and compaction
# bytes; the log or WAL bytes), the table's size, and how long settling
# the load took (mysql.settle: InnoDB's FLUSH TABLES ... FOR EXPORT,
# MyRocks' memtable flush and full compaction), as compare-engines.sh
# settles the embedded engines after their load.
#
# Usage: scripts/compare-mysql-engines.sh [-p name=value]...
#   Every -p is passed to every load and run, on both engines.
#
# Environment (defaults):
#   RECORDCOUNT=100000  OPERATIONCOUNT=100000  THREADS=4
#   WORKLOADS="a b c d e f"   workloads/workload<x> run in this order after one load
#   ENGINES="innodb rocksdb"
#   URL=mysql://ycsb:ycsb@127.0.0.1:3306/ycsb   the server (scripts/mariadb.sh start)
#   TABLE=usertable           each engine gets TABLE_<engine>, dropped and created at load
#   OUT=<temporary dir>       where the reports are kept
#   YCSB=<path>               binary to use; default: build ./cmd/ycsb
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/compare-common.sh
. scripts/compare-common.sh

RECORDCOUNT=${RECORDCOUNT:-100000}
OPERATIONCOUNT=${OPERATIONCOUNT:-100000}
THREADS=${THREADS:-4}
WORKLOADS=${WORKLOADS:-"a b c d e f"}
ENGINES=${ENGINES:-"innodb rocksdb"}
URL=${URL:-mysql://ycsb:ycsb@127.0.0.1:3306/ycsb}
TABLE=${TABLE:-usertable}

die() { echo "compare-mysql-engines: $*" >&2; exit 2; }
p_args compare-mysql-engines "$@"
for e in $ENGINES; do
	case "$e" in innodb | rocksdb) ;; *) die "ENGINES: $e: want innodb and/or rocksdb" ;; esac
done
for w in $WORKLOADS; do
	[ -f "workloads/workload$w" ] || die "no workloads/workload$w"
done
[[ "$TABLE" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "TABLE=$TABLE: want a plain table name"
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/compare-mysql-engines.XXXXXX")}
mkdir -p "$OUT"
if [ -z "${YCSB:-}" ]; then
	YCSB="$OUT/ycsb"
	echo "building $YCSB ..." >&2
	go build -o "$YCSB" ./cmd/ycsb
fi

# The table shows p50 beside p95 and p99 (0.17.0 reports only the latter by default).
common=(-threads "$THREADS" -p db.url="$URL" -p recordcount="$RECORDCOUNT" -p operationcount="$OPERATIONCOUNT"
	-p hdrhistogram.percentiles=50,95,99)
phases="load"
for w in $WORKLOADS; do phases="$phases $w"; done

# load ENGINE NAME: a fresh table on ENGINE, loaded and settled; NAME names
# its report.
load() {
	local e=$1 name=$2 t="${TABLE}_$1"
	echo "$e: load ($RECORDCOUNT records) into $t, settled" >&2
	scripts/mariadb.sh sql -e "DROP TABLE IF EXISTS $t" >/dev/null
	"$YCSB" load mariadb -P workloads/workloada "${common[@]}" -p table="$t" -p mysql.storage_engine="$e" \
		-p mysql.settle=true -p batch.size=100 -p report.json="$OUT/$e-$name.json" "${extra[@]}" \
		>"$OUT/$e-$name.txt" 2>"$OUT/$e-$name.err" ||
		{ echo "compare-mysql-engines: $e load failed:" >&2; tail -3 "$OUT/$e-$name.err" >&2; exit 1; }
	scripts/mariadb.sh sql -N -e "ANALYZE TABLE $t" >/dev/null 2>&1 || true
	scripts/mariadb.sh sql -N -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES
		WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '$t'" >"$OUT/$e-$name-size.txt"
}

for e in $ENGINES; do
	t="${TABLE}_$e"
	load "$e" load
	inserted=""
	for w in $WORKLOADS; do
		# Workloads D and E insert the same keys (from recordcount on): the
		# second of them gets the table as loaded, as the reference's
		# documentation asks (a load before E).
		if [[ ($w == d || $w == e) && -n "$inserted" ]]; then load "$e" "reload-$w"; fi
		[[ $w == d || $w == e ]] && inserted=1
		echo "$e: run workload$w ($OPERATIONCOUNT operations)" >&2
		"$YCSB" run mariadb -P "workloads/workload$w" "${common[@]}" -p table="$t" -p mysql.storage_engine="$e" \
			-p report.json="$OUT/$e-$w.json" "${extra[@]}" >"$OUT/$e-$w.txt" 2>"$OUT/$e-$w.err" ||
			{ echo "compare-mysql-engines: $e workload$w failed:" >&2; tail -3 "$OUT/$e-$w.err" >&2; exit 1; }
	done
done

# report FILE prints "key<TAB>value" rows for one report.
report() {
	awk -F', ' '
	$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" { printf "throughput(ops/s)\t%.0f\n", $3 }
	$1 == "[ENGINE]" && $2 == "BufferPoolHitRate(%)" { printf "buffer-pool hit(%%)\t%s\n", $3 }
	$1 == "[ENGINE]" && $2 == "BufferPoolDiskReads" { printf "buffer-pool disk reads\t%s\n", $3 }
	$1 == "[ENGINE]" && $2 == "BlockCacheHitRate(%)" { printf "block-cache hit(%%)\t%s\n", $3 }
	$1 == "[ENGINE]" && $2 == "BlockCacheMisses" { printf "block-cache misses\t%s\n", $3 }
	$1 == "[ENGINE]" && $2 == "LogBytesWritten" { printf "log/WAL written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "WALBytesWritten" { printf "log/WAL written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "DataBytesWritten" { printf "data written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "FlushBytesWritten" { printf "flush written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "CompactionBytesWritten" { printf "compaction written(MiB)\t%.1f\n", $3 / 1048576 }
	$1 == "[ENGINE]" && $2 == "SettleTime(ms)" { printf "settle(s)\t%.1f\n", $3 / 1000 }
	'"$OPS_AWK"'
	END {
		'"$OPS_AWK_END"'
	}' "$1"
	if [ -f "${1%.txt}-size.txt" ]; then
		printf 'table size(MiB)\t%s\n' "$(awk '{ printf "%.1f", $1 / 1048576 }' "${1%.txt}-size.txt")"
	fi
}

set -- $ENGINES
printf '\nrecordcount=%s operationcount=%s threads=%s %s\n' "$RECORDCOUNT" "$OPERATIONCOUNT" "$THREADS" "${extra[*]:-}"
engine_table "$phases" "$@"
printf '\nreports: %s\n' "$OUT"
