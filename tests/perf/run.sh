#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
# sframe perf against perf script on real recordings of this machine.
#   1. builds the test programs of this folder with the host's gcc and GNU as
#      (-O2 -fomit-frame-pointer -Wa,--gsframe, dynamically linked: only
#      SFrame or DWARF can walk them) and checks that every module has a
#      .sframe section: prog-recurse (deep recursion, alloca frames),
#      prog-libs (hot code in libperfa.so, linked, and in libperfb.so,
#      opened with dlopen), prog-threads (four threads on four call paths,
#      main on a fifth), prog-clock (clock_gettime in a loop: the vDSO);
#   2. records each with perf record --call-graph=dwarf,16384 (cpu-clock,
#      999 samples a second, about 1.5 s of CPU each), and a shell that runs
#      prog-threads then prog-libs (fork and exec: a process's mappings
#      copied, then replaced); these without perf's build-id cache (an
#      empty one for both tools: files from disk, kallsyms from /proc);
#      then "rebuilt": prog-libs and prog-clock (samples in the vDSO)
#      recorded with a build-id cache in OUTDIR/buildid (perf keeps copies
#      of the files with samples, the vDSO and kallsyms there), then
#      prog-libs and its libraries rebuilt at -O1 in place: both tools must
#      read the recorded copies from the cache, and name the vDSO's frames
#      from its copy there;
#      and two programs without SFrame, whose files sframe perf converts:
#      "python3", Debian's own interpreter running a recursive function, and
#      "qsort", qsort() with a comparison callback, built here without
#      --gsframe and without frame pointers (as distributions build);
#   3. prints each recording with perf script (its DWARF unwinder) and with
#      sframe perf (SFrame), in the same layout;
#   4. compare.py matches the samples and compares their kernel frames and
#      user frames.
# Exits 0 only if compare.py does: no sample missing on either side and at
# least 99.9% of the compared frames identical. Its last line is
# "perf-compare: N/M frames identical (X%)".
#
# Usage: run.sh OUTDIR [SFRAME]
#   OUTDIR  gets the programs (bin/), the recordings (NAME.data), both
#           outputs (NAME.perf.txt, NAME.sframe.txt) and compare.txt
#   SFRAME  the sframe tool (default: $SFRAME, else build/sframe)
# Environment: PERF_TEST_SECONDS  CPU seconds each program runs (1.5)
# Needs root, or kernel.perf_event_paranoid <= 1 (cpu-clock samples with
# kernel callchains); gcc and binutils >= 2.40 (x86_64 or aarch64, for
# --gsframe), perf (Debian: linux-perf), python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 OUTDIR [SFRAME]" >&2
	exit 2
fi
out=$(mkdir -p "$1" && cd "$1" && pwd)
sframe=${2:-${SFRAME:-$repo/build/sframe}}
seconds=${PERF_TEST_SECONDS:-1.5}

fail() {
	echo "perf-test: $*" >&2
	exit 1
}
for tool in gcc readelf objdump perf python3; do
	command -v "$tool" >/dev/null || fail "$tool not found"
done
[ -x "$sframe" ] || fail "$sframe: no sframe tool there (pass its path as SFRAME)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" != 0 ] && [ "$paranoid" -gt 1 ]; then
	fail "needs root or kernel.perf_event_paranoid <= 1 (it is $paranoid)"
fi

# ---- 1. programs --------------------------------------------------------------
bin=$out/bin
rm -rf "$bin"
mkdir -p "$bin"
# (work.h: the call-chain helpers the Linux 7.2 test's programs use too.)
cflags=(-O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -fomit-frame-pointer "-Wa,--gsframe"
	-I"$repo/tests/kernel/linux-7.2")
cc() { echo "  gcc $*"; gcc "${cflags[@]}" "$@"; }
echo "=== building ($(gcc --version | head -n 1); $(as --version | head -n 1))"
cc -shared -fPIC -DLIB_OUTER=pla_outer -DLIB_INNER=pla_inner -o "$bin/libperfa.so" \
	"$here/libperf.c"
cc -shared -fPIC -DLIB_OUTER=plb_outer -DLIB_INNER=plb_inner -o "$bin/libperfb.so" \
	"$here/libperf.c"
cc -o "$bin/prog-recurse" "$here/prog-recurse.c"
# The run path finds libperfa.so at load time and libperfb.so for dlopen
# ($ORIGIN for the dynamic linker, not the shell).
# shellcheck disable=SC2016
cc -o "$bin/prog-libs" "$here/prog-libs.c" -L"$bin" -lperfa -Wl,-rpath,'$ORIGIN'
cc -pthread -o "$bin/prog-threads" "$here/prog-threads.c"
cc -o "$bin/prog-clock" "$here/prog-clock.c"
for f in "$bin"/*; do
	size=$(readelf -SW "$f" | awk '$2 == ".sframe" { print $6 }')
	if [ -z "$size" ] || [ $((16#$size)) -eq 0 ]; then
		fail "$f has no .sframe section (does GNU as take --gsframe?)"
	fi
	# (Not piped into grep -q: objdump killed by SIGPIPE would fail the pipe.)
	dump=$(objdump --sframe=.sframe "$f") || fail "objdump --sframe failed on $f"
	grep -q 'Version: SFRAME_VERSION_' <<<"$dump" ||
		fail "objdump --sframe finds no SFrame header in $f"
	echo "  $(basename "$f"): .sframe of $((16#$size)) bytes"
done

# Without SFrame, as distributions build: its files are converted.
stock=$out/stock
rm -rf "$stock"
mkdir -p "$stock"
cat >"$stock/qsort.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
int main(int argc, char **argv)
{
	static int v[65536];
	double secs = argc > 1 ? atof(argv[1]) : 1;
	clock_t end = clock() + (clock_t)(secs * CLOCKS_PER_SEC);
	unsigned int x = 1;
	int i;

	while (clock() < end) {
		for (i = 0; i < 65536; i++)
			v[i] = (int)((x = x * 1103515245u + 12345u) >> 8);
		qsort(v, 65536, sizeof(v[0]), cmp);
	}
	return 0;
}
EOF
gcc -O2 -fomit-frame-pointer -o "$stock/qsort" "$stock/qsort.c" || fail "cannot build qsort.c"
if readelf -SW "$stock/qsort" | grep -q ' \.sframe '; then
	fail "$stock/qsort has SFrame: the test needs none"
fi
python=$(readlink -f /usr/bin/python3)
if readelf -SW "$python" | grep -q ' \.sframe '; then
	fail "$python has SFrame: the test needs a stock interpreter"
fi

# ---- 2.-3. recordings, both outputs ---------------------------------------------
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# "shell": a shell that forks and execs two of the programs in turn (the
# mappings of a process copied at fork and replaced at exec).
progs="recurse libs threads shell rebuilt python3 qsort"
nocache=$out/no-cache
cache=$out/buildid
rm -rf "$nocache" "$cache" "$out/rebuilt"
mkdir -p "$nocache" "$out/rebuilt"
cp "$bin/prog-libs" "$bin/libperfa.so" "$bin/libperfb.so" "$out/rebuilt/"
pairs=()
order_failed=""
table=""
for p in $progs; do
	echo "=== $p"
	data=$out/$p.data
	t=$(now)
	dir=$nocache
	record=(record -q --no-buildid-cache)
	if [ "$p" = shell ]; then
		cmd=(sh -c "\"\$0\" $seconds && \"\$1\" $seconds" "$bin/prog-threads" "$bin/prog-libs")
	elif [ "$p" = rebuilt ]; then
		dir=$cache
		record=(record -q)
		cmd=(sh -c "\"\$0\" $seconds && \"\$1\" $seconds" "$out/rebuilt/prog-libs" \
			"$bin/prog-clock")
	elif [ "$p" = python3 ]; then
		# time.process_time() runs in the vDSO: its copy in the cache
		# (recorded as perf record leaves it by default).
		dir=$cache
		record=(record -q)
		cmd=("$python" -c "import time
def f(n):
    return 1 if n == 0 else 1 + f(n - 1)
end = time.process_time() + $seconds
while time.process_time() < end:
    f(40)")
	elif [ "$p" = qsort ]; then
		dir=$cache
		record=(record -q)
		cmd=("$stock/qsort" "$seconds")
	else
		cmd=("$bin/prog-$p" "$seconds")
	fi
	perf --buildid-dir "$dir" "${record[@]}" -e cpu-clock -F 999 --call-graph=dwarf,16384 \
		-o "$data" "${cmd[@]}" >"$out/$p.stdout" ||
		fail "perf record of ${cmd[*]} failed"
	t_rec=$(since "$t")
	if [ "$p" = rebuilt ]; then
		# Other code at the recorded paths: -O1 instead of -O2.
		(
			cd "$out/rebuilt"
			cflags[0]=-O1
			cc -shared -fPIC -DLIB_OUTER=pla_outer -DLIB_INNER=pla_inner \
				-o libperfa.so "$here/libperf.c"
			cc -shared -fPIC -DLIB_OUTER=plb_outer -DLIB_INNER=plb_inner \
				-o libperfb.so "$here/libperf.c"
			# shellcheck disable=SC2016
			cc -o prog-libs "$here/prog-libs.c" -L. -lperfa -Wl,-rpath,'$ORIGIN'
		)
		# Without the cache the rebuilt files are refused by their build id.
		"$sframe" perf --buildid-dir "$nocache" "$data" >"$out/$p.nocache.txt" 2>&1 ||
			fail "$sframe perf --buildid-dir $nocache $data failed"
		grep -q 'is not the file recorded (build id' "$out/$p.nocache.txt" ||
			fail "the rebuilt files were not told apart from the recorded ones"
	fi
	t=$(now)
	perf --buildid-dir "$dir" script -F comm,tid,time,period,event,ip,sym,symoff,dso \
		--no-inline -i "$data" >"$out/$p.perf.txt" 2>"$out/$p.perf.err" || {
		cat "$out/$p.perf.err" >&2
		fail "perf script -i $data failed"
	}
	t_script=$(since "$t")
	t=$(now)
	"$sframe" perf --buildid-dir "$dir" "$data" >"$out/$p.sframe.txt" \
		2>"$out/$p.sframe.err" || {
		cat "$out/$p.sframe.err" >&2
		fail "$sframe perf $data failed"
	}
	t_sframe=$(since "$t")
	if [ "$p" = rebuilt ]; then
		grep -q 'read from the build-id cache' "$out/$p.sframe.err" ||
			fail "sframe perf did not read the recorded files from the build-id cache $cache"
		grep -q 'clock_gettime+0x[0-9a-f]* (\[vdso\])$' "$out/$p.sframe.txt" ||
			fail "no frame in the vDSO named from its copy in the build-id cache"
	fi
	samples=$(grep -c -v -e '^	' -e '^$' "$out/$p.perf.txt" || true)
	table+=$(printf '%-10s %7s %10s %12ss %12ss %12ss' "$p" "$samples" \
		"$(stat -c %s "$data")" "$t_rec" "$t_script" "$t_sframe")$'\n'
	pairs+=("$out/$p.perf.txt" "$out/$p.sframe.txt")
	# The samples in the same order as perf's (both sort the records by
	# time, round by round): the header lines, one per sample, alike.
	if ! cmp -s <(grep -v -e '^	' -e '^$' "$out/$p.perf.txt") \
		<(grep -v -e '^	' -e '^$' "$out/$p.sframe.txt"); then
		order_failed+=" $p"
	fi
done
echo
printf '%-10s %7s %10s %13s %13s %13s\n' program samples bytes "perf record" \
	"perf script" "sframe perf"
printf '%s' "$table"
echo

# ---- 4. comparison --------------------------------------------------------------
set +e
python3 "$here/compare.py" --converted "${pairs[@]}" >"$out/compare.txt"
rc=$?
set -e
cat "$out/compare.txt"
if [ -n "$order_failed" ]; then
	echo "perf-test: samples not in perf script's order:$order_failed" >&2
	exit 1
fi
exit "$rc"
