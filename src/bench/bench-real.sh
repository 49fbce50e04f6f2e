#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
#
# bench-real.sh - the benchmarks of src/bench/README.md, on real
# sections made by the toolchain at hand.
#
# Builds sframe-bench with the C compiler at hand (no Meson needed: this
# also runs inside a chroot of another Debian release, whose gas writes
# another SFrame version and whose libsframe reads it), builds two programs
# with SFrame from generated C (689 and 60,000 functions, -O2
# -Wa,--gsframe), and runs every benchmark: lookups on them and on the
# x86_64 fixtures (in memory and through a counting callback, and GNU
# libsframe on the same PCs when --libsframe is given), the synthetic 1k..1M
# series, and the unwinders.
#
# Usage, from the top of the source tree:
#   sh src/bench/bench-real.sh [--libsframe LIB] [--seconds S] WORKDIR
# LIB is what dlopen() is given, e.g. libsframe.so.3 (binutils 2.46 and
# later: v2 and v3 sections) or libsframe.so.0 (binutils 2.40: v1). CC
# (default cc) is the compiler. The generated programs are kept in WORKDIR
# and reused by later runs (the 60,000 functions take minutes to compile).
set -eu

peer=""
seconds=1
while [ $# -gt 1 ]; do
	case "$1" in
	--libsframe) peer="$2"; shift 2 ;;
	--seconds) seconds="$2"; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || [ ! -f src/bench/sframe_bench.c ]; then
	echo "usage: sh src/bench/bench-real.sh [--libsframe LIB] [--seconds S] WORKDIR" >&2
	echo "(from the top of the source tree)" >&2
	exit 2
fi
w="$1"
cc="${CC:-cc}"
mkdir -p "$w/obj"

echo "== machine"
grep -m1 'model name' /proc/cpuinfo || true
echo "cores: $(nproc)"
"$cc" --version | head -n 1
"$("$cc" -print-prog-name=as)" --version | head -n 1
[ -n "$peer" ] && echo "peer: $peer"

echo "== build"
flags="-O2 -g -std=c11 -Wall -Wextra"
for f in src/core/*.c src/unwind/*.c src/convert/*.c; do
	"$cc" $flags -ffreestanding -Iinclude -Isrc/core -Isrc/convert -c "$f" \
		-o "$w/obj/core_$(basename "$(dirname "$f")")_$(basename "$f" .c).o"
done
"$cc" $flags -fno-omit-frame-pointer -Wa,--gsframe -Iinclude -c src/bench/bench_chain.c \
	-o "$w/obj/bench_chain.o"
"$cc" $flags -D_GNU_SOURCE -DBENCH_HEAP_WRAP -Iinclude -Isrc/tool -Isrc/core -Isrc/unwind \
	-o "$w/sframe-bench" \
	src/bench/sframe_bench.c src/bench/bench_util.c src/bench/bench_heap.c \
	src/bench/bench_synth.c src/bench/bench_peer.c src/bench/bench_unwind.c src/bench/bench_offline.c \
	src/bench/bench_gen.c src/bench/bench_stack.c src/bench/bench_convert.c \
	src/tool/read/elf_input.c src/tool/read/elf_rel.c src/tool/read/elf_symbols.c \
	src/tool/read/elf_plt.c src/tool/read/elf_notes.c src/tool/target/snapshot.c src/tool/target/unwind_target.c src/tool/read/parts.c \
	src/tool/read/cfi_input.c src/tool/read/sframe_find.c src/tool/abi/tool_abi.c \
	"$w"/obj/core_*.o "$w/obj/bench_chain.o" -ldl \
	-Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc
b="$w/sframe-bench"

# gen N PARTS OUTPUT [LINK FLAGS]: a program of N generated functions,
# compiled in PARTS pieces, two at a time.
gen() {
	n="$1"; parts="$2"; out="$3"; shift 3
	[ -f "$out" ] && return 0
	k=1
	while [ "$k" -le "$parts" ]; do
		"$b" gen-c "$n" --part "$k/$parts" >"$out.$k.c"
		"$cc" -O2 -fPIC -Wa,--gsframe -c "$out.$k.c" -o "$out.$k.o" &
		if [ $((k % 2)) -eq 0 ]; then wait; fi
		k=$((k + 1))
	done
	wait
	k=1; objs=""
	while [ "$k" -le "$parts" ]; do objs="$objs $out.$k.o"; k=$((k + 1)); done
	"$cc" "$@" -o "$out" $objs
}
gen 689 1 "$w/real689.so" -shared
gen 60000 8 "$w/real60000"
for f in real689.so real60000; do
	[ -f "$w/$f.pcs" ] || "$b" pcs "$w/$f" 100000 >"$w/$f.pcs"
done

run() {
	echo "\$ sframe-bench $*"
	"$b" "$@" 2>&1 || echo "(exit status $?)"
}
peer_arg=""
[ -n "$peer" ] && peer_arg="--libsframe $peer"

echo "== lookups"
for f in real689.so real60000; do
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" $peer_arg
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" --callback
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" --index
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" --index --callback
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" --rows --index $peer_arg
	run lookup "$w/$f" "$w/$f.pcs" --seconds "$seconds" --rows --index --callback
done
for v in v1 v2 v3; do
	run lookup "fixtures/$v-x86_64/lib.so" "fixtures/$v-x86_64/lib.so.pcs" --seconds "$seconds" \
		$peer_arg
done

echo "== scale"
run scale --seconds "$seconds" $peer_arg
run scale --seconds "$seconds" --callback

echo "== unwind"
run unwind --seconds "$seconds"
run unwind --seconds "$seconds" --index --no-offline
