#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# Boots KERNEL in qemu-system-x86_64 with ROOT (a Debian root folder) as its
# root file system over 9p and INIT (a path inside ROOT) as init; the guest
# ends by letting init exit (panic=-1 with -no-reboot stops qemu).
# Software emulation (TCG): KVM is not there everywhere this runs.
# Usage: boot-guest.sh ROOT KERNEL INIT LOG SECONDS [PARAM=VALUE...]
#   PARAM=VALUE: more kernel command line words; init gets them in its
#   environment.  qemu's console output goes to LOG; it is stopped after
#   SECONDS.  Exits with qemu's (or timeout's) status.
set -eu
root=$1 kernel=$2 init=$3 log=$4 secs=$5
shift 5
exec timeout "$secs" qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
	-kernel "$kernel" \
	-append "console=ttyS0 root=root rootfstype=9p rootflags=trans=virtio,version=9p2000.L rw init=$init panic=-1 quiet $*" \
	-virtfs "local,path=$root,mount_tag=root,security_model=passthrough,id=root,multidevs=remap" \
	</dev/null >"$log" 2>&1
