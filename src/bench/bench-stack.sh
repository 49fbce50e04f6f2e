#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
#
# bench-stack.sh - "sframe stack PID" against "eu-stack -p PID" on the same
# stopped process: the figures of src/bench/README.md, "sframe stack against eu-stack".
#
# Builds two programs from tests/stack_child.c (a thread spinning at a known
# depth), with SFrame and frame pointers like the test's child:
#   stack-dynamic  the child alone, linked dynamically (the C library, ld.so
#                  and the vDSO are mapped besides it);
#   stack-static   the child linked statically with N generated functions
#                  (sframe-bench gen-c, -O2 -Wa,--gsframe; default 70,000:
#                  an executable of about 11 MB, most of it code, with a
#                  symbol table of that many functions).
# and a third program nobody here built:
#   stack-python3  Debian's own python3, without SFrame, blocked in
#                  time.sleep() under a recursive function: sframe stack
#                  converts the functions its walk reaches from .eh_frame.
# Each is started, stopped with SIGSTOP once it is in place (both tools leave a
# stopped process stopped), and both tools are run on it alternately
# (hyperfine when installed, else the shell's own loop), the median of each
# reported in milliseconds. The process is then let go and ended.
#
# Usage, from the top of the source tree, after meson compile -C BUILDDIR:
#   sh src/bench/bench-stack.sh [--functions N] [--runs R] BUILDDIR WORKDIR
# BUILDDIR holds sframe and sframe-bench; CC (default cc) is the compiler
# (GNU as 2.40 or later). The generated program is kept in WORKDIR and
# reused by later runs with the same N.
set -eu

n=70000
runs=100
while [ $# -gt 2 ]; do
	case "$1" in
	--functions) n="$2"; shift 2 ;;
	--runs) runs="$2"; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 2 ] || [ ! -f tests/stack_child.c ]; then
	echo "usage: sh src/bench/bench-stack.sh [--functions N] [--runs R] BUILDDIR WORKDIR" >&2
	echo "(from the top of the source tree)" >&2
	exit 2
fi
tool="$1/sframe"
bench="$1/sframe-bench"
w="$2"
cc="${CC:-cc}"
command -v eu-stack >/dev/null || { echo "eu-stack not found (elfutils)" >&2; exit 1; }
mkdir -p "$w"

echo "== machine"
grep -m1 'model name' /proc/cpuinfo || true
echo "cores: $(nproc)"
uname -sr
"$cc" --version | head -n 1
eu-stack --version | head -n 1
command -v hyperfine >/dev/null && hyperfine --version

echo "== build"
flags="-O2 -Wa,--gsframe"
child="-O1 -fno-omit-frame-pointer -Wa,--gsframe -pthread"
"$cc" $child -o "$w/stack-dynamic" tests/stack_child.c
if [ ! -f "$w/stack-static-$n" ]; then
	k=1
	while [ "$k" -le 4 ]; do
		"$bench" gen-c "$n" --part "$k/4" >"$w/gen$k.c"
		# The generated main() is renamed: the child's is the program's.
		"$cc" $flags -Dmain=gen_main -c "$w/gen$k.c" -o "$w/gen$k.o" &
		if [ $((k % 2)) -eq 0 ]; then wait; fi
		k=$((k + 1))
	done
	wait
	"$cc" $child -static -o "$w/stack-static-$n" tests/stack_child.c \
		"$w/gen1.o" "$w/gen2.o" "$w/gen3.o" "$w/gen4.o"
fi
cp "$w/stack-static-$n" "$w/stack-static"

# median FILE: the middle of the numbers in FILE, one a line.
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# now_ms: a monotonic-enough clock in milliseconds (GNU date).
now_ms() {
	date +%s%N | awk '{ printf "%.3f\n", $1 / 1000000 }'
}

# one NAME PROGRAM ARG...: PROGRAM says "ready" on standard output once in place.
one() {
	name=$1
	shift
	echo "== $name: $(wc -c <"$1") bytes"
	fifo="$w/ready"
	rm -f "$fifo"
	mkfifo "$fifo"
	"$@" >"$fifo" &
	pid=$!
	read -r line <"$fifo"
	rm -f "$fifo"
	[ "$line" = ready ] || { echo "$name did not start" >&2; kill "$pid"; exit 1; }
	kill -STOP "$pid"
	"$tool" stack "$pid"
	eu-stack -p "$pid"
	if command -v hyperfine >/dev/null; then
		hyperfine -N --warmup 10 --runs "$runs" --export-json "$w/$name.json" \
			"$tool stack $pid" "eu-stack -p $pid" >/dev/null
		# One "median" (seconds) per command, in the order given.
		grep '"median"' "$w/$name.json" | tr -dc '0-9.\n' >"$w/$name.med"
		s=$(sed -n 1p "$w/$name.med")
		e=$(sed -n 2p "$w/$name.med")
		echo "$name sframe_stack_ms=$(awk "BEGIN { printf \"%.2f\", $s * 1000 }")" \
			"eu_stack_ms=$(awk "BEGIN { printf \"%.2f\", $e * 1000 }")" \
			"ratio=$(awk "BEGIN { printf \"%.2f\", $s / $e }")"
	else
		: >"$w/s.ms"
		: >"$w/e.ms"
		i=0
		while [ "$i" -lt "$runs" ]; do
			t0=$(now_ms); "$tool" stack "$pid" >/dev/null; t1=$(now_ms)
			eu-stack -p "$pid" >/dev/null; t2=$(now_ms)
			echo "$t1 $t0" | awk '{ print $1 - $2 }' >>"$w/s.ms"
			echo "$t2 $t1" | awk '{ print $1 - $2 }' >>"$w/e.ms"
			i=$((i + 1))
		done
		s=$(median "$w/s.ms")
		e=$(median "$w/e.ms")
		echo "$name sframe_stack_ms=$s eu_stack_ms=$e (shell loop)"
	fi
	kill -CONT "$pid"
	kill -USR1 "$pid"
	wait "$pid" || true
}

one stack-dynamic "$w/stack-dynamic" single
one stack-static "$w/stack-static" single
# The distribution's own interpreter, whatever python3 comes first in PATH.
py=$(readlink -f /usr/bin/python3)
one stack-python3 "$py" -c '
import signal, sys, time
signal.signal(signal.SIGUSR1, lambda *a: sys.exit(0))
def f(n):
    if n == 0:
        print("ready", flush=True)
        time.sleep(3600)
    else:
        f(n - 1)
f(12)'

