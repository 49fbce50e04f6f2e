#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# init of bench.sh's guest.  For the static test program without frame
# pointers with the SFrame walk (knob 1), and for its frame-pointer build
# with the walk off (knob 0): the program's own system time for a fixed
# amount of work, unsampled and sampled with perf --call-graph fp,defer at a
# fixed high rate, and the number of samples; RUNS times each.  Writes result lines to
# /sft/out/bench/results.txt:
#   METHOD base|sampled RUN sys_us=N user_us=N samples=N
# sfrounds, sfruns and sfrate come from the kernel command line.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmp /tmp
out=/sft/out/bench
mkdir -p "$out"
res=$out/results.txt
: >"$res"
cd /tmp || exit 1
rounds=${sfrounds:-5000}
runs=${sfruns:-5}
rate=${sfrate:-4000}
# No throttling: every sample must be taken at the rate asked for.
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 200000 >/proc/sys/kernel/perf_event_max_sample_rate
knob=/sys/module/sframe_user/parameters/enabled
echo "kernel $(uname -r) rounds $rounds runs $runs rate $rate" >>"$res"
[ -e "$knob" ] || echo "knob absent" >>"$res"
for method in sframe fp; do
	if [ "$method" = sframe ]; then
		prog=/sft/bin/prog-static v=1
	else
		prog=/sft/bin/prog-static-fp v=0
	fi
	[ -e "$knob" ] && echo "$v" >"$knob"
	for run in $(seq "$runs"); do
		line=$("$prog" 0 "$rounds")
		echo "$method base $run $(echo "$line" | sed 's/rounds [0-9]* //; s/ /=/g; s/=\([0-9]*\)=/=\1 /g') samples=0" >>"$res"
		line=$(perf --no-pager record -e cpu-clock -F "$rate" --call-graph fp,defer \
			-o /tmp/b.data -- "$prog" 0 "$rounds" 2>/tmp/rec.err </dev/null)
		n=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/rec.err)
		echo "$method sampled $run $(echo "$line" | sed 's/rounds [0-9]* //; s/ /=/g; s/=\([0-9]*\)=/=\1 /g') samples=${n:-0}" >>"$res"
		rm -f /tmp/b.data
	done
done
[ -e "$knob" ] && echo 1 >"$knob"
dmesg >"$out/dmesg.txt"
echo "done" >"$out/done"
sync
exit 0
