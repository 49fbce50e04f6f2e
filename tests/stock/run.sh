#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# sframe stack on stock Debian programs, which have no SFrame, against gdb's
# backtrace of the same stopped processes:
#   1. starts each program below, blocked at a known depth, from the
#      distribution's own binaries and libraries (nothing rebuilt; the two C
#      and C++ programs are built here without -Wa,--gsframe and without
#      frame pointers, as distributions build);
#   2. stops it (SIGSTOP: its registers stay put), prints every thread with
#      gdb (no separate debug files, no debuginfod: the same output on every
#      machine, and no inlined frames) and with sframe stack, which converts
#      each file's .eh_frame as the walk reaches it;
#   3. takes two cores of it: gdb's gcore of the stopped process, then the
#      kernel's core of its crash (SIGSEGV sent while it is stopped, taken
#      when it goes on: every thread where it was), and prints both with gdb
#      and with sframe stack --core (tests/core/crash-core.sh finds the
#      kernel's core);
#   4. tests/core/compare.py --converted matches the threads by id and
#      compares their frames (PCs; names where the code has SFrame of its
#      own, which none here has), live and in the cores.
# The programs:
#   python3   a recursive function 30 deep, blocked in time.sleep()
#   perl      a recursive sub 30 deep, blocked in sleep
#   bash      a recursive shell function 20 deep, blocked opening a FIFO
#   threads   python3 with four threads blocked in locks and sleeps
#   qsort     C: qsort() whose comparison blocks in nanosleep (frames of
#             libc's msort between the program's)
#   cxx       C++: std::sort whose comparison blocks in nanosleep
#
# Usage: run.sh OUTDIR SFRAME
# Needs gdb, gcc and g++ (CI installs them). Exits 0 only if compare.py
# does: no thread missing on either side and at least 99.9% of the frames
# identical; its last line is "core-compare: N/M frames identical (X%)".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fail() {
	echo "stock-test: $*" >&2
	exit 1
}
# shellcheck source=../core/crash-core.sh
. "$here/../core/crash-core.sh"
[ $# -eq 2 ] || fail "usage: run.sh OUTDIR SFRAME"
out=$1
sframe=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
[ -x "$sframe" ] || fail "$sframe: no sframe tool there"
for tool in gdb gcore gcc g++ python3 perl bash; do
	command -v "$tool" >/dev/null || fail "$tool is needed"
done
mkdir -p "$out/no-debug-files"

# ---- 1. programs ------------------------------------------------------------------
cat >"$out/qsort.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int calls;
static int cmp(const void *a, const void *b)
{
	if (++calls == 200) {
		struct timespec t = { 1000, 0 };
		puts("ready");
		fflush(stdout);
		nanosleep(&t, NULL);
	}
	return *(const int *)a - *(const int *)b;
}
int main(void)
{
	int v[4096], i;
	for (i = 0; i < 4096; i++)
		v[i] = (i * 7919) % 4096;
	qsort(v, 4096, sizeof(v[0]), cmp);
	return v[0];
}
EOF
cat >"$out/cxx.cc" <<'EOF'
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>
static int calls;
int main()
{
	std::vector<int> v(4096);
	for (int i = 0; i < 4096; i++)
		v[i] = (i * 7919) % 4096;
	std::sort(v.begin(), v.end(), [](int a, int b) {
		if (++calls == 200) {
			struct timespec t = { 1000, 0 };
			std::puts("ready");
			std::fflush(stdout);
			nanosleep(&t, nullptr);
		}
		return a < b;
	});
	return v[0];
}
EOF
gcc -O2 -fomit-frame-pointer -o "$out/qsort" "$out/qsort.c" || fail "cannot build qsort.c"
g++ -O2 -fomit-frame-pointer -o "$out/cxx" "$out/cxx.cc" || fail "cannot build cxx.cc"
for f in "$out/qsort" "$out/cxx"; do
	! readelf -S "$f" | grep -q ' \.sframe ' || fail "$f has SFrame: the test needs none"
done
mkfifo "$out/fifo"

# name|command (prints "ready" once blocked where it is to be caught)
progs=(
	"python3|/usr/bin/python3 -c 'import sys, time
def f(n):
    if n == 0:
        print(\"ready\", flush=True); time.sleep(1000)
    f(n - 1)
f(30)'"
	"perl|/usr/bin/perl -e '\$| = 1; sub f { my \$n = shift; if (\$n == 0) { print \"ready\\n\"; sleep 1000 } f(\$n - 1) } f(30)'"
	"bash|/usr/bin/bash -c 'f() { if (( \$1 )); then f \$(( \$1 - 1 )); else echo ready; read -r x < $out/fifo; fi; }; f 20'"
	"threads|/usr/bin/python3 -c 'import threading, time
lock = threading.Lock(); lock.acquire()
for i in range(4):
    threading.Thread(target=(lock.acquire if i % 2 else lambda: time.sleep(1000)), daemon=True).start()
time.sleep(0.5); print(\"ready\", flush=True); time.sleep(1000)'"
	"qsort|$out/qsort"
	"cxx|$out/cxx"
)

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -CONT "$p" 2>/dev/null || true
		kill -KILL "$p" 2>/dev/null || true
	done
	crash_core_end
}
trap cleanup EXIT
ulimit -c unlimited 2>/dev/null || fail "cannot raise the core size limit (ulimit -c unlimited)"
crash_core_begin "$out"

# both_on_core NAME EXE CORE: gdb's and sframe's stacks of CORE into the pairs.
both_on_core() {
	local name=$1 exe=$2 core=$3
	gdb -batch -nx -iex 'set debuginfod enabled off' \
		-iex "set debug-file-directory $out/no-debug-files" \
		-ex 'set backtrace past-main on' -ex 'set print frame-info location-and-address' \
		-ex 'info files' -ex 'thread apply all bt' "$exe" "$core" \
		>"$out/$name.gdb.txt" 2>&1 || fail "gdb on $core failed (see $out/$name.gdb.txt)"
	"$sframe" stack --core "$core" --exe "$exe" >"$out/$name.sframe.txt" \
		2>"$out/$name.sframe.err" ||
		fail "sframe stack --core $core failed: $(cat "$out/$name.sframe.err")"
	pairs+=("$out/$name.gdb.txt" "$out/$name.sframe.txt")
}

# ---- 2. both tools on each stopped process --------------------------------------
pairs=()
for entry in "${progs[@]}"; do
	name=${entry%%|*}
	cmd=${entry#*|}
	: >"$out/$name.ready"
	rm -rf "$out/run-$name"
	mkdir -p "$out/run-$name"
	(cd "$out/run-$name" && exec bash -c "exec $cmd" >"$out/$name.ready" 2>"$out/$name.stderr") &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 100); do
		grep -q ready "$out/$name.ready" && break
		sleep 0.1
	done
	grep -q ready "$out/$name.ready" || fail "$name never got ready ($(cat "$out/$name.stderr"))"
	# Out of the write that said so, into the wait.
	sleep 0.3
	kill -STOP "$pid"
	gdb -batch -nx -iex 'set debuginfod enabled off' \
		-iex "set debug-file-directory $out/no-debug-files" \
		-ex 'set backtrace past-main on' -ex 'set print frame-info location-and-address' \
		-ex "attach $pid" -ex 'info files' -ex 'thread apply all bt' -ex detach \
		>"$out/$name.gdb.txt" 2>&1 || fail "gdb on $name failed (see $out/$name.gdb.txt)"
	"$sframe" stack "$pid" >"$out/$name.sframe.txt" 2>"$out/$name.sframe.err" ||
		fail "sframe stack on $name failed: $(cat "$out/$name.sframe.err")"
	grep -q 'converted .eh_frame' "$out/$name.sframe.err" ||
		fail "$name: sframe stack converted nothing (see $out/$name.sframe.err)"
	threads=$(grep -c '^TID ' "$out/$name.sframe.txt" || true)
	frames=$(grep -c '^#' "$out/$name.sframe.txt" || true)
	printf '%-8s %2s threads %4s frames\n' "$name" "$threads" "$frames"
	pairs+=("$out/$name.gdb.txt" "$out/$name.sframe.txt")

	# Its cores: gdb's of it stopped, then the kernel's of its crash.
	exe=$(readlink -f "/proc/$pid/exe")
	gcore -o "$out/$name" "$pid" >"$out/$name.gcore.log" 2>&1 ||
		fail "gcore of $name failed (see $out/$name.gcore.log)"
	mv "$out/$name.$pid" "$out/$name.gcore"
	kill -SEGV "$pid"
	kill -CONT "$pid"
	rc=0
	wait "$pid" 2>/dev/null || rc=$?
	[ "$rc" = 139 ] || fail "$name ended with status $rc on SIGSEGV, not 139 (core dumped)"
	crash_core_take "$out/run-$name" "$pid" "$out/$name.crash" ||
		fail "no core of $name's crash (kernel.core_pattern: $(cat "$crash_core_pattern_file"))"
	both_on_core "$name-gcore" "$exe" "$out/$name.gcore"
	both_on_core "$name-crash" "$exe" "$out/$name.crash"
done
crash_core_end

# ---- 3. comparison ----------------------------------------------------------------
set +e
python3 "$here/../core/compare.py" --converted "${pairs[@]}" >"$out/compare.txt"
rc=$?
set -e
cat "$out/compare.txt"
exit "$rc"
