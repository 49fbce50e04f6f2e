#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# init of the guest (the Debian sid root over 9p): records every program of
# /sft/progs.list with perf and copies the data and the kernel log to
# /sft/out/$sfout/.  sfout comes from the kernel command line.  Ends by
# exiting: with panic=-1 and -no-reboot that stops qemu.  In the
# environment (run-debug.sh's guest-debug-init.sh runs this script as a
# child): sflist names another list than /sft/progs.list, sfperf adds
# options to perf record, sftimeout replaces the 60 seconds a program's
# recording may take.
# progs.list lines:
#   NAME SECONDS [knob:PARAM=VALUE] [delay:MS] [VAR=VALUE] PROGRAM [ARGS...]
# knob:PARAM=VALUE sets the sframe_user module parameter PARAM for that
# program only (where the kernel has it).  delay:MS starts the recording MS
# milliseconds after the program (perf record -D): a dynamic program's start
# runs in the loader before main, and its walks end at the loader's entry.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
# perf cannot write its data file on 9p (mmap): keep it on a tmpfs.
mount -t tmpfs tmp /tmp
out=/sft/out/${sfout:-unnamed}
rate=${sfrate:-2000}
mkdir -p "$out"
cd /tmp || exit 1
echo "kernel $(uname -r)" >"$out/guest.log"
knob=/sys/module/sframe_user/parameters/enabled
if [ -e "$knob" ]; then
	echo "sframe knob: $(cat $knob)" >>"$out/guest.log"
else
	echo "sframe knob: absent" >>"$out/guest.log"
fi
params=/sys/module/sframe_user/parameters
while read -r name secs rest; do
	case "$name" in ''|'#'*) continue ;; esac
	param="" old="" delay=""
	case "$rest" in
	knob:*)
		param=${rest%% *}
		param=${param#knob:}
		rest=${rest#* }
		if [ -e "$params/${param%%=*}" ]; then
			old=$(cat "$params/${param%%=*}")
			echo "${param#*=}" >"$params/${param%%=*}"
			echo "$name: knob ${param%%=*} $(cat "$params/${param%%=*}")" >>"$out/guest.log"
		fi
		;;
	esac
	case "$rest" in
	delay:*)
		delay=${rest%% *}
		delay=${delay#delay:}
		rest=${rest#* }
		;;
	esac
	echo "sframe-harness: begin $name" >/dev/kmsg
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # rest holds env and command words, sfperf options
	timeout "${sftimeout:-60}" perf --no-pager record -q -e cpu-clock -F "$rate" \
		${delay:+-D "$delay"} ${sfperf:-} \
		--call-graph fp,defer -o "/tmp/$name.data" -- env $rest "$secs" \
		</dev/null >"/tmp/$name.out" 2>&1
	rc=$?
	end=$(date +%s.%N)
	echo "sframe-harness: end $name" >/dev/kmsg
	echo "$name rc=$rc start=$start end=$end" >>"$out/guest.log"
	cp "/tmp/$name.out" "$out/$name.out"
	cp "/tmp/$name.data" "$out/$name.data" 2>/dev/null
	rm -f "/tmp/$name.data"
	[ -n "$old" ] && echo "$old" >"$params/${param%%=*}"
done <"${sflist:-/sft/progs.list}"
dmesg >"$out/dmesg.txt"
echo "done" >"$out/done"
sync
exit 0
