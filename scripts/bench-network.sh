#!/usr/bin/env bash
# The network bindings' speed beside the reference YCSB 0.17.0's and latte's,
# in one sitting: PostgreSQL (jdbc binding against pgjdbc) and Cassandra
# (cassandra-cql against the DataStax driver 3.0.0, and against latte 0.29, a
# Rust Cassandra benchmark and the most CPU-efficient client; the stress mode
# against latte too), the tools run alternately on the same server and data.
# The machine is shared and the server runs on the same cores: compare the
# ratios, not one absolute figure.
#
# For each run it prints op/s, the client's CPU per operation (user+sys of
# the client process, GNU time: the JVM's JIT and GC threads count too) and
# the server's CPU per operation over the run (from /proc/<pid>/stat: the
# postmaster with its live and exited children, or the Cassandra JVM). Then
# one line per case with the median of the rounds and the ratios, ours over
# the reference's and ours over latte's (CPU ratio: ours µs/op / theirs).
# Each round rotates the order of the tools. The summary table keeps its
# ours and reference columns first; when a case has latte it adds those of
# ours-stress and latte and the ratios ours/latte and ours-stress/latte.
#
# Cases (SUITES="pg cassandra latte" by default):
#   pg-read    point reads of 100,000 ordered keys, uniform, 8 threads
#   pg-a       workload A (zipfian), 8 threads
#   pg-load    load of 100,000 records, db.batchsize=128 and
#              reWriteBatchedInserts, 8 threads
#   cass-c16   workload C, 50,000 records, uniform, 16 threads (and cass-c64)
#   cass-a16   workload A (zipfian), 16 threads (and cass-a64)
#   lat-read1  point reads of one small row, 1 request in flight (and
#              lat-read16, lat-read128: 16 and 128 in flight; lat-read64 on
#              demand)
#   lat-write1 writes of one small row, 1 in flight (and lat-write16, -128;
#              lat-write64 on demand)
#
# Tools, each run as its own process under /usr/bin/time:
#   ours         bin/ycsb with the jdbc or cassandra-cql binding (threads =
#                requests in flight)
#   reference    the reference YCSB (pg-*, cass-*)
#   ours-stress  `ycsb stress user` with scripts/latte/latte-basic.yaml on
#                latte's own table when latte runs, else with
#                scripts/latte/basic.yaml (lat-*)
#   ours-pre     `ycsb stress read` / `write`, the predefined commands, on
#                rows of one 8-byte column (-col n=fixed(1) size=fixed(8),
#                keyspace ycsb_latte_pre, 100,000 keys, drawn uniformly)
#                (lat-*)
#   latte        `latte run W.rn -d DURATIONs -p N -q` (-t 1, its default:
#                one runtime thread; -p N requests in flight), run in a
#                temporary directory (it writes its report into the cwd);
#                its operation count is the Requests line of its summary
#                (cass-*, lat-*)
# The cass-* cases read keyspace ycsb_bench, 50,000 rows of 10 100-byte
# fields loaded by ours with insertorder=ordered (keys user0 .. user49999),
# which latte reads with scripts/latte/ycsb-c.rn and ycsb-a.rn (keys drawn
# uniformly, by hash of the cycle, in both; A's updates set field0 to 100
# characters). The lat-* cases use latte's workloads/basic: read.rn (reads
# of latte.basic, id bigint PRIMARY KEY, 100,000 ids) and write.rn (inserts
# of one id); ours reads and updates one 8-byte field of keyspace
# ycsb_small (100,000 rows, fieldcount=1, fieldlength=8, uniform), and
# ours-stress reads and upserts latte.basic itself when latte runs
# (scripts/latte/latte-basic.yaml), otherwise the table of
# scripts/latte/basic.yaml (ycsb_latte_basic.basic, shaped as latte.basic:
# 100,000 seeds loaded in sequence, drawn uniformly by the runs; the id
# population uniform(1..100000) maps them to about 44,000 distinct ids).
# Cassandra writes are upserts: an update of an existing row is the work of
# latte's insert. Each lat-* table is loaded only when it does not hold its
# rows already (a reload would leave each key in several SSTables, and the
# node's work per read would grow from one sitting to the next).
#
# The latte suite ends with a table of ratios over latte's, per case: op/s
# and client CPU per operation of `run cassandra-cql` (ours), `stress user`
# (ours-stress) and the predefined `stress read`/`write` (ours-pre), and the
# p50 and p99 latency of each (ours and ours-stress from their JSON reports,
# latte from its CYCLE LATENCY summary; the target is at 1 in flight). op/s
# ratios at or above 1 and CPU and latency ratios at or below 1 are as good
# as latte or better. `SUITES=latte` alone runs 10 s runs, one round, by
# default: about 5 minutes (6 cases, 4 tools; the tables' loads the first
# time add about a minute), 10 with ROUNDS=2.
#
# The servers are the project's (scripts/postgres.sh, scripts/cassandra.sh),
# started when not running. The reference runs when it is built under
# REF_CACHE (default ~/.cache/ycsb-reference, by the reference-tools script
# of the development environment: javaycsb/lib, javaycsb/jdbc,
# javaycsb/cassandra and cassandra-lib); otherwise only ours runs. In the
# pg-* and cass-* cases each tool reads the data our load wrote (the same
# table layout); in the lat-* cases each reads its own.
# latte runs when LATTE (default REF_CACHE/latte/bin/latte) is executable
# and its example workloads are in LATTE_WORKLOADS (default
# REF_CACHE/latte/workloads/basic); otherwise one note says so and its
# columns stay empty. latte.basic is created (latte schema) and loaded
# (latte load) only when it does not hold ids 0, 49999 and 99999 already.
#
# Usage: scripts/bench-network.sh   (DURATION=20 ROUNDS=2, 10 and 1 for SUITES=latte;
#        SUITES="pg cassandra latte" CASES="pg-read ..." to pick cases;
#        YCSB=path/to/ycsb LATTE=path/to/latte)
set -euo pipefail
cd "$(dirname "$0")/.."
SUITES=${SUITES:-pg cassandra latte}
if [[ $SUITES == latte ]]; then
    # the latte suite alone: about 5 minutes (24 runs of 10 s), 10 with ROUNDS=2
    DURATION=${DURATION:-10}
    ROUNDS=${ROUNDS:-1}
fi
DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-2}
CASES=${CASES:-}
REF_CACHE=${REF_CACHE:-$HOME/.cache/ycsb-reference}
LATTE=${LATTE:-$REF_CACHE/latte/bin/latte}
LATTE_WORKLOADS=${LATTE_WORKLOADS:-$REF_CACHE/latte/workloads/basic}
PGJDBC=${PGJDBC:-/usr/share/java/postgresql.jar}
JAVA=${REFERENCE_JAVA:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
[[ -x $JAVA ]] || JAVA=java
YCSB=${YCSB:-}
[[ -x /usr/bin/time ]] || { echo "bench-network: needs GNU time at /usr/bin/time" >&2; exit 2; }
if [[ -z $YCSB ]]; then
    go build -o bin/ycsb ./cmd/ycsb
    YCSB=bin/ycsb
fi
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
TCK=$(getconf CLK_TCK)

PG_USER=${YCSB_PG_USER:-ycsb} PG_PASS=${YCSB_PG_PASSWORD:-ycsb} PG_DB=${YCSB_PG_DB:-ycsb} PG_PORT=${PG_PORT:-5432}
PG_JDBC="jdbc:postgresql://127.0.0.1:$PG_PORT/$PG_DB"
pg_props=(-p db.driver=org.postgresql.Driver -p db.user="$PG_USER" -p db.passwd="$PG_PASS")
CASS_NODE=${CASSANDRA_HOME_DIR:-$PWD/.cache/cassandra-node}
CASS_PORT=${CASSANDRA_PORT:-9042}
cass_props=(-p hosts=127.0.0.1 -p port="$CASS_PORT" -p cassandra.keyspace=ycsb_bench)
# The lat-* cases' rows for ours: one 8-byte field, as small as latte's.
small_props=(-p hosts=127.0.0.1 -p port="$CASS_PORT" -p cassandra.keyspace=ycsb_small -p fieldcount=1 -p fieldlength=8
    -p recordcount=100000)
# ours-stress reads and writes latte's own table when latte runs (the same
# SSTables: the node's work per operation is the same for both), else a
# table of the same shape in a keyspace of its own.
STRESS_PROFILE=scripts/latte/basic.yaml
[[ -x $LATTE && -r $LATTE_WORKLOADS/read.rn && -r $LATTE_WORKLOADS/write.rn ]] && STRESS_PROFILE=scripts/latte/latte-basic.yaml
stress_conn=(-node 127.0.0.1 -port native="$CASS_PORT")
# The predefined commands' rows (ours-pre): one 8-byte column.
pre_props=(-col "n=fixed(1)" "size=fixed(8)" -schema keyspace=ycsb_latte_pre "replication(factor=1)")

have_ref_pg() { [[ -d $REF_CACHE/javaycsb/jdbc && -d $REF_CACHE/javaycsb/lib && -r $PGJDBC ]]; }
have_ref_cass() { [[ -d $REF_CACHE/javaycsb/cassandra && -d $REF_CACHE/javaycsb/cassandra-lib ]]; }
have_ref() { if [[ $1 == pg ]]; then have_ref_pg; else have_ref_cass; fi; }
have_latte() { [[ -x $LATTE && -r $LATTE_WORKLOADS/read.rn && -r $LATTE_WORKLOADS/write.rn ]]; }
# have tool: whether the tool can run here.
have() {
    case $1 in
    reference) have_ref "$SUITE" ;;
    latte) have_latte ;;
    *) true ;;
    esac
}

# server_ticks pg|cassandra|latte: the server's CPU so far, in clock ticks
# (latte's cases run against Cassandra).
server_ticks() {
    if [[ $1 == pg ]]; then
        local pm
        pm=$(pgrep -o -x postgres)
        # The postmaster with the children it reaped (cutime, cstime), and
        # the children still running.
        { sed 's/^.*) //' "/proc/$pm/stat" | awk '{print $12 + $13 + $14 + $15}'
          for p in $(pgrep -P "$pm"); do sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{print $12 + $13}'; done
        } | awk '{s += $1} END {print s}'
    else
        sed 's/^.*) //' "/proc/$(cat "$CASS_NODE/cassandra.pid")/stat" | awk '{print $12 + $13}'
    fi
}

# run_tool who out: one run of the current case (SUITE, PHASE, ARGS,
# STRESS_ARGS, PRE_ARGS, LATTE_ARGS) by tool who; prints "ops op/s client_us
# server_us p50_us p99_us" (the latencies "- -" where not read).
run_tool() {
    local who=$1 out=$2
    local cmd dir=$PWD
    case $who in
    ours)
        local binding=jdbc
        [[ $SUITE != pg ]] && binding=cassandra-cql
        cmd=("$YCSB" "$PHASE" "$binding" "${ARGS[@]}")
        [[ $SUITE == latte ]] && cmd+=(-p report.json="$out.json") ;;
    reference)
        local cp db
        if [[ $SUITE == pg ]]; then
            cp="$REF_CACHE/javaycsb/lib/*:$REF_CACHE/javaycsb/jdbc:$PGJDBC"; db=site.ycsb.db.JdbcDBClient
        else
            cp="$REF_CACHE/javaycsb/lib/*:$REF_CACHE/javaycsb/cassandra:$REF_CACHE/javaycsb/cassandra-lib/*"; db=site.ycsb.db.CassandraCQLClient
        fi
        local flag=-t
        [[ $PHASE == load ]] && flag=-load
        cmd=("$JAVA" -cp "$cp" site.ycsb.Client "$flag" -db "$db" "${ARGS[@]}") ;;
    ours-stress)
        cmd=("$YCSB" stress "${STRESS_ARGS[@]}" -log no-settings json="$out.json") ;;
    ours-pre)
        cmd=("$YCSB" stress "${PRE_ARGS[@]}" -log no-settings json="$out.json") ;;
    latte)
        # latte writes its report and log into the working directory.
        dir=$W/latte
        mkdir -p "$dir"
        cmd=("$LATTE" run "${LATTE_ARGS[@]}") ;;
    esac
    local s0 s1
    s0=$(server_ticks "$SUITE")
    if ! (cd "$dir" && /usr/bin/time -f '%U %S' -o "$out.time" "${cmd[@]}") >"$out.log" 2>"$out.err"; then
        echo "bench-network: $who $PHASE failed:" >&2; tail -5 "$out.err" >&2; tail -5 "$out.log" >&2; exit 1
    fi
    sleep 0.5 # the backends exit and are reaped
    s1=$(server_ticks "$SUITE")
    local ops tp errs rows
    case $who in
    ours | reference)
        ops=$(awk -F', ' '$1 ~ /^\[(READ|UPDATE|INSERT)\]$/ && $2 == "Operations" {s += $3} END {print s + 0}' "$out.log")
        tp=$(awk -F', ' '$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" {printf "%.0f", $3}' "$out.log") ;;
    ours-stress | ours-pre)
        # The last "total," interval line counts the operations; the
        # Results block has the op rate, the partitions read or written (a
        # read counts one only when it finds its row) and the errors.
        ops=$(awk -F', *' '$1 == "total" {n = $2} END {print n + 0}' "$out.log")
        tp=$(awk '$1 == "Op" && $2 == "rate" {gsub(",", "", $4); printf "%.0f", $4}' "$out.log")
        errs=$(awk '$1 == "Total" && $2 == "errors" {gsub(",", "", $4); print $4 + 0}' "$out.log")
        rows=$(awk '$1 == "Total" && $2 == "partitions" {gsub(",", "", $4); print $4 + 0}' "$out.log")
        if (( ${errs:-0} > 0 )); then echo "bench-network: ours-stress: $errs errors ($out.log)" >&2; fi
        if (( ${rows:-0} < ops * 99 / 100 )); then
            echo "bench-network: ours-stress: ${rows:-0} rows of $ops operations (reads that found nothing?)" >&2
        fi ;;
    latte)
        ops=$(awk '$1 == "Requests" && $2 == "[req]" {print $3 + 0}' "$out.log")
        tp=$(awk '$1 == "Throughput" && $2 == "[op/s]" {printf "%.0f", $3}' "$out.log")
        errs=$(awk '$1 == "Errors" && $2 == "[op]" {print $3 + 0}' "$out.log")
        rows=$(awk '$1 == "Rows" && $2 == "[row]" {print $3 + 0}' "$out.log")
        if (( ${errs:-0} > 0 )); then echo "bench-network: latte: $errs errors ($out.log)" >&2; fi
        if [[ $LATTE_READS == 1 ]] && (( ${rows:-0} == 0 )); then
            echo "bench-network: latte: its reads returned no row" >&2
        fi ;;
    esac
    local lat="- -"
    case $who in
    ours | ours-stress | ours-pre)
        # the operation's p50 and p99 of the whole run, µs
        if [[ -s $out.json ]]; then
            lat=$(jq -r '[.measurements[] | select(.name | test("^(read|update|insert|write)$"; "i"))][0]
                | "\(.percentiles_us.p50 // "-") \(.percentiles_us.p99 // "-")"' "$out.json" 2>/dev/null || echo "- -")
        fi ;;
    latte)
        lat=$(awk '/^CYCLE LATENCY/ {on = 1; next} on && $1 == "50" {p50 = $2 * 1000} on && $1 == "99" {p99 = $2 * 1000; exit}
            END {if (p50 == "") print "- -"; else printf "%.0f %.0f\n", p50, p99}' "$out.log") ;;
    esac
    read -r u s <"$out.time"
    awk -v n="${ops:-0}" -v tp="${tp:-0}" -v u="$u" -v s="$s" -v sv=$((s1 - s0)) -v tck="$TCK" -v lat="$lat" \
        'BEGIN { if (n == 0) { print "0 0 0 0 - -"; exit } printf "%d %d %.1f %.1f %s\n", n, tp, (u + s) * 1e6 / n, sv / tck * 1e6 / n, lat }'
}

pg_sql() { PGPASSWORD=$PG_PASS psql -q -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$PG_DB" -c "$1" >/dev/null; }

# args_for case: the properties of a case; sets SUITE, PHASE, TOOLS (the
# tools that take part, where they can run), ARGS (ours and the reference),
# STRESS_ARGS (ours-stress), LATTE_ARGS and LATTE_READS (latte).
args_for() {
    local run=(-p operationcount=1000000000 -p maxexecutiontime="$DURATION")
    local n
    TOOLS=(ours reference) STRESS_ARGS=() PRE_ARGS=() LATTE_ARGS=() LATTE_READS=1
    case $1 in
    pg-read) SUITE=pg PHASE=run ARGS=(-P workloads/workloadc -p db.url="$PG_JDBC" "${pg_props[@]}" -p recordcount=100000
        -p insertorder=ordered -p requestdistribution=uniform -threads 8 "${run[@]}") ;;
    pg-a) SUITE=pg PHASE=run ARGS=(-P workloads/workloada -p db.url="$PG_JDBC" "${pg_props[@]}" -p recordcount=100000
        -p insertorder=ordered -threads 8 "${run[@]}") ;;
    pg-load) SUITE=pg PHASE=load ARGS=(-P workloads/workloada -p db.url="$PG_JDBC?reWriteBatchedInserts=true" "${pg_props[@]}"
        -p recordcount=100000 -p insertorder=ordered -p db.batchsize=128 -p jdbc.batchupdateapi=true -threads 8) ;;
    cass-c16 | cass-c64)
        n=${1#cass-c}
        SUITE=cassandra PHASE=run TOOLS=(ours reference latte) ARGS=(-P workloads/workloadc "${cass_props[@]}" -p recordcount=50000
            -p insertorder=ordered -p requestdistribution=uniform -threads "$n" "${run[@]}")
        LATTE_ARGS=("$PWD/scripts/latte/ycsb-c.rn" -d "${DURATION}s" -p "$n" -q -P records=50000 "127.0.0.1:$CASS_PORT") ;;
    cass-a16 | cass-a64)
        n=${1#cass-a}
        SUITE=cassandra PHASE=run TOOLS=(ours reference latte) ARGS=(-P workloads/workloada "${cass_props[@]}" -p recordcount=50000
            -p insertorder=ordered -threads "$n" "${run[@]}")
        LATTE_ARGS=("$PWD/scripts/latte/ycsb-a.rn" -d "${DURATION}s" -p "$n" -q -P records=50000 "127.0.0.1:$CASS_PORT") ;;
    lat-read1 | lat-read16 | lat-read64 | lat-read128)
        n=${1#lat-read}
        SUITE=latte PHASE=run TOOLS=(ours ours-stress ours-pre latte)
        ARGS=(-P workloads/workloadc "${small_props[@]}" -p requestdistribution=uniform -threads "$n" "${run[@]}")
        STRESS_ARGS=(user profile="$STRESS_PROFILE" "ops(read=1)" duration="${DURATION}s" no-warmup
            -pop "dist=uniform(1..100000)" -rate threads="$n" "${stress_conn[@]}")
        PRE_ARGS=(read duration="${DURATION}s" no-warmup -pop "dist=uniform(1..100000)" "${pre_props[@]}" -rate threads="$n"
            "${stress_conn[@]}")
        LATTE_ARGS=("$LATTE_WORKLOADS/read.rn" -d "${DURATION}s" -p "$n" -q "127.0.0.1:$CASS_PORT") ;;
    lat-write1 | lat-write16 | lat-write64 | lat-write128)
        n=${1#lat-write}
        SUITE=latte PHASE=run TOOLS=(ours ours-stress ours-pre latte) LATTE_READS=0
        ARGS=(-P workloads/workloadc "${small_props[@]}" -p requestdistribution=uniform -p readproportion=0
            -p updateproportion=1 -threads "$n" "${run[@]}")
        STRESS_ARGS=(user profile="$STRESS_PROFILE" "ops(insert=1)" duration="${DURATION}s" no-warmup
            -pop "dist=uniform(1..100000)" -rate threads="$n" "${stress_conn[@]}")
        PRE_ARGS=(write duration="${DURATION}s" no-warmup -pop "dist=uniform(1..100000)" "${pre_props[@]}" -rate threads="$n"
            "${stress_conn[@]}")
        LATTE_ARGS=("$LATTE_WORKLOADS/write.rn" -d "${DURATION}s" -p "$n" -q "127.0.0.1:$CASS_PORT") ;;
    *) echo "bench-network: unknown case $1 (pg-read pg-a pg-load cass-c16 cass-c64 cass-a16 cass-a64" \
        "lat-read1 lat-read16 lat-read64 lat-read128 lat-write1 lat-write16 lat-write64 lat-write128)" >&2; exit 2 ;;
    esac
}

if [[ -z $CASES ]]; then
    for s in $SUITES; do
        case $s in
        pg) CASES="$CASES pg-read pg-a pg-load" ;;
        cassandra) CASES="$CASES cass-c16 cass-a16 cass-c64 cass-a64" ;;
        latte) CASES="$CASES lat-read1 lat-read16 lat-read128 lat-write1 lat-write16 lat-write128" ;;
        *) echo "bench-network: unknown suite $s (pg cassandra latte)" >&2; exit 2 ;;
        esac
    done
fi
latte_cols=0 # whether some case has a latte column
for c in $CASES; do # every case checked before anything runs
    args_for "$c"
    if [[ " ${TOOLS[*]} " == *" latte "* ]]; then latte_cols=1; fi
done
if (( latte_cols )) && ! have_latte; then
    echo "bench-network: latte not built (../shared/tools/latte.sh builds it): its columns are empty" >&2
fi

# cass_start: the local node, started when it does not answer.
cass_start() { scripts/cassandra.sh status >/dev/null 2>&1 || scripts/cassandra.sh start >&2; }

loaded_pg=0 loaded_cass=0 loaded_latte=0
# rows ks.table: the table's row count, 0 when it cannot be read (missing).
rows() { scripts/cassandra.sh cql "SELECT count(*) FROM $1" 2>/dev/null | grep -E '^[0-9]+$' || echo 0; }
prepare() {
    if [[ $1 == pg && $loaded_pg == 0 ]]; then
        scripts/postgres.sh status >/dev/null 2>&1 || scripts/postgres.sh start >&2
        pg_sql "DROP TABLE IF EXISTS usertable"
        "$YCSB" load jdbc -P workloads/workloada -p db.url="$PG_JDBC?reWriteBatchedInserts=true" "${pg_props[@]}" \
            -p jdbc.createtable=true -p recordcount=100000 -p insertorder=ordered -p db.batchsize=128 \
            -p jdbc.batchupdateapi=true -threads 8 >"$W/pg-load.log" 2>&1 || { cat "$W/pg-load.log" >&2; exit 1; }
        pg_sql "VACUUM ANALYZE usertable"
        loaded_pg=1
    elif [[ $1 == cassandra && $loaded_cass == 0 ]]; then
        cass_start
        # Ordered keys (user0 .. user49999), which latte's scripts can name.
        "$YCSB" load cassandra-cql -P workloads/workloada "${cass_props[@]}" -p cassandra.createschema=true \
            -p recordcount=50000 -p insertorder=ordered -threads 16 >"$W/cass-load.log" 2>&1 ||
            { cat "$W/cass-load.log" >&2; exit 1; }
        loaded_cass=1
    elif [[ $1 == latte && $loaded_latte == 0 ]]; then
        cass_start
        if [[ $(rows ycsb_small.usertable) -lt 100000 ]]; then
            "$YCSB" load cassandra-cql -P workloads/workloadc "${small_props[@]}" -p cassandra.createschema=true \
                -threads 16 >"$W/small-load.log" 2>&1 || { cat "$W/small-load.log" >&2; exit 1; }
        fi
        # 100,000 seeds hold about 44,000 distinct ids (see above)
        if [[ $STRESS_PROFILE == scripts/latte/basic.yaml && $(rows ycsb_latte_basic.basic) -lt 40000 ]]; then
            "$YCSB" stress user profile="$STRESS_PROFILE" "ops(insert=1)" n=100000 no-warmup -pop seq=1..100000 \
                -rate threads=16 "${stress_conn[@]}" -log no-settings >"$W/stress-load.log" 2>&1 ||
                { cat "$W/stress-load.log" >&2; exit 1; }
        fi
        if [[ $(rows ycsb_latte_pre.standard1) -lt 100000 ]]; then
            "$YCSB" stress write n=100000 no-warmup -pop seq=1..100000 "${pre_props[@]}" -rate threads=16 \
                "${stress_conn[@]}" -log no-settings >"$W/pre-load.log" 2>&1 || { cat "$W/pre-load.log" >&2; exit 1; }
        fi
        if have_latte; then
            # latte's schema drops the table and its load truncates it
            # first: leave a table that holds the rows alone.
            local held
            held=$(scripts/cassandra.sh cql "SELECT count(*) FROM latte.basic WHERE id IN (0, 49999, 99999)" 2>/dev/null || echo none)
            if [[ $held != 3 ]]; then
                mkdir -p "$W/latte"
                if [[ $held == none ]]; then
                    (cd "$W/latte" && "$LATTE" schema "$LATTE_WORKLOADS/read.rn" "127.0.0.1:$CASS_PORT") >"$W/latte-schema.log" 2>&1 ||
                        { cat "$W/latte-schema.log" >&2; exit 1; }
                fi
                (cd "$W/latte" && "$LATTE" load "$LATTE_WORKLOADS/read.rn" -q "127.0.0.1:$CASS_PORT") >"$W/latte-load.log" 2>&1 ||
                    { cat "$W/latte-load.log" >&2; exit 1; }
            fi
        fi
        loaded_latte=1
    fi
}

median() { sort -n | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# ratio a b: a / b to two places, or nothing when either is missing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b + 0 > 0) printf "%.2f", a / b }'; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${DURATION}s runs, $ROUNDS rounds"
printf '%-11s %-11s %10s %12s %12s %8s %8s\n' case tool "op/s" "client µs/op" "server µs/op" "p50 µs" "p99 µs"
summary=() ratios=()
declare -A med
for c in $CASES; do
    args_for "$c"
    prepare "$SUITE"
    who_list=()
    for who in "${TOOLS[@]}"; do
        if have "$who"; then who_list+=("$who"); fi
    done
    for r in $(seq "$ROUNDS"); do
        # Rotate which tool goes first from one round to the next.
        k=$(( (r - 1) % ${#who_list[@]} ))
        order=("${who_list[@]:k}" "${who_list[@]:0:k}")
        for who in "${order[@]}"; do
            if [[ $PHASE == load ]]; then
                pg_sql "TRUNCATE usertable"
            fi
            read -r _ tp cu su p50 p99 < <(run_tool "$who" "$W/$c-$who-$r")
            printf '%-11s %-11s %10s %12s %12s %8s %8s\n' "$c" "$who" "$tp" "$cu" "$su" "$p50" "$p99"
            echo "$tp $cu $su $p50 $p99" >>"$W/$c-$who.all"
        done
    done
    if [[ $PHASE == load ]]; then
        pg_sql "TRUNCATE usertable" # the next case reloads
        loaded_pg=0
    fi
    med=()
    for who in "${who_list[@]}"; do
        for col in 1 2 3 4 5; do
            med[$who,$col]=$(awk -v c=$col '$c != "-" {print $c}' "$W/$c-$who.all" | median)
        done
    done
    if [[ $SUITE == latte ]]; then # the ratios over latte's
        line="| $c | ${med[latte,1]:-} | ${med[latte,2]:-} | ${med[latte,4]:-} | ${med[latte,5]:-} |"
        for who in ours ours-stress ours-pre; do
            for col in 1 2 4 5; do line+=" $(ratio "${med[$who,$col]:-}" "${med[latte,$col]:-}") |"; done
        done
        ratios+=("$line")
    fi
    line="| $c |"
    cols=(ours reference)
    if (( latte_cols )); then cols+=(ours-stress latte); fi
    for who in "${cols[@]}"; do
        if [[ -n ${med[$who,1]:-} ]]; then
            line+=$(awk -v t="${med[$who,1]}" -v cu="${med[$who,2]}" -v su="${med[$who,3]}" 'BEGIN { printf " %d | %.1f | %.1f |", t, cu, su }')
        else
            line+=" | | |"
        fi
        if [[ $who == reference ]]; then # ours over the reference
            line+=" $(ratio "${med[ours,1]:-}" "${med[reference,1]:-}") | $(ratio "${med[ours,2]:-}" "${med[reference,2]:-}") |"
        fi
    done
    if (( latte_cols )); then # ours and ours-stress over latte
        for who in ours ours-stress; do
            line+=" $(ratio "${med[$who,1]:-}" "${med[latte,1]:-}") | $(ratio "${med[$who,2]:-}" "${med[latte,2]:-}") |"
        done
    fi
    summary+=("${line//  / }")
done
echo
head="| case | ours op/s | ours client µs/op | ours server µs/op | reference op/s | reference client µs/op | reference server µs/op | op/s ratio | client CPU ratio |"
rule="|---|---|---|---|---|---|---|---|---|"
if (( latte_cols )); then
    head+=" ours-stress op/s | ours-stress client µs/op | ours-stress server µs/op | latte op/s | latte client µs/op | latte server µs/op |"
    head+=" ours/latte op/s | ours/latte CPU | ours-stress/latte op/s | ours-stress/latte CPU |"
    rule+="---|---|---|---|---|---|---|---|---|---|"
fi
echo "$head"
echo "$rule"
printf '%s\n' "${summary[@]}"
if (( ${#ratios[@]} )); then
    echo
    echo "Over latte's (op/s: higher is better; CPU per operation, p50, p99: lower is better; the target is op/s >= 1 and"
    echo "CPU <= 1 at 16 and 128 in flight, p50 and p99 <= 1.10 at 1 in flight):"
    echo
    echo "| case | latte op/s | latte client µs/op | latte p50 µs | latte p99 µs | ours op/s | ours CPU | ours p50 | ours p99 | stress user op/s | stress user CPU | stress user p50 | stress user p99 | stress predefined op/s | stress predefined CPU | stress predefined p50 | stress predefined p99 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${ratios[@]}"
fi
