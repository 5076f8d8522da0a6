#!/usr/bin/env bash
# The network bindings' speed beside the reference YCSB 0.17.0's, in one
# sitting: PostgreSQL (jdbc binding against pgjdbc) and Cassandra
# (cassandra-cql against the DataStax driver 3.0.0), the two tools run
# alternately on the same server and data. The machine is shared and the
# server runs on the same cores: compare the ratios, not one absolute figure.
#
# For each run it prints op/s, the client's CPU per operation (user+sys of
# the client process, GNU time: the JVM's JIT and GC threads count too) and
# the server's CPU per operation over the run (from /proc/<pid>/stat: the
# postmaster with its live and exited children, or the Cassandra JVM). Then
# one line per case with the median of the rounds and the ratios, ours over
# the reference's.
#
# Cases (SUITES="pg cassandra" by default):
#   pg-read    point reads of 100,000 ordered keys, uniform, 8 threads
#   pg-a       workload A (zipfian), 8 threads
#   pg-load    load of 100,000 records, db.batchsize=128 and
#              reWriteBatchedInserts, 8 threads
#   cass-c16   workload C, 50,000 records, uniform, 16 threads (and cass-c64)
#   cass-a16   workload A (zipfian), 16 threads (and cass-a64)
#
# The servers are the project's (scripts/postgres.sh, scripts/cassandra.sh),
# started when not running. The reference runs when it is built under
# REF_CACHE (default ~/.cache/ycsb-reference, by the reference-tools script
# of the development environment: javaycsb/lib, javaycsb/jdbc,
# javaycsb/cassandra and cassandra-lib); otherwise only ours runs. Each tool
# reads the data our load wrote (both tools use the same table layout).
#
# Usage: scripts/bench-network.sh   (DURATION=20 ROUNDS=2 SUITES="pg cassandra"
#        CASES="pg-read ..." to pick cases; YCSB=path/to/ycsb)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-2}
SUITES=${SUITES:-pg cassandra}
CASES=${CASES:-}
REF_CACHE=${REF_CACHE:-$HOME/.cache/ycsb-reference}
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
cass_props=(-p hosts=127.0.0.1 -p port="${CASSANDRA_PORT:-9042}" -p cassandra.keyspace=ycsb_bench)

have_ref_pg() { [[ -d $REF_CACHE/javaycsb/jdbc && -d $REF_CACHE/javaycsb/lib && -r $PGJDBC ]]; }
have_ref_cass() { [[ -d $REF_CACHE/javaycsb/cassandra && -d $REF_CACHE/javaycsb/cassandra-lib ]]; }
have_ref() { if [[ $1 == pg ]]; then have_ref_pg; else have_ref_cass; fi; }

# server_ticks pg|cassandra: the server's CPU so far, in clock ticks.
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

# run_tool who suite phase out args...: one run; prints "ops op/s client_us server_us".
run_tool() {
    local who=$1 suite=$2 phase=$3 out=$4
    shift 4
    local cmd
    if [[ $who == ours ]]; then
        local binding=jdbc
        [[ $suite == cassandra ]] && binding=cassandra-cql
        cmd=("$YCSB" "$phase" "$binding")
    else
        local cp db
        if [[ $suite == pg ]]; then
            cp="$REF_CACHE/javaycsb/lib/*:$REF_CACHE/javaycsb/jdbc:$PGJDBC"; db=site.ycsb.db.JdbcDBClient
        else
            cp="$REF_CACHE/javaycsb/lib/*:$REF_CACHE/javaycsb/cassandra:$REF_CACHE/javaycsb/cassandra-lib/*"; db=site.ycsb.db.CassandraCQLClient
        fi
        local flag=-t
        [[ $phase == load ]] && flag=-load
        cmd=("$JAVA" -cp "$cp" site.ycsb.Client "$flag" -db "$db")
    fi
    local s0 s1
    s0=$(server_ticks "$suite")
    if ! /usr/bin/time -f '%U %S' -o "$out.time" "${cmd[@]}" "$@" >"$out.log" 2>"$out.err"; then
        echo "bench-network: $who $phase failed:" >&2; tail -5 "$out.err" >&2; exit 1
    fi
    sleep 0.5 # the backends exit and are reaped
    s1=$(server_ticks "$suite")
    local ops tp
    ops=$(awk -F', ' '$1 ~ /^\[(READ|UPDATE|INSERT)\]$/ && $2 == "Operations" {s += $3} END {print s + 0}' "$out.log")
    tp=$(awk -F', ' '$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" {printf "%.0f", $3}' "$out.log")
    read -r u s <"$out.time"
    awk -v n="$ops" -v tp="$tp" -v u="$u" -v s="$s" -v sv=$((s1 - s0)) -v tck="$TCK" \
        'BEGIN { if (n == 0) { print "0 0 0 0"; exit } printf "%d %d %.1f %.1f\n", n, tp, (u + s) * 1e6 / n, sv / tck * 1e6 / n }'
}

pg_sql() { PGPASSWORD=$PG_PASS psql -q -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$PG_DB" -c "$1" >/dev/null; }

# args_for case: the properties of a case; sets SUITE, PHASE, ARGS.
args_for() {
    local run=(-p operationcount=1000000000 -p maxexecutiontime="$DURATION")
    case $1 in
    pg-read) SUITE=pg PHASE=run ARGS=(-P workloads/workloadc -p db.url="$PG_JDBC" "${pg_props[@]}" -p recordcount=100000
        -p insertorder=ordered -p requestdistribution=uniform -threads 8 "${run[@]}") ;;
    pg-a) SUITE=pg PHASE=run ARGS=(-P workloads/workloada -p db.url="$PG_JDBC" "${pg_props[@]}" -p recordcount=100000
        -p insertorder=ordered -threads 8 "${run[@]}") ;;
    pg-load) SUITE=pg PHASE=load ARGS=(-P workloads/workloada -p db.url="$PG_JDBC?reWriteBatchedInserts=true" "${pg_props[@]}"
        -p recordcount=100000 -p insertorder=ordered -p db.batchsize=128 -p jdbc.batchupdateapi=true -threads 8) ;;
    cass-c16 | cass-c64) SUITE=cassandra PHASE=run ARGS=(-P workloads/workloadc "${cass_props[@]}" -p recordcount=50000
        -p requestdistribution=uniform -threads "${1#cass-c}" "${run[@]}") ;;
    cass-a16 | cass-a64) SUITE=cassandra PHASE=run ARGS=(-P workloads/workloada "${cass_props[@]}" -p recordcount=50000
        -threads "${1#cass-a}" "${run[@]}") ;;
    *) echo "bench-network: unknown case $1 (pg-read pg-a pg-load cass-c16 cass-c64 cass-a16 cass-a64)" >&2; exit 2 ;;
    esac
}

if [[ -z $CASES ]]; then
    for s in $SUITES; do
        case $s in
        pg) CASES="$CASES pg-read pg-a pg-load" ;;
        cassandra) CASES="$CASES cass-c16 cass-a16 cass-c64 cass-a64" ;;
        *) echo "bench-network: unknown suite $s (pg cassandra)" >&2; exit 2 ;;
        esac
    done
fi
for c in $CASES; do args_for "$c"; done # every case checked before anything runs

loaded_pg=0 loaded_cass=0
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
        scripts/cassandra.sh status >/dev/null 2>&1 || scripts/cassandra.sh start >&2
        "$YCSB" load cassandra-cql -P workloads/workloada "${cass_props[@]}" -p cassandra.createschema=true \
            -p recordcount=50000 -threads 16 >"$W/cass-load.log" 2>&1 || { cat "$W/cass-load.log" >&2; exit 1; }
        loaded_cass=1
    fi
}

median() { sort -n | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${DURATION}s runs, $ROUNDS rounds"
printf '%-9s %-6s %10s %12s %12s\n' case tool "op/s" "client µs/op" "server µs/op"
summary=()
for c in $CASES; do
    args_for "$c"
    prepare "$SUITE"
    who_list=(ours)
    if have_ref "$SUITE"; then who_list=(ours reference); fi
    for r in $(seq "$ROUNDS"); do
        # Alternate which tool goes first from one round to the next.
        order=("${who_list[@]}")
        if (( r % 2 == 0 )) && (( ${#who_list[@]} == 2 )); then order=(reference ours); fi
        for who in "${order[@]}"; do
            if [[ $PHASE == load ]]; then
                pg_sql "TRUNCATE usertable"
            fi
            read -r ops tp cu su < <(run_tool "$who" "$SUITE" "$PHASE" "$W/$c-$who-$r" "${ARGS[@]}")
            printf '%-9s %-6s %10s %12s %12s\n' "$c" "${who:0:6}" "$tp" "$cu" "$su"
            echo "$tp $cu $su" >>"$W/$c-$who.all"
        done
    done
    if [[ $PHASE == load ]]; then
        pg_sql "TRUNCATE usertable" # the next case reloads
        loaded_pg=0
    fi
    line=$(printf '%-9s' "$c")
    for who in "${who_list[@]}"; do
        for col in 1 2 3; do
            v=$(awk -v c=$col '{print $c}' "$W/$c-$who.all" | median)
            eval "m_${who}_$col=$v"
        done
    done
    if (( ${#who_list[@]} == 2 )); then
        summary+=("$(awk -v c="$c" -v ot="$m_ours_1" -v oc="$m_ours_2" -v os="$m_ours_3" -v rt="$m_reference_1" -v rc="$m_reference_2" -v rs="$m_reference_3" \
            'BEGIN { printf "| %s | %d | %.1f | %.1f | %d | %.1f | %.1f | %.2f | %.2f |", c, ot, oc, os, rt, rc, rs, ot / rt, oc / rc }')")
    else
        summary+=("$(printf '| %s | %d | %.1f | %.1f | | | | | |' "$c" "$m_ours_1" "$m_ours_2" "$m_ours_3")")
    fi
done
echo
echo "| case | ours op/s | ours client µs/op | ours server µs/op | reference op/s | reference client µs/op | reference server µs/op | op/s ratio | client CPU ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${summary[@]}"
