# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Shared by run.sh and run-debug.sh (sourced, bash): phase timing, and
# commands run quietly.  The sourcing script sets $me (its name, for
# messages) first.

# Phase timing: "phase NAME" closes the running phase and opens the next;
# $timings collects "NAME SECONDS" lines for the run's end.
run_start=$(date +%s)
phase_name=""
phase_start=$run_start
timings=""
phase() {
	local now
	now=$(date +%s)
	if [ -n "$phase_name" ]; then
		timings="$timings$(printf '%-34s %5ds' "$phase_name" $((now - phase_start)))"$'\n'
	fi
	phase_name=$1
	phase_start=$now
	[ -n "$1" ] && echo "=== $1 ($(date -u +%H:%M:%S))"
	return 0
}
die() {
	echo "$me: $*" >&2
	exit 1
}
# quiet LOG CMD...: run CMD with its output in LOG; on failure show the end.
quiet() {
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -30 "$log" >&2
		echo "$me: failed: $* (log: $log)" >&2
		return 1
	fi
}
