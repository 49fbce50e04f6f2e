#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# init of bench.sh's second guest (a kernel with ftrace's function
# profiler): the time of each deferred user walk itself, measured by the
# kernel around unwind_user_faultable() (the profiler's Hit, Time and Avg)
# and sframe_lookup(),
# for prog-static with the SFrame method (knob 1) and prog-static-fp with
# frame pointers (knob 0), each under perf record --call-graph fp,defer;
# and the user frames per walk, from perf script. The profiler is switched
# on once: its counters are read after each program (turning it off and on
# again between them made 7.2's profiler hook call a NULL function). Writes
# /sft/out/bench/walk-METHOD.txt (the profiler's table, all CPUs, counted
# from the start),
# /sft/out/bench/frames-METHOD.txt (walks and user frames) and
# /sft/out/bench/walk-done.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing
out=/sft/out/bench
mkdir -p "$out"
cd /tmp || exit 1
rounds=${sfrounds:-5000}
rate=${sfrate:-4000}
t=/sys/kernel/tracing
knob=/sys/module/sframe_user/parameters/enabled
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 200000 >/proc/sys/kernel/perf_event_max_sample_rate
# The walk, and in it the reader's lookup (the rest: finding the module).
echo unwind_user_faultable sframe_lookup >"$t/set_ftrace_filter"
echo 1 >"$t/function_profile_enabled"
for method in sframe fp; do
	if [ "$method" = sframe ]; then
		prog=/sft/bin/prog-static v=1
	else
		prog=/sft/bin/prog-static-fp v=0
	fi
	[ -e "$knob" ] && echo "$v" >"$knob"
	perf --no-pager record -e cpu-clock -F "$rate" --call-graph fp,defer \
		-o /tmp/b.data -- "$prog" 0 "$rounds" >/dev/null 2>/tmp/rec.err </dev/null
	cat "$t"/trace_stat/function* >"$out/walk-$method.txt"
	# User frames of each sample's deferred chain (addresses below the
	# kernel's half).
	perf --no-pager script -i /tmp/b.data -F ip 2>/dev/null | awk '
		/^$/ { if (n) { w++; f += n } n = 0; next }
		{ a = $1; if (length(a) < 16 || a < "ffff800000000000") n++ }
		END { if (n) { w++; f += n } printf "walks %d user_frames %d\n", w, f }' \
		>"$out/frames-$method.txt"
	rm -f /tmp/b.data
done
echo 0 >"$t/function_profile_enabled"
[ -e "$knob" ] && echo 1 >"$knob"
dmesg >"$out/walk-dmesg.txt"
echo "done" >"$out/walk-done"
sync
exit 0
