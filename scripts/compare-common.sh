# What scripts/compare-engines.sh and scripts/compare-mysql-engines.sh
# share, sourced by both: their arguments (with scripts/report-example.sh),
# the per-operation rows of a text report, and the side-by-side table of
# the engines' reports.

# p_args NAME ARG...: reads the arguments of a script that takes only
# -p name=value, each appended to the array extra (passed on to every load
# and run), and -h or --help, which prints the script's header (its
# comment lines after the first, up to the first line that is not one)
# and exits. Anything else ends the script with status 2 and a line that
# NAME begins.
p_args() {
	local name=$1
	shift
	extra=()
	while [ $# -gt 0 ]; do
		case "$1" in
		-p)
			[ $# -ge 2 ] || { echo "$name: -p needs name=value" >&2; exit 2; }
			extra+=(-p "$2")
			shift 2
			;;
		-h | --help)
			awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
			exit 0
			;;
		*)
			echo "$name: unknown argument $1 (try -h)" >&2
			exit 2
			;;
		esac
	done
}

# OPS_AWK collects each operation's latency percentiles and errors of a
# text report (awk -F', '); OPS_AWK_END prints them, in the reference's
# operation order, from an END block.
OPS_AWK='
	$1 ~ /^\[(READ|UPDATE|INSERT|SCAN|READ-MODIFY-WRITE|DELETE)\]$/ {
		op = substr($1, 2, length($1) - 2)
		if ($2 == "50thPercentileLatency(us)") p50[op] = $3
		if ($2 == "95thPercentileLatency(us)") p95[op] = $3
		if ($2 == "99thPercentileLatency(us)") p99[op] = $3
		if ($2 ~ /^Return=/ && $2 != "Return=OK" && $2 != "Return=BATCHED_OK") err[op] += $3
		seen[op] = 1
	}'
OPS_AWK_END='
		n = split("INSERT READ UPDATE SCAN READ-MODIFY-WRITE DELETE", order, " ")
		for (i = 1; i <= n; i++) {
			op = order[i]
			if (!(op in seen)) continue
			printf "%s p50/p95/p99(us)\t%s/%s/%s\n", op, p50[op], p95[op], p99[op]
			if (err[op] > 0) printf "%s errors\t%d\n", op, err[op]
		}'

# engine_table PHASES ENGINE... prints a table of the metrics of every
# phase, one column per engine, from OUT/<engine>-<phase>.txt by the
# caller's report function (rows "metric<TAB>value").
engine_table() {
	local phases=$1 ph k name e v keys
	shift
	{
		printf 'phase\tmetric'
		for e in "$@"; do printf '\t%s' "$e"; done
		printf '\n'
		for ph in $phases; do
			# Metric names in first-seen order over the engines.
			keys=$(for e in "$@"; do report "$OUT/$e-$ph.txt"; done | cut -f1 | awk '!s[$0]++')
			while IFS= read -r k; do
				[ -n "$k" ] || continue
				name=$ph
				[ "$ph" = load ] || name="workload$ph"
				printf '%s\t%s' "$name" "$k"
				for e in "$@"; do
					v=$(report "$OUT/$e-$ph.txt" | awk -F'\t' -v k="$k" '$1 == k { print $2 }')
					printf '\t%s' "${v:--}"
				done
				printf '\n'
			done <<<"$keys"
		done
	} | column -t -s $'\t'
}
