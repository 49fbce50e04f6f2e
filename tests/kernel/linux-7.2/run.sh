#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# perf's user callchains under Linux 7.2, stock and with the SFrame series
# (src/linux/apply.sh), for programs built -O2 -Wa,--gsframe without frame
# pointers.  Runs on a Debian 12 host as root:
#   1. installs the host tools (debootstrap, qemu, the kernel build's needs);
#   2. makes a Debian sid root (minbase, then gcc, binutils and linux-perf,
#      installed in the background while the kernels build) and fetches
#      linux-source-7.2 with apt-get download inside it;
#   3. builds the stock kernel (WORKDIR/bzImage-stock), applies the series,
#      enables UNWIND_USER_SFRAME and builds again (WORKDIR/bzImage);
#   4. builds the test programs in the root (build-progs.sh), re-encodes,
#      nests (one function's FDE grown over the next) and corrupts copies
#      with sframe-elf.py; builds prog-qsort.c as
#      distributions build (no SFrame, no frame pointers) and converts it,
#      the root's libc.so.6 and ld.so, never rebuilt, with sframe convert
#      --elf (the tool built from this tree, or $SFRAME);
#   5. boots each kernel in qemu (software emulation) with the root over
#      9p, records every program with perf --call-graph fp,defer
#      (guest-init.sh), runs perf script in the root;
#   6. check.py judges every sample whose top user frame is in our code
#      against each program's known call structure, and the hostile runs.
#   7. disassembles the patched kernel's reader (kernel/unwind/sframe_*.o):
#      its section reads are inline user reads (the env header's read hook),
#      so no object may hold an indirect call.
# Exits 0 only if the patched kernel walks >= 99% of the samples to main
# (or the thread start routine), the converted stock program's included,
# the hostile, unmap and nest checks pass, the reader has no indirect call, and
# the root's objdump dumps the converted copies as sframe dump does
# (check-objdump.sh).
# Last line: "sframe-perf: N/M samples complete (stock kernel: K/L)".
#
# Usage: run.sh WORKDIR
# Environment:
#   SFRAME_SID_ROOT=DIR       use this existing Debian sid root (with gcc,
#                             binutils >= 2.45 and linux-perf 7.2) instead of
#                             making WORKDIR/root; the run writes /sft in it
#   SFRAME_DEBIAN_MIRROR=URL  mirror for debootstrap (default deb.debian.org)
#   SFRAME=PATH               the sframe tool (default: built into WORKDIR/tool)
#   SFRAME_REUSE_KERNELS=1    keep WORKDIR/bzImage-stock and WORKDIR/bzImage
#                             if they exist (for reruns while developing)
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 WORKDIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mkdir -p "$1"
work=$(cd "$1" && pwd)
logs=$work/logs
mkdir -p "$logs"
export DEBIAN_FRONTEND=noninteractive
jobs=$(nproc)
mirror=${SFRAME_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# shellcheck disable=SC2034 # phases.sh reads it
me=run.sh
# phase, die, quiet.
# shellcheck source=/dev/null
. "$here/phases.sh"
# twice CMD...: a download that fails is tried once more.
twice() {
	"$@" || { echo "run.sh: retrying: $*" >&2; sleep 5; "$@"; }
}
# lists LOG CMD...: refresh package lists.  A mirror caught mid-sync fails
# one index (often a foreign architecture's) while the rest are fresh, so a
# refresh that still fails after a wait is a warning: the install or download
# that follows decides whether what is needed is there.
lists() {
	local log=$1
	shift
	quiet "$log" "$@" && return 0
	echo "run.sh: retrying in 30 s: $*" >&2
	sleep 30
	quiet "$log" "$@" && return 0
	echo "run.sh: warning: package lists partly stale; going on" >&2
}

# ---------------------------------------------------------------- host
phase "host packages"
pkgs="debootstrap qemu-system-x86 make gcc libc6-dev flex bison libelf-dev bc
      patch python3 xz-utils ca-certificates binutils"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	lists "$logs/apt-host-update.log" apt-get update
	# shellcheck disable=SC2086
	twice quiet "$logs/apt-host.log" apt-get install -y --no-install-recommends $missing ||
		die "cannot install:$missing"
fi

# ---------------------------------------------------------------- root
phase "sid root (minbase)"
sid_apt="-o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root"
if [ -n "${SFRAME_SID_ROOT:-}" ]; then
	root=$(cd "$SFRAME_SID_ROOT" && pwd)
	[ -x "$root/usr/bin/apt-get" ] || die "SFRAME_SID_ROOT=$root is not a Debian root"
else
	root=$work/root
	if [ ! -e "$root/.sft-minbase" ]; then
		rm -rf "$root"
		debootstrap_once() {
			rm -rf "$root"
			quiet "$logs/debootstrap.log" debootstrap --variant=minbase sid "$root" "$mirror"
		}
		twice debootstrap_once || die "debootstrap failed"
		touch "$root/.sft-minbase"
	fi
fi
sft=$root/sft
mkdir -p "$sft"

phase "linux-source-7.2 download"
# shellcheck disable=SC2086
lists "$logs/apt-root-update.log" chroot "$root" apt-get $sid_apt update
mkdir -p "$sft/dl"
rm -f "$sft"/dl/linux-source-7.2_*.deb
# shellcheck disable=SC2086
twice quiet "$logs/apt-source.log" chroot "$root" sh -c \
	"cd /sft/dl && apt-get $sid_apt download linux-source-7.2" ||
	die "apt-get download linux-source-7.2 failed"

# gcc, binutils and perf go into the root while the host builds kernels.
root_tools() {
	chroot "$root" sh -c 'command -v gcc && command -v perf && command -v readelf' \
		>/dev/null 2>&1 && return 0
	local _
	for _ in 1 2; do
		# shellcheck disable=SC2086
		chroot "$root" apt-get $sid_apt install -y --no-install-recommends \
			gcc libc6-dev binutils linux-perf && return 0
		echo "run.sh: retrying the root's install" >&2
		sleep 5
	done
	return 1
}
root_tools >"$logs/apt-root-install.log" 2>&1 &
root_tools_pid=$!

phase "linux-source-7.2 extract"
ksrc=$work/linux-source-7.2
if [ "${SFRAME_REUSE_KERNELS:-}" = 1 ] && [ -s "$work/bzImage-stock" ] &&
	[ -d "$ksrc" ]; then
	echo "reusing $ksrc and the built kernels"
else
	rm -rf "$ksrc"
	dpkg-deb --fsys-tarfile "$sft"/dl/linux-source-7.2_*.deb |
		tar -xO ./usr/src/linux-source-7.2.tar.xz | tar -xJ -C "$work"
	rm -f "$work/bzImage-stock" "$work/bzImage"
fi
[ -f "$ksrc/Makefile" ] || die "no kernel tree at $ksrc"

# ---------------------------------------------------------------- kernels
# The issue's recipe: tinyconfig plus what the guest needs (serial console,
# 9p root over virtio, ELF and scripts, perf events, the user unwinder),
# and a 1000 Hz tick with high-resolution timers: cpu-clock cannot sample
# faster than the guest's timers fire, and at tinyconfig's 250 Hz a run
# gets too few samples (the emulated guest still samples below perf's -F).
kopts="64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE BINFMT_ELF BINFMT_SCRIPT
       PROC_FS SYSFS DEVTMPFS DEVTMPFS_MOUNT BLK_DEV_INITRD PERF_EVENTS MULTIUSER
       FUTEX EPOLL SIGNALFD TIMERFD EVENTFD SHMEM TMPFS HYPERVISOR_GUEST
       PARAVIRT KVM_GUEST VIRTIO_MENU VIRTIO VIRTIO_PCI PCI NET NET_9P
       NET_9P_VIRTIO 9P_FS UNIX SMP UNWIND_USER HIGH_RES_TIMERS HZ_1000"
# NET (for 9p) brings IPv4, IPv6 and wireless by default: the guest needs
# none of them, and leaving them out makes both builds shorter.  HZ_250:
# tinyconfig's tick rate, replaced by HZ_1000.
knot="INET WIRELESS HZ_250"
# kconfig NAME OPTS...: enable OPTS on top of the tree's .config and check
# that each one stuck (a dependency missing would drop it silently).
kconfig() {
	local o
	for o in "${@:2}"; do
		"$ksrc/scripts/config" --file "$ksrc/.config" -e "$o"
	done
	for o in $knot; do
		"$ksrc/scripts/config" --file "$ksrc/.config" -d "$o"
	done
	quiet "$logs/olddefconfig-$1.log" make -C "$ksrc" olddefconfig || return 1
	for o in "${@:2}"; do
		grep -qx "CONFIG_$o=y" "$ksrc/.config" ||
			die "CONFIG_$o is not set after olddefconfig ($1 kernel)"
	done
}
kbuild() {
	quiet "$logs/kbuild-$1.log" make -C "$ksrc" -j"$jobs" bzImage
}

phase "stock kernel build"
if [ ! -s "$work/bzImage-stock" ]; then
	quiet "$logs/tinyconfig.log" make -C "$ksrc" tinyconfig
	# shellcheck disable=SC2086
	kconfig stock $kopts
	kbuild stock || die "stock kernel build failed"
	cp "$ksrc/arch/x86/boot/bzImage" "$work/bzImage-stock"
fi

phase "patched kernel build"
patched=1
apply=$repo/src/linux/apply.sh
if [ -s "$work/bzImage" ]; then
	:
elif [ ! -f "$apply" ]; then
	patched=0
	echo "run.sh: ERROR: src/linux/apply.sh is missing: the patched kernel cannot be built" >&2
else
	# The same tree: the series touches a core header, so this rebuilds
	# nearly everything anyway.
	if [ ! -e "$ksrc/.sft-applied" ]; then
		quiet "$logs/apply.log" sh "$apply" "$ksrc" || die "src/linux/apply.sh failed"
		touch "$ksrc/.sft-applied"
	fi
	kconfig sframe UNWIND_USER_SFRAME
	kbuild sframe || die "patched kernel build failed"
	cp "$ksrc/arch/x86/boot/bzImage" "$work/bzImage"
fi

# ---------------------------------------------------------------- programs
phase "root tools (wait)"
wait "$root_tools_pid" || { tail -30 "$logs/apt-root-install.log"; die "installing gcc/perf into the root failed"; }

phase "test programs"
rm -rf "${sft:?}/src" "${sft:?}/bin" "${sft:?}/lib" "${sft:?}/cor" "${sft:?}/out"
mkdir -p "$sft/src"
cp "$here"/*.c "$here"/*.h "$here/build-progs.sh" "$sft/src/"
quiet "$logs/build-progs.log" chroot "$root" sh /sft/src/build-progs.sh /sft/src /sft ||
	die "building the test programs failed"
# Re-encodings and corrupt copies (sframe-elf.py works on the files).
recode=$here/sframe-elf.py
hostile=1
if [ -f "$recode" ]; then
	(
		set -e
		python3 "$recode" to-v2 "$sft/bin/prog-static" "$sft/bin/prog-static-v2"
		python3 "$recode" to-v2 "$sft/bin/prog-static" "$sft/bin/prog-static-v2pcrel" --pcrel
		python3 "$recode" nest "$sft/bin/prog-static" "$sft/bin/prog-static-nest" --func st_b
		for kind in header fde fre rep; do
			mkdir -p "$sft/cor/$kind"
			args=""
			[ "$kind" = header ] || args="--func cor_entry"
			# shellcheck disable=SC2086
			python3 "$recode" corrupt "$sft/lib/libsfcor.so" \
				"$sft/cor/$kind/libsfcor.so" "$kind" $args
		done
	) >"$logs/sframe-elf.log" 2>&1 || { cat "$logs/sframe-elf.log"; die "sframe-elf.py failed"; }
else
	hostile=0
	echo "run.sh: ERROR: $recode is missing: no v2 or corrupt programs" >&2
fi
# Stock code: sid's C library and ld.so as packaged, a program built as
# distributions build; their copies with .sframe converted from .eh_frame
# in a segment of its own (PT_GNU_SFRAME), which the kernel reads as any.
phase "stock programs"
sframe=${SFRAME:-}
if [ -z "$sframe" ]; then
	quiet "$logs/tool-build.log" sh -c "meson setup '$work/tool' '$repo' >/dev/null &&
		ninja -C '$work/tool' sframe" || die "building the sframe tool failed"
	sframe=$work/tool/sframe
fi
rm -rf "${sft:?}/stock" "${sft:?}/conv"
mkdir -p "$sft/stock" "$sft/conv"
quiet "$logs/build-stock.log" chroot "$root" gcc -O2 -g0 -fomit-frame-pointer \
	-I/sft/src -o /sft/stock/prog-qsort /sft/src/prog-qsort.c || die "building prog-qsort failed"
libc=$(chroot "$root" readlink -f /usr/lib/x86_64-linux-gnu/libc.so.6)
ldso=$(chroot "$root" readlink -f /lib64/ld-linux-x86-64.so.2)
for f in "$sft/stock/prog-qsort" "$root$libc" "$root$ldso"; do
	! readelf -lW "$f" | grep -q GNU_SFRAME || die "$f has SFrame: this check needs none"
done
{
	"$sframe" convert --elf "$sft/stock/prog-qsort" -o "$sft/conv/prog-qsort" &&
		"$sframe" convert --elf "$root$libc" -o "$sft/conv/libc.so.6" &&
		"$sframe" convert --elf "$root$ldso" -o "$sft/conv/ld-linux-x86-64.so.2"
} >"$logs/convert-stock.log" 2>&1 || { cat "$logs/convert-stock.log"; die "sframe convert --elf failed"; }
cat "$logs/convert-stock.log"
# binutils' own reading of the copies: the root's objdump against sframe dump.
objdump_ok=1
"$here/check-objdump.sh" "$root" "$sframe" /sft/conv/prog-qsort /sft/conv/libc.so.6 \
	/sft/conv/ld-linux-x86-64.so.2 >"$logs/check-objdump.txt" 2>&1 || objdump_ok=0
cat "$logs/check-objdump.txt"
secs=1.0
{
	echo "static $secs /sft/bin/prog-static"
	# The same with the lookup index off: the lookups without it.
	echo "static-noindex $secs knob:index=0 /sft/bin/prog-static"
	echo "dyn $secs /sft/bin/prog-dyn"
	echo "threads $secs /sft/bin/prog-threads"
	echo "unmap $secs /sft/bin/prog-unmap"
	echo "cor-plain $secs LD_LIBRARY_PATH=/sft/lib /sft/bin/prog-cor"
	echo "static-fp $secs /sft/bin/prog-static-fp"
	# The same stock program on the libraries as packaged, then all three
	# converted (ld.so run by hand, so that the converted one loads it).
	# Recorded from 1 s on: ld.so's own start (relocating libc, its IFUNC
	# resolvers), whose walks end at ld.so's entry and not at main, is over.
	echo "qsort-stock 2.0 delay:1000 /sft/stock/prog-qsort"
	echo "qsort-conv 2.0 delay:1000 /sft/conv/ld-linux-x86-64.so.2 --library-path /sft/conv /sft/conv/prog-qsort"
	if [ "$hostile" = 1 ]; then
		echo "static-v2 $secs /sft/bin/prog-static-v2"
		echo "static-v2pcrel $secs /sft/bin/prog-static-v2pcrel"
		# st_b's FDE grown over st_a: the memo's spans must stop at st_a.
		echo "static-nest $secs /sft/bin/prog-static-nest"
		for kind in header fde fre rep; do
			echo "cor-$kind $secs LD_LIBRARY_PATH=/sft/cor/$kind /sft/bin/prog-cor"
		done
	fi
} >"$sft/progs.list"
cp "$here/guest-init.sh" "$sft/init.sh"
chmod +x "$sft/init.sh"

# ---------------------------------------------------------------- guests
# boot NAME BZIMAGE: one guest run; its results land in $sft/out/NAME.
boot() {
	local name=$1 kernel=$2
	rm -rf "${sft:?}/out/$name"
	"$here/boot-guest.sh" "$root" "$kernel" /sft/init.sh "$logs/qemu-$name.log" 900 \
		"sfout=$name" || true
	[ -e "$sft/out/$name/done" ] || {
		tail -40 "$logs/qemu-$name.log"
		die "the $name guest did not finish (log: $logs/qemu-$name.log)"
	}
	local data
	for data in "$sft/out/$name"/*.data; do
		[ -e "$data" ] || continue
		chroot "$root" perf --no-pager script -i "/sft/out/$name/$(basename "$data")" \
			-F comm,pid,tid,ip,sym,symoff,dso >"${data%.data}.script" 2>"${data%.data}.script-err" || true
	done
}
kernels="stock"
phase "guest: stock kernel"
boot stock "$work/bzImage-stock"
if [ "$patched" = 1 ]; then
	phase "guest: patched kernel"
	boot sframe "$work/bzImage"
	kernels="stock sframe"
fi

# ---------------------------------------------------------------- verdict
phase "check"
status=0
python3 "$here/check.py" "$sft/out" $kernels >"$logs/check.txt" || status=$?
# The reader's objects as the patched kernel was built (also when reused):
# indirect calls, direct or through a retpoline thunk, tail calls included.
indirect="" nobj=0
if [ "$patched" = 1 ]; then
	for o in "$ksrc"/kernel/unwind/sframe_*.o; do
		[ -e "$o" ] || continue
		nobj=$((nobj + 1))
		dis=$logs/objdump-$(basename "$o" .o).txt
		objdump -dr "$o" >"$dis"
		hits=$(grep -E 'call +\*|jmp +\*|__x86_indirect_' "$dis" |
			sed "s|^|$(basename "$o"): |" || true)
		[ -z "$hits" ] || indirect="$indirect$hits"$'\n'
	done
fi
phase ""
echo
echo "Phase timings:"
printf '%s' "$timings"
printf '%-34s %5ds\n' "total" $(($(date +%s) - run_start))
echo
[ "$patched" = 1 ] || { echo "FAIL: no patched kernel (src/linux/apply.sh missing)"; status=1; }
[ "$hostile" = 1 ] || { echo "FAIL: no v2/corrupt programs (sframe-elf.py missing)"; status=1; }
[ "$objdump_ok" = 1 ] || { echo "FAIL: objdump reads the sframe convert --elf copies otherwise"; status=1; }
if [ "$patched" = 1 ]; then
	if [ "$nobj" = 0 ]; then
		echo "FAIL: no kernel/unwind/sframe_*.o in $ksrc to disassemble"
		status=1
	elif [ -n "$indirect" ]; then
		echo "FAIL: indirect calls in the reader's objects (kernel/unwind/sframe_*.o):"
		printf '%s' "$indirect"
		status=1
	else
		echo "reader objects: $nobj (kernel/unwind/sframe_*.o), no indirect call"
	fi
fi
# check.py's last line is the summary; it stays the last line.
cat "$logs/check.txt"
exit "$status"
