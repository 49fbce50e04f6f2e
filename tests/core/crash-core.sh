# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Sourced by tests/core/run.sh and tests/stock/run.sh (bash): where the
# kernel's core of a crash goes, and how to take it from there.
#
#   crash_core_begin DIR  before the crashes: their cores can be found. A
#                         core_pattern that pipes to a program is replaced by
#                         DIR/core.%p (root only) until crash_core_end; else,
#                         without root, coredumpctl must hold the cores.
#                         CORE_PATTERN_FILE names another pattern file.
#   crash_core_take DIR PID OUT
#                         after the crash of PID, run in DIR (which holds
#                         nothing else new but a file "stdout"): its core
#                         moved to OUT; fails (returns 1) when there is none.
#   crash_core_end        the machine's pattern back.
# The caller's fail() reports errors; set -e is expected.

crash_core_pattern_file=${CORE_PATTERN_FILE:-/proc/sys/kernel/core_pattern}
crash_core_restore=""
crash_core_fetch=""
crash_core_where=""
crash_core_stamp=""

crash_core_end() {
	if [ -n "$crash_core_restore" ]; then
		printf '%s\n' "$crash_core_restore" >"$crash_core_pattern_file"
		crash_core_restore=""
	fi
}

crash_core_begin() {
	local dir=$1 pattern
	pattern=$(cat "$crash_core_pattern_file")
	echo "  kernel.core_pattern: $pattern"
	crash_core_fetch=""
	case $pattern in
	'|'*)
		if [ "$(id -u)" = 0 ] && echo "$dir/core.%p" >"$crash_core_pattern_file" 2>/dev/null; then
			crash_core_restore=$pattern
			crash_core_where=$dir
			echo "  (a pipe: $dir/core.%p for these crashes, restored after them)"
		elif command -v coredumpctl >/dev/null; then
			crash_core_fetch=coredumpctl
		else
			fail "kernel.core_pattern pipes to a program; needs root to write a file pattern, or coredumpctl"
		fi
		;;
	/*) crash_core_where=$(dirname "$pattern") ;;
	# Relative: in the crashed program's working directory.
	*) crash_core_where=./$(dirname "$pattern") ;;
	esac
	crash_core_stamp=$dir/.crash-core-stamp
	touch "$crash_core_stamp"
	sleep 0.01
}

crash_core_take() {
	local dir=$1 pid=$2 to=$3 where core=""
	if [ "$crash_core_fetch" = coredumpctl ]; then
		for _ in $(seq 50); do
			coredumpctl dump "$pid" -o "$to" >/dev/null 2>&1 && return 0
			sleep 0.2
		done
		return 1
	fi
	case $crash_core_where in
	/*) where=$crash_core_where ;;
	*) where=$dir/$crash_core_where ;;
	esac
	# The kernel may still be writing it: wait for the newest to appear.
	for _ in $(seq 50); do
		core=$(find "$where" -maxdepth 1 -type f -newer "$crash_core_stamp" ! -name stdout \
			-printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d ' ' -f 2-)
		[ -n "$core" ] && break
		sleep 0.1
	done
	[ -n "$core" ] || return 1
	mv "$core" "$to"
}
