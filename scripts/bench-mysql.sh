#!/usr/bin/env bash
# The mysql binding beside go-ycsb's mysql binding and the reference YCSB
# 0.17.0's jdbc binding (MariaDB Connector/J), in one sitting on the local
# MariaDB (scripts/mariadb.sh start), the tools run alternately on the same
# server and data. The server runs on the client's cores: on a shared
# machine compare the ratios, not one absolute figure.
#
# Cases:
#   read  point reads (workload C, uniform, all fields) of RECORDS ordered
#         keys (user0 ..: go-ycsb hashes keys its own way, so only ordered
#         keys are the same for the three), THREADS threads, OPS operations,
#         on a table loaded once
#   load  a batched load of RECORDS records into a fresh table, THREADS
#         threads, BATCH rows a batch: ours and the reference with
#         db.batchsize and jdbc.batchupdateapi (the reference's URL with
#         rewriteBatchedStatements=true, its multi-row rewrite), go-ycsb
#         with batch.size; every load's rows are counted in the table
#
# For each run: op/s (the tool's own figure), the client's CPU per
# operation (user+sys of the client process by GNU time, / operations: the
# JVM's JIT and GC threads count too) and the server's (mariadbd's
# /proc/<pid>/stat over the run). Each round rotates the tools' order; the
# summary is each tool's median and ours over theirs.
#
# Environment (defaults): RECORDS=100000 OPS=200000 THREADS=8 BATCH=100
#   ROUNDS=3 CASES="read load" URL host and port HOST=127.0.0.1 PORT=3306
#   DB=ycsb USER_NAME=ycsb PASSWORD=ycsb  REF_CACHE=~/.cache/ycsb-reference
#   (built by the reference tools' script: go-ycsb, javaycsb/lib, javaycsb/jdbc)
#   MARIADB_DIR=<repo>/.cache/mariadb (for the server's pid)  YCSB=<binary>
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-100000}
OPS=${OPS:-200000}
THREADS=${THREADS:-8}
BATCH=${BATCH:-100}
ROUNDS=${ROUNDS:-3}
CASES=${CASES:-"read load"}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-3306}
DB=${DB:-ycsb}
USER_NAME=${USER_NAME:-ycsb}
PASSWORD=${PASSWORD:-ycsb}
REF=${REF_CACHE:-$HOME/.cache/ycsb-reference}
MDIR=${MARIADB_DIR:-$PWD/.cache/mariadb}
JAR=/usr/share/java/mariadb-java-client.jar

die() { echo "bench-mysql: $*" >&2; exit 2; }
for n in RECORDS OPS THREADS BATCH ROUNDS; do
	[[ ${!n} =~ ^[1-9][0-9]{0,9}$ ]] || die "$n=${!n}: want a positive integer"
done
for c in $CASES; do case $c in read | load) ;; *) die "CASES: $c: want read and/or load" ;; esac; done
[[ -x $REF/go-ycsb && -d $REF/javaycsb/jdbc && -f $JAR ]] ||
	die "the reference tools are not built in $REF (go-ycsb, javaycsb/jdbc) or $JAR is missing"
[[ -x /usr/bin/time ]] || die "needs GNU time (/usr/bin/time)"
scripts/mariadb.sh status >/dev/null || die "no MariaDB on $HOST:$PORT (scripts/mariadb.sh start)"
OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench-mysql.XXXXXX")
if [[ -z ${YCSB:-} ]]; then
	YCSB=$OUT/ycsb
	go build -o "$YCSB" ./cmd/ycsb
fi

sql() { mariadb --no-defaults -h "$HOST" -P "$PORT" -u"$USER_NAME" -p"$PASSWORD" "$DB" -N -e "$1"; }
fresh() { # fresh TABLE: the reference's layout, empty
	sql "DROP TABLE IF EXISTS $1; CREATE TABLE $1 (YCSB_KEY VARCHAR(255) PRIMARY KEY,
		FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT, FIELD3 TEXT, FIELD4 TEXT, FIELD5 TEXT, FIELD6 TEXT, FIELD7 TEXT, FIELD8 TEXT, FIELD9 TEXT)"
}
server_ticks() { # mariadbd's user+system clock ticks so far
	awk '{ print $14 + $15 }' "/proc/$(cat "$MDIR/mariadb.pid")/stat"
}
TICK=$(getconf CLK_TCK)

jdbc_url="jdbc:mysql://$HOST:$PORT/$DB"
# command CASE TOOL TABLE: the tool's command line for the case.
command() {
	local c=$1 tool=$2 t=$3 phase=run
	local common=(-P workloads/workloadc -p table="$t" -p recordcount="$RECORDS" -p operationcount="$OPS"
		-p insertorder=ordered -p requestdistribution=uniform)
	[[ $c == load ]] && phase=load
	case $tool in
	ours)
		local b=()
		[[ $c == load ]] && b=(-p db.batchsize="$BATCH" -p jdbc.batchupdateapi=true)
		echo "$YCSB" "$phase" jdbc "${common[@]}" -p db.url="$jdbc_url" -p db.user="$USER_NAME" -p db.passwd="$PASSWORD" "${b[@]}" -threads "$THREADS"
		;;
	reference)
		local b=() url=$jdbc_url
		[[ $c == load ]] && b=(-p db.batchsize="$BATCH" -p jdbc.batchupdateapi=true) url="$jdbc_url?rewriteBatchedStatements=true"
		echo java -cp "$REF/javaycsb/lib/*:$REF/javaycsb/jdbc:$JAR" site.ycsb.Client "-${phase/run/t}" -db site.ycsb.db.JdbcDBClient \
			"${common[@]}" -p db.driver=org.mariadb.jdbc.Driver -p db.url="$url" -p db.user="$USER_NAME" -p db.passwd="$PASSWORD" "${b[@]}" -threads "$THREADS"
		;;
	go-ycsb)
		local b=()
		[[ $c == load ]] && b=(-p batch.size="$BATCH")
		echo "$REF/go-ycsb" "$phase" mysql "${common[@]}" -p mysql.host="$HOST" -p mysql.port="$PORT" -p mysql.user="$USER_NAME" \
			-p mysql.password="$PASSWORD" -p mysql.db="$DB" "${b[@]}" -p threadcount="$THREADS"
		;;
	esac
}

# ops FILE TOOL: operations done and the seconds they took, from the
# tool's output (go-ycsb's batched load: the run's time; its rows are
# counted in the table).
ops() {
	case $2 in
	go-ycsb) awk '/^READ +- Takes/ { for (i = 1; i <= NF; i++) { if ($i == "Count:") n = $(i + 1); if ($i == "Takes(s):") t = $(i + 1) } }
		/^Run finished, takes / { w = $4; if (w ~ /ms$/) w = w / 1000; else if (w ~ /µs$/) w = w / 1e6; else w = w + 0 }
		END { if (n == 0) t = w; printf "%d %.3f\n", n, t }' "$1" ;;
	*) awk -F', ' '$1 == "[OVERALL]" && $2 == "RunTime(ms)" { t = $3 / 1000 }
		($1 == "[READ]" || $1 == "[INSERT]") && $2 ~ /^Return=(OK|BATCHED_OK)$/ { n += $3 }
		END { printf "%d %.3f\n", n, t }' "$1" ;;
	esac
}

results=$OUT/results.txt
: >"$results"
tools=(ours go-ycsb reference)
for c in $CASES; do
	if [[ $c == read ]]; then
		echo "read: loading $RECORDS records into bench_read" >&2
		fresh bench_read
		"$YCSB" load jdbc -P workloads/workloadc -p table=bench_read -p recordcount="$RECORDS" -p insertorder=ordered \
			-p db.url="$jdbc_url" -p db.user="$USER_NAME" -p db.passwd="$PASSWORD" -p db.batchsize=1000 -p jdbc.batchupdateapi=true \
			-threads 4 >"$OUT/read-load.txt" 2>&1 || die "the read case's load failed: $(tail -3 "$OUT/read-load.txt")"
	fi
	for ((r = 0; r < ROUNDS; r++)); do
		for ((i = 0; i < ${#tools[@]}; i++)); do
			tool=${tools[$(((i + r) % ${#tools[@]}))]}
			t=bench_read
			if [[ $c == load ]]; then t=bench_load; fresh "$t"; fi
			log=$OUT/$c-$tool-$r.txt
			s0=$(server_ticks)
			# shellcheck disable=SC2046
			/usr/bin/time -f '%U %S' -o "$OUT/time" $(command "$c" "$tool" "$t") >"$log" 2>&1 ||
				die "$c $tool failed (log: $log)"
			s1=$(server_ticks)
			read -r n secs < <(ops "$log" "$tool")
			if [[ $c == load ]]; then
				# What is in the table is what the load did: go-ycsb's
				# batched load rounds each thread's share up to whole
				# batches and inserts more than recordcount.
				n=$(sql "SELECT COUNT(*) FROM $t")
				[[ $n == "$RECORDS" ]] || echo "bench-mysql: $tool's load left $n rows, not $RECORDS: counted as $n operations" >&2
			fi
			[[ $n -gt 0 ]] || die "$c $tool did no operation (log: $log)"
			rate=$(awk -v n="$n" -v t="$secs" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
			read -r u s <"$OUT/time"
			cpu=$(awk -v u="$u" -v s="$s" -v n="$n" 'BEGIN { printf "%.1f", (u + s) * 1e6 / n }')
			srv=$(awk -v d="$((s1 - s0))" -v hz="$TICK" -v n="$n" 'BEGIN { printf "%.1f", d / hz * 1e6 / n }')
			printf '%s %s round %d: %s op/s, client %s µs/op, server %s µs/op (%d operations)\n' "$c" "$tool" "$((r + 1))" "$rate" "$cpu" "$srv" "$n" >&2
			echo "$c $tool $rate $cpu $srv" >>"$results"
		done
	done
done
sql "DROP TABLE IF EXISTS bench_load"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
echo
echo "RECORDS=$RECORDS OPS=$OPS THREADS=$THREADS BATCH=$BATCH ROUNDS=$ROUNDS; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| case | tool | op/s | client µs/op | server µs/op | ours/theirs op/s | ours/theirs client CPU |"
echo "|---|---|---|---|---|---|---|"
for c in $CASES; do
	declare -A med=()
	for tool in "${tools[@]}"; do
		for k in 3 4 5; do med[$tool,$k]=$(awk -v c="$c" -v t="$tool" -v k="$k" '$1 == c && $2 == t { print $k }' "$results" | median); done
	done
	for tool in "${tools[@]}"; do
		ro=- rc=-
		if [[ $tool != ours ]]; then
			ro=$(awk -v a="${med[ours,3]}" -v b="${med[$tool,3]}" 'BEGIN { printf "%.2f", a / b }')
			rc=$(awk -v a="${med[ours,4]}" -v b="${med[$tool,4]}" 'BEGIN { printf "%.2f", a / b }')
		fi
		echo "| $c | $tool | ${med[$tool,3]} | ${med[$tool,4]} | ${med[$tool,5]} | $ro | $rc |"
	done
	unset med
done
echo
echo "logs: $OUT"
