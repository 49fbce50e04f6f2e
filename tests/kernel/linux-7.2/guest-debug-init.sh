#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# init of run-debug.sh's guest (the patched kernel with KASAN, lockdep,
# might-sleep, debug objects and kmemleak).  Lets perf sample as fast as it
# is asked (no throttling), has kmemleak scan once and forget what it
# suspects after boot, runs guest-init.sh (copied to /sft/debug/) on
# /sft/debug/progs.list, which records every program into /sft/out/debug/,
# then waits past kmemleak's minimum object age, has it scan twice and
# keeps its report (kmemleak.txt), /proc/slabinfo before and after
# (slabinfo-before.txt, slabinfo-after.txt, where the kernel has it) and
# the whole kernel log (dmesg-final.txt); writes debug-done last.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t debugfs debugfs /sys/kernel/debug
out=/sft/out/debug
mkdir -p "$out"
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
# (100000: the most the sysctl takes here; writing more fails.)
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
kml=/sys/kernel/debug/kmemleak
{
	echo "max sample rate: $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
	echo "perf cpu time max percent: $(cat /proc/sys/kernel/perf_cpu_time_max_percent)"
} >"$out/debug.log"
if [ -e "$kml" ]; then
	# What boot left unreferenced is not ours: reported once, then grey.
	echo scan >"$kml"
	cat "$kml" >"$out/kmemleak-boot.txt"
	echo clear >"$kml"
	echo "kmemleak: on; boot's suspects cleared ($(grep -c '^unreferenced object' "$out/kmemleak-boot.txt"))" >>"$out/debug.log"
else
	echo "kmemleak: absent" >>"$out/debug.log"
fi
[ -r /proc/slabinfo ] && cat /proc/slabinfo >"$out/slabinfo-before.txt"
start=$(date +%s)
# Without build ids (-B -N): perf record's last pass, which reads the
# whole recording back to find them, is skipped; perf script finds the
# files by name, in the same root.  (A program took about 40 s with
# run.sh's budgets and build ids, 30 to 37 s with three times the budgets
# and without them: how much of that is -B -N was not measured apart.)
# Recordings may take 5 minutes, not 60 seconds.
sflist=/sft/debug/progs.list sfout=debug sfperf="-B -N" sftimeout=300 sh /sft/debug/guest-init.sh
echo "programs: $(($(date +%s) - start)) s" >>"$out/debug.log"
# guest-init.sh mounted sysfs again, over this one and its debugfs.
mount -t debugfs debugfs /sys/kernel/debug
if [ -e "$kml" ]; then
	# kmemleak reports objects older than 5 s only.
	sleep 6
	echo scan >"$kml"
	echo scan >"$kml"
	cat "$kml" >"$out/kmemleak.txt"
fi
[ -r /proc/slabinfo ] && cat /proc/slabinfo >"$out/slabinfo-after.txt"
dmesg >"$out/dmesg-final.txt"
echo "total in the guest: $(($(date +%s) - start)) s" >>"$out/debug.log"
echo "done" >"$out/debug-done"
sync
exit 0
