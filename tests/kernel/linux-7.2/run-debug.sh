#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# The patched Linux 7.2 kernel of run.sh once more, built with the kernel's
# own checkers, under the heaviest sampling the guest takes: the SFrame
# walks must neither corrupt memory, nor take locks or sleep where they
# must not, nor leak.  Runs after run.sh, on its WORKDIR (Debian 12 host,
# root):
#   1. builds WORKDIR/bzImage-debug out of tree (WORKDIR/build-debug) from
#      run.sh's patched tree (WORKDIR/linux-source-7.2, copied with hard
#      links into WORKDIR/linux-source-7.2-debug and cleaned there: kbuild
#      builds out of tree only from a clean source tree, and run.sh's is
#      built in place) with run.sh's patched .config plus
#        KASAN (generic, inline; KASAN_VMALLOC keeps VMAP_STACK),
#        PROVE_LOCKING (lockdep, PROVE_RCU), DEBUG_ATOMIC_SLEEP,
#        DEBUG_PREEMPT, DEBUG_OBJECTS with its FREE, TIMERS, WORK,
#        RCU_HEAD and PERCPU_COUNTER checks, DEBUG_KMEMLEAK (DEBUG_FS,
#        KALLSYMS), and what they need: SLUB instead of tinyconfig's
#        SLUB_TINY (KASAN needs it; SLUB_DEBUG comes with it, so
#        /proc/slabinfo too) and the ORC unwinder instead of the guessing
#        one (reports' stacks, and kmemleak's backtraces, without stale
#        return addresses);
#   2. builds the stress programs (build-progs.sh into the root's
#      /sft/debug, so that run.sh's /sft/bin stays as it is):
#      prog-dlstress (dlopen/dlclose, mprotect of text and .sframe,
#      mmap/munmap/mremap churn), prog-forkexec (fork, exec, posix_spawn
#      storm), prog-scribble (overwrites its own .sframe while walked);
#   3. boots it (qemu TCG, the root over 9p; guest-debug-init.sh) and
#      records every program of run.sh's table (the root's /sft/progs.list,
#      the list the patched kernel ran) and the three stress programs, each
#      with perf record -e cpu-clock -F RATE --call-graph fp,defer, with
#      perf_event_max_sample_rate raised and perf_cpu_time_max_percent 0;
#      kmemleak's boot-time suspects are cleared first, and it scans at the
#      end;
#   4. check-debug.py fails on any report in the kernel log (KASAN,
#      lockdep, might-sleep or preemption, debug objects, any other BUG:,
#      WARNING:, Oops, general protection, panic, RCU stall), a kmemleak
#      object allocated through the unwinder (other suspects are listed,
#      not judged), a program that failed, got no samples or did not run,
#      or a guest that did not finish.  check.py's judgement of the walks
#      under this kernel is printed too, not judged (the debug kernel is
#      slower, the samples fewer per second of program).
# Cost on 2 cores (2026-11-29): the kernel build 11.5 minutes (691 s, the
# hard-linked copy and its cleaning included) while another kernel build
# and guest shared the cores; the same build alone is about 11 minutes of
# CPU (9.7 user, 1.3 system), so 6 to 7 minutes on 2 idle cores.  The
# guest 14 minutes (846 s: boot, 786 s of programs, kmemleak's scans):
# each program costs about 35 s, most of it perf's start and end under
# KASAN and lockdep in emulation, not the recording.  About 21 minutes in
# all on an idle machine.  WORKDIR/build-debug takes 0.4 GB (the copy of
# the tree is hard links).
# Last line: "debug-kernel: N programs, M samples, R reports (KASAN K,
# lockdep L, might-sleep S, debugobjects D, kmemleak X, other O)".
#
# Usage: run-debug.sh WORKDIR   (a WORKDIR that run.sh has run in)
# Environment:
#   SFRAME_SID_ROOT=DIR      the root run.sh used, if not WORKDIR/root
#   SFRAME_REUSE_KERNELS=1   keep WORKDIR/bzImage-debug if it exists
#   SFRAME_DEBUG_RATE=HZ     perf's -F (default 10000)
#   SFRAME_DEBUG_SECONDS=S   wall seconds of each stress program (default 10)
#   SFRAME_DEBUG_SCALE=K     run.sh's programs get K times their CPU seconds
#                            (default 3)
#   SFRAME_DEBUG_TIMEOUT=S   the guest's time limit (default 2400)
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 WORKDIR  (run tests/kernel/linux-7.2/run.sh WORKDIR first)" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # phases.sh reads it
me=run-debug.sh
# phase, die, quiet.
# shellcheck source=/dev/null
. "$here/phases.sh"
[ -d "$1" ] || die "no WORKDIR $1: run run.sh $1 first"
work=$(cd "$1" && pwd)
root=${SFRAME_SID_ROOT:-$work/root}
[ -d "$root" ] || die "no root $root: run run.sh $1 first"
root=$(cd "$root" && pwd)
sft=$root/sft
ksrc=$work/linux-source-7.2
logs=$work/logs
rate=${SFRAME_DEBUG_RATE:-10000}
secs=${SFRAME_DEBUG_SECONDS:-10}
scale=${SFRAME_DEBUG_SCALE:-3}
jobs=$(nproc)
# What run.sh leaves behind and this run needs.
for f in "$work/bzImage" "$ksrc/Makefile" "$ksrc/.config" "$ksrc/kernel/unwind/sframe_user.c" \
	"$sft/progs.list" "$root/usr/bin/perf" "$root/usr/bin/gcc"; do
	[ -e "$f" ] || die "$f is missing: run.sh $1 has not run (or its patched kernel did not build)"
done
grep -qx CONFIG_UNWIND_USER_SFRAME=y "$ksrc/.config" ||
	die "$ksrc/.config is not the patched kernel's (no CONFIG_UNWIND_USER_SFRAME=y)"
mkdir -p "$logs"

# ---------------------------------------------------------------- kernel
# The checkers, on top of run.sh's patched configuration.
dopts="DEBUG_KERNEL KASAN KASAN_GENERIC KASAN_VMALLOC PROVE_LOCKING DEBUG_ATOMIC_SLEEP
       DEBUG_PREEMPT DEBUG_OBJECTS DEBUG_OBJECTS_FREE DEBUG_OBJECTS_TIMERS
       DEBUG_OBJECTS_WORK DEBUG_OBJECTS_RCU_HEAD DEBUG_OBJECTS_PERCPU_COUNTER
       DEBUG_KMEMLEAK DEBUG_FS KALLSYMS STACKTRACE UNWINDER_ORC SLUB_DEBUG
       UNWIND_USER_SFRAME"
dnot="SLUB_TINY UNWINDER_GUESS DEBUG_OBJECTS_SELFTEST DEBUG_KMEMLEAK_DEFAULT_OFF"
phase "debug kernel build"
dkernel=$work/bzImage-debug
dsrc=$work/linux-source-7.2-debug
bdir=$work/build-debug
if [ "${SFRAME_REUSE_KERNELS:-}" = 1 ] && [ -s "$dkernel" ]; then
	echo "reusing $dkernel"
else
	rm -f "$dkernel"
	rm -rf "$dsrc"
	cp -al "$ksrc" "$dsrc"
	quiet "$logs/mrproper-debug.log" make -C "$dsrc" mrproper
	mkdir -p "$bdir"
	cp "$ksrc/.config" "$bdir/.config"
	for o in $dopts; do
		"$dsrc/scripts/config" --file "$bdir/.config" -e "$o"
	done
	for o in $dnot; do
		"$dsrc/scripts/config" --file "$bdir/.config" -d "$o"
	done
	quiet "$logs/olddefconfig-debug.log" make -C "$dsrc" O="$bdir" olddefconfig
	for o in $dopts; do
		grep -qx "CONFIG_$o=y" "$bdir/.config" ||
			die "CONFIG_$o is not set after olddefconfig (debug kernel)"
	done
	quiet "$logs/kbuild-debug.log" make -C "$dsrc" O="$bdir" -j"$jobs" bzImage ||
		die "debug kernel build failed"
	cp "$bdir/arch/x86/boot/bzImage" "$dkernel"
fi

# ---------------------------------------------------------------- programs
phase "stress programs"
dbg=$sft/debug
rm -rf "${dbg:?}"
mkdir -p "$dbg/src"
cp "$here"/*.c "$here"/*.h "$here/build-progs.sh" "$dbg/src/"
quiet "$logs/build-progs-debug.log" chroot "$root" sh /sft/debug/src/build-progs.sh \
	/sft/debug/src /sft/debug || die "building the stress programs failed"
# run.sh's table with each program's CPU seconds times SFRAME_DEBUG_SCALE:
# under this kernel a program's start (exec, the loader, page faults over
# 9p, each sample's cost) takes about a second of its CPU time, and with
# run.sh's budgets most programs ended before their first round.
{
	awk -v k="$scale" '/^[^#]/ && NF > 2 { $2 = $2 * k } { print }' "$sft/progs.list"
	echo "dlstress $secs /sft/debug/bin/prog-dlstress"
	echo "forkexec $secs /sft/debug/bin/prog-forkexec"
	echo "scribble $secs /sft/debug/bin/prog-scribble"
} >"$dbg/progs.list"
cp "$here/guest-init.sh" "$dbg/guest-init.sh"
cp "$here/guest-debug-init.sh" "$dbg/init.sh"
chmod +x "$dbg/init.sh"

# ---------------------------------------------------------------- guest
phase "guest: debug kernel"
out=$sft/out/debug
rm -rf "${out:?}"
# kasan_multi_shot: every KASAN report, not only the first; loglevel=5:
# warnings on the console too, in case the guest cannot save its log.
"$here/boot-guest.sh" "$root" "$dkernel" /sft/debug/init.sh "$logs/qemu-debug.log" \
	"${SFRAME_DEBUG_TIMEOUT:-2400}" sfout=debug "sfrate=$rate" kasan_multi_shot loglevel=5 ||
	true
if [ -e "$out/debug-done" ]; then
	for data in "$out"/*.data; do
		[ -e "$data" ] || continue
		chroot "$root" perf --no-pager script -i "/sft/out/debug/$(basename "$data")" \
			-F comm,pid,tid,ip,sym,symoff,dso >"${data%.data}.script" \
			2>"${data%.data}.script-err" || true
	done
else
	tail -60 "$logs/qemu-debug.log"
	echo "run-debug.sh: the debug guest did not finish (log: $logs/qemu-debug.log)" >&2
fi

# ---------------------------------------------------------------- verdict
phase "check"
# The walks under this kernel, as check.py judges run.sh's: shown, not
# judged (check.py reads KERNEL/ under its folder: "sframe" here).
walks=$(mktemp -d)
ln -s "$out" "$walks/sframe"
python3 "$here/check.py" "$walks" sframe >"$logs/check-debug-walks.txt" 2>&1 || true
rm -rf "$walks"
status=0
python3 "$here/check-debug.py" "$out" "$dbg/progs.list" "$logs/qemu-debug.log" \
	>"$logs/check-debug.txt" || status=$?
phase ""
echo
echo "Phase timings:"
printf '%s' "$timings"
printf '%-34s %5ds\n' "total" $(($(date +%s) - run_start))
[ -e "$out/debug.log" ] && sed 's/^/guest: /' "$out/debug.log"
echo
echo "walks under the debug kernel (check.py, not judged): $(tail -1 "$logs/check-debug-walks.txt")"
cat "$logs/check-debug.txt"
exit "$status"
