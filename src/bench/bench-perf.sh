#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
#
# bench-perf.sh - "sframe perf" against "perf script" on the same perf.data
# files: the figures of src/bench/README.md, "sframe perf against perf script".
#
# Builds the programs of tests/perf (gcc -O2 -fomit-frame-pointer
# -Wa,--gsframe, dynamically linked) and records each for SECONDS of CPU
# with perf record -e cpu-clock -F 999 --call-graph=dwarf,16384, with
# perf's build-id cache on, as by default, in WORKDIR/buildid (the
# recordings and the cache are kept in WORKDIR and reused by later runs;
# both tools are given that cache). Then, per file:
#   end to end   wall time, best of RUNS, of
#                  perf script -F comm,tid,time,period,event,ip,sym,symoff,dso
#                  --no-inline (its DWARF unwinder, with callchains), and of
#                  sframe perf -q (the same layout, SFrame), output to
#                  /dev/null; and perf script without the callchain fields
#                  (-F comm,tid,time,period,event), what perf costs before
#                  any unwinding;
#   unwinding    per sample: sframe perf's own figure (the time spent in
#                  sframe_unwind_stack(), which it prints), and two of
#                  perf's: the callchain work, perf script's time with the
#                  callchain fields less its time without, over the samples
#                  (unwinding, symbols and printing: an upper bound); and
#                  the share of perf script's samples (perf record -F 4999
#                  on perf script itself) in its unwinding libraries
#                  (libunwind, libdw, libelf) times its wall time, over the
#                  samples (its own glue around them not counted: a lower
#                  bound).
#
# Usage, from the top of the source tree, after meson compile -C BUILDDIR,
# as root (perf record):
#   bash src/bench/bench-perf.sh [--seconds S] [--runs R] BUILDDIR WORKDIR
set -euo pipefail

seconds=8
runs=3
while [ $# -gt 2 ]; do
	case "$1" in
	--seconds) seconds="$2"; shift 2 ;;
	--runs) runs="$2"; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 2 ] || [ ! -f tests/perf/prog-threads.c ]; then
	echo "usage: bash src/bench/bench-perf.sh [--seconds S] [--runs R] BUILDDIR WORKDIR" >&2
	echo "(from the top of the source tree)" >&2
	exit 2
fi
sframe=$(cd "$1" && pwd)/sframe
mkdir -p "$2"
work=$(cd "$2" && pwd)
cache=$work/buildid
src=$(pwd)/tests/perf
[ -x "$sframe" ] || { echo "bench-perf: no $sframe" >&2; exit 2; }

cflags=(-O2 -g -D_GNU_SOURCE -fomit-frame-pointer -Wa,--gsframe -I"$(pwd)/tests/kernel/linux-7.2")
bin=$work/bin-$seconds
if [ ! -x "$bin/prog-threads" ]; then
	mkdir -p "$bin"
	gcc "${cflags[@]}" -shared -fPIC -DLIB_OUTER=pla_outer -DLIB_INNER=pla_inner \
		-o "$bin/libperfa.so" "$src/libperf.c"
	gcc "${cflags[@]}" -shared -fPIC -DLIB_OUTER=plb_outer -DLIB_INNER=plb_inner \
		-o "$bin/libperfb.so" "$src/libperf.c"
	gcc "${cflags[@]}" -o "$bin/prog-recurse" "$src/prog-recurse.c"
	# shellcheck disable=SC2016
	gcc "${cflags[@]}" -o "$bin/prog-libs" "$src/prog-libs.c" -L"$bin" -lperfa \
		-Wl,-rpath,'$ORIGIN'
	gcc "${cflags[@]}" -pthread -o "$bin/prog-threads" "$src/prog-threads.c"
fi

# best CMD...: the best wall time of $runs runs, in seconds.
best() {
	local i t b="" TIMEFORMAT=%3R
	for i in $(seq "$runs"); do
		t=$( { time "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -n 1)
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$t
		fi
	done
	echo "$b"
}

fields=comm,tid,time,period,event,ip,sym,symoff,dso
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "perf: $(perf version); sframe: $("$sframe" --version)"
printf '%-8s %7s %7s | %11s %11s %11s %6s | %10s %10s %10s %12s\n' file samples MB \
	"perf script" "(no chain)" "sframe perf" ratio "perf chain" "perf libs" "sframe" "ratio (libs)"
for p in recurse libs threads; do
	data=$work/$p-$seconds.data
	if [ ! -s "$data" ] || [ ! -e "$data.cached" ]; then
		perf --buildid-dir "$cache" record -q -e cpu-clock -F 999 \
			--call-graph=dwarf,16384 -o "$data" "$bin/prog-$p" "$seconds" >/dev/null
		touch "$data.cached"
	fi
	t_perf=$(best perf --buildid-dir "$cache" script -F $fields --no-inline -i "$data")
	t_plain=$(best perf --buildid-dir "$cache" script -F comm,tid,time,period,event -i "$data")
	t_sf=$(best "$sframe" perf -q --buildid-dir "$cache" "$data")
	summary=$("$sframe" perf --buildid-dir "$cache" "$data" 2>&1 >/dev/null | sed -n 1p)
	samples=$(echo "$summary" | sed -n 's/^sframe perf: \([0-9]*\) samples.*/\1/p')
	sf_us=$(echo "$summary" | sed -n 's/.*frames, \([0-9.]*\) us per stack.*/\1/p')
	# perf's share in its unwinding libraries, sampled.
	perf record -q -F 4999 -o "$work/self.data" -- \
		perf --buildid-dir "$cache" script -F $fields --no-inline -i "$data" >/dev/null 2>&1
	share=$(perf report -i "$work/self.data" --sort dso --stdio 2>/dev/null |
		awk '/libunwind|libdw|libelf/ { sub("%", "", $1); s += $1 } END { printf "%.1f", s }')
	perf_us=$(awk -v t="$t_perf" -v s="$share" -v n="$samples" \
		'BEGIN { printf "%.2f", t * s / 100 / n * 1e6 }')
	chain_us=$(awk -v a="$t_perf" -v b="$t_plain" -v n="$samples" \
		'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
	printf '%-8s %7s %7.1f | %10ss %10ss %10ss %5.1fx | %7s us %7s us %7s us %11.1fx\n' "$p" \
		"$samples" "$(awk -v b="$(stat -c %s "$data")" 'BEGIN { print b / 1048576 }')" \
		"$t_perf" "$t_plain" "$t_sf" \
		"$(awk -v a="$t_perf" -v b="$t_sf" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
		"$chain_us" "$perf_us" "$sf_us" \
		"$(awk -v a="$perf_us" -v b="$sf_us" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	echo "         perf's unwinding libraries: $share% of perf script's samples"
done
