#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# init of bench.sh's guests.  Four methods: the static test program without
# frame pointers with the SFrame walk, its lookup index and its rule memo
# (sframe: knobs enabled 1, index 1, cache 1), the same without the index
# (noindex: enabled 1, index 0, cache 1), the same without the memo
# (nocache: enabled 1, index 1, cache 0: every frame's module found and
# looked up), and its frame-pointer build with the SFrame walk off (fp:
# enabled 0); in the walk part also prog-static-big (prog-static with 4000
# more functions in its section) the same three ways (big, bignoindex,
# bignocache).  sfpart (kernel command line) picks the part:
#
# sfpart=sample (default): the program's own system and user time for a
#   fixed amount of work, unsampled and sampled with perf --call-graph
#   fp,defer at a fixed high rate, and the number of samples; RUNS times
#   each, after one short sampled run of each, not counted.  Writes result
#   lines to /sft/out/bench/results.txt:
#     METHOD base|sampled RUN sys_us=N user_us=N samples=N
#   and /sft/out/bench/done.
# sfpart=walk (a kernel with ftrace's function profiler): the time of each
#   deferred user walk, measured by the kernel around unwind_user_faultable(),
#   sframe_mod_get() (finding the module) and sframe_lookup() (the
#   profiler's Hit, Time and Avg), and the user
#   frames per walk from perf script.  First one short sampled run of each
#   method, not counted: under emulation, code runs slower the first time
#   (qemu translates it), which favoured whichever SFrame method ran second
#   by 20 to 30%.  Then two sampled runs of each method, in the order of
#   walk-order.txt (there and back again, so that a drift favours none).
#   The profiler is switched on once and its counters read after each
#   program (turning it off and on again between them made 7.2's profiler
#   hook call a NULL function).  Writes /sft/out/bench/walk-N.txt
#   (the profiler's table, all CPUs, counted from the start; walk-0.txt
#   after the uncounted runs), frames-N.txt ("walks N user_frames N") for
#   the N-th counted run, walk-order.txt and walk-done.
# sfrounds, sfruns and sfrate come from the kernel command line too.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmp /tmp
out=/sft/out/bench
mkdir -p "$out"
cd /tmp || exit 1
part=${sfpart:-sample}
rounds=${sfrounds:-5000}
runs=${sfruns:-5}
rate=${sfrate:-4000}
knob=/sys/module/sframe_user/parameters/enabled
iknob=/sys/module/sframe_user/parameters/index
cknob=/sys/module/sframe_user/parameters/cache
methods="sframe noindex nocache fp"
# No throttling: every sample must be taken at the rate asked for.
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 200000 >/proc/sys/kernel/perf_event_max_sample_rate

# use METHOD: set $prog and the knobs for METHOD (sframe, noindex, nocache,
# fp, big, bignoindex or bignocache).
use() {
	case $1 in
	sframe) prog=/sft/bin/prog-static v=1 i=1 c=1 ;;
	noindex) prog=/sft/bin/prog-static v=1 i=0 c=1 ;;
	nocache) prog=/sft/bin/prog-static v=1 i=1 c=0 ;;
	big) prog=/sft/bin/prog-static-big v=1 i=1 c=1 ;;
	bignoindex) prog=/sft/bin/prog-static-big v=1 i=0 c=1 ;;
	bignocache) prog=/sft/bin/prog-static-big v=1 i=1 c=0 ;;
	*) prog=/sft/bin/prog-static-fp v=0 i=1 c=1 ;;
	esac
	[ -e "$knob" ] && echo "$v" >"$knob"
	[ -e "$iknob" ] && echo "$i" >"$iknob"
	[ -e "$cknob" ] && echo "$c" >"$cknob"
}
# record [ROUNDS]: one sampled run of $prog into /tmp/b.data; prints its
# own line.
record() {
	perf --no-pager record -e cpu-clock -F "$rate" --call-graph fp,defer \
		-o /tmp/b.data -- "$prog" 0 "${1:-$rounds}" 2>/tmp/rec.err </dev/null
}

if [ "$part" = walk ]; then
	t=/sys/kernel/tracing
	mount -t tracefs nodev "$t"
	echo unwind_user_faultable sframe_mod_get sframe_lookup >"$t/set_ftrace_filter"
	echo 1 >"$t/function_profile_enabled"
	for method in $methods big bignoindex bignocache; do
		use "$method"
		record $((rounds / 5 + 1)) >/dev/null
	done
	rm -f /tmp/b.data
	cat "$t"/trace_stat/function* >"$out/walk-0.txt"
	order="sframe noindex nocache fp big bignoindex bignocache"
	order="$order bignocache bignoindex big fp nocache noindex sframe"
	echo "$order" >"$out/walk-order.txt"
	n=0
	for method in $order; do
		n=$((n + 1))
		use "$method"
		record >/dev/null
		cat "$t"/trace_stat/function* >"$out/walk-$n.txt"
		# User frames of each sample's deferred chain (addresses below
		# the kernel's half).
		perf --no-pager script -i /tmp/b.data -F ip 2>/dev/null | awk '
			/^$/ { if (n) { w++; f += n } n = 0; next }
			{ a = $1; if (length(a) < 16 || a < "ffff800000000000") n++ }
			END { if (n) { w++; f += n } printf "walks %d user_frames %d\n", w, f }' \
			>"$out/frames-$n.txt"
		rm -f /tmp/b.data
	done
	echo 0 >"$t/function_profile_enabled"
	use sframe
	dmesg >"$out/walk-dmesg.txt"
	echo "done" >"$out/walk-done"
	sync
	exit 0
fi

res=$out/results.txt
: >"$res"
echo "kernel $(uname -r) rounds $rounds runs $runs rate $rate" >>"$res"
[ -e "$knob" ] || echo "knob absent" >>"$res"
[ -e "$iknob" ] || echo "index knob absent" >>"$res"
[ -e "$cknob" ] || echo "cache knob absent" >>"$res"
# Not counted: the first run of new code is slower (see the walk part).
for method in $methods; do
	use "$method"
	record $((rounds / 5 + 1)) >/dev/null
done
rm -f /tmp/b.data
for method in $methods; do
	use "$method"
	for run in $(seq "$runs"); do
		line=$("$prog" 0 "$rounds")
		echo "$method base $run $(echo "$line" | sed 's/rounds [0-9]* //; s/ /=/g; s/=\([0-9]*\)=/=\1 /g') samples=0" >>"$res"
		line=$(record)
		n=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/rec.err)
		echo "$method sampled $run $(echo "$line" | sed 's/rounds [0-9]* //; s/ /=/g; s/=\([0-9]*\)=/=\1 /g') samples=${n:-0}" >>"$res"
		rm -f /tmp/b.data
	done
done
use sframe
dmesg >"$out/dmesg.txt"
echo "done" >"$out/done"
sync
exit 0
