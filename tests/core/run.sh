#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# sframe stack --core against gdb's backtrace on real cores of three
# architectures, made on this (x86_64) machine:
#   1. builds prog-core.c (five threads stopped at different depths: a
#      recursion with alloca frames, a 4 KB frame, a chain through a shared
#      library, a read() that blocks, main; prog-core.c says which) with
#      -O2 -g0 -fomit-frame-pointer -Wa,--gsframe: dynamically linked on
#      x86_64 with libcore.so (libcore.c), statically for aarch64 with the
#      cross gcc (binutils >= 2.40 write aarch64 SFrame); for s390x, whose
#      SFrame needs binutils >= 2.45, it takes the bundled static program
#      fixtures/unwind/v3-s390x/unwind (fixtures/src/unwind.c: a call chain
#      run in a loop); checks that each program and library has a non-empty
#      .sframe section;
#   2. makes six cores:
#      gcore-x86_64  gdb's gcore of prog-core, its threads in place
#      crash-x86_64  the kernel's core of prog-core crashing (SIGSEGV, a
#                    write through a null pointer three calls below main)
#                    under ulimit -c unlimited.  kernel.core_pattern is the
#                    machine's: a file pattern is used as it is (the newest
#                    file it made is the core); a pipe (systemd-coredump,
#                    apport) is replaced by OUTDIR/crash/core.%p for the
#                    crash and restored right after, which needs root;
#                    without root, coredumpctl dump fetches the core the
#                    pipe stored
#      qemu-aarch64  prog-core under qemu-aarch64-static, and
#      qemu-s390x-1, -2, -3
#                    the s390x fixture under qemu-s390x-static, three times,
#                    all sent SIGABRT once inside their call chains (each
#                    stops elsewhere in it): qemu-user writes the guest's
#                    core as qemu_PROG_DATE_PID.core in its working
#                    directory (the kernel may write one of qemu itself,
#                    removed)
#   3. prints every thread of each core with gdb (gdb-multiarch for aarch64
#      and s390x; no separate debug files, no debuginfod: the same output on
#      every machine), checks that the cores hold the threads and functions
#      the programs stop in, and prints each core with sframe stack --core;
#   4. compare.py matches the threads by id and compares their frames.
# The aarch64 program is built without -mbranch-protection: gdb 13 cannot
# walk past a PAuth-signed return address in a qemu-user core (the core has
# no NT_ARM_PAC_MASK note), so there would be nothing to compare with.
# Exits 0 only if compare.py does: no thread missing on either side and at
# least 99.9% of the compared frames identical. Its last line is
# "core-compare: N/M frames identical (X%)".
#
# Usage: run.sh OUTDIR [SFRAME]
#   OUTDIR  gets the programs (bin/), the cores (NAME.core), both outputs
#           (NAME.gdb.txt, NAME.sframe.txt) and compare.txt
#   SFRAME  the sframe tool (default: $SFRAME, else build/sframe)
# Environment: CORE_PATTERN_FILE  the file kernel.core_pattern is read from and
#   written to (/proc/sys/kernel/core_pattern)
# Needs gcc and binutils >= 2.40, gcc-aarch64-linux-gnu, gdb (gcore),
# gdb-multiarch, qemu-user-static, python3; root if core_pattern pipes, and
# root or kernel.yama.ptrace_scope 0 for gcore.
set -euo pipefail
case $# in
1 | 2) ;;
*) echo "usage: $0 OUTDIR [SFRAME]" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=crash-core.sh
. "$here/crash-core.sh"
repo=$(cd "$here/../.." && pwd)
sframe=${2:-${SFRAME:-$repo/build/sframe}}
mkdir -p "$1"
out=$(cd "$1" && pwd)

fail() {
	echo "core-test: $*" >&2
	exit 1
}
for tool in gcc nm aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump gdb gcore gdb-multiarch qemu-aarch64-static \
	qemu-s390x-static python3; do
	command -v "$tool" >/dev/null || fail "$tool not found"
done
[ -x "$sframe" ] || fail "$sframe: no sframe tool there (pass its path as SFRAME)"
"$sframe" stack --help 2>&1 | grep -q -- '--core' ||
	fail "$sframe stack has no --core option"
ulimit -c unlimited 2>/dev/null || fail "cannot raise the core size limit (ulimit -c unlimited)"

# ---- 1. programs --------------------------------------------------------------
bin=$out/bin
rm -rf "$bin"
mkdir -p "$bin"
cflags=(-O2 -g0 -Wall -Wextra -Werror -D_GNU_SOURCE -fomit-frame-pointer "-Wa,--gsframe"
	-I"$repo/tests/kernel/linux-7.2")
cc() {
	local gcc=$1
	shift
	echo "  $gcc $*"
	"$gcc" "${cflags[@]}" "$@"
}
echo "=== building ($(gcc --version | head -n 1); $(as --version | head -n 1))"
cc gcc -shared -fPIC -o "$bin/libcore.so" "$here/libcore.c"
# shellcheck disable=SC2016
cc gcc -pthread -o "$bin/prog-core" "$here/prog-core.c" -L"$bin" -lcore -Wl,-rpath,'$ORIGIN'
cc aarch64-linux-gnu-gcc -static -pthread -o "$bin/prog-core-aarch64" "$here/prog-core.c" \
	"$here/libcore.c"
cp "$repo/fixtures/unwind/v3-s390x/unwind" "$bin/unwind-s390x"
# The static programs' functions with SFrame FDEs (their C library has none):
# the program's own, from objdump (binutils 2.40 dumps SFrame v1) and, for
# the v3 fixture, the list that comes with it and its SIGPROF handler, which
# has one too (fixtures/unwind/README.md).
aarch64-linux-gnu-objdump --sframe=.sframe "$bin/prog-core-aarch64" >"$bin/prog-core-aarch64.sframe.txt"
awk '/^ *func idx \[[0-9]+\]: pc = 0x[0-9a-f]+, size = [0-9]+ bytes$/ {
	sub(",", "", $6); printf "%s 0x%x\n", $6, $9 }' "$bin/prog-core-aarch64.sframe.txt" \
	>"$bin/prog-core-aarch64.functions"
fdes=$(sed -n 's/^ *Num FDEs: //p' "$bin/prog-core-aarch64.sframe.txt")
if [ -z "$fdes" ] || [ "$fdes" -eq 0 ] ||
	[ "$(wc -l <"$bin/prog-core-aarch64.functions")" != "$fdes" ]; then
	fail "cannot list the SFrame FDEs of $bin/prog-core-aarch64"
fi
{
	cat "$repo/fixtures/unwind/v3-s390x/unwind.syms"
	nm -S "$bin/unwind-s390x" | awk '$4 == "on_prof" { print "0x" $1, "0x" $2, $4 }'
} >"$bin/unwind-s390x.functions"
grep -q ' on_prof$' "$bin/unwind-s390x.functions" || fail "nm finds no on_prof in $bin/unwind-s390x"
for f in "$bin"/libcore.so "$bin"/prog-core "$bin"/prog-core-aarch64 "$bin"/unwind-s390x; do
	# compare.py's test of a module, so that both agree on what has SFrame.
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import compare
sys.exit(0 if compare.elf_has_sframe(sys.argv[2]) else 1)' "$here/../perf" "$f" ||
		fail "$f has no .sframe section (does GNU as take --gsframe?)"
	echo "  $(basename "$f"): has a .sframe section"
done

# ---- 2. cores -----------------------------------------------------------------
# wait_ready FILE PID: until the program's output says "ready" (10 s at most).
wait_ready() {
	for _ in $(seq 200); do
		grep -q '^ready$' "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || fail "the program (pid $2) ended before it was ready"
		sleep 0.05
	done
	fail "the program (pid $2) was not ready within 10 s"
}

# gcore: a running process, every thread in place.
echo "=== gcore-x86_64"
rm -f "$out"/gcore-x86_64*
"$bin/prog-core" wait >"$out/gcore-x86_64.stdout" &
pid=$!
wait_ready "$out/gcore-x86_64.stdout" "$pid"
gcore -o "$out/gcore-x86_64" "$pid" >"$out/gcore-x86_64.gcore.log" 2>&1 || {
	cat "$out/gcore-x86_64.gcore.log" >&2
	kill -KILL "$pid"
	fail "gcore of process $pid failed"
}
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
mv "$out/gcore-x86_64.$pid" "$out/gcore-x86_64.core"

# crash: the kernel's core of a SIGSEGV.
echo "=== crash-x86_64"
crash=$out/crash
rm -rf "$crash"
mkdir -p "$crash"
crash_core_begin "$crash"
trap crash_core_end EXIT
(cd "$crash" && exec "$bin/prog-core" crash >"$crash/stdout") &
pid=$!
rc=0
wait "$pid" || rc=$?
crash_core_end
trap - EXIT
[ "$rc" = 139 ] || fail "prog-core crash ended with status $rc, not 139 (SIGSEGV, core dumped)"
crash_core_take "$crash" "$pid" "$out/crash-x86_64.core" ||
	fail "no core of process $pid found (kernel.core_pattern: $(cat "$crash_core_pattern_file"))"

# qemu-user: the guest's core on SIGABRT.
# qemu_core NAME QEMU PROG ARGS...: runs PROG in OUTDIR/NAME, aborts it once
# it is in its chain, moves the guest's core to OUTDIR/NAME.core.
qemu_core() {
	local name=$1 dir=$out/$1 qemu=$2 c
	shift 2
	echo "=== $name"
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$dir" && exec "$qemu" "$@" >"$dir/stdout" 2>&1) &
	pid=$!
	if [ "$name" = qemu-aarch64 ]; then
		wait_ready "$dir/stdout" "$pid"
	else
		# The fixture's samples, taken in its chain, fill its snapshot
		# file: 64 KiB of them and it is in the chain (for seconds more).
		for _ in $(seq 200); do
			[ "$(stat -c %s "$dir/unwind.snap" 2>/dev/null || echo 0)" -ge 65536 ] && break
			kill -0 "$pid" 2>/dev/null || fail "$*: ended before its chain ran"
			sleep 0.05
		done
	fi
	kill -ABRT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 134 ] || fail "$qemu $*: status $rc, not 134 (SIGABRT)"
	c=$(find "$dir" -maxdepth 1 -name 'qemu_*.core' | head -n 1)
	[ -n "$c" ] || fail "$qemu wrote no qemu_*.core in $dir"
	mv "$c" "$out/$name.core"
	# The kernel's core of qemu itself, if the core pattern put one there.
	find "$dir" -maxdepth 1 -type f -name 'core*' -delete
}
qemu_core qemu-aarch64 qemu-aarch64-static "$bin/prog-core-aarch64" wait
# Three of the fixture: each stops at another point of its chain (or of its
# SIGPROF handler). A core where gdb itself cannot walk to main (the abort
# caught the handler at a point its unwinder does not pass) compares
# nothing: it is made again, up to five times.
for k in 1 2 3; do
	for try in 1 2 3 4 5; do
		qemu_core "qemu-s390x-$k" qemu-s390x-static "$bin/unwind-s390x" unwind.snap
		gdb-multiarch -batch -nx -iex 'set debuginfod enabled off' \
			-iex "set debug-file-directory $out/no-debug-files" \
			-ex 'set backtrace past-main on' -ex 'bt' "$bin/unwind-s390x" \
			"$out/qemu-s390x-$k.core" 2>&1 | grep -q '^#[0-9]* *0x[0-9a-f]* in main (' &&
			break
		echo "  gdb walks no further than the abort in this core: another (try $try)"
		[ "$try" -lt 5 ] || break
	done
done

# ---- 3. both outputs ----------------------------------------------------------
# NAME GDB EXE FUNCTIONS...: the functions gdb must find in the core.
cores=(
	"gcore-x86_64 gdb prog-core spin rec_level recurse big_frame lib_inner lib_outer via_lib blocked_b blocked_a main_b main_a main thr_start"
	"crash-x86_64 gdb prog-core crash_leaf crash_alloca crash_a main spin rec_level lib_inner blocked_b"
	"qemu-aarch64 gdb-multiarch prog-core-aarch64 spin rec_level recurse big_frame lib_inner lib_outer via_lib blocked_b blocked_a main_b main_a main thr_start"
	"qemu-s390x-1 gdb-multiarch unwind-s390x main __libc_start_call_main"
	"qemu-s390x-2 gdb-multiarch unwind-s390x main __libc_start_call_main"
	"qemu-s390x-3 gdb-multiarch unwind-s390x main __libc_start_call_main"
)
pairs=()
table=""
for entry in "${cores[@]}"; do
	read -r name gdb exe funcs <<<"$entry"
	core=$out/$name.core
	"$gdb" -batch -nx -iex 'set debuginfod enabled off' \
		-iex "set debug-file-directory $out/no-debug-files" \
		-ex 'set backtrace past-main on' -ex 'set print frame-info location-and-address' \
		-ex 'info files' -ex 'thread apply all bt' "$bin/$exe" "$core" \
		>"$out/$name.gdb.txt" 2>&1 || fail "$gdb on $core failed (see $out/$name.gdb.txt)"
	for fn in $funcs; do
		grep -q "^#[0-9]* *0x[0-9a-f]* in $fn (" "$out/$name.gdb.txt" ||
			fail "$name: gdb finds no frame of $fn in the core (see $out/$name.gdb.txt)"
	done
	threads=$(grep -c '^Thread [0-9]* (' "$out/$name.gdb.txt" || true)
	rc=0
	"$sframe" stack --core "$core" --exe "$bin/$exe" >"$out/$name.sframe.txt" \
		2>"$out/$name.sframe.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$out/$name.sframe.err" >&2
		fail "$sframe stack --core $core --exe $bin/$exe: exit status $rc"
	fi
	table+=$(printf '%-13s %8s %7s %7s' "$name" "$(($(stat -c %s "$core") / 1024))" \
		"$threads" "$(awk '/^Thread [0-9]+ \(/ { t = 1 } t && /^#/ { n++ } END { print n + 0 }' \
		"$out/$name.gdb.txt")")$'\n'
	pairs+=("$out/$name.gdb.txt" "$out/$name.sframe.txt")
done
echo
printf '%-13s %8s %7s %7s\n' core KiB threads "gdb frames"
printf '%s' "$table"
echo

# ---- 4. comparison --------------------------------------------------------------
set +e
python3 "$here/compare.py" --converted \
	--functions "$bin/prog-core-aarch64" "$bin/prog-core-aarch64.functions" \
	--functions "$bin/unwind-s390x" "$bin/unwind-s390x.functions" \
	"${pairs[@]}" >"$out/compare.txt"
rc=$?
set -e
cat "$out/compare.txt"
exit "$rc"
